"""The torch adapter's Array API elementwise math: torch's own functions of the standard's names
(torch.atan2, torch.logaddexp, ...); floor_divide and remainder are Python's // and % on tensors
(adapters/operators.py), as models write them, and so are the comparisons, & | ^ ~ << >> and
unary +."""
from adapters.base import ALL_DTYPES, BITWISE_OPS, COMPLEX, FLOATS, dtypes_except

# Measured with `python -m suites coverage --adapter torch --check`: every other op takes every dtype
# (an integer or bool input of sin gives a float: torch's promotion); conj and real take every dtype, imag complex
# ones only (RuntimeError: "imag is not implemented for tensors with non-complex dtypes")
TORCH_ELEMENTWISE_DTYPES = {"conj": ALL_DTYPES, "real": ALL_DTYPES, "imag": COMPLEX,
                            **dict.fromkeys(("logaddexp", "hypot", "nextafter"), FLOATS),
                            **dict.fromkeys(("floor_divide", "remainder", "positive"), dtypes_except("bool")),
                            **dict.fromkeys(BITWISE_OPS[:4], dtypes_except(*FLOATS)),
                            **dict.fromkeys(BITWISE_OPS[4:], dtypes_except(*FLOATS, "bool"))}

class TorchElementwise:
    """A mixin of TorchAdapter (self.torch is the torch module)."""

    def sin(self, x):
        return self.torch.sin(x)

    def cos(self, x):
        return self.torch.cos(x)

    def tan(self, x):
        return self.torch.tan(x)

    def asin(self, x):
        return self.torch.asin(x)

    def acos(self, x):
        return self.torch.acos(x)

    def atan(self, x):
        return self.torch.atan(x)

    def atan2(self, x1, x2):
        return self.torch.atan2(x1, x2)

    def sinh(self, x):
        return self.torch.sinh(x)

    def cosh(self, x):
        return self.torch.cosh(x)

    def asinh(self, x):
        return self.torch.asinh(x)

    def acosh(self, x):
        return self.torch.acosh(x)

    def atanh(self, x):
        return self.torch.atanh(x)

    def expm1(self, x):
        return self.torch.expm1(x)

    def log1p(self, x):
        return self.torch.log1p(x)

    def log2(self, x):
        return self.torch.log2(x)

    def log10(self, x):
        return self.torch.log10(x)

    def reciprocal(self, x):
        return self.torch.reciprocal(x)

    def logaddexp(self, x1, x2):
        return self.torch.logaddexp(x1, x2)

    def hypot(self, x1, x2):
        return self.torch.hypot(x1, x2)

    def copysign(self, x1, x2):
        return self.torch.copysign(x1, x2)

    def nextafter(self, x1, x2):
        return self.torch.nextafter(x1, x2)

    def isnan(self, x):
        return self.torch.isnan(x)

    def isinf(self, x):
        return self.torch.isinf(x)

    def isfinite(self, x):
        return self.torch.isfinite(x)

    def conj(self, x):
        """torch.conj is a lazy view (its conjugate bit set), as users get it; to_numpy resolves it."""
        return self.torch.conj(x)

    def real(self, x):
        return self.torch.real(x)

    def imag(self, x):
        return self.torch.imag(x)

    def signbit(self, x):
        return self.torch.signbit(x)

    def logical_and(self, x1, x2):
        return self.torch.logical_and(x1, x2)

    def logical_or(self, x1, x2):
        return self.torch.logical_or(x1, x2)

    def logical_xor(self, x1, x2):
        return self.torch.logical_xor(x1, x2)

    def logical_not(self, x):
        return self.torch.logical_not(x)

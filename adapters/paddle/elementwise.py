"""The Paddle adapter's Array API elementwise math: paddle's own functions of the standard's names
(paddle.atan2, paddle.logaddexp, ...); floor_divide and remainder are Python's // and % on
tensors (adapters/operators.py), as models write them, and so are the comparisons, & | ^ ~ << >>
and unary +."""
from adapters.base import BITWISE_OPS, COMPLEX, DTYPES, FLOATS, dtypes_except

# Measured with `python -m suites coverage --adapter paddle --check` (PaddleAdapter's default is float32 and
# float64): Paddle's CPU kernels, integers promoted to float32 where the op takes them
PADDLE_ELEMENTWISE_DTYPES = {
    # paddle.real and paddle.imag have complex kernels only (2024.12's real takes real dtypes too)
    "conj": ("float32", "float64", "int32", "int64") + COMPLEX, **dict.fromkeys(("real", "imag"), COMPLEX),
    **dict.fromkeys(("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
                     "reciprocal", "signbit"), dtypes_except("float16", "bfloat16", "bool")),
    **dict.fromkeys(("atan2", "expm1"), ("float16", "float32", "float64", "int32", "int64")),
    **dict.fromkeys(("log1p", "log2", "log10", "isnan", "isfinite"), dtypes_except("int8", "uint8", "int16", "bool")),
    **dict.fromkeys(("logaddexp", "hypot", "remainder"), ("float32", "float64", "int32", "int64")),
    "copysign": DTYPES, **dict.fromkeys(("floor_divide", "isinf", "positive"), dtypes_except("bool")),
    **dict.fromkeys(("equal", "not_equal", "less", "less_equal", "greater_equal"), DTYPES),
    **dict.fromkeys(("logical_and", "logical_or", "logical_xor", "logical_not"),
                    dtypes_except("float16", "bfloat16", "uint8")),
    **dict.fromkeys(BITWISE_OPS[:4], dtypes_except(*FLOATS)),
    **dict.fromkeys(BITWISE_OPS[4:], dtypes_except(*FLOATS, "bool"))}

class PaddleElementwise:
    """A mixin of PaddleAdapter (self.paddle is the paddle module)."""

    def sin(self, x):
        return self.paddle.sin(x)

    def cos(self, x):
        return self.paddle.cos(x)

    def tan(self, x):
        return self.paddle.tan(x)

    def asin(self, x):
        return self.paddle.asin(x)

    def acos(self, x):
        return self.paddle.acos(x)

    def atan(self, x):
        return self.paddle.atan(x)

    def atan2(self, x1, x2):
        return self.paddle.atan2(x1, x2)

    def sinh(self, x):
        return self.paddle.sinh(x)

    def cosh(self, x):
        return self.paddle.cosh(x)

    def asinh(self, x):
        return self.paddle.asinh(x)

    def acosh(self, x):
        return self.paddle.acosh(x)

    def atanh(self, x):
        return self.paddle.atanh(x)

    def expm1(self, x):
        return self.paddle.expm1(x)

    def log1p(self, x):
        return self.paddle.log1p(x)

    def log2(self, x):
        return self.paddle.log2(x)

    def log10(self, x):
        return self.paddle.log10(x)

    def reciprocal(self, x):
        return self.paddle.reciprocal(x)

    def logaddexp(self, x1, x2):
        return self.paddle.logaddexp(x1, x2)

    def hypot(self, x1, x2):
        return self.paddle.hypot(x1, x2)

    def copysign(self, x1, x2):
        return self.paddle.copysign(x1, x2)

    def nextafter(self, x1, x2):
        return self.paddle.nextafter(x1, x2)

    def isnan(self, x):
        return self.paddle.isnan(x)

    def isinf(self, x):
        return self.paddle.isinf(x)

    def isfinite(self, x):
        return self.paddle.isfinite(x)

    def conj(self, x):
        return self.paddle.conj(x)

    def real(self, x):
        return self.paddle.real(x)

    def imag(self, x):
        return self.paddle.imag(x)

    def signbit(self, x):
        return self.paddle.signbit(x)

    def logical_and(self, x1, x2):
        return self.paddle.logical_and(x1, x2)

    def logical_or(self, x1, x2):
        return self.paddle.logical_or(x1, x2)

    def logical_xor(self, x1, x2):
        return self.paddle.logical_xor(x1, x2)

    def logical_not(self, x):
        return self.paddle.logical_not(x)

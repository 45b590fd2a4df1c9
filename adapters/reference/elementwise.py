"""The reference for the Array API standard's elementwise math (vocabulary/elementwise.py): NumPy's
functions, which follow C99's Annex F and so the standard's special cases, except where the
standard states otherwise (floor_divide at the infinities: NumPy follows Python's floor division
there); each such place is written out from the standard's text (a mixin of ReferenceAdapter)."""
import numpy as np

from adapters.base import COMPLEX, dtypes_except

# The standard's text: conj takes every numeric dtype, real floating and complex ones (an integer's
# precision names no float), imag complex ones
COMPONENT_DTYPES = {"conj": dtypes_except("bfloat16") + COMPLEX, "real": ("float16", "float32", "float64") + COMPLEX,
                    "imag": COMPLEX}


class ElementwiseReference:
    def sin(self, x):
        return np.sin(x)

    def cos(self, x):
        return np.cos(x)

    def tan(self, x):
        return np.tan(x)

    def asin(self, x):
        return np.arcsin(x)

    def acos(self, x):
        return np.arccos(x)

    def atan(self, x):
        return np.arctan(x)

    def atan2(self, x1, x2):
        return np.arctan2(x1, x2)

    def sinh(self, x):
        return np.sinh(x)

    def cosh(self, x):
        return np.cosh(x)

    def asinh(self, x):
        return np.arcsinh(x)

    def acosh(self, x):
        return np.arccosh(x)

    def atanh(self, x):
        return np.arctanh(x)

    def expm1(self, x):
        return np.expm1(x)

    def log1p(self, x):
        return np.log1p(x)

    def log2(self, x):
        return np.log2(x)

    def log10(self, x):
        return np.log10(x)

    def reciprocal(self, x):
        return np.reciprocal(x)

    def logaddexp(self, x1, x2):
        return np.logaddexp(x1, x2)

    def hypot(self, x1, x2):
        return np.hypot(x1, x2)

    def copysign(self, x1, x2):
        return np.copysign(x1, x2)

    def nextafter(self, x1, x2):
        """C99's nextafter, as the standard states it: x2 where the operands are equal, so the
        result of (-0, +0) is +0. NumPy's float16 nextafter gives x1 there (-0)."""
        return np.where(np.equal(x1, x2), x2, np.nextafter(x1, x2))

    def floor_divide(self, x1, x2):
        """The quotient rounded toward -inf. Finite operands: NumPy's floor_divide, which floors the
        exact quotient (1 // 0.1 is 9, where floor(1 / 0.1) is 10), and at a zero divisor gives the
        standard's signed infinity. An infinite operand: the standard's cases, floor(x1 / x2)
        (inf // 3 = inf and 0.5 // -inf = -0, where NumPy, as Python, gives NaN and -1)."""
        x1, x2 = np.asarray(x1), np.asarray(x2)
        with np.errstate(divide="ignore", invalid="ignore"):
            finite = np.floor_divide(x1, x2)
            if finite.dtype.kind != "f":
                return finite
            return np.where(np.isinf(x1) | np.isinf(x2), np.floor(x1 / x2), finite)

    def remainder(self, x1, x2):
        """x1 - floor_divide(x1, x2) * x2 with x2's sign, as NumPy computes it (exactly, through
        fmod); its special cases are the standard's (0.5 % inf = 0.5, 0.5 % -inf = -inf)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.remainder(x1, x2)

    def isnan(self, x):
        return np.isnan(x)

    def conj(self, x):
        return np.conjugate(x)

    def real(self, x):
        """The real component; 2024.12 takes a real x too, and asks a floating result (an integer x is
        left out: its precision names no float)."""
        if np.asarray(x).dtype.kind not in "fc":
            raise TypeError(f"real takes a floating or complex x; got {np.asarray(x).dtype}")
        return np.real(x)

    def imag(self, x):
        """The imaginary component; 2024.12 asks a complex x (NumPy gives a real x's zeros)."""
        if np.asarray(x).dtype.kind != "c":
            raise TypeError(f"imag takes a complex x; got {np.asarray(x).dtype}")
        return np.imag(x)

    def isinf(self, x):
        return np.isinf(x)

    def isfinite(self, x):
        return np.isfinite(x)

    def signbit(self, x):
        return np.signbit(x)

    # -- comparisons, logic and bits (vocabulary/elementwise.py's LOGIC_OPS): IEEE 754's comparisons;
    # NumPy's shifts are the arithmetic at every amount (1 << 100 is 0 in every integer dtype, -1 >> 100
    # is -1), which the standard leaves unstated past the width
    def equal(self, x1, x2):
        return np.equal(x1, x2)

    def not_equal(self, x1, x2):
        return np.not_equal(x1, x2)

    def less(self, x1, x2):
        return np.less(x1, x2)

    def less_equal(self, x1, x2):
        return np.less_equal(x1, x2)

    def greater_equal(self, x1, x2):
        return np.greater_equal(x1, x2)

    def logical_and(self, x1, x2):
        return np.logical_and(x1, x2)

    def logical_or(self, x1, x2):
        return np.logical_or(x1, x2)

    def logical_xor(self, x1, x2):
        return np.logical_xor(x1, x2)

    def logical_not(self, x):
        return np.logical_not(x)

    def bitwise_and(self, x1, x2):
        return np.bitwise_and(x1, x2)

    def bitwise_or(self, x1, x2):
        return np.bitwise_or(x1, x2)

    def bitwise_xor(self, x1, x2):
        return np.bitwise_xor(x1, x2)

    def bitwise_invert(self, x):
        return np.invert(x)

    def bitwise_left_shift(self, x1, x2):
        return np.left_shift(x1, x2)

    def bitwise_right_shift(self, x1, x2):
        return np.right_shift(x1, x2)

    def positive(self, x):
        return np.positive(x)

"""The engine adapter's Array API elementwise math: engine/ops.py's table."""


class EngineElementwise:
    """A mixin of EngineAdapter (self.ops is engine.ops)."""

    def sin(self, x):
        return self.ops.sin(x)

    def cos(self, x):
        return self.ops.cos(x)

    def tan(self, x):
        return self.ops.tan(x)

    def asin(self, x):
        return self.ops.asin(x)

    def acos(self, x):
        return self.ops.acos(x)

    def atan(self, x):
        return self.ops.atan(x)

    def atan2(self, x1, x2):
        return self.ops.atan2(x1, x2)

    def sinh(self, x):
        return self.ops.sinh(x)

    def cosh(self, x):
        return self.ops.cosh(x)

    def asinh(self, x):
        return self.ops.asinh(x)

    def acosh(self, x):
        return self.ops.acosh(x)

    def atanh(self, x):
        return self.ops.atanh(x)

    def expm1(self, x):
        return self.ops.expm1(x)

    def log1p(self, x):
        return self.ops.log1p(x)

    def log2(self, x):
        return self.ops.log2(x)

    def log10(self, x):
        return self.ops.log10(x)

    def reciprocal(self, x):
        return self.ops.reciprocal(x)

    def logaddexp(self, x1, x2):
        return self.ops.logaddexp(x1, x2)

    def hypot(self, x1, x2):
        return self.ops.hypot(x1, x2)

    def copysign(self, x1, x2):
        return self.ops.copysign(x1, x2)

    def nextafter(self, x1, x2):
        return self.ops.nextafter(x1, x2)

    def floor_divide(self, x1, x2):
        return self.ops.floor_divide(x1, x2)

    def remainder(self, x1, x2):
        return self.ops.remainder(x1, x2)

    def conj(self, x):
        return self.ops.conj(x)

    def real(self, x):
        return self.ops.real(x)

    def imag(self, x):
        return self.ops.imag(x)

    def isnan(self, x):
        return self.ops.isnan(x)

    def isinf(self, x):
        return self.ops.isinf(x)

    def isfinite(self, x):
        return self.ops.isfinite(x)

    def signbit(self, x):
        return self.ops.signbit(x)

    def equal(self, x1, x2):
        return self.ops.equal(x1, x2)

    def not_equal(self, x1, x2):
        return self.ops.not_equal(x1, x2)

    def less(self, x1, x2):
        return self.ops.less(x1, x2)

    def less_equal(self, x1, x2):
        return self.ops.less_equal(x1, x2)

    def greater_equal(self, x1, x2):
        return self.ops.greater_equal(x1, x2)

    def logical_and(self, x1, x2):
        return self.ops.logical_and(x1, x2)

    def logical_or(self, x1, x2):
        return self.ops.logical_or(x1, x2)

    def logical_xor(self, x1, x2):
        return self.ops.logical_xor(x1, x2)

    def logical_not(self, x):
        return self.ops.logical_not(x)

    def bitwise_and(self, x1, x2):
        return self.ops.bitwise_and(x1, x2)

    def bitwise_or(self, x1, x2):
        return self.ops.bitwise_or(x1, x2)

    def bitwise_xor(self, x1, x2):
        return self.ops.bitwise_xor(x1, x2)

    def bitwise_invert(self, x):
        return self.ops.bitwise_invert(x)

    def bitwise_left_shift(self, x1, x2):
        return self.ops.bitwise_left_shift(x1, x2)

    def bitwise_right_shift(self, x1, x2):
        return self.ops.bitwise_right_shift(x1, x2)

    def positive(self, x):
        return self.ops.positive(x)

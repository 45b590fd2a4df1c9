"""The jax adapter's Array API elementwise math: jax.numpy's functions under NumPy's names
(jnp.arcsin, jnp.arctan2: the names jax's users write; jnp's Array API aliases are the same
functions)."""


class JaxElementwise:
    """A mixin of JaxAdapter (self.jnp is jax.numpy)."""

    def sin(self, x):
        return self.jnp.sin(x)

    def cos(self, x):
        return self.jnp.cos(x)

    def tan(self, x):
        return self.jnp.tan(x)

    def asin(self, x):
        return self.jnp.arcsin(x)

    def acos(self, x):
        return self.jnp.arccos(x)

    def atan(self, x):
        return self.jnp.arctan(x)

    def atan2(self, x1, x2):
        return self.jnp.arctan2(x1, x2)

    def sinh(self, x):
        return self.jnp.sinh(x)

    def cosh(self, x):
        return self.jnp.cosh(x)

    def asinh(self, x):
        return self.jnp.arcsinh(x)

    def acosh(self, x):
        return self.jnp.arccosh(x)

    def atanh(self, x):
        return self.jnp.arctanh(x)

    def expm1(self, x):
        return self.jnp.expm1(x)

    def log1p(self, x):
        return self.jnp.log1p(x)

    def log2(self, x):
        return self.jnp.log2(x)

    def log10(self, x):
        return self.jnp.log10(x)

    def reciprocal(self, x):
        return self.jnp.reciprocal(x)

    def logaddexp(self, x1, x2):
        return self.jnp.logaddexp(x1, x2)

    def hypot(self, x1, x2):
        return self.jnp.hypot(x1, x2)

    def copysign(self, x1, x2):
        return self.jnp.copysign(x1, x2)

    def nextafter(self, x1, x2):
        return self.jnp.nextafter(x1, x2)

    def floor_divide(self, x1, x2):
        return self.jnp.floor_divide(x1, x2)

    def remainder(self, x1, x2):
        return self.jnp.remainder(x1, x2)

    def isnan(self, x):
        return self.jnp.isnan(x)

    def isinf(self, x):
        return self.jnp.isinf(x)

    def isfinite(self, x):
        return self.jnp.isfinite(x)

    def conj(self, x):
        return self.jnp.conj(x)

    def real(self, x):
        return self.jnp.real(x)

    def imag(self, x):
        return self.jnp.imag(x)

    def signbit(self, x):
        return self.jnp.signbit(x)

    def equal(self, x1, x2):
        return self.jnp.equal(x1, x2)

    def not_equal(self, x1, x2):
        return self.jnp.not_equal(x1, x2)

    def less(self, x1, x2):
        return self.jnp.less(x1, x2)

    def less_equal(self, x1, x2):
        return self.jnp.less_equal(x1, x2)

    def greater_equal(self, x1, x2):
        return self.jnp.greater_equal(x1, x2)

    def logical_and(self, x1, x2):
        return self.jnp.logical_and(x1, x2)

    def logical_or(self, x1, x2):
        return self.jnp.logical_or(x1, x2)

    def logical_xor(self, x1, x2):
        return self.jnp.logical_xor(x1, x2)

    def logical_not(self, x):
        return self.jnp.logical_not(x)

    def bitwise_and(self, x1, x2):
        return self.jnp.bitwise_and(x1, x2)

    def bitwise_or(self, x1, x2):
        return self.jnp.bitwise_or(x1, x2)

    def bitwise_xor(self, x1, x2):
        return self.jnp.bitwise_xor(x1, x2)

    def bitwise_invert(self, x):
        return self.jnp.invert(x)

    def bitwise_left_shift(self, x1, x2):
        return self.jnp.left_shift(x1, x2)

    def bitwise_right_shift(self, x1, x2):
        return self.jnp.right_shift(x1, x2)

    def positive(self, x):
        return self.jnp.positive(x)

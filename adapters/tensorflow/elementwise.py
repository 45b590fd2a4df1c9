"""The TensorFlow adapter's Array API elementwise math: tf.math's ops where TensorFlow has them
(tf.math.atan2, tf.math.is_nan, ...), tf.experimental.numpy's where tf.math has none (log2,
log10, logaddexp, hypot, signbit); floor_divide and remainder are Python's // and % on tensors
(adapters/operators.py: tf.math.floordiv and tf.math.floormod), as models write them; so are the
comparisons and & | ^ ~ (tf.math.logical_and on bool tensors, tf.bitwise.bitwise_and on integers).
tf.Tensor has no << >> or unary +: the shifts are tf.bitwise's, positive tf.experimental.numpy's."""
from adapters.base import ALL_DTYPES, BITWISE_OPS, COMPLEX, DTYPES, FLOATS, Unsupported, dtypes_except

# Measured with `python -m suites coverage --adapter tensorflow --check`: tf.math's kernels take floats
# only (no integer promotion), tf.experimental.numpy's no bfloat16
TENSORFLOW_ELEMENTWISE_DTYPES = {
    # tf.math.conj and tf.math.real refuse bool (TypeError); tf.math.imag gives zeros for every real dtype
    **dict.fromkeys(("conj", "real"), dtypes_except("bool") + COMPLEX), "imag": ALL_DTYPES,
    **dict.fromkeys(("sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "asinh", "acosh", "atanh",
                     "expm1", "log1p", "reciprocal", "isnan", "isinf", "isfinite"), FLOATS),
    **dict.fromkeys(("log2", "log10", "logaddexp", "hypot"), ("float16", "float32", "float64")),
    "copysign": (), "nextafter": ("float32", "float64"),
    **dict.fromkeys(("floor_divide", "remainder", "less", "less_equal", "greater_equal"), dtypes_except("bool")),
    **dict.fromkeys(("equal", "not_equal", "positive"), DTYPES),
    **dict.fromkeys(("logical_and", "logical_or", "logical_xor", "logical_not"), ("bool",)),
    **dict.fromkeys(BITWISE_OPS[:4], dtypes_except(*FLOATS)),
    **dict.fromkeys(BITWISE_OPS[4:], dtypes_except(*FLOATS, "bool"))}

class TensorFlowElementwise:
    """A mixin of TensorFlowAdapter (self.tf is the tensorflow module)."""

    def sin(self, x):
        return self.tf.math.sin(x)

    def cos(self, x):
        return self.tf.math.cos(x)

    def tan(self, x):
        return self.tf.math.tan(x)

    def asin(self, x):
        return self.tf.math.asin(x)

    def acos(self, x):
        return self.tf.math.acos(x)

    def atan(self, x):
        return self.tf.math.atan(x)

    def atan2(self, x1, x2):
        return self.tf.math.atan2(x1, x2)

    def sinh(self, x):
        return self.tf.math.sinh(x)

    def cosh(self, x):
        return self.tf.math.cosh(x)

    def asinh(self, x):
        return self.tf.math.asinh(x)

    def acosh(self, x):
        return self.tf.math.acosh(x)

    def atanh(self, x):
        return self.tf.math.atanh(x)

    def expm1(self, x):
        return self.tf.math.expm1(x)

    def log1p(self, x):
        return self.tf.math.log1p(x)

    def log2(self, x):
        return self.tf.experimental.numpy.log2(x)

    def log10(self, x):
        return self.tf.experimental.numpy.log10(x)

    def reciprocal(self, x):
        return self.tf.math.reciprocal(x)

    def logaddexp(self, x1, x2):
        return self.tf.experimental.numpy.logaddexp(x1, x2)

    def hypot(self, x1, x2):
        return self.tf.experimental.numpy.hypot(x1, x2)

    def copysign(self, x1, x2):
        raise Unsupported("TensorFlow has no copysign (neither tf.math nor tf.experimental.numpy)")

    def nextafter(self, x1, x2):
        return self.tf.math.nextafter(x1, x2)

    def isnan(self, x):
        return self.tf.math.is_nan(x)

    def isinf(self, x):
        return self.tf.math.is_inf(x)

    def isfinite(self, x):
        return self.tf.math.is_finite(x)

    def conj(self, x):
        return self.tf.math.conj(x)

    def real(self, x):
        return self.tf.math.real(x)

    def imag(self, x):
        return self.tf.math.imag(x)

    def signbit(self, x):
        return self.tf.experimental.numpy.signbit(x)

    def logical_and(self, x1, x2):
        return self.tf.math.logical_and(x1, x2)

    def logical_or(self, x1, x2):
        return self.tf.math.logical_or(x1, x2)

    def logical_xor(self, x1, x2):
        return self.tf.math.logical_xor(x1, x2)

    def logical_not(self, x):
        return self.tf.math.logical_not(x)

    def bitwise_left_shift(self, x1, x2):
        return self.tf.bitwise.left_shift(x1, x2)

    def bitwise_right_shift(self, x1, x2):
        return self.tf.bitwise.right_shift(x1, x2)

    def positive(self, x):
        return self.tf.experimental.numpy.positive(x)

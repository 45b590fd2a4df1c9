"""The TensorFlow adapter's Array API reductions beyond sum, mean and max (vocabulary/statistics.py):
tf.reduce_min, tf.reduce_prod, tf.math.reduce_variance and reduce_std (the population's, the
standard's default; tf.math has no correction, so a spec that asks one gets
tf.experimental.numpy.var with ddof, where TensorFlow's users reach for it; its std has no ddof:
unsupported),
tf.reduce_all and tf.reduce_any (bool tensors only), tf.math.cumprod and tf.experimental.numpy.diff
(which takes no prepend or append: unsupported)."""
from adapters.base import FLOATS, Unsupported, axes_tuple, dtypes_except, no_diff_joins

# Measured with `python -m suites coverage --adapter tensorflow --check`
TENSORFLOW_STATISTICS_DTYPES = {**dict.fromkeys(("min", "prod", "cumprod", "searchsorted"), dtypes_except("bool")),
                                **dict.fromkeys(("var", "std"), FLOATS), **dict.fromkeys(("all", "any"), ("bool",))}


class TensorFlowStatistics:
    """A mixin of TensorFlowAdapter (self.tf is the tensorflow module)."""

    def min(self, x, axis=None, keepdims=False):
        return self.tf.reduce_min(x, axis=axis, keepdims=keepdims)

    def prod(self, x, axis=None, keepdims=False):
        return self.tf.reduce_prod(x, axis=axis, keepdims=keepdims)

    def var(self, x, axis=None, correction=None, keepdims=False):
        if not correction:
            return self.tf.math.reduce_variance(x, axis=axis, keepdims=keepdims)
        return self.tf.experimental.numpy.var(x, axis=axes_tuple(axis), ddof=correction, keepdims=keepdims)

    def std(self, x, axis=None, correction=None, keepdims=False):
        if correction:
            raise Unsupported("TensorFlow's std takes no correction (tf.math.reduce_std and "
                              "tf.experimental.numpy.std compute the population's)")
        return self.tf.math.reduce_std(x, axis=axis, keepdims=keepdims)

    def all(self, x, axis=None, keepdims=False):
        return self.tf.reduce_all(x, axis=axis, keepdims=keepdims)

    def any(self, x, axis=None, keepdims=False):
        return self.tf.reduce_any(x, axis=axis, keepdims=keepdims)

    def count_nonzero(self, x, axis=None, keepdims=False):
        return self.tf.math.count_nonzero(x, axis=axes_tuple(axis), keepdims=keepdims)

    def cumprod(self, x, axis):
        return self.tf.math.cumprod(x, axis=axis)

    def diff(self, x, axis=-1, n=1, prepend=None, append=None):
        no_diff_joins("tf.experimental.numpy.diff", prepend, append)
        return self.tf.experimental.numpy.diff(x, n=n, axis=axis)

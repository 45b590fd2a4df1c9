"""The Keras adapter's Array API reductions beyond sum, mean and max (vocabulary/statistics.py):
keras.ops.min, prod, var and std (the population's, correction 0: keras.ops has no correction, so
a spec that asks another is unsupported), all and any, cumprod and diff (which takes no prepend or
append: unsupported), on whichever backend is configured."""
from adapters.base import Unsupported, no_diff_joins


class KerasStatistics:
    """A mixin of KerasAdapter (self.ops is keras.ops)."""

    def min(self, x, axis=None, keepdims=False):
        return self.ops.min(x, axis=axis, keepdims=keepdims)

    def prod(self, x, axis=None, keepdims=False):
        return self.ops.prod(x, axis=axis, keepdims=keepdims)

    def var(self, x, axis=None, correction=None, keepdims=False):
        if correction:
            raise Unsupported("keras.ops.var takes no correction (it computes the population variance)")
        return self.ops.var(x, axis=axis, keepdims=keepdims)

    def std(self, x, axis=None, correction=None, keepdims=False):
        if correction:
            raise Unsupported("keras.ops.std takes no correction (it computes the population deviation)")
        return self.ops.std(x, axis=axis, keepdims=keepdims)

    def all(self, x, axis=None, keepdims=False):
        return self.ops.all(x, axis=axis, keepdims=keepdims)

    def any(self, x, axis=None, keepdims=False):
        return self.ops.any(x, axis=axis, keepdims=keepdims)

    def count_nonzero(self, x, axis=None, keepdims=False):
        if keepdims:
            raise Unsupported("keras.ops.count_nonzero takes no keepdims")
        return self.ops.count_nonzero(x, axis=axis)

    def cumprod(self, x, axis):
        return self.ops.cumprod(x, axis=axis)

    def diff(self, x, axis=-1, n=1, prepend=None, append=None):
        no_diff_joins("keras.ops.diff", prepend, append)
        return self.ops.diff(x, n=n, axis=axis)

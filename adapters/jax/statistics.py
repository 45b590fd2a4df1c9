"""The jax adapter's Array API reductions beyond sum, mean and max (vocabulary/statistics.py):
jax.numpy's min, prod, var and std (with the standard's `correction`, 0 by default), all and any,
cumprod and diff."""
from adapters.base import axes_tuple


class JaxStatistics:
    """A mixin of JaxAdapter (self.jnp is jax.numpy)."""

    def min(self, x, axis=None, keepdims=False):
        return self.jnp.min(x, axis=axes_tuple(axis), keepdims=keepdims)

    def prod(self, x, axis=None, keepdims=False):
        return self.jnp.prod(x, axis=axes_tuple(axis), keepdims=keepdims)

    def var(self, x, axis=None, correction=None, keepdims=False):
        kwargs = {} if correction is None else {"correction": correction}
        return self.jnp.var(x, axis=axes_tuple(axis), keepdims=keepdims, **kwargs)

    def std(self, x, axis=None, correction=None, keepdims=False):
        kwargs = {} if correction is None else {"correction": correction}
        return self.jnp.std(x, axis=axes_tuple(axis), keepdims=keepdims, **kwargs)

    def all(self, x, axis=None, keepdims=False):
        return self.jnp.all(x, axis=axes_tuple(axis), keepdims=keepdims)

    def any(self, x, axis=None, keepdims=False):
        return self.jnp.any(x, axis=axes_tuple(axis), keepdims=keepdims)

    def count_nonzero(self, x, axis=None, keepdims=False):
        return self.jnp.count_nonzero(x, axis=axes_tuple(axis), keepdims=keepdims)

    def cumprod(self, x, axis):
        return self.jnp.cumprod(x, axis=axis)

    def diff(self, x, axis=-1, n=1, prepend=None, append=None):
        return self.jnp.diff(x, n=n, axis=axis, prepend=prepend, append=append)

"""The jax adapter's rounding, casts, sorting, contractions and indexing: jax.numpy as its users
call it (jnp.argsort is stable by default), jax.lax.top_k and batch_matmul, which jnp has no
counterpart of, and x.at[key] for every update (set, add and the scatter reductions)."""
from adapters.base import Unsupported
from adapters.indexing import leading_block, scatter_reduction

AT_REDUCTIONS = {"sum": "add", "prod": "multiply", "amax": "max", "amin": "min"}  # scatter_reduce -> .at[]


class JaxIdioms:
    """A mixin of JaxAdapter (self.jnp and self.lax are jax.numpy and jax.lax)."""

    def floor(self, x):
        return self.jnp.floor(x)

    def ceil(self, x):
        return self.jnp.ceil(x)

    def trunc(self, x):
        return self.jnp.trunc(x)

    def cast(self, x, dtype):
        return x.astype(dtype)

    def sort(self, x, axis=-1, descending=False):
        return self.jnp.sort(x, axis=axis, descending=descending)

    def searchsorted(self, x1, x2, side="left"):
        return self.jnp.searchsorted(x1, x2, side=side)

    def argsort(self, x, axis=-1, descending=False):
        return self.jnp.argsort(x, axis=axis, descending=descending)

    def topk(self, x, k):
        return self.lax.top_k(x, k)[0]

    def topk_indices(self, x, k):
        return self.lax.top_k(x, k)[1]

    def unique(self, x):
        return self.jnp.unique(x)  # no size: inside jax.jit its shape is not static (jax raises)

    def unique_values(self, x):
        return self.jnp.unique_values(x)  # no size, as unique

    def unique_counts(self, x):
        return tuple(self.jnp.unique_counts(x))  # no size, as unique

    def unique_inverse(self, x):
        return tuple(self.jnp.unique_inverse(x))

    def unique_all(self, x):
        return tuple(self.jnp.unique_all(x))

    def nonzero(self, x):
        return self.jnp.nonzero(x)  # no size, as unique

    def bmm(self, a, b):
        return self.lax.batch_matmul(a, b)

    def einsum(self, xs, equation):
        return self.jnp.einsum(equation, *xs)

    def tensordot(self, a, b, axes):
        return self.jnp.tensordot(a, b, axes=axes)

    def dot(self, a, b):
        return self.jnp.dot(a, b)

    def correlate(self, a, v, mode="valid"):
        return self.jnp.correlate(a, v, mode)

    def convolve(self, a, v, mode="full"):
        return self.jnp.convolve(a, v, mode)

    def index(self, x, key):
        return x[key]

    def index_set(self, x, key, values):
        return x.at[key].set(values)

    def index_add(self, x, key, values):
        return x.at[key].add(values)

    def scatter_reduce(self, x, axis, index, src, reduce, include_self=True):
        update = scatter_reduction(AT_REDUCTIONS, reduce, include_self, "jax's .at[]")
        return getattr(x.at[self._coordinates(index, axis)], update)(src[leading_block(index.shape)])

    def scatter_nd(self, indices, updates, shape):
        raise Unsupported("jax has no scatter_nd (its users write jnp.zeros(shape).at[...].add(updates))")

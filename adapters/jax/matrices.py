"""The jax adapter's Array API searching, indexing and matrix functions (vocabulary/matrices.py):
jax.numpy's argmin, argmax, take, matrix_transpose, vecdot, tril and triu."""


class JaxMatrices:
    """A mixin of JaxAdapter (self.jnp is jax.numpy)."""

    def argmin(self, x, axis=None, keepdims=False):
        return self.jnp.argmin(x, axis=axis, keepdims=keepdims)

    def argmax(self, x, axis=None, keepdims=False):
        return self.jnp.argmax(x, axis=axis, keepdims=keepdims)

    def take(self, x, indices, axis=None):
        return self.jnp.take(x, indices, axis=axis)

    def matrix_transpose(self, x):
        return self.jnp.matrix_transpose(x)

    def vecdot(self, x1, x2, axis=-1):
        return self.jnp.vecdot(x1, x2, axis=axis)

    def tril(self, x, k=0):
        return self.jnp.tril(x, k)

    def triu(self, x, k=0):
        return self.jnp.triu(x, k)

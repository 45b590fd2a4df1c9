"""The jax adapter's Array API linear algebra functions (vocabulary/linalg.py):
jax.numpy.linalg's diagonal, trace, outer, cross and matrix_power (its Array API namespace)."""


class JaxLinalg:
    """A mixin of JaxAdapter (self.jnp is jax.numpy)."""

    def diagonal(self, x, offset=0):
        return self.jnp.linalg.diagonal(x, offset=offset)

    def trace(self, x, offset=0):
        return self.jnp.linalg.trace(x, offset=offset)

    def outer(self, x1, x2):
        return self.jnp.linalg.outer(x1, x2)

    def cross(self, x1, x2, axis=-1):
        return self.jnp.linalg.cross(x1, x2, axis=axis)

    def matrix_power(self, x, n):
        return self.jnp.linalg.matrix_power(x, n)

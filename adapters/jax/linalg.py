"""The jax adapter's Array API linear algebra functions (vocabulary/linalg.py):
jax.numpy.linalg's diagonal, trace, outer, cross, matrix_power and vector_norm (its Array API
namespace), det, slogdet, inv, solve, cholesky, eigvalsh, svdvals, matrix_norm, matrix_rank and pinv
(rtol), eigh, svd and qr."""

from adapters.base import axes_tuple


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

    def vector_norm(self, x, axis=None, keepdims=False, ord=2):
        return self.jnp.linalg.vector_norm(x, axis=axes_tuple(axis), keepdims=keepdims, ord=ord)

    def det(self, x):
        return self.jnp.linalg.det(x)

    def slogdet(self, x):
        return tuple(self.jnp.linalg.slogdet(x))  # SlogdetResult(sign, logabsdet)

    def inv(self, x):
        return self.jnp.linalg.inv(x)

    def solve(self, x1, x2):
        return self.jnp.linalg.solve(x1, x2)

    def cholesky(self, x, upper=False):
        return self.jnp.linalg.cholesky(x, upper=upper)

    def eigvalsh(self, x):
        return self.jnp.linalg.eigvalsh(x)

    def svdvals(self, x):
        return self.jnp.linalg.svdvals(x)

    def matrix_rank(self, x, rtol=None):
        return self.jnp.linalg.matrix_rank(x, rtol=rtol)

    def pinv(self, x, rtol=None):
        return self.jnp.linalg.pinv(x, rtol=rtol)

    def matrix_norm(self, x, keepdims=False, ord="fro"):
        return self.jnp.linalg.matrix_norm(x, keepdims=keepdims, ord=ord)

    def eigh(self, x):
        return tuple(self.jnp.linalg.eigh(x))

    def svd(self, x, full_matrices=True):
        return tuple(self.jnp.linalg.svd(x, full_matrices=full_matrices))

    def qr(self, x, mode="reduced"):
        return tuple(self.jnp.linalg.qr(x, mode=mode))

"""The Keras adapter's Array API linear algebra functions (vocabulary/linalg.py): keras.ops'
diagonal and trace over the last two axes (axis1=-2, axis2=-1; their defaults are the first two,
NumPy's), outer and cross (axis), and keras.ops.norm for vector_norm (its ord and axis as given: with two
axes it computes a matrix norm), on whichever backend is configured. keras.ops has no matrix
power: unsupported. keras.ops.det, slogdet, inv, solve and cholesky as they are; keras.ops has no eigvalsh or
svdvals: its users take keras.ops.eigh's eigenvalues and keras.ops.svd(compute_uv=False); keras.ops.norm over
the last two axes for matrix_norm; keras.ops.matrix_rank (its tol is absolute: no rtol) and pinv (rcond, the
standard's rtol); keras.ops.eigh, svd and qr as they are."""
from adapters.base import Unsupported, axes_tuple


class KerasLinalg:
    """A mixin of KerasAdapter (self.ops is keras.ops)."""

    def diagonal(self, x, offset=0):
        return self.ops.diagonal(x, offset=offset, axis1=-2, axis2=-1)

    def trace(self, x, offset=0):
        return self.ops.trace(x, offset=offset, axis1=-2, axis2=-1)

    def outer(self, x1, x2):
        return self.ops.outer(x1, x2)

    def cross(self, x1, x2, axis=-1):
        return self.ops.cross(x1, x2, axis=axis)

    def matrix_power(self, x, n):
        raise Unsupported("keras.ops has no matrix power")

    def vector_norm(self, x, axis=None, keepdims=False, ord=2):
        return self.ops.norm(x, ord=ord, axis=axes_tuple(axis), keepdims=keepdims)

    def det(self, x):
        return self.ops.det(x)

    def slogdet(self, x):
        return tuple(self.ops.slogdet(x))

    def inv(self, x):
        return self.ops.inv(x)

    def solve(self, x1, x2):
        return self.ops.solve(x1, x2)

    def cholesky(self, x, upper=False):
        return self.ops.cholesky(x, upper=upper)

    def eigvalsh(self, x):
        return self.ops.eigh(x)[0]

    def svdvals(self, x):
        return self.ops.svd(x, compute_uv=False)

    def matrix_rank(self, x, rtol=None):
        if rtol is not None:
            raise Unsupported("keras.ops.matrix_rank takes an absolute tol, not the standard's rtol")
        return self.ops.matrix_rank(x)

    def pinv(self, x, rtol=None):
        return self.ops.pinv(x, rcond=rtol)

    def matrix_norm(self, x, keepdims=False, ord="fro"):
        return self.ops.norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)

    def eigh(self, x):
        return tuple(self.ops.eigh(x))

    def svd(self, x, full_matrices=True):
        return tuple(self.ops.svd(x, full_matrices=full_matrices))  # (u, s, vh): NumPy's order on every backend

    def qr(self, x, mode="reduced"):
        return tuple(self.ops.qr(x, mode=mode))

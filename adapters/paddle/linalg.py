"""The Paddle adapter's Array API linear algebra functions (vocabulary/linalg.py), as Paddle's
users call them: paddle.diagonal and paddle.trace over the last two axes (axis1=-2, axis2=-1;
their defaults are the first two), paddle.outer, paddle.cross (axis),
paddle.linalg.matrix_power and paddle.linalg.vector_norm (p), paddle.linalg.det, inv and solve, and
paddle.linalg.slogdet, whose one tensor of shape (2, *stack) holds the standard's two parts;
paddle.linalg.cholesky, eigvalsh and svdvals, paddle.linalg.matrix_norm (p, keepdim) over the last two axes;
paddle.linalg.matrix_rank (rtol) and pinv (its rcond, the standard's rtol, given where the spec gives one:
its default is 1e-15); paddle.linalg.eigh, svd and qr."""
from adapters.base import DTYPES, axes_tuple

# Measured with `python -m suites coverage --adapter paddle --check` (Paddle's CPU kernels)
PADDLE_LINALG_DTYPES = {"diagonal": DTYPES, "trace": ("float16", "float32", "float64", "int32", "int64"),
                        "outer": ("bfloat16", "float32", "float64", "int32", "int64", "bool"),
                        "cross": ("float32", "float64", "int32", "int64")}


class PaddleLinalg:
    """A mixin of PaddleAdapter (self.paddle is the paddle module)."""

    def diagonal(self, x, offset=0):
        return self.paddle.diagonal(x, offset=offset, axis1=-2, axis2=-1)

    def trace(self, x, offset=0):
        return self.paddle.trace(x, offset=offset, axis1=-2, axis2=-1)

    def outer(self, x1, x2):
        return self.paddle.outer(x1, x2)

    def cross(self, x1, x2, axis=-1):
        return self.paddle.cross(x1, x2, axis=axis)

    def matrix_power(self, x, n):
        return self.paddle.linalg.matrix_power(x, n)

    def vector_norm(self, x, axis=None, keepdims=False, ord=2):
        return self.paddle.linalg.vector_norm(x, p=ord, axis=axes_tuple(axis), keepdim=keepdims)

    def det(self, x):
        return self.paddle.linalg.det(x)

    def slogdet(self, x):
        out = self.paddle.linalg.slogdet(x)  # one tensor of shape (2, *stack): sign, then log|det|
        return out[0], out[1]

    def inv(self, x):
        return self.paddle.linalg.inv(x)

    def solve(self, x1, x2):
        return self.paddle.linalg.solve(x1, x2)

    def cholesky(self, x, upper=False):
        return self.paddle.linalg.cholesky(x, upper=upper)

    def eigvalsh(self, x):
        return self.paddle.linalg.eigvalsh(x)

    def svdvals(self, x):
        return self.paddle.linalg.svdvals(x)

    def matrix_rank(self, x, rtol=None):
        return self.paddle.linalg.matrix_rank(x, rtol=rtol)

    def pinv(self, x, rtol=None):
        return self.paddle.linalg.pinv(x) if rtol is None else self.paddle.linalg.pinv(x, rcond=rtol)

    def matrix_norm(self, x, keepdims=False, ord="fro"):
        return self.paddle.linalg.matrix_norm(x, p=ord, axis=[-2, -1], keepdim=keepdims)

    def eigh(self, x):
        return tuple(self.paddle.linalg.eigh(x))

    def svd(self, x, full_matrices=True):
        return tuple(self.paddle.linalg.svd(x, full_matrices=full_matrices))  # (U, S, VH)

    def qr(self, x, mode="reduced"):
        return tuple(self.paddle.linalg.qr(x, mode=mode))

"""The Paddle adapter's Array API searching, indexing and matrix functions (vocabulary/matrices.py),
as Paddle's users call them: paddle.argmin and paddle.argmax (keepdim), paddle.index_select for
take along an axis (paddle.take, which reads the flattened tensor, where the spec gives no axis),
paddle.matrix_transpose, paddle.linalg.vecdot, paddle.tril and paddle.triu."""
from adapters.base import DTYPES

# Measured with `python -m suites coverage --adapter paddle --check` (Paddle's CPU kernels)
PADDLE_MATRIX_DTYPES = {"argmax": ("float32", "float64", "uint8", "int16", "int32", "int64"),
                        "take": ("bfloat16", "float32", "float64", "int32", "int64", "bool"),
                        "matrix_transpose": DTYPES, "vecdot": ("float32", "float64", "int32", "int64"),
                        **dict.fromkeys(("tril", "triu"), ("float16", "float32", "float64", "int32", "int64", "bool"))}


class PaddleMatrices:
    """A mixin of PaddleAdapter (self.paddle is the paddle module)."""

    def argmin(self, x, axis=None, keepdims=False):
        return self.paddle.argmin(x, axis=axis, keepdim=keepdims)

    def argmax(self, x, axis=None, keepdims=False):
        return self.paddle.argmax(x, axis=axis, keepdim=keepdims)

    def take(self, x, indices, axis=None):
        if axis is None:
            return self.paddle.take(x, indices)
        return self.paddle.index_select(x, indices, axis=axis)

    def matrix_transpose(self, x):
        return self.paddle.matrix_transpose(x)

    def vecdot(self, x1, x2, axis=-1):
        return self.paddle.linalg.vecdot(x1, x2, axis=axis)

    def tril(self, x, k=0):
        return self.paddle.tril(x, diagonal=k)

    def triu(self, x, k=0):
        return self.paddle.triu(x, diagonal=k)

"""The Keras adapter's Array API searching, indexing and matrix functions (vocabulary/matrices.py):
keras.ops' argmin, argmax, take, tril and triu, and keras.ops.swapaxes(x, -2, -1) for
matrix_transpose (keras.ops has none), on whichever backend is configured; keras.ops has no
vecdot (its vdot flattens both operands): unsupported."""
from adapters.base import Unsupported


class KerasMatrices:
    """A mixin of KerasAdapter (self.ops is keras.ops)."""

    def argmin(self, x, axis=None, keepdims=False):
        return self.ops.argmin(x, axis=axis, keepdims=keepdims)

    def argmax(self, x, axis=None, keepdims=False):
        return self.ops.argmax(x, axis=axis, keepdims=keepdims)

    def take(self, x, indices, axis=None):
        return self.ops.take(x, indices, axis=axis)

    def matrix_transpose(self, x):
        return self.ops.swapaxes(x, -2, -1)

    def vecdot(self, x1, x2, axis=-1):
        raise Unsupported("keras.ops has no vecdot")

    def tril(self, x, k=0):
        return self.ops.tril(x, k)

    def triu(self, x, k=0):
        return self.ops.triu(x, k)

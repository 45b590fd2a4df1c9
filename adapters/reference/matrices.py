"""The reference's Array API searching, indexing and matrix functions (vocabulary/matrices.py):
NumPy's, whose functions the standard follows (np.take counts a negative index from the end and
raises for one outside [-n, n); np.vecdot conjugates x1)."""
import numpy as np


class MatrixReference:
    """A mixin of ReferenceAdapter."""

    def argmin(self, x, axis=None, keepdims=False):
        """The first index of the smallest value along axis (NaN first, as NumPy)."""
        return np.argmin(x, axis=axis, keepdims=keepdims).astype(np.int64)

    def argmax(self, x, axis=None, keepdims=False):
        return np.argmax(x, axis=axis, keepdims=keepdims).astype(np.int64)

    def take(self, x, indices, axis=None):
        return np.take(x, indices, axis=axis)

    def matrix_transpose(self, x):
        return np.matrix_transpose(x)

    def vecdot(self, x1, x2, axis=-1):
        return np.vecdot(x1, x2, axis=axis)

    def tril(self, x, k=0):
        return np.tril(x, k)

    def triu(self, x, k=0):
        return np.triu(x, k)

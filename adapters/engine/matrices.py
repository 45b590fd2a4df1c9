"""The engine adapter's Array API searching, indexing and matrix functions
(vocabulary/matrices.py): engine/matrices.py's."""


class EngineMatrices:
    """A mixin of EngineAdapter (self.matrices is engine.matrices)."""

    def argmin(self, x, axis=None, keepdims=False):
        return self.matrices.argmin(x, axis, keepdims)

    def argmax(self, x, axis=None, keepdims=False):
        return self.matrices.argmax(x, axis, keepdims)

    def take(self, x, indices, axis=None):
        return self.matrices.take(x, indices, axis)

    def matrix_transpose(self, x):
        return self.matrices.matrix_transpose(x)

    def vecdot(self, x1, x2, axis=-1):
        return self.matrices.vecdot(x1, x2, axis)

    def tril(self, x, k=0):
        return self.matrices.tril(x, k)

    def triu(self, x, k=0):
        return self.matrices.triu(x, k)

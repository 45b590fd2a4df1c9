"""The engine adapter's Array API searching, indexing and matrix functions
(vocabulary/matrices.py): engine/matrices.py's; and its contractions (matmul and mm from
engine/ops.py, bmm, einsum, tensordot and dot from engine/contraction.py)."""


class EngineMatrices:
    """A mixin of EngineAdapter (self.matrices is engine.matrices, self.contraction engine.contraction)."""

    def matmul(self, a, b):
        return self.ops.matmul(a, b)

    def mm(self, a, b):
        return self.ops.mm(a, b)

    def bmm(self, a, b):
        return self.contraction.bmm(a, b)

    def einsum(self, xs, equation):
        return self.contraction.einsum(xs, equation)

    def tensordot(self, a, b, axes):
        return self.contraction.tensordot(a, b, axes)

    def dot(self, a, b):
        return self.contraction.dot(a, b)

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

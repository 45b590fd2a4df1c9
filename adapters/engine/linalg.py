"""The engine adapter's Array API linear algebra functions (vocabulary/linalg.py): engine/linalg.py's."""


class EngineLinalg:
    """A mixin of EngineAdapter (self.linalg is engine.linalg)."""

    def diagonal(self, x, offset=0):
        return self.linalg.diagonal(x, offset)

    def trace(self, x, offset=0):
        return self.linalg.trace(x, offset)

    def outer(self, x1, x2):
        return self.linalg.outer(x1, x2)

    def cross(self, x1, x2, axis=-1):
        return self.linalg.cross(x1, x2, axis)

    def matrix_power(self, x, n):
        return self.linalg.matrix_power(x, n)

    def vector_norm(self, x, axis=None, keepdims=False, ord=2):
        return self.linalg.vector_norm(x, axis, keepdims, ord)

    def det(self, x):
        return self.linalg.det(x)

    def slogdet(self, x):
        return self.linalg.slogdet(x)

    def inv(self, x):
        return self.linalg.inv(x)

    def solve(self, x1, x2):
        return self.linalg.solve(x1, x2)

    def cholesky(self, x, upper=False):
        return self.linalg.cholesky(x, upper)

    def eigvalsh(self, x):
        return self.linalg.eigvalsh(x)

    def svdvals(self, x):
        return self.linalg.svdvals(x)

    def matrix_norm(self, x, keepdims=False, ord="fro"):
        return self.linalg.matrix_norm(x, keepdims, ord)

    def matrix_rank(self, x, rtol=None):
        return self.linalg.matrix_rank(x, rtol)

    def pinv(self, x, rtol=None):
        return self.linalg.pinv(x, rtol)

    def eigh(self, x):
        return self.linalg.eigh(x)

    def svd(self, x, full_matrices=True):
        return self.linalg.svd(x, full_matrices)

    def qr(self, x, mode="reduced"):
        return self.linalg.qr(x, mode)

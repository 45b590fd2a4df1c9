"""The torch adapter's Array API linear algebra functions (vocabulary/linalg.py), as torch's users
call them: torch.linalg.diagonal (the last two dimensions), torch.trace for one matrix at offset 0
(torch.trace takes a 2-D tensor and no offset) and otherwise the sum of torch.diagonal's, as
users write it, torch.outer, torch.linalg.cross (dim), torch.linalg.matrix_power and torch.linalg.vector_norm
(dim: an int or a tuple); torch.linalg.det, inv and solve (whose B is a stack of vectors where it
has one dimension fewer than A and A's shape less its last dimension, as torch documents),
torch.linalg.slogdet (its named tuple as the standard's two parts), torch.linalg.cholesky, eigvalsh,
svdvals and matrix_norm (keepdim), torch.linalg.matrix_rank and pinv (rtol), torch.linalg.eigh, svd and qr
(their named tuples as the standard's parts)."""

from adapters.base import axes_tuple


class TorchLinalg:
    """A mixin of TorchAdapter (self.torch is the torch module)."""

    def diagonal(self, x, offset=0):
        return self.torch.linalg.diagonal(x, offset=offset)

    def trace(self, x, offset=0):
        if x.dim() == 2 and offset == 0:
            return self.torch.trace(x)
        return self.torch.diagonal(x, offset=offset, dim1=-2, dim2=-1).sum(-1)

    def outer(self, x1, x2):
        return self.torch.outer(x1, x2)

    def cross(self, x1, x2, axis=-1):
        return self.torch.linalg.cross(x1, x2, dim=axis)

    def matrix_power(self, x, n):
        return self.torch.linalg.matrix_power(x, n)

    def vector_norm(self, x, axis=None, keepdims=False, ord=2):
        return self.torch.linalg.vector_norm(x, ord, dim=axes_tuple(axis), keepdim=keepdims)

    def det(self, x):
        return self.torch.linalg.det(x)

    def slogdet(self, x):
        return tuple(self.torch.linalg.slogdet(x))  # a named tuple (sign, logabsdet)

    def inv(self, x):
        return self.torch.linalg.inv(x)

    def solve(self, x1, x2):
        return self.torch.linalg.solve(x1, x2)

    def cholesky(self, x, upper=False):
        return self.torch.linalg.cholesky(x, upper=upper)

    def eigvalsh(self, x):
        return self.torch.linalg.eigvalsh(x)

    def svdvals(self, x):
        return self.torch.linalg.svdvals(x)

    def matrix_rank(self, x, rtol=None):
        return self.torch.linalg.matrix_rank(x, rtol=rtol)

    def pinv(self, x, rtol=None):
        return self.torch.linalg.pinv(x, rtol=rtol)

    def matrix_norm(self, x, keepdims=False, ord="fro"):
        return self.torch.linalg.matrix_norm(x, ord=ord, keepdim=keepdims)

    def eigh(self, x):
        return tuple(self.torch.linalg.eigh(x))  # a named tuple (eigenvalues, eigenvectors)

    def svd(self, x, full_matrices=True):
        return tuple(self.torch.linalg.svd(x, full_matrices=full_matrices))  # (U, S, Vh)

    def qr(self, x, mode="reduced"):
        return tuple(self.torch.linalg.qr(x, mode=mode))  # (Q, R)

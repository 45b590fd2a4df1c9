"""The torch adapter's Array API searching, indexing and matrix functions (vocabulary/matrices.py),
as torch's users call them: torch.argmin and torch.argmax (dim, keepdim), torch.index_select for
take along an axis (torch.take, which reads the flattened tensor, where the spec gives no axis),
Tensor.mT (the last two dimensions transposed), torch.linalg.vecdot, torch.tril and torch.triu."""


class TorchMatrices:
    """A mixin of TorchAdapter (self.torch is the torch module)."""

    def argmin(self, x, axis=None, keepdims=False):
        return self.torch.argmin(x, dim=axis, keepdim=keepdims)

    def argmax(self, x, axis=None, keepdims=False):
        return self.torch.argmax(x, dim=axis, keepdim=keepdims)

    def take(self, x, indices, axis=None):
        if axis is None:
            return self.torch.take(x, indices)
        return self.torch.index_select(x, axis, indices)

    def matrix_transpose(self, x):
        return x.mT

    def vecdot(self, x1, x2, axis=-1):
        return self.torch.linalg.vecdot(x1, x2, dim=axis)

    def tril(self, x, k=0):
        return self.torch.tril(x, diagonal=k)

    def triu(self, x, k=0):
        return self.torch.triu(x, diagonal=k)

"""The torch adapter's rounding, casts, sorting and contractions (bmm, einsum, tensordot), called
as torch's users call them: torch's own defaults (torch.sort and torch.argsort are not stable
unless asked: stable=False)."""


class TorchIdioms:
    """A mixin of TorchAdapter (self.torch is the torch module)."""

    def floor(self, x):
        return self.torch.floor(x)

    def ceil(self, x):
        return self.torch.ceil(x)

    def trunc(self, x):
        return self.torch.trunc(x)

    def cast(self, x, dtype):
        return x.to(getattr(self.torch, dtype))

    def sort(self, x, axis=-1, descending=False):
        return self.torch.sort(x, dim=axis, descending=descending).values

    def argsort(self, x, axis=-1, descending=False):
        return self.torch.argsort(x, dim=axis, descending=descending)

    def topk(self, x, k):
        return self.torch.topk(x, k).values

    def topk_indices(self, x, k):
        return self.torch.topk(x, k).indices

    def unique(self, x):
        return self.torch.unique(x)

    def bmm(self, a, b):
        return self.torch.bmm(a, b)

    def einsum(self, xs, equation):
        return self.torch.einsum(equation, *xs)

    def tensordot(self, a, b, axes):
        return self.torch.tensordot(a, b, dims=axes)

"""The torch adapter's rounding, casts, sorting, contractions (bmm, einsum, tensordot) and
indexing, called as torch's users call them: torch's own defaults (torch.sort and torch.argsort
are not stable unless asked: stable=False); x[key] = v on a clone (Tensor.__setitem__), and
index_put(accumulate=True) for the update every repeat adds to."""
from adapters.base import Unsupported
from adapters.indexing import index_tensors


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

    def searchsorted(self, x1, x2, side="left"):
        return self.torch.searchsorted(x1, x2, side=side)

    def topk(self, x, k):
        return self.torch.topk(x, k).values

    def topk_indices(self, x, k):
        return self.torch.topk(x, k).indices

    def unique(self, x):
        return self.torch.unique(x)

    def unique_values(self, x):
        return self.torch.unique(x)  # torch has no unique_values: torch.unique is its users' call

    def unique_counts(self, x):
        return self.torch.unique(x, return_counts=True)

    def unique_inverse(self, x):
        return self.torch.unique(x, return_inverse=True)

    # no unique_all: torch.unique gives no first occurrences (no return_index; torch.unique_consecutive neither)

    def nonzero(self, x):
        return self.torch.nonzero(x, as_tuple=True)  # the standard's tuple (torch's default is an [N, ndim] tensor)

    def bmm(self, a, b):
        return self.torch.bmm(a, b)

    def einsum(self, xs, equation):
        return self.torch.einsum(equation, *xs)

    def tensordot(self, a, b, axes):
        return self.torch.tensordot(a, b, dims=axes)

    def dot(self, a, b):
        return self.torch.dot(a, b)

    def correlate(self, a, v, mode="valid"):
        raise Unsupported("torch has no correlate (F.conv1d cross-correlates batched channels, without modes)")

    def convolve(self, a, v, mode="full"):
        raise Unsupported("torch has no convolve (F.conv1d cross-correlates batched channels, without modes)")

    def index(self, x, key):
        return x[key]

    def index_set(self, x, key, values):
        out = x.clone()  # users clone first: autograd refuses an in-place write to a leaf that requires grad
        out[key] = values
        return out

    def index_add(self, x, key, values):
        return x.index_put(index_tensors(key, "torch's index_put"), values, accumulate=True)

    def scatter_reduce(self, x, axis, index, src, reduce, include_self=True):
        return x.scatter_reduce(axis, index, src, reduce, include_self=include_self)

    def scatter_nd(self, indices, updates, shape):
        raise Unsupported("torch has no scatter_nd (its users write zeros(shape).index_put_(..., accumulate=True))")

"""The paddle adapter's rounding, casts, sorting, contractions and indexing, called as Paddle's
users call them: Paddle's own defaults (paddle.sort and paddle.argsort are not stable unless
asked); x[key] = v on a clone (Tensor.__setitem__), and paddle.index_put(accumulate=True) for
the update every repeat adds to."""
from adapters.base import Unsupported
from adapters.indexing import index_tensors


class PaddleIdioms:
    """A mixin of PaddleAdapter (self.paddle is the paddle module)."""

    def floor(self, x):
        return self.paddle.floor(x)

    def ceil(self, x):
        return self.paddle.ceil(x)

    def trunc(self, x):
        return self.paddle.trunc(x)

    def cast(self, x, dtype):
        return x.astype(dtype)

    def sort(self, x, axis=-1, descending=False):
        return self.paddle.sort(x, axis=axis, descending=descending)

    def searchsorted(self, x1, x2, side="left"):
        return self.paddle.searchsorted(x1, x2, right=side == "right")

    def argsort(self, x, axis=-1, descending=False):
        return self.paddle.argsort(x, axis=axis, descending=descending)

    def topk(self, x, k):
        return self.paddle.topk(x, k)[0]

    def topk_indices(self, x, k):
        return self.paddle.topk(x, k)[1]

    def unique(self, x):
        return self.paddle.unique(x)

    def unique_values(self, x):
        return self.paddle.unique(x)  # Paddle has no unique_values: paddle.unique is its users' call

    def unique_counts(self, x):
        return tuple(self.paddle.unique(x, return_counts=True))

    def unique_inverse(self, x):
        return tuple(self.paddle.unique(x, return_inverse=True))

    def unique_all(self, x):
        return tuple(self.paddle.unique(x, return_index=True, return_inverse=True, return_counts=True))

    def nonzero(self, x):
        return self.paddle.nonzero(x, as_tuple=True)  # the standard's tuple (Paddle's default is [N, ndim])

    def bmm(self, a, b):
        return self.paddle.bmm(a, b)

    def einsum(self, xs, equation):
        return self.paddle.einsum(equation, *xs)

    def tensordot(self, a, b, axes):
        return self.paddle.tensordot(a, b, axes=axes)

    def dot(self, a, b):
        return self.paddle.dot(a, b)

    def correlate(self, a, v, mode="valid"):
        raise Unsupported("paddle has no correlate (F.conv1d cross-correlates batched channels, without modes)")

    def convolve(self, a, v, mode="full"):
        raise Unsupported("paddle has no convolve (F.conv1d cross-correlates batched channels, without modes)")

    def index(self, x, key):
        return x[key]

    def index_set(self, x, key, values):
        out = x.clone()  # a write into a leaf that needs its gradient is refused in place
        out[key] = values
        return out

    def index_add(self, x, key, values):
        return self.paddle.index_put(x, index_tensors(key, "paddle.index_put"), values, accumulate=True)

    def gather(self, x, axis, index):
        return self.paddle.take_along_axis(x, index, axis, broadcast=False)

    def scatter(self, x, axis, index, src):
        return self.paddle.put_along_axis(x, index, src, axis, broadcast=False)

    def scatter_add(self, x, axis, index, src):
        return self.paddle.put_along_axis(x, index, src, axis, reduce="add", broadcast=False)

    def scatter_reduce(self, x, axis, index, src, reduce, include_self=True):
        names = {"sum": "add", "prod": "multiply", "mean": "mean", "amax": "amax", "amin": "amin"}
        return self.paddle.put_along_axis(x, index, src, axis, reduce=names.get(reduce, reduce),
                                          include_self=include_self, broadcast=False)

    def scatter_nd(self, indices, updates, shape):
        return self.paddle.scatter_nd(indices, updates, list(shape))

    def one_hot(self, indices, num_classes, dtype="int64"):
        return self.F.one_hot(indices, num_classes).astype(dtype)

"""The Keras adapter's rounding, casts, sorting, contractions, indexing, gather and scatter:
keras.ops as Keras' users call them, on whichever backend. keras.ops.sort and argsort have no
descending order (Keras' users flip the result: that is a port's own code, not the framework's
answer); keras.ops.get_item is x[key], and keras.ops.scatter_update, with its reductions, the
update."""
from adapters.base import Unsupported
from adapters.indexing import index_coordinates, index_tensors, leading_block, scatter_reduction

SCATTER_UPDATE = {"sum": "add", "prod": "mul", "amax": "max", "amin": "min"}  # scatter_reduce -> reduction=


def _ascending_only(descending: bool, api: str):
    if descending:
        raise Unsupported(f"{api} sorts ascending only (no descending parameter)")


class KerasIdioms:
    """A mixin of KerasAdapter (self.ops is keras.ops)."""

    def floor(self, x):
        return self.ops.floor(x)

    def ceil(self, x):
        return self.ops.ceil(x)

    def trunc(self, x):
        return self.ops.trunc(x)

    def cast(self, x, dtype):
        return self.ops.cast(x, dtype)

    def sort(self, x, axis=-1, descending=False):
        _ascending_only(descending, "keras.ops.sort")
        return self.ops.sort(x, axis=axis)

    def searchsorted(self, x1, x2, side="left"):
        return self.ops.searchsorted(x1, x2, side=side)

    def argsort(self, x, axis=-1, descending=False):
        _ascending_only(descending, "keras.ops.argsort")
        return self.ops.argsort(x, axis=axis)

    def topk(self, x, k):
        return self.ops.top_k(x, k)[0]

    def topk_indices(self, x, k):
        return self.ops.top_k(x, k)[1]

    def unique(self, x):
        return self.ops.unique(x)

    def unique_values(self, x):
        return self.ops.unique(x)  # keras.ops has no unique_values

    def unique_counts(self, x):
        return tuple(self.ops.unique(x, return_counts=True))

    def unique_inverse(self, x):
        return tuple(self.ops.unique(x, return_inverse=True))

    def unique_all(self, x):
        return tuple(self.ops.unique(x, return_index=True, return_inverse=True, return_counts=True))

    def nonzero(self, x):
        out = self.ops.nonzero(x)  # a tuple on jax; one [ndim, N] tensor on torch (torch.nonzero(x).T)
        return tuple(out) if isinstance(out, list) else out  # on TensorFlow tf.unstack's list: the tuple it is

    def bmm(self, a, b):
        raise Unsupported("keras.ops has no bmm (keras.ops.matmul broadcasts its batch axes)")

    def einsum(self, xs, equation):
        return self.ops.einsum(equation, *xs)

    def tensordot(self, a, b, axes):
        return self.ops.tensordot(a, b, axes=axes)

    def dot(self, a, b):
        return self.ops.dot(a, b)

    def correlate(self, a, v, mode="valid"):
        return self.ops.correlate(a, v, mode)

    def convolve(self, a, v, mode="full"):
        raise Unsupported("keras.ops has no convolve (keras.ops.correlate only)")

    def index(self, x, key):
        return self.ops.get_item(x, key)

    def _scattered(self, x, key, values, reduction=None):
        coordinates = self.ops.stack(index_tensors(key, "keras.ops.scatter_update"), axis=-1)
        return self.ops.scatter_update(x, coordinates, values, reduction=reduction)

    def index_set(self, x, key, values):
        return self._scattered(x, key, values)

    def index_add(self, x, key, values):
        return self._scattered(x, key, values, reduction="add")

    def scatter_reduce(self, x, axis, index, src, reduce, include_self=True):
        reduction = scatter_reduction(SCATTER_UPDATE, reduce, include_self, "keras.ops.scatter_update")
        return self.ops.scatter_update(x, *self._updates(index, axis, src[leading_block(tuple(index.shape))]),
                                       reduction=reduction)

    def scatter_nd(self, indices, updates, shape):
        return self.ops.scatter(indices, updates, shape)

    def _coordinates(self, index, axis):
        """The full coordinates [..., rank] of every element of `index` along `axis`."""
        ops, index = self.ops, self.ops.cast(index, "int64")
        return index_coordinates(index, axis, lambda parts: ops.stack(parts, axis=-1),
                                 lambda grid: ops.broadcast_to(ops.convert_to_tensor(grid, "int64"), index.shape))

    def gather(self, x, axis, index):
        return self.ops.take_along_axis(x, index, axis=axis)

    def scatter(self, x, axis, index, src):
        ops = self.ops
        src = ops.full(tuple(index.shape), src, dtype=x.dtype) if isinstance(src, (int, float)) else \
            src[leading_block(tuple(index.shape))]
        return ops.scatter_update(x, *self._updates(index, axis, src))

    def scatter_add(self, x, axis, index, src):
        return self.ops.scatter_update(x, *self._updates(index, axis, src[leading_block(tuple(index.shape))]),
                                       reduction="add")

    def _updates(self, index, axis, src):
        """keras.ops.scatter_update's documented form: coordinates [N, rank] and updates [N]."""
        return (self.ops.reshape(self._coordinates(index, axis), (-1, len(index.shape))),
                self.ops.reshape(src, (-1,)))

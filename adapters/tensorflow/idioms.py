"""The TensorFlow adapter's rounding, casts, sorting, contractions and indexing: tf.math, tf.cast,
tf.sort and tf.argsort (direction= for descending; tf.argsort is not stable unless asked),
tf.math.top_k and tf.unique, with TensorFlow's defaults; x[key] is tf.Tensor's own __getitem__,
and a tf.Tensor has no item assignment: its users write tf.tensor_scatter_nd_* with the index
tensors stacked into coordinates."""
from adapters.base import Unsupported
from adapters.indexing import index_tensors, leading_block, scatter_reduction

SCATTER_ND = {"sum": "tensor_scatter_nd_add", "amax": "tensor_scatter_nd_max", "amin": "tensor_scatter_nd_min"}


class TensorFlowIdioms:
    """A mixin of TensorFlowAdapter (self.tf is the tensorflow module)."""

    def floor(self, x):
        return self.tf.math.floor(x)

    def ceil(self, x):
        return self.tf.math.ceil(x)

    def trunc(self, x):
        raise Unsupported("tf.math has no trunc (tf.truncatediv is a division)")

    def cast(self, x, dtype):
        return self.tf.cast(x, dtype)

    def sort(self, x, axis=-1, descending=False):
        return self.tf.sort(x, axis=axis, direction="DESCENDING" if descending else "ASCENDING")

    def searchsorted(self, x1, x2, side="left"):
        return self.tf.searchsorted(x1, x2, side=side)

    def argsort(self, x, axis=-1, descending=False):
        return self.tf.argsort(x, axis=axis, direction="DESCENDING" if descending else "ASCENDING")

    def topk(self, x, k):
        return self.tf.math.top_k(x, k).values

    def topk_indices(self, x, k):
        return self.tf.math.top_k(x, k).indices

    def unique(self, x):
        return self.tf.unique(self.tf.reshape(x, [-1])).y  # tf.unique takes 1-D tensors only

    def unique_values(self, x):
        return self.unique(x)  # TensorFlow's one call for distinct values (its NumPy API has no unique)

    def unique_counts(self, x):
        values, _, counts = self.tf.unique_with_counts(self.tf.reshape(x, [-1]))  # 1-D only, as tf.unique
        return values, counts

    def unique_inverse(self, x):
        values, idx = self.tf.unique(self.tf.reshape(x, [-1]))
        return values, self.tf.reshape(idx, self.tf.shape(x))  # idx has its input's shape: x's, flattened here

    # no unique_all: tf.unique and tf.unique_with_counts give no first occurrences

    def nonzero(self, x):
        """tf.where(x), TensorFlow's own op ([N, rank] int64 coordinates of the non-zero elements, as its
        users call it), unstacked by axis into the standard's tuple (as tf.experimental.numpy.nonzero does)."""
        return tuple(self.tf.unstack(self.tf.where(x), num=x.shape.rank, axis=1))

    def bmm(self, a, b):
        raise Unsupported("TensorFlow has no bmm (tf.matmul broadcasts its batch axes)")

    def einsum(self, xs, equation):
        return self.tf.einsum(equation, *xs)

    def tensordot(self, a, b, axes):
        return self.tf.tensordot(a, b, axes=axes)

    def dot(self, a, b):
        return self.tf.experimental.numpy.dot(a, b)  # TensorFlow's one dot (tf.tensordot needs its axes)

    def correlate(self, a, v, mode="valid"):
        raise Unsupported("TensorFlow has no correlate (tf.experimental.numpy has none either)")

    def convolve(self, a, v, mode="full"):
        raise Unsupported("TensorFlow has no convolve (tf.experimental.numpy has none either)")

    def index(self, x, key):
        return x[key]

    def _scattered(self, name, x, key, values):
        coordinates = self.tf.stack(index_tensors(key, f"tf.{name}"), axis=-1)
        return getattr(self.tf, name)(x, coordinates, values)

    def index_set(self, x, key, values):
        return self._scattered("tensor_scatter_nd_update", x, key, values)

    def index_add(self, x, key, values):
        return self._scattered("tensor_scatter_nd_add", x, key, values)

    def scatter_reduce(self, x, axis, index, src, reduce, include_self=True):
        name = scatter_reduction(SCATTER_ND, reduce, include_self, "tf.tensor_scatter_nd_*")
        return getattr(self.tf, name)(x, self._coordinates(index, axis), src[leading_block(index.shape)])

    def scatter_nd(self, indices, updates, shape):
        return self.tf.scatter_nd(indices, updates, shape)

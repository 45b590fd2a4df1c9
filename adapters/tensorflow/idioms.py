"""The TensorFlow adapter's rounding, casts, sorting and contractions: tf.math, tf.cast, tf.sort and tf.argsort
(direction= for descending; tf.argsort is not stable unless asked), tf.math.top_k and tf.unique,
with TensorFlow's defaults."""
from adapters.base import Unsupported


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

    def argsort(self, x, axis=-1, descending=False):
        return self.tf.argsort(x, axis=axis, direction="DESCENDING" if descending else "ASCENDING")

    def topk(self, x, k):
        return self.tf.math.top_k(x, k).values

    def topk_indices(self, x, k):
        return self.tf.math.top_k(x, k).indices

    def unique(self, x):
        return self.tf.unique(self.tf.reshape(x, [-1])).y  # tf.unique takes 1-D tensors only

    def bmm(self, a, b):
        raise Unsupported("TensorFlow has no bmm (tf.matmul broadcasts its batch axes)")

    def einsum(self, xs, equation):
        return self.tf.einsum(equation, *xs)

    def tensordot(self, a, b, axes):
        return self.tf.tensordot(a, b, axes=axes)

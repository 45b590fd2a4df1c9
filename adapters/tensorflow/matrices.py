"""The TensorFlow adapter's Array API searching, indexing and matrix functions
(vocabulary/matrices.py), as TensorFlow's users call them: tf.argmin and tf.argmax (an axis of
None is TensorFlow's axis 0; they have no keepdims: unsupported), tf.gather for take,
tf.linalg.matrix_transpose, and tf.experimental.numpy's tril and triu (tf.linalg.band_part keeps
a band around the main diagonal only). TensorFlow has no vecdot (neither tf.linalg nor
tf.experimental.numpy): unsupported."""
from adapters.base import Unsupported


def _no_keepdims(api: str, keepdims: bool):
    if keepdims:
        raise Unsupported(f"{api} has no keepdims")


class TensorFlowMatrices:
    """A mixin of TensorFlowAdapter (self.tf is the tensorflow module)."""

    def argmin(self, x, axis=None, keepdims=False):
        _no_keepdims("tf.argmin", keepdims)
        return self.tf.argmin(x, axis=axis)

    def argmax(self, x, axis=None, keepdims=False):
        _no_keepdims("tf.argmax", keepdims)
        return self.tf.argmax(x, axis=axis)

    def take(self, x, indices, axis=None):
        return self.tf.gather(x, indices, axis=axis)

    def matrix_transpose(self, x):
        return self.tf.linalg.matrix_transpose(x)

    def vecdot(self, x1, x2, axis=-1):
        raise Unsupported("TensorFlow has no vecdot")

    def tril(self, x, k=0):
        return self.tf.experimental.numpy.tril(x, k)

    def triu(self, x, k=0):
        return self.tf.experimental.numpy.triu(x, k)

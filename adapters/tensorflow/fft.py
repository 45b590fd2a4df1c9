"""The TensorFlow adapter's Array API fft helpers (vocabulary/fft.py), as TensorFlow's users call
them: tf.signal.fftshift and tf.signal.ifftshift. TensorFlow has no fftfreq or rfftfreq (neither
tf.signal nor its NumPy API): unsupported."""

from adapters.base import axes_tuple


class TensorFlowFft:
    """A mixin of TensorFlowAdapter (self.tf is the tensorflow module)."""

    def fftshift(self, x, axes=None):
        return self.tf.signal.fftshift(x, axes=axes_tuple(axes))

    def ifftshift(self, x, axes=None):
        return self.tf.signal.ifftshift(x, axes=axes_tuple(axes))

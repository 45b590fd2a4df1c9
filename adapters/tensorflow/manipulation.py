"""The TensorFlow adapter's Array API manipulation functions (vocabulary/manipulation.py), as
TensorFlow's users call them: tf.reverse (every axis named where the spec says None), tf.roll
(tf.experimental.numpy.roll for axis None: tf.roll needs an axis), tf.squeeze, tf.expand_dims and
tf.experimental.numpy.moveaxis (tf.math has none), tf.broadcast_to,
tf.experimental.numpy.broadcast_arrays, tf.tile, tf.repeat and tf.unstack."""


def _axes(axis):
    """Several axes as TensorFlow's manipulation functions document them: a list."""
    return list(axis) if isinstance(axis, (list, tuple)) else axis


class TensorFlowManipulation:
    """A mixin of TensorFlowAdapter (self.tf is the tensorflow module)."""

    def flip(self, x, axis=None):
        axes = list(range(len(x.shape))) if axis is None else _axes(axis)
        return self.tf.reverse(x, axis=axes if isinstance(axes, list) else [axes])

    def roll(self, x, shift, axis=None):
        if axis is None:
            return self.tf.experimental.numpy.roll(x, shift)
        return self.tf.roll(x, shift=_axes(shift), axis=_axes(axis))

    def squeeze(self, x, axis):
        return self.tf.squeeze(x, axis=_axes(axis))

    def expand_dims(self, x, axis=0):
        return self.tf.expand_dims(x, axis)

    def moveaxis(self, x, source, destination):
        return self.tf.experimental.numpy.moveaxis(x, _axes(source), _axes(destination))

    def broadcast_to(self, x, shape):
        return self.tf.broadcast_to(x, list(shape))

    def broadcast_arrays(self, xs):
        return tuple(self.tf.experimental.numpy.broadcast_arrays(*xs))

    def tile(self, x, repetitions):
        return self.tf.tile(x, list(repetitions))

    def repeat(self, x, repeats, axis=None):
        return self.tf.repeat(x, _axes(repeats), axis=axis)

    def unstack(self, x, axis=0):
        return tuple(self.tf.unstack(x, axis=axis))

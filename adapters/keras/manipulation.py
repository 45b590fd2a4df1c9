"""The Keras adapter's Array API manipulation functions (vocabulary/manipulation.py): keras.ops'
flip, roll, squeeze, expand_dims, moveaxis, broadcast_to, tile, repeat and unstack, on whichever
backend is configured (keras.ops has no broadcast_arrays: unsupported)."""
import numpy as np

from adapters.base import axes_tuple


class KerasManipulation:
    """A mixin of KerasAdapter (self.ops is keras.ops)."""

    def flip(self, x, axis=None):
        return self.ops.flip(x, axis=axes_tuple(axis))

    def roll(self, x, shift, axis=None):
        return self.ops.roll(x, axes_tuple(shift), axis=axes_tuple(axis))

    def squeeze(self, x, axis):
        return self.ops.squeeze(x, axis=axes_tuple(axis))

    def expand_dims(self, x, axis=0):
        return self.ops.expand_dims(x, axis)

    def moveaxis(self, x, source, destination):
        return self.ops.moveaxis(x, axes_tuple(source), axes_tuple(destination))

    def broadcast_to(self, x, shape):
        return self.ops.broadcast_to(x, tuple(shape))

    def tile(self, x, repetitions):
        return self.ops.tile(x, tuple(repetitions))

    def repeat(self, x, repeats, axis=None):
        """keras.ops.repeat takes an int or an array of counts: a list or tuple fails on jax and
        torch, and a tensor fails under jax.jit (the output's shape depends on the counts), so the
        counts go as a NumPy array, which every backend takes in every mode."""
        counts = repeats if isinstance(repeats, int) else np.asarray(repeats)
        return self.ops.repeat(x, counts, axis=axis)

    def unstack(self, x, axis=0):
        return tuple(self.ops.unstack(x, axis=axis))

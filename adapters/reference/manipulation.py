"""The reference's Array API manipulation functions (vocabulary/manipulation.py): NumPy's, whose
manipulation functions the standard follows (np.squeeze raises for an axis of another length than
1, np.expand_dims for an axis outside [-N-1, N]); unstack is tuple(np.moveaxis(x, axis, 0)), as
the standard defines it."""
import numpy as np

from adapters.base import axes_tuple


class ManipulationReference:
    """A mixin of ReferenceAdapter."""

    def flip(self, x, axis=None):
        return np.flip(x, axis=axes_tuple(axis))

    def roll(self, x, shift, axis=None):
        return np.roll(x, axes_tuple(shift), axis=axes_tuple(axis))

    def squeeze(self, x, axis):
        return np.squeeze(x, axis=axes_tuple(axis))

    def expand_dims(self, x, axis=0):
        return np.expand_dims(x, axis)

    def moveaxis(self, x, source, destination):
        return np.moveaxis(x, axes_tuple(source), axes_tuple(destination))

    def broadcast_to(self, x, shape):
        return np.broadcast_to(x, tuple(shape))

    def broadcast_arrays(self, xs):
        return tuple(np.broadcast_arrays(*xs))

    def tile(self, x, repetitions):
        return np.tile(x, tuple(repetitions))

    def repeat(self, x, repeats, axis=None):
        return np.repeat(x, axes_tuple(repeats), axis=axis)

    def unstack(self, x, axis=0):
        return tuple(np.moveaxis(x, axis, 0))

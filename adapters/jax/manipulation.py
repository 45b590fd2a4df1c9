"""The jax adapter's Array API manipulation functions (vocabulary/manipulation.py): jax.numpy's
flip, roll, squeeze, expand_dims, moveaxis, broadcast_to, broadcast_arrays, tile, repeat and
unstack."""
import numpy as np

from adapters.base import axes_tuple


class JaxManipulation:
    """A mixin of JaxAdapter (self.jnp is jax.numpy)."""

    def flip(self, x, axis=None):
        return self.jnp.flip(x, axis=axes_tuple(axis))

    def roll(self, x, shift, axis=None):
        return self.jnp.roll(x, axes_tuple(shift), axis=axes_tuple(axis))

    def squeeze(self, x, axis):
        return self.jnp.squeeze(x, axis=axes_tuple(axis))

    def expand_dims(self, x, axis=0):
        return self.jnp.expand_dims(x, axis)

    def moveaxis(self, x, source, destination):
        return self.jnp.moveaxis(x, axes_tuple(source), axes_tuple(destination))

    def broadcast_to(self, x, shape):
        return self.jnp.broadcast_to(x, tuple(shape))

    def broadcast_arrays(self, xs):
        return tuple(self.jnp.broadcast_arrays(*xs))

    def tile(self, x, repetitions):
        return self.jnp.tile(x, tuple(repetitions))

    def repeat(self, x, repeats, axis=None):
        """jnp.repeat takes an int or an array of counts (not a list or tuple); under jax.jit the counts
        must be concrete (the output's shape depends on them), so JAX's users pass a NumPy array."""
        return self.jnp.repeat(x, repeats if isinstance(repeats, int) else np.asarray(repeats), axis=axis)

    def unstack(self, x, axis=0):
        return tuple(self.jnp.unstack(x, axis=axis))

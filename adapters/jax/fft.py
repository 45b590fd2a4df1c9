"""The jax adapter's Array API fft helpers (vocabulary/fft.py), as jax.numpy's users call them:
jnp.fft.fftfreq, jnp.fft.rfftfreq, jnp.fft.fftshift and jnp.fft.ifftshift."""

from adapters.base import axes_tuple


class JaxFft:
    """A mixin of JaxAdapter (self.jnp is jax.numpy)."""

    def fftfreq(self, n, d=1.0, dtype="float64"):
        return self.jnp.fft.fftfreq(n, d, dtype=dtype)

    def rfftfreq(self, n, d=1.0, dtype="float64"):
        return self.jnp.fft.rfftfreq(n, d, dtype=dtype)

    def fftshift(self, x, axes=None):
        return self.jnp.fft.fftshift(x, axes=axes_tuple(axes))

    def ifftshift(self, x, axes=None):
        return self.jnp.fft.ifftshift(x, axes=axes_tuple(axes))

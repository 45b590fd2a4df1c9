"""The engine adapter's Array API fft helpers (vocabulary/fft.py): engine/fft.py's."""
from adapters.base import numpy_dtype
from adapters.engine.creation import ENGINE


class EngineFft:
    """A mixin of EngineAdapter (self.fft is engine.fft)."""

    def fftfreq(self, n, d=1.0, dtype="float64"):
        return self.fft.fftfreq(n, d, numpy_dtype(dtype, ENGINE))

    def rfftfreq(self, n, d=1.0, dtype="float64"):
        return self.fft.rfftfreq(n, d, numpy_dtype(dtype, ENGINE))

    def fftshift(self, x, axes=None):
        return self.fft.fftshift(x, axes)

    def ifftshift(self, x, axes=None):
        return self.fft.ifftshift(x, axes)

"""The torch adapter's Array API fft helpers (vocabulary/fft.py), as torch's users call them:
torch.fft.fftfreq, torch.fft.rfftfreq, torch.fft.fftshift and torch.fft.ifftshift (dim: an int
or a tuple)."""

from adapters.base import axes_tuple


class TorchFft:
    """A mixin of TorchAdapter (self.torch is the torch module)."""

    def fftfreq(self, n, d=1.0, dtype="float64"):
        return self.torch.fft.fftfreq(n, d, dtype=getattr(self.torch, dtype))

    def rfftfreq(self, n, d=1.0, dtype="float64"):
        return self.torch.fft.rfftfreq(n, d, dtype=getattr(self.torch, dtype))

    def fftshift(self, x, axes=None):
        return self.torch.fft.fftshift(x, dim=axes_tuple(axes))

    def ifftshift(self, x, axes=None):
        return self.torch.fft.ifftshift(x, dim=axes_tuple(axes))

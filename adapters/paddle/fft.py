"""The Paddle adapter's Array API fft helpers (vocabulary/fft.py), as Paddle's users call them:
paddle.fft.fftfreq, paddle.fft.rfftfreq, paddle.fft.fftshift and paddle.fft.ifftshift."""

from adapters.base import axes_tuple


class PaddleFft:
    """A mixin of PaddleAdapter (self.paddle is the paddle module)."""

    def fftfreq(self, n, d=1.0, dtype="float64"):
        return self.paddle.fft.fftfreq(n, d, dtype=dtype)

    def rfftfreq(self, n, d=1.0, dtype="float64"):
        return self.paddle.fft.rfftfreq(n, d, dtype=dtype)

    def fftshift(self, x, axes=None):
        return self.paddle.fft.fftshift(x, axes=axes_tuple(axes))

    def ifftshift(self, x, axes=None):
        return self.paddle.fft.ifftshift(x, axes=axes_tuple(axes))

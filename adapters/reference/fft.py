"""The reference's Array API fft helpers (vocabulary/fft.py), from the standard's text: fftfreq's and
rfftfreq's frequencies worked out exactly from the binary values of the Python numbers given
(fractions.Fraction), then rounded once to float64 and to the dtype asked for; numpy.fft.fftshift
and ifftshift, which the standard follows."""
import numpy as np

from adapters.base import axes_tuple, numpy_dtype
from adapters.reference.creation import exact, rounded


def exact_frequencies(n: int, d, half: bool) -> list:
    """k / (d n) for k in [0, ..., ceil(n / 2) - 1, -(n // 2), ..., -1], or [0, ..., n // 2] where half."""
    if n < 1 or float(np.asarray(d)) == 0:
        raise ValueError(f"fftfreq: n must be positive and d non-zero. Received: n={n}, d={d}")
    ks = range(n // 2 + 1) if half else [*range((n + 1) // 2), *range(-(n // 2), 0)]
    scale = exact(d) * n
    return [k / scale for k in ks]


def frequencies(n, d, dtype: str, half: bool) -> np.ndarray:
    if np.dtype(numpy_dtype(dtype)).kind != "f":
        raise ValueError(f"fftfreq: dtype must be a real floating-point dtype. Received: {dtype}")
    return rounded(exact_frequencies(int(n), d, half), dtype)


class FftReference:
    """A mixin of ReferenceAdapter."""

    def fftfreq(self, n, d=1.0, dtype="float64"):
        return frequencies(n, d, dtype, half=False)

    def rfftfreq(self, n, d=1.0, dtype="float64"):
        return frequencies(n, d, dtype, half=True)

    def fftshift(self, x, axes=None):
        return np.fft.fftshift(x, axes=axes_tuple(axes))

    def ifftshift(self, x, axes=None):
        return np.fft.ifftshift(x, axes=axes_tuple(axes))

"""The engine's Array API fft helpers (vocabulary/fft.py): fftfreq and rfftfreq as constants (no
tape: they take no tensor), k * (1 / (d n)) in float64 as NumPy computes them, then in the dtype
asked for; fftshift and ifftshift engine.manipulation's roll by each axis' length // 2 and by its
negation, so that their gradients roll the cotangent back."""
import numpy as np

from engine.manipulation import roll
from engine.ops import tensor
from engine.tensor import Tensor


def _floating(dtype):
    if np.dtype(dtype).kind != "f":
        raise ValueError(f"fftfreq: dtype must be a real floating-point dtype (the standard's). Received: {dtype}")
    return dtype


def fftfreq(n, d=1.0, dtype="float64"):
    return Tensor(np.fft.fftfreq(n, d).astype(_floating(dtype)))


def rfftfreq(n, d=1.0, dtype="float64"):
    return Tensor(np.fft.rfftfreq(n, d).astype(_floating(dtype)))


def _rolled(x, axes, sign):
    """x rolled along axes (None: every axis; an int; a list or tuple) by sign * (length // 2) each."""
    x = tensor(x)
    axes = tuple(range(x.data.ndim)) if axes is None else (axes,) if isinstance(axes, int) else tuple(axes)
    return roll(x, tuple(sign * (x.shape[a] // 2) for a in axes), axes)


def fftshift(x, axes=None):
    return _rolled(x, axes, 1)


def ifftshift(x, axes=None):
    return _rolled(x, axes, -1)

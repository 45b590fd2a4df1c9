"""The engine's Array API creation functions (vocabulary/creation.py): arange and linspace in
float64 as NumPy computes them (the length ceil((stop - start) / step) of float64 numbers, the
values start + i * step), then in the dtype asked for; eye and full as constants (no tape: they
take no tensor), and so ones, zeros, empty, from_python (the standard's asarray of Python
values) and from_dlpack (NumPy's reading of a Tensor's array through the DLPack protocol);
full_like and the _like forms a constant of x's shape and dtype (no gradient reaches x); meshgrid
each operand reshaped and broadcast on the tape, so its gradient sums the cotangent back over
the axis it was repeated along."""
import math

import numpy as np

from engine.manipulation import broadcast_to
from engine.ops import reshape, tensor
from engine.tensor import Tensor


def arange(start, stop=None, step=1, dtype="int64"):
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("arange: step must not be 0")
    count = max(0, math.ceil((stop - start) / step))
    return Tensor((start + np.arange(count, dtype=np.float64) * step).astype(dtype))


def linspace(start, stop, num, endpoint=True, dtype="float64"):
    return Tensor(np.linspace(start, stop, num, endpoint=endpoint, dtype=np.float64).astype(dtype))


def eye(n_rows, n_cols=None, k=0, dtype="float64"):
    return Tensor(np.eye(n_rows, n_cols, k, dtype=dtype))


def full(shape, fill_value, dtype="float64"):
    return Tensor(np.full(tuple(shape), fill_value, dtype=dtype))


def full_like(x, fill_value):
    return Tensor(np.full_like(tensor(x).data, fill_value))


def meshgrid(x, y, indexing="xy"):
    x, y = tensor(x), tensor(y)
    if x.data.ndim != 1 or y.data.ndim != 1:
        raise ValueError(f"meshgrid takes 1-D tensors. Received: shapes {x.shape} and {y.shape}")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij'. Received: {indexing!r}")
    m, n = x.shape[0], y.shape[0]
    if indexing == "xy":
        return broadcast_to(reshape(x, (1, m)), (n, m)), broadcast_to(reshape(y, (n, 1)), (n, m))
    return broadcast_to(reshape(x, (m, 1)), (m, n)), broadcast_to(reshape(y, (1, n)), (m, n))


def ones(shape, dtype="float64"):
    return Tensor(np.ones(shape, dtype=dtype))


def zeros(shape, dtype="float64"):
    return Tensor(np.zeros(shape, dtype=dtype))


def empty(shape, dtype="float64"):
    return Tensor(np.empty(shape, dtype=dtype))


def ones_like(x):
    return Tensor(np.ones_like(tensor(x).data))


def zeros_like(x):
    return Tensor(np.zeros_like(tensor(x).data))


def empty_like(x):
    return Tensor(np.empty_like(tensor(x).data))


def from_python(obj, dtype=None):
    """A constant of Python values (no tape): NumPy's asarray, each value rounded to dtype once."""
    return Tensor(np.asarray(obj, dtype=dtype))


def from_dlpack(x):
    """The memory of x (an engine Tensor, or any producer of the DLPack protocol) read by NumPy's
    np.from_dlpack, as a constant: no tape, since an interchange of memory is no computation
    (torch refuses to export a tensor that requires a gradient)."""
    return Tensor(np.from_dlpack(x))

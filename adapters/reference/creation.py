"""The reference's Array API creation functions (vocabulary/creation.py), from the standard's
text: arange's length counted in float64 as NumPy counts it, its values and linspace's worked out
exactly from the binary values of the Python numbers given (fractions.Fraction), then rounded once
to float64 and to the dtype asked for; np.eye, np.full, np.full_like,
np.meshgrid, np.ones, np.zeros, np.empty and their _like forms, which the standard follows; and
np.asarray for from_python (the standard's asarray of Python values) and np.from_dlpack."""
import math
from fractions import Fraction

import numpy as np

from adapters.base import FLOATS, numpy_dtype
from adapters.bfloat16 import bfloat16_values


def exact(number) -> Fraction:
    """A Python number (or NumPy's 0-d one, as the oracle is given it) as the exact rational it is."""
    return Fraction(np.asarray(number).item())


def exact_range(start, stop, step) -> list:
    """start + i * step, exactly, for i below ceil((stop - start) / step) worked out in float64
    from the numbers as NumPy does (none where that is not positive): in exact arithmetic the
    quotient can lie a rounding past an integer where float64's is the integer (-0.7000000000000001
    to 0 by 0.1: 7 in float64, 8 exactly), and NumPy's count is the one users meet."""
    if stop is None:
        start, stop = 0, start
    if float(np.asarray(step)) == 0:
        raise ValueError("arange: step must not be 0")
    count = max(0, math.ceil((float(np.asarray(stop)) - float(np.asarray(start))) / float(np.asarray(step))))
    start, step = exact(start), exact(step)
    return [start + i * step for i in range(count)]


def exact_space(start, stop, num, endpoint=True) -> list:
    """start + i (stop - start) / (num - 1) (endpoint) or / num (not), for i below num."""
    if num < 0:
        raise ValueError(f"linspace: num must be non-negative. Received: {num}")
    start, stop = exact(start), exact(stop)
    divisor = (num - 1 if endpoint else num) or 1
    return [start + i * (stop - start) / divisor for i in range(num)]


def rounded(exact: list, dtype: str) -> np.ndarray:
    """Exact numbers in dtype: floats rounded once to float64, then to dtype; integers as they are."""
    if np.dtype(numpy_dtype(dtype)).kind == "f":
        return np.array([float(v) for v in exact], dtype=np.float64).astype(dtype)
    return np.array([int(v) for v in exact], dtype=np.int64).astype(dtype)


class CreationReference:
    """A mixin of ReferenceAdapter."""

    def arange(self, start, stop=None, step=1, dtype="int64"):
        return rounded(exact_range(start, stop, step), dtype)

    def linspace(self, start, stop, num, endpoint=True, dtype="float64"):
        return rounded(exact_space(start, stop, num, endpoint), dtype)

    def eye(self, n_rows, n_cols=None, k=0, dtype="float64"):
        return np.eye(n_rows, n_cols, k, dtype=numpy_dtype(dtype))

    def full(self, shape, fill_value, dtype="float64"):
        return np.full(tuple(shape), fill_value, dtype=numpy_dtype(dtype))

    def full_like(self, x, fill_value):
        return np.full_like(x, fill_value)

    def meshgrid(self, x, y, indexing="xy"):
        return tuple(g.copy() for g in np.meshgrid(x, y, indexing=indexing))

    def ones(self, shape, dtype="float64"):
        return np.ones(shape, dtype=numpy_dtype(dtype))

    def zeros(self, shape, dtype="float64"):
        return np.zeros(shape, dtype=numpy_dtype(dtype))

    def empty(self, shape, dtype="float64"):
        return np.empty(shape, dtype=numpy_dtype(dtype))

    def ones_like(self, x):
        return np.ones_like(x)

    def zeros_like(self, x):
        return np.zeros_like(x)

    def empty_like(self, x):
        return np.empty_like(x)

    def from_python(self, obj, dtype=None, described=None):
        """NumPy's asarray, which rounds a Python float to float16 once; dtype None: NumPy's inference
        (int64 for ints, float64 where any is a float, bool), the standard's defaults. As the oracle
        (dtype wide, `described` the dtype under test) floats rounded once to it, so that the judge
        holds the result to that one rounding exactly (a float16 subnormal flushed to zero too)."""
        values = np.asarray(obj, dtype=None if dtype is None else numpy_dtype(dtype))
        if described not in FLOATS or values.dtype.kind != "f":
            return values
        return bfloat16_values(values) if described == "bfloat16" else values.astype(described).astype(np.float64)

    def from_dlpack(self, x):
        """np.from_dlpack: NumPy reads its own array's memory, a view's offset and strides and a
        read-only broadcast included (a NumPy scalar, which has no __dlpack__, as a 0-d array)."""
        return np.from_dlpack(np.asarray(x))

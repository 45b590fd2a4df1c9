"""The reference's Array API linear algebra functions (vocabulary/linalg.py): NumPy's, whose
functions the standard follows (np.diagonal and np.trace over the last two axes, np.outer,
np.cross, which broadcasts, and np.linalg.matrix_power) and the standard's vector_norm, scaled."""
import numpy as np

from adapters.base import axes_tuple


class LinalgReference:
    """A mixin of ReferenceAdapter."""

    def diagonal(self, x, offset=0):
        return np.diagonal(x, offset, -2, -1).copy()

    def trace(self, x, offset=0):
        """np.trace: a signed integer x gives int64, an unsigned one uint64 (the standard's dtype None)."""
        return np.asarray(np.trace(x, offset, -2, -1))

    def outer(self, x1, x2):
        return np.outer(x1, x2)

    def cross(self, x1, x2, axis=-1):
        return np.cross(x1, x2, axis=axis)

    def matrix_power(self, x, n):
        return np.linalg.matrix_power(x, n)

    def vector_norm(self, x, axis=None, keepdims=False, ord=2):
        """The standard's cases: max |x| (ord inf), min |x| (-inf), the count of nonzeros (0), else
        (sum |x|^p)^(1/p) computed as m (sum (|x| / m)^p)^(1/p), m the largest |x| for p >= 1 and
        the smallest for p < 0, so that no power overflows or underflows (LAPACK's nrm2 scales
        alike): m = 0 gives 0 and m = inf gives inf, as the sums would; 0 < p < 1 unscaled."""
        axis, a = axes_tuple(axis), np.abs(x)
        if ord in (np.inf, -np.inf):
            out = (np.max if ord > 0 else np.min)(a, axis=axis, keepdims=True)
        elif ord == 0:
            out = np.sum(a != 0, axis=axis, keepdims=True).astype(x.dtype)
        elif 0 < ord < 1:  # unscaled: no power overflows, and the sum is at most the norm where it is 1 or more
            with np.errstate(over="ignore"):
                out = np.sum(a ** ord, axis=axis, keepdims=True) ** (1 / ord)
        else:
            m = (np.max if ord > 0 else np.min)(a, axis=axis, keepdims=True)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                scaled = m * np.sum((a / m) ** ord, axis=axis, keepdims=True) ** (1 / ord)
            out = np.where((m == 0) | np.isinf(m), m, scaled)
        return out if keepdims else np.squeeze(out, axis=axis)

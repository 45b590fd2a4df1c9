"""The reference's Array API linear algebra functions (vocabulary/linalg.py): NumPy's, whose
functions the standard follows (np.diagonal and np.trace over the last two axes, np.outer,
np.cross, which broadcasts, and np.linalg.matrix_power)."""
import numpy as np


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

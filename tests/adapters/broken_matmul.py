"""A deliberately wrong adapter for tests/test_wrong_adapter.py: its matmul ignores the second
operand's batch dimensions (it multiplies every batch entry by the first matrix of b)."""
import numpy as np

from adapters.reference import ReferenceAdapter


class BrokenMatmul(ReferenceAdapter):
    name = "broken-matmul"

    def matmul(self, a, b):
        if a.ndim >= 2 and b.ndim > 2:
            return np.einsum("...ij,jk->...ik", a, b[(0,) * (b.ndim - 2)])
        return super().matmul(a, b)

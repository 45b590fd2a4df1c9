"""Adapters for tests/test_shipped_differences.py: NumPy that silently computes float64 in
float32, as JAX does by default, documented for every spec ("*") in narrowing.differences.yaml;
and one that also adds a small error there, which that entry must not explain."""
import numpy as np

from adapters.reference import ReferenceAdapter


class Narrowing(ReferenceAdapter):
    name = "narrowing"

    def asarray(self, x, dtype, device):
        return super().asarray(x, "float32" if dtype == "float64" else dtype, device)


class NarrowingWrongly(Narrowing):
    name = "narrowing-wrongly"

    def matmul(self, a, b):
        return super().matmul(a, b) + np.float32(1e-3)

"""An adapter for tests/test_shipped_differences.py: NumPy that holds int64 in int32, as JAX does
by default (documented for every spec in int32_by_default.differences.yaml), and returns
unique_values in descending order, which the standard leaves to it."""
import numpy as np

from adapters.reference import ReferenceAdapter


class Int32ByDefault(ReferenceAdapter):
    name = "int32-by-default"

    def asarray(self, x, dtype, device):
        return super().asarray(x, "int32" if dtype == "int64" else dtype, device)

    def unique_values(self, x):
        return np.sort(np.unique_values(x))[::-1]

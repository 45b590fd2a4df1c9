"""Adapters whose framework has no integer kernel for exp (as a framework raises "kernel not
registered"), for tests/test_unsupported.py: one declares exp without the integer dtypes, so the
error is the framework lacking them (unsupported); one declares them, so it is an error."""
import numpy as np

from adapters.base import FLOATS
from adapters.reference import ReferenceAdapter


class KernelLess(ReferenceAdapter):
    name = "kernel-less"
    dtypes = {**ReferenceAdapter.dtypes, "exp": tuple(d for d in FLOATS if d != "bfloat16")}

    def exp(self, x):
        if np.issubdtype(np.asarray(x).dtype, np.integer):
            raise RuntimeError(f"exp: no kernel registered for {np.asarray(x).dtype} on CPU")
        return super().exp(x)


class KernelLessDeclared(KernelLess):
    name = "kernel-less-declared"
    dtypes = ReferenceAdapter.dtypes

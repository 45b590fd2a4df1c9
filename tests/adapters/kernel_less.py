"""Adapters whose framework has no integer kernel for exp (as a framework raises "kernel not
registered"), for tests/test_unsupported.py: one declares exp without the integer dtypes, so the
error is the framework lacking them (unsupported); one declares them, so it is an error. And one
that declares every dtype and implements matmul alone: the ops it lacks are unsupported. And
two with a compiler that, as dynamo's fake tensors do, meets the missing kernel while tracing and
raises an error of its own that names no op."""
import numpy as np

from adapters.base import DTYPES, FLOATS, Adapter
from adapters.engine import EngineAdapter
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


class TracingKernelLess(KernelLess):
    name = "tracing-kernel-less"

    def compile(self, fn):
        def traced(*args):
            try:
                return fn(*args)
            except Exception as exc:  # noqa: BLE001 - the compiler's own error stands for it
                message = str(exc)
            raise TracingError(f"RuntimeError when making fake tensor call: {message}")  # no cause, no context
        return traced


class TracingKernelLessDeclared(TracingKernelLess):
    name = "tracing-kernel-less-declared"
    dtypes = ReferenceAdapter.dtypes


class TracingHalfLess(EngineAdapter):
    """The engine without a float16 exp kernel, undeclared (as jax has no float16 LU past 2 x 2),
    compiled by the tracing compiler above: a compiled reverse pass meets the missing kernel while
    tracing and raises the compiler's error, as eagerly the framework's own."""
    name = "tracing-half-less"
    dtypes = {**EngineAdapter.dtypes, "exp": ("float32", "float64")}
    compile = TracingKernelLess.compile

    def exp(self, x):
        if x.data.dtype == np.float16:
            raise RuntimeError("exp: no kernel registered for float16 on CPU")
        return super().exp(x)


class TracingError(RuntimeError):
    """torch._dynamo's TorchRuntimeError, as far as Parity can tell."""


class MatmulOnly(Adapter):
    """A new adapter as its author first writes it: NumPy's conversions, matmul alone, every dtype
    declared for every op (`"*": DTYPES`), though NumPy has no bfloat16 to convert to."""
    name = "matmul-only"
    module = "numpy"
    dtypes = {"*": DTYPES}

    def version(self):
        return np.__version__

    def asarray(self, x, dtype, device):
        return np.asarray(x, dtype=dtype)  # TypeError for bfloat16: NumPy has none

    def to_numpy(self, x):
        return np.asarray(x)

    def dtype_of(self, x):
        return str(x.dtype)

    def matmul(self, a, b):
        return np.matmul(a, b)


class MatmulOnlyNarrow(MatmulOnly):
    """The same, declaring what NumPy has: a bfloat16 case is unsupported, the conversion's error
    the framework lacking the dtype."""
    name = "matmul-only-narrow"
    dtypes = {"*": ("float32", "float64")}

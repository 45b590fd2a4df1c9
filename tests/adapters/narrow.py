"""Engine adapters whose 2-D matmul computes in a narrower dtype than it is given (as Keras does
for float64 on torch), for tests/test_differences.py: the value and the gradient are rounded to
`narrow` on the way in and computed there. `returns` picks the result's dtype: the narrow one
(keras.ops.matmul on torch) or the input's (keras.ops.mean: cast back)."""
import numpy as np

from adapters.base import Unsupported
from adapters.engine import EngineAdapter
from engine.tensor import Tensor


class NarrowMatmul(EngineAdapter):
    name = "narrow-matmul"
    narrow = np.float32
    cast_back = False

    def matmul(self, a, b):
        if a.ndim != 2 or b.ndim != 2:
            raise Unsupported("2-D operands only")
        with np.errstate(over="ignore"):  # beyond the narrow range: inf, as the framework gives
            lo_a, lo_b = a.data.astype(self.narrow), b.data.astype(self.narrow)
        out = lo_a @ lo_b

        def backward(g):
            g = g.astype(self.narrow)
            return (g @ lo_b.T).astype(a.dtype), (lo_a.T @ g).astype(b.dtype)

        return Tensor.record(out.astype(a.dtype) if self.cast_back else out, (a, b), backward, "narrow-matmul")


class CastBackMatmul(NarrowMatmul):
    """float32 arithmetic, the input's dtype on the way out."""
    name = "cast-back-matmul"
    cast_back = True


class HalfMatmul(CastBackMatmul):
    """float16 arithmetic (float64 out): beyond what a float32 precision difference allows."""
    name = "half-matmul"
    narrow = np.float16


class FlushingTranspose(EngineAdapter):
    """float64 computed in float32 by a runtime that flushes subnormals to zero (XLA's CPU, as JAX
    runs by default): a transpose rounds nothing, but an input that float32 holds only as a
    subnormal comes out 0."""
    name = "flushing-transpose"

    def transpose(self, x, axes):
        narrow = x.data.astype(np.float32)
        flushed = np.where(np.abs(narrow) < np.finfo(np.float32).tiny, np.float32(0), narrow)
        return Tensor.record(np.transpose(flushed, axes), (x,), lambda g: (np.transpose(g, np.argsort(axes)),),
                             "flushing-transpose")


class NanCholesky(EngineAdapter):
    """float64 computed in float32, and NaNs for a matrix that is not positive definite, as JAX
    runs by default (jax-32): a result where the reference refuses the case (it raises)."""
    name = "nan-cholesky"

    def cholesky(self, x, upper=False):
        narrow = x.data.astype(np.float32)
        try:
            out = np.linalg.cholesky(narrow, upper=upper)
        except np.linalg.LinAlgError:
            out = np.full(narrow.shape, np.float32(np.nan))
        return Tensor.record(out, (x,), lambda g: (g.astype(x.dtype),), "nan-cholesky")

"""The engine adapter's Array API creation functions (vocabulary/creation.py): engine/creation.py's
(from_dlpack: NumPy reading the engine's own Tensor through the protocol); and its data type
functions (vocabulary/dtypes.py): engine/dtypes.py's, their answers made tensors."""
import numpy as np

from adapters.base import DTYPES, numpy_dtype

ENGINE = "the engine (NumPy)"


class EngineCreation:
    """A mixin of EngineAdapter (self.creation is engine.creation, self.dtype_functions engine.dtypes)."""

    def arange(self, start, stop=None, step=1, dtype="int64"):
        return self.creation.arange(start, stop, step, numpy_dtype(dtype, ENGINE))

    def linspace(self, start, stop, num, endpoint=True, dtype="float64"):
        return self.creation.linspace(start, stop, num, endpoint, numpy_dtype(dtype, ENGINE))

    def eye(self, n_rows, n_cols=None, k=0, dtype="float64"):
        return self.creation.eye(n_rows, n_cols, k, numpy_dtype(dtype, ENGINE))

    def full(self, shape, fill_value, dtype="float64"):
        return self.creation.full(shape, fill_value, numpy_dtype(dtype, ENGINE))

    def full_like(self, x, fill_value):
        return self.creation.full_like(x, fill_value)

    def meshgrid(self, x, y, indexing="xy"):
        return self.creation.meshgrid(x, y, indexing)

    def ones(self, shape, dtype="float64"):
        return self.creation.ones(shape, numpy_dtype(dtype, ENGINE))

    def zeros(self, shape, dtype="float64"):
        return self.creation.zeros(shape, numpy_dtype(dtype, ENGINE))

    def empty(self, shape, dtype="float64"):
        return self.creation.empty(shape, numpy_dtype(dtype, ENGINE))

    def ones_like(self, x):
        return self.creation.ones_like(x)

    def zeros_like(self, x):
        return self.creation.zeros_like(x)

    def empty_like(self, x):
        return self.creation.empty_like(x)

    def from_python(self, obj, dtype=None):
        return self.creation.from_python(obj, None if dtype is None else numpy_dtype(dtype, ENGINE))

    def from_dlpack(self, x):
        return self.creation.from_dlpack(x)

    def finfo(self, dtype="float64"):
        info = self.dtype_functions.finfo(numpy_dtype(dtype, ENGINE))
        return self.engine.Tensor(np.array([info.bits, info.eps, info.max, info.min, info.smallest_normal], dtype))

    def iinfo(self, dtype="int64"):
        info = self.dtype_functions.iinfo(dtype)
        return self.engine.Tensor(np.array([info.bits, info.max, info.min], dtype))

    def can_cast(self, x, to):
        return self.engine.Tensor(np.array(self.dtype_functions.can_cast(x, numpy_dtype(to, ENGINE))))

    def result_type(self, x, y):
        return self.ops.cast(x, self.dtype_functions.result_type(x, y))

    def isdtype(self, x, kind):
        kinds = tuple(np.dtype(numpy_dtype(k, ENGINE)) if k in DTYPES else k
                      for k in (kind if isinstance(kind, (tuple, list)) else (kind,)))
        return self.engine.Tensor(np.array(self.dtype_functions.isdtype(x, kinds if len(kinds) > 1 else kinds[0])))

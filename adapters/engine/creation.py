"""The engine adapter's Array API creation functions (vocabulary/creation.py): engine/creation.py's."""
from adapters.base import numpy_dtype

ENGINE = "the engine (NumPy)"


class EngineCreation:
    """A mixin of EngineAdapter (self.creation is engine.creation)."""

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

"""The engine adapter's Array API creation functions (vocabulary/creation.py): engine/creation.py's."""
from adapters.base import numpy_dtype


class EngineCreation:
    """A mixin of EngineAdapter (self.creation is engine.creation)."""

    def arange(self, start, stop=None, step=1, dtype="int64"):
        return self.creation.arange(start, stop, step, numpy_dtype(dtype, "the engine (NumPy)"))

    def linspace(self, start, stop, num, endpoint=True, dtype="float64"):
        return self.creation.linspace(start, stop, num, endpoint, numpy_dtype(dtype, "the engine (NumPy)"))

    def eye(self, n_rows, n_cols=None, k=0, dtype="float64"):
        return self.creation.eye(n_rows, n_cols, k, numpy_dtype(dtype, "the engine (NumPy)"))

    def full(self, shape, fill_value, dtype="float64"):
        return self.creation.full(shape, fill_value, numpy_dtype(dtype, "the engine (NumPy)"))

    def full_like(self, x, fill_value):
        return self.creation.full_like(x, fill_value)

    def meshgrid(self, x, y, indexing="xy"):
        return self.creation.meshgrid(x, y, indexing)

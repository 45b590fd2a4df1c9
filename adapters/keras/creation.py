"""The Keras adapter's Array API creation functions (vocabulary/creation.py), as Keras' users call
them: keras.ops.arange, linspace, eye, full, full_like, meshgrid, ones, zeros, empty and their
_like forms, and keras.ops.convert_to_tensor of Python values (from_python); and of the data
type functions (vocabulary/dtypes.py), the one Keras has: keras.backend.result_type, of the
operands' dtypes (a Python number's type, as keras.ops itself calls it), then keras.ops.cast;
Keras has no finfo, iinfo, can_cast or isdtype."""


class KerasCreation:
    """A mixin of KerasAdapter (self.ops is keras.ops)."""

    def arange(self, start, stop=None, step=1, dtype="int64"):
        return self.ops.arange(start, stop, step, dtype=dtype)

    def linspace(self, start, stop, num, endpoint=True, dtype="float64"):
        return self.ops.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)

    def eye(self, n_rows, n_cols=None, k=0, dtype="float64"):
        return self.ops.eye(n_rows, n_cols, k, dtype=dtype)

    def full(self, shape, fill_value, dtype="float64"):
        return self.ops.full(tuple(shape), fill_value, dtype=dtype)

    def full_like(self, x, fill_value):
        return self.ops.full_like(x, fill_value)

    def meshgrid(self, x, y, indexing="xy"):
        return tuple(self.ops.meshgrid(x, y, indexing=indexing))

    def ones(self, shape, dtype="float64"):
        return self.ops.ones(shape, dtype=dtype)

    def zeros(self, shape, dtype="float64"):
        return self.ops.zeros(shape, dtype=dtype)

    def empty(self, shape, dtype="float64"):
        return self.ops.empty(shape, dtype=dtype)

    def ones_like(self, x):
        return self.ops.ones_like(x)

    def zeros_like(self, x):
        return self.ops.zeros_like(x)

    def empty_like(self, x):
        return self.ops.empty_like(x)

    def from_python(self, obj, dtype=None):
        return self.ops.convert_to_tensor(obj, dtype=dtype)

    def result_type(self, x, y):
        dtype = self.keras.backend.result_type(*(getattr(v, "dtype", type(v)) for v in (x, y)))
        return self.ops.cast(x, dtype)

"""The jax adapter's Array API creation functions (vocabulary/creation.py), as jax.numpy's users
call them: jnp.arange, jnp.linspace, jnp.eye, jnp.full, jnp.full_like, jnp.meshgrid, jnp.ones,
jnp.zeros, jnp.empty and their _like forms, jnp.asarray of Python values (from_python) and
jnp.from_dlpack; and its data type functions (vocabulary/dtypes.py): jnp.finfo, jnp.iinfo,
jnp.can_cast, jnp.result_type and jnp.isdtype, their answers made arrays."""

from adapters.base import DTYPES


class JaxCreation:
    """A mixin of JaxAdapter (self.jnp is jax.numpy)."""

    def arange(self, start, stop=None, step=1, dtype="int64"):
        return self.jnp.arange(start, stop, step, dtype=dtype)

    def linspace(self, start, stop, num, endpoint=True, dtype="float64"):
        return self.jnp.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)

    def eye(self, n_rows, n_cols=None, k=0, dtype="float64"):
        return self.jnp.eye(n_rows, n_cols, k, dtype=dtype)

    def full(self, shape, fill_value, dtype="float64"):
        return self.jnp.full(tuple(shape), fill_value, dtype=dtype)

    def full_like(self, x, fill_value):
        return self.jnp.full_like(x, fill_value)

    def meshgrid(self, x, y, indexing="xy"):
        return tuple(self.jnp.meshgrid(x, y, indexing=indexing))

    def ones(self, shape, dtype="float64"):
        return self.jnp.ones(shape, dtype=dtype)

    def zeros(self, shape, dtype="float64"):
        return self.jnp.zeros(shape, dtype=dtype)

    def empty(self, shape, dtype="float64"):
        return self.jnp.empty(shape, dtype=dtype)

    def ones_like(self, x):
        return self.jnp.ones_like(x)

    def zeros_like(self, x):
        return self.jnp.zeros_like(x)

    def empty_like(self, x):
        return self.jnp.empty_like(x)

    def from_python(self, obj, dtype=None):
        return self.jnp.asarray(obj, dtype=dtype)

    def from_dlpack(self, x):
        return self.jnp.from_dlpack(x)

    def finfo(self, dtype="float64"):
        info = self.jnp.finfo(dtype)
        return self.jnp.asarray([info.bits, info.eps, info.max, info.min, info.smallest_normal], dtype=dtype)

    def iinfo(self, dtype="int64"):
        info = self.jnp.iinfo(dtype)
        return self.jnp.asarray([info.bits, info.max, info.min], dtype=dtype)

    def can_cast(self, x, to):
        return self.jnp.asarray(self.jnp.can_cast(x.dtype, to))  # of an array: deprecated in jax

    def result_type(self, x, y):
        return x.astype(self.jnp.result_type(x, y))

    def isdtype(self, x, kind):
        kinds = tuple(getattr(self.jnp, k) if k in DTYPES else k
                      for k in (kind if isinstance(kind, (tuple, list)) else (kind,)))
        return self.jnp.asarray(self.jnp.isdtype(x.dtype, kinds if len(kinds) > 1 else kinds[0]))

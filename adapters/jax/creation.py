"""The jax adapter's Array API creation functions (vocabulary/creation.py), as jax.numpy's users
call them: jnp.arange, jnp.linspace, jnp.eye, jnp.full, jnp.full_like, jnp.meshgrid, jnp.ones,
jnp.zeros, jnp.empty and their _like forms."""


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

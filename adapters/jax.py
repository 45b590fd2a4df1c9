"""JAX: jax.numpy / jax.lax ops, jax.vjp for gradients, cpu and gpu devices."""
from adapters.base import Adapter, Unsupported


class JaxAdapter(Adapter):
    name = "jax"
    module = "jax"

    def __init__(self):
        import jax

        jax.config.update("jax_enable_x64", True)  # float64 and int64 are dtypes under test
        jax.config.update("jax_default_matmul_precision", "highest")  # no TF32 / bf16 passes on GPU
        import jax.numpy as jnp

        self.jax, self.jnp, self.lax = jax, jnp, jax.lax

    def version(self):
        return self.jax.__version__

    def devices(self):
        return ["cpu"] + [f"gpu:{d.id}" for d in self._gpus()]

    def _gpus(self):
        try:
            return self.jax.devices("gpu")
        except RuntimeError:  # no GPU backend in this jaxlib
            return []

    def _device(self, device):
        if device == "cpu":
            return self.jax.devices("cpu")[0]
        return self._gpus()[int(device.split(":")[1])]

    def asarray(self, x, dtype, device):
        return self.jax.device_put(self.jnp.asarray(x, dtype=dtype), self._device(device))

    def to_numpy(self, x):
        import numpy as np

        x = np.asarray(x)
        return x.astype(np.float32) if x.dtype.name == "bfloat16" else x  # ml_dtypes bfloat16 -> float32

    def dtype_of(self, x):
        return x.dtype.name

    def sync(self, x):
        x.block_until_ready()

    def matmul(self, a, b):
        return self.jnp.matmul(a, b)

    def mm(self, a, b):
        return self.lax.dot(a, b)  # lax.dot: matrix-matrix without batch dims (it also accepts vectors)

    def add(self, a, b):
        return self.jnp.add(a, b)

    def sub(self, a, b):
        return self.jnp.subtract(a, b)

    def mul(self, a, b):
        return self.jnp.multiply(a, b)

    def div(self, a, b):
        return self.jnp.divide(a, b)

    def maximum(self, a, b):
        return self.jnp.maximum(a, b)

    def minimum(self, a, b):
        return self.jnp.minimum(a, b)

    def pow(self, a, b):
        return self.jnp.power(a, b)

    def neg(self, x):
        return self.jnp.negative(x)

    def exp(self, x):
        return self.jnp.exp(x)

    def log(self, x):
        return self.jnp.log(x)

    def tanh(self, x):
        return self.jnp.tanh(x)

    def sigmoid(self, x):
        return self.jax.nn.sigmoid(x)

    def relu(self, x):
        return self.jax.nn.relu(x)

    def abs(self, x):
        return self.jnp.abs(x)

    def sqrt(self, x):
        return self.jnp.sqrt(x)

    def square(self, x):
        return self.jnp.square(x)

    def round(self, x):
        return self.jnp.round(x)

    def sign(self, x):
        return self.jnp.sign(x)

    def sum(self, x, axis=None, keepdims=False):
        return self.jnp.sum(x, axis=_axis(axis), keepdims=keepdims)

    def mean(self, x, axis=None, keepdims=False):
        return self.jnp.mean(x, axis=_axis(axis), keepdims=keepdims)

    def max(self, x, axis=None, keepdims=False):
        return self.jnp.max(x, axis=_axis(axis), keepdims=keepdims)

    def reshape(self, x, shape):
        return self.jnp.reshape(x, tuple(shape))

    def transpose(self, x, axes):
        return self.jnp.transpose(x, tuple(axes))

    def concat(self, xs, axis):
        return self.jnp.concatenate(list(xs), axis=axis)

    def stack(self, xs, axis):
        return self.jnp.stack(list(xs), axis=axis)

    def stop_gradient(self, x):
        return self.lax.stop_gradient(x)

    def grad(self, fn, args, wrt, cotangent):
        if not all(self.jnp.issubdtype(args[n].dtype, self.jnp.inexact) for n in wrt):
            raise Unsupported("jax.vjp differentiates floating-point arrays only")

        def f(*values):
            return fn(**{**args, **dict(zip(wrt, values))})

        value, vjp = self.jax.vjp(f, *(args[n] for n in wrt))
        return value, dict(zip(wrt, vjp(cotangent)))


def _axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis

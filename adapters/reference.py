"""The float64 NumPy oracle, written for clarity from each op's documented semantics.

The suite evaluates every spec here on float64 copies of the inputs to get the expected values.
As an adapter under test it runs NumPy itself at the requested dtype, so "reference" is also the
NumPy column of a comparison. It has no autodiff: gradients are checked against central finite
differences of this oracle instead (suites/gradients.py).
"""
import numpy as np

from adapters.base import Adapter, Unsupported


class ReferenceAdapter(Adapter):
    name = "reference"
    module = "numpy"

    def version(self):
        return np.__version__

    def asarray(self, x, dtype, device):
        if dtype == "bfloat16":
            raise Unsupported("NumPy has no bfloat16 dtype")
        return np.asarray(x, dtype=dtype)

    def to_numpy(self, x):
        return np.asarray(x)

    def dtype_of(self, x):
        return np.asarray(x).dtype.name

    def matmul(self, a, b):
        """numpy.matmul docs: a 1-D first operand is promoted to (1, n) and a 1-D second operand
        to (n, 1), the added axis is removed afterwards; leading (batch) axes broadcast."""
        if a.ndim == 0 or b.ndim == 0:
            raise ValueError("matmul: scalar operands are not allowed")
        left = a[None, :] if a.ndim == 1 else a
        right = b[:, None] if b.ndim == 1 else b
        if left.shape[-1] != right.shape[-2]:
            raise ValueError(f"matmul: contracted dimensions differ: {a.shape} x {b.shape}")
        batch = np.broadcast_shapes(left.shape[:-2], right.shape[:-2])
        left = np.broadcast_to(left, batch + left.shape[-2:])
        right = np.broadcast_to(right, batch + right.shape[-2:])
        out = np.einsum("...ij,...jk->...ik", left, right)
        if a.ndim == 1:
            out = out[..., 0, :]
        if b.ndim == 1:
            out = out[..., 0]
        return out

    def mm(self, a, b):
        """torch.mm docs: (n, m) x (m, p) -> (n, p); strictly 2-D, no broadcasting."""
        if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
            raise ValueError(f"mm: needs (n, m) x (m, p). Received: {a.shape} x {b.shape}")
        return np.einsum("ij,jk->ik", a, b)

    def add(self, a, b):
        return np.add(a, b)

    def sub(self, a, b):
        return np.subtract(a, b)

    def mul(self, a, b):
        return np.multiply(a, b)

    def div(self, a, b):
        return np.divide(a, b)

    def maximum(self, a, b):
        return np.maximum(a, b)

    def minimum(self, a, b):
        return np.minimum(a, b)

    def pow(self, a, b):
        return np.power(a, b)

    def neg(self, x):
        return np.negative(x)

    def exp(self, x):
        return np.exp(x)

    def log(self, x):
        return np.log(x)

    def tanh(self, x):
        return np.tanh(x)

    def sigmoid(self, x):
        return 1 / (1 + np.exp(-x))

    def relu(self, x):
        return np.maximum(x, np.zeros((), x.dtype))

    def abs(self, x):
        return np.abs(x)

    def sqrt(self, x):
        return np.sqrt(x)

    def square(self, x):
        return np.square(x)

    def round(self, x):
        return np.round(x)

    def sign(self, x):
        return np.sign(x)

    def sum(self, x, axis=None, keepdims=False):
        return np.sum(x, axis=_axis(axis), keepdims=keepdims)

    def mean(self, x, axis=None, keepdims=False):
        return np.mean(x, axis=_axis(axis), keepdims=keepdims)

    def max(self, x, axis=None, keepdims=False):
        return np.max(x, axis=_axis(axis), keepdims=keepdims)

    def reshape(self, x, shape):
        return np.reshape(x, shape)

    def transpose(self, x, axes):
        return np.transpose(x, axes)

    def concat(self, xs, axis):
        return np.concatenate(xs, axis=axis)

    def stack(self, xs, axis):
        return np.stack(xs, axis=axis)

    def stop_gradient(self, x):
        return x

    def grad(self, fn, args, wrt, cotangent):
        raise Unsupported("the reference has no autodiff: it is the finite-difference oracle")


def _axis(axis):
    """Specs write axes as YAML lists; NumPy wants a tuple."""
    return tuple(axis) if isinstance(axis, list) else axis

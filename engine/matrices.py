"""The engine's Array API searching, indexing and matrix functions (vocabulary/matrices.py) on
engine/ops.py's tape: argmin and argmax (indices, no gradient), take (its gradient adds the
cotangent back at each index taken, a repeated index once per take), matrix_transpose, vecdot
(the gradient of each operand is the cotangent times the other, summed back to its shape), tril
and triu (the gradient keeps the same triangle)."""
import numpy as np

from engine.ops import tensor, unbroadcast
from engine.tensor import Tensor


def argmin(x, axis=None, keepdims=False):
    """int64 index of the first smallest value along axis (NaN first, as NumPy); no gradient."""
    return Tensor(np.argmin(tensor(x).data, axis=axis, keepdims=keepdims).astype(np.int64))


def argmax(x, axis=None, keepdims=False):
    return Tensor(np.argmax(tensor(x).data, axis=axis, keepdims=keepdims).astype(np.int64))


def take(x, indices, axis=None):
    """np.take: axis None takes from the flattened x (the standard asks an axis beyond 1-D)."""
    x, indices = tensor(x), np.asarray(tensor(indices).data)

    def backward(g):
        if axis is None:
            flat = np.zeros(x.size, g.dtype)
            np.add.at(flat, indices, g.ravel())
            return (flat.reshape(x.shape),)
        moved = np.zeros(np.moveaxis(x.data, axis, 0).shape, g.dtype)
        np.add.at(moved, indices, np.moveaxis(g, axis, 0))
        return (np.moveaxis(moved, 0, axis),)
    return Tensor.record(np.take(x.data, indices, axis=axis), (x,), backward, "take")


def matrix_transpose(x):
    x = tensor(x)
    return Tensor.record(np.swapaxes(x.data, -1, -2), (x,), lambda g: (np.swapaxes(g, -1, -2),),
                         "matrix_transpose")


def vecdot(x1, x2, axis=-1):
    """sum(x1 * x2) along axis (negative: counted from the end of each operand), broadcast."""
    x1, x2 = tensor(x1), tensor(x2)

    def backward(g):
        g = np.expand_dims(g, axis)
        return unbroadcast(g * x2.data, x1.shape), unbroadcast(g * x1.data, x2.shape)
    return Tensor.record(np.vecdot(x1.data, x2.data, axis=axis), (x1, x2), backward, "vecdot")


def tril(x, k=0):
    x = tensor(x)
    return Tensor.record(np.tril(x.data, k), (x,), lambda g: (np.tril(g, k),), "tril")


def triu(x, k=0):
    x = tensor(x)
    return Tensor.record(np.triu(x.data, k), (x,), lambda g: (np.triu(g, k),), "triu")

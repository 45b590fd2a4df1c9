"""x[key] on the tape, and its functional updates: index (NumPy's basic and advanced indexing),
index_set (x[key] = v on a copy) and index_add (numpy.add.at). Each works on the flat positions
that x[key] selects, so one gradient rule serves every kind of key: the gradient of a read adds
back into those positions, that of a write takes them."""
import numpy as np

from engine.ops import tensor, unbroadcast
from engine.tensor import Tensor


def _positions(x: Tensor, key) -> np.ndarray:
    """The flat position in x of every element of x[key] (NumPy raises IndexError out of range)."""
    key = tuple(k.data if isinstance(k, Tensor) else k for k in (key if isinstance(key, tuple) else (key,)))
    return np.arange(x.size, dtype=np.int64).reshape(x.shape)[key]


def index(x, key):
    """x[key]; the gradient adds each element's cotangent into the position it came from."""
    x = tensor(x)
    where = _positions(x, key)
    out = x.data.reshape(-1)[where]

    def backward(g):
        gx = np.zeros(x.size, g.dtype)
        np.add.at(gx, where.ravel(), np.ravel(g))
        return (gx.reshape(x.shape),)

    return Tensor.record(out, (x,), backward, "index")


def _update_operands(x, key, values):
    x = tensor(x)
    values = tensor(values, x)
    where = _positions(x, key)
    return x, values, where, np.broadcast_to(values.data, where.shape).astype(x.dtype)


def index_set(x, key, values):
    """A copy of x with x[key] = values; where an index repeats the last value lands (NumPy's
    order), and only that value has a gradient there."""
    x, values, where, written = _update_operands(x, key, values)
    flat = where.ravel()
    out = x.data.copy().reshape(-1)
    out[flat] = written.ravel()
    last = np.zeros(flat.shape, bool)
    last[flat.size - 1 - np.unique(flat[::-1], return_index=True)[1]] = True  # each position's last write

    def backward(g):
        g = g.reshape(-1)
        gx = g.copy()
        gx[flat] = 0  # overwritten: no longer x's
        gv = np.where(last, g[flat], 0).reshape(where.shape)
        return gx.reshape(x.shape), unbroadcast(gv, values.shape)

    return Tensor.record(out.reshape(x.shape), (x, values), backward, "index_set")


def index_add(x, key, values):
    """A copy of x with values added at x[key], every repeat of an index adding."""
    x, values, where, written = _update_operands(x, key, values)
    out = x.data.copy().reshape(-1)
    np.add.at(out, where.ravel(), written.ravel())

    def backward(g):
        return g, unbroadcast(g.reshape(-1)[where], values.shape)

    return Tensor.record(out.reshape(x.shape), (x, values), backward, "index_add")


Tensor.__getitem__ = index  # x[key] on the tape

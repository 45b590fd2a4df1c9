"""The scatter reductions on the tape: torch.Tensor.scatter_reduce (sum, prod, mean, amax, amin,
with or without x's own value) and tf.scatter_nd (sums into zeros). scatter_reduce's gradient
is written once for every reduction: each value reduced into a position gets the position's
cotangent times its partial derivative (for amax and amin shared evenly among the values equal to
the result, as torch shares it)."""
import numpy as np

from engine.indexing import _grad_src, _scatter_operands, _src_block
from engine.ops import tensor
from engine.tensor import Tensor

UFUNCS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}


def _start(reduce: str, dtype) -> object:
    """Where a reduction without x's value starts: its identity in dtype."""
    if reduce in ("sum", "mean", "prod"):
        return 1 if reduce == "prod" else 0
    low, high = (-np.inf, np.inf) if np.dtype(dtype).kind == "f" else (np.iinfo(dtype).min, np.iinfo(dtype).max)
    return low if reduce == "amax" else high


def _partials(reduce: str, values: np.ndarray, result) -> np.ndarray:
    """d result / d values[j] for one position's reduced values."""
    if reduce == "sum":
        return np.ones_like(values)
    if reduce == "mean":
        return np.full_like(values, 1 / len(values))
    if reduce == "prod":
        return np.array([np.prod(np.delete(values, j)) for j in range(len(values))], values.dtype)
    ties = values == result
    return ties / max(ties.sum(), 1)


def scatter_reduce(x, axis, index, src, reduce, include_self=True):
    """A copy of x with every src[i][j] reduced into x[i][index[i][j]] (axis 1)."""
    if reduce not in UFUNCS:
        raise ValueError(f"scatter_reduce: reduce must be one of {', '.join(UFUNCS)}. Received: {reduce!r}")
    x, src, index, coords = _scatter_operands(x, axis, index, src)
    block = _src_block(src, index).astype(x.dtype)  # index's shape
    targets = np.ravel_multi_index(np.broadcast_arrays(*coords), x.shape).ravel()
    out = x.data.copy().reshape(-1)
    written = np.unique(targets)
    if not include_self:
        out[written] = _start(reduce, x.dtype)
    UFUNCS[reduce].at(out, targets, block.ravel())
    if reduce == "mean":
        counts = np.bincount(targets, minlength=x.size)[written] + include_self
        out[written] = out[written] // counts if x.dtype.kind in "iu" else out[written] / counts

    def backward(g):
        g = g.reshape(-1)
        gx, g_block = g.copy(), np.zeros(block.size, g.dtype)
        for position in written:
            members = np.flatnonzero(targets == position)
            reduced = np.concatenate([x.data.reshape(-1)[position:position + include_self], block.ravel()[members]])
            partials = g[position] * _partials(reduce, reduced.astype(g.dtype), out[position])
            gx[position] = partials[0] if include_self else 0
            g_block[members] = partials[int(include_self):]
        return gx.reshape(x.shape), _grad_src(g_block.reshape(index.shape), src, index)

    return Tensor.record(out.reshape(x.shape), (x, src), backward, "scatter_reduce")


def scatter_nd(indices, updates, shape):
    """tf.scatter_nd: zeros of `shape`, each updates[n] added at the coordinates indices[n]."""
    updates = tensor(updates)
    indices = np.asarray(tensor(indices).data)
    k = indices.shape[-1]
    if updates.shape != indices.shape[:-1] + tuple(shape[k:]):
        raise ValueError(f"scatter_nd: updates need shape {indices.shape[:-1] + tuple(shape[k:])}. "
                         f"Received: {updates.shape}")
    if indices.size and ((indices < 0).any() or (indices >= np.asarray(shape[:k])).any()):
        raise IndexError(f"scatter_nd: indices out of range for the shape {tuple(shape)}")
    coords = tuple(np.moveaxis(indices, -1, 0))
    out = np.zeros(shape, updates.dtype)
    np.add.at(out, coords, updates.data)
    return Tensor.record(out, (updates,), lambda g: (g[coords],), "scatter_nd")

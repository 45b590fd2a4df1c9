"""gather, scatter, scatter_add and one_hot with torch.gather / torch.Tensor.scatter semantics:
index has the rank of x; along `axis` it names positions, along every other axis d it covers
the first index.shape[d] entries."""
import numpy as np

from engine.ops import tensor
from engine.tensor import Tensor


def _coordinates(index: np.ndarray, axis: int) -> tuple:
    """Full coordinates of every index element: index itself along `axis`, its own position
    along the others (self[i][index[i][j]] for axis 1)."""
    axis = axis % index.ndim
    grids = np.indices(index.shape, sparse=True)
    return tuple(index if d == axis else grids[d] for d in range(index.ndim))


def _check(x, index, axis):
    if index.ndim != x.ndim:
        raise ValueError(f"index needs the rank of x ({x.ndim}). Received: index of shape {index.shape}")
    size = x.shape[axis]
    if index.size and (index.min() < 0 or index.max() >= size):  # no wrap-around: torch.gather's rule
        raise IndexError(f"index out of range [0, {size}) for axis {axis}. "
                         f"Received: values in [{index.min()}, {index.max()}]")


def gather(x, axis, index):
    """out[i][j] = x[i][index[i][j]] (axis 1); the gradient adds back into the gathered positions."""
    x = tensor(x)
    index = np.asarray(tensor(index).data)
    _check(x, index, axis)
    coords = _coordinates(index, axis)
    out = x.data[coords]

    def backward(g):
        gx = np.zeros(x.shape, g.dtype)
        np.add.at(gx, coords, g)
        return (gx,)

    return Tensor.record(out, (x,), backward, "gather")


def _src_block(src, index):
    """src may be a number, or a tensor at least as large as index along every axis."""
    return src.data[tuple(slice(0, n) for n in index.shape)] if src.ndim else np.broadcast_to(src.data, index.shape)


def _scatter_operands(x, axis, index, src):
    """x and src as Tensors, index as an array, and the coordinates it writes to."""
    x = tensor(x)
    index = np.asarray(tensor(index).data)
    _check(x, index, axis)
    return x, tensor(src, x), index, _coordinates(index, axis)


def scatter(x, axis, index, src):
    """A copy of x with x[i][index[i][j]] = src[i][j] (axis 1). With duplicate indices one write
    wins, in an order NumPy does not define (XLA documents the same for its Scatter)."""
    x, src, index, coords = _scatter_operands(x, axis, index, src)
    out = x.data.copy()
    out[coords] = _src_block(src, index)

    def backward(g):
        gx = g.copy()
        gx[coords] = 0  # overwritten positions do not depend on x
        return gx, _grad_src(g[coords], src, index)

    return Tensor.record(out, (x, src), backward, "scatter")


def scatter_add(x, axis, index, src):
    """A copy of x with x[i][index[i][j]] += src[i][j] (axis 1); duplicates all add up."""
    x, src, index, coords = _scatter_operands(x, axis, index, src)
    out = x.data.copy()
    np.add.at(out, coords, _src_block(src, index))
    return Tensor.record(out, (x, src), lambda g: (g, _grad_src(g[coords], src, index)), "scatter_add")


def _grad_src(g_block, src, index):
    """The gradient of src: the output gradient at each position it was written to (as torch)."""
    if not src.ndim:
        return np.sum(g_block)
    gs = np.zeros(src.shape, g_block.dtype)
    gs[tuple(slice(0, n) for n in index.shape)] = g_block
    return gs


def one_hot(indices, num_classes, dtype="int64"):
    """[..., num_classes] with a 1 at each index; int64 by default, as torch.nn.functional.one_hot."""
    indices = np.asarray(tensor(indices).data)
    if indices.size and (indices.min() < 0 or indices.max() >= num_classes):
        raise IndexError(f"one_hot indices must lie in [0, {num_classes}). "
                         f"Received: values in [{indices.min()}, {indices.max()}]")
    return Tensor((indices[..., None] == np.arange(num_classes)).astype(dtype))

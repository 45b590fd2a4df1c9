"""The engine's Array API manipulation functions (vocabulary/manipulation.py) on engine/ops.py's
tape. Each moves or copies elements without arithmetic, so its gradient moves the cotangent back
(flipped again, rolled by the negated shift, reshaped to x's shape, moved from destination to
source) and sums it over the copies (broadcast_to, tile, repeat)."""
import numpy as np

from engine.ops import tensor, unbroadcast
from engine.tensor import Tensor


def _axes(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def flip(x, axis=None):
    x, axis = tensor(x), _axes(axis)
    return Tensor.record(np.flip(x.data, axis), (x,), lambda g: (np.flip(g, axis),), "flip")


def roll(x, shift, axis=None):
    x, shift, axis = tensor(x), _axes(shift), _axes(axis)
    back = tuple(-s for s in shift) if isinstance(shift, tuple) else -shift
    return Tensor.record(np.roll(x.data, shift, axis), (x,), lambda g: (np.roll(g, back, axis),), "roll")


def squeeze(x, axis):
    """np.squeeze, which raises for an axis of another length than 1."""
    x = tensor(x)
    return Tensor.record(np.squeeze(x.data, _axes(axis)), (x,), lambda g: (g.reshape(x.shape),), "squeeze")


def expand_dims(x, axis=0):
    x = tensor(x)
    return Tensor.record(np.expand_dims(x.data, axis), (x,), lambda g: (g.reshape(x.shape),), "expand_dims")


def moveaxis(x, source, destination):
    x, source, destination = tensor(x), _axes(source), _axes(destination)
    return Tensor.record(np.moveaxis(x.data, source, destination), (x,),
                         lambda g: (np.moveaxis(g, destination, source),), "moveaxis")


def broadcast_to(x, shape):
    x = tensor(x)
    return Tensor.record(np.broadcast_to(x.data, tuple(shape)).copy(), (x,), lambda g: (unbroadcast(g, x.shape),),
                         "broadcast_to")


def broadcast_arrays(xs):
    xs = [tensor(x) for x in xs]
    shape = np.broadcast_shapes(*(x.shape for x in xs))
    return tuple(broadcast_to(x, shape) for x in xs)


def tile(x, repetitions):
    """np.tile; the gradient sums the cotangent over the tiles: seen as [reps_0, n_0, reps_1, n_1,
    ...] (x's shape prepended with 1s to the repetitions' length, and they with 1s to x's rank)."""
    x, repetitions = tensor(x), tuple(repetitions)
    rank = max(x.ndim, len(repetitions))
    shape, reps = (1,) * (rank - x.ndim) + x.shape, (1,) * (rank - len(repetitions)) + repetitions

    def backward(g):
        split = g.reshape([size for pair in zip(reps, shape) for size in pair])
        return (split.sum(axis=tuple(range(0, 2 * rank, 2))).reshape(x.shape),)

    return Tensor.record(np.tile(x.data, repetitions), (x,), backward, "tile")


def repeat(x, repeats, axis=None):
    """np.repeat; the gradient sums each element's copies (np.add.at by the element each copy is of)."""
    x, repeats = tensor(x), _axes(repeats)
    flat = x.data.reshape(-1) if axis is None else x.data
    along = 0 if axis is None else axis % x.ndim
    owners = np.repeat(np.arange(flat.shape[along]), repeats)

    def backward(g):
        summed = np.zeros((flat.shape[along],) + np.moveaxis(g, along, 0).shape[1:], g.dtype)
        np.add.at(summed, owners, np.moveaxis(g, along, 0))
        return (np.moveaxis(summed, 0, along).reshape(x.shape),)

    return Tensor.record(np.repeat(flat, repeats, axis=along), (x,), backward, "repeat")


def unstack(x, axis=0):
    x = tensor(x)
    axis = axis % x.ndim

    def part(i):
        def backward(g):
            whole = np.zeros(x.shape, g.dtype)
            whole[(slice(None),) * axis + (i,)] = g
            return (whole,)
        return Tensor.record(np.take(x.data, i, axis), (x,), backward, "unstack")

    return tuple(part(i) for i in range(x.shape[axis]))

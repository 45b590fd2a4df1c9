"""Sorting on the tape: sort and topk move each value's gradient back to where the value came
from; argsort, topk_indices, nonzero and unique are indices and distinct values, without a gradient.
Equal values keep their order (stable sorts), NaN sorts after every number (NumPy's order)."""
import numpy as np

from engine.ops import tensor
from engine.tensor import Tensor


def argsort(x, axis=-1, descending=False):
    data = tensor(x).data
    if not descending:
        return Tensor(np.argsort(data, axis=axis, kind="stable"))
    flipped = np.argsort(np.flip(data, axis=axis), axis=axis, kind="stable")
    return Tensor(data.shape[axis] - 1 - np.flip(flipped, axis=axis))


def _taken(x, order, axis):
    """x's values in `order` along axis, the gradient put back at the positions they came from."""
    x = tensor(x)

    def backward(g):
        gx = np.zeros(x.shape, g.dtype)
        np.put_along_axis(gx, order, g, axis=axis)
        return (gx,)

    return Tensor.record(np.take_along_axis(x.data, order, axis=axis), (x,), backward, "take_along_axis")


def searchsorted(x1, x2, side="left"):
    return Tensor(np.searchsorted(tensor(x1).data, tensor(x2).data, side=side).astype(np.int64))


def sort(x, axis=-1, descending=False):
    return _taken(x, argsort(x, axis, descending).data, axis)


def topk_indices(x, k):
    data = tensor(x).data
    if not 0 <= k <= data.shape[-1]:
        raise ValueError(f"topk: k must lie in [0, {data.shape[-1]}]. Received: k={k}")
    return Tensor(argsort(data, -1, descending=True).data[..., :k])


def topk(x, k):
    return _taken(x, topk_indices(x, k).data, -1)


def unique(x):
    data = tensor(x).data
    return Tensor(np.unique(_sortable(data), equal_nan=True).astype(data.dtype))


def unique_values(x):
    """The Array API's: each NaN a value of its own (numpy.unique_values); no derivative, as unique."""
    data = tensor(x).data
    return Tensor(np.unique_values(_sortable(data)).astype(data.dtype))


def unique_counts(x):
    """The Array API's unique_counts (numpy.unique_counts): values and int64 counts, without a gradient."""
    return _unique_parts(np.unique_counts, x)


def unique_inverse(x):
    """The Array API's unique_inverse (numpy.unique_inverse): inverse_indices in x's shape."""
    return _unique_parts(np.unique_inverse, x)


def unique_all(x):
    """The Array API's unique_all (numpy.unique_all): values, first occurrences, inverse, counts."""
    return _unique_parts(np.unique_all, x)


def _unique_parts(function, x) -> tuple:
    data = tensor(x).data
    values, *rest = function(_sortable(data))
    return (Tensor(values.astype(data.dtype)), *(Tensor(part) for part in rest))


def nonzero(x):
    """The Array API's: one int64 index tensor per axis (numpy.nonzero, which refuses a 0-d x as the
    standard does); indices, without a gradient."""
    return tuple(Tensor(i) for i in np.nonzero(tensor(x).data))


def _sortable(data):
    """float16 widened to float32 (exact) for NumPy's default sort, which np.unique uses: NumPy 2.4's
    float16 quicksort on an AVX-512 CPU without FP16 leaves 1000 elements of -1 with one -0 unsorted,
    and np.unique repeated -1 (the reference's _sortable, adapters/reference/idioms.py)."""
    return data.astype(np.float32) if data.dtype == np.float16 else data

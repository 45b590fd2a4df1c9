"""Indices as the frameworks' scatter and gather APIs take them: N-d coordinates, keys of index
tensors, the names of a scatter's reduction. Shared by the adapters whose APIs want them."""
import numpy as np

from adapters.base import Unsupported


def index_grids(index_shape, axis) -> list:
    """For scatter/gather written as an N-d index (jax .at[], tf.tensor_scatter_nd_*): the
    position of every index element along each axis other than `axis` (None at `axis`), as
    NumPy arrays broadcastable to index_shape."""
    axis = axis % len(index_shape)
    grids = np.indices(index_shape, sparse=True)
    return [None if d == axis else grids[d] for d in range(len(index_shape))]


def index_coordinates(index, axis, stack, filled):
    """The full coordinates [..., rank] of every element of an int64 `index` along `axis`, as
    tf.gather_nd, tf.tensor_scatter_nd_* and keras.ops.scatter_update take them, in one
    framework's ops: `filled(grid)` makes a NumPy grid of index_grids an int64 tensor of index's
    shape, `stack(parts)` stacks tensors on a new last axis."""
    return stack([index if g is None else filled(g) for g in index_grids(tuple(index.shape), axis)])


def index_tensors(key, api: str) -> tuple:
    """A key of index tensors only, as index_put and the scatter_nd family take it (the tensors
    index the leading axes); a key with an int, a slice, None or ... has no such form in `api`."""
    if any(isinstance(k, (int, slice)) or k is None or k is Ellipsis for k in key):
        raise Unsupported(f"{api} takes a tuple of index tensors: a key with ints, slices, None or ... has no "
                          "such update there")
    return tuple(key)


def scatter_reduction(names: dict, reduce: str, include_self: bool, api: str) -> str:
    """What `api` calls scatter_reduce's `reduce` (`names` maps torch's names to its own), for a
    framework whose scatter updates always combine with the tensor's value: Unsupported where it
    has no such reduction, or for include_self=False."""
    if reduce not in names:
        raise Unsupported(f"{api} has no {reduce!r} reduction (only {', '.join(names.values())})")
    if not include_self:
        raise Unsupported(f"{api} always combines with the tensor's value (no include_self)")
    return names[reduce]


def leading_block(index_shape) -> tuple:
    """The slice of src (or of x) that an index of this shape covers: its leading block."""
    return tuple(slice(0, n) for n in index_shape)

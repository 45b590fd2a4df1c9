"""The reference for indexing: torch's gather and scatter family (scatter_add, scatter_reduce),
TensorFlow's scatter_nd, and x[key] as users write it with its functional updates (set, add),
written from their documented semantics in NumPy (a mixin of ReferenceAdapter)."""
import numpy as np

# scatter_reduce's reductions: the ufunc that folds a value in, and where include_self=False starts
REDUCERS = {"sum": (np.add, 0), "mean": (np.add, 0), "prod": (np.multiply, 1), "amax": (np.maximum, -np.inf),
            "amin": (np.minimum, np.inf)}


def positions(shape, key) -> np.ndarray:
    """The flat position in an array of `shape` of every element of array[key] (NumPy's rules:
    an out-of-range int or index raises IndexError)."""
    return np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)[_numpy_key(key)]


def _numpy_key(key) -> tuple:
    return tuple(np.asarray(k) if hasattr(k, "shape") else k for k in key)


def _coordinates(x, index, axis) -> tuple:
    """Where each index element points: index itself along `axis`, its own position along the
    other axes. Indices must lie in [0, size) (torch.gather's rule: no negative wrap-around)."""
    index = np.asarray(index)
    axis = axis % x.ndim
    if index.ndim != x.ndim:
        raise ValueError(f"index needs the rank of x ({x.ndim}). Received: index of shape {index.shape}")
    if any(n > m for d, (n, m) in enumerate(zip(index.shape, x.shape)) if d != axis):
        raise ValueError(f"index {index.shape} is larger than x {x.shape} outside axis {axis}")
    if index.size and (index.min() < 0 or index.max() >= x.shape[axis]):
        raise IndexError(f"index out of range [0, {x.shape[axis]}) for axis {axis}")
    grids = np.indices(index.shape, sparse=True)
    return tuple(index if d == axis else grids[d] for d in range(x.ndim))


def _source(src, index, dtype):
    """The src values that go with each index element: src's leading block, or a number."""
    src = np.asarray(src, dtype=dtype)
    return np.broadcast_to(src, index.shape) if src.ndim == 0 else src[tuple(slice(0, n) for n in index.shape)]


class IndexingReference:
    def gather(self, x, axis, index):
        """torch.gather: out[i][j] = x[i][index[i][j]] (axis 1); index has x's rank and indexes
        only the first index.shape[d] entries of every other axis d."""
        return x[_coordinates(x, index, axis)]

    def scatter(self, x, axis, index, src):
        """torch.Tensor.scatter: out[i][index[i][j]] = src[i][j] (axis 1); src may be a number.
        With duplicate indices the last write in row-major order of index wins."""
        out = x.copy()
        values = _source(src, index, x.dtype)
        coords = np.broadcast_arrays(*_coordinates(x, index, axis))
        for position in np.ndindex(index.shape):
            out[tuple(c[position] for c in coords)] = values[position]
        return out

    def scatter_add(self, x, axis, index, src):
        """torch.Tensor.scatter_add: out[i][index[i][j]] += src[i][j] (axis 1); duplicates all add."""
        out = x.copy()
        np.add.at(out, _coordinates(x, index, axis), _source(src, index, x.dtype))
        return out

    def index(self, x, key):
        return np.array(np.asarray(x)[_numpy_key(key)])

    def index_set(self, x, key, values):
        """x[key] = values on a copy; a repeated index takes the last value (NumPy)."""
        out = np.array(x)
        out[_numpy_key(key)] = np.asarray(values).astype(out.dtype)
        return out

    def index_add(self, x, key, values):
        """numpy.add.at: every repeat of an index adds."""
        out = np.array(x)
        where = positions(out.shape, key)
        np.add.at(out.reshape(-1), where.ravel(), np.broadcast_to(np.asarray(values, out.dtype), where.shape).ravel())
        return out

    def scatter_reduce(self, x, axis, index, src, reduce, include_self=True):
        """torch.Tensor.scatter_reduce: the values written to a position (and x's there with
        include_self) reduced by `reduce`; 'mean' divides by how many were reduced."""
        if reduce not in REDUCERS:
            raise ValueError(f"scatter_reduce: reduce must be one of {', '.join(REDUCERS)}. Received: {reduce!r}")
        ufunc, start = REDUCERS[reduce]
        x = np.asarray(x)
        coords = np.broadcast_arrays(*_coordinates(x, index, axis))
        written = np.zeros(x.shape, bool)
        written[tuple(coords)] = True
        acc = x.astype(np.float64) if include_self else np.where(written, start, x.astype(np.float64))
        ufunc.at(acc, tuple(coords), _source(src, index, x.dtype).astype(np.float64))
        if reduce == "mean":
            count = np.full(x.shape, 1.0 if include_self else 0.0)
            np.add.at(count, tuple(coords), 1.0)
            acc = np.where(written, acc / np.maximum(count, 1), acc)
            if x.dtype.kind in "iu":
                acc = np.floor(acc)  # an integer mean rounds down, as torch's does (-5 / 3 gives -2)
        return acc.astype(x.dtype)

    def scatter_nd(self, indices, updates, shape):
        """tf.scatter_nd: zeros of `shape`, each updates[n] added at the coordinates indices[n]."""
        indices, updates = np.asarray(indices), np.asarray(updates)
        k = indices.shape[-1]
        if tuple(updates.shape) != indices.shape[:-1] + tuple(shape[k:]):
            raise ValueError(f"scatter_nd: updates need shape {indices.shape[:-1] + tuple(shape[k:])}. "
                             f"Received: {updates.shape}")
        out = np.zeros(shape, updates.dtype)
        np.add.at(out, tuple(np.moveaxis(indices, -1, 0)), updates)
        return out

"""The reference for indexing as users write it and the scatter reductions: x[key], its
functional updates (set, add), torch's scatter_reduce and TensorFlow's scatter_nd, written from
their documented semantics in NumPy (a mixin of ReferenceAdapter)."""
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


class IndexingReference:
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
        from adapters.reference import _coordinates, _source

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

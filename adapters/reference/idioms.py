"""The reference for the idioms users write beyond the core ops: floor, ceil and trunc, casts,
sorting (sort, argsort, topk, unique), correlate and convolve, each written from its documented
semantics in NumPy (a mixin of ReferenceAdapter, as adapters/reference/layers.py is; the
contractions bmm, dot, einsum and tensordot sit beside matmul in adapters/reference/__init__.py)."""
import numpy as np

from adapters.base import numpy_dtype


class IdiomReference:
    def floor(self, x):
        return np.floor(x)  # NumPy 2 keeps an integer input's dtype

    def ceil(self, x):
        return np.ceil(x)

    def trunc(self, x):
        return np.trunc(x)

    def cast(self, x, dtype):
        """x.astype(dtype); a float the integer dtype cannot hold (NaN, +-inf, out of range) gives
        x86's "integer indefinite" value (Intel SDM, CVTTSD2SI: the dtype's minimum) for 32- and
        64-bit signed integers, written out here rather than left to the platform; narrower and
        unsigned integers take NumPy's result (on x86 a wider conversion, then the low bits)."""
        x = np.asarray(x)
        target = np.dtype(numpy_dtype(dtype))  # NumPy's bfloat16 is ml_dtypes', there only where jax or TF ran
        with np.errstate(invalid="ignore", over="ignore"):
            out = x.astype(target)
        if target.kind in "iu" and x.dtype.kind == "f" and target.itemsize >= 4:
            info = np.iinfo(target)
            with np.errstate(invalid="ignore"):
                unheld = ~np.isfinite(x) | (np.trunc(x) < info.min) | (np.trunc(x) > info.max)
            out = np.where(unheld, np.asarray(info.min, target) if target.kind == "i" else out, out)
        return out

    def sort(self, x, axis=-1, descending=False):
        """numpy.sort (NaN last); descending: the reverse, NaN first."""
        out = np.sort(x, axis=axis, kind="stable")
        return np.flip(out, axis=axis) if descending else out

    def searchsorted(self, x1, x2, side="left"):
        return np.searchsorted(x1, x2, side=side).astype(np.int64)

    def argsort(self, x, axis=-1, descending=False):
        """A stable argsort; descending keeps equal values in order too: the stable ascending
        argsort of the values' order reversed (NaN first), as jnp.argsort(descending=True)."""
        if not descending:
            return np.argsort(x, axis=axis, kind="stable").astype(np.int64)
        # the reversed stable sort of the reversed array keeps equal values in their order
        flipped = np.flip(x, axis=axis)
        order = np.flip(np.argsort(flipped, axis=axis, kind="stable"), axis=axis)
        return (x.shape[axis] - 1 - order).astype(np.int64)

    def topk(self, x, k):
        return np.take_along_axis(x, self.topk_indices(x, k), axis=-1)

    def topk_indices(self, x, k):
        """The first k of the descending stable order: the largest first, NaN largest, the lower
        index first among equal values."""
        if not 0 <= k <= x.shape[-1]:
            raise ValueError(f"topk: k must lie in [0, {x.shape[-1]}]. Received: k={k}")
        return self.argsort(x, axis=-1, descending=True)[..., :k]

    def unique(self, x):
        return np.unique(_sortable(x), equal_nan=True).astype(x.dtype)

    def unique_values(self, x):
        """numpy.unique_values, the standard's (NumPy 2): each NaN its own value, in an order of NumPy's."""
        return np.unique_values(_sortable(x)).astype(x.dtype)

    def unique_counts(self, x):
        """numpy.unique_counts, the standard's (NumPy 2): each NaN a value of its own, counted once; int64."""
        return _unique_parts(np.unique_counts, x)

    def unique_inverse(self, x):
        """numpy.unique_inverse: values[inverse_indices] is x, in x's shape (NumPy 2.1 and the standard 2023.12)."""
        return _unique_parts(np.unique_inverse, x)

    def unique_all(self, x):
        """numpy.unique_all: values, the flat index of each one's first occurrence, inverse_indices, counts."""
        return _unique_parts(np.unique_all, x)

    def nonzero(self, x):
        """numpy.nonzero: one int64 index array per axis, row-major; a 0-d x raises, as the standard says."""
        return np.nonzero(x)

    def correlate(self, a, v, mode="valid"):
        """numpy.correlate (real operands: its conjugate of v is v)."""
        return np.correlate(a, v, mode)

    def convolve(self, a, v, mode="full"):
        return np.convolve(a, v, mode)


def _unique_parts(function, x) -> tuple:
    """One of NumPy's unique_* functions' parts, its values in x's dtype (_sortable widens float16)."""
    values, *rest = function(_sortable(x))
    return (values.astype(x.dtype), *rest)


def _sortable(x):
    """x, float16 widened to float32 (exact) for NumPy's default sort: NumPy 2.4's float16 quicksort
    (x86-simd-sort on an AVX-512 CPU without FP16, an AMD EPYC) leaves 1000 elements of -1 with one
    -0 among them unsorted, so np.unique, which sorts that way, repeats -1 (tests/test_reference.py)."""
    return x.astype(np.float32) if x.dtype == np.float16 else x

"""The engine's data type functions, the Array API standard's: finfo, iinfo, result_type, can_cast and
isdtype. The engine computes with NumPy, so its dtypes and its promotion are NumPy 2's, which
follow the standard's table where it has an entry; can_cast is the standard's (castable within
one kind only), where numpy.can_cast also casts bool to int8 and int8 to float16."""
import numpy as np

from engine.tensor import Tensor


def _dtype(x) -> np.dtype:
    """A Tensor's, an array's or a dtype's own dtype."""
    if isinstance(x, Tensor):
        return x.data.dtype
    return x.dtype if isinstance(x, np.ndarray) else np.dtype(x)


def finfo(dtype):
    return np.finfo(_dtype(dtype))


def iinfo(dtype):
    return np.iinfo(_dtype(dtype))


def result_type(*arrays_and_dtypes):
    """The dtype NumPy's promotion gives; a Python number is weakly typed (NEP 50), as in every op."""
    return np.result_type(*(x if isinstance(x, (bool, int, float)) else _dtype(x) for x in arrays_and_dtypes))


def _kind(dtype: np.dtype) -> str:
    return "integer" if dtype.kind in "iu" else dtype.kind


def can_cast(from_, to) -> bool:
    """True where from_'s dtype and `to` are of one kind (bool, integer, real or complex floating) and
    promote to `to`: uint64 to int64 is not (they promote to float64)."""
    source, target = _dtype(from_), np.dtype(to)
    return _kind(source) == _kind(target) and np.result_type(source, target) == target


def isdtype(dtype, kind) -> bool:
    return np.isdtype(_dtype(dtype), kind)

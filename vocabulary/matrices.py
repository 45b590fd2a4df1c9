"""The Python Array API standard's searching, indexing and matrix functions beyond argmin,
take_along_axis (gather), matmul and tensordot (2024.12): argmax (and argmin's axis None and
keepdims), take, matrix_transpose, vecdot, tril and triu. Each op is the standard's function of
the same name, its semantics the standard's text:
https://data-apis.org/array-api/2024.12/API_specification/ (searching, indexing, linear algebra
and creation functions).

Indices follow the standard: an index tensor is int64 and a negative index counts from the end
(take, 2024.12); an axis is an int, negative ones counted from the end.
"""
import numpy as np

from vocabulary.records import Index, Op, values

PAGE = "https://data-apis.org/array-api/2024.12/API_specification/generated/array_api."
TAKEN = np.array([2, 0, 0]).view(Index)  # the coverage sample's indices (specs take negative ones)


def _arg(name, which):
    return Op(name, "x, axis=None, keepdims=False", "reductions and shapes", f"int64 index of the {which} value "
              f"along axis (the first one on ties; NaN counts as the {which}, NumPy's); axis None: the index in "
              f"the flattened tensor; keepdims keeps the reduced axis with length 1. ({PAGE}{name}.html)",
              lambda d: ([values(d)], {"axis": 1}), zero_derivative=True)


def _triangle(name, side):
    return Op(name, "x, k=0", "linear algebra", f"x (of rank 2 or more: a stack of matrices in its last two axes) "
              f"with the elements {side} the k-th diagonal set to zero: k = 0 is the main diagonal, k > 0 above it, "
              f"k < 0 below it; the shape and dtype are kept. ({PAGE}{name}.html)",
              lambda d: ([values(d, (3, 3))], {"k": 0}), bound="structural")


MATRIX_OPS = [
    _arg("argmin", "smallest"),
    _arg("argmax", "largest"),
    Op("take", "x, indices, axis=None", "indexing", f"The elements of x at indices (a 1-D int64 tensor; a "
       f"negative index counts from the end) along axis: x[..., indices, ...] with indices in axis' place, of x's "
       f"rank and dtype; axis may be left out only for a 1-D x. An index outside [-n, n) is implementation-defined "
       f"(the standard). ({PAGE}take.html)", lambda d: ([values(d, (2, 3)), TAKEN], {"axis": 1})),
    Op("matrix_transpose", "x", "linear algebra", f"x (of rank 2 or more) with its last two axes swapped: a "
       f"stack of matrices, each transposed. ({PAGE}matrix_transpose.html)",
       lambda d: ([values(d, (2, 2, 3))], {}), bound="structural"),
    Op("vecdot", "x1, x2, axis=-1", "linear algebra", f"The dot product of x1 and x2 along axis: sum(x1 * x2) "
       f"over that axis (the conjugate of x1 for a complex x1), x1 and x2 of one length along it and broadcast "
       f"against each other on the other axes; axis is in [-N, -1], N the smaller rank, counted from the end of "
       f"each (the standard); the result loses that axis. ({PAGE}vecdot.html)",
       lambda d: ([values(d, (2, 3)), values(d, (3,))], {}), bound="vecdot"),
    _triangle("tril", "above"),
    _triangle("triu", "below"),
]


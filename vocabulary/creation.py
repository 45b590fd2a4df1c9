"""The Python Array API standard's creation functions (2024.12): arange, linspace, eye, full,
full_like, meshgrid, ones, zeros, empty and their _like forms, asarray of Python values (from_python)
and from_dlpack. Each op is the standard's function of the same name (from_python its asarray), its
semantics the standard's text: https://data-apis.org/array-api/2024.12/API_specification/creation_functions.html

arange, linspace, eye, full, ones, zeros and empty take no tensor: their result's dtype is a parameter (the runner
passes the dtype under test), and their numbers are Python numbers, as users write them. Where
a framework works out a length or a value in the dtype it returns (float32) rather than from the
numbers it was given, the length or the values differ: the specs document each. empty's and
empty_like's values are unspecified (uninitialised memory): only their shape and dtype are the
standard's, so the specs read those through full_like(empty(...), 1), whose values are defined.
"""
from vocabulary.records import Op, values

PAGE = "https://data-apis.org/array-api/2024.12/API_specification/generated/array_api."

CREATION_OPS = [
    Op("arange", "start, stop=None, step=1, dtype='int64'", "creation", f"Evenly spaced values in the "
       f"half-open interval [start, stop) (stop None: [0, start)), step apart: out[i] = start + i * step, of "
       f"length ceil((stop - start) / step) where that is positive and 0 otherwise, counted in float64 from the "
       f"Python numbers given, as NumPy counts (arange(1, 1.3, 0.1) has 4 elements: 1.3 - 1 is slightly over 3 "
       f"times 0.1 in binary), the values exact, then rounded to dtype. ({PAGE}arange.html)",
       lambda d: ([0, 5, 2], {"dtype": d}), dtype_param=True, bound="arange"),
    Op("linspace", "start, stop, num, endpoint=True, dtype='float64'", "creation", f"num evenly spaced values "
       f"from start to stop: endpoint True includes stop, out[i] = start + i (stop - start) / (num - 1); False "
       f"excludes it (the divisor num); worked out exactly from the Python numbers given, then rounded to dtype "
       f"(a real floating dtype); num 1 gives [start]. ({PAGE}linspace.html)",
       lambda d: ([0.0, 1.0, 5], {"dtype": d}), dtype_param=True, bound="linspace"),
    Op("eye", "n_rows, n_cols=None, k=0, dtype='float64'", "creation", f"A (n_rows, n_cols) matrix (n_cols "
       f"None: n_rows) with ones on its k-th diagonal (k > 0 above the main one, < 0 below) and zeros "
       f"elsewhere. ({PAGE}eye.html)", lambda d: ([3, 4], {"dtype": d}), dtype_param=True),
    Op("full", "shape, fill_value, dtype='float64'", "creation", f"A tensor of shape (a tuple of ints) whose "
       f"every element is fill_value (a Python number) in dtype. ({PAGE}full.html)",
       lambda d: ([(2, 3), 1], {"dtype": d}), dtype_param=True),
    Op("full_like", "x, fill_value", "creation", f"A tensor of x's shape and dtype whose every element is "
       f"fill_value (a Python number; x's values are not read). ({PAGE}full_like.html)",
       lambda d: ([values(d), 1], {}), zero_derivative=True),
    Op("meshgrid", "x, y, indexing='xy'", "creation", f"Coordinate grids of two 1-D tensors of lengths M and N, "
       f"each repeated along the other's axis: indexing 'xy' (Cartesian, the standard's and NumPy's default) "
       f"gives two (N, M) grids, grid_x[i, j] = x[j] and grid_y[i, j] = y[i]; 'ij' (matrix indexing) two (M, "
       f"N) grids, grid_x[i, j] = x[i] and grid_y[i, j] = y[j]. ({PAGE}meshgrid.html)",
       lambda d: ([values(d, (3,)), values(d, (2,))], {}), parts=("grid_x", "grid_y")),
    Op("ones", "shape, dtype='float64'", "creation", f"A tensor of shape (an int or a tuple of ints) whose every "
       f"element is 1 (True for bool) in dtype. ({PAGE}ones.html)", lambda d: ([(2, 3)], {"dtype": d}),
       dtype_param=True),
    Op("zeros", "shape, dtype='float64'", "creation", f"A tensor of shape (an int or a tuple of ints) whose "
       f"every element is 0 (False for bool) in dtype. ({PAGE}zeros.html)", lambda d: ([(2, 3)], {"dtype": d}),
       dtype_param=True),
    Op("empty", "shape, dtype='float64'", "creation", f"A tensor of shape (an int or a tuple of ints) in dtype "
       f"whose values are uninitialised: anything (its shape and dtype are the contract). ({PAGE}empty.html)",
       lambda d: ([(2, 3)], {"dtype": d}), dtype_param=True),
    Op("ones_like", "x", "creation", f"A tensor of x's shape and dtype whose every element is 1 (True for bool; "
       f"x's values are not read). ({PAGE}ones_like.html)", lambda d: ([values(d)], {}), zero_derivative=True),
    Op("zeros_like", "x", "creation", f"A tensor of x's shape and dtype whose every element is 0 (False for "
       f"bool; x's values are not read). ({PAGE}zeros_like.html)", lambda d: ([values(d)], {}),
       zero_derivative=True),
    Op("empty_like", "x", "creation", f"A tensor of x's shape and dtype whose values are uninitialised: "
       f"anything (x's values are not read). ({PAGE}empty_like.html)", lambda d: ([values(d)], {}),
       zero_derivative=True),
    Op("from_python", "obj, dtype=None", "creation", f"The standard's asarray of Python values: a tensor of obj, "
       f"a Python number or a nested list of them, in dtype, each value rounded to it once (a float64 number to "
       f"float16 directly, not through float32); dtype None infers it from obj: bool, the default integer dtype "
       f"(NumPy's and the standard's int64) for ints, the default real floating dtype (NumPy's float64) where any "
       f"is a float. (The adapter method `asarray` is Parity's own conversion of NumPy inputs, hence the name.) "
       f"({PAGE}asarray.html)", lambda d: ([values(d).tolist()], {"dtype": d}), dtype_param=True,
       describes_dtype=True, bound="constant"),
    Op("from_dlpack", "x", "creation", f"A tensor of x's values, shape and dtype read through the DLPack "
       f"protocol (x.__dlpack__ and x.__dlpack_device__), x being a tensor of the same framework, as the "
       f"standard's own test suite exchanges one: the interchange of its memory, strides included (a view of "
       f"another tensor: offset, strided, transposed or broadcast with zero strides), every dtype (DLPack's bool "
       f"and bfloat16 too), 0-d and empty. The standard asks for no gradient through it (a framework may refuse "
       f"to export a tensor that requires one). ({PAGE}from_dlpack.html)", lambda d: ([values(d)], {}),
       bound="structural"),
]

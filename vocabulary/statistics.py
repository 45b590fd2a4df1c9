"""The Python Array API standard's statistical and utility functions beyond sum, mean, max and
cumulative_sum (2024.12): min, prod, var, std, all and any, cumulative_prod (as cumprod, beside
cumsum) and diff; and its searching functions count_nonzero, nonzero and searchsorted. Each op is the
standard's function of the same name, its semantics the standard's text, special cases included
(specs/statistics.yaml holds each as a named example):
https://data-apis.org/array-api/2024.12/API_specification/statistical_functions.html,
utility_functions.html and searching_functions.html.

var's and std's `correction` is where frameworks part by default: the standard's default is 0 (the
population variance), torch's and Paddle's 1 (Bessel's). The signature's None is a correction the
spec leaves to the framework; the reference computes the standard's 0 there, and each framework
that defaults otherwise documents its default as a behaviour (adapters/behaviours.py).
"""
from vocabulary.records import REDUCTION, Op, along_axis, values

PAGE = "https://data-apis.org/array-api/2024.12/API_specification/generated/array_api."
GROUP = "reductions and shapes"
DEVIATION = ("Over the M elements reduced, with c = correction (None: the framework's default; the "
             "standard's, which the reference takes, is 0): sum((x - mean(x))^2) / (M - c); M - c <= 0 gives NaN "
             "and a NaN propagates (the standard's special cases). An integer x gives float64 (the default "
             "float dtype). ")


def _test(name, semantics):
    return Op(name, "x, axis=None, keepdims=False", GROUP, f"{semantics} A bool result: NaN is non-zero, -0 is "
              f"zero. {REDUCTION} ({PAGE}{name}.html)", along_axis, zero_derivative=True)


STATISTICAL_OPS = [
    Op("min", "x, axis=None, keepdims=False", GROUP, f"Smallest value; a NaN propagates; over no elements "
       f"the standard leaves it to the implementation (NumPy raises). {REDUCTION} ({PAGE}min.html)", along_axis),
    Op("prod", "x, axis=None, keepdims=False", GROUP, f"Product; over no elements 1 (the empty product). A "
       f"float x keeps its dtype; a signed integer x gives the default integer dtype, int64, and an unsigned "
       f"one uint64 (the standard's dtype rule: an int8 product does not wrap at int8); bool gives int64 as "
       f"NumPy's. {REDUCTION} ({PAGE}prod.html)", along_axis, bound="prod"),
    Op("var", "x, axis=None, correction=None, keepdims=False", GROUP, f"Variance. {DEVIATION}{REDUCTION} "
       f"({PAGE}var.html)", along_axis, bound="variance"),
    Op("std", "x, axis=None, correction=None, keepdims=False", GROUP, f"Standard deviation, sqrt(var). "
       f"{DEVIATION}{REDUCTION} ({PAGE}std.html)", along_axis, bound="variance"),
    _test("all", "True where every element reduced is non-zero; over no elements True."),
    _test("any", "True where any element reduced is non-zero; over no elements False."),
    Op("cumprod", "x, axis", GROUP, f"The standard's cumulative_prod along axis: out[..., i] = x[..., 0] * ... "
       f"* x[..., i], an axis of length 0 giving an empty result; its dtype as prod's (a signed integer or bool "
       f"x gives int64, an unsigned one uint64, a float keeps its dtype; the standard's include_initial is "
       f"not in the signature: no framework but jax takes it). ({PAGE}cumulative_prod.html)", along_axis,
       bound="cumprod"),
    Op("diff", "x, axis=-1, n=1, prepend=None, append=None", GROUP, f"The n-th forward difference along axis: "
       f"out[..., i] = x[..., i + 1] - x[..., i], taken n times, after prepend and append (tensors of x's "
       f"shape but along axis) are joined to x along axis; the axis shrinks by n (to 0 when n is at least its "
       f"length). The result has x's dtype; a bool x gives x[i + 1] != x[i] (NumPy's). ({PAGE}diff.html)",
       along_axis, bound="difference"),
    Op("count_nonzero", "x, axis=None, keepdims=False", GROUP, f"The number of non-zero elements reduced, in "
       f"the default integer dtype (int64): NaN is non-zero, -0 zero. {REDUCTION} ({PAGE}count_nonzero.html)",
       along_axis, zero_derivative=True),
    Op("searchsorted", "x1, x2, side='left'", "sorting", f"For each element of x2, the index in x1 (1-D, "
       f"ascending) where it would be inserted to keep x1 sorted: side 'left' the first such index (x1[i-1] < "
       f"v <= x1[i]), 'right' the last (x1[i-1] <= v < x1[i]); int64, of x2's shape. The standard's sorter is "
       f"not in the signature. ({PAGE}searchsorted.html)",
       lambda d: ([values(d, (4,)), values(d, (3,))], {}), zero_derivative=True),
    Op("nonzero", "x", "sorting", f"The indices of x's non-zero elements (NaN is non-zero, -0 zero), one int64 "
       f"tensor per axis of x, as a tuple, in row-major (C) order: the k-th non-zero element is x[out[0][k], "
       f"..., out[-1][k]]. Its length is data-dependent. A 0-d x is not allowed (an error: the standard). "
       f"({PAGE}nonzero.html)", lambda d: ([values(d, (2, 3))], {}), zero_derivative=True),
]

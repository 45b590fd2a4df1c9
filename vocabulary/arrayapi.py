"""The Python Array API standard (2024.12) function by function, and the vocabulary op that
computes each: the measure of how much of the standard Parity covers. docs/array-api.md is
generated from it (`python -m suites arrayapi --write`) with each adapter's declared dtypes.

An op of the same name is the standard's function; ALIASES names the ops that compute a function
under an older Parity name (div is divide). A function without an op is not covered yet. The
sections are the standard's own (its API specification's pages:
https://data-apis.org/array-api/2024.12/API_specification/index.html).
"""

STANDARD = {
    "creation": "arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones ones_like "
                "tril triu zeros zeros_like",
    "data types": "astype can_cast finfo iinfo isdtype result_type",
    "elementwise": "abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert "
                   "bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp "
                   "expm1 floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less less_equal "
                   "log log1p log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum "
                   "multiply negative nextafter not_equal positive pow real reciprocal remainder round sign signbit "
                   "sin sinh square sqrt subtract tan tanh trunc",
    "indexing": "take take_along_axis",
    "linear algebra": "matmul matrix_transpose tensordot vecdot",
    "manipulation": "broadcast_arrays broadcast_to concat expand_dims flip moveaxis permute_dims repeat reshape roll "
                    "squeeze stack tile unstack",
    "searching": "argmax argmin count_nonzero nonzero searchsorted where",
    "set": "unique_all unique_counts unique_inverse unique_values",
    "sorting": "argsort sort",
    "statistical": "cumulative_prod cumulative_sum max mean min prod std sum var",
    "utility": "all any diff",
    "linalg extension": "cholesky cross det diagonal eigh eigvalsh inv matmul matrix_norm matrix_power matrix_rank "
                        "matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace vecdot vector_norm",
    "fft extension": "fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift ifftshift",
}

# standard function -> the vocabulary op that computes it under another name
ALIASES = {"asarray": "from_python", "astype": "cast", "divide": "div", "multiply": "mul", "subtract": "sub",
           "negative": "neg", "permute_dims": "transpose", "cumulative_sum": "cumsum", "cumulative_prod": "cumprod",
           "take_along_axis": "gather"}


def functions() -> list[tuple[str, str]]:
    """(section, function) for every function of the standard, in the standard's order."""
    return [(section, name) for section, names in STANDARD.items() for name in names.split()]


def op_of(function: str, ops) -> str | None:
    """The vocabulary op (of `ops`, the vocabulary's names) that computes `function`, if any."""
    name = ALIASES.get(function, function)
    return name if name in ops else None

"""Properties of the Array API's set functions (unique_values, unique_counts, unique_inverse,
unique_all), whose values come in an order the standard leaves unspecified: they are judged as
a set against the reference's, and the other parts jointly with them, whatever the order.

Each property takes the run's Context, the case's inputs and the adapter's result parts, and
returns None when it holds, else what was seen, in one line (suites/judging/properties.py).
The standard's rules: each NaN is a value of its own (NaN != NaN), so it is counted once and
has an inverse index and a first occurrence of its own; -0 and +0 are one value (which zero
stands for both is unspecified).
https://data-apis.org/array-api/2024.12/API_specification/set_functions.html
"""
import numpy as np


def same_values_in_any_order(ctx, inputs, parts):
    """unique_values: sorted, the result is the reference's values sorted, NaN matching NaN and -0
    matching +0 (TensorFlow keeps the order values first occur in, NumPy 2's hashing an order of its
    own). The shape, the count of distinct values, is checked before this."""
    reference = ctx.oracle_parts(inputs)
    return _values_differ(parts[0], reference[0] if isinstance(reference, tuple) else reference)


def unique_parts_agree(ctx, inputs, parts):
    """unique_counts, unique_inverse, unique_all: the values as unique_values' (above), and each
    other part as the standard defines it from x and the framework's own values, in their order:
    counts[i] the number of elements of x equal to values[i] (1 for a NaN); inverse_indices in x's
    shape with values[inverse_indices] equal to x, each NaN of x sent to a NaN of its own; indices[i]
    the flat position of values[i]'s first occurrence in x (a NaN's own position)."""
    named = dict(zip(ctx.part_names, parts))
    values = np.asarray(named["values"])
    broken = same_values_in_any_order(ctx, inputs, [values])
    if broken:
        return broken
    x = np.asarray(inputs["x"])
    floats = x.dtype.kind == "f" or str(x.dtype) == "bfloat16"
    flat = x.astype(np.float64).ravel() if floats else x.ravel()
    values = values.astype(np.float64) if floats else values
    for part, check in (("counts", _counts), ("inverse_indices", _inverse), ("indices", _first_occurrences)):
        if part in named:
            # exact: run() flattens the parts together, in float64 beside float values (an index < 2 ** 53)
            broken = check(flat, values, np.asarray(named[part]).astype(np.int64), x.shape)
            if broken:
                return f"{part}: {broken}"
    return None


def _values_differ(actual, reference):
    actual = np.asarray(actual)
    reference = np.asarray(reference).astype(actual.dtype)  # exact: the values are x's
    if actual.shape != reference.shape:
        return f"{actual.size} values, where the reference has {reference.size}"
    got, expected = np.sort(actual, axis=None), np.sort(reference, axis=None)
    same = got == expected
    if actual.dtype.kind == "f" or str(actual.dtype) == "bfloat16":
        same |= np.isnan(got.astype(np.float64)) & np.isnan(expected.astype(np.float64))
    if same.all():
        return None
    return f"sorted, the values {got.tolist()} are not the reference's {expected.tolist()}"


def _nan(a) -> np.ndarray:
    return np.isnan(a) if a.dtype.kind == "f" else np.zeros(np.shape(a), bool)


def _counts(flat, values, counts, shape):
    ordered = np.sort(flat[~_nan(flat)])
    expected = np.searchsorted(ordered, values, "right") - np.searchsorted(ordered, values, "left")
    expected = np.where(_nan(values), 1, expected)
    return _first_difference(expected, counts, values)


def _inverse(flat, values, inverse, shape):
    if inverse.shape != shape:
        return f"shape {inverse.shape}, x's is {shape}"
    inverse = inverse.ravel()
    outside = (inverse < 0) | (inverse >= len(values))
    if outside.any():
        at = int(np.argmax(outside))
        return f"at x's flat position {at}, {int(inverse[at])} lies outside the {len(values)} values"
    taken = values[inverse]
    same = (taken == flat) | (_nan(taken) & _nan(flat))
    if not same.all():
        at = int(np.argmin(same))
        return f"at x's flat position {at}, values[{int(inverse[at])}] is {taken[at].item()}, x is {flat[at].item()}"
    nans = inverse[_nan(flat)]
    if len(np.unique(nans)) != len(nans):
        return f"x's {len(nans)} NaNs share {len(np.unique(nans))} values (each NaN is a value of its own)"
    return None


def _first_occurrences(flat, values, indices, shape):
    if ((indices < 0) | (indices >= flat.size)).any():
        return f"{indices.tolist()} reach outside x's {flat.size} elements"
    order = np.argsort(flat, kind="stable")  # NaN last; equal values (-0 and +0 too) in x's order
    first = order[np.minimum(np.searchsorted(flat[order], values, "left"), flat.size - 1)]
    nan = _nan(values)
    expected = np.where(nan, indices, first)  # a NaN's own position: any NaN of x, each once
    taken = flat[indices[nan]]
    if not _nan(taken).all() or len(np.unique(indices[nan])) != nan.sum():
        return f"the NaN values' indices {indices[nan].tolist()} are not distinct NaNs of x"
    return _first_difference(expected, indices, values)


def _first_difference(expected, actual, values):
    differ = np.asarray(expected) != np.asarray(actual)
    if not differ.any():
        return None
    i = int(np.argmax(differ))
    return f"{int(actual[i])} for the value {values[i].item()} (position {i}), expected {int(expected[i])}"


# name -> (check, where it applies)
PROPERTIES = {
    "same-values-in-any-order": (same_values_in_any_order, lambda ctx: True),
    "unique-parts-agree": (unique_parts_agree, lambda ctx: True),
}

"""The set functions' property unique-parts-agree (suites/judging/sets.py) and the judge's check of a
result whose parts have dtypes of their own (unique_counts' int64 counts beside float32 values)."""
import numpy as np

import adapters
from suites.judging import judge, properties
from suites.loading.specs import load_path
from suites.programs.context import Context

X = np.array([[2, np.nan, -0.0], [1, np.nan, 0.0], [2, 5, 5]], dtype=np.float32)


def _check(spec_id, parts):
    spec = next(s for s in load_path("specs/sets.yaml") if s.id == spec_id)
    ctx = Context(spec, adapters.get("reference"), "cpu", "float32")
    return properties.PROPERTIES["unique-parts-agree"][0](ctx, {"x": X}, parts)


def test_counts_in_any_order_and_each_nan_once():
    values = np.array([5, np.nan, 0.0, 2, 1, np.nan], np.float32)  # an order of the framework's own
    assert _check("unique-counts", [values, np.array([2, 1, 2, 2, 1, 1])]) is None
    assert "counts: 0 for the value nan" in _check("unique-counts", [values, np.array([2, 0, 2, 2, 1, 0])])
    assert "counts: 1 for the value 0.0" in _check("unique-counts", [values, np.array([2, 1, 1, 2, 1, 1])])


def test_inverse_rebuilds_x_in_its_shape_each_nan_its_own():
    values = np.array([0.0, 1, 2, 5, np.nan, np.nan], np.float32)
    inverse = np.array([[2, 4, 0], [1, 5, 0], [2, 3, 3]])
    assert _check("unique-inverse", [values, inverse]) is None
    assert "shape (9,), x's is (3, 3)" in _check("unique-inverse", [values, inverse.ravel()])
    shared = inverse.copy()
    shared[1, 1] = 4  # both NaNs of x sent to one NaN value
    assert "share 1 values" in _check("unique-inverse", [values, shared])
    outside = inverse.copy()
    outside[1, 1] = 2338328219397159284  # Paddle's uninitialised inverse at a NaN
    assert "lies outside the 6 values" in _check("unique-inverse", [values, outside])
    swapped = inverse.copy()
    swapped[0, 0] = 1
    assert "values[1] is 1.0, x is 2.0" in _check("unique-inverse", [values, swapped])


def test_indices_are_first_occurrences():
    values = np.array([0.0, 1, 2, 5, np.nan, np.nan], np.float32)
    inverse = np.array([[2, 4, 0], [1, 5, 0], [2, 3, 3]])
    counts = np.array([2, 1, 2, 2, 1, 1])
    first = np.array([2, 3, 0, 7, 1, 4])
    assert _check("unique-all", [values, first, inverse, counts]) is None
    assert _check("unique-all", [values, np.array([2, 3, 0, 7, 4, 1]), inverse, counts]) is None  # NaNs either way
    later = np.array([5, 3, 0, 7, 1, 4])  # +0's position for the zero, -0 came first
    assert "indices: 5 for the value 0.0" in _check("unique-all", [values, later, inverse, counts])
    assert "not distinct NaNs" in _check("unique-all", [values, np.array([2, 3, 0, 7, 1, 1]), inverse, counts])


def test_parts_dtypes_judged_after_the_values():
    """A result whose counts come back int32 (tf.unique_with_counts' default) passes its values and
    property and fails on the parts' dtypes alone, which an entry `dtype: "{dtype},int32"` documents."""
    spec = next(s for s in load_path("specs/sets.yaml") if s.id == "unique-counts")
    ctx = Context(spec, adapters.get("reference"), "cpu", "float32")
    inputs = {"x": np.array([1, 1, 2], np.float32)}
    actual = np.array([1, 2, 2, 1], np.float64)  # values [1, 2] and counts [2, 1], flattened
    right = judge._judge(ctx, "docs", inputs, {}, None, actual, "float32,int64", [(2,), (2,)])
    assert right.status == "pass", right.message
    narrow = judge._judge(ctx, "docs", inputs, {}, None, actual, "float32,int32", [(2,), (2,)])
    assert narrow.status == "fail" and narrow.message == "dtypes float32,int32, expected float32,int64 (values, counts)"
    wrong = judge._judge(ctx, "docs", inputs, {}, None, np.array([1, 2, 1, 2.0]), "float32,int32", [(2,), (2,)])
    assert wrong.message.startswith("the property unique-parts-agree fails")

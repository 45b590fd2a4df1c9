"""The comparison module: check order, NaN/inf handling, ulp, the worst element, error bounds."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from suites.judging import compare
from suites.programs import expr


def test_shape_is_checked_first_then_dtype():
    result = compare.compare(np.zeros((2, 3)), np.zeros((3, 2)), "float32")
    assert not result.ok and result.reason == "shape (3, 2), expected (2, 3)"
    result = compare.compare(np.zeros(2), np.zeros(2), "float32", actual_dtype="float64")
    assert not result.ok and result.reason == "dtype float64, expected float32"


def test_nan_and_inf_positions_compare_exactly():
    expected = np.array([1.0, np.nan, np.inf, -np.inf])
    assert compare.compare(expected, expected.copy(), "float32").ok
    moved = np.array([np.nan, 1.0, np.inf, -np.inf])
    result = compare.compare(expected, moved, "float32", allowed=1e9)
    assert not result.ok and result.reason == "NaN positions differ" and result.worst == (0,)
    flipped = np.array([1.0, np.nan, -np.inf, -np.inf])
    assert compare.compare(expected, flipped, "float32", allowed=1e9).reason == "+inf positions differ"
    # a huge finite value is not infinity, whatever the tolerance
    assert not compare.compare(np.array([np.inf]), np.array([3e38]), "float32", allowed=np.inf).ok


def test_a_documented_minus_zero_is_judged_by_its_sign():
    """-0.0 == 0.0 in IEEE 754, so a value check that compares numbers passes either zero for the
    other; a documented value (judge.py, an entry's observed value) is judged with signed_zeros:
    the standard's round(-0.5) is -0, and a framework that gives +0 differs from it."""
    documented, positive = np.array([-2.0, -0.0, 0.0]), np.array([-2.0, 0.0, 0.0])
    assert compare.compare(documented, positive, "float32", allowed=0.0).ok  # a reference check: numbers only
    result = compare.compare(documented, positive, "float32", allowed=0.0, signed_zeros=True)
    assert not result.ok and result.reason == "-0 positions differ" and result.worst == (1,)
    negative = np.array([-2.0, -0.0, -0.0])
    assert compare.compare(documented, negative, "float32", allowed=0.0, signed_zeros=True).worst == (2,)
    assert compare.compare(documented, documented.copy(), "float32", allowed=0.0, signed_zeros=True).ok
    # a zero where a nonzero value is expected is a value error, not a sign error
    assert compare.compare(np.array([-1e-30]), np.array([0.0]), "float32", allowed=1e-29, signed_zeros=True).ok


def test_worst_element_and_errors_are_reported():
    expected = np.array([[1.0, 2.0], [4.0, 8.0]])
    actual = expected.copy()
    actual[1, 0] += 0.5
    result = compare.compare(expected, actual, "float64", allowed=0.1)
    assert not result.ok
    assert result.worst == (1, 0) and result.expected_at == 4.0 and result.actual_at == 4.5
    assert result.max_abs_err == 0.5 and result.max_rel_err == 0.125
    assert result.ulp == 0.5 / 2.0 ** (2 - 52)
    assert "worst element at (1, 0): expected 4.0, got 4.5" in result.summary()


def test_relative_error_and_ulp_leave_out_values_within_the_allowed_error():
    """A float64 gradient near zero (finite differences' noise within the bound) read "rel inf ulp
    1.13e+279": relative error and ulp count only where the value exceeds the allowed error."""
    expected, actual = np.array([0.0, 1e-12, 2.0]), np.array([5.25e-11, 3e-12, 2.0 + 2.0 ** -50])
    result = compare.compare(expected, actual, "float64", allowed=1e-10)
    assert result.ok and result.max_abs_err == 5.25e-11
    assert result.max_rel_err == 2.0 ** -51 and result.ulp == 2.0
    near_zero = compare.compare(expected[:2], actual[:2], "float64", allowed=1e-10)
    assert near_zero.max_rel_err is None and near_zero.ulp is None
    assert near_zero.summary().startswith("max_abs_err=5.25e-11; worst element")


def test_integers_compare_exactly():
    assert compare.compare(np.array([1, 2]), np.array([1, 2]), "int32").ok
    result = compare.compare(np.array([1, 2]), np.array([1, 3]), "int32")
    assert not result.ok and result.worst == (1,) and result.reason == "1 of 2 elements differ"


def test_ulp_matches_numpy_spacing():
    x = np.array([1.0, 3.0, 1e-3, 1e30, 0.0])
    for dtype in ("float16", "float32", "float64"):
        with np.errstate(over="ignore"):
            finite = x[np.isfinite(x.astype(dtype)) & (x.astype(dtype) != 0)]
        assert np.array_equal(compare.ulp(finite, dtype), np.spacing(finite.astype(dtype)).astype(np.float64))
    assert compare.ulp(np.array([1.0]), "bfloat16")[0] == 2.0 ** -7


def test_round_to_bfloat16_is_round_to_nearest_even():
    # bfloat16 keeps 8 significant bits: between 1 and 2 its spacing is 2**-7
    x = np.array([1.0, 1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, 1 + 2.0 ** -9, -3.0])
    assert compare.round_to(x, "bfloat16").tolist() == [1.0, 1.0, 1 + 2 * 2.0 ** -7, 1.0, -3.0]


def test_round_to_bfloat16_rounds_once_from_float64():
    """1 + 2 ** -8 + 2 ** -30 lies above the midpoint of 1 and 1 + 2 ** -7, but through float32 it
    is the midpoint itself, which ties to 1; just under bfloat16's overflow threshold, float32 makes
    the threshold, which ties to inf; 2 ** -134 + 2 ** -160 lies above half bfloat16's smallest
    subnormal and float32 makes it that half, which ties to 0."""
    x = np.array([1 + 2.0 ** -8 + 2.0 ** -30, -(1 + 2.0 ** -8 + 2.0 ** -30), (2 - 2.0 ** -8 - 2.0 ** -30) * 2.0 ** 127,
                  2.0 ** -134 + 2.0 ** -160])
    largest = (2 - 2.0 ** -7) * 2.0 ** 127
    assert compare.round_to(x, "bfloat16").tolist() == [1 + 2.0 ** -7, -(1 + 2.0 ** -7), largest, 2.0 ** -133]
    assert compare.round_to(np.float64(2.5), "bfloat16") == 2.5  # a 0-d value keeps its shape


def test_complex_values_compare_component_by_component():
    """A complex result is judged as its (real, imaginary) pairs: NaN and infinity positions and a
    zero's sign per component, the worst element's index ending with its component."""
    expected = np.array([1 + 2j, complex(np.nan, 1.0), complex(3.0, -0.0)])
    assert compare.compare(expected, expected.astype(np.complex64), "complex64", signed_zeros=True).ok
    nan_moved = compare.compare(expected, np.array([1 + 2j, complex(1.0, np.nan), 3 - 0j]), "complex64")
    assert not nan_moved.ok and nan_moved.reason == "NaN positions differ" and nan_moved.worst == (1, 0)
    lost_sign = compare.compare(expected, np.array([1 + 2j, complex(np.nan, 1.0), 3 + 0j]), "complex64",
                                signed_zeros=True)
    assert not lost_sign.ok and lost_sign.worst == (2, 1)
    assert compare.compare(expected, expected, "complex64", actual_dtype="float32").reason == \
        "dtype float32, expected complex64"


def test_complex_allowed_error_is_relative_to_the_modulus():
    """A small component carries an error of the size of the modulus' rounding (a product's real part
    ac - bd cancels): the allowed error is the components' dtype's at |z|, on either component; where
    the modulus is infinite or NaN, at the finite component's magnitude."""
    expected = np.array([1e-8 + 1j])
    allowed = compare.allowed_error(expected, "complex64")
    assert allowed[0] == compare.allowed_error(np.array([1.0]), "float32")[0]
    assert compare.compare(expected, np.array([3e-8 + 1j]), "complex64", allowed).ok
    assert not compare.compare(expected, np.array([1e-6 + 1j]), "complex64", allowed).ok
    at_infinity = compare.allowed_error(np.array([complex(2.0, np.inf), complex(np.nan, np.nan)]), "complex128")
    assert np.isfinite(at_infinity).all() and at_infinity[0] == compare.allowed_error(np.array([2.0]), "float64")[0]


def test_complex_values_are_written_as_python_reads_them():
    assert np.signbit(compare.written(["-0-0j"], "complex64").imag).all()
    assert compare.written([["1+2j", 3]], "complex128").tolist() == [[1 + 2j, 3 + 0j]]
    assert compare.round_to(np.array([1 + (1 + 2 ** -30) * 1j]), "complex64")[0] == 1 + 1j
    with pytest.raises(ValueError, match="not a complex number"):
        compare.written(["1+2i"], "complex64")


def test_default_tolerance_is_a_few_ulp():
    allowed = compare.allowed_error(np.array([1.0]), "float32")
    assert allowed[0] == compare.DEFAULT_ULPS * 2.0 ** -23
    assert compare.allowed_error(np.array([3]), "int32")[0] == 0


@given(hnp.mutually_broadcastable_shapes(signature="(m?,n),(n,p?)->(m?,p?)", max_dims=2, max_side=8),
       st.integers(0, 2**32 - 1))
def test_matmul_bound_holds_for_float32_and_fails_for_a_float16_accumulator(shapes, seed):
    """The a-priori bound admits any float32 summation order, and is tight enough to reject
    float16 arithmetic dressed up as float32."""
    rng = np.random.default_rng(seed)
    a, b = (compare.round_to(rng.standard_normal(s), "float32") for s in shapes.input_shapes)
    tree = expr.call("matmul", ["a", "b"], {})
    bound = compare.error_bound(tree, {"a": a, "b": b}, "float32")
    exact = np.matmul(a, b)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    assert compare.compare(exact, np.matmul(a32, b32), "float32", bound).ok
    reversed_order = np.matmul(a32[..., ::-1], b32[::-1] if b.ndim == 1 else b32[..., ::-1, :])
    assert compare.compare(exact, reversed_order, "float32", bound).ok


def test_bound_rejects_reduced_precision():
    rng = np.random.default_rng(0)
    a, b = (compare.round_to(rng.standard_normal((64, 64)), "float32") for _ in range(2))
    bound = compare.error_bound(expr.call("matmul", ["a", "b"], {}), {"a": a, "b": b}, "float32")
    as_bf16 = np.matmul(compare.round_to(a, "bfloat16"), compare.round_to(b, "bfloat16"))  # TF32-like inputs
    assert not compare.compare(a @ b, as_bf16, "float32", bound).ok


def test_bound_is_none_outside_sum_product_ops():
    x = np.ones(3)
    assert compare.error_bound(expr.parse("exp(x)", {"x"}), {"x": x}, "float32") is None
    assert compare.error_bound(expr.parse("x * x", {"x"}), {"x": x}, "int32") is None


@pytest.mark.parametrize("text, n", [("a + b", 1), ("a * b - a", 2), ("sum(a * b)", 4), ("matmul(a, b)", 3)])
def test_rounding_counts(text, n):
    a, b = np.ones(3), np.ones(3)
    assert compare.sum_product_bound(expr.parse(text, {"a", "b"}), {"a": a, "b": b}).n == n


def test_an_input_used_before_its_rounding_counts_one_rounding_more():
    """A model's earlier activation judged in a narrower precision may have fed the next layer
    unrounded (suites/programs/model.py): its own rounding adds one to each term's count, gamma_(n+1)."""
    a, b = np.full(3, 1.5), np.full(3, -2.0)
    tree = expr.parse("sum(a * b)", {"a", "b"})
    plain = compare.error_bound(tree, {"a": a, "b": b}, "float16")
    rounded = compare.error_bound(tree, {"a": a, "b": b}, "float16", rounded={"a"})
    n = compare.sum_product_bound(tree, {"a": a, "b": b}).n
    assert compare.sum_product_bound(tree, {"a": a, "b": b}, rounded={"a"}).n == n + 1
    tiny = compare.tiny("float16")
    assert rounded - (n + 1) * tiny == pytest.approx(compare.gamma(n + 1, "float16") * 9.0)  # sum |a * b| = 9
    assert plain - n * tiny == pytest.approx(compare.gamma(n, "float16") * 9.0)


def test_cast_wraps_integers_and_truncates_floats_as_c_does():
    # two's complement: int8 holds -128..127, uint8 0..255 (mathematics, not the code under test)
    assert compare.cast(np.array([197, 200, -1]), "int8").tolist() == [-59, -56, -1]
    assert compare.cast(np.array([-1, 256]), "uint8").tolist() == [255, 0]
    assert compare.cast(np.array([1.5, -2.5, 2.9]), "int32").tolist() == [1, -2, 2]  # toward zero
    assert compare.cast(np.array([0.1]), "float16").tolist() == [0.1]  # floats: the bound judges them


def test_a_reference_past_the_dtypes_range_is_the_infinity_it_rounds_to():
    # float32's largest finite is (2 - 2**-23) * 2**127 = 3.4028234663852886e38 (IEEE 754)
    values = np.array([4.5e38, -4.5e38, 3.0e38, np.nan])
    assert compare.overflowed(values, "float32")[:3].tolist() == [np.inf, -np.inf, 3.0e38]
    assert compare.overflowed(values, "float64")[:3].tolist() == values[:3].tolist()


def test_a_subnormal_result_may_be_flushed_to_zero():
    tiny32 = 2.0 ** -126  # float32's smallest normal number
    assert compare.compare(np.array([tiny32 / 2]), np.array([0.0]), "float32",
                           compare.allowed_error(np.array([tiny32 / 2]), "float32")).ok
    assert not compare.compare(np.array([tiny32 * 4]), np.array([0.0]), "float32",
                               compare.allowed_error(np.array([tiny32 * 4]), "float32")).ok


def test_a_bound_without_content_is_infinite_and_zero_terms_have_none():
    # bfloat16: u = 2**-8, so 300 roundings give n u > 1 and no bound at all (Higham's gamma_n)
    tree = expr.parse("matmul(a, b)", {"a", "b"})
    a = np.ones((1, 300))
    assert compare.error_bound(tree, {"a": a, "b": np.ones((300, 1))}, "bfloat16")[0, 0] == np.inf
    assert compare.error_bound(tree, {"a": 0 * a, "b": np.zeros((300, 1))}, "bfloat16")[0, 0] == 300 * 2.0 ** -126


def quantised(x: np.ndarray, bits: int, axis=None, symmetric=True) -> np.ndarray:
    """x quantised to `bits`-bit integers and back, as a runtime's kernels do: symmetric to
    -(2^(b-1) - 1)..2^(b-1) - 1 with a scale of max|x| / that; asymmetric to -2^(b-1)..2^(b-1) - 1
    with a scale of (max - min) / (2^b - 1) over a range that holds 0, and a rounded zero point;
    per `axis` slice (each keeps it), or over the whole tensor."""
    keep = tuple(i for i in range(x.ndim) if i != axis) if axis is not None else None
    top = 2.0 ** (bits - 1) - 1
    if symmetric:
        scale = np.max(np.abs(x), axis=keep, keepdims=True) / top
        scale = np.where(scale == 0, 1.0, scale)
        return np.clip(np.round(x / scale), -top, top) * scale
    high = np.maximum(np.max(x, axis=keep, keepdims=True), 0.0)
    low = np.minimum(np.min(x, axis=keep, keepdims=True), 0.0)
    scale = np.where(high > low, (high - low) / (2 * top + 1), 1.0)
    zero = np.round(-top - 1 - low / scale)
    return (np.clip(np.round(x / scale) + zero, -top - 1, top) - zero) * scale


@given(st.integers(0, 2**32 - 1), st.booleans())
def test_an_int8_quantisation_of_weights_and_activations_holds_to_the_bound_of_their_moves(seed, symmetric):
    """A linear layer computed from its weights quantised to int8 per output channel and its
    activations per row (symmetric, or asymmetric with a zero point, as LiteRT's dynamic-range
    kernels do), in float32: within the quantisation bound; from int4's, beyond it."""
    rng = np.random.default_rng(seed)
    x, w, b = (compare.round_to(rng.standard_normal(s) * rng.uniform(0.1, 3), "float32")
               for s in ((5, 16), (4, 16), (4,)))
    env = {"x": x, "w": w, "b": b}
    tree = expr.parse("linear(x, w, b)", set(env))
    bound = compare.error_bound(tree, env, "float32", quantised=set(env))
    assert np.all(bound > compare.error_bound(tree, env, "float32"))

    def computed(bits):
        moved_x = quantised(x, bits, axis=0, symmetric=symmetric).astype(np.float32)
        return moved_x @ quantised(w, bits, axis=0).astype(np.float32).T + b.astype(np.float32)
    assert compare.compare(x @ w.T + b, computed(8), "float32", bound).ok
    assert not compare.compare(x @ w.T + b, computed(4), "float32", bound).ok


def test_no_quantisation_bound_through_a_max_whose_magnitude_is_no_majorant():
    """maximum's magnitude, max(|a|, |b|), does not grow with b's moves where |a| is larger:
    maximum(-10, 0) moves with b, so no bound is given through it."""
    env = {"a": np.array([-10.0]), "b": np.array([0.0])}
    assert compare.error_bound(expr.parse("maximum(a, b)", set(env)), env, "float32", quantised={"b"}) is None
    assert compare.error_bound(expr.parse("relu(a) + b", set(env)), env, "float32", quantised={"b"}) is not None


def test_a_max_pool_rounds_nothing_and_carries_its_windows_largest_error():
    """A max pool selects one of its window's values: exact on inputs of the dtype (0 allowed,
    an infinity elsewhere in the window included), and, on an input used before its rounding,
    that rounding of the window's largest magnitude."""
    x = np.array([[[[1.0, -np.inf, 0.5, 3.0], [0.5, -2.0, -4.0, 1.0]]]])
    tree = expr.parse("max_pool2d(x, 2, stride=2)", {"x"})
    assert np.array_equal(compare.error_bound(tree, {"x": x}, "float16"), np.zeros((1, 1, 1, 2)))
    finite = np.where(np.isinf(x), 0.0, x)
    rounded = compare.error_bound(tree, {"x": finite}, "float16", rounded={"x"})
    largest = np.array([[[[2.0, 4.0]]]])  # and one smallest normal: the rounding may have flushed it
    assert rounded == pytest.approx(compare.gamma(1, "float16") * largest + compare.tiny("float16"))


@given(st.sampled_from([0.5, -1.0, 1.0, 2.0, 3.0, np.inf, -np.inf]), st.integers(0, 2**32 - 1))
def test_a_vector_norm_of_rounded_inputs_holds_to_its_bound_for_every_ord_but_a_count(ord, seed):
    """Every ord but 0 is homogeneous and grows with each |x_i|: float64 inputs rounded to float32
    (a framework that computes float64 in float32) move it by their relative rounding alone, so
    ord 0.5 and -1, which are no norms, have a bound there too; a float16 computation exceeds it."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.5, 2.0, (3, 40)) * rng.choice([-1.0, 1.0], 40)
    tree = expr.call("vector_norm", ["x"], {"axis": -1, "ord": ord})
    bound = compare.error_bound(tree, {"x": x}, "float32", rounded={"x"})
    exact = compare.sum_product_bound(tree, {"x": x}).value

    def norm(dtype):
        a = np.abs(x.astype(dtype))
        if np.isinf(ord):
            return (np.max if ord > 0 else np.min)(a, axis=-1)
        return np.sum(a ** dtype(ord), axis=-1, dtype=dtype) ** dtype(1 / ord)
    assert bound is not None and compare.compare(exact, norm(np.float32), "float32", bound).ok
    if not np.isinf(ord):
        assert not compare.compare(exact, norm(np.float16).astype(np.float32), "float32", bound).ok
    assert compare.error_bound(expr.call("vector_norm", ["x"], {"ord": 0}), {"x": x}, "float32", rounded={"x"}) is None


def test_written_values_past_int64s_range_stay_exact():
    """NumPy makes a list holding 2 ** 64 - 1 float64, which rounds it to 2 ** 64 (0 once cast to
    uint64): a spec's explicit uint64 values are read as uint64."""
    values = compare.written([18446744073709551615, 10000000000000000000, 7], "uint64")
    assert values.dtype == np.uint64 and values.tolist() == [18446744073709551615, 10000000000000000000, 7]
    assert compare.written([-1, 2], "int16").tolist() == [-1, 2]
    assert compare.written([0.1], "float32")[0] == np.float32(0.1)


def test_written_values_no_integer_dtype_holds_are_refused_in_one_line():
    """-1 beside 2 ** 64 - 1: neither int64 nor uint64 holds both (NumPy's own error names neither value)."""
    with pytest.raises(ValueError, match="past int64's range and negative ones"):
        compare.written([-1, 18446744073709551615], "uint64")

"""matrix_rank's property and pinv's bound (suites/judging/decompositions.py, spectral_bounds.py):
the property takes the exact ranks of the documented examples in each dtype, with the default
cutoff of the dtype judged, and refuses one less, a full rank for a zero matrix and an explicit rtol
taken as absolute (a count above a deficient rank it takes, within the modelled error: the
documented ranks pin those); pinv's bound holds
for float32 LAPACK on `separated` matrices up to pinv-generated's 12 on a side (and stays finite
there), and fails float64 computed in float32, a cutoff that keeps a rounding residue, and a
transposed result of a few rows (the modelled error, 1000 n u, is too wide to see it from 12 on)."""
import numpy as np
import pytest

import adapters
from suites.judging import compare
from suites.judging.decompositions import PROPERTIES
from suites.loading.specs import load_path
from suites.programs import expr
from suites.programs.context import Context
from suites.programs.inputs import separated

SPECS = {s.id: s for s in load_path("specs/rank.yaml")}
COUNTS = PROPERTIES["matrix-rank-counts"][0]


def _counts(spec_id, dtype, x, rank):
    ctx = Context(SPECS[spec_id], adapters.get("reference"), "cpu", dtype)
    return COUNTS(ctx, {"x": np.asarray(x, dtype=np.float64)}, [np.asarray(rank)])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_property_takes_the_documented_ranks_and_refuses_one_less(dtype):
    for example in SPECS["matrix-rank-docs"].examples:
        if example.dtypes and dtype not in example.dtypes or "values" not in example.inputs["x"]:
            continue
        x, rank = example.inputs["x"]["values"], np.asarray(example.expect["value"])
        assert _counts("matrix-rank-docs", dtype, x, rank) is None, example.name
        if np.all(rank > 0) and example.name != "within-ten-float64-cutoffs":  # 1e-15: within the modelled error
            assert "allow" in _counts("matrix-rank-docs", dtype, x, rank - 1), example.name


def test_the_default_cutoff_is_the_judged_dtypes():
    # 1e-8 lies below float32's cutoff (2 x 1.19e-7) and above float64's: float64 must count it,
    # float32 may drop it (its documented rank is 1; the modelled error, 1000 n u, is wider than 1e-8)
    x = [[1, 0], [0, 1e-8]]
    assert _counts("matrix-rank-docs", "float32", x, 1) is None
    assert _counts("matrix-rank-docs", "float64", x, 2) is None and _counts("matrix-rank-docs", "float64", x, 1)


def test_a_zero_matrix_has_rank_zero_and_an_explicit_rtol_is_relative():
    assert "rank 2 at (), where A's singular values allow 0 to 0" in _counts("matrix-rank-docs", "float32",
                                                                              np.zeros((2, 2)), 2)
    stack = [[[10, 0], [0, 0.5]], [[1, 0], [0, 0.5]]]
    assert _counts("matrix-rank-rtol", "float64", stack, [1, 2]) is None
    assert "rank 2 at (0,)" in _counts("matrix-rank-rtol", "float64", stack, [2, 2])  # S > rtol, jax's


def _pinv_bound(x, dtype, text="pinv(x)"):
    return compare.allowed_error(np.linalg.pinv(x), dtype, compare.error_bound(expr.parse(text, ["x"]), {"x": x},
                                                                               dtype))


SHAPES = [(1, 1), (3, 3), (2, 4, 4), (12, 12), (5, 2), (2, 7), (2, 12, 9)]


def _separated(shape, dtype, scale=1.0):
    rng = np.random.default_rng(sum(shape))
    return separated(rng.standard_normal(shape) * scale, dtype)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_pinv_bound_holds_for_float32_lapack_and_stays_finite(shape):
    for scale in (1e-30, 1.0, 100.0):
        x = _separated(shape, "float32", scale)
        allowed = _pinv_bound(x, "float32")
        assert np.all(np.isfinite(allowed))
        assert np.all(np.abs(np.linalg.pinv(x.astype(np.float32)) - np.linalg.pinv(x)) <= allowed)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_pinv_bound_fails_float64_computed_in_float32_and_a_transposed_square(shape):
    x = _separated(shape, "float64") * (1 + 1e-9)
    assert np.any(np.abs(np.linalg.pinv(x.astype(np.float32)) - np.linalg.pinv(x)) > _pinv_bound(x, "float64"))
    if shape[-1] == shape[-2] > 1 and shape[-1] < 12:  # 12 x 12: its off-diagonal entries lie within 1000 n u
        x = _separated(shape, "float32")
        transposed = np.swapaxes(np.linalg.pinv(x.astype(np.float32)), -1, -2)
        assert np.any(np.abs(transposed - np.linalg.pinv(x)) > _pinv_bound(x, "float32"))


def test_the_pinv_bound_fails_a_cutoff_that_keeps_a_rounding_residue():
    # Paddle's default rcond, 1e-15: float32's residue of the rank-one matrix's second value is kept
    x = np.array([[1.0, 2.0], [2.0, 4.0]]) / 3
    u, s, vh = np.linalg.svd(x.astype(np.float32))
    s[1] = max(s[1], 1e-7)  # a residue, as a float32 SVD may leave it
    kept = (vh.T / s) @ u.T
    assert np.any(np.abs(kept - np.linalg.pinv(x)) > _pinv_bound(x, "float32"))
    assert np.all(np.abs(np.linalg.pinv(x.astype(np.float32)) - np.linalg.pinv(x)) <= _pinv_bound(x, "float32"))

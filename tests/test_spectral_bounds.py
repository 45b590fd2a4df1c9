"""The error bound of eigenvalues and singular values (suites/judging/spectral_bounds.py) and the
`separated` input rule (suites/programs/inputs.py): the bound holds for LAPACK's syevd and gesdd in
the dtype judged (NumPy's in float32), fails float64 values computed in float32 (jax-32's regime) and
float32 values of bfloat16 inputs of a few rows, so that it can fail (LAPACK's test suite's constant,
500 n ulp, is too wide to tell half-precision inputs from float32 ones past a few rows); the rule
keeps the values distinct and nonzero, where the engine's gradients, checked against finite
differences, exist."""
import numpy as np
import pytest

from engine import linalg
from engine.tensor import Tensor
from suites.judging import compare
from suites.programs import expr
from suites.programs.inputs import separated


def _bound(text, x, dtype):
    return compare.error_bound(expr.parse(text, ["x"]), {"x": x}, dtype)


def _matrices(rng, shape, dtype="float32"):
    return compare.round_to(rng.standard_normal(shape) * 100, dtype)


def _bfloat16(a):
    return compare.round_to(a, "bfloat16").astype(np.float32)


def _symmetric(rng, shape):
    a = _matrices(rng, shape)
    return a + np.swapaxes(a, -1, -2)  # exactly: float32 holds each sum


def _svdvals(a):
    return np.linalg.svd(a, compute_uv=False)


CASES = [("eigvalsh", np.linalg.eigvalsh, _symmetric, shape) for shape in [(2, 1, 1), (2, 2, 2), (2, 5, 5), (2, 40, 40),
                                                                          (2, 130, 130)]] + \
        [("svdvals", _svdvals, _matrices, shape) for shape in [(2, 1, 1), (2, 3, 2), (2, 2, 5), (40, 40), (130, 70),
                                                                (64, 129)]]


@pytest.mark.parametrize("name, values, matrices, shape", CASES)
def test_bound_holds_for_float32_lapack(name, values, matrices, shape):
    a = matrices(np.random.default_rng(sum(shape)), shape)
    assert np.all(np.abs(values(a.astype(np.float32)) - values(a)) <= _bound(f"{name}(x)", a, "float32"))


@pytest.mark.parametrize("name, values, matrices, shape", [c for c in CASES if c[3][-1] > 1])
def test_bound_fails_float64_computed_in_float32(name, values, matrices, shape):
    """jax-32's regime: float64 matrices rounded to float32 and solved there."""
    a = matrices(np.random.default_rng(sum(shape)), shape).astype(np.float64) * (1 + 1e-9)
    assert np.any(np.abs(values(a.astype(np.float32)) - values(a)) > _bound(f"{name}(x)", a, "float64"))


@pytest.mark.parametrize("name, values, matrices, shape", [c for c in CASES if 1 < c[3][-1] <= 5])
def test_bound_fails_bfloat16_inputs_of_small_matrices(name, values, matrices, shape):
    """In float32, of a few rows: past them LAPACK's test constant, 500 n ulp of ||A||_F, is wider
    than bfloat16's rounding of the entries moves the values."""
    a = matrices(np.random.default_rng(sum(shape)), shape)
    assert np.any(np.abs(values(_bfloat16(a)) - values(a)) > _bound(f"{name}(x)", a, "float32"))


def test_bound_counts_the_inputs_roundings():
    """x + x^T rounds once in the dtype judged: its bound is the larger by that rounding's share."""
    a = _matrices(np.random.default_rng(0), (6, 6))
    assert np.all(_bound("eigvalsh(x + matrix_transpose(x))", a, "float32") > _bound("eigvalsh(x)", a + a.T, "float32"))


@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (3, 3, 3), (5, 2), (2, 7), (12, 12), (40, 40)])
@pytest.mark.parametrize("dtype, scales", [("float32", (0.0, 1e-30, 1.0, 100.0)), ("float64", (1e-200, 1e200))])
def test_separated_values_and_sums_are_distinct_and_nonzero(shape, dtype, scales):
    """float64 entries of 1e200 too, whose squares overflow: the off-diagonal norm is taken scaled."""
    rng = np.random.default_rng(len(shape))
    for scale in scales:
        x = separated(rng.standard_normal(shape) * scale, dtype)
        assert np.all(np.isfinite(x))
        s = np.linalg.svd(x.astype(np.float64), compute_uv=False)
        assert np.all(s > 0) and np.all(-np.diff(s, axis=-1) > 0)
        if shape[-1] == shape[-2]:
            w = np.linalg.eigvalsh(x + np.swapaxes(x, -1, -2))
            assert np.all(np.diff(w, axis=-1) > 0)
            for axis in (-2, -1):  # column and row sums of |x|: matrix_norm's +-1 and +-inf
                sums = np.sort(np.sum(np.abs(x.astype(np.float64)), axis=axis), axis=-1)
                assert np.all(np.diff(sums, axis=-1) > 0)


def _finite_differences(f, x, g, direction, h=1e-6):
    return np.sum(g * (f(x + h * direction) - f(x - h * direction))) / (2 * h)


@pytest.mark.parametrize("name, shape", [("eigvalsh", (2, 4, 4)), ("svdvals", (3, 5)), ("svdvals", (2, 2, 4))])
def test_engine_gradients_match_finite_differences(name, shape):
    """Along symmetric directions for eigvalsh (its x is symmetric), any for svdvals."""
    rng = np.random.default_rng(7)
    x = separated(rng.standard_normal(shape), "float64")
    direction = rng.standard_normal(shape)
    if name == "eigvalsh":
        x, direction = x + np.swapaxes(x, -1, -2), direction + np.swapaxes(direction, -1, -2)
    reference = np.linalg.eigvalsh if name == "eigvalsh" else lambda m: np.linalg.svd(m, compute_uv=False)
    t = Tensor(x, requires_grad=True)
    out = getattr(linalg, name)(t)
    g = rng.standard_normal(out.shape)
    out.backward(g)
    assert np.isclose(np.sum(t.grad * direction), _finite_differences(reference, x, g, direction), rtol=1e-6)

"""The error bounds of det, inv and solve (suites/judging/inverse_bounds.py), the `invertible` input
rule (suites/programs/inputs.py) and the reference's exact determinant: each bound holds for LU
with partial pivoting in the dtype judged (NumPy's LAPACK in float32) and fails a result computed
less accurately, so that it can fail."""
import numpy as np
import pytest

from adapters.reference.linalg import exact_det
from engine.linalg import _lu_det
from suites.judging import compare, inverse_bounds
from suites.programs import expr
from suites.programs.inputs import Seeded, invertible


def _bound(text, args, inputs, dtype):
    return compare.error_bound(expr.parse(text, args), inputs, dtype)


def _invertible(rng, shape):
    permutation = np.argsort(rng.random(shape[:-1]), axis=-1)
    return invertible(compare.round_to(rng.standard_normal(shape), "float32"), permutation, "float32")


def test_invertible_is_dominant_along_a_permutation_and_pivoting_swaps():
    rng = np.random.default_rng(1)
    swaps = 0
    for _ in range(20):
        a = _invertible(rng, (4, 4))
        assert np.array_equal(a, compare.round_to(a, "float32"))
        big = np.abs(a).argmax(axis=-1)
        assert sorted(big) == [0, 1, 2, 3]  # one dominant element per row and per column
        rows = np.abs(a)
        assert np.all(2 * rows.max(axis=-1) > rows.sum(axis=-1))
        swaps += big[0] != 0
    assert swaps  # partial pivoting must swap rows in some


def test_invertible_keeps_seeded_examples_repeatable():
    one, two = (invertible(np.ones((2, 3, 3)), Seeded("s").indices((2, 3), 3, -1, True), "float64") for _ in range(2))
    assert np.array_equal(one, two)


@pytest.mark.parametrize("k", [1, 2, 5, 16])
def test_solve_bound_holds_for_float32_lu_and_fails_float16_inputs(k):
    rng = np.random.default_rng(k)
    a, b = _invertible(rng, (k, k)), compare.round_to(rng.standard_normal((k, 2)), "float32")
    exact = np.linalg.solve(a, b)
    bound = _bound("solve(a, b)", ["a", "b"], {"a": a, "b": b}, "float32")
    assert np.all(np.abs(np.linalg.solve(a.astype(np.float32), b.astype(np.float32)) - exact) <= bound)
    half = np.linalg.solve(a.astype(np.float16).astype(np.float32), b.astype(np.float16).astype(np.float32))
    assert np.any(np.abs(half - exact) > bound)


def test_inv_bound_holds_for_float32_and_grows_with_conditioning():
    hilbert = 1 / (np.arange(4)[:, None] + np.arange(4) + 1)
    bound = _bound("inv(x)", ["x"], {"x": compare.round_to(hilbert, "float32")}, "float32")
    exact = np.linalg.inv(compare.round_to(hilbert, "float32"))
    assert np.all(np.abs(np.linalg.inv(compare.round_to(hilbert, "float32").astype(np.float32)) - exact) <= bound)
    assert np.max(bound / np.abs(exact)) > 1e3 * compare.unit_roundoff("float32")  # kappa ~ 15,514


def test_det_bound_fails_exp_of_log_det_in_float16():
    """jax's det beyond 3 x 3 (and of 1 x 1) is sign * exp(log|det|): det([[84]]) is 83.875 in
    float16, where LU's product of pivots is exact."""
    x = np.array([[84.0]])
    bound = _bound("det(x)", ["x"], {"x": x}, "float16")
    assert abs(float(_lu_det(x.astype(np.float16))) - 84) <= bound
    assert abs(float(np.exp(np.log(np.float16(84.0)))) - 84) > bound  # 83.875


def test_det_bound_holds_for_singular_matrices_by_the_permanent():
    a = compare.round_to(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=float) / 10, "float32")
    bound = _bound("det(x)", ["x"], {"x": a}, "float32")
    assert abs(float(_lu_det(a.astype(np.float32))) - exact_det(a)) <= bound < 1e-5


def test_permanent_growth_is_the_permanents_difference():
    a, w = np.array([[1.0, 2, 0], [3, 4, 5], [0, 6, 7]]), np.full((3, 3), 0.5)

    def permanent(m):
        from itertools import permutations
        return sum(np.prod([m[i, s[i]] for i in range(3)]) for s in permutations(range(3)))
    assert inverse_bounds.permanent_growth(a, w) == pytest.approx(permanent(a + w) - permanent(a))


def test_permanent_growth_of_a_term_past_float64s_range_is_its_logarithms():
    """Entries of 1e-277 and 1e-186 in one term (the invertible rule's draws at seed 326): its
    product underflows to 0 where its growth overflows, and 0 * inf made the det bound NaN, a fail
    with no error at all. In logarithms the term is finite, and it is the exact value's."""
    a = np.array([[12.0, 1, 1], [1, 10, 8.67364475e-277], [1, 4.83164713e-186, 10]])
    w = np.full((3, 3), 1e-14)
    growth = inverse_bounds.permanent_growth(a, w)
    assert np.isfinite(growth) and growth > 0
    # the term through the two tiny entries: a00 a12 a21 grows to (a00 + w)(a12 + w)(a21 + w), about 12 w w
    assert growth > 12 * 1e-14 * 1e-14
    bound = _bound("det(x)", ["x"], {"x": a}, "float64")
    assert np.isfinite(bound) and abs(float(_lu_det(a)) - exact_det(a)) <= bound


def test_exact_det_is_rounded_once():
    """NumPy's det is exp of a sum of logs: 1e-55 is off by about 125 float64 ulp there."""
    x = np.array([[7.021235054450391e-55]])
    assert exact_det(x) == 7.021235054450391e-55
    assert exact_det(np.array([[1e200, 0], [0, 1e200]])) == np.inf
    assert exact_det(np.array([[1.0, 2], [2, 4]])) == 0.0


@pytest.mark.parametrize("k", [1, 3, 6])
def test_slogdet_bound_holds_for_float32_lu_and_fails_float16_inputs(k):
    """The parts flat, sign first: LU's pivots in float32 (NumPy's LAPACK) are within it, those of
    the matrix rounded to float16 are not."""
    a = _invertible(np.random.default_rng(k), (k, k))
    sign, logabsdet = np.linalg.slogdet(a)
    bound = _bound("slogdet(x)", ["x"], {"x": a}, "float32")
    assert bound.shape == (2,) and bound[0] < 1e-30  # the sign exact (and a smallest normal)
    assert abs(float(np.linalg.slogdet(a.astype(np.float32))[1]) - logabsdet) <= bound[1]
    half = np.linalg.slogdet(a.astype(np.float16).astype(np.float32))
    assert half[0] == sign and abs(float(half[1]) - logabsdet) > bound[1]


def test_slogdet_of_a_determinant_past_the_range():
    """log|det| of diag(1e-30, 1e-30) in float32 is finite (-138.155...) where det is 0 there;
    a singular matrix has sign 0 and -inf, and its sign's bound allows any."""
    from adapters.reference import ReferenceAdapter
    sign, logabsdet = ReferenceAdapter().slogdet(np.diag([1e-30, 1e-30]).astype(np.float32))
    assert sign == 1 and logabsdet == np.float32(2 * np.log(np.float64(np.float32(1e-30))))
    sign, logabsdet = ReferenceAdapter().slogdet(np.array([[1.0, 2], [2, 4]]))
    assert sign == 0 and logabsdet == -np.inf
    assert _bound("slogdet(x)", ["x"], {"x": np.array([[1.0, 2], [2, 4]])}, "float32")[0] >= 2

"""The Cholesky factor's error bound (suites/judging/cholesky_bounds.py) and the `positive_definite`
input rule (suites/programs/inputs.py): the bound holds for LAPACK's potrf in the dtype judged
(NumPy's in float32), fails a factor computed less accurately, so that it can fail, and is
infinite where the dtype cannot tell the matrix from an indefinite one."""
import numpy as np
import pytest

from engine import linalg
from engine.tensor import Tensor
from suites.judging import cholesky_bounds, compare
from suites.programs import expr
from suites.programs.inputs import positive_definite


def _bound(text, x, dtype):
    return compare.error_bound(expr.parse(text, ["x"]), {"x": x}, dtype)


def _positive_definite(rng, shape, dtype="float32"):
    return positive_definite(compare.round_to(rng.standard_normal(shape) * 100, dtype), dtype)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_positive_definite_is_symmetric_positive_definite_in_its_dtype(dtype):
    rng = np.random.default_rng(3)
    for shape in [(1, 1), (4, 4), (2, 3, 3), (70, 70)]:
        a = _positive_definite(rng, shape, dtype)
        assert np.array_equal(a, compare.round_to(a, dtype))
        assert np.array_equal(a, np.swapaxes(a, -1, -2))
        assert np.all(np.linalg.eigvalsh(a) > 0)


@pytest.mark.parametrize("k", [1, 2, 5, 40, 130])
@pytest.mark.parametrize("upper", [False, True])
def test_bound_holds_for_float32_potrf_and_fails_float16_inputs(k, upper):
    rng = np.random.default_rng(k)
    a = _positive_definite(rng, (2, k, k))
    exact = np.linalg.cholesky(a, upper=upper)
    bound = _bound(f"cholesky(x, upper={upper})", a, "float32")
    assert np.all(np.abs(np.linalg.cholesky(a.astype(np.float32), upper=upper) - exact) <= bound)
    half = np.linalg.cholesky(a.astype(np.float16).astype(np.float32), upper=upper)
    assert np.any(np.abs(half - exact) > bound)


def test_bound_off_the_factors_triangle_is_a_subnormal_at_most():
    """Zeros there, exactly: the judge allows every element one smallest normal (compare.error_bound)."""
    a = _positive_definite(np.random.default_rng(0), (3, 3))
    tiny = compare.tiny("float32")
    assert np.all(np.triu(_bound("cholesky(x)", a, "float32"), 1) <= tiny)
    assert np.all(np.tril(_bound("cholesky(x, upper=True)", a, "float32"), -1) <= tiny)


def test_bound_grows_with_conditioning_and_is_infinite_past_the_dtype():
    """A Hilbert matrix (kappa of about 4.8e5 at order 5): its factor's error grows far past the
    dtype's unit roundoff in float32; of order 4 in float16 (u = 4.9e-4, its smallest eigenvalue
    6e-5) the dtype cannot tell it from an indefinite matrix."""
    hilbert = 1 / (np.arange(5)[:, None] + np.arange(5) + 1)
    a = compare.round_to(hilbert, "float32")
    exact = np.linalg.cholesky(a)
    bound = _bound("cholesky(x)", a, "float32")
    assert np.all(np.abs(np.linalg.cholesky(a.astype(np.float32)) - exact) <= bound)
    assert np.max(bound / np.abs(exact).max()) > 1e3 * compare.unit_roundoff("float32")
    half = compare.round_to(hilbert[:4, :4], "float16")
    assert np.all(np.isinf(_bound("cholesky(x)", half, "float16")[np.tril_indices(4)]))


def test_factor_error_solves_the_perturbation_exactly_for_a_scalar():
    """For 1 x 1, L = sqrt(a), and the factor of a +- w is sqrt(a +- w): the bound covers both
    moves, and is within twice their first order, w / (2 sqrt(a))."""
    a, w = 4.0, 0.01
    error = float(cholesky_bounds.factor_error(np.array([[2.0]]), np.array([[w]]))[0, 0])
    assert error >= abs(np.sqrt(a + w) - 2) and error >= abs(np.sqrt(a - w) - 2)
    assert error < 2 * w / (2 * np.sqrt(a))


def test_engine_gradient_is_torchs_symmetric_one():
    """Murray's formula: of the Wikipedia example, with cotangent arange(9), the symmetric gradient
    is that of the lower factor's entries along symmetric directions, which finite differences of
    cholesky(x + x^T) / 2 measure."""
    x = np.array([[4.0, 12, -16], [12, 37, -43], [-16, -43, 98]])
    g = np.arange(9.0).reshape(3, 3)
    tensor = Tensor(x, requires_grad=True)
    linalg.cholesky(tensor).backward(g)
    grad = tensor.grad
    assert np.allclose(grad, grad.T)
    h, fd = 1e-6, np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            d = np.zeros((3, 3))
            d[i, j] = h
            f = [np.sum(g * np.linalg.cholesky((x + s * d + (x + s * d).T) / 2)) for s in (1, -1)]
            fd[i, j] = (f[0] - f[1]) / (2 * h)
    assert np.allclose(grad, fd, rtol=1e-6, atol=1e-6)

"""The decomposition properties (suites/judging/decompositions.py): each holds for LAPACK's factors
in the dtype judged (NumPy's in float32, up to 130 on a side) whatever signs and bases they chose,
and fails factors computed in a narrower dtype (jax-32's regime), a factor transposed, a sign
flipped in one factor only, and an R that is not triangular."""
import numpy as np
import pytest

import adapters
from engine import linalg as engine_linalg
from engine.tensor import Tensor
from suites.judging.decompositions import PROPERTIES
from suites.loading.specs import load_path
from suites.programs.context import Context

SPECS = {s.id: s for s in load_path("specs/decompositions.yaml")}
SHAPES = [(1, 1), (3, 3), (2, 5, 5), (40, 40), (130, 130), (3, 2), (2, 5), (130, 70), (64, 129)]


def _judge(spec_id, dtype, inputs, parts):
    ctx = Context(SPECS[spec_id], adapters.get("reference"), "cpu", dtype)
    return PROPERTIES[SPECS[spec_id].properties[0]][0](ctx, inputs, parts)


def _matrix(shape, dtype="float32", scale=100.0):
    rng = np.random.default_rng(sum(shape))
    return (rng.standard_normal(shape) * scale).astype(dtype).astype(np.float64)


def _eigh(x, dtype):
    """eigh-generated's case: x and the factors of x + x^T computed in `dtype`."""
    return {"x": x}, [p.astype(np.float64) for p in np.linalg.eigh((x + np.swapaxes(x, -1, -2)).astype(dtype))]


@pytest.mark.parametrize("shape", [s for s in SHAPES if s[-1] == s[-2]])
def test_eigh_holds_for_float32_lapack_with_any_signs(shape):
    inputs, (w, v) = _eigh(_matrix(shape), np.float32)
    assert _judge("eigh-generated", "float32", inputs, [w, v]) is None
    flipped = v * np.where(np.arange(shape[-1]) % 2, -1.0, 1.0)  # every other eigenvector negated
    assert _judge("eigh-generated", "float32", inputs, [w, flipped]) is None


@pytest.mark.parametrize("shape", [s for s in SHAPES if s[-1] == s[-2] and s[-1] > 1])
def test_eigh_fails_float64_computed_in_float32_and_transposed_vectors(shape):
    x = _matrix(shape, "float64") * (1 + 1e-9)
    inputs, (w, v) = _eigh(x, np.float32)
    assert "eigenvalue's error" in _judge("eigh-generated", "float64", inputs, [w, v])
    inputs, (w, v) = _eigh(_matrix(shape), np.float32)
    assert "||A v - w v||" in _judge("eigh-generated", "float32", inputs, [w, np.swapaxes(v, -1, -2)])


def test_eigh_takes_any_basis_of_a_repeated_eigenvalue():
    """[[2, 1, 1], [1, 2, 1], [1, 1, 2]]: 1 twice; any rotation within its plane is its eigenvectors."""
    a = np.array([[2.0, 1, 1], [1, 2, 1], [1, 1, 2]])
    w, v = np.linalg.eigh(a)
    c, s = np.cos(0.7), np.sin(0.7)
    rotated = v.copy()
    rotated[:, :2] = v[:, :2] @ np.array([[c, -s], [s, c]])
    assert _judge("eigh-docs", "float64", {"x": a}, [w, rotated]) is None
    skewed = v.copy()
    skewed[:, 0] = v[:, 0] + 1e-3 * v[:, 1]  # in the plane, but no longer orthogonal to its neighbour
    assert "V^T V - I" in _judge("eigh-docs", "float64", {"x": a}, [w, skewed])


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("full", [True, False])
def test_svd_holds_for_float32_lapack_and_fails_v_for_vh(shape, full):
    spec = "svd-generated-full-matrices" if full else "svd-generated-not-full-matrices"
    x = _matrix(shape)
    u, s, vh = np.linalg.svd(x.astype(np.float32), full_matrices=full)
    assert _judge(spec, "float32", {"x": x}, [u, s, vh]) is None
    k = min(shape[-2:])
    pair = np.where(np.arange(k) % 2, -1.0, 1.0)  # every other pair's signs flipped together
    u_flipped, vh_flipped = u.copy(), vh.copy()
    u_flipped[..., :k] *= pair
    vh_flipped[..., :k, :] *= pair[:, None]
    assert _judge(spec, "float32", {"x": x}, [u_flipped, s, vh_flipped]) is None
    if vh.shape[-2] == vh.shape[-1] > 2:  # LAPACK's 2 x 2 Vh is a reflection, [[c, s], [s, -c]]: V itself
        assert _judge(spec, "float32", {"x": x}, [u, s, np.swapaxes(vh, -1, -2)]) is not None
    one_sided = u.copy()
    one_sided[..., 0] = -one_sided[..., 0]  # u_0 flipped, v_0 not: x v_0 = -s_0 u_0
    assert "||A v - s u||" in _judge(spec, "float32", {"x": x}, [one_sided, s, vh])


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_holds_for_float32_lapack_with_any_signs_and_fails_a_filled_triangle(shape, mode):
    spec = f"qr-generated-mode{mode}"
    x = _matrix(shape)
    q, r = np.linalg.qr(x.astype(np.float32), mode=mode)
    q, r = q.astype(np.float64), r.astype(np.float64)
    assert _judge(spec, "float32", {"x": x}, [q, r]) is None
    signs = np.where(np.arange(q.shape[-1]) % 2, 1.0, -1.0)  # Q's columns with R's rows
    assert _judge(spec, "float32", {"x": x}, [q * signs, r * signs[:, None]]) is None
    assert "||a_j - Q r_j||" in _judge(spec, "float32", {"x": x}, [q * signs, r])
    if r.shape[-2] > 1:
        filled = r.copy()
        filled[..., 1, 0] = 1e-30
        assert "not upper triangular" in _judge(spec, "float32", {"x": x}, [q, filled])


def test_qr_fails_float64_computed_in_float32():
    x = _matrix((40, 30), "float64") * (1 + 1e-9)
    q, r = np.linalg.qr(x.astype(np.float32))
    assert "||a_j - Q r_j||" in _judge("qr-generated-modereduced", "float64", {"x": x}, [q, r])


@pytest.mark.parametrize("op, args", [("eigh", ()), ("svd", (False,)), ("qr", ("reduced",))])
def test_the_engines_factors_refuse_a_gradient_rather_than_give_a_wrong_one(op, args):
    """Their gradients depend on the signs the standard leaves open: the engine raises, naming the
    gauge-free eigvalsh and svdvals, where a factor recorded as a constant would give zeros."""
    x = Tensor(np.array([[2.0, 1.0], [1.0, 3.0]]), requires_grad=True)
    factor = getattr(engine_linalg, op)(x, *args)[-1]
    with pytest.raises(NotImplementedError, match="eigvalsh or svdvals"):
        factor.backward(np.ones(factor.shape))

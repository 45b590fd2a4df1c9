"""The optimizers' reference and judge (adapters/reference/optimizers.py,
suites/judging/running_error.py): the reference's first steps against the papers' closed forms,
the running error bound against what float32 arithmetic really makes (the engine's optimizers,
NumPy in float32), and the bound tight enough to tell a convention from rounding."""
import numpy as np
import pytest

from adapters.engine import EngineAdapter
from adapters.reference import ReferenceAdapter
from suites.judging import compare
from suites.loading.specs import expand
from suites.programs import expr

REFERENCE = ReferenceAdapter()
P = np.array([0.5, -1.0, 0.0, 2.0])
G = np.array([[1.0, -4.0, 0.25, 1e-3]])


def test_first_steps_are_the_papers_closed_forms():
    """At t = 1 Adam's m_hat = g and v_hat = g^2 (Kingma and Ba, 2.1), RMSprop's v = (1 - alpha) g^2,
    Adagrad's s = g^2: each first step is lr g over a multiple of |g| plus eps."""
    lr, eps = 0.1, 1e-8
    assert np.allclose(REFERENCE.sgd(P, G, lr=lr)[0], P - lr * G[0], rtol=0, atol=1e-15)
    assert np.allclose(REFERENCE.adam(P, G, lr=lr, eps=eps)[0], P - lr * G[0] / (np.abs(G[0]) + eps), atol=1e-15)
    assert np.allclose(REFERENCE.rmsprop(P, G, lr=lr, alpha=0.9, eps=eps)[0],
                       P - lr * G[0] / (np.sqrt(0.1) * np.abs(G[0]) + eps), atol=1e-15)
    assert np.allclose(REFERENCE.adagrad(P, G, lr=lr, eps=eps)[0], P - lr * G[0] / (np.abs(G[0]) + eps), atol=1e-15)
    # AdamW decays first: p (1 - lr wd), then Adam's step
    assert np.allclose(REFERENCE.adamw(P, G, lr=lr, eps=eps, weight_decay=0.5)[0],
                       P * (1 - lr * 0.5) - lr * G[0] / (np.abs(G[0]) + eps), atol=1e-15)


def test_epsilon_hat_is_epsilon_scaled_by_the_bias_correction():
    """Keras' form equals torch's with eps / sqrt(1 - b2^t): the paper's remark, end of section 2."""
    g = np.random.default_rng(0).normal(size=(4, 3))
    hat = REFERENCE.adam(P[:3], g[:1], eps=0.1, epsilon_hat=True)
    assert np.allclose(hat, REFERENCE.adam(P[:3], g[:1], eps=0.1 / np.sqrt(1 - 0.999)), atol=1e-15)


CONFIGS = [("sgd", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
           ("sgd", {"lr": 0.5, "momentum": 0.5, "dampening": 0.5}),
           ("adam", {"lr": 0.01}), ("adam", {"lr": 0.5, "amsgrad": True, "weight_decay": 0.1}),
           ("adam", {"eps": 0.1}), ("adamw", {"lr": 0.01, "weight_decay": 0.1}),
           ("rmsprop", {"centered": True, "momentum": 0.9}), ("rmsprop", {"eps": 0.1, "alpha": 0.9}),
           ("adagrad", {"lr": 0.1, "lr_decay": 0.5, "initial_accumulator_value": 0.1}),
           ("sgd", {"lr": 0.5, "momentum": 0.9, "max_norm": 0.5}), ("adam", {"lr": 0.1, "clipvalue": 0.2})]


@pytest.mark.parametrize("op, hyper", CONFIGS)
@pytest.mark.parametrize("scale", [1.0, 1e-4, 1e-30])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_running_error_bound_holds_for_the_engines_arithmetic(op, hyper, scale, dtype):
    """The engine computes every step in the dtype (its hyperparameters rounded to it too): its
    trajectory lies within the bound, on gradients of every scale (1e-30: flushed products). In
    float64 the reference rounds as much as the engine does: the bound counts both."""
    rng = np.random.default_rng(7)
    param = rng.uniform(-1, 1, 5).astype(dtype)
    grads = (rng.uniform(-1, 1, (8, 5)) * scale).astype(dtype)
    grads[3, 1] = 0.0
    engine = EngineAdapter()
    actual = getattr(engine, op)(engine.asarray(param, dtype, "cpu"), engine.asarray(grads, dtype, "cpu"),
                                 **hyper).numpy()
    expected = getattr(REFERENCE, op)(param.astype(np.float64), grads.astype(np.float64), **hyper)
    allowed = compare.error_bound(_call(op, hyper), {"p": param.astype(np.float64), "g": grads.astype(np.float64)},
                                  dtype)
    assert compare.compare(expected, actual, dtype, allowed).ok
    assert np.all(np.abs(actual - expected) <= allowed)


def test_in_float64_the_bound_counts_the_references_own_rounding():
    """torch's float64 RMSprop step from a case hypothesis found lands 1 ulp from the float64
    reference: both round, by the same operations, and the bound allows for both."""
    pytest.importorskip("torch")
    from adapters.torch import TorchAdapter

    torch_adapter, hyper = TorchAdapter(), {"lr": 0.01, "alpha": 0.9, "eps": 1e-8, "momentum": 0.9}
    param, grads = np.array([-0.52454865848965]), np.array([[0.712890625]])
    actual = torch_adapter.to_numpy(torch_adapter.rmsprop(torch_adapter.asarray(param, "float64", "cpu"),
                                                          torch_adapter.asarray(grads, "float64", "cpu"), **hyper))
    expected = REFERENCE.rmsprop(param, grads, **hyper)
    allowed = compare.error_bound(_call("rmsprop", hyper), {"p": param, "g": grads}, "float64")
    assert np.all(np.abs(actual - expected) <= allowed)


def test_the_bound_tells_epsilons_place_from_rounding():
    """Where eps is as large as sqrt(v), eps inside the square root moves the first step by far
    more than the bound allows; with ordinary gradients the bound stays within a few hundred ulps."""
    param, grads = np.array([0.25, -0.75]), np.array([[0.3, -0.01], [0.2, 0.05]])
    inputs = {"p": param, "g": grads}
    allowed = compare.error_bound(_call("rmsprop", {"eps": 0.1}), inputs, "float32")
    inside = REFERENCE.rmsprop(param, grads, eps=0.1, eps_in_sqrt=True)
    assert np.all(np.abs(inside - REFERENCE.rmsprop(param, grads, eps=0.1)) > 100 * allowed)
    ulps = allowed / compare.ulp(REFERENCE.adam(param, grads, lr=0.01), "float32")
    assert ulps.max() < 500


def test_a_zero_gradient_clipped_by_norm_has_an_exact_step():
    """max_norm / ||0|| is an exact infinity, which min(., 1) drops (optax's max(||g||, max_norm)
    form, max_norm_eps 0): the bound stays finite, and zero where nothing moves."""
    zeros = {"p": np.zeros(3), "g": np.zeros((2, 3))}
    allowed = compare.error_bound(_call("sgd", {"max_norm": 1.0, "max_norm_eps": 0.0}), zeros, "float32")
    assert np.all(np.isfinite(allowed)) and np.all(allowed <= compare.tiny("float32") * 2)


def test_tracked_numbers_carry_cancellation():
    """1 - 0.999 in float32 is off by about 1.3e-5 of itself: the bound says at most 999 u + one
    rounding of it, relative; an integer and an exact input carry nothing."""
    float32 = compare.arithmetic("float32")
    u = float32.u
    one_minus = 1 - float32.number(0.999)
    rounded = np.float64(np.float32(1) - np.float32(0.999))
    assert abs(rounded - 0.001) <= float(one_minus.error) and float(one_minus.error) < 1.001 * u
    assert float(float32.number(3).error) == 0
    assert float((float32.exact(2.0) * 4).error) == 8 * u + float32.tiny


def test_an_underflowing_centered_rmsprop_step_has_a_finite_bound_that_holds():
    """The case hypothesis found: centered RMSprop's v - mean^2 is 0 where both underflow, and the
    first-order error of its square root there, d / (2 sqrt(0)), is infinite (then NaN through
    0 * inf). sqrt(0 + d) is sqrt(d): the bound stays as tight as at ordinary gradients (18 ulps at
    g = 0.5), and the engine's float64 steps lie within it."""
    hyper = {"lr": 0.01, "alpha": 0.9, "eps": 1e-8, "centered": True, "momentum": 0.9}
    param, grads = np.array([0.0]), np.array([[2.3166214423251436e-169], [0.0]])
    allowed = compare.error_bound(_call("rmsprop", hyper), {"p": param, "g": grads}, "float64")
    expected = REFERENCE.rmsprop(param, grads, **hyper)
    assert np.all(allowed <= 20 * compare.ulp(expected, "float64"))
    engine = EngineAdapter()
    actual = engine.rmsprop(engine.asarray(param, "float64", "cpu"), engine.asarray(grads, "float64", "cpu"),
                            **hyper).numpy()
    assert compare.compare(expected, actual, "float64", allowed).ok


def test_expanded_float_values_name_the_spec_with_a_p_for_the_point():
    ids = [s["id"] for s in expand({"id": "sgd", "expand": {"momentum": [0.0, 0.9], "nesterov": [True]}}, None)]
    assert ids == ["sgd-momentum0-nesterov", "sgd-momentum0p9-nesterov"]


def _call(op, hyper):
    """The tree a spec with `op: op`, `args: [p, g]` and these params runs."""
    return expr.call(op, ["p", "g"], hyper)


def test_torch_compiled_adagrads_float32_step_size_is_modelled_in_the_compiled_mode_only():
    """torch.compile's Adagrad divides lr by a float32 1 + (step - 1) lr_decay: its model moves p
    by float32(lr) g / (|g| + eps) where the step is g / eps, and explains compiled results alone."""
    from adapters.torch.optimizers import TORCH_COMPILED_ADAGRAD

    p, g = np.full(5, 7.086056675966198e-66), np.full((1, 5), 7.086056675966198e-66)
    stepped = TORCH_COMPILED_ADAGRAD.model(p, g, lr=0.1, eps=1e-10)[0]
    assert np.array_equal(stepped, p - float(np.float32(0.1)) * g[0] / (g[0] + 1e-10))
    program = type("Program", (), {"ops": lambda self: {"adagrad"}})()
    assert TORCH_COMPILED_ADAGRAD.applies(type("Ctx", (), {"program": program, "mode": "compiled"}))
    assert not TORCH_COMPILED_ADAGRAD.applies(type("Ctx", (), {"program": program, "mode": "eager"}))


def test_global_norm_clipping_scales_every_gradient_alike_and_per_parameter_each_alone():
    """[3, 4] and [0, 12] have the global norm 13 and their own norms 5 and 12 (max_norm 1,
    max_norm_eps 0: the clipped norm is exactly max_norm)."""
    a, b = np.array([3.0, 4.0]), np.array([0.0, 12.0])
    together = REFERENCE.clip_grad_norm(a, b, 1.0, max_norm_eps=0.0)
    assert np.allclose(np.concatenate(together), np.concatenate([a, b]) / 13, rtol=1e-15, atol=0)
    alone = REFERENCE.clip_grad_norm(a, b, 1.0, per_parameter=True, max_norm_eps=0.0)
    assert np.allclose(np.concatenate(alone), [0.6, 0.8, 0.0, 1.0], rtol=1e-15, atol=0)
    below = REFERENCE.clip_grad_norm(a / 100, b / 100, 1.0)  # norm 0.13: nothing to clip
    assert np.array_equal(np.concatenate(below), np.concatenate([a, b]) / 100)


def _keras_clipped(grads, max_norm, per_parameter, dtype):
    """Keras' own order in `dtype` (base_optimizer.clip_by_global_norm and _clip_by_norm): the squares
    summed, then max_norm * min(1 / norm, 1 / max_norm) times each, or g max_norm / max(norm, max_norm)."""
    one, c = np.asarray(1, dtype), np.asarray(max_norm, dtype)
    if per_parameter:
        return [g * c / np.maximum(np.sqrt(np.sum(g * g)), c) for g in grads]
    norm = np.sqrt(np.sum(np.stack([np.sum(g * g) for g in grads])))
    with np.errstate(divide="ignore"):  # zero gradients: 1 / 0 is inf, which the minimum drops
        return [g * (c * np.minimum(one / norm, one / c)) for g in grads]


@pytest.mark.parametrize("per_parameter", [False, True])
@pytest.mark.parametrize("scale", [1.0, 1e-3, 10.0, 0.0])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_clipping_bound_holds_for_torchs_and_keras_orders(per_parameter, scale, dtype):
    """The bound, run in torch's order (a norm per gradient, then theirs, then max_norm / (total + eps)),
    holds for the engine's float32 arithmetic in that order and for Keras' (max_norm_eps 0), below,
    at and above max_norm, and for zero gradients."""
    rng = np.random.default_rng(3)
    a, b = (rng.uniform(-1, 1, n) * scale for n in (5, 3))
    a, b = a.astype(dtype), b.astype(dtype)
    engine = EngineAdapter()
    for eps, actual in [(1e-6, [engine.to_numpy(g) for g in engine.clip_grad_norm(
                            engine.asarray(a, dtype, "cpu"), engine.asarray(b, dtype, "cpu"), 1.0,
                            per_parameter=per_parameter)]),
                        (0.0, _keras_clipped([a, b], 1.0, per_parameter, dtype))]:
        hyper = {"max_norm": 1.0, "per_parameter": per_parameter, "max_norm_eps": eps}
        wide = {"a": a.astype(np.float64), "b": b.astype(np.float64)}
        expected = np.concatenate(REFERENCE.clip_grad_norm(wide["a"], wide["b"], **hyper))
        allowed = compare.error_bound(expr.call("clip_grad_norm", ["a", "b"], hyper), wide, dtype)
        assert np.all(np.abs(np.concatenate(actual) - expected) <= allowed), (eps, actual, expected)

"""Finite differences of the reference, checked on derivatives known from mathematics."""
import numpy as np

from suites.judging import gradients


def test_documented_autograd_example():
    # f(x, w) = (x + w) * x^2 at w = 1, x = 3: df/dx = x^2 + 2x(x + w) = 33, df/dw = x^2 = 9
    def f(ins):
        return (ins["x"] + ins["w"]) * ins["x"] ** 2

    inputs = {"x": np.array(3.0), "w": np.array(1.0)}
    for name, expected in (("x", 33.0), ("w", 9.0)):
        jac, err = gradients.jacobian(f, inputs, name)
        assert abs(jac[0, 0] - expected) <= err[0, 0] + 1e-9


def test_jacobian_of_matmul_is_the_other_operand():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((3, 4))
    jac, err = gradients.jacobian(lambda ins: ins["a"] @ ins["b"], {"a": a, "b": b}, "a")
    # d(ab)[i, k] / d a[i', j] = delta(i, i') b[j, k]
    exact = np.einsum("ip,jk->ikpj", np.eye(2), b).reshape(8, 6)
    assert np.all(np.abs(jac - exact) <= err + 1e-12)
    assert err.max() < 1e-8


def test_directional_derivative_of_a_quadratic():
    x = np.array([1.0, -2.0, 0.5])
    v = np.array([0.3, 0.1, -1.0])
    d, err = gradients.directional(lambda ins: np.sum(ins["x"] ** 2), {"x": x}, {"x": v})
    assert abs(d - 2 * x @ v) <= err + 1e-12


def test_magnitude_jacobian_bounds_the_derivative_at_zero():
    # |x| * |y| at x = 0: the derivative w.r.t. x has magnitude |y|, which a central difference
    # of the magnitude expression would miss (abs has its kink at 0)
    m = lambda ins: np.abs(ins["x"]) * np.abs(ins["y"])  # noqa: E731
    jac = gradients.magnitude_jacobian(m, {"x": np.array([0.0]), "y": np.array([2.0])}, "x")
    assert jac[0, 0] >= 2.0


def test_magnitudes_keep_negative_indices_counting_from_the_end():
    # x[i] with i = [-1]: the magnitude of row -1 (the last), where |i| = 1 would be out of range
    m = lambda ins: np.abs(ins["x"])[ins["i"]]  # noqa: E731
    inputs = {"x": np.array([[-3.0], [5.0]]), "i": np.array([-1])}
    assert np.allclose(gradients.magnitude_jacobian(m, inputs, "x"), [[0.0, 1.0]])
    assert np.allclose(gradients.magnitude_jacobian(m, {"x": np.array([[0.0]]), "i": np.array([-1])}, "x"), [[1.0]])
    assert np.allclose(gradients.magnitude_directional(m, inputs, {"x": np.array([[1.0], [1.0]])}), [[1.0]])


def test_noise_is_measured_where_terms_cancel():
    # 1e6 exp(x) - 1e6 cosh(x) = 1e6 sinh(x) rounds with the terms' ulp (about 2e-10), whatever the
    # result; an exactly computed function measures next to none
    f = lambda ins: 1e6 * np.exp(ins["x"]) - 1e6 * np.cosh(ins["x"])  # noqa: E731
    sigma = gradients.noise(f, {"x": np.array(0.25)}, {"x": np.ones(())})
    assert 1e-12 < sigma < 1e-9
    assert gradients.noise(lambda ins: 2 * ins["x"], {"x": np.array(0.25)}, {"x": np.ones(())}) < 1e-15


def test_cancellation_is_no_false_alarm():
    """The dev-profile false alarm of autograd/elementwise-chain/gradient: at x = 0, y = 0.65625
    f = -0.0207 from terms near 0.6, and the old rounding estimate, 4 eps |f| / h = 3.0e-12, was
    below the difference quotient's real error, 5.1e-12 (torch and jax both give 0.43897614524459555
    against the central difference 0.43897614523949346). The measured noise allows 1.3e-10."""
    f = lambda ins: (np.tanh(np.exp(ins["x"]) / (1 + np.exp(-ins["y"]))) + np.log(1 + ins["x"] ** 2)  # noqa: E731
                     - np.sqrt(1 + ins["y"] ** 2) / (2 + ins["x"] ** 2))
    jac, err = gradients.jacobian(f, {"x": np.array(0.0), "y": np.array(0.65625)}, "x")
    assert abs(jac[0, 0] - 0.43897614524459555) <= err[0, 0]
    assert err[0, 0] < 1e-9  # and still sharp


def test_the_error_estimate_covers_a_shift_invariant_function():
    """Cross-entropy of logits [-4, 0] with label 1 is the same for x and x + c: moving every
    element at once shows none of its rounding noise (the sum 1 + e^-4 rounds at 1's ulp), which
    made the difference quotient's error estimate 3e-12 where its error is 1e-11, and Paddle's
    exact gradient p - onehot a fail. The noise is measured along alternating signs too."""
    def cross_entropy(inputs):
        x = inputs["x"]
        shifted = x - x.max()
        return np.log(np.exp(shifted).sum()) - shifted[1]

    x = np.array([-4.0, 0.0])
    jac, err = gradients.jacobian(cross_entropy, {"x": x}, "x")
    exact = np.exp(x) / np.exp(x).sum() - np.array([0.0, 1.0])
    assert (np.abs(jac - exact) <= err).all(), (jac - exact, err)
    assert (err < 1e-9).all()  # still a float64 check: an error of 1e-9 fails it


def test_a_pole_within_the_step_is_resolved_at_the_inputs_own_scale():
    # d(1/a)/da = -1/a^2: at a = 4.7e-38 the step cbrt(eps) * max(1, |a|) = 6e-6 straddles the
    # pole at 0 (the quotient is 1.1e11, its error estimate 3e27: any finite gradient passed and a
    # float32 gradient's overflow to -inf failed); the step relative to a resolves -4.5e74
    a = np.array([4.7e-38, 0.5])
    jac, err = gradients.jacobian(lambda ins: 1 / ins["a"], {"a": a}, "a")
    exact = np.diag(-1 / a**2)
    assert np.all(np.abs(jac - exact) <= err)
    assert err[0, 0] < 1e-6 * abs(exact[0, 0])
    d, derr = gradients.directional(lambda ins: 1 / ins["a"], {"a": a[:1]}, {"a": np.array([1.0])})
    assert abs(d[0] - exact[0, 0]) <= derr[0] < 1e-6 * abs(exact[0, 0])


def test_a_quotient_past_the_range_at_both_steps_is_that_infinity():
    # at a = 1e-202 the step 6e-6 straddles the pole (quotients 2.7e10 and 1.1e11, neither
    # resolved); at the step relative to a, -1/a^2 = -1e404 overflows float64's quotient at both
    # steps, which resolves it as -inf (the estimate was NaN, and the straddling quotient was kept)
    jac, err = gradients.jacobian(lambda ins: 1 / ins["a"], {"a": np.array([1e-202])}, "a")
    assert jac[0, 0] == -np.inf and err[0, 0] == 0


def test_a_noise_grid_that_rounds_a_matrix_singular_is_no_error():
    # the grid moves every entry by 1e-8 at once: [[7e-38, 1e-38], [1e-38, 7e-38]] + 1e-8 rounds to a
    # matrix of equal entries, which NumPy's solve refuses; d solve(a, 0) / da is 0
    a = np.array([[7.052966106e-38, 1.175494351e-38], [1.175494351e-38, 7.052966106e-38]])
    jac, err = gradients.jacobian(lambda ins: np.linalg.solve(ins["a"], ins["b"]), {"a": a, "b": np.zeros(2)}, "a")
    assert not jac.any() and np.all(err < 1e-300)


def test_a_step_that_swamps_the_inputs_is_no_zero_derivative():
    # a and b moved together by 6e-6 are h v and h w, whose solve is the same at -h: the quotient
    # is 0 at both steps; along b alone the derivative is a^-1 w = 7e36 w
    a = np.full((2, 2), 1.175494351e-38) + np.diag([1.3e-37, 1.3e-37])
    b, w = np.zeros(2), np.array([1.0, -0.5])
    d, err = gradients.directional(lambda ins: np.linalg.solve(ins["a"], ins["b"]), {"a": a, "b": b},
                                   {"a": np.array([[0.3, -1.0], [0.7, 0.2]]), "b": w})
    exact = np.linalg.solve(a, w)
    assert np.all(np.abs(d - exact) <= err) and np.all(err < 1e-6 * np.abs(exact))


def test_a_step_sized_by_one_input_does_not_swamp_another():
    # one step along a (entries near 1e-37) and b (of 1s) is 6e-6, which replaces a's entries:
    # each input moved at its own step, the derivatives summed
    a = np.full((3, 3), 1.175494351e-38) + np.diag(np.full(3, 1.3e-37))
    b, va, vb = np.ones(3), np.array([[0.3, -1.0, 0.5], [0.7, 0.2, -0.4], [0.1, 0.9, -0.6]]), np.array([1, -0.5, 2])
    d, err = gradients.directional(lambda ins: np.linalg.solve(ins["a"], ins["b"]), {"a": a, "b": b},
                                   {"a": va, "b": vb})
    x = np.linalg.solve(a, b)
    exact = np.linalg.solve(a, vb - va @ x)
    assert np.all(np.abs(d - exact) <= err) and np.all(err < 1e-6 * np.abs(exact))


def test_a_derivative_past_the_dtypes_range_is_its_infinity():
    from suites.judging.gradcheck import _past_range
    # -4.5e74 is past float32's range wherever its error bar lies, so float32 gives -inf; 3e38
    # within 1e38 of it might round to float32's largest finite number, so it stays
    out = _past_range(np.array([-4.5e74, 4.5e74, 3e38, -4.5e74]), np.array([1e70, 1e70, 1e38, 1e75]), "float32")
    assert out[0] == -np.inf and out[1] == np.inf and out[2] == 3e38 and out[3] == -4.5e74
    assert _past_range(np.array([-4.5e74]), np.array([1e70]), "float64")[0] == -4.5e74


def test_a_step_that_passes_one_input_below_one_does_not_swamp_it():
    # a near 1e-10 and b of 0.5 are both below 1, so one step of 6e-6 moves both, and replaces a's
    # entries: its two quotients agreed on about 1e12 where the derivative is about 1e20 (paddle's
    # right gradient of solve failed at seed 336); each input at its own step, a's relative to it
    a, b = np.diag([4e-10, 1e-10, 1e-10, 1e-10, 1e-10]), np.full(5, 0.5)
    rng = np.random.default_rng(3)
    va, vb = rng.standard_normal((5, 5)), rng.standard_normal(5)
    d, err = gradients.directional(lambda ins: np.linalg.solve(ins["a"], ins["b"]), {"a": a, "b": b},
                                   {"a": va, "b": vb})
    exact = np.linalg.solve(a, vb - va @ np.linalg.solve(a, b))
    assert np.all(np.abs(d - exact) <= err) and np.all(err < 1e-6 * np.abs(exact))
    d, err = gradients.directional(lambda ins: 1 / ins["a"], {"a": np.array([3e-9])}, {"a": np.array([1.0])})
    assert abs(d[0] + 1 / 9e-18) <= err[0] < 1e-6 / 9e-18

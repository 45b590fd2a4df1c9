"""Every adapter's LSTM against the reference LSTM (float64), with weights given once in
PyTorch's names and layout; and the weight conversions to flax and Keras on their own."""
import numpy as np
import pytest

import adapters
from vocabulary.params import rnn_param_shapes

RNG = np.random.default_rng(5)


def pytorch_params(input_size, hidden, layers, bidirectional):
    shapes = rnn_param_shapes(input_size, hidden, layers, bidirectional)
    return {name: RNG.uniform(-0.5, 0.5, shape) for name, shape in shapes.items()}


def adapter_or_skip(name):
    try:
        return adapters.get(name)
    except adapters.AdapterError as exc:
        pytest.skip(str(exc))


@pytest.mark.parametrize("name", ["torch", "jax", "tensorflow", "engine"])
@pytest.mark.parametrize("layers, bidirectional, batch_first", [(1, False, True), (2, True, False), (3, True, True)])
def test_lstm_matches_the_reference(name, layers, bidirectional, batch_first):
    adapter = adapter_or_skip(name)
    reference = adapters.get("reference")
    params = pytorch_params(3, 4, layers, bidirectional)
    d = 2 if bidirectional else 1
    x = RNG.standard_normal((2, 5, 3) if batch_first else (5, 2, 3))
    h0, c0 = RNG.standard_normal((2, d * layers, 2, 4))
    expected = reference.lstm(x, h0, c0, params, layers, bidirectional, batch_first)

    def put(v):
        return adapter.asarray(v, "float64", "cpu")

    actual = adapter.lstm(put(x), put(h0), put(c0), {k: put(v) for k, v in params.items()}, layers, bidirectional,
                          batch_first)
    for what, e, a in zip(("output", "h_n", "c_n"), expected, actual):
        np.testing.assert_allclose(adapter.to_numpy(a), e, rtol=1e-10, atol=1e-12, err_msg=f"{name} {what}")


def test_docs_shapes_on_the_reference():
    # LSTM(10, 20, num_layers=2) on (5, 3, 10) with h0, c0 (2, 3, 20) -> (5, 3, 20), (2, 3, 20)
    params = pytorch_params(10, 20, 2, False)
    out, h, c = adapters.get("reference").lstm(np.zeros((5, 3, 10)), np.zeros((2, 3, 20)), np.zeros((2, 3, 20)),
                                               params, 2, False, batch_first=False)
    assert out.shape == (5, 3, 20) and h.shape == c.shape == (2, 3, 20)


@pytest.mark.parametrize("layers", [1, 2, 3])
@pytest.mark.parametrize("bidirectional", [False, True])
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("state", [False, True])
def test_reference_shapes_follow_the_documented_formula(layers, bidirectional, batch_first, state):
    # torch.nn.LSTM docs: output (B, T, D * H) or (T, B, D * H); h_n, c_n (D * num_layers, B, H)
    batch, steps, d = 2, 5, 2 if bidirectional else 1
    x = np.zeros((batch, steps, 3) if batch_first else (steps, batch, 3))
    h0 = np.zeros((d * layers, batch, 4)) if state else None
    out, h, c = adapters.get("reference").lstm(x, h0, h0, pytorch_params(3, 4, layers, bidirectional), layers,
                                               bidirectional, batch_first)
    assert out.shape == ((batch, steps, d * 4) if batch_first else (steps, batch, d * 4))
    assert h.shape == c.shape == (d * layers, batch, 4)


def test_zero_state_is_the_default():
    params = pytorch_params(3, 4, 2, True)
    x = RNG.standard_normal((2, 5, 3))
    reference = adapters.get("reference")
    zeros = np.zeros((4, 2, 4))
    for given, default in zip(reference.lstm(x, zeros, zeros, params, 2, True), reference.lstm(x, None, None, params,
                                                                                             2, True)):
        np.testing.assert_array_equal(given, default)


def test_param_shapes_are_torch_lstms_own():
    torch = pytest.importorskip("torch")
    for layers, bidirectional in [(1, False), (3, True)]:
        module = torch.nn.LSTM(3, 4, layers, bidirectional=bidirectional)
        own = {name: tuple(p.shape) for name, p in module.named_parameters()}
        assert list(own.items()) == list(rnn_param_shapes(3, 4, layers, bidirectional).items())


def test_flax_conversion_slices_gates_and_sums_biases():
    pytest.importorskip("jax")
    from adapters.jax.layers import flax_lstm_params

    params = pytorch_params(3, 2, 1, False)
    cell = flax_lstm_params(params, "_l0")
    np.testing.assert_array_equal(cell["ig"]["kernel"], params["weight_ih_l0"][4:6].T)  # g is the third gate
    np.testing.assert_array_equal(cell["ho"]["bias"], params["bias_ih_l0"][6:] + params["bias_hh_l0"][6:])
    assert "bias" not in cell["ii"]


def test_keras_conversion_transposes_and_sums_biases():
    pytest.importorskip("tensorflow")
    from adapters.keras.rnn import lstm_weights as keras_lstm_weights

    params = pytorch_params(3, 2, 1, False)
    kernel, recurrent, bias = keras_lstm_weights(params, "_l0")
    assert kernel.shape == (3, 8) and recurrent.shape == (2, 8)
    np.testing.assert_array_equal(np.asarray(kernel), params["weight_ih_l0"].T)
    np.testing.assert_array_equal(np.asarray(bias), params["bias_ih_l0"] + params["bias_hh_l0"])


@pytest.mark.parametrize("name", ["torch", "jax", "tensorflow", "engine"])
def test_lstm_gradients_match_finite_differences(name):
    from suites.judging import gradients

    adapter = adapter_or_skip(name)
    reference = adapters.get("reference")
    params = pytorch_params(3, 2, 1, True)
    inputs = {"x": RNG.standard_normal((2, 3, 3)), "h": RNG.standard_normal((2, 2, 2)), **params}

    def f(values):
        weights = {k: v for k, v in values.items() if k not in ("x", "h")}
        return np.sum(reference.lstm(values["x"], values["h"], values["h"], weights, 1, True, True)[0])

    def fn(x, h, **weights):
        return adapter.sum(adapter.lstm(x, h, h, weights, 1, True, True)[0])

    tensors = {k: adapter.asarray(v, "float64", "cpu") for k, v in inputs.items()}
    wrt = ["x", "h", "weight_hh_l0_reverse", "bias_ih_l0"]
    _, grads = adapter.grad(fn, tensors, wrt, adapter.asarray(np.float64(1), "float64", "cpu"))
    for n in wrt:
        jac, err = gradients.jacobian(f, inputs, n)
        np.testing.assert_allclose(adapter.to_numpy(grads[n]).ravel(), jac[0], atol=1e-8 + err.max(), err_msg=n)

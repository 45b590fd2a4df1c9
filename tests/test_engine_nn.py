"""engine.nn and engine.collectives: documented shapes, values from the definitions, gradients
against central finite differences in float64, and the documented training example."""
import pathlib
import re

import numpy as np
import pytest

from engine import Tensor, nn, no_grad
from engine import collectives as C
from engine import ops as E
from suites.judging import gradients

ROOT = pathlib.Path(__file__).resolve().parent.parent
RNG = np.random.default_rng(1)


def check_gradients(fn, inputs: dict):
    """Reverse mode against central differences for every input, with a random cotangent."""
    def f(values):
        with no_grad():
            return fn(**{k: Tensor(v) for k, v in values.items()}).numpy()

    leaves = {k: Tensor(v, requires_grad=True) for k, v in inputs.items()}
    out = fn(**leaves)
    cotangent = RNG.standard_normal(out.shape)
    out.backward(cotangent)
    for name, leaf in leaves.items():
        jac, err = gradients.jacobian(f, inputs, name)
        expected = (cotangent.ravel() @ jac).reshape(leaf.shape)
        grad = np.zeros(leaf.shape) if leaf.grad is None else leaf.grad  # not on the path: no gradient
        np.testing.assert_allclose(grad, expected, rtol=1e-6, atol=1e-8 + np.abs(cotangent).sum() * err.max(),
                                   err_msg=name)


def direct_conv2d(x, w, b, stride, pads, dilation, groups):
    """The definition, loop by loop: out[n, o, i, j] = b[o] + sum_{c, p, q} w[o, c, p, q] *
    xpad[n, g*C/G + c, i*s + p*d, j*s + q*d]."""
    xp = np.pad(x, [(0, 0), (0, 0), *pads])
    out_c, cin, kh, kw = w.shape
    oh = (xp.shape[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (xp.shape[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((x.shape[0], out_c, oh, ow))
    for n in range(x.shape[0]):
        for o in range(out_c):
            g = o // (out_c // groups)
            for i in range(oh):
                for j in range(ow):
                    for c in range(cin):
                        for p in range(kh):
                            for q in range(kw):
                                out[n, o, i, j] += w[o, c, p, q] * xp[n, g * cin + c, i * stride[0] + p * dilation[0],
                                                                      j * stride[1] + q * dilation[1]]
            out[n, o] += b[o]
    return out


CONFIGS = [  # stride, padding, dilation, groups, torch-style padding as (top/bottom, left/right) pairs
    ((1, 1), 0, (1, 1), 1, [(0, 0), (0, 0)]),
    ((2, 1), (1, 2), (1, 1), 1, [(1, 1), (2, 2)]),
    ((1, 1), "same", (2, 1), 2, [(2, 2), (0, 1)]),  # even kernel width: the extra column at the end
    ((2, 2), 1, (1, 2), 4, [(1, 1), (1, 1)]),
    ((1, 1), "valid", (1, 1), 4, [(0, 0), (0, 0)]),
]


@pytest.mark.parametrize("stride, padding, dilation, groups, pads", CONFIGS)
def test_conv2d_matches_the_definition_and_finite_differences(stride, padding, dilation, groups, pads):
    x = RNG.standard_normal((2, 4, 6, 5))
    w = RNG.standard_normal((4, 4 // groups, 3, 2))
    b = RNG.standard_normal(4)
    out = nn.conv2d(x, w, b, stride, padding, dilation, groups).numpy()
    np.testing.assert_allclose(out, direct_conv2d(x, w, b, stride, pads, dilation, groups), rtol=1e-12, atol=1e-12)
    check_gradients(lambda x, w, b: nn.conv2d(x, w, b, stride, padding, dilation, groups), {"x": x, "w": w, "b": b})


def test_conv1d_docs_example_and_gradients():
    # Conv1d(16, 33, 3, stride=2) on (20, 16, 50) -> (20, 33, 24)
    assert nn.Conv1d(16, 33, 3, stride=2)(np.zeros((20, 16, 50), np.float32)).shape == (20, 33, 24)
    x, w, b = RNG.standard_normal((2, 2, 7)), RNG.standard_normal((3, 2, 3)), RNG.standard_normal(3)
    check_gradients(lambda x, w, b: nn.conv1d(x, w, b, stride=2, padding=1, dilation=2), {"x": x, "w": w, "b": b})


@pytest.mark.parametrize("kwargs, message", [
    ({"stride": 2, "padding": "same"}, "needs stride 1"),
    ({"groups": 3}, "do not split into 3 groups"),
    ({"padding": "full"}, "padding takes"),
    ({"padding": -1}, "non-negative"),
    ({"stride": 0}, "must be positive"),
    ({"dilation": 9}, "does not fit"),
])
def test_invalid_convolutions_raise(kwargs, message):
    with pytest.raises(ValueError, match=message):
        nn.conv2d(np.zeros((1, 4, 5, 5)), np.zeros((4, 4 // kwargs.get("groups", 1) or 1, 3, 3)), **kwargs)


def test_lstm_docs_shapes():
    # LSTM(10, 20, num_layers=2) on (5, 3, 10) with h0, c0 (2, 3, 20) -> (5, 3, 20), (2, 3, 20)
    lstm = nn.LSTM(10, 20, num_layers=2)
    out, (h, c) = lstm(np.zeros((5, 3, 10), np.float32), (np.zeros((2, 3, 20), np.float32),) * 2)
    assert out.shape == (5, 3, 20) and h.shape == c.shape == (2, 3, 20)
    lstm = nn.LSTM(10, 20, num_layers=3, bidirectional=True, batch_first=True)
    out, (h, c) = lstm(np.zeros((3, 5, 10), np.float32))
    assert out.shape == (3, 5, 40) and h.shape == c.shape == (6, 3, 20)
    assert list(lstm.state_dict())[:5] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0",
                                           "weight_ih_l0_reverse"]


def test_lstm_step_follows_the_pytorch_equations():
    """i = s(W_ii x + b_ii + W_hi h + b_hi), f, g = tanh(...), o likewise; c' = f c + i g; h' = o tanh(c')."""
    lstm = nn.LSTM(3, 2, dtype="float64", rng=RNG)
    x, h0, c0 = RNG.standard_normal((1, 1, 3)), RNG.standard_normal((1, 1, 2)), RNG.standard_normal((1, 1, 2))
    out, (h, c) = lstm(x, (h0, c0))
    s = dict(lstm.state_dict())
    z = s["weight_ih_l0"] @ x[0, 0] + s["bias_ih_l0"] + s["weight_hh_l0"] @ h0[0, 0] + s["bias_hh_l0"]
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    i, f, g, o = sig(z[0:2]), sig(z[2:4]), np.tanh(z[4:6]), sig(z[6:8])
    c1 = f * c0[0, 0] + i * g
    np.testing.assert_allclose(c.numpy()[0, 0], c1, rtol=1e-14)
    np.testing.assert_allclose(h.numpy()[0, 0], o * np.tanh(c1), rtol=1e-14)
    np.testing.assert_allclose(out.numpy()[0, 0], h.numpy()[0, 0])


@pytest.mark.parametrize("layers, bidirectional, batch_first", [(1, False, True), (2, True, False)])
def test_lstm_gradients(layers, bidirectional, batch_first):
    lstm = nn.LSTM(2, 2, num_layers=layers, bidirectional=bidirectional, batch_first=batch_first,
                   dtype="float64", rng=RNG)
    params = lstm.state_dict()
    d = 2 if bidirectional else 1
    inputs = {"x": RNG.standard_normal((2, 3, 2)), "h0": RNG.standard_normal((d * layers, 2 if batch_first else 3, 2)),
              "c0": RNG.standard_normal((d * layers, 2 if batch_first else 3, 2)), "w": params["weight_hh_l0"]}

    def run(x, h0, c0, w):
        out, h, c = nn.lstm(x, h0, c0, {**params, "weight_hh_l0": w}, layers, bidirectional, batch_first)
        return E.sum(out) + E.sum(h * c)

    check_gradients(run, inputs)


@pytest.mark.parametrize("layers, bidirectional, reset_after", [(1, False, True), (2, True, False)])
def test_gru_gradients(layers, bidirectional, reset_after):
    from vocabulary.params import rnn_param_shapes

    params = {k: RNG.uniform(-0.5, 0.5, s) for k, s in rnn_param_shapes(2, 2, layers, bidirectional, "gru").items()}
    d = 2 if bidirectional else 1
    inputs = {"x": RNG.standard_normal((2, 3, 2)), "h0": RNG.standard_normal((d * layers, 2, 2)),
              "w": params["weight_hh_l0"], "b": params["bias_hh_l0"]}

    def run(x, h0, w, b):
        out, h = nn.gru(x, h0, {**params, "weight_hh_l0": w, "bias_hh_l0": b}, layers, bidirectional, True,
                        reset_after)
        return E.sum(out * out) + E.sum(h)

    check_gradients(run, inputs)


def test_gru_step_follows_the_pytorch_equations():
    """One step from torch.nn.GRU's documented equations: h' = (1 - z) n + z h."""
    from vocabulary.params import rnn_param_shapes

    p = {k: RNG.uniform(-0.5, 0.5, s) for k, s in rnn_param_shapes(3, 2, op="gru").items()}
    x, h0 = RNG.standard_normal((1, 1, 3)), RNG.standard_normal((1, 1, 2))
    out, h = nn.gru(x, h0, p)
    gi, gh = p["weight_ih_l0"] @ x[0, 0] + p["bias_ih_l0"], p["weight_hh_l0"] @ h0[0, 0] + p["bias_hh_l0"]
    r, z = (1 / (1 + np.exp(-(gi[k:k + 2] + gh[k:k + 2]))) for k in (0, 2))
    n = np.tanh(gi[4:] + r * gh[4:])
    np.testing.assert_allclose(h.numpy()[0, 0], (1 - z) * n + z * h0[0, 0], rtol=1e-14)
    np.testing.assert_allclose(out.numpy()[0, 0], h.numpy()[0, 0])


def test_linear_and_parameter_registration():
    layer = nn.Linear(3, 2, dtype="float64", rng=RNG)
    assert list(layer.state_dict()) == ["weight", "bias"]
    x = RNG.standard_normal((4, 3))
    np.testing.assert_allclose(layer(x).numpy(), x @ layer.weight.data.T + layer.bias.data)
    check_gradients(lambda x, w: E.matmul(x, E.transpose(w, (1, 0))), {"x": x, "w": layer.weight.data})
    with pytest.raises(KeyError, match="missing \\['bias'\\]"):
        layer.load_state_dict({"weight": np.zeros((2, 3))})


# -- collectives ----------------------------------------------------------------------------------

SHARDS = [RNG.standard_normal((4, 2)) for _ in range(4)]


def test_all_reduce_is_replicated_sum_mean_max():
    for op, expected in (("sum", sum(SHARDS)), ("mean", sum(SHARDS) / 4), ("max", np.max(SHARDS, axis=0))):
        for out in C.all_reduce(SHARDS, op):
            np.testing.assert_allclose(out.numpy(), expected)


def test_all_gather_then_slice_returns_each_shard():
    tiled = C.all_gather(SHARDS, axis=0, tiled=True)[2].numpy()
    stacked = C.all_gather(SHARDS, axis=1)[0].numpy()
    assert tiled.shape == (16, 2) and stacked.shape == (4, 4, 2)
    for d, shard in enumerate(SHARDS):
        np.testing.assert_array_equal(tiled[4 * d:4 * (d + 1)], shard)
        np.testing.assert_array_equal(stacked[:, d], shard)


def test_reduce_scatter_is_all_reduce_then_the_rank_slice():
    total = sum(SHARDS)
    for d, out in enumerate(C.reduce_scatter(SHARDS, axis=0, tiled=True)):
        np.testing.assert_allclose(out.numpy(), total[d:d + 1])
    for d, out in enumerate(C.reduce_scatter(SHARDS, axis=0)):  # untiled: the axis removed
        np.testing.assert_allclose(out.numpy(), total[d])


def test_all_to_all_twice_with_swapped_axes_is_the_identity():
    there = C.all_to_all(SHARDS, split_axis=0, concat_axis=1)
    assert there[0].shape == (1, 8)
    back = C.all_to_all(there, split_axis=1, concat_axis=0)
    for out, shard in zip(back, SHARDS):
        np.testing.assert_array_equal(out.numpy(), shard)


def test_ppermute_partial_permutation_gives_zeros_and_broadcast():
    out = C.ppermute(SHARDS, [(0, 1), (1, 2), (2, 0)])
    np.testing.assert_array_equal(out[1].numpy(), SHARDS[0])
    np.testing.assert_array_equal(out[3].numpy(), np.zeros((4, 2)))
    for copy in C.broadcast(SHARDS, root=2):
        np.testing.assert_array_equal(copy.numpy(), SHARDS[2])
    with pytest.raises(ValueError, match="distinct"):
        C.ppermute(SHARDS, [(0, 1), (1, 1)])


@pytest.mark.parametrize("name, params", [
    ("all_reduce", {"op": "sum"}), ("all_reduce", {"op": "mean"}), ("all_gather", {"axis": 1, "tiled": True}),
    ("reduce_scatter", {"axis": 0, "tiled": True}), ("reduce_scatter", {"axis": 0}),
    ("all_to_all", {"split_axis": 0, "concat_axis": 1}),
    ("ppermute", {"perm": [(0, 1), (3, 0)]}), ("broadcast", {"root": 1}),
])
def test_collective_gradients(name, params):
    def run(**shards):
        outs = C.COLLECTIVES[name]([shards[f"s{d}"] for d in range(4)], **params)
        return E.stack([E.reshape(o, (-1,)) for o in outs], 0)

    check_gradients(run, {f"s{d}": s for d, s in enumerate(SHARDS)})


def test_the_documented_training_example_learns(capsys):
    text = (ROOT / "docs" / "engine.md").read_text()
    [code] = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    exec(compile(code, "docs/engine.md", "exec"), {})  # the block asserts that the loss fell 10x
    assert "loss" in capsys.readouterr().out

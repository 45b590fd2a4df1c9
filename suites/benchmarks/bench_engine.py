"""The engine against raw NumPy and PyTorch (CPU), side by side in one run (issue targets:
512x512 matmul within 1.1x of NumPy; LSTM B=32 T=64 H=256 forward+backward within 3x of torch;
Conv2d B=16 32->64 on 32x32, k=3, forward+backward within 4x of torch; LSTM backward's peak
memory within 2x of the activations it must keep; attention B=8 N=8 T=256 D=64 forward+backward
within 2x of torch; the transformer encoder model's training step, forward+backward at B=16
T=64 E=128, within 3x). Side by side: python -m suites.benchmarks table FILE.json.
The engine is reached through its adapter, as every framework is."""
import pathlib
import tracemalloc

import numpy as np
import pytest

import adapters
from suites import specs
from suites.benchmarks.workloads import step, workloads

RNG = np.random.default_rng(0)


def engine_adapter():
    """The engine as its guide sets a process up for speed (Adapter.prepare_for_speed)."""
    engine = adapters.get("engine")
    engine.prepare_for_speed()
    return engine


def torch_adapter():
    try:
        return adapters.get("torch")
    except adapters.AdapterError as exc:
        pytest.skip(str(exc))


@pytest.mark.benchmark(group="matmul-512-float32-forward")
def test_numpy_matmul(benchmark):
    a, b = (RNG.standard_normal((512, 512)).astype(np.float32) for _ in range(2))
    benchmark.extra_info["baseline"] = True
    benchmark(np.matmul, a, b)


@pytest.mark.benchmark(group="matmul-512-float32-forward")
def test_engine_matmul(benchmark):
    engine = engine_adapter()
    a, b = (engine.asarray(RNG.standard_normal((512, 512)), "float32", "cpu") for _ in range(2))
    benchmark(engine.matmul, a, b)


LSTM = {"batch": 32, "steps": 64, "hidden": 256}


def lstm_inputs():
    b, t, h = LSTM["batch"], LSTM["steps"], LSTM["hidden"]
    bound = 1 / np.sqrt(h)
    params = {f"{w}_l0": RNG.uniform(-bound, bound, shape).astype(np.float32) for w, shape in
              (("weight_ih", (4 * h, h)), ("weight_hh", (4 * h, h)), ("bias_ih", (4 * h,)), ("bias_hh", (4 * h,)))}
    x = RNG.standard_normal((b, t, h)).astype(np.float32)
    state = np.zeros((1, b, h), np.float32)
    return x, state, params


def forward_backward(adapter, fn, arrays: dict):
    """A step that runs fn(**arrays) forward and backward (d/d every array), synced, on CPU."""
    tensors = {k: adapter.asarray(v, "float32", "cpu") for k, v in arrays.items()}
    one = adapter.asarray(np.float32(1), "float32", "cpu")

    def step():
        _, grads = adapter.grad(fn, tensors, list(arrays), one)
        adapter.sync(grads["x"])

    return step


def run_adapter_lstm(adapter, x, state, params):
    """forward + backward of sum(output) w.r.t. the input, the state and every weight."""
    def fn(x, s, **weights):
        out, _, _ = adapter.lstm(x, s, s, weights, batch_first=True)
        return adapter.sum(out)

    return forward_backward(adapter, fn, {"x": x, "s": state, **params})


@pytest.mark.benchmark(group="lstm-B32-T64-H256-forward-backward")
def test_torch_lstm(benchmark):
    torch = torch_adapter()
    benchmark.extra_info["baseline"] = True
    benchmark(run_adapter_lstm(torch, *lstm_inputs()))


@pytest.mark.benchmark(group="lstm-B32-T64-H256-forward-backward")
def test_engine_lstm(benchmark):
    step = run_adapter_lstm(engine_adapter(), *lstm_inputs())
    benchmark.extra_info.update(lstm_peak_memory(step))
    benchmark(step)


def lstm_peak_memory(step) -> dict:
    """Peak bytes NumPy allocates during one forward + backward step (the gradients of the input,
    the state and the weights included), against what an LSTM must keep for its backward: the
    activated gates (4H), the cell and hidden states (2H) per step and batch row."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    step()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    must_keep = LSTM["steps"] * LSTM["batch"] * 6 * LSTM["hidden"] * 4
    return {"peak_mb": round(peak / 2**20, 2), "must_keep_mb": round(must_keep / 2**20, 2),
            "peak_over_must_keep": round(peak / must_keep, 2)}


def conv_inputs():
    x = RNG.standard_normal((16, 32, 32, 32)).astype(np.float32)
    w = (RNG.standard_normal((64, 32, 3, 3)) / np.sqrt(32 * 9)).astype(np.float32)
    b = np.zeros(64, np.float32)
    return x, w, b


def run_adapter_conv(adapter, x, w, b):
    """forward + backward of sum(conv2d(x, w, b, padding=1)) w.r.t. x, w and b."""
    def fn(x, w, b):
        return adapter.sum(adapter.conv2d(x, w, b, padding=1))

    return forward_backward(adapter, fn, {"x": x, "w": w, "b": b})


@pytest.mark.benchmark(group="conv2d-B16-32to64-32x32-k3-forward-backward")
def test_torch_conv2d(benchmark):
    torch = torch_adapter()
    benchmark.extra_info["baseline"] = True
    benchmark(run_adapter_conv(torch, *conv_inputs()))


@pytest.mark.benchmark(group="conv2d-B16-32to64-32x32-k3-forward-backward")
def test_engine_conv2d(benchmark):
    benchmark(run_adapter_conv(engine_adapter(), *conv_inputs()))


# Workloads of the specs' benchmark blocks that the engine has targets on: (spec, size, the ratio to torch)
SPEC_TARGETS = {"attention": ("attention/docs", "b8-n8-t256-d64", 2.0),
                "transformer-training-step": ("models/transformer-encoder", "b16-t64-e128", 3.0)}
SPECS = pathlib.Path(__file__).resolve().parents[2] / "specs"


def spec_step(adapter, spec_name: str, size: str):
    """One synced forward + backward step (float32, eager) of a spec's benchmark size."""
    spec = next(s for s in specs.load_path(SPECS / f"{spec_name.split('/')[0]}.yaml") if s.name == spec_name)
    workload = next(w for w in workloads([spec]) if w.size["name"] == size and w.dtype == "float32"
                    and w.mode == "eager" and w.pass_name == "forward-backward")
    return step(workload, adapter, "cpu")[1]


@pytest.mark.parametrize("target", SPEC_TARGETS)
@pytest.mark.parametrize("who", ["torch", "engine"])
def test_spec_target(benchmark, target, who):
    spec_name, size, ratio = SPEC_TARGETS[target]
    adapter = torch_adapter() if who == "torch" else engine_adapter()
    benchmark.group = f"{target}-{size}-forward-backward (engine within {ratio:g}x of torch)"
    benchmark.extra_info.update(adapter=who, baseline=who == "torch")
    benchmark(spec_step(adapter, spec_name, size))

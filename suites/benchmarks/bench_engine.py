"""The engine's targets that need a process of their own beside NumPy: the 512x512 float32
matmul within 1.05x of NumPy's, and the LSTM's (B=32 T=64 H=256) forward + backward peak memory
within 1.5x of the activations it must keep. Its targets against torch (LSTM within 2x, conv2d
B=16 32->64 on 32x32 k3 within 2.5x, forward + backward) are the specs' benchmark workloads
lstm/benchmark-num-layers1 and conv/resnet-3x3 b16-32to64-32-k3, timed by bench_specs.py with
each adapter in a process of its own at the run's threads (docs/engine.md has the figures).
The engine is reached through its adapter, as every framework is."""
import tracemalloc

import numpy as np
import pytest

import adapters

RNG = np.random.default_rng(0)


def engine_adapter():
    """The engine as its guide sets a process up for speed (Adapter.prepare_for_speed)."""
    engine = adapters.get("engine")
    engine.prepare_for_speed()
    return engine


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


@pytest.mark.benchmark(group="lstm-B32-T64-H256-forward-backward-memory")
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

"""An adapter that refuses some generated inputs keeps the rest of its hypothesis item; one that
refuses every input leaves the item unsupported; what a compiler refuses is unsupported in its
own words; and what the keras adapter does inside torch.compile does not depend on what ran before."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from tests.test_wrong_adapter import run_suite

REFUSING = pathlib.Path(__file__).resolve().parent / "adapters" / "refusing.py"


def records(tmp_path) -> list:
    return [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]


def test_refused_examples_are_replaced_by_others(tmp_path):
    run = run_suite(tmp_path, "--dtype", "float32", "-k", "matmul/broadcast-shapes/property", path=REFUSING,
                    adapter="refuses-vectors")
    assert run.returncode == 0, run.stdout + run.stderr
    [record] = records(tmp_path)
    assert record["status"] == "pass", record["message"]
    assert "refused as unsupported (a vector left operand is refused)" in record["message"]
    assert int(record["message"].split(" examples")[0]) >= 1  # the examples checked


def test_an_op_refused_for_every_input_is_unsupported(tmp_path):
    run = run_suite(tmp_path, "--dtype", "float32", "-k", "matmul/broadcast-shapes/property", "-rs",
                    path=REFUSING, adapter="refuses-matmul")
    assert run.returncode == 0, run.stdout + run.stderr
    [record] = records(tmp_path)
    assert record["status"] == "unsupported" and record["message"] == "no matmul here"
    assert "unsupported: no matmul here" in run.stdout


def test_what_the_compiler_refuses_is_unsupported_with_its_own_message(tmp_path):
    """tf.function(jit_compile=True) cannot compile RaggedTensor.to_tensor (XLA has no kernel for
    RaggedTensorToTensor): the compiled item is unsupported with XLA's words, never an error of
    the framework's, and the eager one still passes."""
    pytest.importorskip("tensorflow")
    run = subprocess.run([sys.executable, "-m", "pytest", "specs/padding.yaml", "--adapter", "tensorflow", "-k",
                          "truncate-post and float32 and not property", "--results-dir", str(tmp_path), "-p",
                          "no:cacheprovider", "-p", "no:xdist"], cwd=pathlib.Path(__file__).resolve().parent.parent,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    by_mode = {r["mode"]: r for r in records(tmp_path)}
    assert by_mode["eager"]["status"] == "pass", by_mode["eager"]["message"]
    compiled = by_mode["compiled"]
    assert compiled["status"] == "unsupported"
    assert compiled["message"].startswith("tf.function(jit_compile=True): XLA refuses XLA_CPU_JIT: "
                                          "RaggedTensorToTensor")


KERAS_TORCH_COMPILED_FIRST = """
import numpy as np
import adapters
ad = adapters.get("keras-torch")
x, w, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(4, 3), np.array([1.0, 2.0, 3.0, 4.0])
compiled = ad.compile(lambda env: ad.linear(env["x"], env["w"], env["b"]))
out = compiled({k: ad.asarray(v, "float32", "cpu") for k, v in dict(x=x, w=w, b=b).items()})
print(np.abs(ad.to_numpy(out) - (x @ w.T + b)).max())
softmax = ad.compile(lambda env: ad.masked_softmax(env["x"], env["m"]))  # a layer without weights
out = softmax({"x": ad.asarray(np.zeros((1, 4)), "float32", "cpu"),
               "m": ad.asarray(np.ones((1, 4), bool), "bool", "cpu")})
print(np.abs(ad.to_numpy(out) - 0.25).max())
"""


def test_a_keras_layer_is_built_outside_torch_compile_whatever_ran_before():
    """On the torch backend the keras adapter's first use of a layer (Dense; Softmax, which has
    no weights) may come inside torch.compile (the compiled mode before the eager one): the layer
    is made outside dynamo's trace, as Keras' users build a model before compiling its step, and
    the compiled calls compute x W^T + b (in float32: Keras computes float64 matmuls in float32
    on torch, a documented difference) and softmax. Made inside the trace, dynamo failed in
    Keras' Layer.__init__ ("'Dense' object has no attribute '_buffers'"), so a compiled case
    errored or passed by what the process had run before."""
    pytest.importorskip("keras")
    pytest.importorskip("torch")
    run = subprocess.run([sys.executable, "-c", KERAS_TORCH_COMPILED_FIRST], cwd=pathlib.Path(__file__).parent.parent,
                         env={**os.environ, "KERAS_BACKEND": "torch"}, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    linear, softmax = map(float, run.stdout.split()[-2:])
    assert linear == 0  # small integers: every product and sum exact in float32
    assert softmax == 0  # four equal scores: 1/4 each, exactly

"""No false alarms: the gradient checks, run over many seeds on two frameworks, find nothing.

Where two independent frameworks agree and both fail the finite differences, the oracle's error
estimate is the suspect (the dev profile once failed autograd/elementwise-chain/gradient about one
run in three, on torch and jax alike: tests/test_gradients.py has the case)."""
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import adapters
from suites.judging import gradcheck
from suites.programs.context import Context
from tests.spec_text import first_spec

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = (1, 2, 3)  # the dev profile's 40 examples each: 120 per item and framework


@pytest.mark.parametrize("seed", SEEDS)
def test_autograd_gradients_raise_no_alarm_over_seeds(tmp_path, seed):
    for name in ("torch", "tensorflow"):
        if not adapters.classes().get(name):
            pytest.skip(f"{name} is not installed")
    # eagerly: JAX's op-by-op reverse passes cost ten times TensorFlow's, and the oracle is the same
    run = subprocess.run([sys.executable, "-m", "pytest", "specs/autograd.yaml", "-k", "gradient", "--adapter",
                          "torch,tensorflow", "--mode", "eager", "--dtype", "float64", "--hypothesis-profile=dev",
                          f"--hypothesis-seed={seed}", "-p", "no:cacheprovider", "-p", "no:xdist", "-q",
                          "--results-dir", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:]
    assert "passed" in run.stdout.splitlines()[-1]


VANISHING = """
- id: softmax-over-one-element
  doc: softmax over an axis of one element is 1, its derivative 0
  source: https://www.tensorflow.org/api_docs/python/tf/nn/softmax
  expr: "softmax(x)"
  args: [x]
  dtypes: [float32]
  hypothesis: {signature: "(n)->(n)"}
  gradient: {wrt: [x]}
"""


def test_a_vanishing_derivative_leaves_the_reverse_pass_its_rounding(tmp_path):
    """TensorFlow computes softmax over one element as 0.99999994, so its reverse pass gives
    g - 0.99999994 g, a rounding of the cotangent where the derivative is 0 (the dev profile
    failed autograd/softmax-default-axis on zeros of shape (3, 3, 1): 8.7e-7 against 2.4e-7)."""
    if not adapters.classes().get("tensorflow"):
        pytest.skip("tensorflow is not installed")
    ctx = Context(first_spec(tmp_path, VANISHING), adapters.get("tensorflow"), "cpu", "float32")
    zeros = {"x": np.zeros((3, 3, 1), dtype=np.float32)}  # 81 Jacobian entries: one random direction
    outcome = gradcheck.check_gradient(ctx, "zeros", zeros, np.random.default_rng(1388420452))
    assert outcome.status == "pass", outcome.message


SUBNORMAL = """
- id: exp-far-below-zero
  doc: exp(x) and its derivative are subnormal in float32 below x = -87.3
  source: https://data-apis.org/array-api/2024.12/API_specification/generated/array_api.exp.html
  expr: "exp(x)"
  args: [x]
  dtypes: [float32]
  hypothesis: {signature: "(n)->(n)"}
  gradient: {wrt: [x]}
"""


def test_a_subnormal_derivative_may_round_to_its_spacing(tmp_path):
    """exp has no sum-product bound, so its gradient is allowed ulps of the derivative's own
    magnitude; exp(-91) = 3.0e-40 is subnormal in float32, and XLA on CPU flushes it to 0, which
    ulps of 3.0e-40 (3e-46) do not allow: the smallest normal number is allowed beside them, as
    the value check allows it."""
    if not adapters.classes().get("jax"):
        pytest.skip("jax is not installed")
    ctx = Context(first_spec(tmp_path, SUBNORMAL), adapters.get("jax"), "cpu", "float32")
    far = {"x": np.float32([-91.0, -95.5, -100.25])}
    outcome = gradcheck.check_gradient(ctx, "far-below-zero", far, np.random.default_rng(0))
    assert outcome.status == "pass", outcome.message

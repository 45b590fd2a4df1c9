"""The mixed mode (docs/mixed-precision.md): an op torch.autocast lowers is judged as bfloat16
computed from bfloat16-rounded inputs, an op it leaves alone as float32; an adapter whose policy
is never turned on, or whose lowered matmul accumulates in bfloat16, is caught where its eager
mode passes; an adapter's documented policy judges its mode and shows."""
import json
import pathlib
import subprocess
import sys

import pytest

from adapters import get
from suites.judging import differences
from suites.judging.outcome import Outcome
from suites.loading.specs import load_file
from suites.programs.context import Context
from vocabulary import AUTOCAST, MIXED_OPS

ROOT = pathlib.Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "adapters" / "broken_autocast.py"


def pytest_run(tmp_path, *args):
    cmd = [sys.executable, "-m", "pytest", *args, "--results-dir", str(tmp_path), "--hypothesis-profile=ci",
           "--share", "1", "--dtype", "float32", "-p", "no:xdist", "-p", "no:cacheprovider"]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    return run, [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]


def caught_in_mixed(tmp_path, spec: str, adapter: str, select: str, case: str) -> dict:
    """The wrong adapter's record of `case` in the mixed mode, its eager record a pass."""
    run, records = pytest_run(tmp_path, spec, "--adapter-path", str(BROKEN), "--adapter", adapter, "-k", select)
    assert run.returncode == 1, run.stdout + run.stderr
    found = {r["mode"]: r for r in records if r["case"] == case}
    assert found["eager"]["status"] == "pass", found["eager"]["message"]
    assert found["mixed"]["status"] == "fail"
    return found["mixed"]


def test_a_mixed_mode_that_never_turns_its_policy_on_is_caught(tmp_path):
    mixed = caught_in_mixed(tmp_path, "specs/layers.yaml", "policy-ignored", "linear-docs and not property", "by-hand")
    assert "dtype float32, expected bfloat16" in mixed["message"], mixed["message"]


@pytest.mark.apart  # about 60 s: in test-apart (tox.ini)
def test_a_matmul_that_accumulates_in_bfloat16_is_caught(tmp_path):
    mixed = caught_in_mixed(tmp_path, "specs/matmul.yaml", "bfloat16-accumulating", "broadcast-shapes and not docs",
                            "hypothesis")
    assert "differs from the float64 reference" in mixed["message"], mixed["message"]


def _context(adapter: str, spec_id: str, mode: str) -> Context:
    spec = next(s for s in load_file(ROOT / "specs" / "layers.yaml") if s.id == spec_id)
    return Context(spec, get(adapter), "cpu", "float32", mode)


def test_a_documented_policy_judges_only_the_mixed_mode_and_shows_in_its_passes():
    mixed, eager = _context("jax", "linear-docs", "mixed"), _context("jax", "linear-docs", "eager")
    assert eager.policy is None and not eager.lowered
    # flax's Dense rounds x W before it adds the bias: a sequence of bfloat16 steps, not torch's one rounding
    assert AUTOCAST["linear"] == "bfloat16" and mixed.autocast == "bfloat16-steps" and mixed.lowered
    as_torch_rejects = lambda: Outcome("fail", "by-hand", "beyond torch.autocast's bound")  # noqa: E731
    documented = differences.under_policy(mixed, Outcome("pass", "by-hand", "within the bound"), as_torch_rejects)
    assert documented.status == "documented" and documented.difference["mode"] == "mixed"
    assert "flax.linen.Dense" in documented.message
    # a case that torch.autocast's computation passes too does not show the policy: a pass, not documented
    alike = differences.under_policy(mixed, Outcome("pass", "by-hand", "within the bound"),
                                     lambda: Outcome("pass", "by-hand", "within torch.autocast's bound"))
    assert alike.status == "pass" and "does not show in this case" in alike.message
    failed = differences.under_policy(mixed, Outcome("fail", "by-hand", "differs"), as_torch_rejects)
    assert failed.status == "fail" and "the policy computes linear in bfloat16-steps" in failed.message
    torch = _context("torch", "linear-docs", "mixed")
    assert torch.policy is None and torch.autocast == "bfloat16"  # torch.autocast is the reference


def test_the_mixed_ops_have_a_class_or_follow_their_inputs():
    assert {"matmul", "linear", "conv2d"} <= MIXED_OPS and not {"lstm", "multi_head_attention"} & MIXED_OPS
    assert set(AUTOCAST.values()) <= {"bfloat16", "bfloat16-steps", "float32"}


def test_attention_in_bfloat16_steps_holds_torch_within_its_bound_and_not_a_missing_scale():
    """mixed_bounds.attention on torch's every-step-bfloat16 sdpa (its math path): within the
    bound, and not far within it (the bound is no blanket); attention without its 1/sqrt(d) scale,
    a port's classic slip, is far outside it."""
    import ml_dtypes
    import numpy as np
    import torch

    from adapters.reference import ReferenceAdapter
    from suites.judging.mixed_bounds import attention

    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((2, 2, 16, 16)).astype(ml_dtypes.bfloat16).astype(np.float64) for _ in range(3))
    reference, bound = ReferenceAdapter().dot_product_attention(q, k, v), attention(q, k, v)
    q16, k16, v16 = (torch.tensor(t).bfloat16() for t in (q, k, v))
    math = torch.ops.aten._scaled_dot_product_attention_math(q16, k16, v16)[0].double().numpy()
    ratio = np.abs(math - reference) / bound
    assert np.max(ratio) <= 1 and np.max(ratio) > 0.05, np.max(ratio)
    unscaled = torch.ops.aten._scaled_dot_product_attention_math(q16, k16, v16, scale=1.0)[0].double().numpy()
    assert np.max(np.abs(unscaled - reference) / bound) > 10


def test_a_framework_that_comes_to_round_as_torch_does_no_longer_shows_the_policy(tmp_path):
    """flax's Dense documented as two roundings: a flax that rounds once, as torch.autocast does,
    stayed documented in every case (the policy's bound admits one rounding too). Now every case
    of it passes as torch.autocast's and none is documented, while flax as it is shows the policy
    where the two differ (by-hand: a result that cancels)."""
    rounding_once = ROOT / "tests" / "adapters" / "rounding_once.py"
    run, records = pytest_run(tmp_path / "once", "specs/layers.yaml", "--adapter-path", str(rounding_once),
                              "--adapter", "flax-rounding-once", "--mode", "mixed", "-k", "linear-docs")
    assert run.returncode == 0, run.stdout + run.stderr
    assert records and {r["status"] for r in records} == {"pass"}, {(r["case"], r["status"]) for r in records}
    run, records = pytest_run(tmp_path / "flax", "specs/layers.yaml", "--adapter", "jax", "--mode", "mixed", "-k",
                              "linear-docs")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "documented" in {r["status"] for r in records}

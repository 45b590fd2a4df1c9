"""An oracle is suspect, not every framework wrong, where all frameworks agree with each other and
disagree with it (suites/judging/suspect.py); one framework that agrees with the oracle, or that differs
from the others, leaves the fail standing. Values and gradients alike."""

import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import adapters
from adapters.engine import EngineAdapter
from suites.judging import gradcheck, judge, suspect
from suites.programs.context import Context
from tests.spec_text import first_spec

SPEC = """\
- id: scaled
  expr: "3 * x"
  args: [x]
  dtypes: [float64]
  examples:
    - name: case
      inputs: {x: {values: [0.5, -2.0, 7.0]}}
  gradient: {wrt: [x]}
"""
INPUTS = {"x": np.array([0.5, -2.0, 7.0])}


def agreeing(name: str, factor: float = 1e-9) -> str:
    """The engine, multiplying by (1 + factor) more: as if the oracle, not the frameworks, were
    off by that much (values and gradients alike)."""
    adapters.register(type(name, (EngineAdapter,), {"name": name, "mul": lambda s, a, b: a * b * (1 + factor)}))
    return name


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    return first_spec(tmp_path_factory.mktemp("spec"), SPEC, "scaled.yaml")


def judged(spec, kind, names):
    ctx = Context(spec, adapters.get(names[0]), "cpu", "float64")
    if kind == "value":
        again = lambda c: judge.check_case(c, "case", INPUTS)  # noqa: E731
    else:
        again = lambda c: gradcheck.check_gradient(c, "case", INPUTS, np.random.default_rng(0))  # noqa: E731
    return suspect.questioned(ctx, again(ctx), again, names)


@pytest.mark.parametrize("kind", ["value", "gradient"])
def test_three_frameworks_that_agree_make_the_oracle_suspect(spec, kind):
    outcome = judged(spec, kind, [agreeing("agree-a"), agreeing("agree-b"), agreeing("agree-c")])
    assert outcome.status == "suspect", outcome.message
    assert outcome.message.startswith("oracle suspect: agree-a, agree-b, agree-c agree within 4 ulp")


@pytest.mark.parametrize("kind", ["value", "gradient"])
def test_a_framework_that_agrees_with_the_oracle_leaves_the_fail(spec, kind):
    assert judged(spec, kind, [agreeing("agree-a"), agreeing("agree-b"), "reference-like"]).status == "fail"


@pytest.mark.parametrize("kind", ["value", "gradient"])
def test_frameworks_that_differ_from_each_other_leave_the_fail(spec, kind):
    names = [agreeing("agree-a"), agreeing("agree-b"), agreeing("off-more", 1e-8)]
    assert judged(spec, kind, names).status == "fail"


def test_two_frameworks_are_not_enough(spec):
    assert judged(spec, "value", [agreeing("agree-a"), agreeing("agree-b"), "reference"]).status == "fail"


@pytest.fixture(autouse=True, scope="module")
def reference_like():
    adapters.register(type("ReferenceLike", (EngineAdapter,), {"name": "reference-like"}))


def test_a_run_questions_the_others_in_a_process_apart_and_finds_the_oracle_suspect(tmp_path):
    """As a run does it: the others' checks run in one fresh process (loading the adapters from
    their --adapter-path file), and three that agree make each one's fail suspect."""
    root = pathlib.Path(__file__).resolve().parent.parent
    agreeing_file = root / "tests" / "adapters" / "agreeing.py"
    cmd = [sys.executable, "-m", "pytest", str(root / "tests" / "specs" / "relu-generated.yaml"), "-q",
           "-p", "no:cacheprovider", "-p", "no:xdist", "--adapter-path", str(agreeing_file), "--adapter",
           "agreeing-a,agreeing-b,agreeing-c", "--mode", "eager", "--dtype", "float64", "--hypothesis-profile=ci",
           "--results-dir", str(tmp_path)]
    run = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=600)
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    values = [r for r in records if r["kind"] == "property"]
    assert len(values) == 3 and {r["status"] for r in values} == {"suspect"}, run.stdout + run.stderr
    assert all(r["message"].startswith("oracle suspect: ") for r in values)

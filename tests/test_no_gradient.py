""""No gradient" is an observation: a framework that returns None for an arg (torch's unused
input, TensorFlow's unconnected one or Round's registered None gradient) fails as such, never as
zeros, and is documented by `observed: {no_gradient: [args]}` for exactly those args."""

import numpy as np
import pytest

from adapters.engine import EngineAdapter
from suites.judging import gradcheck
from suites.programs.context import Context
from tests.spec_text import first_spec

SPEC = """\
- id: held
  expr: "x * 2 + stop_gradient(y)"
  args: [x, y]
  dtypes: [float64]
  examples:
    - name: case
      inputs: {x: {values: [1.0, 2.0]}, y: {values: [3.0, 4.0]}}
  gradient: {wrt: [x, y]}
"""
DOCUMENTED = """\
  differences:
    - adapter: engine
      kind: gradient
      observed: {no_gradient: [%s]}
      note: the engine leaves .grad None on a leaf the value does not depend on
      source: engine/tensor.py
"""
INPUTS = {"x": np.array([1.0, 2.0]), "y": np.array([3.0, 4.0])}


def judged(tmp_path, text):
    ctx = Context(first_spec(tmp_path, text, "held.yaml"), EngineAdapter(), "cpu", "float64")
    return gradcheck.check_gradient(ctx, "case", INPUTS, np.random.default_rng(0))


def test_none_is_a_fail_that_says_so(tmp_path):
    outcome = judged(tmp_path, SPEC)
    assert outcome.status == "fail"
    assert outcome.message == ("no gradient: the framework returns None for d/dy (by finite differences of the "
                               "reference: max |d/dy| = 0)")


@pytest.mark.parametrize("args, status", [("y", "documented"), ("x", "fail"), ("x, y", "fail")])
def test_documented_for_exactly_those_args(tmp_path, args, status):
    outcome = judged(tmp_path, SPEC + DOCUMENTED % args)
    assert outcome.status == status, outcome.message


GATHER = """\
- id: gathered
  collective: all_gather
  args: [shards]
  params: {axis: 0, tiled: true}
  dtypes: [float64]
  examples:
    - name: case
      inputs: {shards: {values: [[1.0, 2.0], [3.0, 4.0]]}}
  gradient: {wrt: [shards]}
"""


class UnconnectedGather(EngineAdapter):
    """A collective autograd does not record (paddle.distributed.all_gather's list): no gradient."""
    name = "unconnected-gather"

    def collective_grad(self, name, shards, cotangents, device="cpu", **params):
        return [None] * len(shards)


@pytest.mark.parametrize("documented, status", [(False, "fail"), (True, "documented")])
def test_a_collective_without_a_gradient_is_no_gradient(tmp_path, documented, status):
    documenting = DOCUMENTED.replace("adapter: engine", "adapter: unconnected-gather") % "shards"
    text = GATHER + (documenting if documented else "")
    ctx = Context(first_spec(tmp_path, text, "gathered.yaml"), UnconnectedGather(), "cpu", "float64")
    outcome = gradcheck.check_gradient(ctx, "case", {"shards": np.array([[1.0, 2.0], [3.0, 4.0]])},
                                       np.random.default_rng(0))
    assert outcome.status == status, outcome.message
    assert documented or outcome.message.startswith("no gradient: the framework returns None for d/dshards")

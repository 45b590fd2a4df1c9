"""Every documented outcome can fail. For each kind of documented behaviour a spec's `observed`
can name, a framework that behaves as documented is documented, and one whose behaviour changed
(another wrong value, shape, dtype or error; or the right one) is not. The kinds judged by a
model of the framework (a behaviour, a policy, a crash, a repeat condition) are tested where
their machinery lives; KINDS names each test, and the last test checks that every kind the
schema knows has one."""
import importlib
import json

import numpy as np
import pytest

from adapters.engine import EngineAdapter
from adapters.reference import ReferenceAdapter
from suites.judging import judge
from suites.programs.context import Context
from suites.running import checks
from tests.spec_text import first_spec
from tests.test_wrong_adapter import ROOT

SPEC = """\
- id: mm
  op: matmul
  args: [a, b]
  dtypes: [float64]
  examples:
    - name: case
      inputs: {a: {values: [[1, 2]]}, b: {values: [[3], [4]]}}
      grad: {expect: {a: [[3, 4]], b: [[1], [2]]}}
  hypothesis: {signature: "(m,k),(k,n)->(m,n)"}
  gradient: {wrt: [a, b]}
  differences:
    - adapter: documented
      %s
      note: "the documented behaviour (ValueError where it raises)"
      source: https://example.org/documented
"""
EXPECTED = np.array([[11.0]])  # [1, 2] @ [3, 4]^T


def returning(result):
    """An adapter whose matmul returns `result(a @ b)`, or raises what `result` raises."""
    class Returning(ReferenceAdapter):
        name = "documented"

        def matmul(self, a, b):
            return result(np.matmul(a, b))
    return Returning()


def scaling_gradients(factor):
    """An engine adapter whose gradients are `factor` times the true ones."""
    class Scaling(EngineAdapter):
        name = "documented"

        def grad(self, fn, args, wrt, cotangent):
            value, grads = super().grad(fn, args, wrt, cotangent)
            return value, {n: self.ops.mul(g, factor) for n, g in grads.items()}
    return Scaling()


def raise_value_error(_):
    raise ValueError("shapes do not fit")


def raise_runtime_error(_):
    raise RuntimeError("another error")


# kind: (observed and where it holds, kind of check, case, documented, changed, and the status
# of the framework that comes to behave as expected: a fail that says the entry is stale, or a
# pass where the entry documents some draws only)
VALUE_KINDS = {
    "value": ("observed: {value: [[12]]}", "value", "case",
              lambda r: r + 1, lambda r: r + 2, "fail"),
    "atol": ("observed: {value: [[12.0]], atol: 0.1}", "value", "case",
             lambda r: r + 1.05, lambda r: r + 1.2, "fail"),
    "shape": ("observed: {shape: [1]}", "value", "case",
              lambda r: r.reshape(1), lambda r: (r + 1).reshape(1), "fail"),  # its values, wrong
    "dtype": ("observed: {dtype: float32}", "value", "case",
              lambda r: r.astype(np.float32), lambda r: (r + 1).astype(np.float32), "fail"),
    "raises": ("observed: {raises: true}", "value", "case",
               raise_value_error, raise_runtime_error, "fail"),
    "differs": ("case: hypothesis\n      observed: {differs: true}", "value", "hypothesis",
                lambda r: r + 1, raise_value_error, "pass"),
    "one_of": ("observed: {one_of: [{value: [[12]]}, {raises: true}]}", "value", "case",
               lambda r: r + 1, lambda r: r + 2, "fail"),
    "as_expected": ("observed: {one_of: [{value: [[12]]}, {as_expected: true}]}", "value", "case",
                    lambda r: r + 1, lambda r: r + 2, "pass"),
}
GRADIENT_KINDS = {
    "grad": ("kind: gradient\n      observed: {grad: {a: [[6, 8]], b: [[2], [4]]}}", 2, 3, "fail"),
    "atol of grad": ("kind: gradient\n      observed: {grad: {a: [[6, 8]], b: [[2], [4]]}, atol: 0.1}",
                     2.01, 2.1, "fail"),
    "differs of gradients": ("kind: gradient\n      case: hypothesis\n      observed: {differs: true}", 2,
                             None, "pass"),
}
# kinds judged elsewhere: the test that shows a changed behaviour no longer documented
KINDS = {
    "no_gradient": "tests.test_no_gradient:test_documented_for_exactly_those_args",
    "precision": "tests.test_differences:test_float16_arithmetic_is_beyond_a_float32_difference",
    "quantised":
        "tests.test_models:test_a_runtimes_int8_quantisation_is_documented_within_the_bound_of_its_moves_alone",
    "shapes": "tests.test_documented_can_fail:test_the_shapes_of_parts_are_documented_and_nothing_else",
    "defaults": "tests.test_defaults_pinned:test_parity_s_convention_in_a_framework_s_place_fails_its_pin",
    "crashes": "tests.test_faults:test_a_documented_crash_runs_in_its_own_process",
    "behaviour model": "tests.test_behaviours:test_another_difference_where_the_behaviour_applies_still_fails",
    "mixed precision policy":
        "tests.test_mixed:test_a_framework_that_comes_to_round_as_torch_does_no_longer_shows_the_policy",
    "repeat": "tests.test_repeat:test_an_entry_whose_result_now_repeats_fails_so_that_it_is_removed",
    **{kind: f"tests.test_documented_can_fail:test_a_changed_value_is_no_longer_documented[{kind}]"
       for kind in VALUE_KINDS},
    **{kind: f"tests.test_documented_can_fail:test_a_changed_gradient_is_no_longer_documented[{kind}]"
       for kind in GRADIENT_KINDS},
}


def judged(tmp_path, observed, adapter, case, kind="value"):
    spec = first_spec(tmp_path, SPEC % observed, "documented.yaml")
    example = spec.examples[0]
    ctx = Context(spec, adapter, "cpu", "float64")
    values = {"a": np.array([[1.0, 2.0]]), "b": np.array([[3.0], [4.0]])}
    if kind == "gradient" and case == "case":
        return checks.example_outcome(ctx, "gradient", example, 0, values)
    if kind == "gradient":
        return checks.gradient_check(case, values, None, 0)(ctx)
    return judge.check_case(ctx, case, values, example.expect if case == "case" else None)


@pytest.mark.parametrize("kind", VALUE_KINDS)
def test_a_changed_value_is_no_longer_documented(tmp_path, kind):
    observed, _, case, documented, changed, as_expected = VALUE_KINDS[kind]
    outcome = judged(tmp_path, observed, returning(documented), case)
    assert outcome.status == "documented", outcome.message
    outcome = judged(tmp_path, observed, returning(changed), case)
    assert outcome.status in ("fail", "error"), outcome.message
    outcome = judged(tmp_path, observed, returning(lambda r: r), case)
    assert outcome.status == as_expected, outcome.message
    if as_expected == "fail":
        assert "no longer observed" in outcome.message or "behaves neither" in outcome.message, outcome.message


@pytest.mark.parametrize("kind", GRADIENT_KINDS)
def test_a_changed_gradient_is_no_longer_documented(tmp_path, kind):
    observed, documented, changed, as_expected = GRADIENT_KINDS[kind]
    case = "hypothesis" if "case: hypothesis" in observed else "case"
    outcome = judged(tmp_path, observed, scaling_gradients(documented), case, "gradient")
    assert outcome.status == "documented", outcome.message
    if changed is not None:
        outcome = judged(tmp_path, observed, scaling_gradients(changed), case, "gradient")
        assert outcome.status == "fail", outcome.message
    outcome = judged(tmp_path, observed, scaling_gradients(1), case, "gradient")
    assert outcome.status == as_expected, outcome.message


LSTM = """\
- id: parts
  op: lstm
  args: [x]
  params: {num_layers: 1, batch_first: true}
  lstm: {input_size: 2, hidden_size: 3}
  dtypes: [float64]
  examples:
    - name: case
      inputs: {x: {shape: [2, 4, 2]}}
  differences:
    - adapter: documented
      case: case
      observed: {shapes: [[2, 4, 3], [2, 3], [1, 2, 3]]}
      note: h_n without its layer axis
      source: https://example.org/documented
"""


def test_the_shapes_of_parts_are_documented_and_nothing_else(tmp_path):
    spec = first_spec(tmp_path, LSTM, "parts.yaml")

    def lstm_returning(squeeze):
        class Squeezing(ReferenceAdapter):
            name = "documented"

            def lstm(self, *args, **kwargs):
                output, h, c = super().lstm(*args, **kwargs)
                return output, squeeze(h), c
        return checks.example_outcome(Context(spec, Squeezing(), "cpu", "float64"), "value", spec.examples[0], 0)

    assert lstm_returning(lambda h: h[0]).status == "documented"
    assert lstm_returning(lambda h: h[0].T).status == "fail"  # [3, 2]: another shape
    assert lstm_returning(lambda h: h[0] + 1).status == "fail"  # the documented shapes, wrong values
    stale = lstm_returning(lambda h: h)
    assert stale.status == "fail" and "no longer observed" in stale.message, stale.message


def test_every_kind_of_documented_behaviour_has_a_test_that_a_change_fails():
    schema = json.loads((ROOT / "specs" / "schema.json").read_text())
    observed_kinds = set(schema["$defs"]["expect"]["properties"]) - {"value", "shape", "shapes", "grad"}
    # an example's expect and an entry's observed share the schema; value, shape and grad are
    # both, the rest an entry's alone
    assert observed_kinds | {"value", "shape", "shapes", "grad"} <= set(KINDS)
    for kind, test in KINDS.items():
        module, name = test.split(":")
        assert callable(getattr(importlib.import_module(module), name.split("[")[0], None)), (kind, test)

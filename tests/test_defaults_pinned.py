"""Each framework's default is pinned where a defaults spec leaves a parameter out: an adapter
that fills in Parity's convention instead (here the reference under that framework's name, which
computes the convention) fails the pinned example, where a behaviour model alone would explain
the framework's result but let the convention pass."""
import pytest

from adapters.reference import ReferenceAdapter
from suites.judging.entries import regime
from suites.loading.specs import load_path
from suites.programs.context import Context
from suites.running import items

DEFAULTS = [spec for spec in load_path("specs") if spec.id.endswith("defaults") and not spec.collective]
# the eager pins: an entry of another mode (LiteRT's exported copy of TensorFlow's) repeats one of them
PINS = [(spec, diff) for spec in DEFAULTS for diff in spec.differences
        if "case" in diff and diff.get("kind", "value") == "value" and regime(diff) == "default"
        and diff.get("mode", "eager") == "eager"]


def test_the_layout_and_axis_defaults_are_pinned():
    """The defaults that part a port most (issue 40): torch's time-major layers and normalize's axis."""
    pinned = {(spec.name, diff["adapter"]) for spec, diff in PINS}
    assert {("gru/defaults", "torch"), ("lstm/defaults", "torch"), ("attention/multihead-defaults", "torch"),
            ("normalization/normalize-defaults", "torch"), ("normalization/normalize-defaults", "tensorflow")} <= pinned


@pytest.mark.parametrize("spec, diff", PINS, ids=[f"{s.name}-{d['adapter']}-{d['case']}" for s, d in PINS])
def test_parity_s_convention_in_a_framework_s_place_fails_its_pin(spec, diff):
    convention = type("Convention", (ReferenceAdapter,), {"name": diff["adapter"]})()
    example = next(e for e in spec.examples if e.name == diff["case"])
    dtype = next(d for d in spec.dtypes if d in diff.get("dtypes", spec.dtypes))
    outcome = items.example_outcome(Context(spec, convention, "cpu", dtype), "example", example, 0)
    assert outcome.status == "fail" and "no longer observed" in outcome.message, outcome.message

"""The eager and compiled modes: ids and records carry the mode; a compiled result is judged
against the reference and against the adapter's own eager result; a wrong compiler is caught
where the eager path passes; --mode and --share choose what runs."""
import json
import pathlib
import subprocess
import sys
import types

import numpy as np

from reports.build import build
from suites.judging import compare, modes
from suites.judging.outcome import Outcome

ROOT = pathlib.Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "adapters" / "broken_compiler.py"


def pytest_run(tmp_path, *args):
    cmd = [sys.executable, "-m", "pytest", *args, "--results-dir", str(tmp_path), "--hypothesis-profile=ci",
           "-p", "no:xdist", "-p", "no:cacheprovider"]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_a_wrong_compiler_is_caught_where_eager_passes(tmp_path):
    run = pytest_run(tmp_path, "specs/elementwise.yaml", "--adapter-path", str(BROKEN), "--adapter",
                     "fast-math-compiler", "--dtype", "float32", "-k", "exp-overflow and not property")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "exp-overflow[fast-math-compiler-cpu-float32-compiled]" in run.stdout
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    by_mode = {r["mode"]: r for r in records if r["case"] == "float32-edge"}
    assert by_mode["eager"]["status"] == "pass", by_mode["eager"]["message"]
    compiled = by_mode["compiled"]
    # exp(88) = 1.65e38 is past float16's range: the half-precision pass makes it inf
    assert compiled["status"] == "fail" and compiled["message"].startswith("compiled only (eager pass)")
    assert compiled["eager"]["status"] == "pass"
    code = compiled["repro"]["fast-math-compiler"]["code"]
    assert "forward = ops.compile(" in code and "def _fast_math" in code


class FakeContext:
    """What modes.against_eager reads of a context."""

    def __init__(self, mode="compiled", unspecified=None):
        self.mode, self.result_dtype, self.judged, self.tolerance = mode, "float32", "float32", {}
        self.spec = types.SimpleNamespace(unspecified=unspecified)
        self.program = types.SimpleNamespace(tolerance_in_bound=False)  # an op's, not a model's

    @property
    def eager(self):
        return FakeContext("eager")


def compiled_outcome(values, allowed=1e-6, status="pass", difference=None, dtype=np.float32):
    comparison = compare.Comparison(status == "pass", allowed=np.full(len(values), allowed))
    return Outcome(status, "c", "judged", comparison, actual=np.array(values, dtype=dtype),
                   difference=difference)


def eager_check(values, status="pass", dtype=np.float32):
    return lambda ctx: Outcome(status, "c", "eager", actual=np.array(values, dtype=dtype))


def test_compiled_within_the_bound_of_eager_passes():
    outcome = modes.against_eager(FakeContext(), compiled_outcome([1.0, 2.0]), eager_check([1.0, 2.0 + 5e-7]))
    assert outcome.status == "pass" and outcome.eager["status"] == "pass"
    assert 0 < outcome.eager["max_abs_err"] <= 1e-6


def test_compiled_beyond_the_bound_of_eager_fails_though_each_passes_the_reference():
    outcome = modes.against_eager(FakeContext(), compiled_outcome([1.0, 2.0]), eager_check([1.0, 2.001]))
    assert outcome.status == "fail"
    assert outcome.message.startswith("compiled and eager differ beyond the bound (pass eager)")


def test_a_models_modes_agree_within_each_layers_bound_and_the_specs_tolerance():
    """A model's layers are judged on each mode's own earlier activations, which eager and
    compiled round apart: their layers may part by what those carried, within the spec's
    tolerance (the allowance of the layers without a bound); beyond it they fail."""
    model = FakeContext()
    model.program.tolerance_in_bound, model.tolerance = True, {"atol": 1e-4}
    carried = modes.against_eager(model, compiled_outcome([1.0, 2.0]), eager_check([1.0, 2.0 + 5e-5]))
    assert carried.status == "pass", carried.message
    beyond = modes.against_eager(model, compiled_outcome([1.0, 2.0]), eager_check([1.0, 2.0 + 5e-4]))
    assert beyond.status == "fail" and beyond.message.startswith("compiled and eager differ beyond the bound")


def test_the_two_neighbours_of_the_exact_value_agree_where_the_bound_is_under_one_ulp():
    """jax's compiled and eager float32 Adagrad step (a case hypothesis found): 1 ulp apart, each
    within 2.71e-8 of the reference, a bound under float32's spacing there (2.98e-8)."""
    eager, compiled = np.float32(0.29356855154037476), np.float32(0.29356852173805237)
    assert np.nextafter(eager, np.float32(0)) == compiled
    outcome = modes.against_eager(FakeContext(), compiled_outcome([compiled], allowed=2.71e-8), eager_check([eager]))
    assert outcome.status == "pass"
    two_ulps = np.nextafter(compiled, np.float32(0))
    outcome = modes.against_eager(FakeContext(), compiled_outcome([two_ulps], allowed=2.71e-8), eager_check([eager]))
    assert outcome.status == "fail"
    cast = FakeContext()  # a cast from int64 to float32: the spacing is the result's
    cast.judged = "int64"
    assert modes.against_eager(cast, compiled_outcome([2.0**24], allowed=0.0), eager_check([2.0**24])).status == "pass"
    # keras-jax's exported int64 true division (float64), a neighbour of its eager result: compared
    # in float64 within its ulp, not exactly as int64 (a case hypothesis found)
    division = FakeContext()
    division.judged, division.result_dtype = "int64", "float64"
    eager, exported = 0.1764705882352941, 0.17647058823529413
    assert np.nextafter(eager, 1.0) == exported
    outcome = modes.against_eager(division, compiled_outcome([exported], allowed=0.0, dtype=np.float64),
                                  eager_check([eager], dtype=np.float64))
    assert outcome.status == "pass", outcome.message


def test_modes_may_choose_differently_where_the_spec_leaves_the_values_unspecified():
    """LiteRT's exported scatter of writes 1 and 0 to one index (CI at 237): 1, TensorFlow's eager
    0; scatter-duplicates leaves which write lands unspecified, and each passed its properties."""
    chosen = FakeContext(unspecified="which of several writes to one index wins")
    assert modes.against_eager(chosen, compiled_outcome([1.0]), eager_check([0.0])).status == "pass"
    assert modes.against_eager(FakeContext(), compiled_outcome([1.0]), eager_check([0.0])).status == "fail"
    shapes = modes.against_eager(chosen, compiled_outcome([1.0]), eager_check([0.0, 1.0]))
    assert shapes.status == "fail" and "shapes differ" in shapes.message


def test_a_compiled_failure_says_whether_eager_passes():
    outcome = modes.against_eager(FakeContext(), compiled_outcome([1.0], status="fail"), eager_check([1.0]))
    assert outcome.status == "fail" and outcome.message.startswith("compiled only (eager pass): judged")


def test_a_documented_compile_only_difference_stands_and_eager_is_not_rerun_eagerly():
    documented = compiled_outcome([5.0], status="documented", difference={"mode": "compiled"})
    assert modes.against_eager(FakeContext(), documented, eager_check([1.0])).status == "documented"

    def never(ctx):
        raise AssertionError("an eager outcome is not run again")

    eager = compiled_outcome([1.0])
    assert modes.against_eager(FakeContext("eager"), eager, never) is eager


def test_a_compiled_pass_stands_where_eager_differs_as_documented():
    """torch's eager gelu(inf) is NaN on oneDNN (documented); compiled, inf agrees with the reference."""
    outcome = modes.against_eager(FakeContext(), compiled_outcome([np.inf]), eager_check([np.nan], "documented"))
    assert outcome.status == "pass" and outcome.eager["status"] == "documented"
    # TF's max_pool of a NaN window, documented as differing: -65504 eager, -inf compiled
    both = compiled_outcome([-np.inf], status="documented", difference={"observed": {"differs": True}})
    assert modes.against_eager(FakeContext(), both, eager_check([-65504.0], "documented")).status == "documented"


def test_a_mode_documented_to_differ_may_part_from_eager_beyond_the_bound():
    """torch's ONNX export of logaddexp is Log(Exp + Exp), documented to differ on generated cases
    (specs/math.yaml; CI's rehearsal at seed 324): at (-0.875, -0.59375) in float32 the export and
    eager torch are each within the reference's 1.49e-8 of -0.0313725421 (on either side of it)
    but 1.86e-8 apart. The entry of that mode explains the disagreement; one of every mode, or
    one that documents something else, does not."""
    def exported():
        return compiled_outcome([-0.03137252852320671], allowed=1.49e-8)
    eager = eager_check([-0.0313725471496582])
    onnx = {"mode": "exported", "observed": {"differs": True}, "note": "Log(Exp + Exp)", "source": "onnxscript"}
    outcome = modes.against_eager(FakeContext("exported"), exported(), eager, onnx)
    assert outcome.status == "documented" and "exported and eager differ beyond the bound" in outcome.message
    assert outcome.difference["mode"] == "exported" and outcome.eager["status"] == "pass"
    assert outcome.actual is not None
    for other in ({**onnx, "mode": "compiled"}, {k: v for k, v in onnx.items() if k != "mode"},
                  {**onnx, "observed": {"raises": True}}, None):
        assert modes.against_eager(FakeContext("exported"), exported(), eager, other).status == "fail", other


def test_ids_records_and_the_mode_option(tmp_path):
    run = pytest_run(tmp_path, "specs/matmul.yaml", "--adapter", "engine,torch", "--mode", "eager", "--dtype",
                     "float64", "-k", "vector-x-vector", "-v")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "vector-x-vector[torch-cpu-float64-eager] PASSED" in run.stdout
    assert "vector-x-vector[engine-cpu-float64-eager] PASSED" in run.stdout and "-compiled]" not in run.stdout
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert {r["mode"] for r in records} == {"eager"}
    bad = pytest_run(tmp_path, "specs/matmul.yaml", "--mode", "jit")
    assert bad.returncode == 2
    assert "--mode takes eager, compiled, mixed, exported. Received: 'jit'" in bad.stdout + bad.stderr


def collected(tmp_path, *args) -> list:
    run = pytest_run(tmp_path, "specs/matmul.yaml", "specs/ste.yaml", "--adapter", "engine,torch", "--collect-only",
                     "-q", *args)
    assert run.returncode == 0, run.stdout + run.stderr
    return [line for line in run.stdout.splitlines() if "::" in line]


def test_share_keeps_the_eager_examples_and_a_share_of_each_area_adapter_and_mode(tmp_path):
    everything = collected(tmp_path)
    shared = collected(tmp_path, "--share", "0.2")
    assert shared == collected(tmp_path, "--share", "0.2")  # the same seed keeps the same items
    examples = [i for i in everything if "/" not in i.split("::")[1] and i.endswith("-eager]")]
    assert set(examples) <= set(shared) and len(shared) < len(everything)
    # the examples' gradients always run too; the generated cases' gradients are in the share
    gradients = [i for i in everything if "/gradient[" in i and i.endswith("-eager]")]
    assert gradients and set(gradients) <= set(shared)
    generated = [i for i in everything if "/gradient-property[" in i]
    assert generated and not set(generated) <= set(shared)
    for area in ("matmul", "ste"):
        assert any(f"specs/{area}.yaml" in i and i.endswith("-compiled]") for i in shared)
        assert any(f"specs/{area}.yaml" in i and ("/property[torch" in i or "/gradient[torch" in i) for i in shared)
    assert not any(i.startswith("specs/") and "engine" in i and i.endswith("-compiled]") for i in everything)
    bad = pytest_run(tmp_path, "specs/matmul.yaml", "--share", "0")
    assert bad.returncode == 2 and "--share takes a share 0 < F <= 1. Received: 0" in bad.stdout + bad.stderr


def test_successive_seeds_share_out_every_item_once(tmp_path):
    """With --share 0.25 four successive seeds (the ci profile's: commits) keep each item that
    is drawn exactly once: a failure reproduces with its seed, and CI sees everything in turn."""
    everything = set(collected(tmp_path))
    always = set(collected(tmp_path, "--share", "0.25", "--hypothesis-seed", "0")) & set(
        collected(tmp_path, "--share", "0.25", "--hypothesis-seed", "1"))
    drawn = [set(collected(tmp_path, "--share", "0.25", "--hypothesis-seed", str(seed))) - always
             for seed in (7, 8, 9, 10)]
    assert set.union(*drawn) == everything - always
    assert sum(map(len, drawn)) == len(everything - always)  # no item twice


def test_share_keeps_every_item_a_documented_difference_names(tmp_path):
    """A documented difference never leaves a published report because of the share: the item
    whose case it names (here a generated one, compiled only) runs whatever the share."""
    specs = "".join(f"""
- id: tanh-{k}
  op: tanh
  args: [x]
  dtypes: [float32]
  examples:
    - name: small
      inputs: {{x: {{shape: [3]}}}}
  hypothesis: {{signature: "(n)->(n)"}}
""" for k in range(12))
    specs += """  differences:
    - adapter: torch
      case: hypothesis
      mode: compiled
      observed: {differs: true}
      note: a note
      source: https://example.org/a-source
"""
    (tmp_path / "tanh.yaml").write_text(specs)
    run = pytest_run(tmp_path, "suites", "--spec", str(tmp_path / "tanh.yaml"), "--adapter", "torch", "--collect-only",
                     "-q", "--share", "0.01")
    assert run.returncode == 0, run.stdout + run.stderr
    ids = [line for line in run.stdout.splitlines() if "::" in line]
    compiled = [i for i in ids if i.startswith("suites/test_specs.py::") and i.endswith("-compiled]")]
    assert "suites/test_specs.py::tanh/tanh-11/property[torch-cpu-float32-compiled]" in compiled
    assert len(compiled) == 2, compiled  # that item, and the one the share draws from the other 23


def test_report_lists_compile_only_differences(tmp_path):
    base = {"spec": "elementwise/exp-overflow", "case": "float32-edge", "kind": "example", "adapter": "torch",
            "device": "cpu", "dtype": "float32"}
    (tmp_path / "r.jsonl").write_text("\n".join(json.dumps(r) for r in [
        {**base, "mode": "eager", "status": "pass", "message": "ok"},
        {**base, "mode": "compiled", "status": "fail", "message": "compiled only (eager pass): inf positions differ"},
        {**base, "case": "overflow", "mode": "compiled", "status": "pass", "message": "ok"},
    ]) + "\n")
    page = build([tmp_path], tmp_path / "out").read_text()
    section = page[page.index('id="compile-only"'):page.index('id="models"')]
    assert "float32-edge" in section and "compiled only (eager pass): inf positions differ" in section
    assert "<td>overflow</td>" not in section  # a compiled pass with no eager record to differ from
    assert ">torch compiled<" in page  # the matrix's adapter x mode column


def test_a_compiled_gradient_agrees_with_eager_within_each_input_s_own_bound():
    """A gradient check compares each input's gradient within that input's bound; the outcome's
    comparison is the worst input's. Its agreement with the eager gradient holds d/dx to d/dx's
    bound: with d/dy's smaller one alone, TensorFlow's compiled elementwise-chain gradient failed
    against an eager d/dx that differed by 1.6e-6 (each within d/dx's bound of the reference)."""
    from suites.judging import gradcheck

    d_dx = compare.compare(np.array([1.0]), np.array([1.0000001], np.float32), "float32", np.array([3e-6]))
    d_dy = compare.compare(np.array([-0.1419254]), np.array([-0.1419253], np.float32), "float32", np.array([8e-7]))
    worst = gradcheck._worst([d_dx, d_dy])
    assert worst is d_dy and worst.ok  # the larger relative error: d/dy's
    compiled = Outcome("pass", "c", "judged", worst, actual=np.array([1.0000001, -0.1419253], np.float32))
    outcome = modes.against_eager(FakeContext(), compiled, eager_check([1.0000017, -0.1419250]))
    assert outcome.status == "pass", outcome.message
    beyond = Outcome("pass", "c", "judged", worst, actual=np.array([1.0000001, -0.1419253], np.float32))
    assert modes.against_eager(FakeContext(), beyond, eager_check([1.0000061, -0.1419250])).status == "fail"


def test_compiled_and_eager_agree_within_a_documented_narrower_precision():
    """JAX's float64 attention takes its softmax in float32 (documented: precision float32). At
    the transformer's parameters after one Adam step, its compiled and eager float64 gradients
    along one direction were 0.03979476122161728 and 0.03979476271914767: each within the gradient
    check's finite-difference bound of the reference (9.43e-10), 1.5e-9 apart, a float32 ulp of
    the value. Judged in float64 alone that is a compiler changing values; in the documented
    float32, the two roundings agree."""
    ctx = FakeContext()
    ctx.result_dtype = ctx.judged = "float64"

    def compiled():
        return Outcome("pass", "c", "judged", compare.Comparison(True, allowed=np.array([9.43e-10])),
                       actual=np.array([0.03979476122161728]))

    def eager(value):
        return lambda ctx: Outcome("pass", "c", "eager", actual=np.array([value]))

    assert modes.against_eager(ctx, compiled(), eager(0.03979476271914767)).status == "fail"
    narrower = {"observed": {"precision": "float32"}}
    assert modes.against_eager(ctx, compiled(), eager(0.03979476271914767), narrower).status == "pass"
    assert modes.against_eager(ctx, compiled(), eager(0.0397951), narrower).status == "fail"


def test_a_compiled_item_compiles_whatever_ran_before_it(tmp_path):
    """torch.compile keeps at most 8 graphs per code object and runs the frame eagerly past that.
    Where an op breaks the graph, the frames above it are Parity's own (Context.evaluate and what
    it calls), run by every item of the process: ten compiled items of five ranks and two dtypes
    overflowed them, and the last two ran eagerly, their wrong compiler unseen (they passed).
    Each compiled item starts from a fresh compiler (Adapter.fresh_compiler)."""
    specs = "".join(f"""
- id: exp-rank-{rank}
  doc: exp(88) = 1.6516362549940018e38, past float16's range
  source: https://en.cppreference.com/w/c/numeric/math/exp
  expr: "exp(x)"
  args: [x]
  dtypes: [float32, float64]
  examples:
    - name: edge
      inputs: {{x: {{values: {nested(88.0, rank)}}}}}
      expect: {{value: {nested(1.6516362549940018e38, rank)}}}
""" for rank in range(1, 6))
    (tmp_path / "exp.yaml").write_text(specs)
    run = pytest_run(tmp_path, "suites", "--spec", str(tmp_path / "exp.yaml"), "--adapter-path", str(BROKEN),
                     "--adapter", "graph-breaking-fast-math", "--mode", "compiled")
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert len(records) == 10, run.stdout + run.stderr
    assert [r["spec"] for r in records if not r["message"].startswith("compiled only (eager pass)")] == []


def nested(value, rank: int):
    return value if rank == 0 else [nested(value, rank - 1)]

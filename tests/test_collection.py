"""Spec files are pytest's own test files, and every item they yield leaves a record.

An item that checks nothing (its examples all run in other dtypes, and the spec generates no
cases) is an error record, never a silent pass: the LSTM with-state gradients were once such."""
import json
import os
import pathlib
import subprocess
import sys
import textwrap

from _pytest.mark import MARK_GEN as mark  # this module's own `pytest` runs the suites

ROOT = pathlib.Path(__file__).resolve().parent.parent


def pytest(*args, cwd=ROOT):
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--hypothesis-profile=ci", "--mode", "eager",
           *args]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=900)


def records(folder) -> list:
    return [json.loads(line) for f in pathlib.Path(folder).glob("*.jsonl") for line in f.read_text().splitlines()]


def test_a_spec_file_is_a_test_file_and_its_ids_name_it():
    run = pytest("specs/matmul.yaml", "--adapter", "reference", "--collect-only", "-q")
    assert run.returncode == 0, run.stdout + run.stderr
    ids = [line for line in run.stdout.splitlines() if "::" in line]
    assert "specs/matmul.yaml::batched-x-broadcast-vector[reference-cpu-float32-eager]" in ids
    assert "specs/matmul.yaml::broadcast-shapes/property[reference-cpu-float32-eager]" in ids
    assert all(i.startswith("specs/matmul.yaml::") for i in ids)


def test_collection_says_how_far_it_is_file_by_file_with_xdist_too():
    """Tried as a new user would: `tox -e report` showed nothing for 12 minutes while its workers
    collected. Each spec file collected is a line on stderr, the first worker's under xdist."""
    for extra in (["-p", "no:xdist"], ["-n", "2"]):
        run = pytest("specs/matmul.yaml", "specs/ste.yaml", "--adapter", "reference", "--collect-only", "-q", *extra)
        assert run.returncode == 0, run.stdout + run.stderr
        said = [line.split(" (")[0] + " (" + line.split(" (")[1].split(",")[0] for line in run.stderr.splitlines()
                if line.startswith("parity: collected")]
        assert said == ["parity: collected matmul.yaml (1 of 2 spec files",
                        "parity: collected ste.yaml (2 of 2 spec files"]


def test_a_run_says_every_minute_how_many_items_are_done_and_about_how_long_is_left():
    """The items' progress, with the time so far and to go (PARITY_PROGRESS_EVERY=0: a line each); the
    pace is the items', collection left out, so the first item ended gives none (a run of every spec
    said "1 of 10,913 items, 1.7 min so far, about 19038.0 min to go")."""
    for extra in (["-p", "no:xdist"], ["-n", "2"]):
        cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--hypothesis-profile=ci", "specs/ste.yaml",
               "--adapter", "reference", "-k", "not repeat and not property", *extra]
        run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300,
                             env={**os.environ, "PARITY_PROGRESS_EVERY": "0"})
        assert run.returncode == 0, run.stdout + run.stderr
        lines = [line for line in run.stdout.splitlines() if line.startswith("parity: ") and " items, " in line]
        assert lines[0].startswith("parity: 1 of 8 items, ") and "to go" not in lines[0], run.stdout
        assert lines[-1].startswith("parity: 8 of 8 items, ") and lines[-1].endswith(
            "min so far, about 0.0 min to go at this pace"), run.stdout


@mark.apart  # about 100 s: in test-apart (tox.ini)
def test_every_collected_item_writes_a_record_and_checks_something(tmp_path):
    collected = pytest("specs", "--adapter", "reference", "--collect-only", "-q")
    ids = {line for line in collected.stdout.splitlines() if "::" in line}
    assert len(ids) > 500, collected.stdout[-2000:]
    run = pytest("specs", "--adapter", "reference", "-n", "2", "--results-dir", str(tmp_path))
    assert run.returncode == 0, run.stdout[-3000:]
    found = records(tmp_path)
    assert ids == {r["test"] for r in found}  # every item, and nothing else, wrote a record
    assert not [r["test"] for r in found if r["message"].startswith("checks nothing")]


def test_an_item_that_checks_nothing_is_an_error(tmp_path):
    spec = tmp_path / "nothing.yaml"
    spec.write_text(textwrap.dedent("""\
        - id: values-in-float32-only
          op: tanh
          args: [x]
          dtypes: [float32]
          examples:
            - name: small
              inputs: {x: {shape: [3]}}
          gradient: {wrt: [x], dtypes: [float64]}
        """))
    run = pytest("suites", "--spec", str(spec), "--adapter", "engine", "--results-dir", str(tmp_path / "out"), "-p",
                 "no:xdist")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "values-in-float32-only/gradient[engine-cpu-float64-eager]" in run.stdout
    assert "checks nothing: no example of nothing/values-in-float32-only runs in float64" in run.stdout
    [gradient] = [r for r in records(tmp_path / "out") if r["kind"] == "gradient"]
    assert gradient["status"] == "error"


def test_an_adapter_without_gradients_collects_no_gradient_items():
    """The reference is the finite-difference oracle (differentiates = False): no gradient or
    training item of its own, where the engine has them."""
    run = pytest("specs/matmul.yaml", "specs/models.yaml", "--adapter", "reference,engine", "--collect-only", "-q")
    items = [line for line in run.stdout.splitlines() if "::" in line]
    assert any("/gradient[engine-" in i for i in items) and any("/training[engine-" in i for i in items)
    assert not [i for i in items if "[reference-" in i and ("/gradient[" in i or "/training[" in i)]
    assert any("[reference-" in i for i in items)


def test_every_example_runs_in_every_dtype_it_names():
    """No example is left out by collection: its value runs in each dtype it names (else the
    spec's), on every adapter, and its gradient in each float one the spec's gradient allows (its
    own `dtypes`, else the spec's and the example's; none where it says `examples: false`: the
    standard's special cases in specs/math.yaml). The layer-norm examples in float64, float16
    and bfloat16 once never ran: the spec runs float32 only."""
    from suites.loading.specs import load_path

    run = pytest("specs", "--adapter", "reference,engine", "--collect-only", "-q")
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr
    ids = {line for line in run.stdout.splitlines() if "::" in line}
    missing = []
    for spec in load_path(ROOT / "specs"):
        node = f"specs/{spec.area}.yaml::{spec.id}"
        for example in spec.examples:
            for dtype in example.dtypes or spec.dtypes:
                if f"{node}[reference-cpu-{dtype}-eager]" not in ids:
                    missing.append(f"{node} {example.name} value {dtype}")
                allowed = spec.gradient and spec.gradient.get("examples") is not False and (
                    spec.gradient.get("dtypes") or {*spec.dtypes, *(example.dtypes or ())})
                differentiated = dtype.startswith(("float", "bfloat")) and not example.expect.get("raises")
                if allowed and dtype in allowed and differentiated and f"{node}/gradient[engine-cpu-{dtype}-eager]" \
                        not in ids and (example.grad or _finite(spec, example, dtype)):
                    missing.append(f"{node} {example.name} gradient {dtype}")
    assert not missing, missing
    assert "specs/normalization.yaml::layer-norm-docs[reference-cpu-float16-eager]" in ids


def _finite(spec, example, dtype) -> bool:
    import numpy as np

    from suites.programs import inputs

    return all(np.isfinite(v).all() for v in inputs.example(spec, example, dtype).values() if v.dtype.kind == "f")


def test_the_examples_gradients_and_the_generated_ones_are_items_of_their_own(tmp_path):
    """One item checks the explicit examples' gradients, another the generated cases', so that
    --share, which draws among generated checks, never drops a documented gradient."""
    run = pytest("specs/autograd.yaml", "--adapter", "engine", "--collect-only", "-q", "-k", "sigmoid-docs")
    ids = [line for line in run.stdout.splitlines() if "::" in line]
    assert "specs/autograd.yaml::sigmoid-docs/gradient[engine-cpu-float32-eager]" in ids
    assert "specs/autograd.yaml::sigmoid-docs/gradient-property[engine-cpu-float32-eager]" in ids
    run = pytest("specs/autograd.yaml", "--adapter", "engine", "-k", "sigmoid-docs and gradient", "--results-dir",
                 str(tmp_path), "-p", "no:xdist")
    assert run.returncode == 0, run.stdout[-2000:]
    cases = {(r["test"].split("::")[1].split("[")[0], r["case"]) for r in records(tmp_path) if r["dtype"] == "float32"}
    assert cases == {("sigmoid-docs/gradient", "docs"), ("sigmoid-docs/gradient-property", "hypothesis")}

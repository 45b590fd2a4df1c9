"""Spec files are pytest's own test files, and every item they yield leaves a record.

An item that checks nothing (its examples all run in other dtypes, and the spec generates no
cases) is an error record, never a silent pass: the LSTM with-state gradients were once such."""
import json
import pathlib
import subprocess
import sys
import textwrap

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

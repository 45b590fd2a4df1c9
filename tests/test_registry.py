"""The adapter registry: built-ins, local files, unknown names."""
import pathlib

import pytest

import adapters

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_builtins_are_registered():
    assert {"reference", "torch", "jax", "tensorflow"} <= set(adapters.names())
    assert "reference" in adapters.installed()


def test_unknown_name_says_what_exists():
    with pytest.raises(adapters.AdapterError, match="unknown adapter 'tourch'; known adapters: reference"):
        adapters.get("tourch")


def test_load_path_registers_classes_defined_in_the_file_only():
    names = adapters.load_path(ROOT / "tests" / "adapters" / "broken_matmul.py")
    assert names == ["broken-matmul"]
    assert adapters.get("broken-matmul").name == "broken-matmul"


def test_load_path_errors(tmp_path):
    with pytest.raises(adapters.AdapterError, match="no such file"):
        adapters.load_path(tmp_path / "missing.py")
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    with pytest.raises(adapters.AdapterError, match="defines no Adapter subclass"):
        adapters.load_path(empty)


def test_missing_framework_is_an_error_with_the_install_hint(monkeypatch):
    class Absent(adapters.Adapter):
        name = "absent"
        module = "no_such_framework_here"

    adapters.register(Absent)
    with pytest.raises(adapters.AdapterError, match="needs no_such_framework_here, which is not installed"):
        adapters.get("absent")


def test_every_vocabulary_op_defaults_to_unsupported():
    base = adapters.Adapter()
    for op in adapters.base.OPS:
        assert hasattr(base, op)
    with pytest.raises(adapters.Unsupported, match="does not implement matmul"):
        base.matmul(None, None)


@pytest.mark.parametrize("option, message", [
    (["--adapter", "tourch"], "unknown adapter 'tourch'; known adapters: reference"),
    (["--device", "tpu"], "--device takes cpu, cuda, gpu. Received: 'tpu'"),
    (["--dtype", "float8"], "--dtype takes float16, bfloat16"),
    (["--adapter-path", "tests/adapters/absent_framework.py", "--adapter", "absent-framework"],
     "adapter 'absent-framework' needs no_such_framework_here, which is not installed (install "
     "no_such_framework_here; or leave it out of --adapter)"),
    (["--case-timeout", "-1"], "--case-timeout takes seconds >= 0"),
])
def test_bad_command_line_options_exit_2_with_one_line(option, message):
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "pytest", "suites", "--collect-only", "-q", *option], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert message in run.stdout + run.stderr and "Traceback" not in run.stdout + run.stderr


def test_gpu_requested_where_there_is_none_skips_saying_what_to_do(tmp_path):
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "pytest", "suites", "-p", "no:xdist", "-rs", "--adapter", "reference",
                          "--device", "cuda", "-k", "matmul/vector-x-vector[", "--results-dir", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no GPU visible to reference (its devices: cpu); run with --device cpu" in run.stdout


def test_a_name_already_registered_is_a_one_line_error_and_replaces_nothing(tmp_path):
    """A helper class derived from a built-in inherits its `name`: registering it would replace
    the built-in (and give it the built-in's shipped differences). The file is refused whole."""
    clash = tmp_path / "clash.py"
    clash.write_text("from adapters.reference import ReferenceAdapter\n"
                     "class Mine(ReferenceAdapter):\n    name = 'mine-ok'\n"
                     "class Helper(ReferenceAdapter):\n    pass\n")
    clashing = (r"Helper's name 'reference' is already ReferenceAdapter's \(.*adapters/reference/__init__.py\); "
                r"give Helper a `name` of its own")
    with pytest.raises(adapters.AdapterError, match=clashing):
        adapters.load_path(clash)
    assert type(adapters.get("reference")).__module__ == "adapters.reference"
    assert "mine-ok" not in adapters.names()
    twice = tmp_path / "twice.py"
    twice.write_text("from adapters.engine import EngineAdapter\n"
                     "class A(EngineAdapter):\n    name = 'twice'\n"
                     "class B(EngineAdapter):\n    name = 'twice'\n")
    with pytest.raises(adapters.AdapterError, match="B's name 'twice' is already A's"):
        adapters.load_path(twice)


def test_the_same_file_loads_twice():
    path = ROOT / "tests" / "adapters" / "broken_matmul.py"
    assert adapters.load_path(path) == adapters.load_path(path) == ["broken-matmul"]


@pytest.mark.skipif(not {"paddle", "tensorflow"} <= set(adapters.installed()), reason="needs paddle and tensorflow")
def test_paddle_runs_beside_tensorflow_in_one_process(tmp_path):
    """PaddlePaddle dies when it runs after TensorFlow was imported (adapters/paddle/repro/
    import_after_tensorflow.py): a run that selects paddle imports it first, so both run, in
    the order asked for, in one process."""
    import json
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "pytest", "specs/autograd.yaml", "--adapter", "tensorflow,paddle", "--mode", "eager",
           "--dtype", "float32", "-k", "sum-docs and not gradient", "--results-dir", str(tmp_path), "-q",
           "-p", "no:cacheprovider", "-p", "no:xdist"]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert {(r["adapter"], r["status"]) for r in records} == {("tensorflow", "pass"), ("paddle", "pass")}

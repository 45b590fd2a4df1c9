"""An adapter that refuses some generated inputs keeps the rest of its hypothesis item; one that
refuses every input leaves the item unsupported."""
import json
import pathlib

from tests.test_wrong_adapter import run_suite

REFUSING = pathlib.Path(__file__).resolve().parent / "adapters" / "refusing.py"


def records(tmp_path) -> list:
    return [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]


def test_refused_examples_are_replaced_by_others(tmp_path):
    run = run_suite(tmp_path, "--dtype", "float32", "-k", "matmul/broadcast-shapes/property", path=REFUSING,
                    adapter="refuses-vectors")
    assert run.returncode == 0, run.stdout + run.stderr
    [record] = records(tmp_path)
    assert record["status"] == "pass", record["message"]
    assert "refused as unsupported (a vector left operand is refused)" in record["message"]
    assert int(record["message"].split(" examples")[0]) >= 1  # the examples checked


def test_an_op_refused_for_every_input_is_unsupported(tmp_path):
    run = run_suite(tmp_path, "--dtype", "float32", "-k", "matmul/broadcast-shapes/property", "-rs",
                    path=REFUSING, adapter="refuses-matmul")
    assert run.returncode == 0, run.stdout + run.stderr
    [record] = records(tmp_path)
    assert record["status"] == "unsupported" and record["message"] == "no matmul here"
    assert "unsupported: no matmul here" in run.stdout

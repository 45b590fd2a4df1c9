"""What a run costs: the table by adapter, kind and mode that ends every run and shows in the
report, and `python -m suites estimate`, which scales an earlier run's durations to another run."""
import json
import pathlib
import subprocess
import sys

from reports import cost

ROOT = pathlib.Path(__file__).resolve().parent.parent


def rec(test, adapter, kind, mode, duration, case="c"):
    return {"test": test, "adapter": adapter, "kind": kind, "mode": mode, "duration": duration, "case": case}


def test_an_items_outcomes_add_up_and_groups_are_adapter_kind_and_mode():
    records = [rec("a", "torch", "gradient", "compiled", 3.0), rec("a", "torch", "gradient", "compiled", 3.0),
               rec("b", "torch", "gradient", "compiled", 2.0),
               rec("c", "torch", "gradient", "compiled", 10.0, case="hypothesis"),
               rec("d", "jax", "example", None, 1.0), {"adapter": "jax", "kind": "example", "duration": None}]
    rows = cost.table(cost.item_seconds(records))
    by = {(r["adapter"], r["kind"], r["mode"]): r for r in rows}
    assert set(by) == {("torch", "gradient", "compiled"), ("torch", "gradient-property", "compiled"),
                       ("jax", "example", "eager")}  # a record before modes ran eagerly; no duration: no item
    examples = by["torch", "gradient", "compiled"]
    assert (examples["items"], examples["seconds"], examples["median"]) == (2, 8.0, 4.0)
    assert abs(sum(r["share"] for r in rows) - 1) < 1e-12 and by["torch", "gradient-property", "compiled"][
        "share"] == 10 / 19
    assert [r["kind"] for r in rows][0] == "gradient-property"  # the costliest first
    text = cost.lines(rows, "title")
    assert text[0] == "title" and text[-1].split()[:3] == ["all", "4", "19.0"]


def test_the_run_ends_with_its_cost_and_the_estimate_scales_it(tmp_path):
    run = subprocess.run([sys.executable, "-m", "pytest", "specs/matmul.yaml", "--adapter", "reference", "--mode",
                          "eager", "-k", "vector-x-vector or mm-docs", "--results-dir", str(tmp_path), "-p",
                          "no:cacheprovider", "-p", "no:xdist"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "parity: cost of this run by adapter, kind and mode" in run.stdout
    assert any(line.split()[:3] == ["reference", "example", "eager"] for line in run.stdout.splitlines())
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    # one float32 example's time is known: every other reference example of matmul is estimated at it
    one = next(r for r in records if r["dtype"] == "float32" and r["kind"] == "example")
    (tmp_path / "one.jsonl").write_text(json.dumps({**one, "duration": 2.0}) + "\n")
    estimate = subprocess.run([sys.executable, "-m", "suites", "estimate", str(tmp_path / "one.jsonl"), "--workers",
                               "4", "--", "specs/matmul.yaml", "--adapter", "reference", "--mode", "eager",
                               "--dtype", "float32"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert estimate.returncode == 0, estimate.stdout + estimate.stderr
    lines = estimate.stdout.splitlines()
    example = next(line.split() for line in lines if line.split()[:3] == ["reference", "example", "eager"])
    items = int(example[3])
    assert items > 5 and float(example[4]) == 2.0 * items  # each unrecorded item at its group's mean
    assert f"1 of {items + int(next(line.split()[3] for line in lines if line.startswith('reference  property')))}" \
        in lines[0]
    bad = subprocess.run([sys.executable, "-m", "suites", "estimate", str(tmp_path / "nothing")], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and bad.stderr.strip().endswith("no such results folder or file: " +
                                                               str(tmp_path / "nothing"))

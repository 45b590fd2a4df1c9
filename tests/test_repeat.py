"""The repeat check (suites/running/repeat.py, docs/determinism.md): a result that is right within
every bound but not bitwise repeatable is caught under the condition that shows it, and named;
one the spec documents is documented, as nondeterministic; an entry whose result repeats fails,
so that it is removed."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from suites.judging import differences
from suites.judging.outcome import Outcome
from suites.loading.specs import load_file
from suites.loading.yamlfile import SpecError
from suites.programs.context import Context
from suites.running import repeat

ROOT = pathlib.Path(__file__).resolve().parent.parent
RACING = ROOT / "tests" / "adapters" / "racing.py"
SPEC = ROOT / "tests" / "specs" / "matmul-at-a-size.yaml"


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> dict:
    """(spec id, adapter, condition) -> the record of racing.py's adapters' repeat items."""
    folder = tmp_path_factory.mktemp("repeat")
    cmd = [sys.executable, "-m", "pytest", str(SPEC), "-k", "repeat and not documented",
           "--adapter-path", str(RACING), "--adapter", "racing-matmul,thread-split-matmul", "--share", "1",
           "--results-dir", str(folder), "-p", "no:xdist", "-p", "no:cacheprovider"]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 1, run.stdout + run.stderr  # the undocumented ones fail the run
    lines = (folder / "results.jsonl").read_text().splitlines()
    return {(r["spec"].split("/")[-1], r["adapter"], r["case"]): r for r in map(json.loads, lines)}


def test_a_matmul_that_adds_in_a_new_order_each_call_fails_the_repeat_in_one_process(records):
    racing = records["matmul-at-a-size", "racing-matmul", "repeat"]
    assert racing["status"] == "fail", racing["message"]
    assert "not bitwise repeatable (forward pass, call 2 in this process)" in racing["message"], racing["message"]
    assert "elements differ bitwise" in racing["message"] and racing["max_abs_err"] > 0


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one usable CPU: no other thread count to compare")
def test_a_matmul_split_by_the_cpu_count_repeats_on_one_machine_and_fails_on_one_cpu(records):
    statuses = {c: records["matmul-at-a-size", "thread-split-matmul", c]["status"] for c in repeat.CONDITIONS}
    assert statuses == {"repeat": "pass", "process": "pass", "switch": "pass", "threads": "fail"}, statuses
    threads = records["matmul-at-a-size", "thread-split-matmul", "threads"]["message"]
    assert "in a fresh process on 1 CPU" in threads and "result: " in threads, threads


def test_a_documented_nondeterminism_is_documented_under_its_condition_only():
    import adapters

    adapters.load_path(RACING)
    spec = next(s for s in load_file(SPEC) if s.id == "matmul-at-a-size-documented")
    ctx = Context(spec, adapters.get("racing-matmul"), "cpu", "float32", "eager")
    first, other = np.float32([1.0, 2.0]), np.float32([1.0, 2.0000002])
    runs = {"forward": [[("result", first)], [("result", other)]]}
    documented = repeat.judged(ctx, "repeat", runs, {"forward": runs["forward"][1:]})
    assert documented.status == "documented", documented.message
    assert documented.difference["regime"] == "nondeterministic"
    assert "1 of 2 elements differ bitwise" in documented.message
    assert repeat.judged(ctx, "process", runs, {"forward": runs["forward"][1:]}).status == "fail"


def test_an_entry_whose_result_now_repeats_fails_so_that_it_is_removed():
    entry = {"observed": {"differs": True}, "note": "adds in a racing order", "source": "https://example.org"}
    outcome = differences.repeat(Outcome("pass", "repeat", "bitwise equal"), entry)
    assert outcome.status == "fail" and "no longer observed" in outcome.message
    sometimes = {**entry, "observed": {"one_of": [{"as_expected": True}, {"differs": True}]}}
    assert differences.repeat(Outcome("pass", "repeat", "bitwise equal"), sometimes).status == "pass"


def test_bitwise_tells_minus_zero_and_nan_payloads_apart():
    zero, nan = np.array([0.0], np.float32), np.array([np.nan], np.float32)
    assert not repeat.bitwise([("x", zero)], [("x", -zero)]).ok
    assert repeat.bitwise([("x", zero)], [("x", zero.copy())]).ok
    other_nan = nan.view(np.uint32) | np.uint32(1)
    assert not repeat.bitwise([("x", nan)], [("x", other_nan.view(np.float32))]).ok


def test_a_repeat_entry_names_its_condition(tmp_path):
    from suites.loading.spec_differences import check_repeat

    with pytest.raises(SpecError, match="names its condition, one of"):
        check_repeat({"kind": "repeat", "case": "by-hand", "observed": {"differs": True}}, lambda *k: "spec.yaml:3")
    with pytest.raises(SpecError, match="observes differs"):
        check_repeat({"kind": "repeat", "case": "threads", "observed": {"value": [1]}}, lambda *k: "spec.yaml:3")

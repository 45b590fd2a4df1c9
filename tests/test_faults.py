"""Crashes and hangs (suites/running/faults.py): an adapter that aborts its process or never returns
costs one item, recorded as "crash" (with the signal) or "timeout"; every other result is there
and the report shows both. Also: a run killed with SIGKILL leaves every finished result readable,
and two runs with the same seed record the same results."""
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

from reports.build import build, read_records
from suites.running import faults

ROOT = pathlib.Path(__file__).resolve().parent.parent
FAULTY = ROOT / "tests" / "adapters" / "faulty.py"


def pytest_run(tmp_path, *args, **kwargs):
    cmd = [sys.executable, "-m", "pytest", "specs", "--results-dir", str(tmp_path), "--hypothesis-profile=ci",
           "--mode", "eager", "-q", "-p", "no:cacheprovider", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600, **kwargs)


def crash_spec_run(tmp_path, spec: str, adapters: str, *args):
    """tests/specs/`spec` run eagerly without xdist on the faulty adapters: (the run, its records
    by adapter)."""
    cmd = [sys.executable, "-m", "pytest", str(ROOT / "tests" / "specs" / spec), "--results-dir",
           str(tmp_path / "results"), "-q", "-p", "no:cacheprovider", "--adapter-path", str(FAULTY), *args,
           "--adapter", adapters, "--mode", "eager"]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    return run, {r["adapter"]: r for r in read_records([tmp_path / "results"])[0]}


def test_a_crash_and_two_hangs_cost_one_item_each(tmp_path):
    run = pytest_run(tmp_path, "-n", "1", "--max-worker-restart", "5", "--adapter-path", str(FAULTY),
                     "--adapter", "aborting,hanging,stuck", "--case-timeout", "2", "--dtype", "float64",
                     "-k", "relu-at-zero or sum-axis-1 or abs-at-zero")
    assert run.returncode == 1, run.stdout + run.stderr
    records = {r["test"]: r for r in read_records([tmp_path])[0]}
    crash = records["specs/autograd.yaml::relu-at-zero[aborting-cpu-float64-eager]"]
    assert crash["status"] == "crash" and crash["signal"] == "SIGABRT"
    assert "relu (tests/adapters/faulty.py:" in crash["message"]  # where it died
    # SIGALRM ended it
    assert records["specs/autograd.yaml::relu-at-zero[hanging-cpu-float64-eager]"]["status"] == "timeout"
    stuck = records["specs/autograd.yaml::relu-at-zero[stuck-cpu-float64-eager]"]  # deaf to signals: the watchdog
    assert stuck["status"] == "timeout" and "the process was ended" in stuck["message"]
    hung = records["specs/autograd.yaml::relu-at-zero[hanging-cpu-float64-eager]"]
    for faulted, adapter in ((crash, "aborting"), (stuck, "stuck"), (hung, "hanging")):  # as every record: one row
        passed = records[f"specs/autograd.yaml::sum-axis-1[{adapter}-cpu-float64-eager]"]
        assert faulted["versions"] == passed["versions"] and adapter in faulted["versions"]
    for adapter in ("aborting", "hanging", "stuck"):  # the other items all ran, after the faults too
        assert records[f"specs/autograd.yaml::sum-axis-1[{adapter}-cpu-float64-eager]"]["status"] == "pass"
        assert records[f"specs/autograd.yaml::abs-at-zero[{adapter}-cpu-float64-eager]"]["status"] == "pass"
    page = build([tmp_path], tmp_path / "out").read_text()
    assert "1 crash" in page and "2 timeout" in page and "signal SIGABRT" in page


def test_a_documented_crash_runs_in_its_own_process(tmp_path):
    """Without xdist too: the aborting case is documented with its signal, and the run goes on
    to the adapter that no longer crashes, which fails so that the entry is removed."""
    run, records = crash_spec_run(tmp_path, "crash-documented.yaml", "aborting,reference")
    assert run.returncode == 1, run.stdout + run.stderr
    assert records["aborting"]["status"] == "documented"
    assert "the process died with SIGABRT" in records["aborting"]["message"]
    assert records["reference"]["status"] == "fail"
    assert "documented crash no longer observed" in records["reference"]["message"]


def test_a_crash_documented_as_one_behaviour_of_several_is_documented_when_the_process_lives(tmp_path):
    """A corrupted heap aborts the process on some runs only: an entry that lists the crash among
    its behaviours (one_of) is documented where the process dies and where it returns one of the
    others (as the adapter's shipped entry says: the process that returned loads it too); a
    process that returns none of them (the right value) fails, so that the entry goes."""
    run, records = crash_spec_run(tmp_path, "crash-sometimes.yaml", "aborting,corrupting,reference",
                                  "--adapter-path", str(ROOT / "tests" / "adapters" / "corrupting.py"))
    assert run.returncode == 1, run.stdout + run.stderr
    assert records["aborting"]["status"] == "documented"
    assert "the process died with SIGABRT" in records["aborting"]["message"]
    assert records["corrupting"]["status"] == "documented", records["corrupting"]["message"]
    assert "relu corrupts the heap (observed: returned [0.0]" in records["corrupting"]["message"]
    assert records["reference"]["status"] == "fail"
    assert "documented difference no longer observed" in records["reference"]["message"]


def test_generated_cases_documented_to_crash_run_in_their_own_process(tmp_path):
    """Some draws kill the process (Paddle's int32 broadcast matmul corrupts the heap): the
    generated cases run in a process of their own, documented where it dies, judged as usual
    where no draw killed it (not "no longer observed": the next draws may)."""
    run, records = crash_spec_run(tmp_path, "crash-generated.yaml", "aborting,reference", "--hypothesis-profile=ci")
    assert run.returncode == 0, run.stdout + run.stderr
    assert records["aborting"]["status"] == "documented" and records["aborting"]["case"] == "hypothesis"
    assert "the process died with SIGABRT" in records["aborting"]["message"]
    assert records["reference"]["status"] == "pass"


def test_isolated_returns_the_result_or_the_signal():
    assert faults.isolated(int, "3") == (3, None)
    assert faults.isolated(os.abort) == (None, "SIGABRT")
    # a process that neither answers nor dies by the deadline (a heap corruption that deadlocks in
    # malloc) is ended, and said to hang
    start = time.monotonic()
    assert faults.isolated(time.sleep, 600, deadline=3) == (None, "a hang (no result within 3 s; the process "
                                                                   "was ended)")
    assert time.monotonic() - start < 60
    try:
        faults.isolated(int, "three")
    except RuntimeError as exc:
        assert "ValueError" in str(exc)
    else:
        raise AssertionError("an exception in the isolated process is raised again")


def test_crash_record_reads_the_fault_log(tmp_path):
    identity = {"spec": "a/b", "kind": "example", "adapter": "x", "device": "cpu", "dtype": "float32",
                "test": "a/b[x-cpu-float32-eager]", "started": time.time()}
    for log, status, sig in [("Fatal Python error: Segmentation fault\n", "crash", "SIGSEGV"),
                             ("Timeout (0:00:05)!\nThread 0x01 (most recent call first):\n", "timeout", None),
                             ("", "crash", "unknown")]:
        (tmp_path / "running-gw3.json").write_text(json.dumps(identity))
        (tmp_path / "faults-gw3.log").write_text(f"{faults.MARK}earlier\nFatal Python error: Aborted\n"
                                                 f"{faults.MARK}a/b[x-cpu-float32-eager]\n{log}")
        record, note = faults.crash_record(tmp_path, "gw3", 5.0)
        assert (record["status"], record["signal"], record["spec"]) == (status, sig, "a/b")
        assert note["test"] == identity["test"]
        assert not (tmp_path / "running-gw3.json").exists()
    assert faults.crash_record(tmp_path, "gw9", 5.0) == (None, None)  # a worker that was running nothing


def test_a_killed_run_keeps_every_finished_result(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "suites", "-p", "no:xdist", "-q", "--results-dir",
                             str(tmp_path), "--adapter", "reference", "--hypothesis-profile=ci"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    part = tmp_path / "part-main.jsonl"
    deadline = time.time() + 300
    while time.time() < deadline and (not part.exists() or part.read_text().count("\n") < 40):
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    lines = part.read_text().splitlines()
    records, broken = read_records([tmp_path])
    assert len(lines) >= 40 and broken == 0 and len(records) == len(lines)  # flushed whole, line by line
    assert "parity comparison report" in build([tmp_path], tmp_path / "out").read_text().lower()


def test_same_seed_same_results(tmp_path):
    """Two ci-profile runs (derandomized) record the same results apart from timings."""
    def run(folder):
        done = pytest_run(folder, "-n", "2", "--adapter", "reference,engine", "--spec", "specs/padding.yaml")
        assert done.returncode == 0, done.stdout + done.stderr
        return sorted(json.dumps({k: v for k, v in r.items() if k not in ("duration",)}, sort_keys=True)
                      for r in read_records([folder])[0])
    first, second = run(tmp_path / "a"), run(tmp_path / "b")
    assert len(first) > 50 and first == second


RELU_GENERATED = ROOT / "tests" / "specs" / "relu-generated.yaml"


def test_a_case_that_passes_when_hypothesis_runs_it_again_is_rerun_in_fresh_processes(tmp_path):
    """Fresh-process reruns say what they saw, with their count: a case wrong on the first call of
    every process fails there each time; one wrong on a later call only passes there. Neither is
    called flaky, nor given a cause two reruns cannot tell from chance. Both stay failures."""
    cmd = [sys.executable, "-m", "pytest", str(RELU_GENERATED), "--results-dir", str(tmp_path), "-q",
           "-p", "no:cacheprovider", "--adapter-path", str(FAULTY), "--adapter", "wrong-first-call,wrong-second-call",
           "--mode", "eager", "--hypothesis-profile=ci"]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    records = {r["adapter"]: r for r in read_records([tmp_path])[0]}
    assert records["wrong-first-call"]["status"] == records["wrong-second-call"]["status"] == "fail"
    assert "failed again in 2 of 2 fresh-process reruns; it passed once" in records["wrong-first-call"]["message"]
    assert "failed again in 0 of 2 fresh-process reruns; it passed once" in records["wrong-second-call"]["message"]
    assert not any(word in r["message"] for r in records.values() for word in ("flak", "depends on", "because"))


HELD = """\
import pathlib, time

import pytest


@pytest.mark.parametrize("index", range(200))
def test_item(index):
    if index == 0:
        time.sleep(8)  # a worker held, as by a native hang
    pathlib.Path("done").joinpath(str(index)).write_text(str(time.monotonic()))
"""


PARITYS_SCHEDULER = """\
import importlib.util

spec = importlib.util.spec_from_file_location("parity_conftest", %r)
parity = importlib.util.module_from_spec(spec)
spec.loader.exec_module(parity)
pytest_xdist_make_scheduler = parity.pytest_xdist_make_scheduler
"""


def test_a_worker_held_by_one_item_leaves_its_queue_to_the_others(tmp_path):
    """Under `-n 2` a worker stuck in one item (a native hang, until the case timeout) used to keep
    the items xdist had queued for it while the other idled: the others now take them (worksteal),
    so every other item but the one after it is done before the held one ends."""
    (tmp_path / "done").mkdir()
    (tmp_path / "conftest.py").write_text(PARITYS_SCHEDULER % str(ROOT / "conftest.py"))
    (tmp_path / "test_held.py").write_text(HELD)
    run = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider", "test_held.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stdout[-2000:]
    done = {int(p.name): float(p.read_text()) for p in (tmp_path / "done").iterdir()}
    after = sorted(i for i, t in done.items() if t > done[0])
    # the next item stays with the held worker: xdist runs an item once it knows the next
    assert len(done) == 200 and len(after) <= 1, after


def test_renew_gives_the_next_case_the_whole_timeout(tmp_path):
    """A repeat check's item runs its work in three processes, each compiling anew: the watch is
    renewed before each, so --case-timeout bounds each, and still ends one that outlasts it."""
    watch = faults.Watch(tmp_path, "gw0", 0.6)
    watch.begin({"test": "a/repeat[x]"})
    try:
        time.sleep(0.4)
        watch.renew()
        time.sleep(0.4)  # 0.8 s into the item, 0.4 s into its second case
        watch.renew()
        started = time.monotonic()
        try:
            time.sleep(2)
        except faults.CaseTimeout:
            assert 0.5 < time.monotonic() - started < 1.5
        else:
            raise AssertionError("a case past the timeout was not ended")
    finally:
        watch.end()
        watch.close()


UNVERSIONED = """\
from adapters.reference import ReferenceAdapter


class UnversionedAdapter(ReferenceAdapter):
    name = "unversioned"
    calls = 0

    def version(self):  # the run's first item fails before it can write its record
        UnversionedAdapter.calls += 1
        if UnversionedAdapter.calls == 1:
            raise RuntimeError("no version")
        return super().version()
"""


def test_a_failed_item_that_left_no_record_is_named_at_the_runs_end(tmp_path):
    """The page is built from the records: a failure pytest saw and no record holds (an item that
    died before its record) used to vanish from it; the run's end names it."""
    adapter = tmp_path / "unversioned.py"
    adapter.write_text(UNVERSIONED)
    run = pytest_run(tmp_path / "results", "-p", "no:xdist", "--adapter-path", str(adapter), "--adapter",
                     "unversioned", "--dtype", "float64", "-k", "relu-at-zero[ or sum-axis-1[")
    assert run.returncode == 1, run.stdout + run.stderr
    [first] = [line for line in run.stdout.splitlines() if line.startswith("FAILED ")]
    assert f"parity: 1 failed item(s) left no record, so no page shows them: {first.split()[1]}" in run.stdout
    page = build([tmp_path / "results"], tmp_path / "out").read_text()
    assert "1 of which left no record" in page


def test_a_fault_in_the_harness_fails_the_item_with_its_record(tmp_path):
    """Parity's own checking raising (hypothesis' FlakyFailure with no failure in it once ended in
    a StopIteration) is no verdict on the framework, and it must not cost the record: the item
    fails as an error that says the harness raised, and the page shows it."""
    (tmp_path / "broken_harness.py").write_text(
        "from suites.judging import judge\n"
        "def broken(*args, **kwargs):\n"
        "    raise StopIteration('a bug of the harness')\n"
        "judge.check_case = broken\n")
    run = pytest_run(tmp_path / "results", "-p", "no:xdist", "-p", "broken_harness", "--adapter", "reference",
                     "--dtype", "float64", "-k", "relu-at-zero[", env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert run.returncode == 1, run.stdout + run.stderr
    assert "left no record" not in run.stdout
    [record] = read_records([tmp_path / "results"])[0]
    assert record["status"] == "error" and record["message"].startswith(
        "the check itself raised StopIteration: a bug of the harness: a fault in Parity's harness"), record


def test_an_other_adapter_that_kills_the_oracle_check_leaves_the_fail_and_its_record(tmp_path):
    """A fail is questioned on the run's other adapters; one of them aborting there killed the
    worker, and the item being judged left no record. They run in a process apart now: the fail
    stands, its record says why the check did not finish, and the aborting adapter's own item is
    its crash."""
    run = pytest_run(tmp_path, "-n", "1", "--adapter-path", str(FAULTY), "--adapter",
                     "off-by-one-relu,aborting,engine", "--dtype", "float64", "-k", "relu-at-zero[")
    assert run.returncode == 1, run.stdout + run.stderr
    records = {r["test"]: r for r in read_records([tmp_path])[0]}
    judged = records["specs/autograd.yaml::relu-at-zero[off-by-one-relu-cpu-float64-eager]"]
    assert judged["status"] == "fail" and "did not finish: its process died with SIGABRT" in judged["message"]
    assert records["specs/autograd.yaml::relu-at-zero[aborting-cpu-float64-eager]"]["status"] == "crash"
    assert records["specs/autograd.yaml::relu-at-zero[engine-cpu-float64-eager]"]["status"] == "pass"


def test_a_timeout_that_the_framework_turns_into_its_own_error_is_a_timeout(tmp_path):
    """The interrupt that ends a case past --case-timeout may be caught on its way out (hypothesis
    replaying the case once made a FlakyStrategyDefinition of it): the item's record is still a
    timeout, not the error it became."""
    run, records = crash_spec_run(tmp_path, "relu-generated.yaml", "swallowing", "--case-timeout", "2")
    assert run.returncode == 1, run.stdout + run.stderr
    assert records["swallowing"]["status"] == "timeout", records["swallowing"]["message"]


def test_a_case_that_hangs_leaves_its_sibling_cases_their_records(tmp_path):
    run, _ = crash_spec_run(tmp_path, "relu-examples.yaml", "hanging-on-negative", "--case-timeout", "2")
    assert run.returncode == 1, run.stdout + run.stderr
    statuses = {r["case"]: r["status"] for r in read_records([tmp_path / "results"])[0]}
    assert statuses == {"before": "pass", "negative": "timeout", "after": "pass"}, statuses


def test_a_case_that_kills_its_worker_leaves_its_sibling_cases_their_records(tmp_path):
    """The crash record names the case; the item runs again in a fresh worker without it."""
    run, _ = crash_spec_run(tmp_path, "relu-examples.yaml", "aborting-on-negative", "-n", "1")
    assert run.returncode == 1, run.stdout + run.stderr
    records = read_records([tmp_path / "results"])[0]
    statuses = {r["case"]: r["status"] for r in records}
    assert statuses == {"before": "pass", "negative": "crash", "after": "pass"}, statuses
    assert len(records) == 3 and "SIGABRT" in next(r["message"] for r in records if r["case"] == "negative")

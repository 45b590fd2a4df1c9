"""Collectives across processes (python -m suites.multihost) on each runtime, on loopback: the
launcher's verdicts and records, torchrun-style ranks started by hand, and what a rank that never
joins, an unreachable coordinator or bad input gives: one line, in time, no process left behind."""
import json
import os
import pathlib
import subprocess
import sys
import time
import uuid

import pytest

from adapters.workers import ROOT, kill_session
from reports.build import read_records
from suites.multihost import launch

FRAMEWORKS = {"torch": "torch", "jax": "jax", "tensorflow": "tensorflow"}
TIMEOUT = 5  # seconds a phase may take in the failure tests


def multihost(*args, env=None, timeout=300) -> tuple[subprocess.CompletedProcess, float, list]:
    """The run, its seconds, and the processes still alive afterwards that it started (found by
    a marker in their environment)."""
    marker = uuid.uuid4().hex
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "suites.multihost", *args], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, **(env or {}), "PARITY_TEST_MARKER": marker}, timeout=timeout)
    return run, time.monotonic() - start, marked(marker)


def marked(marker: str) -> list:
    time.sleep(0.5)  # a killed process needs a moment to be gone
    alive = []
    for proc in pathlib.Path("/proc").glob("[0-9]*"):
        try:
            if f"PARITY_TEST_MARKER={marker}".encode() in (proc / "environ").read_bytes():
                alive.append(int(proc.name))
        except OSError:
            continue
    return alive


def free_port() -> int:
    return launch.free_ports(1)[0]


@pytest.mark.parametrize("adapter, devices", [("torch", 1), ("jax", 2),
                                              pytest.param("tensorflow", 1, marks=pytest.mark.apart)])  # 67 s
def test_two_processes_agree_with_the_reference(tmp_path, adapter, devices):
    pytest.importorskip(FRAMEWORKS[adapter])
    dtypes = ["--dtype", "float32"] if adapter == "tensorflow" else []  # a fresh TF group per aborted case: time
    run, _, alive = multihost("--launch", "2", "--adapter", adapter, *dtypes, "--results-dir", str(tmp_path))
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert not alive
    records, broken = read_records([tmp_path])
    assert not broken and {r["kind"] for r in records} == {"multihost"}
    assert {r["status"] for r in records} <= {"pass", "documented", "unsupported"}
    assert all(r["message"].startswith(f"2 processes x {devices} device(s): ") for r in records)
    passed = {(r["spec"], r["case"]) for r in records if r["status"] == "pass"}
    world = 2 * devices
    assert ("collectives/all-reduce-sum", "docs" if world == 2 else "four-ranks") in passed


def test_three_processes_on_torch(tmp_path):
    pytest.importorskip("torch")
    run, _, alive = multihost("--launch", "3", "--adapter", "torch", "--results-dir", str(tmp_path))
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    records = {(r["spec"], r["dtype"]): r for r in read_records([tmp_path])[0]}
    assert records["collectives/ppermute-ring-of-three", "float32"]["status"] == "pass"
    assert records["collectives/broadcast", "int32"]["output"] == [3, 4] * 3  # the root's (rank 1), flattened
    assert not alive


def test_ranks_started_by_hand_as_torchrun_starts_them():
    """Rank 0 with MASTER_PORT=0 binds a free port and says which; rank 1 joins it."""
    pytest.importorskip("torch")

    def rank(r, port):
        env = {**os.environ, "RANK": str(r), "WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port)}
        return subprocess.Popen([sys.executable, "-m", "suites.multihost", "all-reduce-sum", "docs"], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    first = rank(0, 0)
    second = None
    try:
        port = first.stdout.readline().split()[-1]  # "port N"
        second = rank(1, port)
        outputs = [p.communicate(timeout=120) for p in (first, second)]
    finally:
        for p in (first, second):
            if p is not None and p.poll() is None:
                p.kill()
    for r, (out, err) in enumerate(outputs):
        lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        assert [line["status"] for line in lines] == ["pass"] * 3, out + err  # float32, float64, int32
        assert all(line["rank"] == r and line["outputs"] == [[4, 6]] for line in lines)  # the torch docs' example


def rendezvous(adapter: str, rank: int, port: int) -> dict:
    env = {"RANK": str(rank), "WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port)}
    if adapter == "tensorflow":
        env["TF_CONFIG"] = json.dumps({"cluster": {"worker": [f"127.0.0.1:{port}", f"127.0.0.1:{free_port()}"]},
                                       "task": {"type": "worker", "index": rank}})
    return env


@pytest.mark.parametrize("adapter", ["torch", "jax", "tensorflow"])
@pytest.mark.parametrize("rank, what", [(0, "a rank that never joins"), (1, "an unreachable coordinator")])
def test_a_group_that_cannot_form_ends_in_one_line_in_time(adapter, rank, what):
    pytest.importorskip(FRAMEWORKS[adapter])
    case = ["all-reduce-sum", "four-ranks" if adapter == "jax" else "docs"]
    run, seconds, alive = multihost(*case, "--adapter", adapter, "--timeout", str(TIMEOUT),
                                    env=rendezvous(adapter, rank, free_port()), timeout=120)
    assert run.returncode in (3, -9), run.stderr[-2000:]  # it said so itself, or its watchdog killed it
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith(f"parity multihost: rank {rank} of 2 ({adapter}): "), last
    assert "did not finish within 5 s" in last or "could not join the group" in last, last
    assert seconds < TIMEOUT + 30  # the timeout, and the framework's import
    assert not alive  # the watchdog went with the rank


def test_the_launcher_kills_every_rank_once_one_fails():
    fails = subprocess.Popen([sys.executable, "-c", "import sys; sys.exit(3)"], start_new_session=True)
    waits = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    start = time.monotonic()
    codes = launch.wait([fails, waits], seconds=600)
    for process in (fails, waits):
        kill_session(process)
    assert codes == [3, None] and time.monotonic() - start < 10  # the other had GRACE seconds, not 600
    assert waits.returncode == -9


@pytest.mark.parametrize("args, env, message", [
    (["no-such-spec", "--launch", "2"], {}, "specs/collectives.yaml: no collective spec with id 'no-such-spec'"),
    (["--launch", "0"], {}, "--launch takes a number of processes >= 1. Received: 0"),
    (["--launch", "2", "--adapter", "nope"], {}, "unknown adapter 'nope'"),
    (["all-reduce-sum"], {"RANK": "", "WORLD_SIZE": ""},
     "one rank needs RANK (torchrun's variables), or --launch N to start the ranks"),
    (["all-reduce-sum"], {"RANK": "2", "WORLD_SIZE": "2"}, "RANK 2 is not below WORLD_SIZE 2"),
    (["ppermute-ring", "--launch", "2"], {}, "ppermute-ring/*: no example for 2 processes x 1 devices (world size 2)"),
    (["--launch", "5"], {}, "specs/collectives.yaml: no example for 5 processes x 1 devices (world size 5)"),
])
def test_bad_input_is_one_line_and_exit_2(args, env, message):
    run, _, alive = multihost(*args, env=env, timeout=60)
    assert run.returncode == 2
    assert run.stderr.strip().startswith(f"parity multihost: {message}"), run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and not alive


def test_a_rank_whose_runtime_computes_what_the_reference_refuses_reports_its_outputs(tmp_path):
    """A rank judges its slice against the reference; where the reference refuses the case (an
    untiled reduce-scatter whose axis is not the world size) and the runtime returns a value (as
    torch's composition does), the rank reports its outputs for the launcher's judge, where its
    process used to die and leave every later case unanswered."""
    import numpy as np

    from adapters.reference import ReferenceAdapter
    from suites.multihost import run_case
    from tests.spec_text import first_spec

    spec = first_spec(tmp_path, """\
    - id: untiled
      doc: an untiled reduce-scatter over an axis of 4 entries for 2 ranks
      source: https://docs.jax.dev/en/latest/_autosummary/jax.lax.psum_scatter.html
      collective: reduce_scatter
      args: [shards]
      params: {axis: 0, op: sum, tiled: false}
      dtypes: [float32]
      examples:
        - name: not-the-world-size
          inputs: {shards: {values: [[1, 2, 3, 4], [5, 6, 7, 8]]}}
          expect: {raises: true}
    """)
    example = spec.examples[0]

    def serve(name, shards, params):  # what a composition without the check returns on rank 0
        return [np.array(6.0, dtype=np.float32)]

    line = run_case(ReferenceAdapter(), serve, spec, example, "float32", rank=0, local=1)
    assert line["status"] == "fail" and line["outputs"] == [6.0] and "ValueError" in line["reference"]


def test_a_case_that_kills_a_rank_raised_its_death_and_a_fresh_group_runs_the_rest(tmp_path, monkeypatch, capsys):
    """A runtime that dies of a signal on one case (Paddle's gloo on a send to its own rank:
    SIGSEGV): that case raised the death, on the ranks that did not answer it, and a fresh group
    runs the cases after it, where every later case used to end as a timeout."""
    import argparse

    from adapters.reference import ReferenceAdapter
    from tests.spec_text import first_spec

    spec = first_spec(tmp_path, """\
    - id: summed
      collective: all_reduce
      args: [shards]
      params: {op: sum}
      dtypes: [float32]
      examples:
        - {name: first, inputs: {shards: {values: [[1, 2], [3, 4]]}}}
        - {name: kills, inputs: {shards: {values: [[5, 6], [7, 8]]}}}
        - {name: after, inputs: {shards: {values: [[1, 1], [2, 2]]}}}
    """)
    cases = [(spec, example, "float32") for example in spec.examples]

    def answer(index, rank):
        shards = [[1, 2], [3, 4]] if index == 0 else [[1, 1], [2, 2]]
        total = [sum(column) for column in zip(*shards)]
        return json.dumps({"spec": spec.name, "case": spec.examples[index].name, "dtype": "float32", "rank": rank,
                           "outputs": [total], "output_dtype": "float32", "status": "pass", "index": index})

    starts = []

    def run_ranks(args, start, count):
        starts.append(start)
        if start == 0:  # rank 0 answers the first case and dies on the second; the launcher kills rank 1
            return [-11, None], [answer(0, 0), answer(0, 1)], ["Segmentation fault", ""]
        return [0, 0], [answer(2, 0), answer(2, 1)], ["", ""]

    monkeypatch.setattr(launch, "run_ranks", run_ranks)
    monkeypatch.setattr(launch.adapters, "get", lambda name: ReferenceAdapter())
    args = argparse.Namespace(processes=2, devices_per_process=1, device="cpu", adapter="reference", results_dir=None)
    status = launch.launch(args, cases)
    shown = capsys.readouterr()
    verdicts = shown.out.splitlines()
    assert starts == [0, 2]
    assert "reference, 2 processes: cases 1 to 3 of 3 running" in shown.err  # progress, group by group
    assert "reference, 2 processes: cases 3 to 3 of 3 running" in shown.err
    assert verdicts[-1].endswith("[100%]")
    assert [line.split()[:2] for line in verdicts] == [
        ["PASS", "inline/summed/first"], ["ERROR", "inline/summed/kills"], ["PASS", "inline/summed/after"]]
    assert "ProcessDied: rank 0 exit code -11: Segmentation fault" in verdicts[1]
    assert status == 1  # the case that killed a rank is an error nobody documented


def test_a_multihost_run_judges_with_the_differences_the_adapter_ships():
    """The launcher judges with an adapter's shipped differences file as pytest does (Paddle's
    documented SIGSEGV on a send to its own rank), not with the spec's own entries alone."""
    import argparse

    from suites.multihost import cases_of

    args = argparse.Namespace(processes=2, devices_per_process=1, spec=str(ROOT / "specs" / "collectives.yaml"),
                              spec_id="ppermute-identity-pair", case=None, dtype=None, adapter="paddle")
    loaded = {spec.name: spec for spec, _, _ in cases_of(args)}
    notes = [d["note"] for d in loaded["collectives/ppermute-identity-pair"].differences if d["adapter"] == "paddle"]
    assert notes == ["on gloo, a rank's isend to itself kills the process (SIGSEGV)"]

"""`python -m suites.multihost --launch N`: start N ranks on loopback, gather, judge, record.

The ranks are this machine's processes, each in a session of its own; whatever happens (a rank
that fails, a timeout, Ctrl-C), every one still running is killed before the launcher returns.
A rank's line per case carries its outputs; the launcher stacks them in rank order and judges the
whole with the suites' judge through an adapter that answers the collective with those outputs
(Gathered), so documented values and documented differences judge a multi-process run as they
judge a single-process one.
"""
import json
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np

import adapters
from adapters.base import Unsupported
from adapters.workers import GRACE, ROOT, kill_session
from reports.records import PASSING, record
from suites.judging import judge
from suites.judging.outcome import Outcome
from suites.programs import inputs
from suites.programs.context import Context
from suites.running import results
from suites.running.results import outcome_fields

UNFINISHED = 3  # the exit status of a rank that did not finish, and of a launch with one
STOPPED = 4  # a rank the launcher started, stopped where its runtime aborted: the launcher starts afresh


class Gathered:
    """The adapter, but its collective answers with what the ranks returned for this case; a
    property that runs a second collective (all_reduce beside reduce_scatter) is left to the
    single-process suites."""

    reruns = False

    def __init__(self, adapter, lines: list):
        self._adapter, self._lines = adapter, lines

    def __getattr__(self, name):
        return getattr(self._adapter, name)

    def collective(self, name, shards, device="cpu", **params):
        refused = next((line["unsupported"] for line in self._lines if "unsupported" in line), None)
        if refused:
            raise Unsupported(refused)
        errors = [f"rank {line['rank']}: {line['error']}" for line in self._lines if "error" in line]
        if errors:
            raise RuntimeError("; ".join(errors))
        return [np.asarray(out, dtype=line["output_dtype"]) for line in self._lines for out in line["outputs"]]


def free_ports(count: int) -> list:
    """Ports the OS has free now (bound and released: a later bind may still race, rarely)."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def rank_env(adapter: str, rank: int, processes: int, ports: list) -> dict:
    """What rank `rank` is told: torchrun's variables (the coordinator's address for jax), and
    TF_CONFIG (every worker's address) for TensorFlow."""
    env = {**os.environ, "RANK": str(rank), "WORLD_SIZE": str(processes), "MASTER_ADDR": "127.0.0.1",
           "MASTER_PORT": str(ports[0]), "LOCAL_RANK": str(rank)}
    if adapter == "tensorflow":
        env["TF_CONFIG"] = json.dumps({"cluster": {"worker": [f"127.0.0.1:{p}" for p in ports]},
                                       "task": {"type": "worker", "index": rank}})
    return env


def rank_argv(args, start: int) -> list:
    argv = [sys.executable, "-m", "suites.multihost", *[a for a in (args.spec_id, args.case) if a is not None],
            "--spec", args.spec, "--adapter", args.adapter, "--device", args.device, "--timeout", str(args.timeout),
            "--devices-per-process", str(args.devices_per_process), "--start", str(start), "--launch-rank"]
    return argv + (["--dtype", args.dtype] if args.dtype else [])


def launch(args, cases) -> int:
    """Run the ranks, then judge and record every case; the exit status (see suites.multihost).
    Where a runtime aborts after a failed collective (TF's collective executor fails every later
    one), the ranks stop after that case and a fresh group runs the rest; so too where a rank's
    process dies of a signal, and the case it died on raised that death."""
    lines, unfinished, start = [[] for _ in range(args.processes)], [], 0
    while start < len(cases) and not unfinished:
        print(f"parity multihost: {args.adapter}, {args.processes} processes: cases {start + 1} to {len(cases)} "
              f"of {len(cases)} running (the ranks answer together; each case is judged below)", file=sys.stderr,
              flush=True)
        codes, outs, errs = run_ranks(args, start, len(cases) - start)
        now = [[json.loads(t) for t in out.splitlines() if t.startswith("{")] for out in outs]
        for rank, per in enumerate(now):
            lines[rank] += per
        died = [rank for rank, code in enumerate(codes) if code is not None and code < 0]
        if died:  # a runtime that kills its process on one case (a signal): that case raised it
            start = min(now[rank][-1]["index"] + 1 if now[rank] else start for rank in died)
            if start < len(cases):
                died_on(cases[start], lines, "; ".join(why(rank, codes[rank], errs[rank]) for rank in died))
            start += 1  # and a fresh group runs the rest
            continue
        unfinished = [why(rank, code, err) for rank, (code, err) in enumerate(zip(codes, errs))
                      if code not in (0, 1, STOPPED)]
        stopped = [per[-1]["index"] for per, code in zip(now, codes) if code == STOPPED and per]
        start = min(stopped) + 1 if stopped else len(cases)  # after the case where a runtime aborted
    for message in unfinished:
        print(f"parity multihost: {message}", file=sys.stderr)
    outcomes = judged(args, cases, lines, unfinished)
    if args.results_dir:
        write(args, outcomes)
    if unfinished:
        return UNFINISHED
    return 0 if all(o.status in PASSING or o.status == "unsupported" for *_, o in outcomes) else 1


def died_on(case, lines: list, how: str) -> None:
    """Case `case` raised the death of a rank's process, on every rank that did not answer it."""
    spec, example, dtype = case
    for rank, per in enumerate(lines):
        if not any((line["spec"], line["case"], line["dtype"]) == (spec.name, example.name, dtype) for line in per):
            per.append({"spec": spec.name, "case": example.name, "dtype": dtype, "rank": rank, "status": "raised",
                        "error": f"ProcessDied: {how}"})


def run_ranks(args, start: int, count: int) -> tuple[list, list, list]:
    """The ranks' exit codes, stdout and stderr, for the `count` cases from index `start`; every
    rank still running at the end is killed."""
    ports = free_ports(args.processes if args.adapter == "tensorflow" else 1)
    logs, ranks = [], []
    try:
        for rank in range(args.processes):
            out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
            logs.append((out, err))
            ranks.append(subprocess.Popen(rank_argv(args, start), cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out,
                                          stderr=err, env=rank_env(args.adapter, rank, args.processes, ports),
                                          start_new_session=True))
        codes = wait(ranks, args.timeout * (count + 2) + 30)
    finally:
        for process in ranks:
            kill_session(process)
    return codes, [read(out) for out, _ in logs], [read(err) for _, err in logs]


def wait(ranks: list, seconds: float) -> list:
    """Exit codes (None: killed at the deadline); once one rank fails, the others get GRACE
    seconds to end (they may be waiting on it) before they are killed."""
    deadline = time.monotonic() + seconds
    while any(p.poll() is None for p in ranks) and time.monotonic() < deadline:
        if any(p.poll() not in (None, 0, 1) for p in ranks):  # failed, or stopped after an error
            deadline = min(deadline, time.monotonic() + GRACE)
        time.sleep(0.05)
    return [p.poll() for p in ranks]


def read(file) -> str:
    file.seek(0)
    return file.read().decode(errors="replace")


def why(rank: int, code, stderr: str) -> str:
    """One line: the rank's own (it says which phase did not finish), or how it ended."""
    own = [line for line in stderr.splitlines() if line.startswith("parity multihost: ")]
    if own:
        return own[-1].removeprefix("parity multihost: ")
    last = next((line for line in reversed(stderr.splitlines()) if line.strip()), "")
    ended = "was killed: another rank failed, or the launch ran out of time" if code is None else f"exit code {code}"
    return f"rank {rank} {ended}{': ' + last[:300] if last else ''}"


def judged(args, cases, lines: list, unfinished: list) -> list:
    """(spec, example, dtype, outcome) per case, printed as it is judged."""
    adapter, out = adapters.get(args.adapter), []
    for index, (spec, example, dtype) in enumerate(cases):
        mine = [next((line for line in per if (line["spec"], line["case"], line["dtype"]) ==
                      (spec.name, example.name, dtype)), None) for per in lines]
        if None in mine and not any("error" in line for line in mine if line):
            missing = ", ".join(str(r) for r, line in enumerate(mine) if line is None)
            outcome = Outcome("timeout" if unfinished else "crash", example.name,
                              f"no answer from rank {missing}: {'; '.join(unfinished) or 'it ended before this case'}")
        else:
            ctx = Context(spec, Gathered(adapter, [line for line in mine if line]), args.device, dtype, "eager")
            outcome = judge.check_case(ctx, example.name, inputs.example(spec, example, dtype), example.expect)
        print(f"{outcome.status.upper():11} {spec.name}/{example.name} {dtype} ({args.processes} processes x "
              f"{args.devices_per_process} device(s)): {outcome.message} [{100 * (index + 1) // len(cases):3d}%]",
              flush=True)
        out.append((spec, example, dtype, outcome))
    return out


def write(args, outcomes) -> None:
    """Records of kind `multihost`, one per case, for the report (suites/running/results.py)."""
    recorder, environment = results.Recorder(args.results_dir, f"multihost-{args.adapter}"), results.environment()
    version = adapters.get(args.adapter).version()
    world = f"{args.processes}x{args.devices_per_process}"
    for spec, example, dtype, outcome in outcomes:
        fields = outcome_fields(outcome, dtype)
        fields["message"] = f"{args.processes} processes x {args.devices_per_process} device(s): {fields['message']}"
        rerun = (f"{shlex.quote(results.interpreter())} -m suites.multihost --launch {args.processes} "
                 f"--devices-per-process {args.devices_per_process} --adapter {args.adapter} --dtype {dtype} "
                 f"--device {args.device} --spec {shlex.quote(args.spec)} {spec.id} {shlex.quote(example.name)}")
        # the test id names the world: a 2- and a 3-process run of one case are two items, each
        # replaced by its own re-run (reports/records.py standing)
        recorder.write(record(spec=spec.name, case=example.name, kind="multihost", adapter=args.adapter,
                              device=args.device, dtype=dtype, mode="eager", **fields,
                              output=results.output_values(outcome.actual, "collective"),
                              versions={args.adapter: version}, test=f"multihost::{spec.name}/{example.name}"
                              f"[{args.adapter}-{args.device}-{dtype}-{world}]",
                              rerun=None if outcome.status in (*PASSING, "unsupported") else rerun, **environment))
    recorder.close()
    results.merge(args.results_dir)

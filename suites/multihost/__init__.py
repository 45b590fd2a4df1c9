"""Collectives across processes, on each framework's own runtime: `python -m suites.multihost`.

    python -m suites.multihost --launch N [--adapter torch|jax|tensorflow] [SPEC_ID [CASE]] [--results-dir DIR]
    torchrun --nnodes=N --nproc-per-node=1 ... -m suites.multihost [SPEC_ID [CASE]]      (one rank per host)

Each rank joins its framework's group through the adapter's `collective_rank`: torch.distributed
(torchrun's RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT), jax.distributed.initialize (the same
variables: rank 0 runs the coordinator at MASTER_ADDR:MASTER_PORT; gloo between CPU processes)
or MultiWorkerMirroredStrategy (TF_CONFIG). With --devices-per-process D each process holds D
devices (jax: XLA host devices), so the world is N x D ranks. The cases are the collective
specs' explicit examples of that world size (or the one named), in each of the spec's dtypes;
every process builds the same shards (seeded by the spec and case names) and runs its own.

--launch N starts the N processes on loopback (free ports; TF_CONFIG written for TensorFlow),
gathers every rank's outputs and judges each case as the suites judge a collective
(suites/judging/judge.py: documented values, the float64 reference, documented differences), printing a
line per case and writing records of kind `multihost` to --results-dir for the report. Without
it, this process is one rank (torchrun's variables): a JSON line per case with its outputs and its
own slice's agreement with the reference.

Every phase (joining, each collective) must end within --timeout seconds: a rank that never
joins, an unreachable coordinator or a hung collective ends the rank with one line that says
which (the rank is killed: exit status 137 in a shell), and the launcher kills every rank it
started. Exit status: 0 every case agrees or is documented, 1 one does not, 2 bad input, 3 a
rank did not finish.
"""
import argparse
import json
import os
import select
import signal
import sys

import numpy as np

import adapters
from adapters import workers
from adapters.base import Unsupported
from suites.judging import compare
from suites.loading import specs
from suites.loading.spec_differences import shipped
from suites.multihost import launch
from suites.multihost.launch import STOPPED, UNFINISHED
from suites.programs import inputs
from suites.programs.program import ORACLE, widen


def main(argv=None, prog="python -m suites.multihost") -> int:
    args = parser(prog).parse_args(argv)
    try:
        check(args)
        cases = cases_of(args)
    except (specs.SpecError, adapters.AdapterError, ValueError) as exc:
        print(f"parity multihost: {exc}", file=sys.stderr)
        return 2
    if args.launch:
        return launch.launch(args, cases)
    return rank_main(args, cases)


def parser(prog="python -m suites.multihost") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("spec_id", nargs="?", default=None,
                        help="a collective spec's id, e.g. all-reduce-sum (default: every spec with an example of "
                             "the world size)")
    parser.add_argument("case", nargs="?", default=None, help="the example's name (default: every one)")
    parser.add_argument("--spec", default=specs.own_specs("collectives.yaml"),
                        help="a collectives spec file (default: Parity's specs/collectives.yaml)")
    parser.add_argument("--adapter", default="torch", help="torch, jax or tensorflow (default: torch)")
    parser.add_argument("--launch", type=int, default=None, metavar="N",
                        help="start N processes on loopback and judge their outputs (default: be one rank)")
    parser.add_argument("--devices-per-process", type=int, default=None, metavar="D",
                        help="devices each process holds (default: the adapter's process_devices on cpu, 1 on cuda)")
    parser.add_argument("--dtype", default=None, help="comma-separated dtypes (default: each spec's own)")
    parser.add_argument("--device", default="cpu", help="cpu, or cuda (NCCL; one GPU per rank)")
    parser.add_argument("--timeout", type=float, default=workers.TIMEOUT,
                        help=f"seconds each phase (joining, each collective) may take (default {workers.TIMEOUT:g})")
    parser.add_argument("--results-dir", default=None, help="--launch: where the records go (default: none)")
    parser.add_argument("--start", type=int, default=0, help="a rank --launch started: the first case's index")
    parser.add_argument("--launch-rank", action="store_true",
                        help="a rank --launch started: stop where the runtime aborts, for a fresh group")
    return parser


def check(args) -> None:
    """Refuse what cannot run, in one line each (ValueError / AdapterError)."""
    classes = adapters.classes()
    if args.adapter not in classes:
        raise adapters.AdapterError(f"unknown adapter {args.adapter!r} (installed: {', '.join(sorted(classes))})")
    if args.launch is not None and args.launch < 1:
        raise ValueError(f"--launch takes a number of processes >= 1. Received: {args.launch}")
    if args.device not in ("cpu", "cuda"):
        raise ValueError(f"--device takes cpu or cuda. Received: {args.device!r}")
    if args.timeout <= 0:
        raise ValueError(f"--timeout takes seconds > 0. Received: {args.timeout:g}")
    if args.devices_per_process is None:
        args.devices_per_process = classes[args.adapter].process_devices if args.device == "cpu" else 1
    if args.devices_per_process < 1:
        raise ValueError(f"--devices-per-process takes a count >= 1. Received: {args.devices_per_process}")
    if args.launch is None:
        for name in ("RANK", "WORLD_SIZE"):
            if not os.environ.get(name, "").isdigit():
                raise ValueError(f"one rank needs {name} (torchrun's variables), or --launch N to start the ranks")
        args.processes, args.rank = int(os.environ["WORLD_SIZE"]), int(os.environ["RANK"])
        if not args.rank < args.processes:
            raise ValueError(f"RANK {args.rank} is not below WORLD_SIZE {args.processes}")
    else:
        args.processes, args.rank = args.launch, None


def cases_of(args) -> list:
    """(spec, example, dtype) of every case for this world size, in spec-file order."""
    world = args.processes * args.devices_per_process
    collective = [s for s in shipped([args.adapter], specs.load_path(args.spec)) if s.collective]
    if args.spec_id is not None:
        collective = [s for s in collective if s.id == args.spec_id]
        if not collective:
            raise specs.SpecError(f"{args.spec}: no collective spec with id {args.spec_id!r}")
    wanted = [d.strip() for d in (args.dtype or "").split(",") if d.strip()]
    cases = []
    for spec in collective:
        for example in spec.examples:
            if args.case not in (None, example.name):
                continue
            for dtype in spec.dtypes:
                if example.runs_in(dtype, spec.dtypes) and (not wanted or dtype in wanted) \
                        and len(inputs.example(spec, example, dtype)["shards"]) == world:
                    cases.append((spec, example, dtype))
    if not cases:
        what = f"{args.spec_id}/{args.case or '*'}" if args.spec_id else args.spec
        raise specs.SpecError(f"{what}: no example for {args.processes} processes x {args.devices_per_process} "
                              f"devices (world size {world}) in {args.dtype or 'the specs dtypes'}")
    return cases


class Watchdog:
    """Ends the rank with one line when a phase outlasts the timeout. A native wait (a store, a
    coordinator, a collective) may never return, and may hold the GIL while it waits (TF's
    MultiWorkerMirroredStrategy does), so no thread of the rank could act: the watchdog is a
    forked process of its own, told each phase through a pipe, that prints the line and kills
    the rank; it ends when the rank closes the pipe (by exiting)."""

    def __init__(self, seconds: float, who: str):
        watched, self.pipe = os.pipe()
        rank = os.getpid()
        if os.fork() == 0:
            os.close(self.pipe)
            self._watch(watched, seconds, who, rank)
        os.close(watched)

    def start(self, phase: str | None):
        """A new phase (None: nothing to watch) with its own timeout."""
        os.write(self.pipe, f"{phase or ''}\n".encode())

    @staticmethod
    def _watch(watched: int, seconds: float, who: str, rank: int):
        phase = ""
        while True:
            ready, _, _ = select.select([watched], [], [], seconds if phase else None)
            if not ready:
                print(f"parity multihost: {who}: {phase} did not finish within {seconds:g} s (a rank that never "
                      "joined, an unreachable coordinator, or a hung collective)", file=sys.stderr, flush=True)
                os.kill(rank, signal.SIGKILL)
                os._exit(UNFINISHED)
            told = os.read(watched, 1 << 16).decode()
            if not told:
                os._exit(0)  # the rank has ended
            phase = told.splitlines()[-1]


def rank_main(args, cases) -> int:
    """One rank: join, run every case on this process's shards, a JSON line per case."""
    who = f"rank {args.rank} of {args.processes} ({args.adapter})"
    watchdog = Watchdog(args.timeout, who)
    host, port = os.environ.get("MASTER_ADDR", "127.0.0.1"), int(os.environ.get("MASTER_PORT", "0"))
    watchdog.start(f"joining the group at {host}:{port}")
    try:
        serve = adapters.get(args.adapter).collective_rank(
            args.rank, args.processes, lambda info: print(f"port {info['port']}", flush=True), device=args.device,
            host=host, port=port, local_devices=args.devices_per_process, timeout=args.timeout)
    except Unsupported as exc:
        print(f"parity multihost: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # the runtime's own refusal: no group to run in
        print(f"parity multihost: {who}: could not join the group at {host}:{port}: {one_line(exc)}", file=sys.stderr)
        return UNFINISHED
    agreed, adapter = True, adapters.get(args.adapter)
    for index, (spec, example, dtype) in enumerate(cases[args.start:], args.start):
        watchdog.start(f"{spec.name}/{example.name} {dtype}")
        line = run_case(adapter, serve, spec, example, dtype, args.rank, args.devices_per_process)
        agreed &= line["status"] != "fail"
        print(json.dumps({**line, "index": index}, allow_nan=True), flush=True)
        if getattr(serve, "aborted", False) and args.launch_rank:
            return STOPPED  # the runtime is unusable after that error (TF aborts its collective executor)
    watchdog.start(None)
    return 0 if agreed else 1


def run_case(adapter, serve, spec, example, dtype: str, rank: int, local: int) -> dict:
    """This process's part of one case: its outputs, or the error the runtime raised, and the
    agreement of its slice with the reference (the launcher judges the whole)."""
    shards = inputs.example(spec, example, dtype)["shards"]
    mine = slice(rank * local, (rank + 1) * local)
    line = {"spec": spec.name, "case": example.name, "dtype": dtype, "rank": rank, "world_size": len(shards)}
    try:
        adapter.collective_supported(spec.collective, spec.params)
    except Unsupported as exc:
        return {**line, "unsupported": str(exc), "status": "unsupported"}
    try:
        outputs = serve(spec.collective, [s.astype(dtype) for s in shards[mine]], spec.params)
    except Unsupported as exc:  # the runtime's own refusal, in its words
        return {**line, "unsupported": str(exc), "status": "unsupported"}
    except Exception as exc:  # the framework's own error is data here
        return {**line, "error": one_line(exc), "status": "raised"}
    returned = {"outputs": [o.tolist() for o in outputs], "output_dtype": outputs[0].dtype.name}
    try:
        expected = ORACLE.collective(spec.collective, [widen(s) for s in shards], **spec.params)[mine]
    except Exception as exc:  # the reference refuses what the runtime computed: the launcher's judge decides
        return {**line, **returned, "status": "fail", "reference": one_line(exc)}
    bound = compare.collective_bound(spec.collective, spec.params, widen(shards), dtype)
    ok = all(o.shape == e.shape for o, e in zip(outputs, expected))
    if ok:
        wanted = np.stack(expected)
        allowed = compare.allowed_error(wanted, dtype, None if bound is None else
                                        np.broadcast_to(bound, (len(shards), *expected[0].shape))[mine])
        ok = compare.compare(wanted, np.stack(outputs), dtype, allowed, outputs[0].dtype.name).ok
    return {**line, **returned, "status": "pass" if ok else "fail"}


def one_line(exc) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"[:500]

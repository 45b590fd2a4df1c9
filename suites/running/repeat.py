"""The repeat check (issue 43, part 5: determinism): is a framework's result bitwise the same
when the same work runs again?

A spec with a benchmark block gets a `repeat` item per adapter, dtype and mode. It runs the
block's smallest size of the item's dtype (at most MAX_ELEMENTS input elements), each pass the
block lists (the forward pass; the reverse pass for a ones cotangent), on the benchmark's
seeded inputs: the sizes where kernels split work across threads, and where non-repeatable
results live. Its conditions, each a case of its own:

- `repeat`: RUNS calls of the one staged (or compiled) function in this process;
- `process`: the same work in a fresh process, with the same thread count;
- `threads`: the same in a fresh process pinned to one CPU, with every thread-count variable
  at 1 (suites/benchmarks/machine.py), where this process has more than one;
- `switch`: in the fresh process, the framework's documented determinism switch turned on
  (Adapter.deterministic), the work made again and called RUNS times: what the switch promises
  is that these agree. Whether they also equal the run without the switch is said, not judged:
  a switch may pick other kernels.

Each compares with the first result bit for bit (every byte of every part; a NaN's payload
too): nothing here is judged against a tolerance, since the values' bounds are the other
checks'. A result that is not bitwise repeatable under a condition fails it until the spec, or
the adapter for every spec, documents it (a difference of kind `repeat` whose case names the
condition; regime nondeterministic): a recorded behaviour, never a flake. What the switch
refuses (an op with no deterministic kernel) fails the same way, and is documented as raises.
"""
import contextlib
import dataclasses
import os

import numpy as np

from reports.records import REPEAT_CASES
from suites.benchmarks import machine, workloads
from suites.judging import compare, differences, entries
from suites.judging.outcome import Outcome, one_line
from suites.programs.context import fresh_context
from suites.running import faults

RUNS = 3
MAX_ELEMENTS = 2**24  # a size's input elements beyond this (cross-entropy's 131M) are a benchmark's alone
CONDITIONS = REPEAT_CASES


def passes(spec, dtype: str, mode: str) -> list:
    """The workloads a repeat item runs (workloads.workloads: the block's sizes, dtypes, modes
    and passes): its passes at the smallest size of this dtype within MAX_ELEMENTS, in this mode;
    none where the block has no such size."""
    work = [w for w in _within(spec) if w.dtype == dtype and w.mode == mode]
    if not work:
        return []
    smallest = min((w.size for w in work), key=_elements)["name"]
    return [w for w in work if w.size["name"] == smallest]


def dtypes(spec) -> list:
    """The dtypes a spec's repeat items run in: those of a size within MAX_ELEMENTS."""
    return sorted({w.dtype for w in _within(spec)})


def _within(spec) -> list:
    return [w for w in workloads.workloads([spec]) if _elements(w.size) <= MAX_ELEMENTS]


def _elements(size: dict) -> int:
    return sum(int(np.prod(shape)) for shape in size["inputs"].values() if isinstance(shape, (list, tuple)))


def results(work: list, adapter, device: str, runs: int = 1) -> dict:
    """pass -> its first call's parts (NumPy) and, for runs > 1, each later call's: the same
    staged function called again; an exception a pass raised, as its one-line text."""
    out = {}
    for workload in work:
        try:
            _, fn, args, _, _ = workloads.staged(workload, adapter, device)
            calls = []
            for _ in range(runs):
                with adapter.device_scope(device):
                    calls.append(parts(adapter, fn(*args)))
            out[workload.pass_name] = calls
        except Exception as exc:  # the framework's own error is data here (a switch's refusal)
            out[workload.pass_name] = one_line(exc)
    return out


def parts(adapter, result, name: str = "result") -> list:
    """A step's result as (name, NumPy array) pairs: a tensor, or tuples and dicts (a reverse
    pass' gradients, by input name) of them."""
    if isinstance(result, dict):
        return [p for k in sorted(result) for p in parts(adapter, result[k], f"d/d{k}")]
    if isinstance(result, (tuple, list)):
        return [p for k, r in enumerate(result) for p in parts(adapter, r, f"{name}[{k}]")]
    return [(name, None if result is None else np.array(adapter.to_numpy(result)))]


def in_fresh_process(adapter_paths: list, spec_file: str, spec_name: str, adapter_name: str, device: str,
                     dtype: str, mode: str, switch: bool) -> dict:
    """In an isolated process: {"plain": results}, and with `switch`, {"switch": results made
    and run after the adapter's determinism switch, "call": the switch's call} as well."""
    ctx = fresh_context(adapter_paths, spec_file, spec_name, adapter_name, device, dtype, mode)
    work = passes(ctx.spec, dtype, mode)
    out = {"plain": results(work, ctx.adapter, device)}
    if switch:
        out["call"] = ctx.adapter.deterministic()
        out["switch"] = results(work, ctx.adapter, device, runs=RUNS) if out["call"] else {}
    return out


@contextlib.contextmanager
def one_thread():
    """A fresh process started in it runs on one CPU with every thread-count variable at 1 (they
    must be in its environment when it starts: suites/benchmarks/machine.py)."""
    saved, cpus = dict(os.environ), machine.usable_cpus()
    os.environ.update(machine.thread_environment(1))
    os.sched_setaffinity(0, cpus[:1])  # a spawned process inherits it, and XLA sizes its pool by it
    try:
        yield
    finally:
        os.sched_setaffinity(0, cpus)
        os.environ.clear()
        os.environ.update(saved)


def bitwise(first: list, other: list) -> compare.Comparison:
    """Two results of the same work, part by part: ok when every byte is the same; otherwise how
    many elements differ, the largest difference and its place."""
    if len(first) != len(other):
        return compare.Comparison(False, f"{len(other)} parts, first run {len(first)}")
    for (name, a), (_, b) in zip(first, other):
        if a is None or b is None:
            if (a is None) != (b is None):
                return compare.Comparison(False, f"{name}: a gradient in one run and none in the other")
            continue
        if a.shape != b.shape or a.dtype != b.dtype:
            return compare.Comparison(False, f"{name}: {b.dtype}{b.shape}, first run {a.dtype}{a.shape}")
        same = (np.ascontiguousarray(a).view(np.uint8).reshape(a.shape + (-1,)) ==
                np.ascontiguousarray(b).view(np.uint8).reshape(b.shape + (-1,))).all(axis=-1)
        if not same.all():
            # NaN against a number, or NaNs of other payloads: the largest distance
            distance = np.where(same, 0.0, np.nan_to_num(np.abs(a.astype(np.float64) - b.astype(np.float64)),
                                                         nan=np.inf))
            where = np.unravel_index(int(np.argmax(distance)), a.shape)
            at = tuple(int(i) for i in where)
            return compare.Comparison(False, f"{name}: {int((~same).sum())} of {same.size} elements differ bitwise; "
                                      f"the most at {at}: {a[where]}, then {b[where]}",
                                      max_abs_err=float(distance[where]))
    return compare.Comparison(True, "bitwise equal")


def outcomes(ctx, adapter_paths: list, spec_file: str, next_case=lambda: None) -> list:
    """The item's outcome under each condition, in CONDITIONS' order; next_case() before each fresh
    process (the runner renews the item's --case-timeout: each process compiles the work anew)."""
    work = passes(ctx.spec, ctx.dtype, ctx.mode)
    first = results(work, ctx.adapter, ctx.device, runs=RUNS)
    out = [judged(ctx, "repeat", first, {p: c if isinstance(c, str) else c[1:] for p, c in first.items()})]
    if out[0].status == "unsupported":  # nothing ran here to compare with
        return [dataclasses.replace(out[0], case=c) for c in CONDITIONS]
    args = (adapter_paths, spec_file, ctx.spec.name, ctx.adapter.name, ctx.device, ctx.dtype, ctx.mode)
    next_case()
    fresh = _fresh(*args, True)
    if isinstance(fresh, Outcome):
        return out + [dataclasses.replace(fresh, case=c) for c in ("process", "switch", "threads")]
    out.append(judged(ctx, "process", first, fresh["plain"], "in a fresh process"))
    if fresh["call"]:
        out.append(_under_switch(ctx, fresh))
    else:
        out.append(Outcome("unsupported", "switch", f"{ctx.adapter.name} documents no determinism switch that "
                           "applies on this machine (Adapter.deterministic)"))
    cpus = len(machine.usable_cpus())
    if cpus < 2:
        return out + [Outcome("unsupported", "threads", "one usable CPU: no other thread count to compare")]
    next_case()
    with one_thread():
        alone = _fresh(*args, False)
    out.append(alone if isinstance(alone, Outcome) else
               judged(ctx, "threads", first, alone["plain"], f"in a fresh process on 1 CPU ({cpus} here)"))
    return out


def _under_switch(ctx, fresh: dict) -> Outcome:
    """The switch's runs against each other; whether they equal the run without it, said."""
    runs, call = fresh["switch"], fresh["call"]
    refused = [(name, error) for name, error in runs.items() if isinstance(error, str)]
    if refused:  # it ran without the switch: the switch refuses it (an op with no deterministic kernel)
        outcome = Outcome("fail", "switch", f"the {refused[0][0]} pass raises under {call}: {refused[0][1]}")
        diff = entries.find(ctx, "switch", "repeat")
        return differences.repeat(outcome, diff, RuntimeError(refused[0][1])) if diff else outcome
    outcome = judged(ctx, "switch", runs, {p: c[1:] for p, c in runs.items()}, f"under {call}")
    unlike = [bitwise(fresh["plain"][p][0], c[0]) for p, c in runs.items() if not isinstance(fresh["plain"][p], str)]
    unlike = [u.reason for u in unlike if not u.ok]
    outcome.message += f"; other bits than without it ({unlike[0]})" if unlike else "; the same bits as without it"
    return outcome


def _fresh(*args):
    """in_fresh_process's answer, or an error Outcome where the process died or raised."""
    try:
        answer, died = faults.isolated(in_fresh_process, *args)
    except RuntimeError as exc:
        return Outcome("error", "process", f"the fresh process raised: {one_line(exc)}")
    return Outcome("error", "process", f"the fresh process died: {died}") if died else answer


def judged(ctx, condition: str, first: dict, other: dict, note: str = "") -> Outcome:
    """One condition's outcome: each pass's results under it against this process's first run,
    bit for bit, with what the spec documents for the condition (kind repeat)."""
    outcome, raised = Outcome("pass", condition, ""), None
    for name, calls in first.items():
        got = other.get(name)
        if isinstance(calls, str):  # nothing to repeat: its value or gradient check judges the error
            return Outcome("unsupported", condition, f"the {name} pass raises here: {calls}")
        if isinstance(got, str):
            outcome, raised = Outcome("fail", condition, f"the {name} pass raises {note}: {got}"), RuntimeError(got)
            break
        for k, call in enumerate(got):
            result = bitwise(calls[0], call)
            if not result.ok:
                where = f"call {k + 2} in this process" if condition == "repeat" else note
                outcome = Outcome("fail", condition, f"not bitwise repeatable ({name} pass, {where}): "
                                  f"{result.summary()}", result)
                break
        if outcome.status != "pass":
            break
    if outcome.status == "pass":
        outcome.message = f"bitwise equal {note}".strip() + f" ({', '.join(first)})"
    diff = entries.find(ctx, condition, "repeat")
    return differences.repeat(outcome, diff, raised) if diff else outcome

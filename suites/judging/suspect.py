"""A suspect oracle: where every framework agrees with every other, and all of them disagree with
the float64 reference (or the finite differences, or a documented value), the oracle is the
likelier culprit. Such a case is recorded as "suspect", never as a fail of each framework.

Only a fail is questioned, and only once (after hypothesis has shrunk it): the same check runs on
the same inputs on the run's other in-process adapters (every built-in framework but the
reference and Keras, whose backends need their own processes). The case is suspect when at least
MIN_OTHERS of them take it, every one fails it too, and all of their results lie within AGREEMENT
ulp of this adapter's. One framework that passes, or one that disagrees, leaves the fail standing.
The run checks the others in a process apart (suites/running/items.py): one of them that kills
its process, or raises there, leaves the fail standing, with its record.
"""
import dataclasses

import numpy as np

import adapters
from suites.judging import compare, entries
from suites.judging.outcome import Outcome

MIN_OTHERS = 2  # other frameworks that must agree: three in all
AGREEMENT = 4  # ulp of the judged dtype, relative to the largest magnitude of the result


def questioned(ctx, outcome: Outcome, again, candidates, elsewhere=None) -> Outcome:
    """The fail as "suspect" when the other adapters named in `candidates` all fail it and agree
    with this one; `again(ctx)` runs the same check (same inputs, same random directions) for a
    context. `elsewhere(names)` runs it on those adapters in a process apart: [(name, status,
    actual)], or why it could not (default: in this process). Anything else comes back as it was."""
    if outcome.status != "fail":
        return outcome
    names = [other.adapter.name for other in _others(ctx, candidates)  # a documented killer is never run
             if not any(entries.find(other, outcome.case, kind, crashes=True) for kind in ("value", "gradient"))]
    if len(names) < MIN_OTHERS:
        return outcome
    results = (elsewhere or _here(ctx, again))(names)
    if isinstance(results, str):
        outcome.message += f" (the oracle check on {', '.join(names)} did not finish: {results}; the fail stands)"
        return outcome
    others = []
    for name, status, actual in results:
        if status == "unsupported":
            continue
        if status != "fail" or actual is None:
            return outcome
        others.append((name, actual))
    if len(others) < MIN_OTHERS:
        return outcome
    mine = again(ctx).actual  # this adapter again, with the others' random directions
    if mine is None:
        return outcome
    if not all(_agree(mine, actual, ctx.judged) for _, actual in others):
        return outcome
    names = ", ".join(name for name, _ in others)
    return Outcome("suspect", outcome.case, f"oracle suspect: {ctx.adapter.name}, {names} agree within {AGREEMENT} "
                   f"ulp and all differ from the oracle the same way ({outcome.message})", outcome.comparison,
                   outcome.inputs, outcome.actual)


def _here(ctx, again):
    """The check on the named adapters in this process: [(name, status, actual)]."""
    def run(names):
        contexts = {other.adapter.name: other for other in _others(ctx, names)}
        return [(name, result.status, result.actual) for name in names for result in [again(contexts[name])]]
    return run


def _others(ctx, candidates):
    """Contexts for the other in-process adapters of the run, on the same device."""
    for name in candidates:
        if name in ("reference", ctx.adapter.name) or name.startswith("keras"):
            continue
        try:
            adapter = adapters.get(name)
        except adapters.AdapterError:
            continue
        if ctx.device in adapter.devices():
            yield dataclasses.replace(ctx, adapter=adapter, mode="eager", staged={})


def _agree(a, b, dtype: str) -> bool:
    if compare.is_complex(dtype):  # component by component
        a, b, dtype = compare.as_pairs(a), compare.as_pairs(b), compare.COMPONENT[dtype]
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return False
    if not compare.is_float(dtype):
        return bool(np.array_equal(a, b))
    scale = np.abs(a).max(initial=0.0)
    allowed = AGREEMENT * float(compare.ulp(np.array(scale), dtype)) + compare.tiny(dtype)
    with np.errstate(invalid="ignore"):
        close = (np.abs(a - b) <= allowed) | (np.isnan(a) & np.isnan(b)) | (a == b)
    return bool(close.all())

"""The result record: one JSON line per case outcome. This module is its one definition.

The suites write records (suites/items.py for outcomes, suites/faults.py for crashes and
timeouts) and the report reads them; both take the fields and statuses from here, and this
module imports nothing of Parity's, so the report never imports suites/ or adapters/.
"""
# What became of a case, in the order the report lists them.
STATUSES = ("pass", "documented", "suspect", "fail", "unsupported", "error", "crash", "timeout")
PASSING = frozenset({"pass", "documented"})  # agrees with the reference, or differs exactly as documented
FAILING = ("fail", "error", "crash", "timeout")  # what fails a run (unsupported is a skip)
# suspect: every framework agrees and the reference does not (suites/suspect.py): the oracle is
# looked at, no framework fails; the run warns and the report shows it beside the failures.

# Every record has these fields (None where they do not apply), then the run's environment
# (python, numpy, machine, platform, commit).
FIELDS = (
    "spec",  # area/spec-id, e.g. matmul/batched-x-broadcast-vector
    "case",  # the example's name, "hypothesis", or "-" for an item that ended without outcomes
    "kind",  # example, collective, property, gradient, training
    "adapter", "device", "dtype", "status", "message",
    "max_abs_err", "max_rel_err", "ulp",  # the largest errors against the float64 reference
    "worst",  # index of the worst element
    "seed",  # a hypothesis case's seed
    "example",  # a failing case's inputs: shapes, dtypes, values when small
    "around",  # the worst element's neighbourhood along the last axis: start, expected, actual
    "output",  # an example's values (up to 4096), for the cross-framework heatmap
    "repro",  # a failing case as standalone code per framework
    "difference",  # a documented outcome's note and source
    "parts",  # a result of several parts (a model's layers): per part its errors, bound and drift, in order
    "trajectory",  # a model's SGD steps: per step the loss, the reference's loss at the same parameters
    "signal",  # the fatal signal of a crash
    "duration", "versions", "test",
)
ENVIRONMENT = frozenset({"python", "numpy", "machine", "platform", "commit"})  # suites/results.py: environment()


def record(**fields) -> dict:
    """A record with every field (None where not given); refuses a field or status it does not
    know, so that writer and reader cannot drift apart."""
    unknown = set(fields) - set(FIELDS) - ENVIRONMENT
    if unknown:
        raise ValueError(f"unknown record fields {sorted(unknown)}")
    if fields.get("status") not in STATUSES:
        raise ValueError(f"status takes {', '.join(STATUSES)}. Received: {fields.get('status')!r}")
    return {**dict.fromkeys(FIELDS), **fields}


KEY = ("spec", "case", "kind", "adapter", "device", "dtype")  # what identifies one outcome across runs


def status_changes(before: list, after: list) -> dict:
    """Two runs' records compared by KEY: {"changed": [(key, before, after)], "gone": [key],
    "new": [key]}, each sorted; a key's status is its record's (the last, if written twice)."""
    old = {tuple(r.get(k) for k in KEY): r["status"] for r in before}
    now = {tuple(r.get(k) for k in KEY): r["status"] for r in after}
    return {"changed": sorted((k, old[k], now[k]) for k in old.keys() & now.keys() if old[k] != now[k]),
            "gone": sorted(old.keys() - now.keys()), "new": sorted(now.keys() - old.keys())}

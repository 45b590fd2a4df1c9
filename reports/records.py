"""The result record: one JSON line per case outcome. This module is its one definition.

The suites write records (suites/running/items.py for outcomes, suites/running/faults.py for crashes and
timeouts) and the report reads them; both take the fields and statuses from here, and this
module imports nothing of Parity's, so the report never imports suites/ or adapters/.
"""
import collections

# What became of a case, in the order the report lists them.
STATUSES = ("pass", "documented", "suspect", "fail", "unsupported", "error", "crash", "timeout")
# The modes whose results are judged against the eager one too (suites/judging/modes.py): the same
# program, whole, run by another executor (the mixed mode computes in another precision: judged by
# its own reference).
AGAINST_EAGER = ("compiled", "exported")
PASSING = frozenset({"pass", "documented"})  # agrees with the reference, or differs exactly as documented
FAILING = ("fail", "error", "crash", "timeout")  # what fails a run (unsupported is a skip)
# suspect: every framework agrees and the reference does not (suites/judging/suspect.py): the oracle is
# looked at, no framework fails; the run warns and the report shows it beside the failures.

# The kinds of documented difference (specs/schema.json, a difference's `regime`), in the order
# the page lists them: what a port trips over first.
# The cases of a repeat record (suites/running/repeat.py): the conditions a result must come back
# bitwise under: again in one process, in a fresh process, on one CPU, under the determinism switch.
REPEAT_CASES = ("repeat", "process", "threads", "switch")

REGIMES = ("default", "promotion", "special-value", "no-gradient", "precision", "crash", "compiler",
           "nondeterministic", "semantics")

# Every record has these fields (None where they do not apply), then the run's environment
# (python, numpy, machine, platform, commit).
FIELDS = (
    "spec",  # area/spec-id, e.g. matmul/batched-x-broadcast-vector
    "case",  # the example's name, "hypothesis", or "-" for an item that ended without outcomes
    "kind",  # example, collective, property, gradient, training, benchmark (a benchmark's output check),
    # multihost (a collective across processes: suites/multihost/__init__.py),
    # fuzz (a kind of failure a random program found: suites/fuzz/)
    "adapter", "device", "dtype",
    "mode",  # eager, or compiled by the framework's compiler (records before modes existed: eager)
    "status", "message",
    "max_abs_err", "max_rel_err", "ulp",  # the largest errors against the float64 reference
    "worst",  # index of the worst element
    "seed",  # a hypothesis case's seed
    "example",  # a failing case's inputs: shapes, dtypes, values when small
    "around",  # the worst element's neighbourhood along the last axis: start, expected, actual
    "output",  # an example's values (up to 4096), for the cross-framework heatmap
    "repro",  # a failing case as standalone code per framework
    "difference",  # a documented outcome's note and source
    "ops",  # the vocabulary ops whose behaviour the spec's user meets (a model's: its layers', optimizers' and
    # default initialisations'), sorted; the port view of a model narrows to the specs within them
    "parts",  # a result of several parts (a model's layers): per part its errors, bound and drift, in order
    "trajectory",  # a model's training steps: per step the loss, the reference's loss at the same parameters
    "eager",  # a compiled outcome's eager counterpart on the same case: its status, message, distance
    "signal",  # the fatal signal of a crash
    "duration", "versions", "test",
    "adapter_env",  # the environment variables that configure the adapter (Adapter.environment), or None
    "rerun",  # a failing or documented item's command line: its environment, pytest, node id, the run's options
)
ENVIRONMENT = frozenset({"python", "numpy", "machine", "platform", "commit"})  # suites/running/results.py environment()


def record(**fields) -> dict:
    """A record with every field (None where not given); refuses a field or status it does not
    know, so that writer and reader cannot drift apart."""
    unknown = set(fields) - set(FIELDS) - ENVIRONMENT
    if unknown:
        raise ValueError(f"unknown record fields {sorted(unknown)}")
    if fields.get("status") not in STATUSES:
        raise ValueError(f"status takes {', '.join(STATUSES)}. Received: {fields.get('status')!r}")
    return {**dict.fromkeys(FIELDS), **fields}


KEY = ("spec", "case", "kind", "adapter", "device", "dtype", "mode")  # what identifies one outcome across runs


def key_of(record: dict) -> tuple:
    """A record's KEY values (a record from before modes existed ran eagerly)."""
    return tuple(record.get(k) or ("eager" if k == "mode" else None) for k in KEY)


def mode_of(record: dict) -> str:
    return record.get("mode") or "eager"


def column(record: dict) -> str:
    """A record's column on the page: its adapter, with its mode after it in the compiled, mixed
    and exported modes (adapter x mode; the page's adapter filter keeps every mode)."""
    adapter = str(record.get("adapter", "?"))
    return adapter if mode_of(record) == "eager" else f"{adapter} {mode_of(record)}"


def standing(records: list) -> list:
    """The records that count: where one machine recorded one pytest item's outcome twice (a
    re-run into the same results, or two results folders given together), the later record
    stands, in reading order (the inputs as given, each folder's files by name: timestamped
    folders sort by time, then line by line). The multi-process collectives' test ids name their
    world (multihost::SPEC/CASE[adapter-device-dtype-NxD]): a 2- and a 3-process run are two items,
    and so are two versions' runs of one item (an upgrade's runs read together). Records without
    a test id (written before they had one) all count."""
    kept = {}
    for index, r in enumerate(records):
        item = (r.get("machine"), r["test"], key_of(r), release(r)) if r.get("test") else index
        kept.pop(item, None)  # re-inserted last: the later record, in reading order
        kept[item] = r
    return list(kept.values())


def commit_of(records: list) -> str | None:
    """The commit most of a run's records name (None where none names one)."""
    commits = collections.Counter(str(r["commit"]) for r in records if r.get("commit"))
    return commits.most_common(1)[0][0] if commits else None


def release(record: dict):
    """The version its adapter's framework ran at, as the record names it (None if it does not)."""
    return (record.get("versions") or {}).get(record.get("adapter"))


def versioned(records: list) -> list:
    """The records, with the adapter named with its version ("torch 2.15.0") where they hold one
    adapter at several versions (an upgrade's two runs read together), so that the page's columns
    and its port view keep the versions apart; records of an adapter at one version as they are."""
    seen = {}
    for r in records:
        seen.setdefault(r.get("adapter"), set()).add(release(r))
    several = {adapter for adapter, found in seen.items() if len(found) > 1}
    return [{**r, "adapter": f"{r['adapter']} {release(r)}"} if r.get("adapter") in several else r for r in records]


def of_a_model(record: dict) -> bool:
    """Whether a record is a model's: a training run (a trajectory) or a forward pass judged layer
    by layer (parts that carry a drift: suites/programs/model.py measures one per layer)."""
    return record.get("kind") == "training" or record.get("kind") == "example" and any(
        isinstance(p, dict) and p.get("drift") is not None for p in record.get("parts") or ())

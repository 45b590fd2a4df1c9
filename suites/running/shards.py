"""Sharding: `pytest ... --shard K/N` runs the K-th of N parts of the collected items.

Why our own and not pytest-split: Parity's records already carry each item's duration and node id
(`duration` per outcome, `test`), so any earlier results folder is the durations file, with no
separate `--store-durations` pass to keep in step; and the split must come after `--share`
chooses the items, so that N shards together run exactly the items one unsharded run does.

The split is deterministic: items in descending recorded duration (ties by node id) go one by one
to the shard with the least time so far (the longest-processing-time rule, within 4/3 of the
best split). An item with no recorded duration is estimated by the mean of recorded items of its
adapter, kind and mode, else of its kind and mode (a compiled gradient costs far more than an eager
example), else of all of them, else 1 s; `python -m suites estimate` uses the same estimates.
Every process that collects (xdist's workers too) computes the same split.
"""
import collections
import pathlib
import re

from reports import cost
from suites.running import results

SHARD = re.compile(r"^(\d+)/(\d+)$")


class ShardError(ValueError):
    """A --shard or --shard-durations that cannot be used."""


def parse(text: str) -> tuple[int, int]:
    """'K/N' -> (K, N) with 1 <= K <= N."""
    match = SHARD.match(text.strip())
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise ShardError(f"--shard takes K/N with 1 <= K <= N (the K-th of N shards, e.g. 2/3). Received: {text!r}")
    return int(match[1]), int(match[2])


def read_durations(path) -> dict:
    """Seconds per node id from the result records under `path` (a results folder, a folder of
    them, or a .jsonl file): an item's outcomes each carry the item's time divided among them,
    so they are summed."""
    path = pathlib.Path(path)
    if not path.exists():
        raise ShardError(f"--shard-durations: no such results folder or file: {path}")
    durations = collections.defaultdict(float)
    for record in results.read_lines(sorted(path.rglob("*.jsonl")) if path.is_dir() else [path]):
        if record.get("test") and isinstance(record.get("duration"), (int, float)):
            durations[record["test"]] += record["duration"]
    return dict(durations)


def estimates(items: list, durations: dict) -> list:
    """Seconds per item: recorded, else the mean of its own (adapter, kind, mode) group, else of
    its (kind, mode), else the overall mean, else 1."""
    levels = (group_of, _coarse)
    groups = [collections.defaultdict(list) for _ in levels]
    for item in items:
        if item.nodeid in durations:
            for level, by in zip(levels, groups):
                by[level(item)].append(durations[item.nodeid])
    known = [d for values in groups[0].values() for d in values]
    overall = sum(known) / len(known) if known else 1.0

    def estimate(item):
        if item.nodeid in durations:
            return durations[item.nodeid]
        return next((_mean(by[level(item)]) for level, by in zip(levels, groups) if by.get(level(item))), overall)

    return [estimate(i) for i in items]


def group_of(item) -> tuple:
    """What an item's cost depends on most: its adapter, its kind of check (reports/cost.py's
    label: a generated gradient is not an example's) and its mode."""
    return getattr(item, "adapter_name", ""), *_coarse(item)


def _coarse(item) -> tuple:
    return cost.label(getattr(item, "kind", "test"), getattr(item, "generated", False)), getattr(item, "mode", "")


def _mean(values) -> float | None:
    return sum(values) / len(values) if values else None


def split(items: list, count: int, durations: dict) -> list[list]:
    """`count` lists of items, balanced by estimated seconds; each keeps the collection order."""
    seconds = estimates(items, durations)
    order = sorted(range(len(items)), key=lambda i: (-seconds[i], items[i].nodeid))
    totals, owner = [0.0] * count, {}
    for index in order:
        shard = min(range(count), key=lambda s: (totals[s], s))
        totals[shard] += seconds[index]
        owner[index] = shard
    return [[item for index, item in enumerate(items) if owner[index] == shard] for shard in range(count)]

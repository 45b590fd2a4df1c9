"""The last whole run: every item of the suite run once (at share 1, in parts: the adapters,
modes and kinds a run holds), and its status counts per adapter, mode and kind, kept in
reports/whole-run.json (and docs/whole-run.md) so that every report built afterwards can say what
the whole suite last showed, and when.

A 2% or 3% run checks a sample; this file is the one place the state of the other 97% is kept.
`python -m reports whole-run RESULTS...` folds a part's results in: each (adapter, mode, kind) row
it holds replaces the row of an earlier part, with the part's commit and date, so the file is, row
by row, the latest whole run of that adapter, mode and kind (a part that left the repeat checks
out, -k "not /repeat", leaves their rows to a part of their own). A part also keeps how many items
its runs collected and how many left a record: an item without one is counted, never hidden.
"""
import collections
import datetime
import json
import pathlib

from reports.records import STATUSES, commit_of, standing

WHOLE_RUN = pathlib.Path(__file__).with_name("whole-run.json")
WHOLE_RUN_PAGE = pathlib.Path(__file__).resolve().parent.parent / "docs" / "whole-run.md"
WHOLE_SUITE = ["specs"]  # what a part's runs must have collected from (their paths, relative to the project)
# An item's status is its worst record's, worst last: a failure anywhere in an item is the item's,
# and an item is unsupported only where nothing of it ran (as pytest skips it only then).
SEVERITY = ("unsupported", "pass", "documented", "suspect", "fail", "error", "timeout", "crash")
assert sorted(SEVERITY) == sorted(STATUSES)


def item_statuses(records: list) -> dict:
    """{(adapter, mode, kind, test id): status} over records that name their pytest item, each item
    at its worst record's status."""
    worst = {}
    for r in records:
        if not r.get("test"):
            continue
        key = (*_key(r), r["test"])
        status = r["status"]
        if key not in worst or SEVERITY.index(status) > SEVERITY.index(worst[key]):
            worst[key] = status
    return worst


def with_reruns(records: list, reruns: list) -> list:
    """The part's standing records, a rerun's record standing over the part's (records.standing):
    only those of the part's adapters, modes and kinds, so that a rerun of more than the part ran
    (a spec's every mode) never adds rows the part did not run whole."""
    held = {_key(r) for r in records if r.get("test")}
    return standing([*records, *(r for r in reruns if _key(r) in held)])


def rows(records: list, commit: str, date: str) -> list:
    """One row per adapter, mode and kind: its items, their statuses counted, the part's commit
    and date."""
    counted = collections.defaultdict(collections.Counter)
    for (adapter, mode, kind, _), status in item_statuses(records).items():
        counted[adapter, mode, kind][status] += 1
    return [{"adapter": adapter, "mode": mode, "kind": kind, "items": sum(c.values()),
             "statuses": {s: c[s] for s in STATUSES if c[s]}, "commit": commit, "date": date}
            for (adapter, mode, kind), c in sorted(counted.items())]


def part(records: list, selections: list, files: list) -> dict:
    """A part of the whole run from its records, its runs' selection manifests and its record
    files: the commit most records name, the day its last file was written, how many items its
    runs collected and how many left a record, and the -k expressions they ran under. Refuses a
    part that is not whole, which would stand for items it never ran: a share under 1, a run of
    some spec files or items only (pytest's paths other than specs/), or a run without its manifest
    (which says both). -k is kept, not refused: a part leaves out kinds that way (-k "not /repeat")."""
    if not selections:
        raise ValueError("these results hold no selection manifest (selection-*.json), which says what a run "
                         "collected: a part must say it ran the whole suite")
    shares = {s.get("share") for s in selections}
    if shares - {1.0}:
        raise ValueError(f"a whole run is at share 1; these results are at share {sorted(shares)}")
    partial = sorted({" ".join(s.get("paths") or ["(not recorded)"]) for s in selections
                      if s.get("paths") != WHOLE_SUITE})
    if partial:
        raise ValueError(f"a whole run collects the whole spec folder (pytest specs); these results ran {partial}")
    _whole_set_of_shards(selections)
    commit = commit_of(records) or "unknown"
    newest = max((f.stat().st_mtime for f in files), default=None)
    date = datetime.datetime.fromtimestamp(newest, datetime.UTC).strftime("%Y-%m-%d") if newest else "unknown"
    collected = sum(s.get("kept", 0) if s.get("shard") else s.get("collected", 0) for s in selections)
    return {"commit": commit, "date": date, "collected": collected,
            "keywords": sorted({s.get("keyword") or "" for s in selections}),
            "recorded": len({test for *_, test in item_statuses(records)}),
            "rows": rows(records, commit, date)}


def _whole_set_of_shards(selections: list) -> None:
    """A part run in shards (--shard K/N) is one only with every shard of it: a shard alone would
    stand in its rows for the items the others ran. Each shard's run collects the whole suite and
    keeps its own items, so the part's collected items are the shards' kept ones."""
    shards = sorted({s["shard"] for s in selections if s.get("shard")})
    if not shards:
        return
    counts = {shard.split("/")[1] for shard in shards}
    if len(counts) > 1 or len(shards) != int(next(iter(counts))) or len(shards) != len(selections):
        raise ValueError(f"a part run in shards takes every shard of one run together, each once; these results "
                         f"hold {shards} of {len(selections)} runs")


def merge(whole: dict | None, new: dict) -> dict:
    """The whole run with a new part folded in: its rows replace those of the same adapter, mode
    and kind; a part none of whose rows stands any longer is dropped."""
    whole = whole or {"rows": [], "parts": []}
    number = 1 + max((p["part"] for p in whole["parts"]), default=0)
    kept = {_key(r): r for r in whole["rows"]}
    kept.update({_key(r): {**r, "part": number} for r in new["rows"]})
    standing = {r["part"] for r in kept.values()}
    summary = {"part": number, **{k: new[k] for k in ("commit", "date", "collected", "recorded", "keywords")}}
    return {"rows": [kept[k] for k in sorted(kept)],
            "parts": [p for p in whole["parts"] if p["part"] in standing] + [summary]}


def read(path=None) -> dict | None:
    """The last whole run as the page shows it: its rows, totals per status, the dates and commits
    it spans, and the items its parts lost; None where none is recorded."""
    try:
        whole = json.loads(pathlib.Path(path or WHOLE_RUN).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return read_from(whole)


def read_from(whole: dict) -> dict:
    """The whole run's file's contents with its totals, items, lost items, dates and commits."""
    totals = collections.Counter()
    for r in whole["rows"]:
        totals.update(r["statuses"])
    lost = sum(p["collected"] - p["recorded"] for p in whole["parts"] if p.get("collected") is not None)
    return {**whole, "totals": {s: totals[s] for s in STATUSES if totals[s]},
            "items": sum(r["items"] for r in whole["rows"]), "lost": lost,
            "dates": sorted({r["date"] for r in whole["rows"]}),
            "commits": sorted({r["commit"] for r in whole["rows"]})}


def _key(row: dict) -> tuple:
    return row["adapter"], row.get("mode") or "eager", row["kind"]


def missing(whole: dict | None, records: list) -> list:
    """The adapters, modes and kinds a page's records hold that the last whole run has not run
    whole ("torch compiled repeat"), so that the page never lets the whole run stand for them."""
    ran = {_key(r) for r in (whole or {}).get("rows", [])}
    held = {_key(r) for r in records if r.get("test")}
    return [" ".join(map(str, key)) for key in sorted(held - ran, key=str)]


def _keywords(part: dict) -> str:
    """The -k expressions a part's runs ran under, for its row ("-" where none, or not recorded)."""
    said = [f"`{k}`" for k in part.get("keywords", []) if k]
    return ", ".join(said) or "-"


def table(whole: dict) -> str:
    """The rows as a Markdown table."""
    head = ["adapter", "mode", "kind", "items", *STATUSES, "commit", "date"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in whole["rows"]:
        cells = [*_key(r), f'{r["items"]:,}', *(f'{r["statuses"].get(s, 0):,}' for s in STATUSES),
                 r["commit"], r["date"]]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def page(whole: dict) -> str:
    """docs/whole-run.md: the last whole run's totals, its parts and its rows, as `python -m
    reports whole-run --write` keeps them beside reports/whole-run.json."""
    shown = read_from(whole)
    totals = ", ".join(f"{n:,} {s}" for s, n in shown["totals"].items())
    parts = "\n".join(f'| {p["part"]} | {p["commit"]} | {p["date"]} | '
                      f'{"-" if p["collected"] is None else format(p["collected"], ",")} | {p["recorded"]:,} | '
                      f'{_keywords(p)} |' for p in whole["parts"])
    return f"""# The last whole run

<!-- written by `python -m reports whole-run RESULTS --write` (reports/whole.py); do not edit -->

Every item of the suite at share 1 (`--hypothesis-profile=ci`), run in parts, each part the
adapters, modes and kinds of one or a few pytest runs; a row stands until a later part runs its
adapter, mode and kind again. How the parts were run, and what they cost: docs/cost.md.

- items: {shown["items"]:,} ({totals})
- items its parts collected that left no record: {shown["lost"]:,}

| part | commit | date | items collected | items recorded | -k |
|---|---|---|---|---|---|
{parts}

{table(whole)}
"""

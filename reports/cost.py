"""What a run cost, from the records' own durations: seconds by (adapter, kind, mode).

An item's outcomes each carry the item's time divided among them, so an item's time is the sum
of its records' durations; a record without a test id (written before records had one) counts as
an item of its own. The same table ends every pytest run of the suites (conftest.py), shows in
the report's environment section, and `python -m suites estimate` scales it to a full run.
"""
import collections
import statistics

from reports.records import mode_of

GROUP = ("adapter", "kind", "mode")


def label(kind: str, generated: bool) -> str:
    """The kind of check as the cost table names it: a record's kind, but a generated case's
    gradient is a `gradient-property` (as its item's id says), which costs far more than an
    explicit example's."""
    return "gradient-property" if kind == "gradient" and generated else kind


def item_seconds(records) -> dict:
    """item -> ((adapter, kind, mode), seconds): an item's records summed."""
    items = {}
    for index, r in enumerate(records):
        seconds = r.get("duration")
        if not isinstance(seconds, (int, float)):
            continue
        name = r.get("test") or f"record {index}"
        kind = label(str(r.get("kind", "?")), r.get("case") == "hypothesis")
        group = (str(r.get("adapter", "?")), kind, mode_of(r))
        previous = items.get(name, (group, 0.0))[1]
        items[name] = (group, previous + float(seconds))
    return items


def table(items: dict) -> list[dict]:
    """Rows by (adapter, kind, mode), the costliest first: items, total and median seconds per
    item, and the share of the whole run's item time. `items` as item_seconds gives them."""
    by_group = collections.defaultdict(list)
    for group, seconds in items.values():
        by_group[group].append(seconds)
    whole = sum(sum(v) for v in by_group.values()) or 1.0
    rows = [{**dict(zip(GROUP, group)), "items": len(v), "seconds": sum(v), "median": statistics.median(v),
             "share": sum(v) / whole} for group, v in by_group.items()]
    return sorted(rows, key=lambda row: (-row["seconds"], row["adapter"], row["kind"], row["mode"]))


def lines(rows: list[dict], title: str) -> list[str]:
    """The table as text, with a total line."""
    if not rows:
        return []
    head = ("adapter", "kind", "mode", "items", "total s", "median s", "share")
    body = [(r["adapter"], r["kind"], r["mode"], str(r["items"]), f"{r['seconds']:.1f}", f"{r['median']:.2f}",
             f"{100 * r['share']:.1f}%") for r in rows]
    total = sum(r["seconds"] for r in rows)
    body.append(("all", "", "", str(sum(r["items"] for r in rows)), f"{total:.1f}", "", "100%"))
    widths = [max(len(row[i]) for row in (head, *body)) for i in range(len(head))]
    numeric = {3, 4, 5, 6}

    def fmt(row):
        return "  ".join(c.rjust(w) if i in numeric else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths)))

    return [title, fmt(head), *map(fmt, body)]

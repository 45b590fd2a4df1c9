"""What changes when a framework is upgraded (`python -m reports upgrade OLD NEW`): two runs of one
spec tree's items (same share and seed: `python -m suites upgrade` makes them) at two versions of
a framework, read as an upgrade note.

It leads with what a user must act on: new failures, documented differences no longer observed
(the framework fixed them: the spec's entry gets a `versions` range) and newly documented ones
(another entry holds now, one whose `versions` range admits the new version).
Then what changed without failing: gradients that appeared or vanished, ops the framework now
supports or refuses, failures fixed. Then values that moved while staying within their bounds,
measured as the largest error in ulps against the float64 reference, so that "closer to exact"
and "further from exact" read apart (and an output that moved at the same distance says so).
Last, benchmark medians that moved beyond their noise (reports/perf.py). Every row carries its
mode; a compiled outcome whose eager counterpart did not change is marked compile-only, what the
compiler alone changed. Outcomes pair by records.KEY, which names no version.
"""
import collections
import math

from reports import changes
from reports.records import PASSING

ACT = ("new failures", "documented, no longer observed", "newly documented")
SECTIONS = (*ACT, "gradients appeared", "gradients vanished", "supported now", "unsupported now", "fixed",
            "other changes", "closer to exact", "further from exact", "moved, as far from exact")
MOVED = SECTIONS[-3:]
# The noise test compares samples within one process; the two versions run in two (docs/upgrades.md).
BENCHMARKS_APART = ("the versions' benchmarks ran in two processes, and the noise test does not see what differs "
                    "between processes (docs/upgrades.md measures it between two runs of one version): confirm a "
                    "move by running both sides again")


def upgrade(before: list, after: list, benchmarks=None) -> dict:
    """SECTIONS -> rows (dicts of key, area, ops (named, or counted past 3), was, now, ulp,
    compile_only), each sorted by key; "to_act": how many rows the ACT sections hold; "versions":
    per adapter whose version differs, its versions in each run; "benchmarks": reports/perf.py
    changes as given (None: the runs were not both timed); "only": how many outcomes one run alone
    has, (base, new)."""
    old, now = changes.latest(before), changes.latest(after)
    out = {section: [] for section in SECTIONS}
    for key in sorted(old.keys() & now.keys()):
        section = _section(old[key], now[key])
        if section:
            out[section].append(_row(key, old, now))
    out["to_act"] = sum(len(out[section]) for section in ACT)
    out["versions"] = versions(old.values(), now.values())
    out["benchmarks"] = benchmarks
    out["only"] = (len(old.keys() - now.keys()), len(now.keys() - old.keys()))
    return out


def _section(a: dict, b: dict) -> str | None:
    was, status = a["status"], b["status"]
    if was == status == "documented" and _note(a) != _note(b):
        return "newly documented"  # another documented behaviour holds now (an entry's `versions`)
    if was == status:  # a documented value is no distance from exact (it may be a kernel's garbage)
        return _moved(a, b) if status == "pass" else None
    group = changes.group_of(was, b)
    if group == "new failures" or group == "documented, no longer observed":
        return group
    if _gradient(a) or _gradient(b):
        if status in PASSING and not _no_gradient(b) and (was == "unsupported" or _no_gradient(a)):
            return "gradients appeared"
        if was in PASSING and not _no_gradient(a) and (status == "unsupported" or _no_gradient(b)):
            return "gradients vanished"
    if group == "other changes" and "unsupported" in (was, status):
        return "supported now" if was == "unsupported" else "unsupported now"
    return group


def _note(r: dict):
    return (r.get("difference") or {}).get("note")


def _gradient(r: dict) -> bool:
    return r.get("kind") == "gradient" or _no_gradient(r)


def _no_gradient(r: dict) -> bool:
    return r["status"] == "documented" and (r.get("difference") or {}).get("regime") == "no-gradient"


def _moved(a: dict, b: dict) -> str | None:
    """Where both pass: whether the values moved, by the largest error in ulps against the
    reference (its own rounding aside: 1e-9 relative), or by the recorded output alone."""
    ua, ub = a.get("ulp"), b.get("ulp")
    if isinstance(ua, (int, float)) and isinstance(ub, (int, float)) and not math.isclose(ua, ub, rel_tol=1e-9):
        return "closer to exact" if ub < ua else "further from exact"
    if a.get("output") is not None and b.get("output") is not None and a["output"] != b["output"]:
        return "moved, as far from exact"
    return None


def _row(key: tuple, old: dict, now: dict) -> dict:
    a, b = old[key], now[key]
    eager = (*key[:-1], "eager")
    compile_only = key[-1] == "compiled" and eager in old and eager in now and \
        old[eager]["status"] == now[eager]["status"] and a["status"] != b["status"]
    ops = list(b.get("ops") or ())  # a model's many ops are counted, not named
    return {"key": key, "area": str(key[0]).split("/")[0],
            "ops": ", ".join(ops) if len(ops) <= 3 else f"{len(ops)} ops",
            "was": a, "now": b, "ulp": (a.get("ulp"), b.get("ulp")), "compile_only": compile_only}


def version_lines(differing: dict) -> list:
    """`versions` as text, one line per adapter: "torch: 2.13.0+cpu -> 2.15.0"."""
    return [f"{name}: {', '.join(a) or '-'} -> {', '.join(b) or '-'}" for name, (a, b) in differing.items()]


def versions(before, after) -> dict:
    """adapter -> (its versions in the base run, in the new one), each a sorted list, for the
    adapters whose versions differ."""
    seen = collections.defaultdict(lambda: (set(), set()))
    for side, records in enumerate((before, after)):
        for r in records:
            for name, version in (r.get("versions") or {}).items():
                seen[name][side].add(str(version))
    return {name: (sorted(a), sorted(b)) for name, (a, b) in sorted(seen.items()) if a != b}


def lines(found: dict, width: int = 160) -> list:
    """The upgrade note as text: the versions, then a heading per non-empty section (what to act on
    first), its rows by spec area and op."""
    out = version_lines(found["versions"])
    for section in SECTIONS:
        rows = found[section]
        if not rows:
            continue
        act = " (act on these)" if section in ACT else ""
        out.append(f"{section} ({len(rows)}){act}:")
        for (area, ops), grouped in _by_area_and_op(rows).items():
            out.append(f"  {area} ({ops}):")
            out += [_line(row, section, width) for row in grouped]
    counts = ", ".join(f"{len(found[s])} {s}" for s in SECTIONS)
    out.append(f"{counts}; {found['only'][0]} outcomes only in the base run, {found['only'][1]} only in the new one")
    if found["benchmarks"] is None:
        return out
    return out + changes.benchmark_lines(found["benchmarks"]) + [BENCHMARKS_APART]


def _by_area_and_op(rows: list) -> dict:
    """(area, the ops its rows' specs meet) -> rows."""
    grouped = collections.defaultdict(list)
    for row in rows:
        grouped[(row["area"], row["ops"])].append(row)
    return dict(sorted(grouped.items()))


def _line(row: dict, section: str, width: int) -> str:
    spec, *rest = (str(v) for v in row["key"])
    where = f"    {spec} {' '.join(rest)}{' (compile-only)' if row['compile_only'] else ''}"
    if section in MOVED:
        text = f"{where}: {ulps(row['ulp'])}"
    else:
        text = f"{where}: {row['was']['status']} -> {row['now']['status']}: {row['now'].get('message') or ''}"
    return text if len(text) <= width else text[:width - 3] + "..."


def ulps(pair: tuple) -> str:
    """The largest error against the reference before and after, in ulps, with the digits that
    tell them apart (3 significant digits at least)."""
    numbers = all(isinstance(v, (int, float)) for v in pair)
    digits = next((d for d in range(3, 10) if numbers and f"{pair[0]:.{d}g}" != f"{pair[1]:.{d}g}"), 3)
    a, b = (f"{v:.{digits}g}" if isinstance(v, (int, float)) else "-" for v in pair)
    return f"largest error {a} -> {b} ulp"


def gate(found: dict) -> int:
    """The exit code of `upgrade`: 1 where the new version fails an outcome the old one did not, or
    no longer shows a documented difference (both need a change before the upgrade)."""
    return 1 if found["new failures"] or found["documented, no longer observed"] else 0

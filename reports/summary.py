"""What a team lead reads in ten seconds, and how it moved: per adapter and mode, the share of
specs it passes, its documented differences, its failures, its speed relative to the fastest on
the headline workloads (the benchmarks the run timed) and the models' first divergent layer;
then, given earlier runs, the same counts charted by commit and by framework version; and the
terminal's ending of a report run (`ending`): the totals per status and the failures; and the
page's first screen (`first_screen`): where the frameworks differ, most urgent first.
"""
import collections
import math

from reports import charts, groups, port
from reports.records import FAILING, column, standing


def adapters(records: list, performance: dict, models: list) -> list:
    """One row per column (adapter x mode): specs run (any outcome that is not unsupported),
    specs passed (none failing), documented differences (groups and outcomes), failures (groups
    and outcomes), unsupported outcomes, speed (geometric mean of its ratios to the fastest,
    with each workload's ratio) and, per model it ran, None where every layer is within its bound,
    else (the model, its first layer out of its bound)."""
    by_column = collections.defaultdict(list)
    for r in records:
        by_column[column(r)].append(r)
    speed = _speed(performance)
    out = []
    for name, mine in sorted(by_column.items()):
        ran = {str(r.get("spec")) for r in mine if r.get("status") != "unsupported"}
        failing = [r for r in mine if r.get("status") in FAILING]
        documented = [r for r in mine if r.get("status") == "documented"]
        first = mine[0]
        out.append({
            "column": name, "adapter": str(first.get("adapter")),
            "version": (first.get("versions") or {}).get(first.get("adapter"), ""),
            "environment": " ".join(f"{k}={v}" for k, v in (first.get("adapter_env") or {}).items()),
            "specs": len(ran), "passed": len(ran - {str(r.get("spec")) for r in failing}),
            "documented_groups": len(groups.difference_groups(documented)), "documented": len(documented),
            "failure_groups": len(groups.failure_groups(failing)), "failures": len(failing),
            "unsupported": sum(r.get("status") == "unsupported" for r in mine),
            "speed": speed.get(name),
            # (model, its first layer out of bound, the record's status: a documented one is not red)
            "models": [row["first"] and (f"{m['spec']} ({m['case']}, {m['dtype']})", row["first"], row["status"])
                       for m in models for row in m["rows"] if row["adapter"] == name],
        })
    return out


def _speed(performance: dict) -> dict:
    """column -> {"ratio": geometric mean of its ratios to the fastest, "workloads": [(key, ratio)]}."""
    ratios = collections.defaultdict(list)
    for bench in performance.get("benchmarks", ()):
        for row in bench["rows"]:
            if row.get("ratio"):
                name = row["adapter"] if row["mode"] == "eager" else f"{row['adapter']} {row['mode']}"
                ratios[name].append((bench["key"], row["ratio"]))
    return {name: {"ratio": math.exp(sum(math.log(r) for _, r in pairs) / len(pairs)), "workloads": pairs}
            for name, pairs in ratios.items()}


COUNTED = {"pass": "#1a7f37", "documented": "#bf8700", "failing": "#cf222e"}  # the page's status colours


def history(runs: list) -> list:
    """Per column, its pass / documented / failing counts over the runs (oldest first; each run
    a (label, records) pair): one chart by run (labelled by commit) and one by the framework
    version the column ran (the last run of each version)."""
    counts = []
    for label, records in runs:
        per = collections.defaultdict(collections.Counter)
        versions = {}
        for r in standing(records):
            name, status = column(r), r.get("status")
            per[name]["failing" if status in FAILING else status] += 1
            versions[name] = (r.get("versions") or {}).get(r.get("adapter"), "?")
        counts.append((label, per, versions))
    names = sorted({name for _, per, _ in counts for name in per})
    out = []
    for name in names:
        seen = [(label, per[name], versions.get(name, "?")) for label, per, versions in counts if name in per]
        if len(seen) < 2:
            continue
        by_version = {version: counter for _, counter, version in seen}  # the last run of each version
        out.append({
            "column": name,
            "by_commit": charts.lines({s: [c[s] for _, c, _ in seen] for s in COUNTED}, [lb for lb, _, _ in seen],
                                      f"{name}: outcomes per run", fmt=lambda v: f"{v:.0f}", colours=COUNTED),
            "by_version": charts.lines({s: [c[s] for c in by_version.values()] for s in COUNTED}, list(by_version),
                                       f"{name}: outcomes per framework version", fmt=lambda v: f"{v:.0f}",
                                       colours=COUNTED),
        })
    return out


FIRST = 3  # what the page's first screen names to look at first
PAIRS = 5  # the framework pairs it lists before folding the rest


def first_screen(records: list, new_failures=()) -> dict:
    """What the page's first screen answers: where the frameworks differ, most urgent first. A
    line per pair of frameworks (port.every_pair: its cases that differ by regime, its first
    group), the PAIRS most urgent shown, the rest folded; and the FIRST things to look at: the
    most urgent groups of every pair (port.ranked: failures, then behaviours, then conventions;
    an op a model calls first; the larger error), a failure new since the baseline before any
    other (`new_failures`: records), one per spec."""
    pairs = [(source, target, found, port.ranked(found)) for source, target, found in port.every_pair(records)]
    new = {(str(r.get("spec")), str(r.get("adapter"))) for r in new_failures}
    candidates = []
    for source, target, _, order in pairs:
        for regime, g in order:
            fresh = (g["spec"], target) in new or (g["spec"], source) in new
            candidates.append(((not fresh, port.URGENCY.index(regime), not g["used"], -port.size(g), -g["count"]),
                               regime, g, source, target, fresh))
    first, seen = [], set()
    for _, regime, g, source, target, fresh in sorted(candidates, key=lambda c: c[0]):
        if g["spec"] not in seen:
            seen.add(g["spec"])
            first.append({"regime": regime, "spec": g["spec"], "new": fresh, "count": g["count"],
                          "line": port.both_sides(g, source, target)})
    lines = []
    for source, target, found, top in pairs:
        counts = {regime: sum(g["count"] for g in rows) for regime, rows in found.items()}
        lines.append({"source": source, "target": target,
                      "differ": sum(n for regime, n in counts.items() if regime != "unsupported"),
                      "regimes": {regime: n for regime, n in counts.items() if regime != "unsupported"},
                      "unsupported": counts.get("unsupported", 0),
                      "first": f"[{top[0][0]}] {top[0][1]['spec']}" if top else ""})
    return {"first": first[:FIRST], "pairs": lines, "shown": PAIRS}


SCREEN = 12  # failures the terminal lists, each with its rerun command: one screen


def ending(records: list) -> list:
    """The last lines a report run prints: the cases' totals per status; the items as pytest
    counted them (an item fails where any of its cases fails, is skipped where each is
    unsupported, passes otherwise), so the two endings agree; then each failing item once (its
    test id, how many of its cases fail, the first one's message, its rerun command), SCREEN at
    most and a count of the rest."""
    records = standing(records)
    totals = collections.Counter(str(r.get("status")) for r in records)
    if not totals:
        return ["results: none"]
    items: dict = {}
    for index, r in enumerate(records):
        items.setdefault(r.get("test") or index, []).append(r)
    failing = {test: [r for r in cases if r.get("status") in FAILING] for test, cases in items.items()}
    failing = {test: bad for test, bad in failing.items() if bad}
    skipped = sum(all(r.get("status") == "unsupported" for r in cases) for cases in items.values())
    counts = {"failed": len(failing), "passed": len(items) - len(failing) - skipped, "skipped": skipped}
    lines = ["results: " + ", ".join(f"{n} {status}" for status, n in totals.most_common()) +
             f" (cases); {', '.join(f'{n} {word}' for word, n in counts.items() if n)} (items, as pytest counts them)"]
    for test, bad in list(failing.items())[:SCREEN]:
        first, cases = bad[0], len(items[test])
        message = " ".join(str(first.get("message") or "").split())[:160]
        of = f" ({len(bad)} of its {cases} cases)" if cases > 1 else ""
        lines.append(f"{str(first.get('status')).upper()} {first.get('test') or first.get('spec')}{of}: {message}")
        rerun = next((r["rerun"] for r in bad if r.get("rerun")), None)
        if rerun:
            lines.append(f"  run again: {rerun}")
    if len(failing) > SCREEN:
        lines.append(f"... and {len(failing) - SCREEN} more failing items: every one is on the page")
    return lines

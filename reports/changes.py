"""What changed between two runs, outcome by outcome (`python -m reports diff BASE NEW`, a CI
gate): new failures, fixed ones, documented differences no longer observed (fixed upstream: the
spec should change), newly documented ones, and every other change of status. Outcomes are keyed
by records.KEY (an adapter's versions apart where one run holds several); where a run wrote one
key twice, its later record stands (a re-run of an item)."""
from reports.records import FAILING, key_of, standing, versioned

# suites/judging/differences.py words a documented difference (or crash) that did not happen this way:
# "documented difference no longer observed: ..." (a fail record).
NO_LONGER_OBSERVED = "no longer observed"
GROUPS = ("new failures", "documented, no longer observed", "fixed", "newly documented", "other changes")


def latest(records: list) -> dict:
    """key -> the record that stands for it (records.standing), in one run; where the run holds an
    adapter at several versions, each version is an adapter of its own (records.versioned), so
    that its outcomes stay apart."""
    return {key_of(r): r for r in versioned(standing(records))}


def changes(before: list, after: list) -> dict:
    """GROUPS -> [(key, status before or None, the record now)], each sorted by key; "gone": the
    keys only the base run has; "added": how many outcomes only the new run has that neither fail
    nor are documented (new cases passing, or unsupported: counted, not listed)."""
    old, now = latest(before), latest(after)
    out = {group: [] for group in GROUPS}
    added = 0
    for key in sorted(now):
        record, was = now[key], old[key]["status"] if key in old else None
        group = group_of(was, record) if record["status"] != was else None
        if group == "other changes" and was is None:
            added += 1
        elif group:
            out[group].append((key, was, record))
    out["gone"], out["added"] = sorted(old.keys() - now.keys()), added
    return out


def group_of(was, record) -> str:
    status = record["status"]
    if (was == "documented" and status == "pass") or (
            status == "fail" and NO_LONGER_OBSERVED in (record.get("message") or "")):
        return "documented, no longer observed"
    if status in FAILING and was not in FAILING:
        return "new failures"
    if status == "documented":  # a failure now documented counts here, not as fixed
        return "newly documented"
    return "fixed" if was in FAILING and status == "pass" else "other changes"


def lines(found: dict, width: int = 160) -> list:
    """The changes as text, a heading per non-empty group, one line per outcome."""
    out = []
    for group in GROUPS:
        if found[group]:
            out.append(f"{group} ({len(found[group])}):")
            for key, was, record in found[group]:
                where = " ".join(str(v) for v in key)
                text = f"  {where}: {was or 'new'} -> {record['status']}: {record.get('message') or ''}"
                out.append(text if len(text) <= width else text[:width - 3] + "...")
    summary = ", ".join(f"{len(found[g])} {g}" for g in GROUPS)
    return out + [f"{summary}; {len(found['gone'])} outcomes only in the base run, {found['added']} more only in "
                  "the new one, none failing"]


def benchmark_lines(moved: list) -> list:
    """reports/perf.py changes as text: one line per benchmark whose median moved."""
    out = [f"benchmarks ({len(moved)}):"] if moved else []
    for c in moved:
        where = " (across machines)" if c["across"] else ""
        out.append(f"  {'SLOWER' if c['slower'] else 'faster'} {c['change']:+.1%} ({c['why']}){where}: "
                   f"{c['key']} {c['adapter']} {c['mode']}")
    return out + [f"{len(moved)} benchmark median(s) moved beyond 5% and their noise"]


def gate(found: dict) -> int:
    """The exit code of `diff`: 1 where the new run fails an outcome the base did not fail."""
    return 1 if found["new failures"] or any(r["status"] in FAILING for _, _, r in
                                              found["documented, no longer observed"]) else 0


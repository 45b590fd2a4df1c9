"""The performance part of the report, from pytest-benchmark's JSON (suites/benchmarks writes one
file per adapter process into a run's folder).

A run is one folder of such files; its machine is pytest-benchmark's machine_info (node and CPU
model). The tables and bar charts show each machine's latest run; when a machine has several
runs, a history chart follows each benchmark's median across them, labelled by commit (the way
asv shows a trend).
"""
import collections
import json

from reports import charts, stats

HARNESS = "harness"  # suites/benchmarks/bench_harness.py: the timer against torch's, a no-op's overhead


def read_runs(files) -> tuple[list, int]:
    """Runs (dicts of machine, time, commit, benchmarks) from benchmark JSON files; files that
    are not pytest-benchmark output (or are cut off) are counted, not fatal."""
    runs, broken = {}, 0
    for file in files:
        try:
            data = json.loads(file.read_text(encoding="utf-8", errors="replace"))
        except ValueError:
            broken += 1
            continue
        if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
            continue  # some other JSON file
        info = data.get("machine_info") or {}
        machine = f"{info.get('node', '?')} ({info.get('cpu_model') or info.get('processor') or '?'})"
        run = runs.setdefault((str(file.parent), machine), {
            "machine": machine, "folder": str(file.parent), "time": str(data.get("datetime", "")),
            "commit": str((data.get("commit_info") or {}).get("id", ""))[:10],
            "threads": (info.get("parity_threads") or {}).get("threads"), "calibration": {}, "benchmarks": [],
            "noise": []})
        for warning in (info.get("noise") or {}).get("warnings") or []:  # what made its timings move
            if warning not in run["noise"]:
                run["noise"].append(warning)
        run["time"] = min(run["time"], str(data.get("datetime", "")))
        run["calibration"].update(info.get("calibration") or {})
        run["benchmarks"] += [_row(b) for b in data["benchmarks"] if isinstance(b, dict) and "stats" in b]
    return sorted(runs.values(), key=lambda r: (r["machine"], r["time"])), broken


def _row(bench: dict) -> dict:
    info, stats = bench.get("extra_info") or {}, bench.get("stats") or {}
    if "spec" in info:  # area/spec/size/dtype-pass, of the parts it has
        last = "-".join(str(info[k]) for k in ("dtype", "pass") if info.get(k) is not None)
        key = "/".join(str(part) for part in (info.get("area"), info.get("spec"), info.get("size"), last) if part)
    else:
        key = str(bench.get("group") or bench.get("name"))
    return {
        "key": key, "area": str(info.get("area") or key.split("/")[0]),
        "adapter": str(info.get("adapter") or bench.get("name", "?")), "mode": str(info.get("mode", "eager")),
        "device": str(info.get("device", "cpu")), "median": stats.get("median"), "iqr": stats.get("iqr"),
        "rounds": stats.get("rounds"), "gflops": info.get("gflops"), "pct_of_peak": info.get("pct_of_peak"),
        "gbps": info.get("gbps") or info.get("busbw_gbps"), "compile_s": info.get("compile_s"),
        "peak_memory": info.get("peak_memory_bytes"), "unstable": bool(info.get("unstable")),
        "above_peak": bool(info.get("above_peak")),  # faster than the machine's measured peak: broken
        "median_ci": info.get("median_ci"),  # the median's bootstrap 95% interval (reports/stats.py)
        "ratio_ci": info.get("ratio_ci"),  # its ratio to the fastest of its run's group: the interval
        "data": stats.get("data"),  # the per-round samples (--benchmark-save-data), for changes between runs
        "ratio_to_torch_timer": info.get("ratio_to_torch_timer"), "within_target": info.get("within_target"),
    }


def summarize(runs: list) -> dict:
    """Per benchmark key: the latest run's rows per machine (with the ratio to the fastest),
    a bar chart, and a history chart where a machine has several runs."""
    by_machine = collections.defaultdict(list)
    for run in runs:
        by_machine[run["machine"]].append(run)
    latest = [machine_runs[-1] for machine_runs in by_machine.values()]
    groups, harness = collections.defaultdict(list), []
    for run in latest:
        for row in run["benchmarks"]:  # the harness' own checks are not an adapter's timings
            (harness if row["area"] == HARNESS else groups[row["key"]]).append({**row, "machine": run["machine"]})
    benchmarks = []
    for key, rows in sorted(groups.items()):
        for machine in {r["machine"] for r in rows}:
            mine = [r for r in rows if r["machine"] == machine and r["median"]]
            fastest = min((r["median"] for r in mine), default=None)
            for r in mine:
                r["ratio"] = r["median"] / fastest
        rows.sort(key=lambda r: (r["machine"], r["median"] or float("inf")))
        chart = charts.bars([(r["adapter"] + (f" @{r['machine']}" if len(latest) > 1 else ""), r["mode"],
                              r["median"], r["unstable"], r["median_ci"]) for r in rows if r["median"]], key)
        benchmarks.append({"key": key, "area": rows[0]["area"], "rows": rows, "chart": chart,
                           "history": [_history(key, machine, machine_runs)
                                       for machine, machine_runs in sorted(by_machine.items())
                                       if len(machine_runs) > 1]})
    return {"runs": runs, "benchmarks": benchmarks, "latest": latest, "harness": harness,
            "noise": sorted({f"{run['machine']}: {w}" for run in latest for w in run["noise"]}),
            "areas": sorted({b["area"] for b in benchmarks}),
            "adapters": sorted({r["adapter"] for b in benchmarks for r in b["rows"]})}


def _history(key: str, machine: str, runs: list):
    series = collections.defaultdict(lambda: [None] * len(runs))
    for i, run in enumerate(runs):
        for row in run["benchmarks"]:
            if row["key"] == key:
                series[f"{row['adapter']} {row['mode']}"][i] = row["median"]
    labels = [run["commit"] or run["time"][:10] for run in runs]
    return {"machine": machine, "chart": charts.history(dict(series), labels, f"{key} on {machine}")}


def changes(before: list, after: list, threshold: float = 0.05) -> list:
    """The benchmarks whose median moved between two runs by more than `threshold` and by more
    than noise explains (reports/stats.py change), largest move first: each machine's latest run in
    both; where they share no machine and each has one (two CI runners), those two, marked
    `across` machines. Rows: key, adapter, mode, machine, medians before and after, change, why."""
    old, new = _latest(before), _latest(after)
    pairs = [(old[m], new[m]) for m in new if m in old]
    if not pairs and len(old) == len(new) == 1:
        pairs = [(*old.values(), *new.values())]
    out = []
    for base, run in pairs:
        index = {_identity(r): r for r in base["benchmarks"]}
        for row in run["benchmarks"]:
            was = index.get(_identity(row))
            found = was and stats.change(_figures(was), _figures(row), threshold)
            if found:
                out.append({**found, "key": row["key"], "adapter": row["adapter"], "mode": row["mode"],
                            "machine": run["machine"], "across": base["machine"] != run["machine"],
                            "before": was["median"], "after": row["median"]})
    return sorted(out, key=lambda c: -abs(c["change"]))


def _latest(runs: list) -> dict:
    return {run["machine"]: run for run in runs}  # runs are sorted by (machine, time): the last one wins


def _identity(row: dict) -> tuple:
    return row["key"], row["adapter"], row["mode"], row["device"]


def _figures(row: dict) -> dict:
    return {"median": row["median"], "iqr": row["iqr"], "data": row["data"]}

"""Reading result records and rendering the comparison page.

Records are the JSON lines that suites/results.py writes; benchmarks are pytest-benchmark's JSON
(reports/perf.py). A line cut off by a killed run is skipped and counted, and the page says so.
Nothing is re-run: every number on the page is one that a run wrote down.
"""
import collections
import datetime
import json
import math
import pathlib

import jinja2

from reports import charts, models, perf
from reports.records import FAILING, PASSING, STATUSES, column, key_of, mode_of, standing

TEMPLATES = pathlib.Path(__file__).resolve().parent / "templates"


def read_records(inputs) -> tuple[list, int]:
    """Every record under the given folders / files, and the number of unreadable lines."""
    records, broken = [], 0
    for file in _files(inputs, "*.jsonl"):
        for line in file.read_text(encoding="utf-8", errors="replace").splitlines():
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                broken += 1
                continue
            if isinstance(record, dict) and "status" in record:
                records.append(record)
            else:
                broken += 1
    return records, broken


def _files(inputs, pattern: str) -> list:
    files = []
    for item in inputs:
        path = pathlib.Path(item)
        if not path.exists():
            raise FileNotFoundError(f"no such results folder or file: {item}")
        if path.is_dir():
            files += sorted(path.rglob(pattern))
        elif path.match(pattern):
            files.append(path)
    return files


def area_of(record) -> str:
    return str(record.get("spec", "?")).split("/")[0]


# The kinds of documented difference (specs/schema.json, a difference's `regime`), in the order
# the page lists them: what a port trips over first.
REGIMES = ("default", "promotion", "special-value", "no-gradient", "precision", "crash", "semantics")


def differences_by_regime(records) -> dict:
    """regime -> the documented records of that kind (records from before regimes: semantics)."""
    documented = [r for r in records if r.get("status") == "documented"]
    grouped = {regime: [] for regime in REGIMES}
    for r in documented:
        regime = (r.get("difference") or {}).get("regime")
        grouped[regime if regime in grouped else "semantics"].append(r)
    return {regime: rows for regime, rows in grouped.items() if rows}


def compile_only(records) -> list:
    """(eager record, compiled record) pairs of one case whose statuses differ, one passing: what
    the compiler alone changes (a compiled record whose eager run on its own case passed, where
    the eager item's record is not in these results)."""
    eager = {key_of(r)[:-1]: r for r in records if mode_of(r) == "eager"}
    pairs = []
    for r in records:
        if mode_of(r) != "compiled":
            continue
        other = eager.get(key_of(r)[:-1]) or ({"status": r["eager"]["status"]} if r.get("eager") else None)
        if other and other["status"] != r["status"] and PASSING & {other["status"], r["status"]}:
            pairs.append((other, r))
    return sorted(pairs, key=lambda p: (str(p[1].get("spec")), str(p[1].get("adapter")), str(p[1].get("dtype"))))


def summarize(records) -> dict:
    """What the page shows about conformance: the matrix, per-spec tables, cards, differences."""
    adapters = sorted({column(r) for r in records})
    machines = sorted({str(r.get("machine", "?")) for r in records})
    rows = sorted({(m, area_of(r)) for r in records for m in [str(r.get("machine", "?"))]})
    matrix = {row: {a: collections.Counter() for a in adapters} for row in rows}
    for r in records:
        matrix[(str(r.get("machine", "?")), area_of(r))][column(r)][r.get("status")] += 1
    failures = [r for r in records if r.get("status") in (*FAILING, "suspect")]  # a suspect oracle: a card too
    failures.sort(key=lambda r: (STATUSES.index(r["status"]), str(r.get("spec")), str(r.get("adapter"))))
    versions = collections.defaultdict(set)
    for r in records:
        for name, version in (r.get("versions") or {}).items():
            versions[name].add(str(version))
    return {
        "adapters": adapters, "adapter_names": sorted({str(r.get("adapter", "?")) for r in records}),
        "machines": machines, "matrix": matrix,
        "areas": sorted({area for _, area in rows}),
        "specs": spec_tables(records), "failures": failures,
        "differences": differences_by_regime(records), "compile_only": compile_only(records),
        "totals": collections.Counter(r.get("status") for r in records),
        "devices": sorted({str(r.get("device", "?")) for r in records}),
        "commits": sorted({str(r["commit"]) for r in records if r.get("commit")}),
        "versions": {k: ", ".join(sorted(v)) for k, v in sorted(versions.items())},
    }


def spec_tables(records) -> dict:
    """Per spec: its rows (case, kind, dtype, device, machine) x columns (adapter x mode), and one agreement
    heatmap per dtype and device (pairs are only formed within one machine's run of a case)."""
    specs = {}
    for r in records:
        spec = specs.setdefault(str(r.get("spec", "?")), {"cells": {}, "adapters": set(), "outputs": {}})
        key = tuple(str(r.get(k, "")) for k in ("case", "kind", "dtype", "device", "machine"))
        spec["cells"].setdefault(key, {})[column(r)] = r
        spec["adapters"].add(column(r))
        if isinstance(r.get("output"), list):
            spec["outputs"].setdefault(key, {})[column(r)] = r["output"]
    out = {}
    for name, spec in sorted(specs.items()):
        adapters = sorted(spec["adapters"])
        heatmaps = {}
        for (_, _, dtype, device, _), outputs in spec["outputs"].items():
            grid = heatmaps.setdefault(f"{dtype} on {device}", {"cases": 0, "cells": {}})
            grid["cases"] += 1
            for a in outputs:
                for b in outputs:
                    d = relative_difference(outputs[a], outputs[b])
                    if d is not None:
                        grid["cells"][(a, b)] = max(grid["cells"].get((a, b), 0.0), d)
        out[name] = {
            "area": name.split("/")[0], "adapters": adapters,
            "rows": [(key, cells) for key, cells in sorted(spec["cells"].items())],
            "heatmaps": {dtype: charts.heatmap(adapters, grid["cells"], f"{name} {dtype}", grid["cases"])
                         for dtype, grid in sorted(heatmaps.items()) if len(grid["cells"]) > 1},
        }
    return out


def relative_difference(x: list, y: list) -> float | None:
    """max over elements of |x - y| / max(|x|, |y|): 0 where both are equal (NaN and inf too), inf
    where only one is NaN or they differ in infinity; None when the outputs' sizes differ."""
    if len(x) != len(y):
        return None
    worst = 0.0
    for a, b in zip(x, y):
        if a == b or (math.isnan(a) and math.isnan(b)):
            continue
        if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
            return math.inf
        worst = max(worst, abs(a - b) / max(abs(a), abs(b)))
    return worst


def read_coverage(files) -> dict:
    """The ops x adapters table of declared dtypes, merged over the runs' coverage.json files."""
    ops, columns = [], {}
    for file in files:
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except ValueError:
            continue
        ops += [op for op in data.get("ops", []) if op not in ops]
        for name, cells in (data.get("adapters") or {}).items():
            columns.setdefault(str(name), {}).update(cells)
    return {"ops": ops, "adapters": dict(sorted(columns.items()))}


def build(inputs, output) -> pathlib.Path:
    records, broken = read_records(inputs)
    records = standing(records)  # a re-run's outcome replaces the earlier one, never adds to it
    jsons = _files(inputs, "*.json")
    runs, broken_bench = perf.read_runs([f for f in jsons if f.name != "coverage.json"])
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined)
    env.filters["num"] = number
    env.globals["column"] = column
    html = env.get_template("index.html").render(
        statuses=STATUSES, records=records, broken=broken, broken_bench=broken_bench, **summarize(records),
        models=models.summarize(records),
        performance=perf.summarize(runs), coverage=read_coverage([f for f in jsons if f.name == "coverage.json"]),
        script=(TEMPLATES / "report.js").read_text(encoding="utf-8"),
        style=(TEMPLATES / "report.css").read_text(encoding="utf-8"),
        generated=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    )
    out = pathlib.Path(output)
    out.mkdir(parents=True, exist_ok=True)
    page = out / "index.html"
    page.write_text(html, encoding="utf-8")
    return page


def number(value, digits: int = 3) -> str:
    """A number for a table cell: 3 significant digits; blank for a missing value."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return ""
    return f"{value:.{digits}g}"

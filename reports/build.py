"""Reading result records and rendering the comparison page.

Records are the JSON lines that suites/running/results.py writes; benchmarks are pytest-benchmark's JSON
(reports/perf.py). A line cut off by a killed run is skipped and counted, and the page says so.
Nothing is re-run: every number on the page is one that a run wrote down.
"""
import collections
import datetime
import itertools
import json
import math
import pathlib

import jinja2
from markupsafe import Markup

from reports import changes, cost, groups, models, perf, port, summary, upgrade, whole
from reports.records import (
    AGAINST_EAGER,
    FAILING,
    PASSING,
    REGIMES,
    STATUSES,
    column,
    commit_of,
    key_of,
    mode_of,
    standing,
    versioned,
)

TEMPLATES = pathlib.Path(__file__).resolve().parent / "templates"
PAGE_MESSAGE = 2_000  # characters of a record's message on the page; the whole stays in the record


def read_records(inputs) -> tuple[list, int]:
    """Every record under the given folders / files, and the number of unreadable lines."""
    records, broken = [], 0
    for file in files_of(inputs, "*.jsonl"):
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


def files_of(inputs, pattern: str) -> list:
    """The files matching `pattern` under the given folders, and the given files that match it."""
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


def bench_files(inputs) -> list:
    """The benchmark JSON files under the inputs (every *.json but the coverage tables)."""
    return [f for f in files_of(inputs, "*.json") if f.name != "coverage.json"]


def area_of(record) -> str:
    return str(record.get("spec", "?")).split("/")[0]


def differences_by_regime(records) -> dict:
    """regime -> the documented differences of that kind, grouped (reports/groups.py; records
    from before regimes: semantics)."""
    grouped = {regime: [] for regime in REGIMES}
    for r in records:
        if r.get("status") == "documented":
            regime = (r.get("difference") or {}).get("regime")
            grouped[regime if regime in grouped else "semantics"].append(r)
    return {regime: groups.difference_groups(rows) for regime, rows in grouped.items() if rows}


def compile_only(records) -> list:
    """(eager record, compiled or exported record) pairs of one case whose statuses differ, one
    passing: what the compiler or the exporter alone changes (a record whose eager run on its own
    case passed, where the eager item's record is not in these results)."""
    eager = {key_of(r)[:-1]: r for r in records if mode_of(r) == "eager"}
    pairs = []
    for r in records:
        if mode_of(r) not in AGAINST_EAGER:
            continue
        other = eager.get(key_of(r)[:-1]) or ({"status": r["eager"]["status"]} if r.get("eager") else None)
        if other and other["status"] != r["status"] and PASSING & {other["status"], r["status"]}:
            pairs.append((other, r))
    return sorted(pairs, key=lambda p: (str(p[1].get("spec")), str(p[1].get("adapter")), str(p[1].get("dtype"))))


def summarize(records) -> dict:
    """What the page shows about conformance: the matrix, the specs, failures, differences."""
    adapters = sorted({column(r) for r in records})
    machines = sorted({str(r.get("machine", "?")) for r in records})
    rows = sorted({(m, area_of(r)) for r in records for m in [str(r.get("machine", "?"))]})
    matrix = {row: {a: collections.Counter() for a in adapters} for row in rows}
    for r in records:
        matrix[(str(r.get("machine", "?")), area_of(r))][column(r)][r.get("status")] += 1
    failures = [r for r in records if r.get("status") in (*FAILING, "suspect")]  # a suspect oracle: a card too
    versions = collections.defaultdict(set)
    for r in records:
        for name, version in (r.get("versions") or {}).items():
            versions[name].add(str(version))
    specs, differences = spec_data(records), differences_by_regime(records)
    widespread = groups.widespread([g for rows in differences.values() for g in rows])
    return {
        "adapters": adapters, "adapter_names": sorted({str(r.get("adapter", "?")) for r in records}),
        "machines": machines, "matrix": matrix,
        "matrix_heads": [(name, [a for a in adapters if a.split(" ")[0] == name])
                         for name in dict.fromkeys(a.split(" ")[0] for a in adapters)],
        "areas": sorted({area for _, area in rows}),
        "specs": specs["specs"], "spec_json": specs_json(specs), "failures": groups.failure_groups(failures),
        "differences": _unfolded(differences, widespread), "widespread": widespread,
        "port_json": island(port.page_data(records)), "port_pair": port.first_pair(records),
        "compile_only": compile_only(records),
        "totals": collections.Counter(r.get("status") for r in records),
        "devices": sorted({str(r.get("device", "?")) for r in records}),
        "commits": sorted({str(r["commit"]) for r in records if r.get("commit")}),
        "versions": {k: ", ".join(sorted(v)) for k, v in sorted(versions.items())},
        "cost": cost.table(cost.item_seconds(records)),
    }


def _unfolded(differences: dict, widespread: list) -> dict:
    """The regimes' tables without the rows of a widespread behaviour (listed once, above them)."""
    folded = {(w["adapter"], w["note"]) for w in widespread}
    kept = {regime: [g for g in rows if (g["adapter"], g["note"]) not in folded]
            for regime, rows in differences.items()}
    return {regime: rows for regime, rows in kept.items() if rows}


def spec_data(records) -> dict:
    """Per spec, what its table and heatmaps are drawn from in the browser (report.js draws a
    spec's when it is opened: a full run's tables and charts as markup weigh tens of MB): rows
    (case, kind, dtype, device, machine) x columns (adapter x mode), each cell [status index,
    errors, index of its message in `messages`, -1 for none]; a pass has no message, a documented
    outcome its difference's note (the observed values are in the differences' table); heatmaps
    per dtype and device: [label, examples, the largest relative difference of each pair i < j in
    row order (None: not compared; "inf")], pairs only within one machine's run of a case; and
    the spec's status counts for its heading."""
    specs, messages = {}, {}
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
        grids = {}
        for (_, _, dtype, device, _), outputs in spec["outputs"].items():
            grid = grids.setdefault(f"{dtype} on {device}", {"cases": 0, "cells": {}})
            grid["cases"] += 1
            for a, b in itertools.combinations(sorted(outputs), 2):
                d = relative_difference(outputs[a], outputs[b])
                if d is not None:
                    grid["cells"][(a, b)] = max(grid["cells"].get((a, b), 0.0), d)
        counts = collections.Counter(r["status"] for cells in spec["cells"].values() for r in cells.values())
        out[name] = {
            "area": name.split("/")[0], "adapters": adapters, "counts": counts,
            "rows": [[*key, [_cell(cells.get(a), messages) for a in adapters]]
                     for key, cells in sorted(spec["cells"].items())],
            "heatmaps": [[label, grid["cases"], [_short_float(grid["cells"].get((a, b)))
                                                  for a, b in itertools.combinations(adapters, 2)]]
                         for label, grid in sorted(grids.items()) if grid["cells"]],
        }
    return {"specs": out, "messages": list(messages)}


def on_page(text) -> str:
    """A record's message as the page shows it: its first PAGE_MESSAGE characters and how many
    more the record holds (a traceback of megabytes would otherwise weigh the page down, in each
    place that shows it)."""
    text = str(text)
    if len(text) <= PAGE_MESSAGE:
        return text
    return f"{text[:PAGE_MESSAGE]}… ({len(text) - PAGE_MESSAGE:,} characters more in the record)"


def _cell(r, messages: dict) -> list | None:
    if r is None:
        return None
    text = {"pass": "", "documented": (r.get("difference") or {}).get("note")}.get(r["status"], r.get("message"))
    index = messages.setdefault(on_page(text), len(messages)) if text else -1
    return [STATUSES.index(r["status"]), errors(r), index]


def errors(r) -> str:
    """A record's errors against the reference, as a cell shows them."""
    if not isinstance(r.get("max_abs_err"), (int, float)):
        return ""
    text = f"abs {number(r['max_abs_err'])}"
    for field, label in (("max_rel_err", "rel"), ("ulp", "ulp")):
        if isinstance(r.get(field), (int, float)):
            text += f" {label} {number(r[field])}"
    return text


def _short_float(value):
    """A heatmap value: 2 significant digits (its label shows one), "inf", None (not compared)."""
    if value is None or math.isinf(value):
        return None if value is None else "inf"
    return float(f"{value:.2g}")


def specs_json(specs: dict) -> Markup:
    """The specs' tables as JSON for a <script type="application/json"> island."""
    return island({"statuses": STATUSES, "messages": specs["messages"],
                   "specs": {name: {k: spec[k] for k in ("adapters", "rows", "heatmaps")}
                             for name, spec in specs["specs"].items()}})


def island(data) -> Markup:
    """Data for a <script type="application/json"> element: "<" escaped, so that no recorded
    string can close the script element."""
    return Markup(json.dumps(data, separators=(",", ":"), allow_nan=False).replace("<", "\\u003c"))


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


def with_lost(selection: dict | None, records: list) -> dict | None:
    """The selection with how many of the items its runs kept left no record: a failure that no
    record holds is not on the page, so the page says how many there are."""
    if selection is None:
        return None
    return {**selection, "lost": max(selection["kept"] - len({r.get("test") for r in records if r.get("test")}), 0)}


def read_selection(files) -> dict | None:
    """What share of the suite the page holds, from the runs' selection-*.json (conftest.py writes
    one per pytest run: suites/running/selection.py, write_manifest): items collected and kept, the
    shares, seeds and --changed-since revisions (and the touched items --changed-limit left to the
    share), and the items a documented difference names that
    the share dropped. A sharded run's shards collect the same items: counted once. None where no
    run wrote one (results from before it)."""
    runs = []
    for file in files:
        try:
            runs.append(json.loads(file.read_text(encoding="utf-8")))
        except ValueError:
            continue
    if not runs:
        return None
    sharded = {(r["collected"], r["share"], r["seed"], r["shard"].split("/")[1]): r["collected"]
               for r in runs if r.get("shard")}  # the shards of one run: one collection
    whole = sum(r["collected"] for r in runs if not r.get("shard")) + sum(sharded.values())
    kept = sum(r["kept"] for r in runs)
    return {"kept": kept, "collected": whole, "percent": 100 * kept / whole if whole else 100.0,
            "shares": sorted({r["share"] for r in runs}), "seeds": sorted({r["seed"] for r in runs}),
            "since": sorted({r["changed_since"] for r in runs if r.get("changed_since")}),
            "changed_left": sum(r.get("changed_left", 0) for r in runs),
            "lacking": sorted({i for r in runs for i in r.get("lacking", [])})}


def build(inputs, output, baseline=None, history=(), upgraded_from=None, expect=()) -> pathlib.Path:
    """Write OUTPUT/index.html from the results under `inputs`; with a `baseline` (an earlier
    run's folder or file) the page opens with what changed since it; with `history` (earlier runs'
    folders, oldest first) it charts each adapter's outcomes run by run, this run last; with
    `upgraded_from` (the same items' run at the version in use) it has the upgrade note; with
    `expect` (the parts a run will write: adapters, "multihost", "benchmarks") it says which of
    them it lacks, so a page built while a run goes on, or after it was cut short, says so."""
    records, broken = read_records(inputs)
    records = standing(records)  # a re-run's outcome replaces the earlier one, never adds to it
    runs, broken_bench = perf.read_runs(bench_files(inputs))
    past = [(folder, *read_records([folder])) for folder in history]
    earlier, _ = perf.read_runs(bench_files(history))
    performance = perf.summarize(earlier + runs)
    found = None
    if baseline is not None:
        base_records, _ = read_records([baseline])
        base_runs, _ = perf.read_runs(bench_files([baseline]))
        found = {**changes.changes(base_records, records), "benchmarks": perf.changes(base_runs, runs),
                 "baseline": str(baseline)}
    upgrade_note = None
    if upgraded_from is not None:
        old_runs, _ = perf.read_runs(bench_files([upgraded_from]))
        upgrade_note = {**upgrade.upgrade(read_records([upgraded_from])[0], records,
                                          perf.changes(old_runs, runs) if old_runs and runs else None),
                        "base": str(upgraded_from)}
    records = versioned(records)  # an adapter at two versions: two columns
    conformance = summarize(records)
    whole_run = whole.read()
    model_rows = models.summarize(records)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined)
    env.filters["num"] = number
    env.filters["on_page"] = on_page
    env.globals["errors"] = errors
    html = env.get_template("index.html").render(
        statuses=STATUSES, records=records, broken=broken, broken_bench=broken_bench, **conformance,
        models=model_rows, performance=performance, changes=found, change_groups=changes.GROUPS,
        upgrade=upgrade_note, upgrade_sections=upgrade.SECTIONS, upgrade_act=upgrade.ACT, moved=upgrade.MOVED,
        benchmarks_apart=upgrade.BENCHMARKS_APART,
        overview=summary.adapters(records, performance, model_rows),
        screen=summary.first_screen(records, [r for _, _, r in found["new failures"]] if found else ()),
        history=summary.history([(run_label(folder, rs), rs) for folder, rs, _ in past]
                                + [(run_label(inputs[0], records), records)]) if past else [],
        coverage=read_coverage(files_of(inputs, "coverage.json")),
        selection=with_lost(read_selection(files_of(inputs, "selection-*.json")), records),
        whole=whole_run, whole_statuses=STATUSES, whole_missing=whole.missing(whole_run, records),
        parts_missing=missing_parts(expect, records, runs),
        script="\n".join((TEMPLATES / name).read_text(encoding="utf-8") for name in ("report.js", "port.js")),
        style=(TEMPLATES / "report.css").read_text(encoding="utf-8"),
        generated=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    )
    out = pathlib.Path(output)
    out.mkdir(parents=True, exist_ok=True)
    page = out / "index.html"
    page.write_text(html, encoding="utf-8")
    return page


def missing_parts(expect, records: list, runs: list) -> list:
    """The expected parts of a run that left nothing in these results: an adapter without a
    record, "multihost" without a record of the multi-process collectives, "benchmarks" without
    a benchmark run."""
    adapters = {str(r.get("adapter")) for r in records}
    present = {"multihost": any(str(r.get("test") or "").startswith("multihost::") for r in records),
               "benchmarks": bool(runs)}
    return [part for part in expect if not present.get(part, part in adapters)]


def run_label(where, records) -> str:
    """A run's label on the history charts: the commit most of its records name, else its folder."""
    return commit_of(records) or pathlib.Path(str(where)).name


def number(value, digits: int = 3) -> str:
    """A number for a table cell: 3 significant digits; blank for a missing value."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return ""
    return f"{value:.{digits}g}"

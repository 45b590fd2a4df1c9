"""Reading result records and rendering the comparison page.

Records are the JSON lines that suites/results.py writes. A line cut off by a killed run is
skipped and counted, and the page says so.
"""
import collections
import datetime
import json
import pathlib

import jinja2

STATUSES = ("pass", "documented", "fail", "unsupported", "error", "crash", "timeout")
TEMPLATES = pathlib.Path(__file__).resolve().parent / "templates"


def read_records(inputs) -> tuple[list, int]:
    """Every record under the given folders / files, and the number of unreadable lines."""
    records, broken = [], 0
    for item in inputs:
        path = pathlib.Path(item)
        if not path.exists():
            raise FileNotFoundError(f"no such results folder or file: {item}")
        for file in sorted(path.rglob("*.jsonl")) if path.is_dir() else [path]:
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


def summarize(records) -> dict:
    """Counts per (area, adapter) and the cases worth reading (all but passes)."""
    adapters = sorted({r.get("adapter", "?") for r in records})
    areas = sorted({str(r.get("spec", "?")).split("/")[0] for r in records})
    matrix = {area: {a: collections.Counter() for a in adapters} for area in areas}
    for r in records:
        matrix[str(r.get("spec", "?")).split("/")[0]][r.get("adapter", "?")][r.get("status")] += 1
    notable = [r for r in records if r.get("status") != "pass"]
    notable.sort(key=lambda r: (STATUSES.index(r["status"]) if r.get("status") in STATUSES else 99,
                                str(r.get("spec")), str(r.get("adapter"))))
    versions = collections.defaultdict(set)
    for r in records:
        for name, version in (r.get("versions") or {}).items():
            versions[name].add(str(version))
    return {
        "adapters": adapters, "areas": areas, "matrix": matrix, "notable": notable,
        "totals": collections.Counter(r.get("status") for r in records),
        "machines": sorted({str(r.get("machine", "?")) for r in records}),
        "devices": sorted({str(r.get("device", "?")) for r in records}),
        "versions": {k: ", ".join(sorted(v)) for k, v in sorted(versions.items())},
    }


def build(inputs, output) -> pathlib.Path:
    records, broken = read_records(inputs)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined)
    html = env.get_template("index.html").render(
        statuses=STATUSES, records=records, broken=broken, **summarize(records),
        generated=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    )
    out = pathlib.Path(output)
    out.mkdir(parents=True, exist_ok=True)
    page = out / "index.html"
    page.write_text(html, encoding="utf-8")
    return page

"""python -m reports build RESULTS_DIR... [-o OUT] [--baseline BASE] [--history RUN...]: write
OUT/index.html from result records; with a baseline (an earlier run's results, e.g. main's last
CI run) the page opens with what changed since it; with earlier runs (oldest first) it charts
each adapter's outcomes by commit and by framework version. It ends with the totals per status
and the failing items with their rerun commands, and exits 1 when any item failed (the page is
written either way), 2 on bad input.

python -m reports diff BASE NEW: what changed between two runs, outcome by outcome (keyed by
spec, case, kind, adapter, device, dtype, mode): new failures, documented differences no longer
observed, fixed failures, newly documented differences, other changes (reports/changes.py), and
the benchmark medians that moved beyond 5% and their noise; exits 1 on a new failure (a CI gate;
a slower benchmark is listed, not gated: CI machines differ), 2 on bad input.
"""
import argparse
import sys

from reports import changes, perf, summary
from reports.build import bench_files, build, read_records
from reports.records import FAILING, standing


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the HTML report from result folders or .jsonl files")
    b.add_argument("inputs", nargs="+", help="results folders (searched for *.jsonl) or .jsonl files")
    b.add_argument("-o", "--output", default="reports/out", help="output folder (default: reports/out)")
    b.add_argument("--baseline", help="an earlier run (results folder or .jsonl): the page opens with the changes")
    b.add_argument("--history", nargs="+", default=[], metavar="RUN",
                   help="earlier runs' results folders, oldest first: outcomes charted run by run")
    d = sub.add_parser("diff", help="what changed between two runs; exit 1 on a new failure")
    d.add_argument("base", help="the earlier run: results folder or .jsonl file")
    d.add_argument("new", help="the later run: results folder or .jsonl file")
    args = parser.parse_args(argv)
    if args.command == "diff":
        return _diff(args.base, args.new)
    try:
        page = build(args.inputs, args.output, args.baseline, args.history)
    except FileNotFoundError as exc:
        print(f"reports: {exc}", file=sys.stderr)
        return 2
    records = standing(read_records(args.inputs)[0])
    print("\n".join([*summary.ending(records), f"report: {page.resolve()}"]))
    return 1 if any(r.get("status") in FAILING for r in records) else 0


def _diff(base: str, new: str) -> int:
    try:
        (old, _), (now, _) = read_records([base]), read_records([new])
        before, after = (perf.read_runs(bench_files([folder]))[0] for folder in (base, new))
    except FileNotFoundError as exc:
        print(f"reports: {exc}", file=sys.stderr)
        return 2
    found = changes.changes(old, now)
    moved = changes.benchmark_lines(perf.changes(before, after)) if before and after else []
    print("\n".join(changes.lines(found) + moved))
    return changes.gate(found)


if __name__ == "__main__":
    sys.exit(main())

"""python -m reports build RESULTS_DIR... [-o OUT]: write OUT/index.html from result records.

python -m reports diff BASE NEW: what changed between two runs, outcome by outcome (keyed by
spec, case, kind, adapter, device, dtype, mode): new failures, documented differences no longer
observed, fixed failures, newly documented differences, other changes (reports/changes.py);
exits 1 on a new failure (a CI gate), 2 on bad input.
"""
import argparse
import sys

from reports import changes
from reports.build import build, read_records


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the HTML report from result folders or .jsonl files")
    b.add_argument("inputs", nargs="+", help="results folders (searched for *.jsonl) or .jsonl files")
    b.add_argument("-o", "--output", default="reports/out", help="output folder (default: reports/out)")
    d = sub.add_parser("diff", help="what changed between two runs; exit 1 on a new failure")
    d.add_argument("base", help="the earlier run: results folder or .jsonl file")
    d.add_argument("new", help="the later run: results folder or .jsonl file")
    args = parser.parse_args(argv)
    if args.command == "diff":
        return _diff(args.base, args.new)
    try:
        page = build(args.inputs, args.output)
    except FileNotFoundError as exc:
        print(f"reports: {exc}", file=sys.stderr)
        return 2
    print(f"report: {page.resolve()}")
    return 0


def _diff(base: str, new: str) -> int:
    try:
        (old, _), (now, _) = read_records([base]), read_records([new])
    except FileNotFoundError as exc:
        print(f"reports: {exc}", file=sys.stderr)
        return 2
    found = changes.changes(old, now)
    print("\n".join(changes.lines(found)))
    return changes.gate(found)


if __name__ == "__main__":
    sys.exit(main())

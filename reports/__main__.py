"""python -m reports build RESULTS_DIR... [-o OUT]: write OUT/index.html from result records.

python -m reports statuses BEFORE AFTER: compare two runs' statuses by (spec, case, kind,
adapter, device, dtype); prints every outcome whose status changed and the outcomes only one run
has; exits 1 when a status changed.
"""
import argparse
import sys

from reports.build import build, read_records
from reports.records import KEY, status_changes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the HTML report from result folders or .jsonl files")
    b.add_argument("inputs", nargs="+", help="results folders (searched for *.jsonl) or .jsonl files")
    b.add_argument("-o", "--output", default="reports/out", help="output folder (default: reports/out)")
    s = sub.add_parser("statuses", help="compare two runs' statuses outcome by outcome")
    s.add_argument("before", help="results folder or .jsonl file")
    s.add_argument("after", help="results folder or .jsonl file")
    args = parser.parse_args(argv)
    if args.command == "statuses":
        return _statuses(args.before, args.after)
    try:
        page = build(args.inputs, args.output)
    except FileNotFoundError as exc:
        print(f"reports: {exc}", file=sys.stderr)
        return 2
    print(f"report: {page.resolve()}")
    return 0


def _statuses(before: str, after: str) -> int:
    try:
        (old, _), (new, _) = read_records([before]), read_records([after])
    except FileNotFoundError as exc:
        print(f"reports: {exc}", file=sys.stderr)
        return 2
    changes = status_changes(old, new)
    for key, was, now in changes["changed"]:
        print(f"changed {was} -> {now}: {dict(zip(KEY, key))}")
    for what in ("gone", "new"):
        for key in changes[what]:
            print(f"{what}: {dict(zip(KEY, key))}")
    print(f"{len(old)} records before, {len(new)} after: {len(changes['changed'])} statuses changed, "
          f"{len(changes['gone'])} outcomes gone, {len(changes['new'])} new")
    return 1 if changes["changed"] else 0


if __name__ == "__main__":
    sys.exit(main())

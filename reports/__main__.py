"""python -m reports build RESULTS_DIR... [-o OUT]: write OUT/index.html from result records."""
import argparse
import sys

from reports.build import build


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reports", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the HTML report from result folders or .jsonl files")
    b.add_argument("inputs", nargs="+", help="results folders (searched for *.jsonl) or .jsonl files")
    b.add_argument("-o", "--output", default="reports/out", help="output folder (default: reports/out)")
    args = parser.parse_args(argv)
    try:
        page = build(args.inputs, args.output)
    except FileNotFoundError as exc:
        print(f"reports: {exc}", file=sys.stderr)
        return 2
    print(f"report: {page.resolve()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

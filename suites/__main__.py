"""python -m suites validate [PATH]: load and check specs without running anything.

Prints one line per spec file and exits 0, or prints the first problem as one line
(file:line: key: problem) and exits 2.
"""
import argparse
import sys

from suites.specs import SpecError, load_path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m suites", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    validate = sub.add_parser("validate", help="check spec files against specs/schema.json and the vocabulary")
    validate.add_argument("path", nargs="?", default="specs", help="a spec file or folder (default: specs)")
    args = parser.parse_args(argv)
    try:
        specs = load_path(args.path)
    except SpecError as exc:
        print(exc, file=sys.stderr)
        return 2
    for file in sorted({s.file for s in specs}):
        print(f"{file}: {sum(s.file == file for s in specs)} specs ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""python -m suites validate [PATH]: load and check specs without running anything; prints one
line per spec file and exits 0, or prints the first problem as one line (file:line: key:
problem) and exits 2.

python -m suites coverage [--adapter a,b] [--adapter-path FILE.py] [--check]: which vocabulary
ops and dtypes each installed adapter declares; with --check, run a sample of each and print
every mismatch between declaration and behaviour (exit 1 when there is one).

python -m suites estimate RESULTS [--workers N] [-- PYTEST ARGS]: what a run of the items that
`pytest PYTEST ARGS` collects (default: specs, every item) would cost, from the durations that an
earlier run recorded under RESULTS: by adapter, kind and mode, an item not recorded at the mean
of its group's recorded items (suites/running/shards.py estimates); the worker time, and the wall time on
N workers (default 2).

python -m suites vocabulary [--write]: print docs/vocabulary.md as the vocabulary's records make
it (vocabulary/__init__.py); --write writes it there, and docs/array-api.md (the Array API
standard's functions, their ops and each adapter's dtypes: vocabulary/arrayapi.py) beside it.

python -m suites regimes [PATH]: per spec area, how many of its generated specs' shape palettes
reach each regime (empty and singleton axes, odd sizes, sizes past a kernel's block boundary:
suites/programs/palette.py), and the regimes none reaches.

python -m suites upgrade NAME==VERSION|NAME|engine@COMMIT [--adapter a,b] [--share F] [--seed N] [--bench]
[--out DIR] [-- PYTEST ARGS]: the same items at the version in use and at another, each in an
environment of its own, and the upgrade note between them (suites/upgrade.py, reports/upgrade.py).
"""
import argparse
import contextlib
import io
import pathlib
import sys

import adapters
import vocabulary
from reports import cost
from suites import upgrade
from suites.loading.specs import SpecError, load_path, own_specs
from suites.programs import palette
from suites.running import coverage, shards

VOCABULARY_DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "vocabulary.md"
ARRAY_API_DOC = VOCABULARY_DOC.with_name("array-api.md")


def vocabulary_page() -> str:
    """docs/vocabulary.md: the vocabulary's ops, then the rest of the adapter interface."""
    from adapters.base import interface_markdown

    return "\n".join([vocabulary.markdown(), *interface_markdown()])


def main(argv=None, prog="python -m suites") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    validate = sub.add_parser("validate", help="check spec files against specs/schema.json and the vocabulary")
    validate.add_argument("path", nargs="?", default=own_specs(),
                          help="a spec file or folder (default: Parity's specs)")
    cov = sub.add_parser("coverage", help="the ops and dtypes each adapter declares (and, with --check, does)")
    cov.add_argument("--adapter", default=None, help="comma-separated adapters (default: every installed one)")
    cov.add_argument("--adapter-path", action="append", default=[], metavar="FILE.py",
                     help="register every Adapter subclass defined in FILE.py (repeatable)")
    cov.add_argument("--check", action="store_true", help="run a sample per op and dtype against the declaration")
    cov.add_argument("--device", default="cpu", help="device for --check (default: cpu)")
    estimate = sub.add_parser("estimate", help="a run's cost from an earlier run's recorded durations")
    estimate.add_argument("results", help="an earlier run's results folder (or .jsonl)")
    estimate.add_argument("--workers", type=int, default=2, help="pytest-xdist workers of the run (default 2)")
    vocab = sub.add_parser("vocabulary", help="docs/vocabulary.md from the vocabulary's records")
    vocab.add_argument("--write", action="store_true",
                       help=f"write {VOCABULARY_DOC} (and {ARRAY_API_DOC.name} beside it) instead of printing it")
    reg = sub.add_parser("regimes", help="which regimes each spec area's generated shapes reach")
    reg.add_argument("path", nargs="?", default=own_specs(), help="a spec file or folder (default: Parity's specs)")
    upgrade.add_parser(sub)
    argv = sys.argv[1:] if argv is None else list(argv)
    cut = argv.index("--") if "--" in argv else len(argv)  # after it: the pytest arguments of `estimate`, `upgrade`
    args = parser.parse_args(argv[:cut])
    args.pytest_args = argv[cut + 1:]
    if args.command == "coverage":
        return _coverage(args)
    if args.command == "estimate":
        return _estimate(args)
    if args.command == "upgrade":
        return upgrade.main(args)
    if args.command == "vocabulary":
        text = vocabulary_page()
        if args.write:
            VOCABULARY_DOC.write_text(text, encoding="utf-8")
            ARRAY_API_DOC.write_text(coverage.array_api_page(adapters.classes()), encoding="utf-8")
        else:
            print(text, end="")
        return 0
    try:
        specs = load_path(args.path)
    except SpecError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.command == "regimes":
        print("| area | generated specs | regimes reached (specs) | not reached |\n|---|---|---|---|")
        for area, count, reached, missing in palette.area_table(specs):
            print(f"| {area} | {count} | {', '.join(f'{n} ({c})' for n, c in reached.items())} | "
                  f"{', '.join(missing) or '-'} |")
        return 0
    for file in sorted({s.file for s in specs}):
        print(f"{file}: {sum(s.file == file for s in specs)} specs ok")
    return 0


def _coverage(args) -> int:
    try:
        for path in args.adapter_path:
            adapters.load_path(path)
        names = [n.strip() for n in (args.adapter or "").split(",") if n.strip()] or adapters.installed()
        for name in names:
            adapters.check_installed(name)
    except adapters.AdapterError as exc:
        print(f"coverage: {exc}", file=sys.stderr)
        return 2
    rows = coverage.table({name: adapters.classes()[name] for name in names})
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    if not args.check:
        return 0
    failed = []
    for name in names:
        adapter = adapters.get(name)
        seen = coverage.observed(adapter, args.device)
        mismatches = coverage.check(adapter, args.device, seen)
        if mismatches:
            failed.append(name)
            print("\n".join(mismatches))
            print(f"the declaration that matches what {name} does (its class's `dtypes`):\n"
                  f"{coverage.declaration(seen)}")
    print(f"declarations hold: {', '.join(names)}" if not failed else f"declarations differ: {', '.join(failed)}")
    return 1 if failed else 0


def _estimate(args) -> int:
    if args.workers < 1:
        print(f"estimate: --workers takes a count >= 1. Received: {args.workers}", file=sys.stderr)
        return 2
    try:
        durations = shards.read_durations(args.results)
    except shards.ShardError as exc:
        print(f"estimate: {exc}", file=sys.stderr)
        return 2
    items, code = _collected(args.pytest_args or [own_specs()])
    if code not in (0, 5):
        print(f"estimate: pytest could not collect {' '.join(args.pytest_args)} (exit {code})", file=sys.stderr)
        return 2
    seconds = shards.estimates(items, durations)
    rows = cost.table({i.nodeid: (shards.group_of(i), s) for i, s in zip(items, seconds)})
    recorded = sum(i.nodeid in durations for i in items)
    total = sum(seconds)
    for line in cost.lines(rows, f"estimated cost by adapter, kind and mode (item seconds; {recorded} of {len(items)} "
                                 f"items recorded in {args.results}, the rest at their group's mean)"):
        print(line)
    print(f"worker time {total / 60:.1f} min; wall time on {args.workers} worker(s) about "
          f"{total / 60 / args.workers:.1f} min (item time only: imports and compiler start-up come on top)")
    return 0


def _collected(pytest_args: list) -> tuple[list, int]:
    """The items `pytest --collect-only PYTEST ARGS` selects (after --share and --shard), and its exit code."""
    import pytest  # here, not where the module loads: `validate` answers without it

    class Grab:
        items = []

        def pytest_collection_finish(self, session):
            Grab.items = list(session.items)

    with contextlib.redirect_stdout(io.StringIO()):
        code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *pytest_args], plugins=[Grab()])
    return Grab.items, int(code)


if __name__ == "__main__":
    sys.exit(main())

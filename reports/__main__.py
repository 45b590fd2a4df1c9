"""python -m reports build RESULTS_DIR... [-o OUT] [--baseline BASE] [--history RUN...] [--upgraded-from OLD]
[--expect PART,...]:
write OUT/index.html from result records; with a baseline (an earlier run's results, e.g. main's
last CI run) the page opens with what changed since it; with earlier runs (oldest first) it charts
each adapter's outcomes by commit and by framework version; with --upgraded-from, the same items'
run at the version in use, it has the upgrade note (as `upgrade` below); with --expect, it names the
run's parts it lacks yet (a run still going, or cut short). An adapter recorded at
several versions (both runs given as inputs) has a column per version. It ends with the totals per status
and the failing items with their rerun commands, and exits 1 when any item failed (the page is
written either way), 2 on bad input.

python -m reports diff BASE NEW: what changed between two runs, outcome by outcome (keyed by
spec, case, kind, adapter, device, dtype, mode; a run that holds an adapter at several versions
keys each version apart), after the adapters' versions that differ between the runs: new
failures, documented differences no longer observed, fixed failures, newly documented
differences, other changes (reports/changes.py), and the benchmark medians that moved beyond 5%
and their noise; exits 1 on a new failure (a CI gate; a slower benchmark is listed, not gated:
CI machines differ), 2 on bad input.

python -m reports port SOURCE TARGET [RESULTS...] [--mode eager|compiled|mixed] [--model SPEC]: what a
port from the SOURCE adapter to the TARGET meets: every case both ran that they did not do alike, by regime
(undocumented, default, promotion, special-value, no-gradient, precision, crash, compiler, nondeterministic, semantics,
unsupported), with both sides' status, note, source and numbers (reports/port.py); RESULTS
defaults to results/. --model (models/cnn) narrows it to what moving that model meets: its own
cases and those of the specs of the ops it calls, its optimizers and its layers' default
initialisations, in its dtypes. Exits 1 when a differing case is undocumented on either side (a fail, an
error, a crash), 2 on bad input (no such results, an adapter absent from them).

python -m reports upgrade OLD NEW: what changed between two runs of the same items at two versions
of a framework (`python -m suites upgrade` makes them), as an upgrade note (reports/upgrade.py): what
to act on first (new failures, documented differences no longer observed, newly documented ones),
gradients that appeared or vanished, ops supported or refused now, fixed failures, values that
moved within their bounds (closer to exact or further, in ulps against the reference), each by
spec area, with its mode; then benchmark medians that moved beyond their noise. Exits 1 on a new
failure or a documented difference no longer observed, 2 on bad input.

python -m reports whole-run RESULTS... [--rerun RESULTS...] [--write]: a part of the whole suite's
run (share 1: the adapters, modes and kinds these results hold) folded into the last whole run
(reports/whole-run.json, reports/whole.py), whose rows of the same adapter, mode and kind it
replaces: prints the status counts per adapter, mode and kind, and with --write keeps them (and
docs/whole-run.md) for the page of every report built afterwards. --rerun: reruns of some of the
part's items (its items that left no record, its failures after a mend), whose records stand
over the part's and whose runs are not counted again among the items collected. Exits 2 on bad
input (no records, a share under 1).
"""
import argparse
import json
import sys

from reports import changes, perf, port, summary, upgrade, whole
from reports.build import bench_files, build, files_of, read_records
from reports.records import FAILING, standing
from vocabulary import MODES


def main(argv=None, prog="python -m reports") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the HTML report from result folders or .jsonl files")
    b.add_argument("inputs", nargs="+", help="results folders (searched for *.jsonl) or .jsonl files")
    b.add_argument("-o", "--output", default="reports/out", help="output folder (default: reports/out)")
    b.add_argument("--baseline", help="an earlier run (results folder or .jsonl): the page opens with the changes")
    b.add_argument("--history", nargs="+", default=[], metavar="RUN",
                   help="earlier runs' results folders, oldest first: outcomes charted run by run")
    b.add_argument("--upgraded-from", default=None, metavar="OLD",
                   help="the same items' run at the version in use: the page has the upgrade note")
    b.add_argument("--expect", default="", metavar="PART,...",
                   help="the parts the run will write (adapters, multihost, benchmarks): the page names those it "
                        "lacks yet (tox -e report builds it after each part)")
    d = sub.add_parser("diff", help="what changed between two runs; exit 1 on a new failure")
    d.add_argument("base", help="the earlier run: results folder or .jsonl file")
    d.add_argument("new", help="the later run: results folder or .jsonl file")
    u = sub.add_parser("upgrade", help="two runs at two versions of a framework as an upgrade note; exit 1 to act")
    u.add_argument("old", help="the run at the version in use: results folder or .jsonl file")
    u.add_argument("new", help="the run at the version upgraded to: results folder or .jsonl file")
    p = sub.add_parser("port", help="every case where two adapters differ, by regime; exit 1 on an undocumented one")
    p.add_argument("source", help="the adapter a port leaves, e.g. torch")
    p.add_argument("target", help="the adapter it moves to, e.g. jax")
    p.add_argument("results", nargs="*", default=["results"], help="results folders or .jsonl files (default: results)")
    p.add_argument("--mode", choices=MODES, default=None, help="one mode only (default: every mode)")
    p.add_argument("--verbose", action="store_true",
                   help="every group in full (both sides, source, rerun command) and the unsupported cases")
    p.add_argument("--model", default=None, metavar="SPEC",
                   help="a model spec (models/cnn): its cases and those of the ops, optimizers and defaults it meets")
    w = sub.add_parser("whole-run", help="fold a share-1 run's results into the last whole run (reports/whole.py)")
    w.add_argument("results", nargs="+", help="the part's results folders or .jsonl files")
    w.add_argument("--rerun", nargs="+", default=[], metavar="RESULTS",
                   help="reruns of some of the part's items: their records stand over the part's")
    w.add_argument("--write", action="store_true",
                   help="keep the merged run (reports/whole-run.json, docs/whole-run.md)")
    args = parser.parse_args(argv)
    if args.command == "whole-run":
        return _whole_run(args.results, args.rerun, args.write)
    if args.command in ("diff", "upgrade"):
        return _compare(args.command, *((args.base, args.new) if args.command == "diff" else (args.old, args.new)))
    if args.command == "port":
        return _port(args)
    try:
        page = build(args.inputs, args.output, args.baseline, args.history, args.upgraded_from,
                     [p.strip() for p in args.expect.split(",") if p.strip()])
    except FileNotFoundError as exc:
        print(f"reports: {exc}", file=sys.stderr)
        return 2
    records = standing(read_records(args.inputs)[0])
    print("\n".join([*summary.ending(records), f"report: {page.resolve()}"]))
    return 1 if any(r.get("status") in FAILING for r in records) else 0


def _port(args) -> int:
    try:
        records = read_records(args.results)[0]
    except FileNotFoundError as exc:
        print(f"reports: {exc}", file=sys.stderr)
        return 2
    ran = {r.get("adapter") for r in records}
    for name in (args.source, args.target):
        if name not in ran:
            print(f"reports: no records of adapter {name!r} in {' '.join(args.results)} "
                  f"(recorded: {', '.join(sorted(map(str, ran))) or 'none'})", file=sys.stderr)
            return 2
    try:
        found = port.port(records, args.source, args.target, args.mode, args.model)
    except ValueError as exc:
        print(f"reports: {exc}", file=sys.stderr)
        return 2
    print("\n".join(port.lines(found, args.source, args.target, args.model, args.verbose)))
    return 1 if any(g["source"]["status"] in FAILING or g["target"]["status"] in FAILING
                    for rows in found.values() for g in rows) else 0


def _whole_run(results: list, reruns: list, write: bool) -> int:
    """`whole-run`: the part's status counts folded into the last whole run, printed (and kept)."""
    try:
        records = whole.with_reruns(read_records(results)[0], read_records(reruns)[0] if reruns else [])
        selections = [json.loads(f.read_text(encoding="utf-8")) for f in files_of(results, "selection-*.json")]
        if not records:
            raise ValueError(f"no records in {' '.join(results)}")
        new = whole.part(records, selections, files_of([*results, *reruns], "*.jsonl"))
    except (FileNotFoundError, ValueError) as exc:
        print(f"reports: {exc}", file=sys.stderr)
        return 2
    merged = whole.merge(whole.read(whole.WHOLE_RUN), new)
    print(whole.table(merged))
    lost = "" if new["collected"] is None else f", {new['collected'] - new['recorded']:,} of its items left no record"
    print(f"this part: {new['recorded']:,} items at commit {new['commit']}, {new['date']}{lost}")
    if write:
        whole.WHOLE_RUN.write_text(json.dumps(merged, indent=1) + "\n", encoding="utf-8")
        whole.WHOLE_RUN_PAGE.write_text(whole.page(merged), encoding="utf-8")
        print(f"kept in {whole.WHOLE_RUN.name} and {whole.WHOLE_RUN_PAGE.name}")
    return 0


def _compare(command: str, base: str, new: str) -> int:
    """`diff` and `upgrade`: the two runs' outcomes and benchmark medians, compared."""
    try:
        (old, _), (now, _) = read_records([base]), read_records([new])
        before, after = (perf.read_runs(bench_files([folder]))[0] for folder in (base, new))
    except FileNotFoundError as exc:
        print(f"reports: {exc}", file=sys.stderr)
        return 2
    moved = perf.changes(before, after) if before and after else None  # None: not both timed
    if command == "upgrade":
        found = upgrade.upgrade(old, now, moved)
        print("\n".join(upgrade.lines(found)))
        return upgrade.gate(found)
    found = changes.changes(old, now)
    print("\n".join(upgrade.version_lines(upgrade.versions(old, now)) + changes.lines(found)
                    + (changes.benchmark_lines(moved) if moved is not None else [])))
    return changes.gate(found)


if __name__ == "__main__":
    sys.exit(main())

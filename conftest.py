"""pytest options, hypothesis profiles, spec collection and result recording for Parity.

    pytest specs [--adapter torch,jax] [--device cpu|cuda|gpu] [--mode eager,compiled] [--dtype float32,...]
                 [--results-dir DIR] [--adapter-path FILE.py] [--share F] [--shard K/N [--shard-durations RESULTS]]
                 [--hypothesis-profile ci|dev|thorough] [--hypothesis-seed N]
    pytest suites/fuzz --fuzz-minutes M [--adapter ...] [--mode ...] [--dtype ...]

Spec files are pytest's own test files: `pytest specs/matmul.yaml`, `pytest specs/` (any YAML
file named on the command line, or under specs/ when a folder within it is named). `pytest
suites [--spec PATH]` runs the specs of --spec (default specs/) through the anchor module
suites/test_specs.py, with ids that start with the area (matmul/...) instead of the file; with a
folder of specs named, --spec narrows it to the files it names.
"""
import functools
import json
import os
import pathlib
import random
import time
from types import SimpleNamespace

import hypothesis
import pytest

import adapters
import vocabulary
from reports import cost
from suites.loading import spec_differences
from suites.loading.specs import SpecError, load_file, load_path, own_specs
from suites.running import changes, coverage, faults, progress, results, shards

ROOT = pathlib.Path(__file__).resolve().parent
ANCHOR = ROOT / "suites" / "test_specs.py"
DEVICES = ("cpu", "cuda", "gpu")

# ci: 5 derandomized examples per (spec, kind, adapter, dtype), so that every push checks every
# spec on five adapters within 5 minutes on 2 cores (each JAX example with new shapes is an XLA
# compile); dev and thorough are where hypothesis searches.
hypothesis.settings.register_profile("ci", max_examples=5, derandomize=True, database=None, deadline=None,
                                     print_blob=True)
hypothesis.settings.register_profile("dev", max_examples=40, deadline=None, print_blob=True)
hypothesis.settings.register_profile("thorough", max_examples=500, deadline=None, print_blob=True)
hypothesis.settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_addoption(parser):
    group = parser.getgroup("parity", "Parity conformance suites")
    group.addoption("--adapter", default=None,
                    help="comma-separated adapters to run (default: every installed one)")
    group.addoption("--adapter-path", action="append", default=[], metavar="FILE.py",
                    help="register every Adapter subclass defined in FILE.py (repeatable)")
    group.addoption("--device", default="cpu", help="comma-separated devices: cpu, cuda, gpu (default: cpu)")
    group.addoption("--dtype", default=None, help="comma-separated dtypes to run (default: each spec's own)")
    group.addoption("--mode", default=None,
                    help="comma-separated modes: eager, compiled, mixed, exported (default: every mode each "
                         "adapter has: docs/modes.md)")
    group.addoption("--spec", default=None, help="a spec file or folder (default: specs/)")
    group.addoption("--share", type=float, default=1.0, metavar="F",
                    help="run every explicit example in the eager mode and a share F (0 < F <= 1) of the other "
                         "items (generated checks, compiled items, training): at least one per area, adapter and "
                         "mode, chosen by the run's seed (default 1: every item)")
    group.addoption("--share-documented", action="store_true",
                    help="draw the generated and non-eager items that a documented difference names by --share "
                         "like the rest, where a run keeps every one by default so that no published report "
                         "lacks one (CI's lines: a commit's check publishes nothing)")
    group.addoption("--share-over-collected", action="store_true",
                    help="draw --share over every collected item, before -k narrows them, so that runs that "
                         "split one selection by -k keep together what the one run would (CI's test and "
                         "test-apart)")
    group.addoption("--changed-since", default=None, metavar="REV",
                    help="run every item of the spec files and adapters that changed since the git revision REV, "
                         "whatever --share; --share draws the rest (suites/running/changes.py)")
    group.addoption("--changed-limit", type=int, default=None, metavar="N",
                    help="with --changed-since: run at most N of the items the change touches beyond the share's "
                         "(the changed spec files' first, drawn by the seed; default: every one)")
    group.addoption("--changed-share", type=float, default=None, metavar="F",
                    help="with --changed-since: the share of the rest where the judge or the runner changed "
                         "(default: --share)")
    group.addoption("--shard", default=None, metavar="K/N",
                    help="run the K-th of N shards of the items (after --share), balanced by --shard-durations "
                         "(suites/running/shards.py); N shards' results folders merge into one run's report")
    group.addoption("--shard-durations", default=None, metavar="RESULTS",
                    help="an earlier run's results folder (or .jsonl) whose recorded durations balance --shard "
                         "(default: every item estimated alike)")
    group.addoption("--results-dir", default=None,
                    help="where result JSON lines go (default: results/<timestamp>/)")
    group.addoption("--case-timeout", type=float, default=600.0, metavar="SECONDS",
                    help="an item without a result after this long is recorded as a timeout (0: no limit; "
                         "default 600); a repeat check's item, after this long in any of its processes")
    group.addoption("--fuzz-minutes", type=float, default=None, metavar="M",
                    help="suites/fuzz: minutes of random programs in all (shared by its items; default: no fuzzing)")
    group.addoption("--threads", type=int, default=None,
                    help="benchmarks: threads for every framework (default: every usable CPU)")
    group.addoption("--bench-filter", default=None, metavar="KEY=GLOB,...",
                    help="benchmarks: keep workloads whose area, spec, size, adapter, dtype, mode, pass match")


def pytest_configure(config):
    try:
        config.parity = _options(config)
    except (SpecError, adapters.AdapterError, ValueError) as exc:  # ShardError, ChangeError are ValueErrors
        pytest.exit(f"parity: {exc}", returncode=2)
    config.pluginmanager.register(config.parity.progress, "parity-progress")


def _options(config) -> SimpleNamespace:
    for path in config.getoption("adapter_path"):
        adapters.load_path(path)
    requested = _split(config.getoption("adapter"))
    for name in requested:  # asked for by name: it must be there
        adapters.check_installed(name)
    chosen = requested or adapters.installed()
    adapters.import_first(chosen)
    devices = _split(config.getoption("device")) or ["cpu"]
    for device in devices:
        if device not in DEVICES:
            raise ValueError(f"--device takes {', '.join(DEVICES)}. Received: {device!r}")
    modes = _split(config.getoption("mode")) or list(vocabulary.MODES)
    for mode in modes:
        if mode not in vocabulary.MODES:
            raise ValueError(f"--mode takes {', '.join(vocabulary.MODES)}. Received: {mode!r}")
    dtypes = _split(config.getoption("dtype"))
    for dtype in dtypes:
        if dtype not in adapters.base.ALL_DTYPES:
            raise ValueError(f"--dtype takes {', '.join(adapters.base.ALL_DTYPES)}. Received: {dtype!r}")
    workerinput = getattr(config, "workerinput", None)
    folder = (workerinput or {}).get("parity_results_dir") or config.getoption("results_dir") or results.default_dir()
    seed = config.getoption("hypothesis_seed", None)
    if seed is None and workerinput:
        seed = workerinput["parity_seed"]  # the controller's
    elif seed is None:
        profile = config.getoption("hypothesis_profile", None)  # hypothesis loads it after this hook
        derandomized = (hypothesis.settings.get_profile(profile) if profile else hypothesis.settings()).derandomize
        # the ci profile: the commit's count, so each commit checks the next slice of the share and
        # the same commit the same items; dev and thorough: a new seed every run
        seed = results.commit_count() if derandomized else random.getrandbits(32)
    worker = workerinput["workerid"] if workerinput else "main"
    if not 0 < config.getoption("share") <= 1:
        raise ValueError(f"--share takes a share 0 < F <= 1. Received: {config.getoption('share'):g}")
    fuzz = config.getoption("fuzz_minutes")
    if fuzz is not None and fuzz <= 0:
        raise ValueError(f"--fuzz-minutes takes minutes > 0. Received: {fuzz:g}")
    timeout = config.getoption("case_timeout")
    if timeout < 0:
        raise ValueError(f"--case-timeout takes seconds >= 0 (0: no limit). Received: {timeout:g}")
    changed_share = config.getoption("changed_share")
    if changed_share is not None and not 0 < changed_share <= 1:
        raise ValueError(f"--changed-share takes a share 0 < F <= 1. Received: {changed_share:g}")
    since = config.getoption("changed_since")
    limit = config.getoption("changed_limit")
    if limit is not None and (limit < 0 or not since):
        raise ValueError(f"--changed-limit takes a count >= 0 with --changed-since. Received: {limit}")
    shipped = functools.partial(spec_differences.shipped, chosen)
    shard = config.getoption("shard")
    durations = config.getoption("shard_durations")
    if durations and not shard:
        raise ValueError("--shard-durations balances shards: give --shard K/N with it")
    return SimpleNamespace(
        shard=shard and shards.parse(shard), durations=shards.read_durations(durations) if durations else {},
        adapters=chosen, devices=devices, modes=modes, dtypes=dtypes, seed=int(seed), results_dir=str(folder),
        specs=shipped(load_path(config.getoption("spec") or own_specs())) if _collects_suites(config) else [],
        spec_files={path: shipped(load_file(path)) for path in _spec_files(config)},
        recorder=results.Recorder(folder, worker), environment=results.environment(),
        case_timeout=timeout, watch=faults.Watch(folder, worker, timeout), started=time.time(),
        changes=since and changes.Changes(since, adapters.classes()),
        progress=progress.Progress(config, len(_spec_files(config)) + _collects_suites(config)),
    )


def _collects_suites(config) -> bool:
    """Load specs only when the suites are collected (so `pytest tests` needs no spec)."""
    args = [pathlib.Path(a.split("::")[0]).resolve() for a in config.args] or [pathlib.Path.cwd()]
    return any(a == ANCHOR or a in ANCHOR.parents for a in args)


def _spec_files(config) -> list:
    """The YAML spec files that pytest collects as test files: those named on the command line,
    and those under a named folder that lies within specs/. Loaded (and so validated) before
    anything runs."""
    specs_dir = ROOT / "specs"
    narrowed = config.getoption("spec") and pathlib.Path(config.getoption("spec")).resolve()
    files = []
    for arg in config.args:
        path = pathlib.Path(arg.split("::")[0]).resolve()
        if path.is_file() and path.suffix == ".yaml":
            files.append(path)
        elif path.is_dir() and (path == specs_dir or specs_dir in path.parents):
            # a folder's files, or those of --spec among them (`pytest specs --spec specs/padding.yaml`)
            files += [f for f in sorted(path.rglob("*.yaml")) if not narrowed or narrowed in (f, *f.parents)]
    return files


def _split(value) -> list:
    return [v.strip() for v in value.split(",") if v.strip()] if value else []


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """xdist: every worker writes into the controller's results folder, with its seed."""
    node.workerinput["parity_results_dir"] = node.config.parity.results_dir
    node.workerinput["parity_seed"] = node.config.parity.seed


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """xdist: `-n N` steals work (--dist worksteal) where it would load-balance by fixed queues, so
    that a worker held by a native hang (up to the case timeout) leaves its queued items to the
    others instead of keeping them while they idle; an explicit --dist other than load stays."""
    if config.getoption("dist") != "load":
        return None
    from xdist.scheduler import WorkStealingScheduling

    return WorkStealingScheduling(config, log)


@pytest.hookimpl(optionalhook=True)
def pytest_handlecrashitem(crashitem, report, sched):
    """xdist: a worker died in the middle of an item; record it as a crash or timeout (the
    worker's own note says which item and case, its fault log how it died) and let xdist replace
    it. Where the case was one of the item's named examples, the item is given back to the
    scheduler and runs again without it, so that its other cases keep their records."""
    parity = getattr(report.node.config, "parity", None)
    if parity is None:
        return
    record, note = faults.crash_record(parity.results_dir, report.node.gateway.id, parity.case_timeout)
    if record:
        parity.recorder.write({**record, **parity.environment})
        report.longrepr = f"{record['test']}: {record['status']} in case {record['case']!r}: {record['message']}"
    if note and faults.run_again_without(parity.results_dir, note, sched):
        report.longrepr = f"{report.longrepr}; its other cases run again in a fresh worker"


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    """--share: the explicit examples, every item --changed-since touches, and a share of the rest
    (suites/running/selection.py: shared; --changed-share where the judge or runner changed); then
    --shard K/N: the K-th of N balanced parts of those (suites/running/shards.py). Last, after -k
    and -m: the share, --changed-limit's budget and the manifest are of the items the run asked
    for, never of items -k drops anyway; but --share-over-collected draws the share over every
    collected item, so that a run split in two by -k and "not" -k keeps what one run keeps (a
    share drawn after -k keeps at least one item in each of the narrowed run's (area, adapter,
    mode) groups, which made CI's line of repeat checks keep 131 items where 3% of them is 38)."""
    collected = list(items)
    yield  # -k, -m and every other plugin narrow the items first
    parity = getattr(config, "parity", None)
    if parity is not None:
        _select(config, parity, items, collected if config.getoption("share_over_collected") else items)


def _select(config, parity, items: list, pool: list):
    """The share drawn over pool (items or every collected one), --changed-since's items, --shard."""
    kept, share, changed = items, config.getoption("share"), parity.changes
    if changed and changed.machinery and config.getoption("changed_share") is not None:
        share = config.getoption("changed_share")
    left = 0
    if share < 1:
        from suites.running.selection import shared

        kept = shared(pool, share, parity.seed, not config.getoption("share_documented"))[0]
        drawn = set(map(id, kept))
        touched, left = changed.within(items, config.getoption("changed_limit"), parity.seed, drawn) if changed \
            else (set(), 0)
        kept = [i for i in items if id(i) in drawn or id(i) in touched]
    selected = kept
    if parity.shard:
        index, count = parity.shard
        kept = shards.split(kept, count, parity.durations)[index - 1]
    worker = getattr(config, "workerinput", {}).get("workerid")
    if worker in (None, "gw0") and not config.getoption("collectonly"):  # xdist: its workers collect alike
        from suites.running.selection import write_manifest

        run = os.getppid() if worker else os.getpid()  # the pytest run: its controller's process
        paths = [os.path.relpath((config.invocation_params.dir / a.split("::")[0]).resolve(), config.rootpath)
                 for a in config.args]
        write_manifest(parity.results_dir, run, items, selected, kept, share, parity.seed, parity.shard, changed, left,
                       paths, config.getoption("keyword"))
    if len(kept) < len(items):
        chosen = set(map(id, kept))
        config.hook.pytest_deselected(items=[i for i in items if id(i) not in chosen])
        items[:] = kept


def pytest_collect_file(file_path, parent):
    parity = getattr(parent.config, "parity", None)
    if parity is not None and pathlib.Path(file_path).resolve() in parity.spec_files:
        from suites.running.items import SpecFile

        return SpecFile.from_parent(parent, path=file_path)
    return None


def pytest_pycollect_makemodule(module_path, parent):
    if pathlib.Path(module_path).resolve() == ANCHOR:
        from suites.running.items import SpecFile

        return SpecFile.from_parent(parent, path=module_path)
    return None


def pytest_sessionfinish(session):
    parity = getattr(session.config, "parity", None)
    if parity is None:
        return
    parity.watch.close()
    parity.recorder.close()
    if not hasattr(session.config, "workerinput"):
        records = results.read_parts(parity.results_dir)
        session.config._parity_cost = cost.table(cost.item_seconds(records))
        session.config._parity_recorded = {r.get("test") for r in records}
        if pathlib.Path(parity.results_dir).is_dir():
            installed = adapters.classes()
            coverage.write(parity.results_dir, {n: installed[n] for n in parity.adapters if n in installed})
        merged = results.merge(parity.results_dir)
        if merged:
            session.config._parity_merged = merged


def pytest_report_header(config):
    """The run's seed: it draws the share and every generated case (--hypothesis-seed repeats it)."""
    parity = getattr(config, "parity", None)
    if parity is None:
        return None
    seed = f"parity: seed {parity.seed} (--hypothesis-seed {parity.seed} runs the same items and cases)"
    return [seed, parity.changes.summary()] if parity.changes else seed


def pytest_terminal_summary(terminalreporter, config):
    """The run's cost by adapter, kind and mode (reports/cost.py), what --changed-limit left to the
    share, then where its results are."""
    rows = getattr(config, "_parity_cost", None)
    if rows:
        wall = time.time() - config.parity.started
        title = f"parity: cost of this run by adapter, kind and mode (item seconds; {wall:.0f} s of wall time)"
        for line in cost.lines(rows, title):
            terminalreporter.write_line(line)
    parity = getattr(config, "parity", None)
    manifest = parity and pathlib.Path(parity.results_dir) / f"selection-{os.getpid()}.json"  # this run's
    left = json.loads(manifest.read_text(encoding="utf-8")).get("changed_left") if manifest and manifest.is_file() \
        else 0
    if left:
        terminalreporter.write_line(f"parity: --changed-limit left {left} of the items the change touched to the share")
    merged = getattr(config, "_parity_merged", None)
    if merged:
        terminalreporter.write_line(f"parity: results in {merged}")
    lost = results.unrecorded([r.nodeid for r in getattr(terminalreporter, "stats", {}).get("failed", [])],
                              getattr(config, "_parity_recorded", set()))
    if lost:
        terminalreporter.write_line(f"parity: {len(lost)} failed item(s) left no record, so no page shows them: "
                                    f"{', '.join(lost)}", red=True)

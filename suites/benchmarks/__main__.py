"""python -m suites.benchmarks run | table | compare

    run [--adapter a,b] [--adapter-path FILE.py] [--device cpu] [--threads N]
        [--profile quick|full | --bench-filter KEY=GLOB,...] [--out DIR] [--turns T]
        one pytest process per adapter (a framework's thread pool cannot slow another's), T turns
        of them interleaved (suites/benchmarks/turns.py), merged into DIR/<adapter>.json
        (pytest-benchmark's JSON); then % of peak re-based on the fastest calibration GEMM of all
        of them, the medians' intervals, and the side-by-side table.
    table FILE.json...                 per workload, every adapter by median, with ratios
    compare BASE.json NEW.json [--threshold 0.05]
        changes beyond the threshold that the two runs' IQRs cannot explain; exit 1 on a slowdown.
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import adapters
from reports import stats
from suites.benchmarks import machine
from suites.benchmarks.turns import merged
from suites.benchmarks.workloads import PROFILES

HERE = pathlib.Path(__file__).resolve().parent
BENCH_FILES = ("bench_specs.py", "bench_collectives.py")
SELF_CHECK = ("torch", "bench_harness.py")  # the harness is measured against torch's own timer
ENGINE_TARGETS = "bench_engine.py"  # the engine's matmul beside NumPy's and its LSTM's memory, a process of its own


def main(argv=None, prog="python -m suites.benchmarks") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run every benchmark, one process per adapter")
    run.add_argument("--adapter", default=None, help="comma-separated (default: every installed one but the reference)")
    run.add_argument("--adapter-path", action="append", default=[], metavar="FILE.py",
                     help="register every Adapter subclass defined in FILE.py (repeatable), as pytest's option does")
    run.add_argument("--device", default="cpu")
    run.add_argument("--threads", type=int, default=None)
    run.add_argument("--bench-filter", default=None, help="key=glob terms (see workloads.py); not with --profile quick")
    run.add_argument("--profile", choices=sorted(PROFILES), default="full",
                     help="quick: the headline workloads (workloads.PROFILES); full (default): every benchmark, "
                          "the harness' self-check and the engine's targets")
    run.add_argument("--out", default="results/bench")
    run.add_argument("--turns", type=int, default=3,
                     help="run the adapters' processes this many times in turn, each with 1/T of the timed "
                          "budget, and merge their samples (default 3; 1: one process each)")
    run.add_argument("pytest_args", nargs="*", help="passed to pytest (after --)")
    table = commands.add_parser("table", help="print benchmark JSON side by side")
    table.add_argument("files", nargs="+")
    comp = commands.add_parser("compare", help="flag changes between two runs that noise cannot explain")
    comp.add_argument("base")
    comp.add_argument("new")
    comp.add_argument("--threshold", type=float, default=0.05)
    args = parser.parse_args(argv)
    try:
        if args.command == "run":
            return run_all(args)
        if args.command == "table":
            print("\n".join(side_by_side([load(f) for f in args.files])))
            return 0
        lines, slower = compare(load(args.base), load(args.new), args.threshold)
        print("\n".join(lines))
        return 1 if slower else 0
    except (OSError, ValueError, KeyError, adapters.AdapterError) as exc:
        print(f"parity: {exc}", file=sys.stderr)
        return 2


def load(path) -> dict:
    try:
        return json.loads(pathlib.Path(path).read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not pytest-benchmark JSON ({exc})") from None


def run_all(args) -> int:
    bench_filter = chosen_filter(args.profile, args.bench_filter)
    if args.turns < 1:
        raise ValueError(f"--turns takes a count >= 1. Received: {args.turns}")
    for path in args.adapter_path:
        adapters.load_path(path)
    names = [n.strip() for n in args.adapter.split(",")] if args.adapter else [
        n for n in adapters.installed() if n != "reference"]
    for name in names:
        adapters.check_known(name)
    threads = machine.checked_threads(args.threads)
    cpus = machine.usable_cpus()[:threads]
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    checks = out / "checks"  # the records of wrong outputs (the report reads the folder's JSON lines too)
    shutil.rmtree(checks, ignore_errors=True)  # this run's, none of an earlier one's
    options = ["--device", args.device, "--results-dir", str(checks), "--threads", str(threads)] + [
        option for path in args.adapter_path for option in ("--adapter-path", path)] + (
        ["--bench-filter", bench_filter] if bench_filter else [])
    jobs = [(name, list(BENCH_FILES) + ([SELF_CHECK[1]] if name == SELF_CHECK[0] else [])) for name in names]
    if "engine" in names and not bench_filter:
        jobs.append(("engine-targets", [ENGINE_TARGETS]))
    if args.turns > 1:  # each turn a share of pytest-benchmark's timed budget (its default, 1 s)
        options += ["--benchmark-max-time", f"{1.0 / args.turns:g}"]
    failed, turns = set(), {name: [] for name, _ in jobs}
    with tempfile.TemporaryDirectory() as scratch:
        for turn in range(args.turns):  # A B C, A B C: drift falls on every adapter alike
            for index, (name, files) in enumerate(jobs):
                target = pathlib.Path(scratch) / f"{name}-{turn}.json"
                adapter = "engine" if name == "engine-targets" else name
                command = [sys.executable, "-m", "pytest", *(str(HERE / f) for f in files), "-p", "no:xdist", "-p",
                           "no:cacheprovider", "-q", "-rs", "--adapter", adapter, "--benchmark-json", str(target),
                           *options, *args.pytest_args]
                print(f"parity: benchmarks of {name}, turn {turn + 1} of {args.turns} "
                      f"(process {turn * len(jobs) + index + 1} of {len(jobs) * args.turns})", flush=True)
                # the threads hold from the process' first instruction: every BLAS sizes its pool at load
                code = subprocess.run(command, env={**child_environment(), **machine.thread_environment(threads)},
                                      preexec_fn=lambda: os.sched_setaffinity(0, cpus)).returncode
                if code not in (0, 5):  # 5: nothing collected (a filter that keeps none of this adapter's)
                    failed.add(name)
                if target.exists():
                    turns[name].append(load(target))
    written = [out / f"{name}.json" for name, _ in jobs if turns[name]]
    reports = [merged(turns[path.stem]) for path in written]
    rebase_peak(reports)
    add_intervals(reports)
    for path, report in zip(written, reports):
        path.write_text(json.dumps(report, indent=2))
    print("\n".join(side_by_side(reports)))
    if failed:
        print(f"parity: benchmark processes failed: {', '.join(sorted(failed))}", file=sys.stderr)
    return 1 if failed else 0


def chosen_filter(profile: str, bench_filter: str | None) -> str:
    """The --bench-filter the processes get: the profile's, or the one given (which narrows the
    full set); both at once would leave the reader guessing which holds."""
    if bench_filter and PROFILES[profile]:
        raise ValueError(f"--bench-filter narrows the full profile; --profile {profile} has its own filter. "
                         f"Received both: {bench_filter!r}")
    return bench_filter or PROFILES[profile]


def child_environment() -> dict:
    """This environment without xdist's worker variables: launched from inside an xdist worker,
    pytest-benchmark would take the child for a worker and leave the JSON to a controller."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}


def rebase_peak(reports: list) -> None:
    """% of peak against the fastest calibration GEMM any process measured on the same device."""
    peaks = {}
    for report in reports:
        for key, rate in (report["machine_info"].get("calibration") or {}).items():
            if isinstance(rate, float):  # keys read "<who>-<device>"
                device = key.split("-", 1)[1]
                peaks[device] = max(peaks.get(device, 0.0), rate)
    for report in reports:
        report["machine_info"]["peak_gflops"] = peaks
        for bench in report["benchmarks"]:
            info = bench["extra_info"]
            peak = peaks.get(info.get("device"))
            if info.get("gflops") and peak:
                info["peak_gflops"], info["pct_of_peak"] = peak, 100 * info["gflops"] / peak
                # above the fastest GEMM measured: more threads than the peak's, or a wrong FLOP count
                info["above_peak"] = info["pct_of_peak"] > 100


def add_intervals(reports: list) -> None:
    """Each benchmark's bootstrap 95% interval of its median, from its raw per-round samples
    (pytest-benchmark's JSON keeps them), in extra_info `median_ci`; and, beside the fastest of
    its group in this run, the interval of its ratio to that one's median (`ratio_ci`)."""
    for group in groups(reports).values():
        fastest = group[0]["stats"]
        for bench in group:
            info, data = bench.setdefault("extra_info", {}), bench["stats"].get("data")
            if data:
                info["median_ci"] = stats.median_interval(data)
            if data and bench is not group[0] and fastest.get("data"):
                info["ratio_ci"] = stats.ratio_interval(data, fastest["data"])


def groups(reports: list) -> dict:
    """group -> its benchmarks across the reports, fastest first."""
    out = {}
    for report in reports:
        for bench in report["benchmarks"]:
            out.setdefault(bench["group"], []).append(bench)
    for benches in out.values():
        benches.sort(key=lambda b: b["stats"]["median"])
    return out


def side_by_side(reports: list) -> list:
    """Per group, fastest first: median, IQR, rounds, the figures, and the ratio to the fastest
    (with its interval, where `run` added one)."""
    lines = []
    for group, benches in sorted(groups(reports).items()):
        fastest = benches[0]["stats"]
        lines.append(group)
        for b in benches:
            info, figures = b.get("extra_info", {}), b["stats"]
            who = info.get("adapter") or b["name"]
            ratio = f"{figures['median'] / fastest['median']:6.2f}x"
            if info.get("ratio_ci"):
                ratio += " [{:.2f}, {:.2f}]".format(*info["ratio_ci"])
            lines.append(f"  {who:<12} {figures['median'] * 1e3:10.3f} ms  IQR {figures['iqr'] * 1e3:8.3f} ms  "
                         f"{figures['rounds']:4d} rounds  {ratio}  " + "; ".join(columns(info)))
    return lines


def columns(info: dict) -> list:
    """The extra_info figures worth a column: rates, compile time, the unstable flag."""
    out = [f"{info['gflops']:.1f} GFLOP/s ({info['pct_of_peak']:.0f}% of peak)"] if info.get("gflops") else []
    out += ["ABOVE PEAK: the measurement is broken"] if info.get("above_peak") else []
    out += [f"{info['gbps']:.2f} GB/s"] if info.get("gbps") else []
    out += [f"busbw {info['busbw_gbps']:.3f} GB/s"] if info.get("busbw_gbps") else []
    out += [f"compile {info['compile_s']:.2f} s"] if info.get("compile_s") is not None else []
    return out + (["UNSTABLE"] if info.get("unstable") else [])


def compare(base: dict, new: dict, threshold: float):
    """Benchmarks in both runs whose median moved by more than `threshold` where the change is
    also real (reports/stats.py change: a rank test on the raw samples, else the IQRs)."""
    before = {b["fullname"]: b["stats"] for b in base["benchmarks"]}
    lines, slower = [], []
    for bench in new["benchmarks"]:
        old = before.get(bench["fullname"])
        found = stats.change(old, bench["stats"], threshold) if old else None
        if found:
            if found["slower"]:
                slower.append(bench["fullname"])
            verdict = "SLOWER" if found["slower"] else "faster"
            lines.append(f"{verdict} {found['change']:+.1%} ({found['why']}): {bench['fullname']}")
    lines.append(f"{len(lines)} of {len(new['benchmarks'])} benchmarks changed beyond {threshold:.0%} and their noise "
                 f"(a rank test on the raw samples, else the IQRs); {len(slower)} slower")
    return lines, slower

if __name__ == "__main__":
    sys.exit(main())

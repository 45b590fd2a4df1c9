"""The measuring that every benchmark shares: steady state before timing, and the figures it
records in pytest-benchmark's extra_info (GFLOP/s, % of peak, GB/s, relative IQR and the
unstable flag); the --bench-filter terms."""
import statistics

import pytest

from suites.benchmarks.machine import seconds
from suites.benchmarks.workloads import FilterError, parse_filter

UNSTABLE_IQR = 0.10  # a relative IQR above this flags the result unstable
STEADY_TOLERANCE = 0.05  # warm-up ends when two windows' medians agree this well
STEADY_WINDOW = 3
WARMUP_LIMIT = (50, 5.0)  # at most this many calls / seconds of warm-up


def bench_filter(config) -> list:
    """The --bench-filter terms (a bad filter ends the session with one line, exit code 2)."""
    try:
        return parse_filter(config.getoption("bench_filter"))
    except FilterError as exc:
        pytest.exit(f"parity: {exc}", returncode=2)


def warm_up(run) -> int:
    """Call run until two consecutive windows of calls have medians within STEADY_TOLERANCE
    (caches, allocators and thread pools settled), within WARMUP_LIMIT; the calls made."""
    times = []
    while len(times) < WARMUP_LIMIT[0] and sum(times) < WARMUP_LIMIT[1]:
        times.append(seconds(run))
        if len(times) >= 2 * STEADY_WINDOW:
            before = statistics.median(times[-2 * STEADY_WINDOW:-STEADY_WINDOW])
            now = statistics.median(times[-STEADY_WINDOW:])
            if abs(before - now) <= STEADY_TOLERANCE * now:
                break
    return len(times)


def stability(median: float, iqr: float) -> dict:
    """The relative IQR and whether it flags the median unstable."""
    rel_iqr = iqr / median if median else None
    return {"rel_iqr": rel_iqr, "unstable": rel_iqr is not None and rel_iqr > UNSTABLE_IQR}


def figures(benchmark, peak_gflops: float, flops=None, nbytes=None) -> dict:
    """The derived figures of a finished benchmark, from its median and IQR."""
    stats = benchmark.stats.stats
    median = stats.median
    out = stability(median, stats.iqr)
    if flops:
        out["gflops"] = flops / median / 1e9
        out["pct_of_peak"] = 100 * out["gflops"] / peak_gflops
    if nbytes:
        out["gbps"] = nbytes / median / 1e9
    return out

"""The harness measured: the same torch matmul timed by our harness (pytest-benchmark, synced,
after warm-up) and by torch.utils.benchmark.Timer.blocked_autorange in one run, their ratio
recorded (target: within 5%); and the harness' own overhead per call of a no-op (target: under
1 microsecond on CPU). Targets are recorded as facts beside the numbers, never asserted: the
machines are shared and noisy."""
import numpy as np

from suites.benchmarks.harness import figures, warm_up

MATMUL_N = 512
RATIO_TARGET = 0.05
NOOP_TARGET_S = 1e-6


def test_harness_matches_torch_timer(benchmark, bench_adapter):
    torch = bench_adapter("torch")

    rng = np.random.default_rng(0)
    a, b = (torch.asarray(rng.standard_normal((MATMUL_N, MATMUL_N)), "float32", "cpu") for _ in range(2))

    def run():
        torch.sync(torch.matmul(a, b))

    warm_up(run)
    benchmark.group = "harness/self-check"
    benchmark(run)
    if benchmark.stats is None:  # --benchmark-disable: nothing was timed
        return
    theirs = torch.framework_timer(run)  # torch.utils.benchmark.Timer.blocked_autorange, the same call
    ours = benchmark.stats.stats.median
    benchmark.extra_info.update(figures(benchmark, 1.0), adapter="torch", torch_timer_median_s=theirs,
                                ratio_to_torch_timer=ours / theirs,
                                within_target=abs(ours / theirs - 1) <= RATIO_TARGET)


def test_harness_overhead_noop(benchmark):
    benchmark.group = "harness/overhead"
    benchmark(lambda: None)
    if benchmark.stats is None:
        return
    per_call = benchmark.stats.stats.median
    benchmark.extra_info.update(figures(benchmark, 1.0), per_call_s=per_call, within_target=per_call < NOOP_TARGET_S)

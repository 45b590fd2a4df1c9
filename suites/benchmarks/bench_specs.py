"""Every spec's benchmark block on every adapter: eager and compiled, forward and forward +
backward, synced, after a steady-state warm-up. Figures in extra_info (see harness.py). Each
workload's output is checked once against the float64 reference before it is timed: a wrong one
is a failing result record (kind `benchmark`), not a time."""
import pytest

import adapters
from adapters.base import Unsupported
from reports.records import PASSING, record
from suites.benchmarks import machine
from suites.benchmarks.harness import bench_filter, figures, warm_up
from suites.benchmarks.workloads import check, matches, step, work, workloads
from suites.judging.outcome import Outcome, one_line
from suites.loading import specs
from suites.running.items import resolve_device, runs
from suites.running.results import outcome_fields


def pytest_generate_tests(metafunc):
    if "workload" not in metafunc.fixturenames:
        return
    config = metafunc.config
    terms = bench_filter(config)
    chosen = specs.load_path(config.getoption("spec") or specs.own_specs())
    classes = adapters.classes()  # an adapter runs the modes it has, in the areas it runs
    cases = [(w, a, d) for w in workloads(chosen, terms) for a in config.parity.adapters
             for d in config.parity.devices if matches(w.fields(a), terms)
             and (a not in classes or runs(classes[a], w.spec.area, w.mode))]  # not installed: skipped with why
    metafunc.parametrize(("workload", "adapter_name", "device"), cases,
                         ids=[f"{w.id}-{a}-{d}" for w, a, d in cases])


def test_workload(benchmark, pytestconfig, bench_adapter, calibration, threads, workload, adapter_name, device):
    adapter = bench_adapter(adapter_name)
    device = resolve_device(adapter, device)
    peak = calibration(adapter, device)
    benchmark.group = workload.id  # every adapter of one workload side by side
    try:
        ctx, run, values, out_shape = step(workload, adapter, device)
        first_call = machine.seconds(run)  # the compiled mode compiles here
        checked = check(workload, ctx, values)  # on the function just made: no second compilation
    except Unsupported as exc:
        pytest.skip(f"unsupported: {exc}")
    except Exception as exc:  # a framework (or its compiler) that raises on the workload: a finding
        checked = Outcome("error", workload.id, one_line(exc))
    if checked.status == "unsupported":
        pytest.skip(f"unsupported: {checked.message}")
    if checked.status not in PASSING:  # a wrong output is a result, not a time (nccl-tests' #wrong)
        record_check(pytestconfig, workload, adapter, device, checked)
        pytest.fail(f"{workload.id} on {adapter_name}: {checked.status}: {checked.message}", pytrace=False)
    warmup_calls = warm_up(run)
    machine.reset_peak_rss()
    adapter.reset_peak_memory(device)
    benchmark(run)
    device_peak = adapter.peak_memory(device)
    info = benchmark.extra_info
    info.update(workload.fields(adapter_name))
    info.update(device=device, version=adapter.version(), threads=threads["threads"],
                first_call_s=first_call, warmup_calls=warmup_calls, checked=checked.status,
                checked_max_abs_err=getattr(checked.comparison, "max_abs_err", None),
                peak_memory_bytes=device_peak if device_peak is not None else machine.peak_rss(),
                peak_memory_kind="device" if device_peak is not None else "process RSS",
                peak_gflops=peak["gflops"], **work(workload, values, out_shape))
    if benchmark.stats is not None:  # None under --benchmark-disable
        info.update(figures(benchmark, peak["gflops"], info["flops"], info["bytes"]))
        if workload.mode in ("compiled", "exported"):  # the compile, or the export, save, load and session set-up
            info["compile_s"] = max(first_call - benchmark.stats.stats.median, 0.0)


def record_check(config, workload, adapter, device, outcome) -> None:
    """A benchmark whose output is wrong, as a result record (kind `benchmark`) in the run's
    results folder: the report shows it with the failures, with its error, and no time."""
    config.parity.recorder.write(record(
        spec=workload.spec.name, case=workload.id, kind="benchmark", adapter=adapter.name, device=device,
        dtype=workload.dtype, mode=workload.mode, **outcome_fields(outcome, workload.dtype),
        versions={adapter.name: adapter.version()}, test=f"{workload.id}-{adapter.name}-{device}",
        **config.parity.environment))

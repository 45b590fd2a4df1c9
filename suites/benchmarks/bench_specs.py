"""Every spec's benchmark block on every adapter: eager and compiled, forward and forward +
backward, synced, after a steady-state warm-up. Figures in extra_info (see harness.py)."""
import pytest

from adapters.base import Unsupported
from suites import specs
from suites.benchmarks import machine
from suites.benchmarks.harness import bench_filter, figures, warm_up
from suites.benchmarks.workloads import matches, step, work, workloads
from suites.items import resolve_device
from suites.outcome import one_line

DEFAULT_SPECS = "specs"


def pytest_generate_tests(metafunc):
    if "workload" not in metafunc.fixturenames:
        return
    config = metafunc.config
    terms = bench_filter(config)
    chosen = specs.load_path(config.getoption("spec") or DEFAULT_SPECS)
    cases = [(w, a, d) for w in workloads(chosen, terms) for a in config.parity.adapters
             for d in config.parity.devices if matches(w.fields(a), terms)]
    metafunc.parametrize(("workload", "adapter_name", "device"), cases,
                         ids=[f"{w.id}-{a}-{d}" for w, a, d in cases])


def test_workload(benchmark, bench_adapter, calibration, threads, workload, adapter_name, device):
    adapter = bench_adapter(adapter_name)
    device = resolve_device(adapter, device)
    peak = calibration(adapter, device)
    benchmark.group = workload.id  # every adapter of one workload side by side
    try:
        run, values, out_shape = step(workload, adapter, device)
        first_call = machine.seconds(run)  # the compiled mode compiles here
    except Unsupported as exc:
        pytest.skip(f"unsupported: {exc}")
    except Exception as exc:  # eager errors are failures; a compiler that refuses the workload is a finding
        if workload.mode != "compiled":
            raise
        pytest.skip(f"{adapter_name} cannot compile {workload.id}: {one_line(exc)}")
    warmup_calls = warm_up(run)
    machine.reset_peak_rss()
    adapter.reset_peak_memory(device)
    benchmark(run)
    device_peak = adapter.peak_memory(device)
    info = benchmark.extra_info
    info.update(workload.fields(adapter_name))
    info.update(device=device, version=adapter.version(), threads=threads["threads"],
                first_call_s=first_call, warmup_calls=warmup_calls,
                peak_memory_bytes=device_peak if device_peak is not None else machine.peak_rss(),
                peak_memory_kind="device" if device_peak is not None else "process RSS",
                peak_gflops=peak["gflops"], **work(workload, values, out_shape))
    if benchmark.stats is not None:  # None under --benchmark-disable
        info.update(figures(benchmark, peak["gflops"], info["flops"], info["bytes"]))
        if workload.mode == "compiled":
            info["compile_s"] = max(first_call - benchmark.stats.stats.median, 0.0)

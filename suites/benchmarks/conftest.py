"""Fixtures and hooks of the benchmarks: one setting of threads for every framework, the
calibration GEMMs, the ready adapters, and what machine_info records (suites/benchmarks/harness.py
has the measuring itself). Run benchmarks alone and one framework per process
(`python -m suites.benchmarks run` does); see suites/benchmarks/__init__.py."""
import warnings

import pytest

import adapters
from suites.benchmarks import machine


def pytest_configure(config):
    config.bench_threads, config.bench_calibration = None, {}


@pytest.fixture(scope="session")
def threads(pytestconfig) -> dict:
    """Pins the process to --threads CPUs at the first benchmark, before any framework loads
    (adapters import theirs on first use); recorded in machine_info."""
    try:
        pytestconfig.bench_threads = machine.pin_threads(pytestconfig.getoption("threads"))
    except ValueError as exc:
        pytest.exit(f"parity: {exc}", returncode=2)
    held = pytestconfig.bench_threads
    if held["blas_threads"] not in (None, held["threads"]):
        warnings.warn(f"NumPy's BLAS runs {held['blas_threads']} threads, not --threads {held['threads']}: it "
                      "started before the setting (run through python -m suites.benchmarks run, which sets it "
                      "before the process starts); its figures count those threads", stacklevel=1)
    return held


def pytest_benchmark_update_machine_info(config, machine_info):
    """Recorded once per JSON file: the CPU, the threads, the calibration, the versions and the
    machine's noise (suites/benchmarks/machine.py), whose warnings go to the terminal too."""
    machine_info["cpu_model"] = machine.cpu_model()
    machine_info["noise"] = machine.noise()
    for warning in machine_info["noise"]["warnings"]:
        print(f"parity: noise: {warning}")
    machine_info["parity_threads"] = config.bench_threads
    machine_info["calibration"] = config.bench_calibration
    machine_info["versions"] = {name: adapters.get(name).version() for name in adapters.loaded()}


@pytest.fixture
def calibration(pytestconfig):
    """(adapter, device) -> {"gflops": the peak, "gemms": every calibration}: the fastest
    float32 GEMM this process measured on the device, NumPy's (CPU) or the adapter's, each run
    once per process and recorded in machine_info. The driver re-bases % of peak on the
    fastest of all its processes (python -m suites.benchmarks run)."""
    gemms = pytestconfig.bench_calibration

    def get(adapter, device):
        if device == "cpu" and "numpy-cpu" not in gemms:
            gemms["numpy-cpu"] = machine.calibration_gflops()
        key = f"{adapter.name}-{device}"
        if key not in gemms:
            try:
                gemms[key] = machine.calibration_gflops(adapter.matmul, lambda a: adapter.asarray(a, "float32", device),
                                                        adapter.sync)
            except Exception as exc:  # recorded, not fatal: the other calibrations still stand
                gemms[key] = f"failed: {exc}"
        rates = [g for k, g in gemms.items() if k.endswith(device) and isinstance(g, float)]
        return {"gflops": max(rates), "gemms": dict(gemms)}
    return get


@pytest.fixture
def bench_adapter(threads):
    """adapter name -> the ready adapter with the run's threads, set up for speed (a skip where
    not installed)."""
    def get(name):
        try:
            adapter = adapters.get(name)
        except adapters.AdapterError as exc:
            pytest.skip(str(exc))
        adapter.set_threads(threads["threads"])
        adapter.prepare_for_speed()
        return adapter
    return get

"""all_reduce and all_gather on every adapter's runtime, 1 KiB to 64 MiB per rank's result, world
sizes 2 and 4, in place and out of place where the framework has the call: time per call, algbw
= S / t and busbw = algbw x the collective's bus factor, the figures nccl-tests prints for both
placements (so GPU runs compare with NVLink / PCIe peaks).

The calls are timed inside the workers (after a warm-up, the device synced, a barrier before
each call where ranks are processes) and the slowest rank's time per call is handed to
pytest-benchmark through its timer, so pickling and pipes never enter the figures."""
import itertools

import pytest

from adapters.base import Unsupported
from suites.benchmarks.harness import bench_filter, figures
from suites.benchmarks.workloads import bus_factor, collective_message, matches, message_sizes
from suites.running.items import resolve_device

COLLECTIVES = ("all_reduce", "all_gather")
WORLD_SIZES = (2, 4)
PLACEMENTS = ("in-place", "out-of-place")  # nccl-tests' two columns; unsupported where the API has no such call
PARAMS = {"all_reduce": {"op": "sum"}, "all_gather": {"axis": 0, "tiled": True}}


def rounds_for(nbytes: int) -> int:
    """Fewer timed calls for big messages (a 64 MiB all_reduce takes a good fraction of a second on CPU)."""
    return 20 if nbytes <= 2**20 else 10 if nbytes <= 2**24 else 5


def size_name(nbytes: int) -> str:
    return f"{nbytes // 2**20}MiB" if nbytes >= 2**20 else f"{nbytes // 2**10}KiB"


def pytest_generate_tests(metafunc):
    if "collective" not in metafunc.fixturenames:
        return
    config = metafunc.config
    terms, cases = bench_filter(config), []
    for name in COLLECTIVES:
        for world in WORLD_SIZES:
            for nbytes, placement in itertools.product(message_sizes(), PLACEMENTS):
                for adapter, device in itertools.product(config.parity.adapters, config.parity.devices):
                    fields = {"area": "collectives", "spec": name, "size": size_label(world, nbytes, placement),
                              "adapter": adapter, "dtype": "float32", "mode": "eager", "pass": "forward"}
                    if matches(fields, terms):
                        cases.append((name, world, nbytes, placement, adapter, device))
    metafunc.parametrize(("collective", "world", "nbytes", "placement", "adapter_name", "device"), cases,
                         ids=[f"{n}-{size_label(w, b, p)}-{a}-{d}" for n, w, b, p, a, d in cases])


def size_label(world: int, nbytes: int, placement: str) -> str:
    return f"w{world}-{size_name(nbytes)}-{placement}"


def test_collective(benchmark, bench_adapter, threads, collective, world, nbytes, placement, adapter_name, device):
    adapter = bench_adapter(adapter_name)
    device = resolve_device(adapter, device)
    size = size_label(world, nbytes, placement)
    benchmark.group = f"collectives/{collective}/{size}"
    shards = collective_message(nbytes, world, collective)
    try:
        times = adapter.time_collective(collective, shards, rounds_for(nbytes), device=device, placement=placement,
                                        **PARAMS[collective])
    except Unsupported as exc:
        pytest.skip(f"unsupported: {exc}")
    measured = iter(times)
    clock = WorkerClock()
    benchmark._timer = clock  # pytest-benchmark reads durations off its timer: here, the workers' own
    benchmark.pedantic(lambda: clock.advance(next(measured)), rounds=len(times), iterations=1)
    info = benchmark.extra_info
    info.update(area="collectives", spec=collective, size=size, adapter=adapter_name, placement=placement,
                device=device, dtype="float32", mode="eager", world_size=world, bytes=nbytes,
                version=adapter.version(), threads=threads["threads"], timed_in="workers")
    if benchmark.stats is not None:
        info.update(figures(benchmark, peak_gflops=1.0))
        median = benchmark.stats.stats.median
        info["algbw_gbps"] = nbytes / median / 1e9
        info["busbw_gbps"] = info["algbw_gbps"] * bus_factor(collective, world)


class WorkerClock:
    """A clock that moves only when told: by the seconds a worker measured for one call."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float):
        self.now += seconds

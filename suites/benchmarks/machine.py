"""What a benchmark run records about the machine, and the knobs it sets: threads, the
calibration GEMMs (the measured peak that "% of peak" divides by: the fastest float32 GEMM seen
on the device, NumPy's BLAS or a framework's), peak memory, the CPU model.
No framework is imported here."""
import os
import pathlib
import platform
import time

import numpy as np

THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "TF_NUM_INTRAOP_THREADS",
                    "TF_NUM_INTEROP_THREADS")
CALIBRATION_N = 2048
# OpenBLAS's idle threads spin 2^28 cycles (about 0.1 s) after a call before they sleep, holding a
# core that the process' own threads want between its matmuls (the engine's unfold and its backward,
# engine/parallel.py: conv2d 2.70x torch with the default, 2.27x with 2^22); 2^20 (about 0.4 ms)
# still spans the gap between an LSTM's per-step matmuls (about 0.1 ms). Read when OpenBLAS loads.
BLAS_IDLE_SPIN = {"OPENBLAS_THREAD_TIMEOUT": "20"}


def usable_cpus() -> list:
    return sorted(os.sched_getaffinity(0))


def checked_threads(threads: int | None) -> int:
    """--threads, or every usable CPU; refused outside 1 to that count."""
    cpus = usable_cpus()
    threads = len(cpus) if threads is None else threads
    if not 1 <= threads <= len(cpus):
        raise ValueError(f"--threads takes 1 to {len(cpus)} on this machine. Received: {threads}")
    return threads


def thread_environment(threads: int) -> dict:
    """The thread-count variables for a process about to start: OpenMP, MKL and OpenBLAS size
    their pools when they load (NumPy's OpenBLAS, at `import numpy`: before any code of the
    process runs), so they must be in its environment from the start; and OpenBLAS's idle spin."""
    return {**{name: str(threads) for name in THREAD_VARIABLES}, **BLAS_IDLE_SPIN}


def pin_threads(threads: int) -> dict:
    """This process (and the threads it starts later) runs on the first `threads` usable CPUs,
    and the thread-count variables say `threads` for what loads later (XLA sizes its CPU pool
    from the affinity mask). A pool already started keeps its size: `python -m suites.benchmarks
    run` starts each benchmark process with thread_environment and this affinity; blas_threads
    says what NumPy's BLAS actually runs."""
    threads = checked_threads(threads)
    cpus = usable_cpus()[:threads]
    os.sched_setaffinity(0, cpus)
    os.environ.update(thread_environment(threads))
    return {"threads": threads, "cpus": cpus, "blas_threads": blas_threads()}


GOVERNOR = pathlib.Path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")


def noise() -> dict:
    """What makes this machine's timings move, read as pyperf's system check reads it: the
    1-minute load average against the machine's CPUs (other work competing), and the CPU frequency
    governor (anything but `performance` lets the clock move; none readable on a VM, whose host
    decides); `warnings` says which, in words."""
    load, cpus = os.getloadavg()[0], os.cpu_count() or 1  # the whole machine's, as the load average is
    governor = GOVERNOR.read_text().strip() if GOVERNOR.exists() else None
    warned = []
    if load > cpus / 2:
        warned.append(f"the machine is loaded: load average {load:.2f} on {cpus} CPUs")
    if governor != "performance":
        warned.append(f"the CPU frequency is not fixed (governor {governor})" if governor else
                      "the CPU frequency governor is unknown (no cpufreq: a VM, whose host sets the clock)")
    return {"load_average": load, "cpus": cpus, "governor": governor, "warnings": warned}


def blas_threads() -> int | None:
    """The thread count of the OpenBLAS NumPy loaded (asked through its own get_num_threads);
    None where NumPy's BLAS is another one."""
    import ctypes

    maps = pathlib.Path("/proc/self/maps")
    paths = {line.split()[-1] for line in maps.read_text().splitlines() if "openblas" in line} if maps.exists() else ()
    for path in sorted(paths):
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        for symbol in ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_", "openblas_get_num_threads"):
            if hasattr(library, symbol):
                return int(getattr(library, symbol)())
    return None


def calibration_gflops(matmul=np.matmul, make=None, sync=lambda x: None, repeats: int = 5) -> float:
    """A measured float32 GEMM rate: the best of `repeats` 2048^3 products (2 n^3 FLOPs each),
    by NumPy's BLAS or, given `make` (NumPy -> tensor), `matmul` and `sync`, by a framework."""
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((CALIBRATION_N, CALIBRATION_N)).astype(np.float32) for _ in range(2))
    if make is not None:
        a, b = make(a), make(b)
    sync(matmul(a, b))  # warm-up: thread pools start, kernels load
    best = min(seconds(lambda: sync(matmul(a, b))) for _ in range(repeats))
    return 2 * CALIBRATION_N ** 3 / best / 1e9


def seconds(fn) -> float:
    """Wall seconds of one call of fn."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def reset_peak_rss() -> bool:
    """Start a new peak-RSS window (Linux: writing 5 to /proc/self/clear_refs resets VmHWM)."""
    try:
        pathlib.Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def peak_rss() -> int | None:
    """The process's peak resident set since the last reset (VmHWM), in bytes."""
    try:
        for line in pathlib.Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def cpu_model() -> str:
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()

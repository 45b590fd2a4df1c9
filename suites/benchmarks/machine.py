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


def usable_cpus() -> list:
    return sorted(os.sched_getaffinity(0))


def pin_threads(threads: int) -> dict:
    """Before any framework loads: this process (and the threads it starts later) runs on the
    first `threads` usable CPUs, and the thread-count variables that OpenMP, MKL, OpenBLAS and
    TensorFlow read say `threads`. XLA sizes its CPU pool from the affinity mask."""
    cpus = usable_cpus()
    if not 1 <= threads <= len(cpus):
        raise ValueError(f"--threads takes 1 to {len(cpus)} on this machine. Received: {threads}")
    os.sched_setaffinity(0, cpus[:threads])
    for name in THREAD_VARIABLES:
        os.environ[name] = str(threads)
    return {"threads": threads, "cpus": cpus[:threads]}


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

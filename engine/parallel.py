"""Work split across threads, for the loops that BLAS does not run: NumPy releases the GIL inside
its copies and ufunc loops, so a convolution's unfold and its backward run on every core, as its
matmuls do (docs/engine.md). The standard library's threads only: the engine imports NumPy alone.

    parallel.set_num_threads(2)   # default: the CPUs this process may run on
    parallel.over(n, work)        # work(start, stop) on contiguous ranges of range(n), one per thread

Threads are started per call (tens of microseconds, against milliseconds of work): no pool to
outlive a fork or to shut down.
"""
import os
import threading

_threads = [len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1]


def set_num_threads(threads: int) -> None:
    """Threads for the engine's own loops (BLAS keeps its own setting, OPENBLAS_NUM_THREADS)."""
    if not isinstance(threads, int) or threads < 1:
        raise ValueError(f"set_num_threads takes a count >= 1. Received: {threads!r}")
    _threads[0] = threads


def get_num_threads() -> int:
    return _threads[0]


def over(n: int, work) -> None:
    """Call work(start, stop) on get_num_threads() contiguous ranges covering range(n) (fewer
    where n is smaller), the first in this thread, and return when every range is done; the
    first exception of any is raised here."""
    parts = max(min(_threads[0], n), 1)
    bounds = [n * k // parts for k in range(parts + 1)]
    errors = []

    def run(start, stop):
        try:
            work(start, stop)
        except BaseException as exc:  # handed to the caller's thread
            errors.append(exc)

    others = [threading.Thread(target=run, args=pair) for pair in zip(bounds[1:-1], bounds[2:])]
    for thread in others:
        thread.start()
    run(bounds[0], bounds[1])
    for thread in others:
        thread.join()
    if errors:
        raise errors[0]

"""Work split across threads, for the loops that BLAS does not run: NumPy releases the GIL inside
its copies and ufunc loops, so a convolution's unfold and its backward run on every core, as its
matmuls do (docs/engine.md). The standard library's threads only: the engine imports NumPy alone.

    parallel.set_num_threads(2)   # default: the CPUs this process may run on
    parallel.over(n, work)        # work(start, stop) on contiguous ranges of range(n), one per thread
"""
import concurrent.futures
import os

_state = {"threads": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1,
          "pool": None, "pid": None}


def set_num_threads(threads: int) -> None:
    """Threads for the engine's own loops (BLAS keeps its own setting, OPENBLAS_NUM_THREADS)."""
    if not isinstance(threads, int) or threads < 1:
        raise ValueError(f"set_num_threads takes a count >= 1. Received: {threads!r}")
    _state["threads"] = threads


def get_num_threads() -> int:
    return _state["threads"]


def over(n: int, work) -> None:
    """Call work(start, stop) on get_num_threads() contiguous ranges covering range(n) (fewer
    where n is smaller), the first in this thread, and return when every range is done; an
    exception in any is raised here."""
    parts = min(_state["threads"], n)
    bounds = [n * k // parts for k in range(parts + 1)] if parts > 1 else [0, n]
    futures = [_pool(parts - 1).submit(work, a, b) for a, b in zip(bounds[1:-1], bounds[2:])] if parts > 1 else []
    work(bounds[0], bounds[1])
    for future in futures:
        future.result()


def _pool(workers: int):
    """The worker threads, made on first use, and again in a forked child (threads do not
    survive a fork) or when more are wanted."""
    pool = _state["pool"]
    if pool is None or _state["pid"] != os.getpid() or pool._max_workers < workers:
        pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="engine")
        _state.update(pool=pool, pid=os.getpid())
    return pool

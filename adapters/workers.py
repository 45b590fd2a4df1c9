"""Worker processes for collectives on the frameworks' real distributed runtimes.

A Pool starts the processes one framework needs for one world size and keeps them for the
session: torch, one process per rank joined by torch.distributed; jax and tensorflow, one
process that sees world_size devices (their device count is fixed before the framework is
imported, which is why it cannot be this process). Requests and replies are pickled over pipes.

A rank that raises, dies or hangs makes the call fail within `timeout` seconds with a message
that names the rank and the cause. Unless every rank answered (all raised on the same bad
input), the pool is then torn down (its other ranks may be stuck in a collective) and the next
call starts a fresh one. Workers watch their parent and exit when it is
gone, and every pool is killed at exit, so no worker outlives the session.

This module imports no framework. The worker side is `python -m adapters.workers MODULE ...`:
MODULE's `collective_worker(rank, world_size, announce, **setup)` sets the framework up and
returns `serve(name, shards, params, cotangents=None, rounds=0, placement="out-of-place") -> list`:
the outputs of its ranks; with cotangents, the gradients of its ranks' inputs; with rounds, per
rank the seconds of each timed call (time_rounds), in place or out of place. `announce(dict)`
passes setup to the ranks started after rank 0 (torch's store port).
"""
import atexit
import importlib
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import threading
import time
from multiprocessing.connection import Connection, wait

ROOT = pathlib.Path(__file__).resolve().parent.parent
TIMEOUT = float(os.environ.get("PARITY_COLLECTIVE_TIMEOUT", "60"))  # seconds per call (and per start)
GRACE = 2.0  # seconds the other ranks get to answer once one has failed
WARMUP = 5  # untimed calls before a timed collective
_LIVE = set()  # pools to kill at exit


class WorkerError(RuntimeError):
    """A rank raised, died or hung; the message names it and the cause."""


class Pool:
    """`processes` workers running MODULE's collective_worker for one world size."""

    def __init__(self, module: str, world_size: int, processes: int, setup: dict | None = None,
                 timeout: float = TIMEOUT):
        self.module, self.world_size, self.processes = module, world_size, processes
        self.setup, self.timeout = dict(setup or {}), timeout
        self.announced = {}  # what this start's rank 0 announced (a store's port)
        self.workers = []  # (process, inbox to it, outbox from it, log file)

    def label(self, index: int) -> str:
        if self.processes == 1:
            return f"the {self.module.split('.')[-1]} worker ({self.world_size} devices)"
        return f"rank {index}"

    def start(self):
        _LIVE.add(self)
        deadline = time.monotonic() + self.timeout
        self.announced = {}
        self.workers.append(self._spawn(0))
        first = self._receive(0, deadline)
        if first[0] == "announce":  # setup for the other ranks (a store's port); rank 0 is ready later
            self.announced = first[1]
            first = None
        for index in range(1, self.processes):
            self.workers.append(self._spawn(index))
        for index in range(self.processes):
            self._expect_ready(index, *(first if index == 0 and first else self._receive(index, deadline)))

    def _expect_ready(self, index, kind, info):
        if kind != "ready":
            self.close()
            raise WorkerError(f"{self.label(index)} failed to start: {info}")

    def _spawn(self, index):
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        log = tempfile.TemporaryFile()
        argv = [sys.executable, "-m", "adapters.workers", self.module, str(index), str(self.world_size),
                str(to_child_r), str(from_child_w), json.dumps({**self.setup, **self.announced})]
        process = subprocess.Popen(argv, cwd=ROOT, pass_fds=(to_child_r, from_child_w), stdin=subprocess.DEVNULL,
                                   stdout=log, stderr=log, start_new_session=True)
        os.close(to_child_r)
        os.close(from_child_w)
        return process, Connection(to_child_w, readable=False), Connection(from_child_r, writable=False), log

    def call(self, name: str, shards: list, params: dict, cotangents: list | None = None, rounds: int = 0,
             placement: str = "out-of-place", replicated: bool = False, timeout: float | None = None) -> list:
        """Every worker runs the collective on its shards (its reverse pass with cotangents, of a
        replicated result where a worker asks; or `rounds` timed calls, in place or out of place);
        the replies in rank order. `timeout`: this call's seconds, where not the pool's."""
        if not self.workers:
            self.start()
        per = self.world_size // self.processes
        for index, (_, inbox, _, _) in enumerate(self.workers):
            mine = slice(index * per, (index + 1) * per)
            extra = {**({"rounds": rounds, "placement": placement} if rounds else {}),
                     **({"replicated": True} if replicated else {})}
            inbox.send((name, shards[mine], params, {"cotangents": cotangents[mine] if cotangents else None, **extra}))
        seconds = timeout or self.timeout
        deadline = time.monotonic() + seconds
        replies, failure = {}, None
        while len(replies) < self.processes:
            waiting = {self.workers[i][2]: i for i in range(self.processes) if i not in replies}
            ready = wait(list(waiting), timeout=max(deadline - time.monotonic(), 0))
            if not ready:
                names = ", ".join(self.label(i) for i in sorted(waiting.values()))
                self.close()
                raise WorkerError(failure or f"{names} did not answer within {seconds:g} s (hung, or waiting "
                                  "on a rank that did)")
            for conn in ready:
                index = waiting[conn]
                kind, value = self._receive(index, deadline)
                replies[index] = (kind, value)
                if kind != "ok" and failure is None:
                    failure = f"{self.label(index)} {value}"
                    # the others either fail too (the same bad input) or wait on this rank: a short grace
                    deadline = min(deadline, time.monotonic() + GRACE)
        if failure:  # every rank answered: nobody is stuck, the pool stays
            if any(self.workers[i][0].poll() is not None for i in range(self.processes)):
                self.close()
            raise WorkerError(failure)
        return [out for index in range(self.processes) for out in replies[index][1]]

    def _receive(self, index, deadline):
        """The worker's next message, or ("error", why) when it dies or the deadline passes."""
        process, _, outbox, log = self.workers[index]
        if not outbox.poll(max(deadline - time.monotonic(), 0)):
            return "error", f"did not answer within {self.timeout:g} s{_last_line(log)}"
        try:
            return outbox.recv()
        except (EOFError, OSError):
            try:
                code = process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                code = "unknown"
            return "error", f"died (exit code {code}){_last_line(log)}"

    def close(self):
        """Kill every worker (and anything it started); the next call starts afresh."""
        for process, inbox, outbox, log in self.workers:
            for end in (inbox, outbox):
                end.close()
            kill_session(process)
            log.close()
        self.workers = []
        _LIVE.discard(self)

    def pids(self) -> list:
        return [process.pid for process, *_ in self.workers]


_POOLS = {}


def pool(module: str, world_size: int, processes: int, setup: dict | None = None) -> Pool:
    """The session's pool for this framework module, world size and setup (started on first use)."""
    key = (module, world_size, processes, json.dumps(setup or {}, sort_keys=True))
    if key not in _POOLS:
        _POOLS[key] = Pool(module, world_size, processes, setup)
    return _POOLS[key]


def kill_session(process) -> None:
    """Kill a process started in a session of its own, and everything it started."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    process.wait()


def time_rounds(call, rounds: int, before=None) -> list:
    """Seconds of each of `rounds` calls of `call` (which returns when its result is ready),
    after WARMUP untimed ones; `before` runs untimed ahead of each call (a barrier)."""
    times = []
    for _ in range(WARMUP + rounds):
        if before is not None:
            before()
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times[WARMUP:]


def slowest(per_rank: list) -> list:
    """Per round, the slowest rank's seconds: a collective is done when every rank is."""
    return [max(times) for times in zip(*per_rank)]


def _last_line(log) -> str:
    log.seek(0)
    lines = [line for line in log.read().decode(errors="replace").splitlines() if line.strip()]
    return f": {lines[-1][:300]}" if lines else ""


@atexit.register
def _close_all():
    for pool in list(_LIVE):
        pool.close()


# -- the worker side ---------------------------------------------------------------------------

def _watch_parent():
    """Exit as soon as the parent is gone, even while a collective blocks (it releases the GIL)."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"raised {type(exc).__name__}: {text[0][:300] if text else ''}"


def main(argv) -> int:
    module, rank, world_size, inbox_fd, outbox_fd, setup = argv
    _watch_parent()
    inbox, outbox = Connection(int(inbox_fd), writable=False), Connection(int(outbox_fd), readable=False)
    try:
        serve = importlib.import_module(module).collective_worker(
            int(rank), int(world_size), lambda info: outbox.send(("announce", info)), **json.loads(setup))
    except BaseException as exc:  # reported to the parent, which names the rank
        outbox.send(("error", _describe(exc)))
        return 1
    outbox.send(("ready", None))
    while True:
        try:
            name, shards, params, options = inbox.recv()
        except EOFError:  # the pool closed
            return 0
        try:
            outbox.send(("ok", serve(name, shards, params, **options)))
        except Exception as exc:
            outbox.send(("error", _describe(exc)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

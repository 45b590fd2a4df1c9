"""Crashes and hangs: a case that kills or blocks its process becomes a "crash" or "timeout"
record, and the run goes on.

Each process notes the item it is running (`running-<worker>.json` in the results folder) and
has faulthandler write fatal signals and watchdog timeouts to `faults-<worker>.log`. A hang
gets two chances to end well:

1. after --case-timeout seconds, SIGALRM raises CaseTimeout in the item (a BaseException, so
   neither hypothesis nor the runner's error handling swallows it): the item records "timeout"
   itself and the process carries on;
2. a hang that signals cannot interrupt (native code that never returns) is ended `grace(timeout)`
   seconds later by faulthandler's watchdog thread, which dumps the stacks and exits the process.

A process that dies (os.abort, a segfault, the watchdog) is replaced by pytest-xdist, whose
controller calls `crash_record` to turn the dead worker's note and log into the record. Without
xdist (-p no:xdist, or no -n) nothing can replace the process: the run stops there, with every
result before it on disk.

A crash a spec documents (`observed: {crashes: true}` on a named example) is known in advance:
that example runs in a process of its own (`isolated`), so it costs neither the item nor the run,
with or without xdist.
"""
import faulthandler
import json
import multiprocessing
import pathlib
import re
import signal
import threading
import time

from reports.records import record

CRASH_DEADLINE = 60.0  # a documented crash's process that has not answered by then hangs (isolated)
AGAIN = 0.5  # seconds between interrupts once a case has run past its time (Watch._alarm)
GRACE = 30.0  # at most this long (and at most the timeout again) between SIGALRM and the watchdog's exit
SIGNALS = {"Segmentation fault": "SIGSEGV", "Aborted": "SIGABRT", "Bus error": "SIGBUS",
           "Floating point exception": "SIGFPE", "Illegal instruction": "SIGILL"}
MARK = "=== parity item: "
CRASHED = "crashed-cases.json"  # the controller's note of the cases that killed a worker, by item


class CaseTimeout(BaseException):
    """The item ran past --case-timeout."""


class Watch:
    """One process's note of the item it runs, and its fault log."""

    def __init__(self, folder, worker: str, timeout: float):
        self.folder, self.worker, self.timeout = pathlib.Path(folder), worker, timeout
        self._log, self._identity = None, {}
        self.fired = False  # SIGALRM came during the item: its verdict is a timeout, whatever caught it

    def _start(self):
        if self._log is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._log = open(self.folder / f"faults-{self.worker}.log", "a", encoding="utf-8")
            faulthandler.enable(file=self._log, all_threads=True)

    def begin(self, identity: dict, timed_out=None) -> None:
        """Before an item: note it, mark the log, arm both timeouts. `timed_out(identity)` writes
        the record of a case past its time, as soon as the alarm comes (_alarm)."""
        self._start()
        self._identity, self._timed_out, self.fired, self.expired = dict(identity), timed_out, False, []
        self._note()
        self._log.write(f"{MARK}{identity.get('test')}\n")
        self._log.flush()
        if self.timeout:
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGALRM, self._alarm)
                signal.setitimer(signal.ITIMER_REAL, self.timeout)
            faulthandler.dump_traceback_later(self.timeout + grace(self.timeout), exit=True, file=self._log)

    def case(self, name: str, of: int) -> None:
        """Before each of an item's `of` named cases: note it (a crash record names the case that
        killed the process, and the item's other cases run again without it: `crashed`) and
        give it the whole --case-timeout."""
        self._identity.update(case=name, cases=of)
        self._note()
        self.renew()

    def _note(self) -> None:
        (self.folder / f"running-{self.worker}.json").write_text(json.dumps(self._identity), encoding="utf-8")

    def _alarm(self, signum, frame):
        """A case ran past --case-timeout: its timeout record is written now (whatever happens
        next, the record is there: `expired` names the cases it was written for), then
        CaseTimeout, again every AGAIN seconds until the case ends: code that catches it on its
        way out (a framework's broad except; hypothesis replaying the case, which then hung on)
        meets it again, and the watchdog ends what never lets it through."""
        if not self.fired:
            self.fired = True
            self.expired.append(self._identity.get("case", "-"))
            self._identity["recorded"] = True  # the controller writes no second record (crash_record)
            self._note()
            if self._timed_out is not None:
                self._timed_out(dict(self._identity))
        signal.setitimer(signal.ITIMER_REAL, AGAIN)
        raise CaseTimeout()

    def settle(self) -> None:
        """A named case that ran past its time has ended: no more interrupts; the next renews."""
        if self.timeout and threading.current_thread() is threading.main_thread():
            signal.setitimer(signal.ITIMER_REAL, 0)
        self.fired = False
        self._identity.pop("recorded", None)
        self._note()

    def renew(self) -> None:
        """The item's next case starts in a process of its own (the repeat check's conditions):
        both timeouts armed again, so that --case-timeout bounds each such case, as it bounds an
        item that runs one."""
        if self.timeout:
            if threading.current_thread() is threading.main_thread():
                signal.setitimer(signal.ITIMER_REAL, self.timeout)
            faulthandler.dump_traceback_later(self.timeout + grace(self.timeout), exit=True, file=self._log)

    def end(self) -> None:
        """After an item (however it ended): disarm, forget it."""
        if self.timeout:
            if threading.current_thread() is threading.main_thread():
                signal.setitimer(signal.ITIMER_REAL, 0)
            faulthandler.cancel_dump_traceback_later()
        (self.folder / f"running-{self.worker}.json").unlink(missing_ok=True)

    def close(self) -> None:
        if self._log is not None:
            faulthandler.disable()
            self._log.close()
            self._log = None


def innermost_frames(log: str, count: int = 3) -> list:
    """The top frames of the thread that ran the item (faulthandler prints every thread), as
    `function (path:line)` with paths relative to the project or to site-packages."""
    blocks = re.split(r"\n(?=(?:Current thread|Thread) 0x)", log)
    running = [b for b in blocks if "in runtest" in b] or [b for b in blocks if b.startswith("Current thread")]
    frames = re.findall(r'File "([^"]+)", line (\d+) in (\S+)', running[0] if running else "")
    return [f"{name} ({_short_path(path)}:{line})" for path, line, name in frames[:count]]


def _short_path(path: str) -> str:
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1]
    try:
        return str(pathlib.Path(path).relative_to(pathlib.Path.cwd()))
    except ValueError:
        return pathlib.Path(path).name


def grace(timeout: float) -> float:
    return min(GRACE, timeout)


def isolated(function, *args, deadline: float | None = None):
    """function(*args) in a fresh (spawned) process, for a case documented to kill its process:
    (its result, None), or (None, the name of the signal that killed the process), or (None,
    "a hang") where `deadline` seconds pass without a result (a corrupted heap may deadlock in
    malloc rather than abort: the process is killed). An exception it raised, or an exit without
    a result, is raised here. Without a deadline a hang is the caller's --case-timeout; the
    process is killed however the call ends."""
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_send_result, args=(send, function, args), daemon=True)
    process.start()
    send.close()
    result, hung = None, False
    try:
        if deadline is None or receive.poll(deadline):
            result = receive.recv()
        else:
            hung = True
    except EOFError:  # it died before it could answer
        pass
    finally:
        if not hung:
            process.join(None if result is not None else GRACE)
        if process.is_alive():
            process.kill()
            process.join()
    code = process.exitcode
    if hung:
        return None, f"a hang (no result within {deadline:g} s; the process was ended)"
    if result is None and code is not None and code < 0:
        return None, signal.Signals(-code).name
    if result is None:
        raise RuntimeError(f"the isolated process ended with exit code {code} and no result")
    if isinstance(result, BaseException):
        raise result
    return result, None


def _send_result(send, function, args):
    """The isolated process: function's result, or the exception it raised, back to the parent."""
    try:
        result = function(*args)
    except Exception as exc:  # noqa: BLE001 - raised again in the parent
        result = RuntimeError(f"{type(exc).__name__}: {exc}")
    send.send(result)


def crash_record(folder, worker: str, timeout: float) -> tuple:
    """The record of the item a dead worker was running, and the worker's note of it (its test,
    and the named case it was in, of how many): "timeout" when the watchdog ended it, else
    "crash" with the fatal signal (unknown when killed from outside, e.g. out of memory). No
    record where the worker wrote it (a case past its time, Watch._alarm); (None, None) where
    it was running nothing."""
    folder = pathlib.Path(folder)
    running = folder / f"running-{worker}.json"
    try:
        identity = json.loads(running.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, None
    running.unlink(missing_ok=True)
    if identity.get("recorded"):  # the worker wrote the timeout's record itself (Watch._alarm)
        return None, identity
    log = folder / f"faults-{worker}.log"
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    text = text[text.rfind(MARK):] if MARK in text else text
    stack = innermost_frames(text)
    where = f"; innermost frames: {' <- '.join(stack)}" if stack else ""
    if "Timeout (" in text:
        status, sig = "timeout", None
        message = (f"no result within {timeout:g} s (--case-timeout) + {grace(timeout):g} s grace; the process was "
                   f"ended{where}")
    else:
        found = re.search(r"Fatal Python error: ([A-Za-z ]+)", text)
        sig = SIGNALS.get(found.group(1).strip(), found.group(1).strip()) if found else "unknown"
        status = "crash"
        message = (f"the process died with {sig} while running this item{where}" if found else
                   "the process died without a fatal-signal report (killed from outside? out of memory?)")
    return fault_record(identity, status, message, sig), identity


def crashed(folder, test: str) -> list:
    """The cases of item `test` that killed a process earlier in this run (the controller's
    note, `run_again_without`): its run again leaves them out, their crash records are written."""
    return _crash_notes(folder).get(test, [])


def _crash_notes(folder) -> dict:
    try:
        return json.loads((pathlib.Path(folder) / CRASHED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def run_again_without(folder, note: dict, sched) -> bool:
    """After a crash in a named case of an item with other cases (the worker's `note`): note the
    case (`crashed`) and give the item back to xdist's scheduler, so that a fresh worker runs
    and records its other cases. False where nothing is left to run, or the scheduler cannot
    take an item back (--dist loadscope)."""
    test, case, cases = note.get("test"), note.get("case"), note.get("cases")
    notes = _crash_notes(folder)
    known = notes.get(test, [])
    if case is None or not cases or len(known) + 1 >= cases:
        return False
    notes[test] = [*known, case]
    (pathlib.Path(folder) / CRASHED).write_text(json.dumps(notes), encoding="utf-8")
    try:
        sched.mark_test_pending(test)
    except (NotImplementedError, AttributeError, ValueError):
        return False
    return True


def fault_record(identity: dict, status: str, message: str, signal_name: str | None = None) -> dict:
    """The record of an item that ended without outcomes (crash, timeout): no errors, no inputs."""
    started = identity.get("started", time.time())
    fields = {k: v for k, v in identity.items() if k not in ("started", "case", "cases", "recorded")}
    return record(**fields, case=identity.get("case", "-"), status=status, signal=signal_name, message=message,
                  duration=max(time.time() - started, 0.0))

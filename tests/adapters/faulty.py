"""Adapters that take their process down, for tests/test_faults.py: the reference adapter, except
that relu aborts the process (as a native kernel might on a bad shape) or never returns."""
import ctypes
import os
import signal
import time

from adapters.reference import ReferenceAdapter


class AbortingAdapter(ReferenceAdapter):
    name = "aborting"

    def relu(self, x):
        os.abort()


class HangingAdapter(ReferenceAdapter):
    name = "hanging"

    def relu(self, x):
        while True:  # a hang that SIGALRM can interrupt
            time.sleep(1)


class StuckAdapter(ReferenceAdapter):
    name = "stuck"

    def relu(self, x):
        # a native call that holds the GIL and never returns, deaf to SIGALRM: only the watchdog
        # thread can end it
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        ctypes.PyDLL(None).sleep(3600)


class WrongFirstCallAdapter(ReferenceAdapter):
    """relu is wrong on its first call in each process (on a non-empty input), as state a process
    builds up can make a kernel right (a compiler's cache, a counter): hypothesis's in-process
    rerun passes, and every fresh process fails again."""
    name = "wrong-first-call"
    wrong_call = 1
    calls = 0

    def relu(self, x):
        type(self).calls += x.size > 0
        return super().relu(x) + (1.0 if type(self).calls == self.wrong_call and x.size else 0.0)


class WrongSecondCallAdapter(WrongFirstCallAdapter):
    """relu is wrong on its second call in a process only: a fresh process's first call passes."""
    name = "wrong-second-call"
    wrong_call = 2
    calls = 0



class OffByOneReluAdapter(ReferenceAdapter):
    """relu plus one, always: a fail the suspect-oracle check questions on the run's others."""
    name = "off-by-one-relu"

    def relu(self, x):
        return super().relu(x) + 1.0


class SwallowingAdapter(ReferenceAdapter):
    """relu never returns, and turns the timeout's interrupt into an error of its own: what a
    framework's broad `except BaseException` (or hypothesis replaying a case) makes of it."""
    name = "swallowing"

    def relu(self, x):
        try:
            while True:
                time.sleep(1)
        except BaseException as exc:  # noqa: BLE001 - the point of this adapter
            raise RuntimeError("a framework's own error in place of the interrupt") from exc


class OnNegative:
    """(A mixin) relu misbehaves on an input with a negative element only (a kernel's bad path): the
    other examples of the same item pass."""

    def relu(self, x):
        if (x < 0).any():
            self.misbehave()
        return super().relu(x)


class AbortingOnNegativeAdapter(OnNegative, ReferenceAdapter):
    name = "aborting-on-negative"

    def misbehave(self):
        os.abort()


class HangingOnNegativeAdapter(OnNegative, ReferenceAdapter):
    name = "hanging-on-negative"

    def misbehave(self):
        while True:
            time.sleep(1)

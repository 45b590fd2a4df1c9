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

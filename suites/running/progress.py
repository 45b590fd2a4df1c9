"""How far a run is, said as it goes: a line per spec file collected (a run of every spec collects
for a minute or more before pytest prints anything), then every minute the items done of the
items kept, the time so far and, at the pace the items have kept since the first ended (collection
excluded), the time to go. pytest's own dots and percentages stay; these lines add the times. A
pytest plugin (conftest.py registers it): under xdist the first worker speaks of collection (every
worker collects every file) and the controller of the items (it sees every item's reports)."""
import os
import sys
import time

import pytest

# seconds between two lines of the items' progress (PARITY_PROGRESS_EVERY sets another)
EVERY = float(os.environ.get("PARITY_PROGRESS_EVERY", "60"))


class Progress:
    def __init__(self, config, files: int):
        self.config, self.files, self.collected, self.start = config, files, 0, time.monotonic()
        self.worker = getattr(config, "workerinput", {}).get("workerid")
        self.items, self.done, self.said, self.first = 0, 0, time.monotonic(), None

    def file_collected(self, path) -> None:
        if self.worker not in (None, "gw0"):
            return
        self.collected += 1
        self.say(f"parity: collected {path.name} ({self.collected} of {self.files} spec files, "
                 f"{time.monotonic() - self.start:.0f} s)")

    def pytest_collection_finish(self, session):
        if self.worker is None:
            self.items = len(session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids):
        self.items = self.items or len(ids)  # every worker collects the same kept items

    def pytest_runtest_logreport(self, report):
        if self.worker is not None or report.when != "teardown":
            return
        self.done += 1
        now = time.monotonic()
        self.first = self.first or now
        if now - self.said < EVERY or not self.items:
            return
        self.said = now
        line = f"parity: {self.done:,} of {self.items:,} items, {(now - self.start) / 60:.1f} min so far"
        if self.done > 1:  # a pace needs two items ended
            left = (now - self.first) / (self.done - 1) * max(self.items - self.done, 0)
            line += f", about {left / 60:.1f} min to go at this pace"
        terminal = self.config.pluginmanager.getplugin("terminalreporter")
        if terminal is None:
            self.say(line)
            return
        if getattr(getattr(terminal, "_tw", None), "width_of_current_line", 0):
            terminal.write("\n")  # pytest's dots are on this line: ours goes on a line of its own
        terminal.write_line(line)

    def say(self, line: str) -> None:
        """A line on the run's stderr, past pytest's capture (a worker's stderr is the run's)."""
        with self.config.pluginmanager.getplugin("capturemanager").global_and_fixture_disabled():
            print(line, file=sys.stderr, flush=True)

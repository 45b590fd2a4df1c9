"""Result records: one JSON line per case outcome, appended and flushed as soon as it exists.

Each process writes its own part file (part-main.jsonl, part-gw0.jsonl under xdist) so that a
crash or a kill loses nothing already measured; the controlling process merges the parts into
results.jsonl when the session ends. The report builder reads every *.jsonl under a folder.
"""
import datetime
import json
import os
import pathlib
import platform
import subprocess
import sys

import numpy as np

from reports.records import PASSING
from suites.judging import compare

MAX_VALUES = 64  # inputs up to this many elements are written out whole in a record
MAX_OUTPUT = 4096  # an example's output up to this size is recorded, for the cross-framework heatmap


def default_dir() -> pathlib.Path:
    return pathlib.Path("results") / datetime.datetime.now().strftime("%Y%m%d-%H%M%S")


class Recorder:
    def __init__(self, folder, worker: str = "main"):
        self.folder = pathlib.Path(folder)
        self.path = self.folder / f"part-{worker}.jsonl"
        self._file = None

    def write(self, record: dict) -> None:
        if self._file is None:  # the folder appears with the first result, not with every session
            self.folder.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "a", encoding="utf-8")
        self._file.write(json.dumps(record, default=_plain, allow_nan=True) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def merge(folder) -> pathlib.Path | None:
    """Append every part file to results.jsonl, then remove the parts."""
    folder = pathlib.Path(folder)
    parts = sorted(folder.glob("part-*.jsonl"))
    if not parts:
        return None
    merged = folder / "results.jsonl"
    with open(merged, "a", encoding="utf-8") as out:
        for part in parts:
            out.write(part.read_text(encoding="utf-8"))
    for part in parts:
        part.unlink()
    return merged


def unrecorded(failed: list, recorded: set) -> list:
    """The spec items pytest failed that left no record (a worker that died between the item's
    check and its record, an error outside the item's judging): named at the run's end, since the
    page, built from the records, cannot show them."""
    return sorted({nodeid for nodeid in failed if ".yaml::" in nodeid and nodeid not in recorded})


def read_parts(folder) -> list:
    """The records in the part files under `folder`: the running session's, before merge()
    appends them to results.jsonl."""
    return read_lines(sorted(pathlib.Path(folder).glob("part-*.jsonl")))


def read_lines(files) -> list:
    """The records of these JSON-lines files, in order; a line cut off by a kill is left out."""
    out = []
    for file in files:
        for line in pathlib.Path(file).read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                out.append(record)
    return out


def describe_inputs(inputs: dict, dtype: str) -> dict:
    """Shapes, dtypes and (for small arrays) the values of a case's inputs; float inputs were
    drawn as exact values of `dtype`, the dtype under test."""
    described = {}
    for name, value in inputs.items():
        value = np.asarray(value)
        entry = {"shape": list(value.shape), "dtype": dtype if value.dtype.kind == "f" else value.dtype.name}
        if value.size <= MAX_VALUES:
            entry["values"] = value.tolist()
        described[name] = entry
    return described


def output_values(actual, kind: str) -> list | None:
    """An example's result values, flat, for comparing frameworks with each other in the report
    (every adapter sees the same inputs in an example; hypothesis cases are not recorded); a
    complex result's as its (real, imaginary) pairs, flat."""
    if actual is None or kind not in ("example", "collective") or np.size(actual) > MAX_OUTPUT:
        return None
    if np.iscomplexobj(actual):
        return compare.as_pairs(actual).ravel().tolist()
    return np.asarray(actual, dtype=np.float64).ravel().tolist()


def interpreter() -> str:
    """The Python that runs this, as a rerun command names it: relative to the working folder
    where it lies under it (a tox env's .tox/test/bin/python), so that a rerun after tox is not
    a bare `pytest` that another environment answers."""
    path = pathlib.Path(sys.executable)
    try:
        return str(path.relative_to(pathlib.Path.cwd()))
    except ValueError:
        return str(path)


def pytest_command(root: pathlib.Path, nodeid: str) -> list:
    """The interpreter, pytest and the node id, as typed in the working folder: where that is not
    Parity's checkout (a run through parity.py from a team's repository), pytest is pointed at
    Parity's configuration and the node id's file is named from here."""
    if pathlib.Path.cwd() == root:
        return [interpreter(), "-m", "pytest", nodeid]
    file, _, rest = nodeid.partition("::")
    return [interpreter(), "-m", "pytest", "-c", os.path.relpath(root / "pyproject.toml"),
            "--rootdir", os.path.relpath(root), f"{os.path.relpath(root / file)}::{rest}"]


def environment() -> dict:
    return {"python": platform.python_version(), "numpy": np.__version__, "machine": platform.node(),
            "platform": f"{sys.platform}-{platform.machine()}", "commit": commit()}


def commit() -> str | None:
    """The checked-out commit (with "+dirty" for uncommitted changes), None outside a git checkout."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if head.returncode:
        return None
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def commit_count() -> int:
    """How many commits HEAD's history holds (0 outside a git checkout): the ci profile's seed,
    so that each commit draws the next slice of the share (suites/running/items.py: shared)."""
    try:
        count = subprocess.run(["git", "rev-list", "--count", "HEAD"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return 0
    return int(count.stdout) if count.returncode == 0 and count.stdout.strip().isdigit() else 0


def _plain(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return str(value)


def outcome_fields(outcome, dtype: str) -> dict:
    """A record's fields that an outcome gives: status and message, the errors against the
    reference with the worst element and its neighbourhood, a failing case's inputs, what is
    documented, a model's parts and trajectory, a compiled outcome's eager counterpart."""
    passed = outcome.status in PASSING
    comparison = outcome.comparison or compare.Comparison(ok=passed)
    return {"status": outcome.status, "message": outcome.message, "eager": outcome.eager,
            "max_abs_err": comparison.max_abs_err, "max_rel_err": comparison.max_rel_err, "ulp": comparison.ulp,
            "worst": comparison.worst, "around": comparison.around,
            "example": None if passed else describe_inputs(outcome.inputs, dtype),
            "difference": outcome.difference, "parts": comparison.parts, "trajectory": outcome.trajectory}

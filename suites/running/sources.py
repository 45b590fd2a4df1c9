"""Source files edited while a run runs: a verdict obtained after its code changed on disk is
withheld (an error), never recorded as the framework's.

A process imports its code once, but some tracers read the source file again when they trace:
AutoGraph (every tf.function, so TensorFlow's compiled and exported modes and every LiteRT
conversion) takes a function's lines from the file by the line number its code object was
imported with. An adapter file saved mid-run with three lines fewer above `round` made
tf.function trace the three lines below it, `square`: round(0.5) came out 0.25 in the compiled
and exported modes, while the eager mode, which runs the imported code, passed. Nothing in the
result shows it; only the file's modification time does.

Watched: the project's own packages and the modules of the item's adapter class and its bases
(a plugin from --adapter-path, an entry point's package). Not the frameworks' installed files,
nor what compilers write as they run (AutoGraph's and Inductor's generated modules)."""
import datetime
import inspect
import pathlib
import sys
import time

from suites.judging.outcome import Outcome

STARTED_NS = time.time_ns()  # this process's start: its plugins import this module before any adapter
ROOT = pathlib.Path(__file__).resolve().parents[2]
PROJECT = frozenset(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()) | {"conftest", "parity"}
_project_files: tuple = (0, ())  # (len(sys.modules) when listed, the project's module files)


def project_files() -> tuple:
    """The files of the project's modules this process has imported (listed again when it imports more)."""
    global _project_files
    if _project_files[0] != len(sys.modules):
        files = {getattr(m, "__file__", None) for name, m in list(sys.modules.items())
                 if name.partition(".")[0] in PROJECT}
        _project_files = (len(sys.modules), tuple(sorted(f for f in files if f)))
    return _project_files[1]


def adapter_files(adapter_cls: type) -> set:
    """The files that define an adapter class and its bases."""
    files = set()
    for cls in adapter_cls.__mro__[:-1]:
        try:
            files.add(inspect.getfile(cls))
        except TypeError:  # a class defined in no file
            continue
    return files


def edited(adapter_cls: type) -> list:
    """The watched files modified since this process started, as paths relative to the project
    where they lie in it."""
    changed = []
    for file in sorted(set(project_files()) | adapter_files(adapter_cls)):
        path = pathlib.Path(file)
        try:
            modified = path.stat().st_mtime_ns
        except OSError:  # removed: the process runs what it imported, and a tracer finds nothing to read
            modified = time.time_ns()
        if modified > STARTED_NS:
            changed.append(str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path))
    return changed


def withheld(outcomes: list, adapter_cls: type) -> list:
    """The outcomes as they are where no watched file changed; else each an error that names the
    files and the verdict it withholds (its record kept, with the case, so that none is lost)."""
    changed = edited(adapter_cls)
    if not changed:
        return outcomes
    started = datetime.datetime.fromtimestamp(STARTED_NS / 1e9).strftime("%H:%M:%S")
    where = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
    return [Outcome("error", o.case, f"{where} changed on disk after this process started ({started}): a tracer "
                    f"that reads source (AutoGraph) may have run other code than the process imported, so this "
                    f"{o.status} is withheld; run it again", inputs=o.inputs) for o in outcomes]

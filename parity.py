"""parity: Parity's front door, one command with a subcommand for each thing Parity does.

    python -m parity COMMAND ...            from Parity's checkout
    python PATH/TO/parity/parity.py COMMAND ...   from any other folder (a team's repository with
                                            Parity cloned or vendored as a git submodule)

Paths given to it (--spec, --adapter-path, --results-dir, results folders) are the caller's, read
from the working folder; Parity's own specs, conftest and adapters are found beside this file.
Each command exits as the command it runs does: 0 when everything passed or is documented, 1 when
an item failed, 2 on bad input (and pytest's own codes for `run` and `fuzz`: 5, nothing collected).

It replaces nothing: `pytest specs`, `python -m suites`, `python -m suites.benchmarks`,
`python -m suites.multihost` and `python -m reports` stay, and each subcommand is one of them.
"""
import importlib
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent

# command -> (what it runs, one line of help)
COMMANDS = {
    "run": ("pytest", "[TARGET...] the specs: Parity's (or the files and node ids named first), or --spec "
                      "PATH of yours; every pytest option and Parity's (--adapter, --adapter-path, --share ...)"),
    "fuzz": ("pytest", "random programs from the vocabulary, judged like the specs (--fuzz-minutes M, default 10)"),
    "validate": ("suites.__main__", "check spec files without running anything (default: Parity's specs)"),
    "coverage": ("suites.__main__", "the ops and dtypes each adapter declares; --check runs a sample against it"),
    "estimate": ("suites.__main__", "what a run would cost, from an earlier run's recorded durations"),
    "vocabulary": ("suites.__main__", "the op vocabulary as docs/vocabulary.md shows it"),
    "upgrade": ("suites.__main__", "NAME==VERSION | NAME | engine@COMMIT: the same items at the pinned version and "
                                   "another, and the upgrade note"),
    "report": ("reports.__main__", "report build RESULTS... | diff BASE NEW | upgrade OLD NEW | "
                                   "port SOURCE TARGET [RESULTS...]"),
    "bench": ("suites.benchmarks.__main__", "bench run | table | compare: the benchmarks, side by side"),
    "multihost": ("suites.multihost", "collectives across processes on each framework's runtime (--launch N)"),
}
FUZZ_MINUTES = "10"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command not in COMMANDS:
        print(f"parity: unknown command {command!r} (commands: {', '.join(COMMANDS)}; parity --help)",
              file=sys.stderr)
        return 2
    _environment()
    runs = COMMANDS[command][0]
    if runs == "pytest":
        return subprocess.call([sys.executable, "-m", "pytest", *pytest_args(command, rest)])
    if runs == "suites.__main__":  # one parser for its commands
        return importlib.import_module(runs).main([command, *rest], prog="parity")
    return importlib.import_module(runs).main(rest, prog=f"parity {command}")


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = __doc__.splitlines()[:5]
    lines += ["", "commands (each with --help):"]
    lines += [f"  {name.ljust(width)}  {help_text}" for name, (_, help_text) in COMMANDS.items()]
    return "\n".join(lines)


def pytest_args(command: str, rest: list) -> list:
    """pytest's arguments for `run` and `fuzz`: Parity's configuration (its pyproject.toml, so its
    conftest and rootdir) and what to collect, then the caller's arguments. `run` collects what
    the arguments name first (`parity run specs/matmul.yaml --adapter torch`), else Parity's specs,
    or, with --spec, the anchor module that runs the specs --spec names."""
    config = ["-c", str(ROOT / "pyproject.toml"), "--rootdir", str(ROOT)]
    if command == "fuzz":
        minutes = [] if any(a.startswith("--fuzz-minutes") for a in rest) else ["--fuzz-minutes", FUZZ_MINUTES]
        return [*config, _shown(ROOT / "suites" / "fuzz"), *minutes, *rest]
    if rest and not rest[0].startswith("-"):  # targets named first: Parity's spec files, node ids
        return [*config, *rest]
    own_specs = not any(a == "--spec" or a.startswith("--spec=") for a in rest)
    return [*config, _shown(ROOT / ("specs" if own_specs else "suites/test_specs.py")), *rest]


def _shown(path: pathlib.Path) -> str:
    """A path as pytest should name it: relative to the working folder (node ids and rerun
    commands then name specs/..., as they do inside the checkout)."""
    return os.path.relpath(path)


def _environment() -> None:
    """Parity's checkout importable here and in every process a command starts (workers, ranks,
    benchmark processes), and TensorFlow's C++ log kept to errors, as tox.ini sets it."""
    sys.path.insert(0, str(ROOT))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # `parity report port A B | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)

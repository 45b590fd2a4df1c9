"""The three guides a newcomer follows run as written: every line of every shell block of
docs/getting-started.md, docs/adding-an-adapter.md and docs/from-your-project.md, in the page's
order, in a scratch copy of the checkout (for the last, in a team's folder that holds Parity as a
git submodule, as the page sets it up).

A line that as written runs the whole suite (hours on 2 cores) runs narrowed: `narrowed` appends
a selection (Parity's specs narrowed to one file, a few specs' examples, one benchmark in one turn,
one collective) and leaves every option of the line in place, so that a renamed option, file,
module, tox env or adapter still fails here. The rest is as written, but for three things:
`python` is the interpreter the tests run in, the guide's `.venv` is the environment the tests run
in (pip runs with --no-index: nothing is downloaded, so that environment must already hold every
pinned requirement the line installs), and a tox env's commands are run from tox.ini as tox runs
them, in that environment; CI's own line must be .ci/run's, which CI runs.
"""
import configparser
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
GUIDES = ("getting-started.md", "adding-an-adapter.md", "from-your-project.md")
CI_LINE = "python -m pip install tox && python -m tox -e test,test-apart"
BIN = pathlib.Path(sys.executable).parent
# The narrowing: examples (and their gradients) of three specs, the team's own among them.
SELECTED = "not property and (vector-x-vector or all-reduce-sum or my-matmul)"
ONE_BENCHMARK = ["--turns", "1", "--", "-k", "square-512 and eager and not backward"]
TEAM = ROOT / "tests" / "outside"  # a team's adapter (Parity's engine named myfw) and spec file


def shell_lines(page: str) -> list[str]:
    """The page's shell lines: those of its indented code blocks (4 spaces, after a blank line,
    outside fenced blocks), a trailing backslash joining the next line."""
    lines, found, fenced, in_block = (ROOT / "docs" / page).read_text().splitlines(), [], False, False
    for index, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        in_block = not fenced and line.startswith("    ") and (in_block or index == 0 or not lines[index - 1].strip())
        if in_block:
            text = line.strip()
            if found and found[-1].endswith("\\"):
                found[-1] = found[-1][:-1].rstrip() + " " + text
            else:
                found.append(text)
    return found


def commands(line: str) -> list[list[str]]:
    """A shell line's commands (split at `&&`), its comment dropped."""
    words, parts = shlex.split(line, comments=True), [[]]
    for word in words:
        if word == "&&":
            parts.append([])
        else:
            parts[-1].append(word)
    return parts


def program(argv: list[str]) -> str:
    """What a command runs: `pytest`, `parity run`, `python -m MODULE`, or its first word."""
    words = [w for w in argv if not re.fullmatch(r"\w+=\S*", w) and w != "env"]
    name = pathlib.Path(words[0]).name
    if name.startswith("python") and words[1:2] == ["-m"]:
        return "pytest" if words[2] == "pytest" else words[2]
    if name.startswith("python") and words[1].endswith("parity.py"):
        return f"parity {words[2]}"
    return name


def narrowed(argv: list[str], specs: str) -> list[str]:
    """The command with a selection appended where as written it runs the whole suite (see the
    module's docstring): `specs` is where Parity's spec files are, seen from where it runs."""
    what = program(argv)
    if what in ("pytest", "parity run"):
        whole = "specs" in argv if what == "pytest" else "--spec" not in argv
        return argv + (["--spec", f"{specs}/matmul.yaml"] if whole else []) + ([] if "-k" in argv else ["-k", SELECTED])
    if what == "suites.benchmarks":
        return argv + ONE_BENCHMARK
    if what == "suites.multihost":
        return argv + ["all-reduce-sum"]
    return argv


def as_here(argv: list[str]) -> list[str]:
    """The command in the tests' own environment: `python` is their interpreter, `.venv/bin/X` and
    a bare tool of that environment its own, and pip downloads nothing."""
    argv = [str(BIN / pathlib.Path(w).name) if w.startswith(".venv/bin/") else w for w in argv]
    argv = [sys.executable if w == "python" else w for w in argv]
    if (BIN / argv[0]).exists():
        argv[0] = str(BIN / argv[0])
    if "pip" in pathlib.Path(argv[0]).name or argv[1:3] == ["-m", "pip"]:
        argv = argv + ["--no-index"]
    return argv


def run(argv: list[str], folder: pathlib.Path) -> str:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True, timeout=900)
    said = done.stdout[-3000:] + done.stderr[-3000:]
    assert done.returncode == 0, f"{shlex.join(argv)} exited {done.returncode}:\n{said}"
    return done.stdout


def tox_commands(env: str) -> list[list[str]]:
    """A tox env's commands_pre and commands from tox.ini, `{posargs}` left out (narrowed appends
    its own), `{env:NAME}` its setenv's, and `-` (tox ignores the exit code) dropped: each must
    succeed on the narrowing."""
    config = configparser.ConfigParser(interpolation=None)
    config.read(ROOT / "tox.ini")
    section = config[f"testenv:{env}"]
    lines = [line for key in ("commands_pre", "commands") for line in section.get(key, "").splitlines() if line.strip()]
    for name, value in (line.split("=", 1) for line in section.get("setenv", "").splitlines() if "=" in line):
        lines = [line.replace(f"{{env:{name.strip()}}}", value.strip()) for line in lines]
    return [shlex.split(line.strip().removeprefix("- ").replace("{posargs}", "")) for line in lines]


def checkout(tmp_path: pathlib.Path) -> pathlib.Path:
    """A scratch copy of the checkout's tracked files as they are in the working tree."""
    folder = tmp_path / "parity"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, folder / name)
    return folder


def follow(page: str, folder: pathlib.Path, specs: str, placeholders: dict, after=None) -> list[str]:
    """Run every shell line of the page in `folder`, in order; returns the lines run. `after`:
    line -> a check to make once that line ran."""
    done = []
    for line in shell_lines(page):
        if line == CI_LINE:  # CI runs this very line on every submission
            ci = (ROOT / ".ci" / "run").read_text().splitlines()
            assert CI_LINE in ci, ".ci/run no longer runs the guide's CI line"
            done.append(line)
            continue
        for name, value in placeholders.items():
            if name in line:
                line = line.replace(name, value() if callable(value) else value)
        for argv in commands(line):
            if argv == ["python", "-m", "pip", "install", "tox"]:
                continue  # the CI line installs tox so, and CI runs it
            if argv == ["python", "-m", "venv", ".venv"]:
                (folder / ".venv").symlink_to(sys.prefix)  # the guide's environment is the tests'
                continue
            if program(argv) == "tox":
                for env in argv[argv.index("-e") + 1].split(","):
                    for command in tox_commands(env):
                        run(as_here(narrowed(command, specs)), folder)
                continue
            run(as_here(narrowed(argv, specs)), folder)
        if after and line in after:
            after[line]()
        done.append(line)
    return done


def newest(folder: pathlib.Path) -> str:
    """The name of the results folder a run wrote last (the guide's `<timestamp>`)."""
    return max((folder / "results").iterdir(), key=lambda p: p.stat().st_mtime).name


def test_every_shell_line_of_the_guides_is_one_the_tests_can_run():
    """Cheap, in `test`: every line parses into commands whose programs the guides' tests know."""
    known = {"pytest", "parity run", "parity validate", "parity report", "suites", "suites.benchmarks",
             "suites.multihost", "reports", "pip", "venv", "tox", "git"}
    for page in GUIDES:
        lines = shell_lines(page)
        assert lines, f"docs/{page} has no shell block"
        for line in lines:
            for argv in commands(line):
                assert program(argv) in known, f"docs/{page}: {line!r}: no test runs {program(argv)!r}"


@pytest.mark.apart  # about 190 s (tox -e report's lines, narrowed, most of it): in test-apart (tox.ini)
def test_getting_started_runs_as_written(tmp_path):
    folder = checkout(tmp_path)

    def every_part_on_the_page():
        assert "Not in this page yet" not in (folder / "reports" / "out" / "index.html").read_text()

    done = follow("getting-started.md", folder, "specs", {"<timestamp>": lambda: newest(folder)},
                  after={"python -m pip install tox && python -m tox -e report": every_part_on_the_page})
    assert len(done) == len(shell_lines("getting-started.md"))
    assert (folder / "reports" / "out" / "index.html").is_file()


@pytest.mark.apart  # about 70 s
def test_adding_an_adapter_runs_as_written(tmp_path):
    folder = checkout(tmp_path)
    shutil.copy(TEAM / "myfw_adapter.py", folder / "my_adapter.py")  # the guide's adapter: the engine, named myfw
    follow("adding-an-adapter.md", folder, "specs", {})
    assert (folder / "results" / "mine-bench" / "myfw.json").is_file()
    assert (folder / "reports" / "out" / "index.html").is_file()


def python_block(page: str) -> str:
    """The page's first fenced Python block: the file it gives to copy."""
    text = (ROOT / "docs" / page).read_text()
    return text.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.mark.apart  # about 20 s
def test_from_your_project_runs_as_written(tmp_path):
    """The team's repository as the page lays it out: the page's own adapter file, copied, and a
    spec file of the team's (tests/outside/specs); Parity as a submodule of this checkout."""
    team = tmp_path / "your-framework"
    (team / "parity").mkdir(parents=True)
    (team / "parity" / "myfw_adapter.py").write_text(python_block("from-your-project.md"))
    shutil.copytree(TEAM / "specs", team / "parity" / "specs")
    run(["git", "init", "-q"], team)
    head = run(["git", "rev-parse", "HEAD"], ROOT).strip()
    follow("from-your-project.md", team, "third_party/parity/specs",
           {"<parity-repository-url>": str(ROOT), "<commit>": head})
    assert (team / "reports" / "out" / "index.html").is_file()
    first_try = [json.loads(line) for line in (team / "results" / "first-try" / "results.jsonl").open()]
    values = {r["status"] for r in first_try if r["kind"] == "example" and r["dtype"] in ("float32", "float64")}
    assert values == {"pass"} and {r["status"] for r in first_try if r["kind"] == "gradient"} == {"unsupported"}

"""The version axis (`python -m suites upgrade NAME==VERSION`, `tox -e upgrade -- NAME==VERSION`):
the same items of the suite at the version in use and at another one, side by side, read as an
upgrade note (reports/upgrade.py).

The version in use is this environment's (the project's pins). The other gets an environment of
its own, .tox/versions/NAME-VERSION, with every pin of requirements/all.txt but NAME's, which
becomes VERSION (its extras kept: jax[cpu]), kept for the next run. NAME without a version is
the newest release the package index has (`pip index versions`), which is what the scheduled
workflow asks for. `engine@COMMIT` is the in-house engine: the version in use is this checkout's
engine, the other one this checkout with engine/ as it was at COMMIT (the old side, then).

Both sides run each adapter that NAME reaches (REACHES; --adapter narrows it) in a process of its
own with the same share and seed (the ci profile's, the commit count, unless --seed), so the two
runs hold the same items and generated cases; with --bench, the quick benchmark profile too. The
records land in OUT/NAME-OLD and OUT/NAME-NEW (default OUT: results/upgrade), the page in
OUT/report. Exits as `python -m reports upgrade`: 1 when the note has something to act on.
"""
import importlib.metadata
import io
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

from suites.running.results import commit_count

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENVIRONMENTS = ROOT / ".tox" / "versions"  # not .tox/upgrade: tox -e upgrade owns that folder
# The adapters whose results a distribution's version can change (Keras' adapter runs on its backend).
REACHES = {
    "torch": ("torch", "keras-torch", "torch-onnx-float16", "torch-export"),
    "onnxruntime": ("torch", "torch-onnx-float16"),
    "onnxscript": ("torch", "torch-onnx-float16"), "onnx": ("torch", "torch-onnx-float16"),
    "onnxconverter-common": ("torch-onnx-float16",),
    "jax": ("jax", "jax-32", "keras-jax"), "jaxlib": ("jax", "jax-32", "keras-jax"), "flax": ("jax", "jax-32"),
    # TensorFlow serves keras-jax's exported programs too (Keras' ExportArchive: jax2tf, XlaCallModule)
    "tensorflow-cpu": ("tensorflow", "keras-tensorflow", "tensorflow-litert", "tensorflow-litert-float16",
                       "tensorflow-litert-int8", "keras-jax"),
    "tensorflow": ("tensorflow", "keras-tensorflow", "tensorflow-litert", "tensorflow-litert-float16",
                   "tensorflow-litert-int8", "keras-jax"),
    "ai-edge-litert": ("tensorflow-litert", "tensorflow-litert-float16", "tensorflow-litert-int8"),
    "litert-quantizer": ("tensorflow-litert-int8",),
    "keras": ("keras-tensorflow", "keras-jax", "keras-torch"),
    "paddlepaddle": ("paddle",),
    "engine": ("engine",),
}
REQUIREMENT = re.compile(r"^([A-Za-z0-9_.-]+)(\[[^\]]*\])?==(\S+)$")


class UpgradeError(Exception):
    """Bad input or an environment that cannot be made: one line for the user."""


def main(args) -> int:
    try:
        if not 0 < args.share <= 1:
            raise UpgradeError(f"--share takes a share 0 < F <= 1. Received: {args.share:g}")
        name, version = _asked(args.requirement)
        adapters = _adapters(name, args.adapter)
        sides = _sides(name, version)
    except UpgradeError as exc:
        print(f"upgrade: {exc}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else commit_count()
    print(f"upgrade: {sides[0][0]} -> {sides[1][0]}; adapters {', '.join(adapters)}; share {args.share}, seed {seed}")
    out, folders = pathlib.Path(args.out), []
    try:
        for label, python, tree in sides:
            folder = out / label
            shutil.rmtree(folder, ignore_errors=True)
            for adapter in adapters:
                _run(python, tree, adapter, ["-m", "pytest", "specs", "-n", str(args.workers), "--adapter", adapter,
                                             "--hypothesis-profile=ci", f"--share={args.share}",
                                             f"--hypothesis-seed={seed}", "--results-dir", str(folder.resolve()),
                                             *args.pytest_args])
                if args.bench:
                    _run(python, tree, adapter, ["-m", "suites.benchmarks", "run", "--profile", "quick", "--turns",
                                                 "1", "--adapter", adapter, "--out", str((folder / "bench").resolve())])
            folders.append(str(folder))
    finally:
        if sides[0][2] != ROOT:
            shutil.rmtree(sides[0][2], ignore_errors=True)  # the engine's old tree
    page = out / "report"
    subprocess.run([sys.executable, "-m", "reports", "build", folders[1], "-o", str(page),
                    "--upgraded-from", folders[0]], cwd=ROOT, check=False, stdout=subprocess.DEVNULL)
    print(f"upgrade: the page: {page / 'index.html'}")
    return subprocess.run([sys.executable, "-m", "reports", "upgrade", *folders], cwd=ROOT).returncode


def _sides(name: str, version: str | None) -> list:
    """(label, Python, tree) of the old side, then of the new one."""
    if name == "engine":
        return [(f"engine-{_short(version)}", sys.executable, engine_tree(version)),
                ("engine-this-checkout", sys.executable, ROOT)]
    try:
        pinned = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        raise UpgradeError(f"{name} is not installed here: the version in use is this environment's "
                           f"(pip install -r requirements/all.txt)") from None
    new = version or newest(name)
    return [(f"{name}-{pinned}", sys.executable, ROOT), (f"{name}-{new}", _environment(name, new), ROOT)]


def _asked(text: str) -> tuple:
    """(name, version or None) from NAME==VERSION, NAME, or engine@COMMIT."""
    if text.startswith("engine@"):
        return "engine", text.split("@", 1)[1]
    found = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:==(\S+))?", text)
    if not found or found[1] == "engine":
        raise UpgradeError(f"takes NAME==VERSION (torch==2.15.0), NAME (its newest release) or engine@COMMIT. "
                           f"Received: {text!r}")
    if found[1] not in REACHES:
        raise UpgradeError(f"{found[1]!r} is no framework the adapters run on; one of {', '.join(REACHES)}")
    return found[1], found[2]


def _adapters(name: str, narrowed: str | None) -> list:
    reached = list(REACHES[name])
    if not narrowed:
        return reached
    chosen = [a.strip() for a in narrowed.split(",") if a.strip()]
    if not chosen or set(chosen) - set(reached):
        raise UpgradeError(f"--adapter: {name} reaches {', '.join(reached)}. Received: {narrowed!r}")
    return chosen


def adapter_environment(adapter: str) -> dict:
    """The variables an adapter's process needs (its Adapter.environment(), known before importing it)."""
    if adapter.startswith("keras-"):
        return {"KERAS_BACKEND": adapter.removeprefix("keras-")}
    return {"PARITY_JAX_X64": "0"} if adapter == "jax-32" else {}


def _run(python: str, tree: pathlib.Path, adapter: str, command: list) -> None:
    """One adapter's run; its failures are the note's to report, not this driver's."""
    env = {**os.environ, **adapter_environment(adapter)}
    subprocess.run([python, *command], cwd=tree, env=env, check=False)


def requirements(name: str, version: str, top: pathlib.Path = ROOT / "requirements" / "all.txt") -> list:
    """Every pin `top` installs (its -r files followed), with NAME's pinned to VERSION instead."""
    pins = [f"{m[1]}{m[2] or ''}=={version}" if (m := REQUIREMENT.match(p)) and m[1].lower() == name.lower() else p
            for p in _pins(top)]
    if pins == _pins(top):
        raise UpgradeError(f"{name} is pinned nowhere in {top.name} or the files it names")
    return pins


def _pins(top: pathlib.Path) -> list:
    pins = []
    for line in top.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        found = _pins(top.parent / line[3:].strip()) if line.startswith("-r ") else [line] if line else []
        pins += [p for p in found if p not in pins]
    return pins


def _environment(name: str, version: str) -> str:
    """The Python of .tox/versions/NAME-VERSION, made (or brought up to date) with `requirements`."""
    folder = ENVIRONMENTS / f"{name}-{version}"
    python = folder / "bin" / "python"
    pins = "\n".join(requirements(name, version)) + "\n"
    wanted = folder / "requirements.txt"
    if python.exists() and wanted.exists() and wanted.read_text(encoding="utf-8") == pins:
        return str(python)
    print(f"upgrade: making {folder} (pip install of every pin with {name}=={version})")
    if subprocess.run([sys.executable, "-m", "venv", str(folder)]).returncode:
        raise UpgradeError(f"could not make a virtual environment in {folder}")
    (folder / "pins.txt").write_text(pins, encoding="utf-8")
    if subprocess.run([str(python), "-m", "pip", "install", "-q", "-r", str(folder / "pins.txt")]).returncode:
        raise UpgradeError(f"pip could not install {name}=={version} beside the other pins (its output is above)")
    wanted.write_text(pins, encoding="utf-8")
    return str(python)


def newest(name: str) -> str:
    """The newest release of NAME that the package index offers (`pip index versions`)."""
    done = subprocess.run([sys.executable, "-m", "pip", "index", "versions", name], capture_output=True, text=True)
    found = re.search(r"^Available versions: ([^,\s]+)", done.stdout, re.MULTILINE)
    if not found:
        raise UpgradeError(f"the package index lists no release of {name}: {done.stderr.strip()[:200]}")
    return found[1].split("+")[0]


def engine_tree(commit: str) -> pathlib.Path:
    """This checkout's files (tracked, and new ones git does not ignore) with engine/ as it was at COMMIT."""
    tree = pathlib.Path(tempfile.mkdtemp(prefix="parity-engine-"))
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, check=True).stdout
    for path in filter(None, files.decode().split("\0")):
        source = ROOT / path
        if source.is_file() and not path.startswith("engine/"):
            (tree / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, tree / path)
    archive = subprocess.run(["git", "archive", "--format=tar", commit, "engine"], cwd=ROOT, capture_output=True)
    if archive.returncode:
        raise UpgradeError(f"git has no engine/ at {commit!r}: {archive.stderr.decode().strip()[:200]}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(tree, filter="data")
    return tree


def _short(commit: str) -> str:
    return subprocess.run(["git", "rev-parse", "--short", commit], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip() or commit


def add_parser(sub) -> None:
    """`python -m suites upgrade`'s arguments (suites/__main__.py)."""
    up = sub.add_parser("upgrade", help="the same items at the version in use and another, as an upgrade note")
    up.add_argument("requirement", help="NAME==VERSION (torch==2.15.0), NAME (its newest release) or engine@COMMIT")
    up.add_argument("--adapter", default=None, help="comma-separated, among those NAME reaches (default: all of them)")
    up.add_argument("--share", type=float, default=0.03, help="the share of generated items (default 0.03, as CI)")
    up.add_argument("--seed", type=int, default=None, help="the run's seed (default: the commit count, as CI)")
    up.add_argument("--workers", type=int, default=2, help="pytest-xdist workers per run (default 2)")
    up.add_argument("--bench", action="store_true", help="the quick benchmark profile too, on both sides")
    up.add_argument("--out", default="results/upgrade", help="the runs' folders and the page (default results/upgrade)")

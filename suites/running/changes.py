"""--changed-since REV: a run that follows the change. Every item of a spec file that changed since
REV, and every item of an adapter whose modules changed, runs whatever the share; the share draws
the rest (conftest.py, suites/running/selection.py). --changed-limit N bounds what that adds, as a
budget must: where the change touches more than N items the share would not run anyway, N of them
run, the changed spec files' first, drawn by the run's seed, and the run says how many it left
(a module that every framework's adapter imports touches thousands of items: hours on 2 cores).

An adapter's modules are the files of the classes it is made of (its MRO but the Adapter base),
the files of the adapters package that those import, one after another, its differences file, and
a variant's base adapter's modules. The judge and the runner (suites/, conftest.py, the Adapter
base, the vocabulary, the registry, the reference: what every item goes through) touch every item
alike: where they changed, `--changed-share` gives the share of the rest.
"""
import ast
import inspect
import pathlib
import subprocess
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
# What every item goes through: a change here is no one spec's or adapter's.
MACHINERY = ("suites/", "conftest.py", "adapters/base.py", "vocabulary/", "adapters/__init__.py",
             "adapters/reference", "specs/schema.json")


class ChangeError(ValueError):
    """--changed-since names no revision git can diff against."""


def changed_files(rev: str, root=ROOT) -> set:
    """The files (relative to root, POSIX) that differ between REV and the working tree, and the
    untracked ones that git does not ignore."""
    def git(*args):
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)
        if done.returncode:
            why = (done.stderr.strip().splitlines() or ["git failed"])[-1]
            raise ChangeError(f"--changed-since {rev}: {why}")
        return set(done.stdout.split())
    return git("diff", "--name-only", rev, "--") | git("ls-files", "--others", "--exclude-standard")


def adapter_modules(cls, root=ROOT) -> set:
    """The adapter's own files (relative to root): its classes' modules, the adapters modules
    they import (transitively, the machinery aside), its differences file, and those of the adapter
    it is a variant of (whose documented differences are its own)."""
    import adapters
    from adapters.base import Adapter

    files = {_relative(inspect.getsourcefile(k), root) for k in cls.__mro__ if k not in (Adapter, object)}
    files.discard(None)
    todo = list(files)
    while todo:
        for module in _imported_adapters_modules(root / todo.pop(), root):
            if module not in files and not module.startswith(MACHINERY):
                files.add(module)
                todo.append(module)
    differences = cls.differences_file()
    files |= {_relative(differences, root)} if differences else set()
    base = cls.variant_of and adapters.classes().get(cls.variant_of)  # its differences are the variant's
    return files | (adapter_modules(base, root) if base else set())


def _imported_adapters_modules(path: pathlib.Path, root) -> set:
    """The files of the adapters package that a module imports (absolute or relative imports)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.relative_to(root).parent.parts
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1]) if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            names |= {module} | {f"{module}.{a.name}" for a in node.names}
    found = set()
    for name in names:
        if name.split(".")[0] != "adapters":
            continue
        target = root.joinpath(*name.split("."))
        for candidate in (target.with_suffix(".py"), target / "__init__.py"):
            if candidate.is_file():
                found.add(candidate.relative_to(root).as_posix())
    return found


def _relative(path, root):
    try:
        return pathlib.Path(path).resolve().relative_to(root).as_posix()
    except (TypeError, ValueError):  # built-in, or outside the checkout (an --adapter-path file elsewhere)
        return None


class Changes:
    """What changed since REV, and which items that touches."""

    def __init__(self, rev: str, classes: dict, root=ROOT):
        self.rev, self.root = rev, root
        self.files = changed_files(rev, root)
        self.machinery = sorted(f for f in self.files if f.startswith(MACHINERY))
        self.specs = sorted(f for f in self.files if f.startswith("specs/") and f.endswith(".yaml"))
        self.adapters = sorted(name for name, cls in classes.items() if adapter_modules(cls, root) & self.files)

    def touches(self, item) -> bool:
        """Whether the item's spec file or its adapter changed."""
        return item.adapter_name in self.adapters or self.spec_changed(item)

    def spec_changed(self, item) -> bool:
        return _relative(item.spec.file, self.root) in self.specs

    def within(self, items: list, limit: int | None, seed: int, drawn: set) -> tuple[set, int]:
        """(ids of the touched items to run beyond `drawn`, the ids the share runs anyway; how many
        touched items were left out): every one where `limit` is None or not reached; else `limit`
        of them, those of changed spec files first, each group in the order of a hash of the seed
        and the item's id."""
        touched = [i for i in items if hasattr(i, "spec") and id(i) not in drawn and self.touches(i)]
        if limit is None or len(touched) <= limit:
            return set(map(id, touched)), 0
        order = sorted(touched, key=lambda i: (not self.spec_changed(i), zlib.crc32(f"{seed}:{i.nodeid}".encode()),
                                              i.nodeid))
        return set(map(id, order[:limit])), len(touched) - limit

    def summary(self) -> str:
        """One line for the run's header."""
        return (f"parity: changed since {self.rev}: {len(self.files)} files; at share 1: specs "
                f"{', '.join(self.specs) or 'none'}, adapters {', '.join(self.adapters) or 'none'}; "
                f"judge or runner: {', '.join(self.machinery) or 'unchanged'}")

"""The layout docs/architecture.md draws, checked on the source: no import circle among the
project's modules; the vocabulary imports neither adapters nor suites; nothing under reports/
imports adapters/; the engine imports NumPy only; a framework is imported only by its own
adapter package (and by those whose framework is built on it: Keras runs on TensorFlow, jax and
torch, flax on jax); every module's first line says what it is for. Imports inside functions
count: a lazy import is still an arrow."""
import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("adapters", "engine", "reports", "suites", "vocabulary")
FRAMEWORKS = {"torch": "torch", "jax": "jax", "jaxlib": "jax", "flax": "jax", "optax": "jax", "keras": "keras",
              "tensorflow": "tensorflow", "ai_edge_litert": "tensorflow", "onnx": "torch", "onnxruntime": "torch",
              "paddle": "paddle"}
# the adapters modules a framework may be imported from: its own package, those built on it, and
# adapters/backends.py, what a framework's adapter and Keras on that backend share
ALLOWED = {"torch": {"torch", "keras", "backends"}, "jax": {"jax", "keras", "backends"},
           "tensorflow": {"tensorflow", "keras", "backends"}, "keras": {"keras", "tensorflow"}, "paddle": {"paddle"}}


def modules() -> dict:
    """module name -> its source file, for every module of the project's packages but the
    standalone repro scripts."""
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "repro" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(path: pathlib.Path, name: str, known) -> set:
    """The modules a module imports anywhere in it (relative imports resolved): `from a.b import
    c` imports a.b, and a.b.c where that is a module; as import-graph tools count them, a parent
    package that Python runs first is not an arrow (a package gathers its own modules)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known]
        out |= set(targets)
    return out - {name}


def graph() -> dict:
    known = modules()
    return {name: {m for m in imported(path, name, known) if m in known} for name, path in known.items()}, known


def cycles(edges: dict) -> list:
    """Every strongly connected set of more than one module (Tarjan's algorithm)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10_000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle():
    edges, _ = graph()
    assert cycles(edges) == []


def test_the_vocabulary_reports_and_engine_keep_to_themselves():
    known = modules()
    for name, path in known.items():
        names = imported(path, name, known)
        top = {n.split(".")[0] for n in names}
        if name.split(".")[0] == "vocabulary":
            assert not top & {"adapters", "suites", "reports"}, (name, sorted(top))
        if name.split(".")[0] == "reports":
            assert "adapters" not in top, (name, sorted(n for n in names if n.startswith("adapters")))
        if name.split(".")[0] == "engine":
            assert top <= {"engine", "numpy"} | set(sys.stdlib_module_names), (name, sorted(top))


def test_a_framework_is_imported_by_its_own_adapter_package():
    known, outside = modules(), []
    for name, path in known.items():
        for framework in {n.split(".")[0] for n in imported(path, name, known)} & set(FRAMEWORKS):
            parts = name.split(".")
            if not (parts[0] == "adapters" and len(parts) > 1 and parts[1] in ALLOWED[FRAMEWORKS[framework]]):
                outside.append((name, framework))
    assert outside == []


def test_every_module_says_what_it_is_for():
    silent = [name for name, path in modules().items()
              if not (ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "").strip()]
    assert silent == []

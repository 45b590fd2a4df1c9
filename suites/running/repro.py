"""Copy-paste reproductions that run without Parity installed.

A snippet is the adapter's own code, verbatim: the methods of its class that the case calls (found
by following `self.` references from asarray, stage, device_scope and the expression's ops), the
module-level helpers they use, then the case's inputs and the expression as calls on that class.
So a snippet does exactly what the run did (TF's device scope included; a compiled case's snippet
compiles with the adapter's compile and compile_grad) and nothing had to be written twice. Where
the code reaches into Parity's own machinery (the worker processes of collectives) there is no
standalone form, and the reason says so.
"""
import ast
import builtins
import inspect
import textwrap
import types

import numpy as np

from suites.programs import expr, program

MAX_VALUES = 4096  # inputs larger than this are not written into a snippet
PARITY = ("adapters", "suites", "engine", "reports")  # Parity's own packages
ENTRY = ("__init__", "device_scope", "asarray", "stage", "to_numpy")
STAGE = {"eager": "stage", "compiled": "compile", "mixed": "mixed", "exported": "export"}  # the method of each mode


class NoSnippet(Exception):
    """This case has no standalone form; the message says why."""


def snippet(adapter_cls, tree, inputs: dict, input_dtypes: dict, dtype: str, device: str, title: str,
            wrt=(), mode: str = "eager") -> str:
    """Python source that evaluates `tree` on `inputs` with `adapter_cls`'s code and prints it;
    with `wrt`, also the gradients for a cotangent of ones (the adapter's grad, staged); in the
    compiled mode through the adapter's compile and compile_grad. An op of several parts (lstm's
    output, h_n, c_n) is differentiated as the sum of every part's elements: the same gradients
    as a cotangent of ones on each part."""
    if not isinstance(tree, expr.Call):
        raise NoSnippet("the spec has no expression to evaluate")
    summed = bool(wrt) and tree.op in program.PARTS
    big = [k for k, v in inputs.items() if np.size(v) > MAX_VALUES]
    if big:
        raise NoSnippet(f"inputs {', '.join(big)} have more than {MAX_VALUES} elements")
    compiled = mode == "compiled"
    entry = {*ENTRY, *(["compile", "compile_grad"] if compiled and wrt else ["compile"] if compiled else []),
             STAGE[mode]}
    methods, helpers, imports = _closure(adapter_cls, entry | expr.ops_in(tree) | ({"grad"} if wrt else set())
                                         | ({"sum", "add"} if summed else set()))
    lines = [f'"""{_safe_doc(title)}', "",
             f"Standalone: the methods of Parity's {adapter_cls.name} adapter that this case calls, verbatim.", '"""']
    lines += sorted({"import numpy as np", *imports})
    lines += ['inf, nan = float("inf"), float("nan")  # as repr() writes them', "", ""]
    lines += ["class Unsupported(Exception):", "    pass", ""]
    lines += [f"\n{source}\n" for source in helpers]
    if summed:
        lines += ["", "def summed(parts):",
                  '    """Every part\'s elements summed: the gradients of a cotangent of ones on each part."""',
                  "    total = ops.sum(parts[0])", "    for part in parts[1:]:",
                  "        total = ops.add(total, ops.sum(part))", "    return total", ""]
    lines += ["", f"class {_class_name(adapter_cls)}:"]
    lines += [textwrap.indent(source, "    ") + "\n" for source in methods]
    lines += ["", f"ops = {_class_name(adapter_cls)}()", "inputs = {"]
    for name, value in sorted(inputs.items()):
        value = np.asarray(value)
        kind = "float64" if value.dtype.kind == "f" else value.dtype.name
        lines.append(f"    {name!r}: np.array({_array_text(value)}, dtype={kind!r}),")
    lines += ["}", f"with ops.device_scope({device!r}):",
              f"    dtypes = {input_dtypes!r}  # 'python': passed as a Python number or list",
              f"    args = {{k: v.tolist() if dtypes[k] == 'python' else ops.asarray(v, dtypes[k], {device!r})",
              "            for k, v in inputs.items()}",
              f"    forward = ops.{STAGE[mode]}(lambda env: "
              f"{_code(tree, dtype)})",
              "    out = forward(args)"]
    if wrt:
        value = f"summed({_code(tree, dtype)})" if summed else _code(tree, dtype)
        shape = "()" if summed else "np.shape(ops.to_numpy(out))"
        lines += [f"    ones = ops.asarray(np.ones({shape}), {dtype!r}, {device!r})"]
        lines += ([f"    step = ops.compile_grad(lambda **env: {value}, {list(wrt)!r})",
                   "    grads = step(args, ones)[1]"] if compiled else
                  ["    pullback = ops.stage(lambda env, cot: ops.grad("
                   f"lambda **env: {value}, env, {list(wrt)!r}, cot)[1])",
                   "    grads = pullback(args, ones)"])
        lines += ["for name, gradient in grads.items():", "    print(name, repr(ops.to_numpy(gradient)))"]
    lines += ["for part in (out if isinstance(out, tuple) else (out,)):",
              "    print(repr(ops.to_numpy(part)))"]
    return "\n".join(lines) + "\n"


def _closure(cls, wanted: set) -> tuple[list, list, set]:
    """The sources of the methods reachable from `wanted` (via self.X), of the module-level
    helpers they name, and the imports those need."""
    methods, helpers, imports, seen = {}, {}, set(), set()
    todo = list(wanted)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        owner = next((k for k in cls.__mro__ if name in vars(k)), None)
        if owner is None or owner is object:
            continue
        value = vars(owner)[name]
        if isinstance(value, (str, int, float, bool, type(None), tuple, dict)) and _literal(value):
            methods[name] = f"{name} = {value!r}"
            continue
        function = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
        if not inspect.isfunction(function):
            continue
        try:
            source = textwrap.dedent(inspect.getsource(function))
        except (OSError, TypeError) as exc:
            raise NoSnippet(f"the source of {cls.name}'s {name} is not available ({exc})") from None
        if isinstance(value, (classmethod, staticmethod)) and not source.lstrip().startswith("@"):
            source = f"@{type(value).__name__}\n{source}"
        if _own_imports(source):
            raise NoSnippet(f"{cls.name}'s {name} imports Parity's {_own_imports(source)[0]}")
        if "super()" in source:
            raise NoSnippet(f"{cls.name}'s {name} calls super(), which a flattened class cannot follow")
        methods[name] = source
        todo += _self_attributes(source)
        _globals_of(function, source, helpers, imports)
    return [methods[k] for k in sorted(methods)], list(helpers.values()), imports


def _globals_of(function, source: str, helpers: dict, imports: set) -> None:
    """Module-level names the source uses: helpers (recursively) or modules to import."""
    namespace = function.__globals__
    tree = ast.parse(source)
    local = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    local |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments) for a in n.args + n.kwonlyargs}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Name) or node.id in local or hasattr(builtins, node.id) or node.id in helpers:
            continue
        name = node.id
        value = namespace.get(name)
        if name == "Unsupported" or value is None:
            continue
        if isinstance(value, types.ModuleType):
            if value.__name__.split(".")[0] in PARITY:
                raise NoSnippet(f"{function.__module__}.{function.__name__} uses Parity's {value.__name__}")
            imports.add(f"import {value.__name__}" if value.__name__ == name
                        else f"import {value.__name__} as {name}")
        elif inspect.isfunction(value):
            helpers[name] = textwrap.dedent(inspect.getsource(value))
            if _own_imports(helpers[name]):
                raise NoSnippet(f"{value.__module__}.{name} imports Parity's {_own_imports(helpers[name])[0]}")
            _globals_of(value, helpers[name], helpers, imports)
        elif isinstance(value, (str, int, float, tuple, frozenset, dict)) and _literal(value):
            helpers[name] = f"{name} = {value!r}"
        else:
            raise NoSnippet(f"{function.__module__}.{function.__name__} uses {name}, which has no standalone form")


def _own_imports(source: str) -> list:
    """Parity's packages that the source imports inside a function."""
    found = [a.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import) for a in n.names]
    found += [n.module for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom) and n.module]
    return [m for m in found if m.split(".")[0] in PARITY]


def _self_attributes(source: str) -> list:
    return [n.attr for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"]


def _literal(value) -> bool:
    try:
        return ast.literal_eval(repr(value)) == value
    except (ValueError, SyntaxError):
        return False


def _code(node, dtype: str) -> str:
    """The expression as calls on `ops`, the way suites/programs/program.py evaluates it."""
    if isinstance(node, expr.Name):
        return f"env[{node.id!r}]"
    if isinstance(node, expr.Group):
        return "{" + ", ".join(f"{n[len(node.prefix):]!r}: env[{n!r}]" for n in node.names) + "}"
    if isinstance(node, expr.Const):
        return repr(node.value)  # a Python number, as program.py passes it
    if isinstance(node, tuple):
        return "[" + ", ".join(_code(n, dtype) for n in node) + "]"
    if isinstance(node, expr.Key):  # x[key]'s key as Python builds it: (slice(1, None, None), env['i'])
        parts = [repr(slice(p.start, p.stop, p.step)) if isinstance(p, expr.Slice) else
                 repr(p.value) if isinstance(p, expr.Const) else _code(p, dtype) for p in node.parts]
        return "(" + "".join(f"{p}, " for p in parts) + ")"
    args = [repr(a.value) if isinstance(a, expr.Const) and node.op not in expr.NUMBER_OPERANDS
            else _code(a, dtype) for a in node.args]
    kwargs = [f"{k}={v.value!r}" if isinstance(v, expr.Const) else f"{k}={_code(v, dtype)}" for k, v in node.kwargs]
    if node.op in program.DTYPED_OPS:
        kwargs.append(f"dtype={dtype!r}")
    return f"ops.{node.op}({', '.join(args + kwargs)})"


def _class_name(cls) -> str:
    return f"{cls.__name__.removesuffix('Adapter')}Ops"


def _safe_doc(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', "'''")


def _array_text(value: np.ndarray) -> str:
    """value.tolist()'s repr, but a NaN with its sign bit set written -nan: repr writes every NaN
    as nan, and x86's default NaN (0 / 0, inf - inf, YAML's .nan) is negative, which an order by
    the sign bit (XLA's total order) puts below every number. A complex number is written
    complex(real, imag): repr's (nan+infj) is no Python, and its (-0+1j) loses the zero's sign."""
    if value.dtype.kind == "f" and (np.isnan(value) & np.signbit(value)).any() or value.dtype.kind == "c":
        return _element_text(value)
    return repr(value.tolist())


def _element_text(v: np.ndarray) -> str:
    if v.ndim:
        return "[" + ", ".join(_element_text(e) for e in v) + "]"
    if v.dtype.kind == "c":
        return f"complex({_element_text(v.real)}, {_element_text(v.imag)})"
    return "-nan" if np.isnan(v) and np.signbit(v) else repr(v.item())

"""Which vocabulary ops and dtypes each adapter implements: what it declares, and what it does.

An adapter declares its dtypes per op (`Adapter.dtypes`, see adapters/base.py); `declared`
reads the declaration, `observed` runs one small sample call per (op, dtype) and sees whether it
returns. `check` compares the two the way PyTorch's OpInfo test_dtypes does: a dtype that works
but is not declared, or is declared but fails, is a mismatch. The samples only ask "does it
run?"; whether the values are right is the suites' question.
"""
import json
import pathlib
from collections import Counter

import numpy as np

from adapters.base import ALL_DTYPES, COMPLEX, DTYPES, OPS
from suites.judging.outcome import one_line
from vocabulary import VOCABULARY, Index, Mask, having

# From the vocabulary's records: ops without a tensor input (no dtype to ask about), and ops whose
# dtype under test is that of their integer input (lengths, ids, classes), not of a float tensor.
NO_DTYPE = having("no_dtype")
INDEX_DTYPED = having("index_dtyped")
COMPLEX_OPS = having("complex_dtypes")  # the ops whose complex dtypes are asked too


def implemented(cls) -> list:
    """The vocabulary ops the adapter class overrides (the base raises Unsupported for the rest)."""
    lacking = set(cls.lacks(OPS))
    return [op for op in OPS if op not in lacking]


def declared(adapter) -> dict:
    """op -> the dtypes an adapter (class or instance: an instance may know better, e.g. Keras'
    backend) declares for it, for every implemented op."""
    cls = adapter if isinstance(adapter, type) else type(adapter)
    return {op: tuple(adapter.dtypes.get(op, adapter.dtypes.get("*", ()))) for op in implemented(cls)}


def observed(adapter, device: str = "cpu") -> dict:
    """op -> {dtype: None where its sample call returns, else the exception's one line}, for
    every implemented op with a dtype, in every real dtype (and the complex ones, for COMPLEX_OPS)."""
    return {op: {d: _refusal(adapter, op, d, device) for d in DTYPES + (COMPLEX if op in COMPLEX_OPS else ())}
            for op in implemented(type(adapter)) if op not in NO_DTYPE}


def _refusal(adapter, op: str, dtype: str, device: str) -> str | None:
    """None when the op's sample runs in `dtype`, else why not (the exception, in one line)."""
    args, kwargs = VOCABULARY[op].sample(dtype)

    def convert(value):
        if isinstance(value, np.ndarray):
            fixed = "bool" if isinstance(value, Mask) else "int64" if isinstance(value, Index) else None
            as_dtype = dtype if fixed is None or op in INDEX_DTYPED else fixed
            return adapter.asarray(np.asarray(value), as_dtype, device)
        if isinstance(value, list) and value and isinstance(value[0], np.ndarray):
            return [convert(v) for v in value]
        if isinstance(value, tuple):  # a key: its index tensors converted, its ints and slices as they are
            return tuple(convert(v) for v in value)
        if isinstance(value, dict):
            return {k: convert(v) for k, v in value.items()}
        return value

    try:
        with adapter.device_scope(device):
            out = getattr(adapter, op)(*[convert(a) for a in args], **kwargs)
            for part in out if isinstance(out, tuple) else (out,):
                adapter.sync(part)
        return None
    except Exception as exc:  # noqa: BLE001 - any refusal (Unsupported, the framework's own error) means "does not run"
        text = str(exc).strip().splitlines()
        return f"{type(exc).__name__}: {text[0][:200] if text else ''}"


def tested_dtype(adapter, op: str, args, kwargs=None) -> str | None:
    """The dtype a call of `op` is declared in (the one `declared` speaks of): that of its first
    argument that the op's coverage sample gives the dtype under test (an index or mask argument's
    only for the INDEX_DTYPED ops); for an op of no such argument whose result's dtype is a
    parameter (arange), that parameter; None for an op without one."""
    if op in NO_DTYPE:
        return None
    for value, arg in zip(VOCABULARY[op].sample("float32")[0], args):
        if isinstance(value, list) and value and isinstance(value[0], np.ndarray) and arg:
            value, arg = value[0], arg[0]
        if isinstance(value, np.ndarray) and (op in INDEX_DTYPED or not isinstance(value, (Index, Mask))):
            try:
                return adapter.dtype_of(arg)
            except Exception:  # noqa: BLE001 - a Python number where a tensor may be: no dtype to ask about
                return None
    return (kwargs or {}).get("dtype") if VOCABULARY[op].dtype_param else None


def undeclared_dtype(adapter, op: str, args, kwargs=None) -> str | None:
    """The dtype of this call of `op` where the adapter does not declare the op in it; None where
    it does, where the call has no dtype, or where the adapter declares nothing at all."""
    dtype = tested_dtype(adapter, op, args, kwargs)
    if not adapter.dtypes or dtype is None or dtype in adapter.dtypes.get(op, adapter.dtypes.get("*", ())):
        return None
    return dtype


def undeclared(adapter, op: str, args, exc: Exception, kwargs=None) -> str | None:
    """Why an error the framework raised is the framework lacking the op in that dtype (a kernel
    not registered): the dtype is one the adapter does not declare for `op`. None where it is
    declared (an error there is an error) or the adapter declares nothing."""
    dtype = undeclared_dtype(adapter, op, args, kwargs)
    if dtype is None:
        return None
    return f"{adapter.name} does not declare {op} in {dtype} (its `dtypes`); the framework raised {one_line(exc)}"


def undeclared_conversion(adapter, ops, dtype: str, exc: Exception) -> str | None:
    """Why converting an input to `dtype` failing is the framework lacking the dtype: the adapter
    declares none of the program's ops in it. None where it declares one (an error there is an
    error) or declares nothing."""
    if not adapter.dtypes or not ops or any(dtype in adapter.dtypes.get(op, adapter.dtypes.get("*", ())) for op in ops):
        return None
    return (f"{adapter.name} does not declare {', '.join(sorted(ops))} in {dtype} (its `dtypes`); converting to "
            f"it raised {one_line(exc)}")


def check(adapter, device: str = "cpu", seen: dict | None = None) -> list:
    """Mismatches between declaration and behaviour, one line each (with the exception behind a
    declared dtype that fails). `seen`: what `observed` gave, where the caller has it."""
    lines = []
    claims = declared(adapter)
    for op, refusals in (seen or observed(adapter, device)).items():
        claimed = set(claims.get(op, ()))
        for dtype, refusal in refusals.items():
            if refusal is None and dtype not in claimed:
                lines.append(f"{adapter.name}.{op}: {dtype} works but is not declared")
            elif refusal is not None and dtype in claimed:
                lines.append(f"{adapter.name}.{op}: {dtype} is declared but fails: {refusal}")
    return lines


def declaration(seen: dict) -> str:
    """The `dtypes = {...}` class attribute that matches what `observed` saw, to paste: the most
    common set of working dtypes as "*", each other set for the ops that have it."""
    works = {op: tuple(d for d, refusal in refusals.items() if refusal is None) for op, refusals in seen.items()}
    common = Counter(works.values()).most_common(1)[0][0] if works else ()
    groups: dict = {}
    for op, dtypes in works.items():
        if dtypes != common:
            groups.setdefault(dtypes, []).append(op)
    lines = [f'dtypes = {{"*": {common!r},']
    lines += [f"          **dict.fromkeys({tuple(ops)!r}, {dtypes!r})," for dtypes, ops in groups.items()]
    return "\n".join(lines)[:-1] + "}"


def table(classes: dict) -> list:
    """Rows for printing and the report: op, then per adapter its declared dtypes (short)."""
    names = sorted(classes)
    rows = []
    for op in OPS:
        cells = []
        for name in names:
            claims = declared(classes[name])
            cells.append("-" if op not in claims else ("n/a" if op in NO_DTYPE else _short(claims[op])))
        rows.append([op, *cells])
    return [["op", *names], *rows]


def write(folder, classes: dict) -> None:
    """coverage.json beside a run's results: the declared table, for the report."""
    rows = table(classes)
    names = rows[0][1:]
    data = {"ops": [r[0] for r in rows[1:]],
            "adapters": {name: {r[0]: r[1 + i] for r in rows[1:]} for i, name in enumerate(names)}}
    (pathlib.Path(folder) / "coverage.json").write_text(json.dumps(data, indent=1), encoding="utf-8")


SHORT = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64", "int8": "i8", "uint8": "u8",
         "int16": "i16", "uint16": "u16", "int32": "i32", "uint32": "u32", "int64": "i64", "uint64": "u64", "bool": "b",
         "complex64": "c64", "complex128": "c128"}


def _short(dtypes) -> str:
    return " ".join(SHORT[d] for d in ALL_DTYPES if d in dtypes) or "none"


# The adapters docs/array-api.md shows: one per framework package (the exported runtimes' adapters
# share their framework's ops)
PAGE_ADAPTERS = ("reference", "engine", "torch", "jax", "tensorflow", "keras-tensorflow", "paddle")


def array_api_page(classes: dict) -> str:
    """docs/array-api.md: each function of the Array API standard (vocabulary/arrayapi.py), the op
    that computes it and the dtypes each adapter declares for that op."""
    from vocabulary import arrayapi

    names = [n for n in PAGE_ADAPTERS if n in classes]
    claims = {n: declared(classes[n]) for n in names}
    listed = arrayapi.functions()
    covered = sum(arrayapi.op_of(f, VOCABULARY) is not None for _, f in listed)
    lines = ["# The Array API standard, function by function", "",
             "Generated by `python -m suites vocabulary --write` from vocabulary/arrayapi.py and the adapters' "
             "dtype declarations; do not edit.", "",
             f"Parity has an op for {covered} of the {len(listed)} functions of the Python Array API standard "
             "(2024.12, with its linalg and fft extensions). A cell lists the dtypes an adapter declares for the "
             "op (`python -m suites coverage --check` holds each declaration to what the adapter does); `-`: the "
             "adapter does not implement it. The complex dtypes (c64, c128) are asked of the ops whose complex "
             f"results Parity judges so far ({', '.join(sorted(COMPLEX_OPS))}: specs/complex.yaml); of the others, "
             "only the real dtypes. What each framework does differently is in the specs' documented "
             "differences and on the report's page; the standard's special cases are examples in "
             "specs/special-cases.yaml, specs/math.yaml, specs/logic.yaml and specs/statistics.yaml.",
             ""]
    for section in arrayapi.STANDARD:
        rows = [(f, arrayapi.op_of(f, VOCABULARY)) for s, f in listed if s == section]
        lines += [f"## {section} ({sum(op is not None for _, op in rows)} of {len(rows)})", "",
                  "| function | op | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
        for function, op in rows:
            cells = ["-" if op is None or op not in claims[n] else _short(claims[n][op]) for n in names]
            lines.append(f"| {function} | {op or 'none yet'} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)

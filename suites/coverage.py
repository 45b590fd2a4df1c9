"""Which vocabulary ops and dtypes each adapter implements: what it declares, and what it does.

An adapter declares its dtypes per op (`Adapter.dtypes`, see adapters/base.py); `declared`
reads the declaration, `observed` runs one small sample call per (op, dtype) and sees whether it
returns. `check` compares the two the way PyTorch's OpInfo test_dtypes does: a dtype that works
but is not declared, or is declared but fails, is a mismatch. The samples only ask "does it
run?"; whether the values are right is the suites' question.
"""
import json
import pathlib

import numpy as np

from adapters.base import DTYPES, OPS, Adapter, lstm_param_shapes


class Index(np.ndarray):
    """A sample's index argument: int64, whatever the dtype under test."""


class Mask(np.ndarray):
    """A sample's mask / condition argument: bool, whatever the dtype under test."""


INDEX = np.array([[0, 2, 1], [1, 0, 0]]).view(Index)
MASK = np.array([[True, False, True], [False, False, True]]).view(Mask)


def _x(dtype, shape=(2, 3)):
    """Small positive values (log and sqrt accept them), exact in every dtype; bools for bool."""
    values = np.arange(1, int(np.prod(shape)) + 1).reshape(shape) % 5 + 1
    return values.astype(bool) if dtype == "bool" else values


def _lstm(dtype):
    params = {k: np.full(s, 0.25) for k, s in lstm_param_shapes(3, 2).items()}
    return [_x(dtype, (2, 4, 3)), None, None, params], {}


BINARY = ("add", "sub", "mul", "div", "maximum", "minimum", "pow")
UNARY = ("neg", "exp", "log", "tanh", "sigmoid", "relu", "abs", "sqrt", "square", "round", "sign", "stop_gradient")
# op -> dtype -> (args, kwargs): NumPy values; tensors are made with the adapter's asarray.
SAMPLES = {
    **{op: lambda d: ([_x(d), _x(d)], {}) for op in BINARY},
    **{op: lambda d: ([_x(d)], {}) for op in UNARY},
    **{op: lambda d: ([_x(d)], {"axis": 1}) for op in ("sum", "mean", "max", "softmax", "log_softmax", "argmin")},
    "matmul": lambda d: ([_x(d), _x(d, (3, 2))], {}),
    "mm": lambda d: ([_x(d), _x(d, (3, 2))], {}),
    "reshape": lambda d: ([_x(d), (3, 2)], {}),
    "transpose": lambda d: ([_x(d), (1, 0)], {}),
    "concat": lambda d: ([[_x(d), _x(d)], 0], {}),
    "stack": lambda d: ([[_x(d), _x(d)], 0], {}),
    "where": lambda d: ([MASK, _x(d), _x(d)], {}),
    "sequence_mask": lambda d: ([np.array([1, 3]).view(Index)], {"max_len": 4}),
    "segment_mask": lambda d: ([INDEX], {}),
    "masked_fill": lambda d: ([_x(d), MASK, 0], {}),
    "masked_softmax": lambda d: ([_x(d), MASK], {}),
    "pad": lambda d: ([_x(d), ((1, 1), (0, 2))], {}),
    "pad_sequences": lambda d: ([[_x(d, (3,)), _x(d, (1,))]], {}),
    "gather": lambda d: ([_x(d), 1, INDEX], {}),
    "scatter": lambda d: ([_x(d), 1, INDEX[:, :1], _x(d, (2, 1))], {}),  # unique targets per row
    "scatter_add": lambda d: ([_x(d), 1, INDEX, _x(d)], {}),
    "one_hot": lambda d: ([INDEX], {"num_classes": 3, "dtype": d}),
    "lstm": _lstm,
    "conv1d": lambda d: ([_x(d, (1, 2, 5)), _x(d, (3, 2, 2))], {}),
    "conv2d": lambda d: ([_x(d, (1, 2, 4, 4)), _x(d, (3, 2, 2, 2))], {}),
}
# Ops whose dtype is that of an integer input (lengths, ids, classes), not of a float tensor:
# their samples take the dtype under test for those inputs.
INDEX_DTYPED = {"sequence_mask", "segment_mask", "one_hot"}
NO_DTYPE = {"causal_mask"}  # no tensor input at all


def implemented(cls) -> list:
    """The vocabulary ops the adapter class overrides (the base raises Unsupported for the rest)."""
    return [op for op in OPS if getattr(cls, op, None) is not getattr(Adapter, op)]


def declared(adapter) -> dict:
    """op -> the dtypes an adapter (class or instance: an instance may know better, e.g. Keras'
    backend) declares for it, for every implemented op."""
    cls = adapter if isinstance(adapter, type) else type(adapter)
    return {op: tuple(adapter.dtypes.get(op, adapter.dtypes.get("*", ()))) for op in implemented(cls)}


def observed(adapter, device: str = "cpu") -> dict:
    """op -> the dtypes whose sample call returns, for every implemented op with a sample."""
    out = {}
    for op in implemented(type(adapter)):
        if op in NO_DTYPE or op not in SAMPLES:
            continue
        out[op] = tuple(d for d in DTYPES if _runs(adapter, op, d, device))
    return out


def _runs(adapter, op: str, dtype: str, device: str) -> bool:
    args, kwargs = SAMPLES[op](dtype)

    def convert(value):
        if isinstance(value, np.ndarray):
            fixed = "bool" if isinstance(value, Mask) else "int64" if isinstance(value, Index) else None
            as_dtype = dtype if fixed is None or op in INDEX_DTYPED else fixed
            return adapter.asarray(np.asarray(value), as_dtype, device)
        if isinstance(value, list) and value and isinstance(value[0], np.ndarray):
            return [convert(v) for v in value]
        if isinstance(value, dict):
            return {k: convert(v) for k, v in value.items()}
        return value

    try:
        with adapter.device_scope(device):
            out = getattr(adapter, op)(*[convert(a) for a in args], **kwargs)
            for part in out if isinstance(out, tuple) else (out,):
                adapter.sync(part)
        return True
    except Exception:  # noqa: BLE001 - any refusal (Unsupported, the framework's own error) means "does not run"
        return False


def check(adapter, device: str = "cpu") -> list:
    """Mismatches between declaration and behaviour, one line each."""
    lines = []
    claims = declared(adapter)
    for op, works in observed(adapter, device).items():
        claimed = set(claims.get(op, ()))
        for dtype in DTYPES:
            if dtype in works and dtype not in claimed:
                lines.append(f"{adapter.name}.{op}: {dtype} works but is not declared")
            elif dtype in claimed and dtype not in works:
                lines.append(f"{adapter.name}.{op}: {dtype} is declared but fails")
    return lines


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


SHORT = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64", "int32": "i32", "int64": "i64",
         "bool": "b"}


def _short(dtypes) -> str:
    return " ".join(SHORT[d] for d in DTYPES if d in dtypes) or "none"

"""Loading specs: yaml.safe_load, JSON Schema validation, then the checks a schema cannot make.

Every problem is a SpecError whose message is one line naming the file, the line and the key,
e.g. `specs/matmul.yaml:14: [2].examples[0].inputs.a: 'shape' is a required property`.
"""
import dataclasses
import itertools
import json
import os
import pathlib
import warnings
from dataclasses import dataclass, field

import jsonschema

from suites.loading import pairwise
from suites.loading.spec_differences import SCHEMA_PATH, check_differences, drawn
from suites.loading.yamlfile import SpecError, line, read
from suites.loading.yamlfile import where as locate
from suites.programs import expr, model, program, weighted
from suites.programs.collectives import Collective


def own_specs(name: str = "") -> str:
    """Parity's own specs folder (or a file in it), relative to the working folder: found from any
    folder a command runs in, and named specs/... in messages when it runs in the checkout."""
    return os.path.relpath(pathlib.Path(__file__).resolve().parents[2] / "specs" / name)


MAX_INPUT_ELEMENTS = 10_000_000  # 80 MB of float64 per input: a guard against absurd shapes
MAX_LAYERS = 64  # a recurrent spec's num_layers, the same guard for its derived weights


@dataclass(frozen=True)
class Example:
    """An explicit example: its inputs (`values`, or a `shape` with a `fill`), what the
    documentation says of it (`expect`: value, shape, shapes or raises), its documented
    gradients, and the dtypes it runs in (None: the spec's)."""

    name: str
    inputs: dict
    expect: dict
    grad: dict | None = None
    dtypes: list | None = None

    def runs_in(self, dtype: str, spec_dtypes) -> bool:
        return dtype in (self.dtypes or spec_dtypes)


@dataclass(frozen=True)
class Spec:
    """A validated spec: what to compute (`program`), on which inputs (`examples`, and the
    `hypothesis` or collective `shards` block that generates more), how to judge it."""

    area: str  # the file's stem: matmul, masking, ...
    id: str
    file: str
    line: int
    args: list
    dtypes: list
    # suites/programs/: program.py's Expression (weighted.py's too), collectives.py's Collective, model.py's Model
    program: object
    examples: list = field(default_factory=list)
    hypothesis: dict | None = None  # shapes from a gufunc signature, magnitudes, input rules
    shards: dict | None = None  # a collective's generated shards
    gradient: dict | None = None  # {wrt, dtypes}
    tolerance: dict = field(default_factory=dict)  # dtype -> rtol / atol / ulp
    result_dtype: str | dict | None = None  # one dtype, or dtype under test -> result dtype
    properties: list = field(default_factory=list)
    differences: list = field(default_factory=list)
    benchmark: dict | None = None
    expression: str = ""  # the op or expression as the spec writes it, for messages
    equals_text: str | None = None
    unspecified: str | None = None  # what the framework leaves unspecified: values judged by properties alone

    @property
    def name(self) -> str:
        return f"{self.area}/{self.id}"

    @property
    def params(self) -> dict:
        return self.program.params

    @property
    def collective(self) -> str | None:
        """The collective's name, for a spec of one (its single arg is the stacked shards)."""
        return self.program.name if isinstance(self.program, Collective) else None

    @property
    def generated(self) -> dict | None:
        """The block that generates cases: `hypothesis`, or a collective's `shards`."""
        return self.hypothesis or self.shards

    @property
    def input_rules(self) -> dict:
        """name -> how to generate that arg (index_of, unique, min / max, dtype, at_least_one):
        the hypothesis block's, or a model's `inputs`."""
        return (self.hypothesis or {}).get("inputs") or getattr(self.program, "input_rules", {})

    def arg_dtype(self, name: str) -> str | None:
        """The dtype an arg is declared in (hypothesis.inputs.<arg>.dtype, or "python" for a Python
        number), whatever the dtype under test; None for an arg in the dtype under test."""
        rule = self.input_rules.get(name, {})
        return program.PYTHON if rule.get("python") else rule.get("dtype")

    @property
    def wrt(self) -> list:
        """The gradient's inputs; `weights` stands for every derived weight."""
        names = []
        for name in self.gradient["wrt"]:
            names += self.program.weight_names() if name == "weights" else [name]
        return names

    @property
    def gradient_dtypes(self) -> list:
        return self.gradient.get("dtypes", self.dtypes)


def load_path(path) -> list[Spec]:
    """Every spec in a file, or in every *.yaml file of a folder."""
    path = pathlib.Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.yaml"))
        if not files:
            raise SpecError(f"{path}: no *.yaml spec files in this folder")
        return [spec for f in files for spec in load_file(f)]
    if not path.is_file():
        raise SpecError(f"{path}: no such spec file or folder")
    return load_file(path)


def load_file(path) -> list[Spec]:
    path = pathlib.Path(path)
    node, data = read(path)
    _validate(data, node, path)
    specs, seen = [], {}
    for i, entry in enumerate(data):
        where = lambda *keys: locate(path, node, [i, *keys])  # noqa: E731
        for raw in expand(entry, where):
            if raw["id"] in seen:
                raise SpecError(f"{where('id')}: duplicate spec id {raw['id']!r} (first at line {seen[raw['id']]})")
            seen[raw["id"]] = line(node, [i])
            specs.append(_build(path, raw, node, i, where))
    return specs


def expand(raw: dict, where) -> list[dict]:
    """A spec with `expand: {param: [values]}` is one spec per combination of the values; with
    `pairwise: {param: [values]}`, one per row of a covering array of every two params' values
    (suites/loading/pairwise.py). Each has its params merged and its id suffixed:
    lstm-shapes-num-layers2-bidirectional-not-batch-first; a difference entry that names `params`
    holds in the specs of those params' values alone."""
    if "expand" in raw and "pairwise" in raw:
        raise SpecError(f"{where('pairwise')}: a spec takes expand (every combination) or pairwise (every pair), "
                        "not both")
    grid = raw.get("expand") or raw.get("pairwise") or {}
    if "expand" in raw:
        combinations = [dict(zip(grid, values)) for values in itertools.product(*grid.values())]
    else:
        combinations = pairwise.covering(grid) if grid else []
    _check_difference_params(raw.get("differences", []), grid, combinations, where)
    if not grid:
        return [raw]
    rest = {k: v for k, v in raw.items() if k not in ("expand", "pairwise")}
    return [{**rest, "id": f"{raw['id']}-{'-'.join(_label(k, v) for k, v in combination.items())}",
             "params": {**raw.get("params", {}), **combination}} for combination in combinations]


def _check_difference_params(differences: list, grid: dict, combinations: list, where) -> None:
    """A difference's `params` pick values of the spec's grid: each names a param of it, and the
    entry must hold in at least one of its specs (else it documents nothing)."""
    for j, diff in enumerate(differences):
        chosen = diff.get("params")
        if chosen is None:
            continue
        if not grid:
            raise SpecError(f"{where('differences', j, 'params')}: params on a difference choose among the specs of "
                            "an expand or pairwise grid; this spec has none")
        for name, value in chosen.items():
            if value not in grid.get(name, ()):
                raise SpecError(f"{where('differences', j, 'params', name)}: {name}={value!r} is not a value of the "
                                f"spec's grid {grid}")
        if not any(all(c[name] == value for name, value in chosen.items()) for c in combinations):
            raise SpecError(f"{where('differences', j, 'params')}: no spec of the grid has {chosen} (pairwise rows: "
                            f"{combinations})")


def _holding(differences: list, params: dict) -> list:
    """The difference entries that hold for a spec of these params (those whose `params` match)."""
    return [{k: v for k, v in diff.items() if k != "params"} for diff in differences
            if all(params.get(name) == value for name, value in diff.get("params", {}).items())]


def _label(key: str, value) -> str:
    """not-bidirectional / bidirectional for booleans, axis-none for null, num_layers2 / stride2
    otherwise, a float's point a p (momentum0p9), a list's items joined with a minus an m
    (axis0-m1: an id is letters, digits and dashes), a list of lists' items flattened
    (pad_width ((0, 0), (2, 1)): pad-width0-0-2-1)."""
    if isinstance(value, bool):
        return key.replace("_", "-") if value else f"not-{key.replace('_', '-')}"
    if value is None:
        return f"{key.replace('_', '-')}-none"
    if isinstance(value, list):
        items = [i for item in value for i in (item if isinstance(item, list) else [item])]
        return key.replace("_", "-") + "-".join(str(item).replace("-", "m") for item in items)
    return f"{key.replace('_', '-')}{f'{value:g}'.replace('.', 'p') if isinstance(value, float) else value}"


def _validate(data, node, path):
    schema = json.loads(SCHEMA_PATH.read_text())
    err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(data))
    if err is not None:
        raise SpecError(f"{locate(path, node, list(err.absolute_path))}: {err.message[:300]}")


def _build(path, raw, node, i, where) -> Spec:
    args = raw["args"]
    try:
        if "collective" in raw:
            made = _collective(raw, where)
        elif "model" in raw:
            made = _model(raw, where)
        elif any(op in raw for op in weighted.RECURRENT_STATES):
            made = _recurrent(raw, where)
        elif raw.get("op") in weighted.ATTENTION_OPS:
            made = _attention(raw, where)
        elif "op" in raw:
            made = program.Expression(expr.call(raw["op"], args, raw.get("params", {})), params=raw.get("params", {}))
        else:
            made = program.Expression(expr.parse(raw["expr"], args), params=raw.get("params", {}))
    except expr.ExprError as exc:
        raise SpecError(f"{where('op' if 'op' in raw else 'expr')}: {exc}") from None
    try:
        equals = expr.parse(raw["equals"], args) if "equals" in raw else None
    except expr.ExprError as exc:
        raise SpecError(f"{where('equals')}: {exc}") from None
    hyp = raw.get("hypothesis")
    if hyp:
        _check_signature(hyp["signature"], args, where)
    if equals is not None:
        made = dataclasses.replace(made, equals=equals)
    derived = made.derived_names()
    _check_examples(raw, derived, where)
    inputs = args + derived + (["weights"] if derived else [])
    for name in raw.get("gradient", {}).get("wrt", []):
        if name not in inputs:
            raise SpecError(f"{where('gradient', 'wrt')}: {name!r} is not one of the spec's inputs {inputs}")
    cases = {e["name"] for e in raw.get("examples", [])} | ({"hypothesis"} if "hypothesis" in raw or "shards" in raw
                                                             else set())
    check_differences(raw.get("differences", []), cases, lambda j, *keys: where("differences", j, *keys),
                      drawn([(e["name"], e["inputs"], e.get("grad")) for e in raw.get("examples", [])]))
    for block in ("hypothesis", "model"):
        for name, override in raw.get(block, {}).get("inputs", {}).items():
            if name not in args or override.get("index_of", {}).get("arg", name) not in args:
                raise SpecError(f"{where(block, 'inputs', name)}: names an arg that the spec does not have {args}")
    if "benchmark" in raw:
        # a recurrent spec's sizes, a model's dims
        sizes = next((raw[op] for op in weighted.RECURRENT_STATES if op in raw), raw.get("model", {}).get("dims", {}))
        _check_benchmark(raw["benchmark"], args, {**raw.get("params", {}), **sizes}, where)
    examples = [Example(e["name"], e["inputs"], e.get("expect", {}), e.get("grad"), e.get("dtypes"))
                for e in raw.get("examples", [])]
    return Spec(path.stem, raw["id"], str(path), line(node, [i]), args, raw["dtypes"], made, examples,
                raw.get("hypothesis"), raw.get("shards"), raw.get("gradient"), raw.get("tolerance", {}),
                raw.get("result_dtype"), raw.get("properties", []),
                _holding(raw.get("differences", []), raw.get("params", {})),
                raw.get("benchmark"), raw.get("op") or raw.get("expr") or raw.get("collective") or "model",
                raw.get("equals"), raw.get("unspecified"))


def _check_examples(raw, derived, where):
    """Inputs are the args (derived inputs optional), of a sane size; documented gradients need
    the gradient block."""
    args = raw["args"]
    for j, example in enumerate(raw.get("examples", [])):
        names = set(example["inputs"])
        if not set(args) <= names <= set(args + derived):
            raise SpecError(f"{where('examples', j, 'inputs')}: inputs {sorted(names)} must be the spec's args {args}"
                            + (f" (and optionally {derived})" if derived else ""))
        for name, inp in example["inputs"].items():
            if "shape" in inp and _size(inp["shape"]) > MAX_INPUT_ELEMENTS:
                raise SpecError(f"{where('examples', j, 'inputs', name, 'shape')}: {inp['shape']} has more than "
                                f"{MAX_INPUT_ELEMENTS:,} elements")
        if "grad" in example and "gradient" not in raw:
            raise SpecError(f"{where('examples', j, 'grad')}: documented gradients need the spec's gradient block")


def _check_benchmark(block, args, params, where):
    """Dims name args (or `out`) axis by axis; formulas use those names, the params and the
    lstm block's sizes; every size gives a shape for every arg."""
    for name in block["dims"]:
        if name not in args and name != "out":
            raise SpecError(f"{where('benchmark', 'dims', name)}: not one of the spec's args {args} (or out)")
    names = [d for dims in block["dims"].values() for d in dims] + list(params)
    for key in ("flops", "elements_moved"):
        if key in block:
            try:
                expr.parse_formula(block[key], names)
            except expr.ExprError as exc:
                raise SpecError(f"{where('benchmark', key)}: {exc}") from None
    for j, size in enumerate(block["sizes"]):
        if set(size["inputs"]) != set(args):
            raise SpecError(f"{where('benchmark', 'sizes', j, 'inputs')}: shapes {sorted(size['inputs'])} must be "
                            f"the spec's args {args}")
        for name, shape in size["inputs"].items():
            if len(block["dims"].get(name, shape)) != len(shape):
                raise SpecError(f"{where('benchmark', 'sizes', j, 'inputs', name)}: {len(shape)} axes, but dims "
                                f"names {len(block['dims'][name])}")


def _collective(raw, where) -> Collective:
    """A collective spec has no expression: its one arg is the shards, stacked on a rank axis."""
    if raw["args"] != ["shards"]:
        raise SpecError(f"{where('args')}: a collective spec takes args: [shards] (shard r at index r)")
    for key in ("expand", "pairwise", "equals", "hypothesis", *weighted.RECURRENT_STATES):
        if key in raw:
            raise SpecError(f"{where(key)}: not available for collectives (hypothesis goes under `shards`)")
    return Collective(raw["collective"], raw.get("params", {}), (raw.get("gradient") or {}).get("replicated", False))


def _model(raw, where) -> model.Model:
    """A model spec: its parameters derived from their shapes, its layers parsed in order."""
    for key in ("params", "expand", "pairwise", "equals", *weighted.RECURRENT_STATES):
        if key in raw:
            raise SpecError(f"{where(key)}: not available for models (a layer's options go in its expression)")
    try:
        return model.Model.of(raw["model"], raw["args"])
    except model.ModelError as exc:
        key, _, message = str(exc).partition(": ")
        raise SpecError(f"{where('model', *key.split('.', 1))}: {message}") from None


def _recurrent(raw, where) -> weighted.Recurrent:
    """An LSTM or GRU spec: lstm(x, h0, c0, {weights}, **params) or gru(x, h0, ...), its state and
    weights derived from the `lstm` / `gru` block's sizes (state: false: the frameworks' zeros)."""
    key = next(op for op in weighted.RECURRENT_STATES if op in raw)
    if raw.get("op") != key or raw["args"] != ["x"]:
        raise SpecError(f"{where(key)}: the `{key}` block goes with op: {key} and args: [x]")
    block, params = raw[key], raw.get("params", {})
    checks = (("num_layers", f"an integer in 1..{MAX_LAYERS}", lambda v: type(v) is int and 1 <= v <= MAX_LAYERS),
              ("bidirectional", "true or false", lambda v: isinstance(v, bool)),
              ("batch_first", "true or false", lambda v: isinstance(v, bool)))
    for name, kind, ok in checks:
        if name in params and not ok(params[name]):  # given in params, or by an expand or pairwise list
            raise SpecError(f"{where('params', name)}: {name} takes {kind}. Received: {params[name]!r}")
    return weighted.Recurrent.of(key, block["input_size"], block["hidden_size"], block.get("state", True), params)


def _attention(raw, where) -> weighted.Attention:
    """A multi-head attention spec: its weights derived from the query's (or x's) last axis."""
    args = raw["args"]
    if not ({"x"} <= set(args) <= {"x", "key_padding_mask"}
            or {"query", "key", "value"} <= set(args) <= {"query", "key", "value", "key_padding_mask"}):
        raise SpecError(f"{where('args')}: multi-head attention takes args [x] (self-attention) or [query, key, "
                        "value], and optionally key_padding_mask")
    return weighted.Attention.of(raw["op"], args, raw.get("params", {}))


def _check_signature(signature, args, where):
    """The gufunc signature must parse (as hypothesis parses it) and have one input per arg."""
    from hypothesis.errors import HypothesisSideeffectWarning, InvalidArgument
    from hypothesis.extra.numpy import mutually_broadcastable_shapes

    try:
        with warnings.catch_warnings():  # validating at collection time is what we want here
            warnings.simplefilter("ignore", HypothesisSideeffectWarning)
            mutually_broadcastable_shapes(signature=signature).validate()
    except InvalidArgument as exc:
        raise SpecError(f"{where('hypothesis', 'signature')}: {str(exc).splitlines()[0]}") from None
    inputs = signature.split("->")[0].count("(")
    if inputs != len(args):
        raise SpecError(f"{where('hypothesis', 'signature')}: {inputs} inputs in {signature!r}, "
                        f"but the spec has {len(args)} args {args}")


def _size(shape) -> int:
    size = 1
    for s in shape:
        size *= s
    return size

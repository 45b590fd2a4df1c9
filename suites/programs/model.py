"""A model: layers declared in YAML, each a vocabulary expression over the model's inputs (the
spec's args), its parameters (PyTorch's state_dict names, derived from their shapes and drawn as
torch initialises them) and earlier layers. The last layer is the loss.

Every layer's activation is a part of the result, judged against the float64 reference with
the bound carried from layer to layer: the reference computes each layer on the adapter's own
activations of the layers before it, so that what earlier layers rounded is carried exactly, and
the layer is held to its own op's bound (a sum-product bound, else a few ulp, plus the spec's
tolerance). The first layer out of its bound is the first that computes something else. Each
layer's drift from the float64 model run end to end is recorded beside it (the report charts
both). The gradient is the loss's, checked per parameter; `training` runs training steps
(suites/programs/training.py).
"""
import math
import re
from dataclasses import dataclass, field

import numpy as np

from suites.judging import compare, outcome
from suites.programs import expr, training
from suites.programs.program import (
    FIXED_OPS,
    ORACLE,
    PARTS,
    Program,
    caller,
    flatten,
    shapes_of,
    unflatten,
    wide_constant,
    widen,
)
from vocabulary.initializers import LAYER_DEFAULTS

DOTTED = re.compile(r"(?<![\w.])[A-Za-z][\w]*(?:\.\w+)+")  # a dotted name as PyTorch writes one: layers.0.norm_1


class ModelError(ValueError):
    """A model block that cannot run; the message says where and why (suites/loading/specs.py adds the line)."""


@dataclass(frozen=True)
class Layer:
    name: str
    tree: object
    parts: tuple  # the names its activations are recorded and referred to by


@dataclass(frozen=True)
class Model(Program):
    """The layers in order, the parameters' (name, shape, bound), and the training steps' settings."""

    layers: tuple
    parameters: tuple
    training: dict | None = None
    params: dict = field(default_factory=dict)
    block: dict = field(default_factory=dict, compare=False)  # the spec's model block, for resized
    args: tuple = ()
    part_noun = "layer"
    per_input_gradients = True  # the loss's gradient is judged parameter by parameter (suites/judging/gradcheck.py)
    size_key = "model"  # a benchmark size's key for other dims (suites/benchmarks/workloads.py)
    tolerance_in_bound = True  # the spec's tolerance is for the layers without a bound of their own

    @classmethod
    def of(cls, block: dict, args: list) -> "Model":
        """The model of a spec's `model` block (ModelError naming the key at fault)."""
        dims = block.get("dims", {})
        for name in dims:
            if name in args or name in block["params"] or name in block["layers"]:
                raise ModelError(f"dims.{name}: the name is taken by an input, parameter or layer")
        parameters = tuple((name, _shape(value, dims, name), _bound(name, value, block["params"], dims))
                           for name, value in block["params"].items())
        known = {n: None for n in [*args, *(p for p, _, _ in parameters)]}
        layers = []
        for name, text in block["layers"].items():
            if name in known:
                raise ModelError(f"layers.{name}: the name is taken by an input, parameter or earlier layer")
            try:
                tree = parse(text, known, [p for p, _, _ in parameters], dims)
            except expr.ExprError as exc:
                raise ModelError(f"layers.{name}: {exc}") from None
            op_parts = PARTS.get(tree.op, ()) if isinstance(tree, expr.Call) else ()
            parts = tuple(f"{name}.{p}" for p in op_parts) or (name,)
            layers.append(Layer(name, tree, parts))
            known.update(dict.fromkeys(parts))
        optimizers = (block.get("training") or {}).get("optimizers", ())
        if any("max_norm" in o for o in optimizers):  # a framework clips by the norm over every parameter
            raise ModelError("training.optimizers: max_norm clips by the global norm over every parameter, and "
                             "the training steps each parameter apart; clip in specs/optimizers.yaml")
        labels = [training.label(o) for o in optimizers]
        if len(set(labels)) < len(labels):
            raise ModelError(f"training.optimizers: {sorted({n for n in labels if labels.count(n) > 1})} given twice")
        return cls(tuple(layers), parameters, block.get("training"), block=block, args=tuple(args))

    @property
    def input_rules(self) -> dict:
        """How the model's inputs are made where no example gives them (a benchmark's): the
        block's `inputs`, in the rules of a hypothesis block's (suites/programs/inputs.py)."""
        return dict(self.block.get("inputs", {}))

    @property
    def sizes(self) -> dict:
        """The model's named dims: a benchmark formula's names."""
        return dict(self.block.get("dims", {}))

    def resized(self, dims: dict) -> "Model":
        """The same model with other dims (a benchmark size's)."""
        return Model.of({**self.block, "dims": {**self.sizes, **dims}}, list(self.args))

    @property
    def part_names(self) -> tuple:
        return tuple(p for layer in self.layers for p in layer.parts)

    def ops(self) -> set:
        return set().union(*(expr.ops_in(layer.tree) for layer in self.layers))

    @property
    def optimizers(self) -> list:
        """The training's optimizer entries (none where it has no training): each a trajectory of
        its own besides Parity's SGD."""
        return list((self.training or {}).get("optimizers", ()))

    def meets(self) -> set:
        """The ops its layers call, its training's optimizers, and its layers' default
        initialisations (init_linear for a linear layer): a user who ports the model meets each
        framework's behaviour of every one, its defaults included, though the model's own
        parameters are drawn alike for every framework."""
        called = self.ops()
        optimizers = {o["name"] for o in self.optimizers}
        return called | optimizers | {f"init_{op}" for op in called if f"init_{op}" in LAYER_DEFAULTS}

    def derived(self, values: dict) -> dict:
        return {name: (shape, bound) for name, shape, bound in self.parameters}

    def derived_names(self) -> list:
        return [name for name, _, _ in self.parameters]

    def weight_names(self) -> list:
        return self.derived_names()

    def forward(self, env: dict, apply, constant, fixed=None) -> dict:
        """The environment with every layer's activations added (a multi-part layer's by part);
        `fixed` holds subtrees at given values, as Expression's oracle does."""
        env = dict(env)
        for layer in self.layers:
            out = expr.evaluate(layer.tree, env, apply, constant, fixed)
            env.update(zip(layer.parts, out if len(layer.parts) > 1 else (out,)))
        return env

    def staged_forward(self, ctx, tree=None):
        """env -> every layer's activations (a tuple, the loss last), staged or compiled by the
        context's mode, made once per context."""
        def activations(env):
            out = self.forward(env, caller(ctx.adapter, ctx.dtype), lambda c: c)
            return tuple(out[p] for p in self.part_names)

        return ctx.stage(("activations",), lambda: activations)

    def run(self, ctx, inputs: dict, tree=None):
        """Every layer's activations, as parts of one flat result."""
        adapter = ctx.adapter
        staged, tensors = self.staged_forward(ctx), self.tensors(ctx, inputs)
        before = outcome.handed(adapter, tensors)
        with adapter.device_scope(ctx.device):  # outside the staged function, as users enter it
            out = staged(tensors)
        outcome.changed_inputs(adapter, tensors, before, "model's forward pass")
        parts = [adapter.to_numpy(p) for p in out]
        dtypes = [adapter.dtype_of(p) for p in out]
        # the dtype of a floating part that differs from the one under test, if any (a framework
        # computing a layer in float32), else the loss's
        dtype = next((d for d in dtypes if compare.is_float(d) and d != ctx.dtype), dtypes[-1])
        return flatten([p.astype(np.float64) if p.dtype.kind == "b" else p for p in parts]), dtype, shapes_of(parts)

    def evaluate(self, ctx, env: dict, tree=None, flat=True):
        """The loss, the adapter's tensor: what a reverse pass differentiates (called inside the
        device scope, as Expression.evaluate is)."""
        return self.forward(env, caller(ctx.adapter, ctx.dtype), lambda c: c)[self.layers[-1].parts[-1]]

    def oracle_parts(self, inputs: dict, dtype: str, fixed=None, tree=None, reference=None):
        """The loss in float64 on the reference (what finite differences differentiate), or the
        subtree `tree` of a layer on the reference's activations (a fixed call's value)."""
        reference = reference or ORACLE
        env = self._reference_env(inputs, reference, fixed)
        if tree is not None:
            return expr.evaluate(tree, env, caller(reference, "float64"), wide_constant)
        return env[self.layers[-1].parts[-1]]

    def _reference_env(self, inputs: dict, reference, fixed=None) -> dict:
        return self.forward({k: widen(v) for k, v in inputs.items()}, caller(reference, "float64"), wide_constant,
                            fixed)

    def judged_against(self, ctx, inputs: dict, actual, shapes):
        """Each layer's reference on the adapter's own earlier activations, its bound there, and
        its drift from the float64 model run end to end. The spec's tolerance is the allowance of
        the layers whose ops have no bound (a norm, a loss); a layer within the sum-product ops (a
        convolution, a linear layer) is held to its own bound. Judged in a narrower precision than
        its dtype's (a documented precision: ctx.precision), an activation is known only as
        rounded to it: the runtime may have fed the next layer the value before that rounding
        (ONNX Runtime's float16 models keep float32 between ops without float16 kernels), so a
        layer's bound counts its earlier activations' own rounding. Judged as a documented
        quantisation computes (ctx.quantised: int8), a layer that reads weights is held to the
        bound of its operands moved by the quantisation's steps (_quantised)."""
        mine = dict(zip(self.part_names, unflatten(actual, shapes)))
        env = {k: widen(v) for k, v in inputs.items()}
        apply, reference, bounds = caller(ctx.reference, "float64"), [], []
        carried = set()  # the earlier activations, rounded where the precision is narrowed
        for layer in self.layers:
            out = expr.evaluate(layer.tree, env, apply, wide_constant)
            values = out if len(layer.parts) > 1 else (out,)
            bound = compare.error_bound(layer.tree, env, ctx.result_dtype, ctx.behaviour, carried,
                                        self._quantised(layer, env) if ctx.quantised else ())
            for part, value in zip(layer.parts, values):
                value = np.asarray(value)
                reference.append(value)
                if bound is None or len(layer.parts) > 1:  # a few ulp and the spec's tolerance
                    bounds.append(compare.allowed_error(value, ctx.result_dtype, tolerance=ctx.tolerance))
                else:
                    bounds.append(np.broadcast_to(bound, value.shape))
                env[part] = _carried(mine.get(part), value)
                if ctx.precision:
                    carried.add(part)
        end_to_end = self._reference_env(inputs, ctx.reference)
        drift = [_largest_distance(mine[p], end_to_end[p]) for p in self.part_names]
        return tuple(reference), flatten([np.ravel(b) for b in bounds]), drift

    def _quantised(self, layer, env: dict) -> set:
        """The operands a dynamic-range quantisation moves in this layer: where it reads a weight
        (a convolution's, a linear layer's), its float operands, weights and activations alike:
        the runtime quantises the weights and the activations it multiplies them with (a bias it
        may keep in float32: counted moved all the same, by max|bias| / 254)."""
        names = expr.names_in(layer.tree)
        if not names & set(self.weight_names()):
            return set()
        return {n for n in names if n in env and np.asarray(env[n]).dtype.kind == "f"}

    def error_bound(self, inputs: dict, dtype: str, behaviour=None, rounded=()):
        return None  # per layer, on the adapter's activations: judged_against

    def sum_product(self, wide: dict):
        return None

    def fixed_calls(self) -> list:
        """The layers' subtrees that finite differences hold (stop_gradient, masks made from values)."""
        return [c for layer in self.layers for c in expr.calls(layer.tree, FIXED_OPS)]


def _carried(actual, reference: np.ndarray) -> np.ndarray:
    """The adapter's activation as the next layers' input on the reference: widened, in the
    reference's kind (a mask stays bool), or the reference's own where the adapter's has another shape."""
    if actual is None or np.shape(actual) != reference.shape:
        return reference
    return np.asarray(actual).astype(reference.dtype) if reference.dtype.kind in "biu" else widen(actual)


def _largest_distance(actual, expected) -> float | None:
    """max |actual - expected| over the elements finite in both (None where there are none)."""
    a, e = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    if a.shape != e.shape:
        return None
    finite = np.isfinite(a) & np.isfinite(e)
    return float(np.abs(a - e)[finite].max()) if finite.any() else None


def parse(text: str, known, parameters, dims=None) -> object:
    """A layer's expression: names may be dotted as PyTorch's module names are (layers.0.norm_1),
    a module's name alone (rnn) stands for its parameters as one dict, keyed by what follows
    the module's name (weight_ih_l0): what the recurrent and attention ops take; a dim's name is
    its number (reshape(q, (B, 1, T, D)))."""
    text, dims = str(text), dims or {}
    known = {**known, **dict.fromkeys(dims)}
    modules = {p.rsplit(".", 1)[0] for p in parameters if "." in p}
    modules |= {m.rsplit(".", i)[0] for m in list(modules) for i in range(1, m.count(".") + 1)}
    groups = {m: expr.Group(tuple(p for p in parameters if p.startswith(m + ".")), m + ".")
              for m in modules if m not in known}
    names = list(known) + list(groups)
    unknown = [n for n in DOTTED.findall(text) if n not in names]
    if unknown:
        raise expr.ExprError(f"unknown name {unknown[0]!r}; known: {', '.join(n for n in names if n in known)}")
    aliases = {}
    for name in sorted((n for n in names if "." in n), key=len, reverse=True):
        pattern = r"(?<![\w.])" + re.escape(name) + r"(?![\w.])"
        if re.search(pattern, text):
            alias = f"dotted{len(aliases)}x"
            aliases[alias] = name
            text = re.sub(pattern, alias, text)
    tree = expr.parse(text, [n for n in names if "." not in n] + list(aliases))
    return _renamed(tree, {**{alias: groups.get(name, expr.Name(name)) for alias, name in
                              list(aliases.items()) + [(g, g) for g in groups if "." not in g]},
                           **{d: expr.Const(v) for d, v in dims.items()}})


def _renamed(node, names: dict):
    """The tree with Name nodes replaced as `names` says (aliases back to dotted names, modules to
    groups, dims to their numbers: a tuple of them is a constant shape)."""
    if isinstance(node, expr.Name):
        return names.get(node.id, node)
    if isinstance(node, tuple):
        items = tuple(_renamed(n, names) for n in node)
        return expr.Const(tuple(i.value for i in items)) if all(isinstance(i, expr.Const) for i in items) else items
    if isinstance(node, expr.Call):
        return expr.Call(node.op, _renamed(node.args, names), tuple((k, _renamed(v, names)) for k, v in node.kwargs))
    return node


def _shape(value, dims: dict, name: str = "") -> tuple:
    """A parameter's shape, its dims' names as their numbers."""
    shape = value["shape"] if isinstance(value, dict) else value
    unknown = [d for d in shape if isinstance(d, str) and d not in dims]
    if unknown:
        raise ModelError(f"params.{name}: {unknown[0]!r} is not one of the model's dims {sorted(dims)}")
    return tuple(dims[d] if isinstance(d, str) else d for d in shape)


def _bound(name: str, value, params: dict, dims: dict) -> float:
    """The parameter's init range, [-bound, bound]: given, else torch's default for a weight of
    fan-in F (1 / sqrt(F): nn.Linear, nn.Conv*, recurrent weights), a 1-d parameter its module's
    weight's (a bias), else 1 (norm weights and biases, drawn rather than ones and zeros so that a
    swap shows)."""
    if isinstance(value, dict) and "bound" in value:
        return float(value["bound"])
    shape = _shape(value, dims, name)
    module = name.rsplit(".", 1)[0]
    weights = [shape] if len(shape) >= 2 else [_shape(v, dims, n) for n, v in params.items()
                                               if n.rsplit(".", 1)[0] == module and len(_shape(v, dims, n)) >= 2]
    fan_in = math.prod(weights[0][1:]) if weights else 0
    return 1 / math.sqrt(fan_in) if fan_in else 1.0  # an empty weight draws nothing: any bound

"""What the runner executes: a program (suites/programs/context.py runs one on one adapter).

A program is what a spec asks every framework to compute, in a form the judges (suites/judging/judge.py,
suites/judging/gradcheck.py) need not look into: it runs on an adapter, evaluates on the float64
reference, knows its a-priori error bound and its reverse pass. Kinds of program are classes:
Expression (a vocabulary op or an expression over it), its subclasses in suites/programs/weighted.py
(a layer whose weights the spec derives from its sizes: Recurrent, Attention), Collective (one
collective across ranks, suites/programs/collectives.py), Model (suites/programs/model.py). Each runs eager or
compiled as its Context's mode says.
"""
import contextlib
from dataclasses import dataclass, field

import numpy as np

from adapters.base import INTEGERS, Adapter, Unsupported
from adapters.reference import ReferenceAdapter
from suites.judging import compare, outcome
from suites.programs import expr
from suites.running import coverage
from vocabulary import AUTOCAST, MIXED_OPS, MODES, VOCABULARY, having
from vocabulary.optimizers import OPTIMIZERS_AND_CLIPPING

ORACLE = ReferenceAdapter()
# From the vocabulary's records: ops whose result dtype is a parameter (they get the dtype under
# test); ops whose derivative is zero by definition or almost everywhere (finite differences hold
# them at the unperturbed point, which is what stop_gradient means and what frameworks do for the
# rest); ops that return several tensors, checked as one flat vector of their parts (one
# comparison, one tolerance, one cotangent), their part shapes apart.
DTYPED_OPS = having("dtype_param")
DESCRIBING_OPS = having("describes_dtype")
FIXED_OPS = having("zero_derivative")
RANDOM_OPS = having("random")
TRAINING_OPS = frozenset(OPTIMIZERS_AND_CLIPPING)  # not exported: docs/exporting.md
PARTS = {name: op.parts for name, op in VOCABULARY.items() if op.parts}
PART_DTYPES = {name: op.part_dtypes for name, op in VOCABULARY.items() if op.part_dtypes}


class Program:
    """The interface every kind of program keeps; Context calls it."""

    params: dict = {}  # the spec's params (configuration the properties read)
    part_names: tuple = ()  # the names of a result's parts, for one that has several
    part_dtypes: tuple = ()  # their dtypes where they differ (Op.part_dtypes: None is the dtype under test)
    part_noun = "part"  # what a part is called in messages (a model's are layers)
    equals = None  # a metamorphic property's other program (Expression's), checked against the result
    # Whether judged_against's bound holds the spec's tolerance already (a model's: for the layers
    # without a bound of their own), else the judge adds it to every element's
    tolerance_in_bound = False

    def derived(self, values: dict) -> dict:
        """name -> (shape, bound) of the inputs made from the spec rather than listed in its
        args, for these arg values: drawn uniformly in [-bound, bound]."""
        return {}

    def derived_names(self) -> list:
        return []

    def weight_names(self) -> list:
        """The derived inputs that are weights, which a gradient's `weights` stands for."""
        return []

    @property
    def sizes(self) -> dict:
        """Sizes a benchmark formula may name beyond the inputs' dims."""
        return {}

    def ops(self) -> set:
        """The vocabulary ops it calls."""
        return set()

    def meets(self) -> set:
        """The vocabulary ops whose behaviour its user meets (a record's `ops`, which the report's
        port view of a model narrows to): the ops it calls; a model's, more (Model.meets)."""
        return self.ops()

    @property
    def modes(self) -> tuple:
        """The modes it runs in on an adapter that has them (Adapter.modes): eager, compiled and
        exported (the mixed mode is for one call of a layer, Expression.modes)."""
        return tuple(m for m in MODES if m != "mixed")

    def judged_against(self, ctx, inputs: dict, actual, shapes):
        """(reference, bound, drift) that the adapter's result `actual` (flat, parts of `shapes`)
        is judged against: the float64 value (an array, or a tuple of parts), the a-priori error
        bound per element (None: a few ulp), and None, or per part the largest distance from the
        float64 program run end to end where the reference judges parts on the adapter's own
        earlier parts (a model's layers: suites/programs/model.py)."""
        return ctx.oracle_parts(inputs), ctx.error_bound(inputs), None

    def tensors(self, ctx, inputs: dict) -> dict:
        """The inputs as the adapter's tensors in their dtypes (Context.input_dtype), each made
        from a copy of its own (a framework may share a NumPy array's memory, and a call that
        writes into it must never reach the inputs the reference and finite differences read);
        an arg the spec passes as a Python number stays one (a user's `x * 0.5`, weakly typed)."""
        missing = ctx.adapter.lacks(self.ops())
        if missing:
            raise Unsupported(f"{ctx.adapter.name} does not implement {', '.join(missing)}")

        def tensor(name, value):
            dtype = ctx.input_dtype(name, value)
            if dtype == PYTHON:
                return python_value(value)
            value = np.array(value, copy=True)
            if dtype in INTEGERS and value.dtype != dtype:  # as users hold them: a uint16 image is a uint16 array
                value = value.astype(dtype)  # (paddle.to_tensor reads its bits as bfloat16, but casts int64 values)
            try:
                return ctx.adapter.asarray(value, dtype, ctx.device)
            except Unsupported:
                raise
            except Exception as exc:  # the framework lacks the dtype: unsupported where the adapter does not claim it
                note = coverage.undeclared_conversion(ctx.adapter, self.ops(), dtype, exc)
                if note:
                    raise Unsupported(note) from exc
                raise

        with ctx.adapter.device_scope(ctx.device):
            return {k: tensor(k, v) for k, v in inputs.items()}

    def staged_reverse(self, ctx, wrt):
        """(env, cotangent) -> {name: the adapter's gradient}: the reverse pass in the context's
        mode (Context.reverse), made once per context (what gradient checks and benchmarks call)."""
        return ctx.reverse(("pullback", tuple(wrt)), lambda **e: ctx.evaluate(e), wrt)

    def pullback(self, ctx, tensors, wrt):
        """cotangent (NumPy) -> {name: gradient (NumPy)}: the staged reverse pass, called once
        per cotangent."""
        adapter = ctx.adapter
        staged = self.staged_reverse(ctx, wrt)

        before = outcome.handed(adapter, tensors)

        def vjp(cotangent) -> dict:
            with adapter.device_scope(ctx.device):
                grads = staged(tensors, adapter.asarray(cotangent, ctx.dtype, ctx.device))
            outcome.changed_inputs(adapter, tensors, before, "reverse pass")
            grads = {n: adapter.to_numpy(g) for n, g in outcome.gradients_of(grads).items()}
            _check_shapes(grads, tensors, adapter.name)
            return grads

        return vjp


def _check_shapes(grads: dict, tensors: dict, adapter: str) -> None:
    """A gradient has its input's shape (Adapter.grad's contract): one that has not is named here,
    not left to fail as a broadcast inside the comparison."""
    for name, grad in grads.items():
        shape = getattr(tensors.get(name), "shape", None)
        if shape is not None and np.shape(grad) != tuple(shape):
            raise ValueError(f"{adapter}'s gradient of {name} has shape {np.shape(grad)}; {name} has shape "
                             f"{tuple(shape)} (Adapter.grad returns each gradient in its input's shape)")


@dataclass(frozen=True)
class Expression(Program):
    """A vocabulary op or an expression over it, evaluated by the expression interpreter."""

    tree: object
    equals: object = None  # a metamorphic property's other expression (same inputs, same result)
    params: dict = field(default_factory=dict)

    @property
    def part_names(self) -> tuple:
        return PARTS.get(self.tree.op, ()) if isinstance(self.tree, expr.Call) else ()

    @property
    def part_dtypes(self) -> tuple:
        return PART_DTYPES.get(self.tree.op, ()) if isinstance(self.tree, expr.Call) else ()

    def ops(self) -> set:
        return expr.ops_in(self.tree) | expr.ops_in(self.equals)

    @property
    def modes(self) -> tuple:
        """A sample (an initializer's) runs eager only: users initialise once, eagerly, and a
        compiled draw has no eager result to agree with bit for bit unless the framework
        promises its generator's stream under its compiler. An optimizer's step (or clipping)
        runs eager and compiled: a step trains, and an exported program serves inference."""
        if self.ops() & RANDOM_OPS:
            return ("eager",)
        if self.ops() & TRAINING_OPS:
            return MODES[:2]
        return MODES if len(self.ops()) == 1 and self.ops() <= MIXED_OPS else super().modes

    @property
    def autocast(self) -> str | None:
        """The dtype torch.autocast computes its one op in (vocabulary.AUTOCAST); None: its inputs'."""
        return AUTOCAST.get(next(iter(self.ops()))) if len(self.ops()) == 1 else None

    def staged_forward(self, ctx, tree=None):
        """env -> the adapter's result (a tensor, or a tuple of parts) of `tree` (default: the
        expression), staged or compiled by the context's mode, made once per context."""
        return ctx.stage(("forward", id(tree)), lambda: lambda env: ctx.evaluate(env, tree, flat=False))

    def run(self, ctx, inputs: dict, tree=None):
        forward = self.staged_forward(ctx, tree)
        tensors, adapter = self.tensors(ctx, inputs), ctx.adapter
        before = outcome.handed(adapter, tensors)
        with adapter.device_scope(ctx.device):  # entered outside the staged function, as users do
            out = forward(tensors)
        outcome.changed_inputs(adapter, tensors, before, "call")
        if isinstance(out, tuple):  # several parts; none where the framework returned an empty tuple (no dtype)
            parts = [adapter.to_numpy(p) for p in out]
            return flatten(parts), joined_dtype([adapter.dtype_of(p) for p in out]), shapes_of(parts)
        return adapter.to_numpy(out), adapter.dtype_of(out), None

    def evaluate(self, ctx, env: dict, tree=None, flat=True):
        """The adapter's tensor; with `flat`, several parts as one flat tensor (the adapter's own
        reshape and concat), so that one reverse pass takes one cotangent for all of them. Called
        inside the device scope (Program.run, pullback), which a compiler does not trace."""
        adapter = ctx.adapter
        # a number in the expression stays a Python number, as users write it
        gate = ctx.mode == "compiled" and adapter.compiled_declared_only
        out = expr.evaluate(tree or self.tree, env, caller(adapter, ctx.dtype, declared_only=gate), lambda c: c)
        if flat and isinstance(out, tuple):
            out = adapter.concat([adapter.reshape(p, (-1,)) for p in out], 0)
        return out

    def oracle_parts(self, inputs: dict, dtype: str, fixed=None, tree=None, reference=ORACLE):
        wide = ("float64" if compare.is_float(dtype) else "complex128" if compare.is_complex(dtype)
                else "uint64" if dtype == "uint64" else "int64")
        exact = {k: widen(v) for k, v in inputs.items()}
        return expr.evaluate(tree or self.tree, exact, caller(reference, wide, described=dtype), wide_constant, fixed)

    def error_bound(self, inputs: dict, dtype: str, behaviour=None, rounded=()):
        return compare.error_bound(self.tree, {k: widen(v) for k, v in inputs.items()}, dtype, behaviour, rounded)

    def sum_product(self, wide: dict):
        """The sum-product Bound on these float64 inputs, or None where the tree leaves them."""
        return compare.sum_product_bound(self.tree, wide)

    def fixed_calls(self) -> list:
        """The subtrees that finite differences hold at their unperturbed values."""
        return expr.calls(self.tree, FIXED_OPS)


class Modelled:
    """The reference with one op computed by a behaviour's model."""

    def __init__(self, behaviour):
        self.behaviour = behaviour

    def __getattr__(self, op):
        return self.behaviour.model if op == self.behaviour.op else getattr(ORACLE, op)

    def collective(self, name: str, shards: list, **params) -> list:
        if name == self.behaviour.op:
            return self.behaviour.model(shards, **params)
        return ORACLE.collective(name, shards, **params)


def caller(target, dtype, declared_only=False, described=None):
    """apply(op, args, kwargs) for the expression interpreter: `target`'s method, with the dtype
    under test for the ops whose result dtype is a parameter; the reference, which computes in a
    wide dtype, is given the dtype under test too (`described`) where the result describes it
    (finfo, can_cast). An error an adapter's framework raises in a dtype the adapter does not
    declare for the op is marked so (UNDECLARED): where no error is expected, the case is
    unsupported, not an error (outcome.raised_outcome); declared or not, a value the op returns is
    judged. `declared_only` (an adapter's compiled mode whose compiler kills the process on an
    undeclared kernel, Adapter.compiled_declared_only): such a call is unsupported before the
    framework sees it."""
    def apply(op, args, kwargs):
        if op in DTYPED_OPS and "dtype" not in kwargs:  # a dtype the expression writes (None: inferred) stays
            kwargs = {**kwargs, "dtype": dtype}
        if described and op in DESCRIBING_OPS:
            kwargs = {**kwargs, "described": described}
        undeclared = coverage.undeclared_dtype(target, op, args, kwargs) if declared_only else None
        if undeclared:
            raise Unsupported(f"{target.name} does not declare {op} in {undeclared}, and its compiled mode runs "
                              f"declared dtypes only: {target.compiled_declared_only}")
        try:
            return getattr(target, op)(*args, **kwargs)
        except Unsupported:
            raise
        except Exception as exc:
            note = coverage.undeclared(target, op, args, exc, kwargs) if isinstance(target, Adapter) else None
            if note:
                with contextlib.suppress(AttributeError):  # an exception type without a __dict__ stays an error
                    setattr(exc, outcome.UNDECLARED, note)
            raise
    return apply


def flatten(value):
    """A tuple of arrays as one flat vector (an empty one: no elements); an array as it is."""
    if isinstance(value, (tuple, list)):
        return np.concatenate([np.ravel(p) for p in value]) if len(value) else np.zeros(0)
    return value


def joined_dtype(dtypes) -> str | None:
    """The dtype of a result of parts, as run() reports it: theirs where they share one, else each
    part's in order, joined by commas (unique_counts' "float32,int64"); None for no parts."""
    dtypes = [str(d) for d in dtypes]
    return None if not dtypes else dtypes[0] if len(set(dtypes)) == 1 else ",".join(dtypes)


def unflatten(flat: np.ndarray, shapes) -> list:
    """The parts of a flat vector of these shapes (none for no shapes: an empty tuple)."""
    ends = np.cumsum([int(np.prod(s)) for s in shapes])
    return [p.reshape(s) for p, s in zip(np.split(flat, ends[:-1]), shapes)]


def parts_of(actual: np.ndarray, shapes) -> list:
    """A result as run() returns it, (flat values, part shapes), as its parts: one array where
    shapes is None (a single result), none where it is [] (the framework returned an empty tuple)."""
    return [actual] if shapes is None else unflatten(actual, shapes)


def shapes_of(parts) -> list:
    return [tuple(np.shape(p)) for p in parts]


PYTHON = "python"  # an arg's declared dtype for a Python value (int, float or bool by its values' kind)


def python_value(value):
    """An input as the Python value it stands for: a 0-d one a number (a user's x * 0.5), another a
    nested list of numbers (from_python's obj)."""
    return np.asarray(value).tolist()


def widen(v: np.ndarray) -> np.ndarray:
    """An input as the reference computes with it: float64, complex128, int64, uint64 for uint64 (int64
    would make 2 ** 63 and up negative: a right shift of them would fill with ones, a sort put them
    first), bool."""
    v = np.asarray(v)
    if v.dtype.kind == "b" or v.dtype == np.uint64:
        return v
    return v.astype({"f": np.float64, "c": np.complex128}.get(v.dtype.kind, np.int64))


def wide_constant(c):
    """A number of an expression as the reference takes it: int64 or float64."""
    return np.int64(c) if isinstance(c, int) else np.float64(c)

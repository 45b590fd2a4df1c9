"""Running one case of a spec on one adapter and judging it: the heart of every suite.

A case is a dict of exact input arrays. The adapter evaluates the spec's op or expression in the
dtype under test; the reference evaluates it in float64 on the same values; suites/compare.py
judges the difference. Documented differences turn a mismatch into "documented" only while the
framework still behaves exactly as documented.
"""
from dataclasses import dataclass, field, replace

import numpy as np

from adapters.base import Unsupported
from adapters.reference import ReferenceAdapter
from suites import compare, expr, gradients, properties

ORACLE = ReferenceAdapter()
PASSING = {"pass", "documented"}


@dataclass
class Outcome:
    status: str  # pass, documented, fail, unsupported, error
    case: str
    message: str = ""
    comparison: compare.Comparison | None = None
    inputs: dict = field(default_factory=dict)  # the exact inputs, for the repro
    actual: np.ndarray | None = field(default=None, repr=False)  # the adapter's value (cross-framework agreement)
    raised: Exception | None = field(default=None, repr=False)  # the framework's own error, for a difference


class CaseFailure(Exception):
    """Raised inside hypothesis so that it shrinks the case; carries the Outcome."""

    def __init__(self, outcome: Outcome):
        super().__init__(outcome.message)
        self.outcome = outcome


# Ops whose output dtype is a parameter: they get the dtype under test.
DTYPED_OPS = {"one_hot"}
# Ops whose derivative is zero by definition or almost everywhere: finite differences hold them
# at the unperturbed point, which is what stop_gradient means and what frameworks do for the rest.
FIXED_OPS = {"stop_gradient", "round", "sign", "argmin"}
# Ops that return several tensors, and the names of their parts. Such a result is checked as one
# flat vector of its parts (one comparison, one tolerance, one cotangent), its part shapes apart.
PARTS = {"lstm": ("output", "h_n", "c_n")}


@dataclass
class Context:
    spec: object
    adapter: object
    device: str
    dtype: str
    staged: dict = field(default_factory=dict, repr=False)
    # A documented difference's `precision` (a framework that computes float64 in float32):
    # results are then judged as results of that dtype. Inputs stay in the dtype under test.
    precision: str | None = None

    @property
    def judged(self) -> str:
        """The dtype whose error bounds and tolerances judge the results."""
        return self.precision or self.dtype

    def stage(self, key, make):
        """adapter.stage(make()), made once per context: JAX's jit then reuses one compilation
        for every case of the same shapes (a value and its property re-runs, Jacobian rows)."""
        if key not in self.staged:
            self.staged[key] = self.adapter.stage(make())
        return self.staged[key]

    def input_dtype(self, value: np.ndarray) -> str:
        """Inputs are drawn in the dtype under test unless they are integer/bool by nature."""
        return value.dtype.name if value.dtype.kind in "biu" and compare.is_float(self.dtype) else self.dtype

    @property
    def tolerance(self) -> dict:
        """The spec's own rtol / atol / ulp for the judged dtype."""
        return self.spec.data.get("tolerance", {}).get(self.judged, {})

    @property
    def result_dtype(self) -> str:
        return self.spec.data.get("result_dtype", self.judged)

    def run(self, inputs: dict, tree=None):
        """The adapter's result as (NumPy array, dtype name, part shapes): a result of several
        parts comes back flat, with their shapes; a single array with None."""
        if self.spec.collective and tree is None:
            outputs = self.collective(self.spec.collective, list(inputs["shards"]), **self.spec.params)
            return np.stack(outputs), outputs[0].dtype.name, None
        forward = self.stage(("forward", id(tree)), lambda: lambda env: self.evaluate(env, tree, flat=False))
        out = forward(self.tensors(inputs))
        if isinstance(out, tuple):
            parts = [self.adapter.to_numpy(p) for p in out]
            return flatten(parts), self.adapter.dtype_of(out[0]), shapes_of(parts)
        return self.adapter.to_numpy(out), self.adapter.dtype_of(out), None

    def collective(self, name: str, shards: list, **params) -> list:
        """The adapter's collective on these shards (in the dtype under test), rank by rank."""
        return self.adapter.collective(name, [np.asarray(s).astype(self.dtype) for s in shards], device=self.device,
                                       **params)

    def run_parts(self, inputs: dict) -> list:
        """The adapter's result as a list of NumPy arrays, one per part."""
        actual, _, shapes = self.run(inputs)
        return unflatten(actual, shapes) if shapes else [actual]

    def tensors(self, inputs: dict) -> dict:
        """The inputs as the adapter's tensors (a collective's shards stay NumPy: they go to workers)."""
        if self.spec.collective:
            return dict(inputs)
        with self.adapter.device_scope(self.device):
            return {k: self.adapter.asarray(v, self.input_dtype(v), self.device) for k, v in inputs.items()}

    def evaluate(self, env: dict, tree=None, flat=True):
        """The adapter's tensor; with `flat`, several parts as one flat tensor (the adapter's own
        reshape and concat), so that one reverse pass takes one cotangent for all of them."""
        adapter = self.adapter

        def constant(c):
            return adapter.asarray(np.asarray(c), self.dtype, self.device)

        with adapter.device_scope(self.device):
            out = expr.evaluate(tree or self.spec.tree, env, _caller(adapter, self.dtype), constant)
            if flat and isinstance(out, tuple):
                out = adapter.concat([adapter.reshape(p, (-1,)) for p in out], 0)
        return out

    def oracle(self, inputs: dict, fixed=None, tree=None):
        """The float64 (or int64) reference value on exactly these inputs (several parts flat)."""
        return flatten(self.oracle_parts(inputs, fixed, tree))

    def oracle_parts(self, inputs: dict, fixed=None, tree=None):
        """The reference value as the op returns it: an array, or a tuple of parts."""
        exact = {k: widen(v) for k, v in inputs.items()}
        if self.spec.collective:
            return np.stack(ORACLE.collective(self.spec.collective, list(exact["shards"]), **self.spec.params))
        wide = "float64" if compare.is_float(self.dtype) else "int64"
        return expr.evaluate(tree or self.spec.tree, exact, _caller(ORACLE, wide), _wide_constant, fixed)

    def error_bound(self, inputs: dict):
        """The a-priori error bound of this case (None where there is none)."""
        wide = {k: widen(v) for k, v in inputs.items()}
        if self.spec.collective:
            return compare.collective_bound(self.spec.collective, self.spec.params, wide["shards"], self.result_dtype)
        return compare.error_bound(self.spec.tree, wide, self.result_dtype)

    @property
    def part_names(self) -> tuple:
        tree = self.spec.tree
        return PARTS.get(tree.op, ()) if isinstance(tree, expr.Call) else ()

    def fixed_oracle(self, inputs: dict):
        """The reference as a function for finite differences: FIXED_OPS subtrees keep the
        values they have at `inputs`."""
        fixed = {node: self.oracle(inputs, tree=node) for node in expr.calls(self.spec.tree, FIXED_OPS)}
        return lambda ins: self.oracle(ins, fixed)

    def difference(self, case: str, kind: str = "value"):
        """The spec's documented difference for this adapter, case, dtype, device and kind of check."""
        for diff in self.spec.differences:
            if diff["adapter"] != self.adapter.name or diff.get("case", case) != case:
                continue
            if diff.get("kind", "value") not in (kind, "any"):
                continue
            device = _kind(self.device)
            if self.dtype in diff.get("dtypes", [self.dtype]) and diff.get("device", device) == device:
                return diff
        return None


def flatten(value):
    """A tuple of arrays as one flat vector; an array as it is."""
    if isinstance(value, (tuple, list)):
        return np.concatenate([np.ravel(p) for p in value])
    return value


def unflatten(flat: np.ndarray, shapes) -> list:
    """The parts of a flat vector of these shapes."""
    ends = np.cumsum([int(np.prod(s)) for s in shapes])
    return [p.reshape(s) for p, s in zip(np.split(flat, ends[:-1]), shapes)]


def shapes_of(parts) -> list:
    return [tuple(np.shape(p)) for p in parts]


def _caller(target, dtype):
    def apply(op, args, kwargs):
        if op in DTYPED_OPS:
            kwargs = {**kwargs, "dtype": dtype}
        return getattr(target, op)(*args, **kwargs)
    return apply


def check_case(ctx: Context, case: str, inputs: dict, expect: dict | None = None) -> Outcome:
    """Run one case and judge it against `expect` (from documentation) and the reference."""
    expect = expect or {}
    raised, actual, actual_dtype, shapes = None, None, None, None
    try:
        actual, actual_dtype, shapes = ctx.run(inputs)
    except Unsupported as exc:
        return Outcome("unsupported", case, str(exc))
    except Exception as exc:  # the framework's own error is data here
        raised = exc
    outcome = _judge(ctx, case, inputs, expect, raised, actual, actual_dtype, shapes)
    diff = ctx.difference(case)
    if diff and "precision" in diff["observed"]:
        # a result may come back in either dtype (float32 ops mixed with float64 ones promote back)
        outcome = _precision_difference(ctx, outcome, diff, lambda judge, narrowed: _judge(
            judge, case, narrowed, expect, raised, actual,
            judge.result_dtype if actual_dtype == ctx.result_dtype else actual_dtype, shapes))
    elif diff:
        outcome = _apply_difference(outcome, diff, raised, actual, actual_dtype, ctx)
    outcome.actual = actual
    return outcome


def _judge(ctx, case, inputs, expect, raised, actual, actual_dtype, shapes) -> Outcome:
    if expect.get("raises"):
        if raised is not None:
            return Outcome("pass", case, f"raised as expected: {one_line(raised)}", inputs=inputs)
        return Outcome("fail", case, f"expected an error, but it returned shape {actual.shape}", inputs=inputs)
    if raised is not None:
        return Outcome("error", case, one_line(raised), inputs=inputs)
    if "shape" in expect and tuple(expect["shape"]) != actual.shape:
        return Outcome("fail", case, f"shape {actual.shape}, documented {tuple(expect['shape'])}", inputs=inputs)
    if "shapes" in expect and [tuple(s) for s in expect["shapes"]] != shapes:
        return Outcome("fail", case, f"shapes {_named(ctx, shapes)}, documented {_named(ctx, expect['shapes'])}",
                       inputs=inputs)
    if "value" in expect:
        documented = compare.round_to(np.asarray(expect["value"]), ctx.result_dtype)
        allowed = compare.allowed_error(documented, ctx.result_dtype, tolerance={"atol": expect.get("atol", 0.0)})
        result = compare.compare(documented, actual, ctx.result_dtype, allowed, actual_dtype)
        if not result.ok:
            return Outcome("fail", case, f"differs from the documented value: {result.summary()}", result, inputs)
    try:
        reference = ctx.oracle_parts(inputs)
    except Exception as exc:  # a spec whose valid case the reference refuses is a spec bug
        return Outcome("error", case, f"the reference cannot evaluate this case: {one_line(exc)}", inputs=inputs)
    if isinstance(reference, tuple) and shapes_of(reference) != shapes:
        return Outcome("fail", case, f"shapes {_named(ctx, shapes)}, expected {_named(ctx, shapes_of(reference))}",
                       inputs=inputs)
    expected = flatten(reference)
    allowed = compare.allowed_error(expected, ctx.result_dtype, ctx.error_bound(inputs), ctx.tolerance)
    result = compare.compare(expected, actual, ctx.result_dtype, allowed, actual_dtype)
    if shapes is not None and result.worst:
        result.worst = _part_index(ctx, result.worst[0], shapes)
    if not result.ok:
        return Outcome("fail", case, f"differs from the float64 reference: {result.summary()}", result, inputs)
    checked = properties.applicable(ctx)
    for name in checked:
        broken = properties.PROPERTIES[name][0](ctx, inputs, unflatten(actual, shapes) if shapes else [actual])
        if broken:
            return Outcome("fail", case, f"the property {name} fails: {broken}", result, inputs)
    if "equals" in ctx.spec.data:
        return _metamorphic(ctx, case, inputs, actual, result)
    summary = result.summary() + (f"; properties hold: {', '.join(checked)}" if checked else "")
    return Outcome("pass", case, summary, result, inputs)


def _named(ctx, shapes) -> str:
    """Part shapes with the parts' names: output (5, 3, 20), h_n (2, 3, 20), ..."""
    return ", ".join(f"{n} {tuple(s)}" for n, s in zip(ctx.part_names or range(len(shapes)), shapes))


def _part_index(ctx, flat_index: int, shapes) -> tuple:
    """A flat vector's index as (part name, index within the part)."""
    for name, shape in zip(ctx.part_names or range(len(shapes)), shapes):
        size = int(np.prod(shape))
        if flat_index < size:
            return (name, *(int(i) for i in np.unravel_index(flat_index, shape)))
        flat_index -= size
    return (flat_index,)


def _metamorphic(ctx, case, inputs, actual, result) -> Outcome:
    """The spec's `equals` expression, evaluated by the adapter on the same inputs, must agree
    with its result: a relation that holds whatever the values (gather after scatter gives src)."""
    try:
        other, other_dtype, _ = ctx.run(inputs, ctx.spec.equals)
    except Exception as exc:
        return Outcome("error", case, f"the property's `equals` fails: {one_line(exc)}", inputs=inputs)
    allowed = compare.allowed_error(other.astype(np.float64) if compare.is_float(ctx.result_dtype) else other,
                                    ctx.result_dtype, tolerance=ctx.tolerance)
    relation = compare.compare(other, actual, ctx.result_dtype, allowed, other_dtype)
    if not relation.ok:
        return Outcome("fail", case, f"the property {ctx.spec.data['expr']} == {ctx.spec.data['equals']} fails: "
                       f"{relation.summary()}", relation, inputs)
    return Outcome("pass", case, result.summary(), result, inputs)


def _documented(outcome, diff, seen: str) -> Outcome:
    """The outcome as documented: the spec's note, what was seen, the source."""
    return Outcome("documented", outcome.case, f"{diff['note']} (observed: {seen}; source: {diff['source']})",
                   outcome.comparison, outcome.inputs)


def _neither(outcome, diff, detail: str, comparison=None) -> Outcome:
    """A fail: the framework behaves neither as the reference nor as the spec documents."""
    return Outcome("fail", outcome.case, f"behaves neither as expected nor as documented ({diff['note']}); {detail}",
                   comparison or outcome.comparison, outcome.inputs)


def _no_longer_observed(outcome, diff, what: str) -> Outcome:
    return Outcome("fail", outcome.case, f"documented difference no longer observed: the {what} now matches; "
                   f"remove it from the spec ({diff['note']})", outcome.comparison, outcome.inputs)


def _apply_difference(outcome, diff, raised, actual, actual_dtype, ctx) -> Outcome:
    """documented while the framework does what the spec says it does; a fail otherwise."""
    observed = diff["observed"]
    if observed.get("differs"):  # wrong values on some generated inputs: the rest must still pass
        if outcome.status == "pass":
            return outcome
        if raised is None and outcome.comparison is not None and outcome.comparison.max_abs_err is not None:
            return _documented(outcome, diff, outcome.message)
        return _neither(outcome, diff, outcome.message)
    if outcome.status == "pass":
        return _no_longer_observed(outcome, diff, "result")
    if observed.get("raises"):
        holds, now = raised is not None, one_line(raised) if raised is not None else _returned(actual)
    elif raised is not None:
        holds, now = False, one_line(raised)
    elif "dtype" in observed:  # the values are right, in another dtype
        holds = observed["dtype"] == actual_dtype and compare.compare(
            ctx.oracle(outcome.inputs), actual, ctx.result_dtype).ok
        now = f"{_returned(actual)} as {actual_dtype}"
    else:
        holds = "shape" not in observed or tuple(observed["shape"]) == actual.shape
        if holds and "value" in observed:
            value = compare.round_to(np.asarray(observed["value"]), ctx.result_dtype)
            holds = compare.compare(value, actual, ctx.result_dtype, compare.allowed_error(value, ctx.result_dtype)).ok
        now = _returned(actual)
    return _documented(outcome, diff, now) if holds else _neither(outcome, diff, f"now: {now}; {outcome.message}")


def _precision_difference(ctx, outcome, diff, judge) -> Outcome:
    """documented while the result misses the dtype's error bound but holds to the documented
    precision's: judged again as a result of that dtype, computed from the inputs rounded to it
    (the framework's first step), so float32's own bound applies. Beyond that precision's range
    (inputs or result), computing in it overflows: that is the documented behaviour too. A pass
    stays a pass: on inputs that the narrower dtype holds exactly, both give the same result.

    `judge(ctx, inputs)` judges the framework's result with a context and the inputs given."""
    precision = diff["observed"]["precision"]
    if outcome.status == "pass":
        return outcome
    if outcome.status == "fail" and _beyond_range(ctx, outcome.inputs, precision):
        seen = f"inputs or result beyond {precision}'s range, where it overflows; {outcome.message}"
    else:
        again = judge(replace(ctx, precision=precision), _rounded(outcome.inputs, precision))
        if again.status != "pass":
            return _neither(outcome, diff, f"as {precision}: {again.message}", again.comparison)
        seen = f"{outcome.message}; as {precision}: {again.message}"
    return _documented(outcome, diff, seen)


def _rounded(inputs: dict, precision: str) -> dict:
    """The float inputs rounded to `precision` (kept in their dtype); the others as they are."""
    return {k: compare.round_to(v, precision).astype(v.dtype) if v.dtype.kind == "f" else v
            for k, v in ((k, np.asarray(v)) for k, v in inputs.items())}


def _beyond_range(ctx, inputs: dict, precision: str) -> bool:
    """Whether a float input or the reference result lies beyond `precision`'s finite range."""
    top = np.finfo(np.dtype(precision)).max
    values = [np.asarray(v, dtype=np.float64) for v in inputs.values() if np.asarray(v).dtype.kind == "f"]
    values.append(np.asarray(ctx.oracle(inputs), dtype=np.float64))
    return any(np.any(np.abs(v[np.isfinite(v)]) > top) for v in values)


def check_gradient(ctx: Context, case: str, inputs: dict, rng: np.random.Generator) -> Outcome:
    """The adapter's reverse-mode gradient against central finite differences of the reference."""
    state = rng.bit_generator.state
    diff = ctx.difference(case, "gradient")
    outcome = _finite_difference_check(ctx, case, inputs, rng)
    if not diff or outcome.status == "unsupported":
        return outcome
    if "precision" in diff["observed"]:
        return _precision_difference(ctx, outcome, diff, lambda judge, narrowed: _finite_difference_check(
            judge, case, narrowed, _restored(rng, state)))
    return _gradient_difference(ctx, outcome, diff, None, outcome.raised)


def _finite_difference_check(ctx, case, inputs, rng) -> Outcome:
    wrt = ctx.spec.wrt
    wide = {k: widen(v) for k, v in inputs.items()}
    out = np.asarray(ctx.oracle(inputs))
    size_in = sum(inputs[n].size for n in wrt)
    f = ctx.fixed_oracle(inputs)
    try:
        tensors = ctx.tensors(inputs)
        if size_in * max(out.size, 1) <= gradients.FULL_JACOBIAN_LIMIT:
            result = _full_jacobian(ctx, f, tensors, wide, wrt, out)
        else:
            result = _random_direction(ctx, f, tensors, wide, wrt, out, rng)
    except Unsupported as exc:
        return Outcome("unsupported", case, str(exc))
    except Exception as exc:
        return Outcome("error", case, one_line(exc), inputs=inputs, raised=exc)
    if not result.ok:
        return Outcome("fail", case, f"gradient differs from finite differences: {result.summary()}", result, inputs)
    return Outcome("pass", case, result.summary(), result, inputs)


def _restored(rng: np.random.Generator, state: dict) -> np.random.Generator:
    """A generator at an earlier state of `rng`: the same random directions for a second judgement."""
    again = np.random.Generator(type(rng.bit_generator)())
    again.bit_generator.state = state
    return again


def check_documented_gradient(ctx: Context, case: str, inputs: dict, documented: dict) -> Outcome:
    """The adapter's gradient against documented values (docs, or a convention at a point where
    the derivative does not exist), for the cotangent given (default: ones)."""
    wrt = ctx.spec.wrt
    out = np.asarray(ctx.oracle(inputs))
    cotangent = np.broadcast_to(np.asarray(documented.get("cotangent", 1.0), dtype=np.float64), out.shape)
    try:
        grads = pullback(ctx, ctx.tensors(inputs), wrt)(compare.round_to(cotangent, ctx.dtype))
    except Unsupported as exc:
        return Outcome("unsupported", case, str(exc))
    except Exception as exc:
        return Outcome("error", case, one_line(exc), inputs=inputs)

    def judge(judge_ctx, _inputs=None):
        result = _match_gradients(judge_ctx, grads, documented["expect"], documented.get("atol", 0.0))
        return (Outcome("pass", case, result.summary(), result, inputs) if result.ok else
                Outcome("fail", case, f"gradient differs from the documented value: {result.summary()}", result,
                        inputs))

    outcome = judge(ctx)
    diff = ctx.difference(case, "gradient")
    if diff and "precision" in diff["observed"]:
        return _precision_difference(ctx, outcome, diff, judge)
    return _gradient_difference(ctx, outcome, diff, grads) if diff else outcome


def _match_gradients(ctx, grads: dict, expected: dict, atol: float = 0.0) -> compare.Comparison:
    results = []
    for name, values in expected.items():
        documented = compare.round_to(np.asarray(values, dtype=np.float64), ctx.judged)
        allowed = compare.allowed_error(documented, ctx.judged, tolerance={"atol": atol})
        results.append(compare.compare(documented, grads[name], ctx.judged, allowed))
    return _worst(results)


def _gradient_difference(ctx, outcome, diff, grads, raised=None) -> Outcome:
    """documented while the gradient is what the spec says this framework computes (values, or
    an error; or, for generated inputs, wrong values on some of them while the rest pass)."""
    observed = diff["observed"]
    differs = observed.get("differs")  # wrong gradients on some generated inputs: the rest must still pass
    if outcome.status == "pass":
        return outcome if differs else _no_longer_observed(outcome, diff, "gradient")
    if differs and outcome.status == "fail":
        return _documented(outcome, diff, outcome.message)
    now = None
    if observed.get("raises") and raised is not None:
        now = one_line(raised)
    elif "grad" in observed and grads is not None and _match_gradients(ctx, grads, observed["grad"]).ok:
        now = ", ".join(f"d/d{n} = {np.asarray(grads[n]).tolist()}" for n in observed["grad"])
    return _documented(outcome, diff, now) if now is not None else _neither(outcome, diff, outcome.message)


def _full_jacobian(ctx, f, tensors, wide, wrt, out):
    """Every row of the Jacobian by one reverse pass per output element."""
    rows = {n: [] for n in wrt}
    vjp = pullback(ctx, tensors, wrt)
    for o in range(out.size):
        basis = np.zeros(out.size)
        basis[o] = 1.0
        grads = vjp(basis.reshape(out.shape))
        for n in wrt:
            rows[n].append(grads[n].ravel())
    magnitude = _magnitude_fn(ctx, wide)
    results = []
    for n in wrt:
        expected, fd_err = gradients.jacobian(f, wide, n)
        actual = np.array(rows[n]).reshape(expected.shape)
        scale = (gradients.magnitude_jacobian(magnitude, wide, n) if magnitude
                 else np.full_like(expected, np.abs(expected).max(initial=0)))
        allowed = _allowed(ctx, wide, out.size, scale) + fd_err + gradients.input_rounding(wide[n]).ravel() * scale
        results.append(compare.compare(expected, actual, ctx.judged, allowed))
    return _worst(results)


def _random_direction(ctx, f, tensors, wide, wrt, out, rng):
    """<vjp(c), v> against <c, (f(x + h v) - f(x - h v)) / 2h> for random c and v."""
    cotangent = compare.round_to(rng.standard_normal(out.shape), ctx.dtype)
    directions = {n: rng.standard_normal(wide[n].shape) for n in wrt}
    grads = pullback(ctx, tensors, wrt)(cotangent)
    actual = sum(float(np.sum(grads[n].astype(np.float64) * directions[n])) for n in wrt)
    derivative, fd_err = gradients.directional(f, wide, directions)
    expected = float(np.sum(cotangent * derivative))
    magnitude = _magnitude_fn(ctx, wide)
    along = (gradients.magnitude_directional(magnitude, wide, directions) if magnitude
             else np.abs(derivative) + np.abs(derivative).max(initial=0))
    scale = float(np.sum(np.abs(cotangent) * along))
    rounding = max(gradients.input_rounding(wide[n]).max(initial=0) for n in wrt)
    allowed = _allowed(ctx, wide, out.size, scale) + float(np.sum(np.abs(cotangent) * fd_err)) + rounding * scale
    return compare.compare(np.array(expected), np.array(actual), ctx.judged, allowed)


def _bound(ctx, wide):
    """The sum-product bound of the spec's expression on these inputs (None for a collective,
    whose reverse pass is another collective, or where the expression leaves sums and products)."""
    return None if ctx.spec.collective else compare.sum_product_bound(ctx.spec.tree, wide)


def _magnitude_fn(ctx, wide):
    """The magnitude expression of a sum-product spec as a function of its inputs, else None."""
    if _bound(ctx, wide) is None:
        return None
    return lambda ins: compare.sum_product_bound(ctx.spec.tree, ins).magnitude


def _allowed(ctx, wide, out_size, scale):
    """gamma_n times the derivative's magnitude, n being the value's roundings plus the
    cotangent's reduction; DEFAULT_ULPS ulp-like norm-wise slack where no bound exists; plus the
    spec's own rtol (relative to that magnitude) and atol."""
    tolerance = ctx.tolerance
    spec_allowed = tolerance.get("atol", 0.0) + tolerance.get("rtol", 0.0) * scale
    bound = _bound(ctx, wide)
    if bound is None:
        return 4 * compare.DEFAULT_ULPS * compare.unit_roundoff(ctx.judged) * scale + spec_allowed
    n = bound.n + out_size
    return compare.gamma(n, ctx.judged) * scale + n * compare.tiny(ctx.judged) + spec_allowed


def pullback(ctx, tensors, wrt):
    """cotangent (NumPy) -> {name: gradient (NumPy)} at these inputs: the adapter's reverse pass,
    staged (Context.stage) and called once per cotangent."""
    adapter = ctx.adapter
    if ctx.spec.collective:
        return _collective_pullback(ctx, tensors)
    staged = ctx.stage(("pullback", tuple(wrt)),
                       lambda: lambda env, cot: adapter.grad(lambda **e: ctx.evaluate(e), env, wrt, cot)[1])

    def vjp(cotangent) -> dict:
        with adapter.device_scope(ctx.device):
            grads = staged(tensors, adapter.asarray(cotangent, ctx.dtype, ctx.device))
        return {n: adapter.to_numpy(g) for n, g in grads.items()}

    return vjp


def _collective_pullback(ctx, inputs):
    """The collective's reverse pass on the workers: stacked cotangents in, stacked gradients out."""
    shards = [np.asarray(s).astype(ctx.dtype) for s in inputs["shards"]]

    def vjp(cotangent) -> dict:
        cotangents = [np.asarray(c).astype(ctx.dtype) for c in cotangent]
        grads = ctx.adapter.collective_grad(ctx.spec.collective, shards, cotangents, device=ctx.device,
                                            **ctx.spec.params)
        return {"shards": np.stack(grads)}

    return vjp


def _returned(actual) -> str:
    """What a framework returned, for a documented difference: the values when they are few."""
    return f"returned {actual.tolist()}" if actual.size <= 16 else f"returned shape {actual.shape}"


def _worst(results):
    failing = [r for r in results if not r.ok]
    return failing[0] if failing else max(results, key=lambda r: r.max_rel_err or 0.0)


def widen(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v)
    return v if v.dtype.kind == "b" else v.astype(np.float64 if v.dtype.kind == "f" else np.int64)


def _wide_constant(c):
    return np.int64(c) if isinstance(c, int) else np.float64(c)


def _kind(device: str) -> str:
    return "cpu" if device == "cpu" else "gpu"


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:300] if text else ''}"

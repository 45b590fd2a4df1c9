"""Judging values: one case against the documentation and the float64 reference, and hypothesis
cases under one policy.

A case is a dict of exact input arrays. The adapter runs the spec's program in the dtype under
test; the reference evaluates it in float64 on the same values; suites/judging/compare.py judges the
difference with an error bound; then the spec's properties and its metamorphic `equals`; last,
a documented difference (suites/judging/differences.py) may turn a mismatch into "documented".
A random op's reference (an initializer's) is the law it draws from, and its sample is judged
against that law (suites/judging/sampling.py).
"""
import dataclasses
import functools

import hypothesis
import numpy as np
from hypothesis import strategies as st

from adapters.base import Unsupported
from adapters.reference.initializers import Law
from reports.records import PASSING
from suites.judging import compare, differences, entries, modes, properties, sampling
from suites.judging.outcome import CaseFailure, InputChanged, Outcome, message_of, one_line, raised_outcome
from suites.programs import expr
from suites.programs.program import flatten, parts_of, shapes_of

# With no example checked yet, a hypothesis item whose cases are not drawn from a known palette of
# shapes is unsupported as a whole once this many distinct input shapes were refused.
REFUSED_SHAPES_AS_A_WHOLE = 30


def check_case(ctx, case: str, inputs: dict, expect: dict | None = None) -> Outcome:
    """Run one case and judge it against `expect` (from documentation) and the reference; in the
    compiled mode, against the adapter's eager result too (suites/judging/modes.py)."""
    expect = expect or {}
    eagerly = functools.cache(lambda: _checked(ctx.eager, case, inputs, expect))  # run once, where needed
    return modes.against_eager(ctx, _checked(ctx, case, inputs, expect, eagerly), lambda _: eagerly(),
                               entries.find(ctx, case, "value"))


def _checked(ctx, case: str, inputs: dict, expect: dict, eagerly=None) -> Outcome:
    """The case in ctx's mode judged, its documented difference applied; `eagerly()`: the same
    case's eager outcome, read where a compiled or exported run raised (modes.lacking)."""
    raised, actual, actual_dtype, shapes = None, None, None, None
    try:
        actual, actual_dtype, shapes = ctx.run(inputs)
    except Unsupported as exc:
        return Outcome("unsupported", case, message_of(exc))
    except InputChanged as exc:  # a fail whatever the spec documents (an expected error is not this)
        return Outcome("fail", case, str(exc), inputs=inputs)
    except Exception as exc:  # the framework's own error is data here
        raised = exc
    outcome = _judge(ctx, case, inputs, expect, raised, actual, actual_dtype, shapes)
    if outcome.status == "unsupported":  # an error in a dtype the adapter does not declare: nothing to observe
        return outcome
    lacked = modes.lacking_first(ctx, outcome, eagerly)
    if lacked:  # as eagerly: before the entries read its error
        return lacked
    diff = entries.find(ctx, case)
    # a behaviour's model judges against the reference alone: documented values belong to the
    # spec's own op, an expected error does not (a model computes where the framework should refuse)
    refuses = {"raises": True} if expect.get("raises") else {}

    def modelled(judge):  # the case judged against the reference with a behaviour's model in it
        # a behaviour may give its result a dtype of its own (Keras' int32 pad_sequences)
        return _judge(judge, case, inputs, refuses, raised, actual,
                      judge.result_dtype if actual_dtype == judge.behaviour.result_dtype else actual_dtype, shapes)
    if diff and "precision" in diff["observed"]:
        # a result may come back in either dtype (float32 ops mixed with float64 ones promote back)
        outcome = differences.precision(ctx, outcome, diff, lambda judge, narrowed: _judge(
            judge, case, narrowed, refuses if judge.behaviour else expect, raised, actual,
            judge.result_dtype if actual_dtype == ctx.result_dtype else actual_dtype, shapes))
    elif diff and "quantised" in diff["observed"]:
        outcome = differences.quantised(ctx, outcome, diff, lambda judge: _judge(
            judge, case, inputs, expect, raised, actual, actual_dtype, shapes))
    elif diff and "defaults" in diff["observed"]:
        outcome = differences.defaults(ctx, outcome, diff, modelled)
    elif diff:
        outcome = differences.value(outcome, diff, raised, actual, actual_dtype, ctx, shapes,
                                    lambda: _in_reference_shapes(ctx, case, inputs, actual, actual_dtype, shapes))
    if not diff or diff.get("every_spec"):  # an adapter-wide entry leaves the fails it does not explain
        outcome = differences.modelled(ctx, outcome, modelled)
    outcome = differences.under_policy(ctx, outcome, lambda: _judge(
        dataclasses.replace(ctx, policed=False), case, inputs, expect, raised, actual, actual_dtype, shapes))
    if outcome.status in PASSING and case != "hypothesis":
        outcome = _seeded(ctx, inputs, actual, shapes, outcome)
    outcome.actual = actual
    return outcome


def _seeded(ctx, inputs, actual, shapes, outcome) -> Outcome:
    """A sample of a seeded random op (an initializer's `seed`) that passed or is documented,
    drawn twice more: with the same seed, and with the seed plus one (sampling.across_seeds;
    the second sample against the reference's law where the first passed, the documented law
    being the behaviour's). On the named examples only: their large samples tell a shared
    stream, and the generated cases are many."""
    tree = getattr(ctx.program, "tree", None)
    moved = tree and expr.with_option(tree, "seed", lambda seed: seed + 1)
    if actual is None or moved == tree:  # an expected error, or no seed to move
        return outcome
    laws = ctx.oracle_parts(inputs)
    laws = laws if isinstance(laws, tuple) else (laws,)
    if not all(isinstance(law, Law) for law in laws):
        return outcome

    def parts(result):
        values, _, part_shapes = result
        return parts_of(values, part_shapes)
    again, other = ctx.run(inputs), ctx.run(inputs, moved)
    result = sampling.across_seeds(laws if outcome.status == "pass" else None, parts((actual, None, shapes)),
                                   parts(again), parts(other), ctx.result_dtype, other[1], ctx.part_names)
    if not result.ok:
        return Outcome("fail", outcome.case, f"{outcome.message}; but across calls: {result.reason}", result,
                       inputs)
    outcome.message += f"; {result.reason}"
    return outcome


def _in_reference_shapes(ctx, case, inputs, actual, actual_dtype, shapes) -> Outcome | None:
    """A result documented in other shapes judged against the reference with its values laid out
    in the reference's shapes, in order (keepdims dropped, a layer axis squeezed: the values stay
    the reference's); None where the reference has other sizes, draws, or refuses the case (an
    op that raises by design), or has these very shapes (an entry of the reference's own shape
    documents values that are not the reference's: Paddle's bmm with an empty contraction axis
    returns uninitialised memory), where the shapes alone are what can be documented."""
    try:
        reference = ctx.oracle_parts(inputs)
    except Exception:  # noqa: BLE001 - the reference refuses the case: nothing to lay the values out by
        return None
    parts = reference if isinstance(reference, tuple) else (reference,)
    sizes = [int(np.prod(s)) for s in shapes] if shapes is not None else [actual.size]
    if any(isinstance(p, Law) for p in parts) or sizes != [np.size(p) for p in parts]:
        return None
    if (shapes_of(reference) == shapes) if shapes is not None else np.shape(reference) == actual.shape:
        return None
    if shapes is None:
        return _judge(ctx, case, inputs, {}, None, actual.reshape(np.shape(reference)), actual_dtype, None)
    return _judge(ctx, case, inputs, {}, None, actual, actual_dtype, shapes_of(reference))


def _judge(ctx, case, inputs, expect, raised, actual, actual_dtype, shapes) -> Outcome:
    if expect.get("raises"):
        if raised is None:
            return Outcome("fail", case, f"expected an error, but it returned shape {actual.shape}", inputs=inputs)
        lacking = raised_outcome(case, raised, inputs)
        if lacking.status == "unsupported":  # no kernel in an undeclared dtype: not the error documented,
            return lacking  # which this framework's kernel may or may not raise
        return Outcome("pass", case, f"raised as expected: {one_line(raised)}", inputs=inputs)
    if raised is not None:
        return raised_outcome(case, raised, inputs)
    parts_dtype, actual_dtype = actual_dtype, actual_dtype and actual_dtype.split(",")[0]  # values judged in the first
    if "shape" in expect and tuple(expect["shape"]) != actual.shape:
        return Outcome("fail", case, f"shape {actual.shape}, documented {tuple(expect['shape'])}", inputs=inputs)
    if "shapes" in expect and [tuple(s) for s in expect["shapes"]] != shapes:
        documented = _named(ctx, expect["shapes"])
        return Outcome("fail", case, f"shapes {_named(ctx, shapes, actual)}, documented {documented}", inputs=inputs)
    if "value" in expect:
        documented = compare.written(expect["value"], ctx.result_dtype)
        allowed = compare.allowed_error(documented, ctx.result_dtype, tolerance={"atol": expect.get("atol", 0.0)})
        result = compare.compare(documented, actual, ctx.result_dtype, allowed, actual_dtype, signed_zeros=True)
        if not result.ok:
            return Outcome("fail", case, f"differs from the documented value: {result.summary()}", result, inputs)
    try:
        reference, bound, drift = ctx.judged_against(inputs, actual, shapes)
    except Exception as exc:  # a spec whose valid case the reference refuses is a spec bug
        return Outcome("error", case, f"the reference cannot evaluate this case: {one_line(exc)}", inputs=inputs)
    laws = reference if isinstance(reference, tuple) else (reference,)
    if all(isinstance(law, Law) for law in laws):  # a random op's reference: the law of each part it draws
        result = sampling.judged_parts(laws, parts_of(actual, shapes), ctx.result_dtype,
                                       actual_dtype, ctx.part_names)
        return Outcome("pass" if result.ok else "fail", case, result.summary(), result, inputs)
    if isinstance(reference, tuple) and shapes_of(reference) != shapes:  # a comparison of shapes (`differs` reads it)
        mismatch = f"shapes {_named(ctx, shapes, actual)}, expected {_named(ctx, shapes_of(reference))}"
        return Outcome("fail", case, mismatch, compare.Comparison(False, mismatch), inputs)
    # an integer result wraps as its dtype does; a float one overflows to infinity
    expected = compare.overflowed(compare.cast(flatten(reference), ctx.result_dtype), ctx.result_dtype)
    if ctx.spec.unspecified:  # the values are the framework's choice: its shape, dtype and properties are not
        result = compare.layout(expected, actual, ctx.result_dtype, actual_dtype)
    else:
        tolerance = None if ctx.program.tolerance_in_bound else ctx.tolerance
        allowed = compare.allowed_error(expected, ctx.result_dtype, bound, tolerance)
        result = compare.compare(expected, actual, ctx.result_dtype, allowed, actual_dtype)
        if shapes is not None and result.max_abs_err is not None:
            result.parts = _part_errors(ctx, expected, actual, allowed, shapes, drift)
    if shapes is not None and result.worst:
        result.worst = _part_index(ctx, result.worst[0], shapes)
    if not result.ok:
        first = next((p for p in result.parts or () if not p["ok"]), None)
        where = f"first {ctx.program.part_noun} out of its bound: {first['name']}; " if first else ""
        return Outcome("fail", case, f"differs from the float64 reference: {where}{result.summary()}", result, inputs)
    checked = properties.applicable(ctx)
    for name in checked:
        broken = properties.PROPERTIES[name][0](ctx, inputs, parts_of(actual, shapes))
        if broken:
            return Outcome("fail", case, f"the property {name} fails: {broken}", result, inputs)
    if not _parts_dtype_holds(ctx, parts_dtype):  # last: a documented dtype is the only fail it explains
        mismatch = f"dtypes {parts_dtype}, expected {ctx.parts_dtype} ({', '.join(ctx.part_names)})"
        return Outcome("fail", case, mismatch, compare.Comparison(False, mismatch), inputs)
    if ctx.program.equals is not None:
        return _metamorphic(ctx, case, inputs, actual, result)
    summary = result.summary() + (f"; properties hold: {', '.join(checked)}" if checked else "")
    return Outcome("pass", case, summary, result, inputs)


def _parts_dtype_holds(ctx, parts_dtype) -> bool:
    """Whether a result of parts of several dtypes has each part's (Context.parts_dtype). Judged again
    as a documented narrower precision (jax-32's float64 run in 32 bits), its index parts may be the
    32-bit run's int32 too: the precision's cause (the values' dtype is checked before)."""
    expected = ctx.parts_dtype
    if parts_dtype == expected or "," not in f"{parts_dtype}{expected}":
        return True
    return ctx.precision is not None and parts_dtype == expected.replace("int64", "int32")


def _named(ctx, shapes, actual=None) -> str:
    """Part shapes with the parts' names: output (5, 3, 20), h_n (2, 3, 20), ...; where the result is
    one tensor, not a tuple (shapes None), its shape (keras.ops.nonzero on torch stacks its parts)."""
    if shapes is None:
        return f"{np.shape(actual)} (one tensor)"
    return ", ".join(f"{n} {tuple(s)}" for n, s in zip(ctx.part_names or range(len(shapes)), shapes))


def _part_errors(ctx, expected, actual, allowed, shapes, drift) -> list:
    """Per part, in order: its largest errors, the allowed error at its worst element, whether it
    is within its bound, and its drift (Program.judged_against) where the program measures one."""
    out, start = [], 0
    allowed = np.broadcast_to(allowed, np.shape(expected))
    for k, (name, shape) in enumerate(zip(ctx.part_names or range(len(shapes)), shapes)):
        window = slice(start, start + int(np.prod(shape)))
        start = window.stop
        part = compare.compare(expected[window], actual[window], ctx.result_dtype, allowed[window])
        out.append({"name": str(name), "ok": part.ok, "max_abs_err": part.max_abs_err,
                    "max_rel_err": part.max_rel_err, "allowed": part.allowed_at,
                    "drift": None if drift is None else drift[k]})
    return out


def input_shapes(inputs: dict) -> tuple:
    """A case's input shapes and dtypes, by argument: what a refusal (a kernel that cannot take a
    shape) is about."""
    return tuple((name, np.shape(value), str(getattr(value, "dtype", type(value).__name__)))
                 for name, value in sorted(inputs.items()))


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
        other, other_dtype, _ = ctx.run(inputs, ctx.program.equals)
    except Exception as exc:
        return Outcome("error", case, f"the property's `equals` fails: {one_line(exc)}", inputs=inputs)
    allowed = compare.allowed_error(compare.widened(other) if compare.is_inexact(ctx.result_dtype) else other,
                                    ctx.result_dtype, tolerance=ctx.tolerance)
    relation = compare.compare(other, actual, ctx.result_dtype, allowed, other_dtype)
    if not relation.ok:
        return Outcome("fail", case, f"the property {ctx.spec.expression} == {ctx.spec.equals_text} fails: "
                       f"{relation.summary()}", relation, inputs)
    return Outcome("pass", case, result.summary(), result, inputs)


def hypothesis_cases(seed: int, strategy, check, shapes: int | None = None) -> Outcome:
    """Run `check(inputs, seed)` on hypothesis cases; a failure is shrunk and comes back as its
    Outcome; else one pass (with the largest errors seen) or the first documented outcome.

    An example the adapter refuses (Unsupported for these inputs: a shape a kernel cannot take)
    is rejected and hypothesis draws another, so one refused shape does not hide the rest of the
    item; a refusal holds for its input shapes, and a later draw of them is rejected without
    running. With none checked, the item is unsupported as a whole once every one of the `shapes`
    distinct shapes its cases draw from (the spec's palette, suites/programs/palette.py) was
    refused, or REFUSED_SHAPES_AS_A_WHOLE where that is not known. (Three refused examples in a
    row made it unsupported before: with a palette whose first shapes had a vector left operand,
    an adapter refusing only those lost the whole item.)"""
    unsupported, documented, largest = [], [], {}
    refused_shapes = set()
    checked = 0

    @hypothesis.seed(seed)
    @hypothesis.settings(deadline=None, suppress_health_check=list(hypothesis.HealthCheck))
    @hypothesis.given(strategy, st.integers(0, 2**32 - 1))
    def prop(inputs, seed):
        nonlocal checked
        if not checked and len(refused_shapes) >= (shapes or REFUSED_SHAPES_AS_A_WHOLE):
            return
        drawn = input_shapes(inputs)
        if drawn in refused_shapes:
            hypothesis.reject()
        outcome = check(inputs, seed)
        if outcome.status == "unsupported":
            unsupported.append(outcome)
            refused_shapes.add(drawn)
            hypothesis.reject()
        checked += 1
        if outcome.status not in PASSING:
            raise CaseFailure(outcome)
        if outcome.status == "documented" and not documented:
            documented.append(outcome)
        for name in ("max_abs_err", "max_rel_err", "ulp"):
            value = getattr(outcome.comparison, name, None)
            if value is not None:
                largest[name] = max(largest.get(name, 0.0), value)

    try:
        prop()
    except CaseFailure as failure:
        return failure.outcome
    except hypothesis.errors.FlakyFailure as flaky:  # failed once, passed when hypothesis ran it again
        failure = next((e for e in flaky.exceptions if isinstance(e, CaseFailure)), None)
        if failure is None:  # an example accepted once and rejected when replayed: the check's own answers changed
            return Outcome("error", "hypothesis", f"the generated cases are not repeatable: {one_line(flaky)} "
                           f"({'; '.join(one_line(e) for e in flaky.exceptions)}); {len(unsupported)} refused as "
                           f"unsupported, {checked} checked")
        failure.outcome.flaky = True  # the item reruns it in fresh processes (suites/running/items.py)
        return failure.outcome
    except hypothesis.errors.Unsatisfiable:  # a small input space, every example of it refused
        pass
    if not checked and unsupported:
        return unsupported[0]
    if not checked:  # no input could be drawn at all: a spec whose rules hypothesis cannot satisfy
        return Outcome("error", "hypothesis", "no generated case was drawn: hypothesis found no input that the spec's "
                       "shapes and input rules allow (a unique rule over more elements than its range, "
                       "or more than hypothesis' buffer holds)")
    if documented:  # some generated inputs meet the spec's documented difference: say so
        return documented[0]
    errors = " ".join(f"{k}={v:.3g}" for k, v in largest.items())
    refused = (f"; {len(unsupported)} shapes refused as unsupported ({unsupported[0].message})"
               if unsupported else "")
    return Outcome("pass", "hypothesis", f"{checked} examples" + (f"; largest {errors}" if errors else "") + refused,
                   compare.Comparison(True, **largest))

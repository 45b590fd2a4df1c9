"""Documented differences: where a framework is known to differ, and whether it still does.

A difference (a spec's `differences` entry, or one an adapter ships beside its file) names an
adapter, optionally a case, dtypes, device, mode and kind of check, what the framework does instead
(`observed`), a note and a source. A mismatch becomes "documented" only while the framework does
exactly what is documented; a framework that behaves neither as expected nor as documented
fails, and one that no longer differs fails too, so that the entry is removed. Which entry holds
for a check: suites/judging/entries.py.
"""
import inspect
import re
from dataclasses import replace

import numpy as np

from adapters import behaviours
from adapters.reference.initializers import Law
from suites.judging import compare, properties
from suites.judging.entries import regime
from suites.judging.outcome import NoGradient, Outcome, message_of, one_line
from suites.programs.program import joined_dtype, parts_of


def modelled(ctx, outcome, judge) -> Outcome:
    """A fail that one of the adapter's documented behaviours (adapters/behaviours.py) explains:
    `judge(ctx)` judges the case again with the reference computing the behaviour's op by its
    model; documented when that passes, the fail as it was otherwise. An error too: a reverse
    pass given a cotangent of the reference's shape may raise where the model's shape fits."""
    if outcome.status not in ("fail", "error"):
        return outcome
    for behaviour in ctx.adapter.behaviours:
        if behaviour.applies(ctx) and not behaviour.autocast:  # a policy is no model (under_policy)
            again = judge(replace(ctx, behaviour=behaviour))
            if again.status == "pass":
                return as_documented(outcome, {"note": behaviour.note, "source": behaviour.source,
                                             "regime": behaviour.regime,
                                             **({"mode": behaviour.mode} if behaviour.mode else {})},
                                   f"{outcome.message}; as the model of {behaviour.op} computes: {again.message}")
    return outcome


def under_policy(ctx, outcome, as_autocast) -> Outcome:
    """An outcome of the mixed mode judged by the adapter's documented policy (Context.policy): a
    pass is documented by it where judged as torch.autocast computes (`as_autocast()`, the same
    result) it would not pass, and stays a pass where both hold (the case does not tell them apart:
    a framework that comes to compute as torch.autocast does then shows as a pass, never as the
    policy); a documented outcome names it too, a fail says what it assumed."""
    policy = ctx.policy
    if policy is None or outcome.status == "unsupported":
        return outcome
    if outcome.status == "pass":
        if as_autocast().status == "pass":
            outcome.message += (f" (as torch.autocast computes too: the documented policy, {policy.op} in "
                                f"{policy.autocast}, does not show in this case)")
            return outcome
        return as_documented(outcome, {"note": policy.note, "source": policy.source, "regime": policy.regime,
                                     "mode": policy.mode}, f"judged as the policy computes: {outcome.message}")
    outcome.message = (f"{outcome.message}; judged as {policy.note} (the policy computes {policy.op} in "
                       f"{policy.autocast}; source: {policy.source})")
    return outcome


def crashed(case: str, diff: dict, outcome, died: str | None) -> Outcome:
    """A case documented to kill its process, run in one of its own (suites/faults.isolated):
    documented while the process dies; once it returns, a fail whatever its outcome, so that the
    entry is removed (and the case is judged in the item's own process again). Generated cases
    (case: hypothesis) kill it on some draws only, and an entry that lists the crash as one of its
    behaviours (one_of) on some runs only: where it lives, the outcome (judged against the
    entry's other behaviours, `find`) stands."""
    if died:
        return as_documented(Outcome("fail", case, ""), diff, f"the process died with {died}" if died.isupper()
                           else f"the process died: {died}")
    if case == "hypothesis" or diff["observed"].get("one_of"):
        return outcome
    return Outcome("fail", case, f"documented crash no longer observed: the process now returns "
                   f"({outcome.status}: {outcome.message}); remove it from the spec ({diff['note']})",
                   outcome.comparison, outcome.inputs)


def as_documented(outcome, diff, seen: str) -> Outcome:
    """The outcome as documented: the spec's note, what was seen, the source."""
    return Outcome("documented", outcome.case, f"{diff['note']} (observed: {seen}; source: {diff['source']})",
                   outcome.comparison, outcome.inputs,
                   difference={"note": diff["note"], "source": diff["source"], "regime": regime(diff),
                               **({"mode": diff["mode"]} if "mode" in diff else {})})


def _neither(outcome, diff, detail: str, comparison=None) -> Outcome:
    """A fail: the framework behaves neither as the reference nor as the spec documents. An
    adapter-wide entry (every_spec) that does not explain a fail leaves it as it was."""
    if diff.get("every_spec"):
        return outcome
    return Outcome("fail", outcome.case, f"behaves neither as expected nor as documented ({diff['note']}); {detail}",
                   comparison or outcome.comparison, outcome.inputs)


def _no_longer_observed(outcome, diff, what: str) -> Outcome:
    return Outcome("fail", outcome.case, f"documented difference no longer observed: the {what} now matches; "
                   f"remove it from the spec ({diff['note']})", outcome.comparison, outcome.inputs)


def alternatives(judge):
    """`judge(outcome, diff, ...)` for an `observed` that lists behaviours under `one_of` (the one
    a machine shows depends on it, e.g. on its CPU's kernels): documented when one of them holds,
    a pass kept where one alternative is `as_expected` or `differs` (wrong on some generated
    inputs, the rest passing). A pass is kept too for an adapter-wide entry (every_spec), which
    explains fails only."""
    def judged(outcome, diff, *args):
        if outcome.status == "pass" and diff.get("every_spec"):
            return outcome
        options = diff["observed"].get("one_of")
        if not options:
            return judge(outcome, diff, *args)
        if outcome.status == "pass" and any(o.get("as_expected") or o.get("differs") for o in options):
            return outcome
        tried = [judge(outcome, {**diff, "observed": o}, *args) for o in options if o != {"as_expected": True}]
        return next((t for t in tried if t.status == "documented"), tried[-1])
    return judged


@alternatives
def value(outcome, diff, raised, actual, actual_dtype, ctx, shapes=None, in_reference_shapes=None) -> Outcome:
    """documented while the framework does what the spec says it does; a fail otherwise.
    `shapes`: the parts' shapes of an op that returns several tensors. A documented shape (or
    parts' shapes) without documented values holds while the values are the reference's, laid
    out in the reference's shapes (`in_reference_shapes()`: that judgment, None where the sizes
    differ or the reference refuses the case)."""
    observed = _with_parts_dtype(ctx, diff["observed"])
    if observed.get("differs"):  # wrong values on some generated inputs: the rest must still pass
        if outcome.status == "pass":
            return outcome
        if raised is None and "dtype" in observed:  # and in another dtype, every time
            if observed["dtype"] == actual_dtype:
                return as_documented(outcome, diff, f"{returned(actual)} as {actual_dtype}")
            return _neither(outcome, diff, outcome.message)
        # values, NaN or inf positions, the shape or a property that differ (neither an error nor a
        # dtype alone; a property is all that a spec of unspecified values checks: scatter-duplicates)
        compared = outcome.comparison
        if raised is None and compared is not None and (compared.worst is not None or compared.reason.startswith(
                ("shape ", "shapes ")) or outcome.message.startswith("the property ")):  # shapes: of several parts
            return as_documented(outcome, diff, outcome.message)
        return _neither(outcome, diff, outcome.message)
    if outcome.status == "pass":
        return _no_longer_observed(outcome, diff, "result")
    if observed.get("raises"):
        holds, now = as_noted(diff, raised), one_line(raised) if raised is not None else returned(actual)
    elif raised is not None:
        holds, now = False, one_line(raised)
    elif "dtype" in observed and not {"value", "shape", "shapes"} & set(observed):  # right values, another dtype
        # parts of several dtypes (unique_counts'): the judge checks their dtypes after their values and properties
        parts = outcome.message.startswith("dtypes ")
        holds = observed["dtype"] == actual_dtype and (
            parts or _converted(ctx, outcome.inputs, actual, actual_dtype, shapes))
        now = f"{returned(actual)} as {actual_dtype}"
    else:
        holds = ("shape" not in observed or tuple(observed["shape"]) == actual.shape) and \
            ("shapes" not in observed or [tuple(p) for p in observed["shapes"]] == shapes) and \
            observed.get("dtype", actual_dtype) == actual_dtype
        if holds and "value" in observed:  # in the dtype it was observed in (65536 is no uint16)
            shown = observed.get("dtype", ctx.result_dtype)
            documented = compare.written(observed["value"], shown)
            allowed = compare.allowed_error(documented, shown, tolerance={"atol": observed.get("atol", 0.0)})
            holds = compare.compare(documented, actual, shown, allowed, signed_zeros=True).ok
        now = returned(actual) + (f" in parts of shapes {shapes}" if shapes else "")
        if holds and "value" not in observed and in_reference_shapes is not None:
            again = in_reference_shapes()
            if again is not None and again.status != "pass":
                holds, now = False, f"{now}, laid out in the reference's shapes: {again.message}"
    return as_documented(outcome, diff, now) if holds else _neither(outcome, diff, f"now: {now}; {outcome.message}")


@alternatives
def repeat(outcome, diff, raised=None) -> Outcome:
    """A repeat condition's outcome (suites/running/repeat.py) with what the spec documents for
    it: `differs` (not bitwise repeatable) or `raises` (the determinism switch refuses). Once the
    result repeats, a fail, so that the entry is removed; `one_of: [{as_expected: true},
    {differs: true}]` documents a result that repeats on some runs only."""
    observed = diff["observed"]
    if outcome.status == "pass":
        return Outcome("fail", outcome.case, "documented difference no longer observed: the result is now bitwise "
                       f"repeatable ({outcome.message}); remove it from the spec ({diff['note']})")
    if observed.get("raises"):
        holds = raised is not None and as_noted(diff, raised)
    else:
        holds = bool(observed.get("differs")) and raised is None
    return as_documented(outcome, diff, outcome.message) if holds else _neither(outcome, diff, outcome.message)


def defaults(ctx, outcome, diff, judge) -> Outcome:
    """documented while the framework computes the spec's call with its own defaults filled in
    where the spec leaves them out (observed `defaults`), as the reference computes it then:
    a framework's default pinned on a case it shows in, so that an adapter that fills in
    Parity's convention instead (the result then matches the reference) fails. `judge(ctx)`
    judges the case again with the context given."""
    if outcome.status == "pass":
        return _no_longer_observed(outcome, diff, "result")
    filled = diff["observed"]["defaults"]
    for op in sorted(ctx.program.ops()):
        if _takes(op, filled):
            default = behaviours.framework_default(op, filled, diff["note"], diff["source"])
            again = judge(replace(ctx, behaviour=default))
            if again.status == "pass":
                return as_documented(outcome, diff, f"{outcome.message}; with {op}'s {filled}: {again.message}")
    return _neither(outcome, diff, outcome.message)


def _takes(op: str, params: dict) -> bool:
    """Whether the reference's op (a collective: any) takes these parameters."""
    reference = getattr(behaviours.REFERENCE, op, None)
    return reference is None or set(params) <= set(inspect.signature(reference).parameters)


@alternatives
def gradient(outcome, diff, ctx, grads, raised=None) -> Outcome:
    """documented while the gradient is what the spec says this framework computes (values, or
    an error; or, for generated inputs, wrong values on some of them while the rest pass)."""
    observed = diff["observed"]
    differs = observed.get("differs")  # wrong gradients on some generated inputs: the rest must still pass
    if outcome.status == "pass":
        return outcome if differs else _no_longer_observed(outcome, diff, "gradient")
    if differs and outcome.status == "fail":
        return as_documented(outcome, diff, outcome.message)
    now = None
    if "no_gradient" in observed:  # None for exactly these args
        if isinstance(raised, NoGradient) and sorted(raised.names) == sorted(observed["no_gradient"]):
            now = str(raised)
    elif observed.get("raises") and as_noted(diff, raised) and not isinstance(raised, NoGradient):
        now = one_line(raised)
    elif "grad" in observed and grads is not None and match_gradients(ctx, grads, observed["grad"],
                                                                      observed.get("atol", 0.0)).ok:
        now = ", ".join(f"d/d{n} = {np.asarray(grads[n]).tolist()}" for n in observed["grad"])
    return as_documented(outcome, diff, now) if now is not None else _neither(outcome, diff, outcome.message)


def as_noted(diff: dict, raised: BaseException | None) -> bool:
    """Whether `raised` is an error the note names, when it names any (a word ending in Error or
    Exception): the note's claim, checked. It holds for the error's class or one of its bases,
    an error it was raised from, or one its message names (inductor wraps the error it met)."""
    if raised is None:
        return False
    named = set(re.findall(r"\b[A-Z]\w*(?:Error|Exception)\b", diff.get("note", "")))
    seen, chain, error = set(), [], raised
    while error is not None and error not in chain:  # a chain may loop back
        chain.append(error)
        seen |= {cls.__name__ for cls in type(error).__mro__} | set(re.findall(r"\b\w+\b", message_of(error)))
        error = error.__cause__ or error.__context__
    return not named or bool(named & seen)


def _with_parts_dtype(ctx, observed: dict) -> dict:
    """An observed dtype of parts written with "{dtype}" for the dtype under test (unique_counts' int32
    counts in every dtype a spec runs: "{dtype},int32") as run() reports it (program.joined_dtype)."""
    dtype = observed.get("dtype")
    if dtype is None or "{dtype}" not in dtype:
        return observed
    return {**observed, "dtype": joined_dtype(dtype.replace("{dtype}", ctx.result_dtype).split(","))}


def _converted(ctx, inputs: dict, actual, dtype: str, shapes=None) -> bool:
    """Whether `actual` is the reference's result in `dtype`: converted as a C cast converts
    (integers wrap around, floats truncate toward zero: tf.reduce_sum of int8 is int8), or, for
    a float dtype, computed from the float inputs rounded to it, within its own precision
    (torch's bfloat16 + 0-d float32 first rounds the float32 operand to bfloat16)."""
    if compare.is_float(dtype):
        inputs = _rounded(inputs, dtype)
    expected = compare.cast(ctx.oracle(inputs), dtype)
    if ctx.spec.unspecified:  # the values are the framework's to place: its shape and the spec's properties
        parts = parts_of(actual, shapes)
        return compare.layout(expected, actual, dtype).ok and not any(
            properties.PROPERTIES[name][0](ctx, inputs, parts) for name in properties.applicable(ctx))
    return compare.compare(expected, actual, dtype, compare.allowed_error(expected, dtype, tolerance=ctx.tolerance)).ok


def match_gradients(ctx, grads: dict, expected: dict, atol: float = 0.0) -> compare.Comparison:
    """Gradients against documented values (from docs, or observed), the worst comparison."""
    results = []
    for name, values in expected.items():
        documented = compare.round_to(np.asarray(values, dtype=np.float64), ctx.judged)
        allowed = compare.allowed_error(documented, ctx.judged, tolerance={"atol": atol})
        results.append(compare.compare(documented, grads[name], ctx.judged, allowed))
    return compare.worst(results)


def precision(ctx, outcome, diff, judge) -> Outcome:
    """documented while the result misses the dtype's error bound but holds to the documented
    precision's: judged again as a result of that dtype, computed from the inputs rounded to it
    (the framework's first step), so float32's own bound applies. Beyond that precision's range
    (inputs, result, or the failing element's exact value: a gradient's), computing in it
    overflows: that is the documented behaviour too. A pass
    stays a pass: on inputs that the narrower dtype holds exactly, both give the same result.

    `judge(ctx, inputs)` judges the framework's result with a context and the inputs given."""
    narrow = diff["observed"]["precision"]
    if outcome.status == "pass":
        return outcome
    if outcome.status == "fail" and (_beyond_range(ctx, outcome.inputs, narrow) or fails_past_range(outcome, narrow)):
        seen = f"inputs, result or gradient beyond {narrow}'s range, where it overflows; {outcome.message}"
    else:
        rounded = _rounded(outcome.inputs, narrow)
        again, model = judge(replace(ctx, precision=narrow), rounded), ""
        # in that precision, one of the adapter's documented behaviours may hold too (JAX's
        # float32 softmax and its mean of V on a fully masked query)
        for behaviour in ctx.adapter.behaviours if again.status != "pass" else ():
            if behaviour.applies(ctx):
                modelled_again = judge(replace(ctx, precision=narrow, behaviour=behaviour), rounded)
                if modelled_again.status == "pass":
                    again, model = modelled_again, f" with the model of {behaviour.op} ({behaviour.note})"
                    break
        if again.status != "pass":
            return _neither(outcome, diff, f"as {narrow}: {again.message}", again.comparison)
        seen = f"{outcome.message}; as {narrow}{model}: {again.message}"
        _as_judged_again(outcome, again)
    return as_documented(outcome, diff, seen)


def quantised(ctx, outcome, diff, judge) -> Outcome:
    """documented while the result misses the dtype's error bound but holds to the quantisation's
    (observed `quantised: int8`, a runtime's dynamic-range quantisation): a model's layers that
    read weights judged with their operands moved by int8's steps (compare.quantisation_steps).
    A pass stays a pass. `judge(ctx)` judges the result again with the context given."""
    if outcome.status == "pass":
        return outcome
    scheme = diff["observed"]["quantised"]
    again = judge(replace(ctx, quantised=scheme))
    if again.status != "pass":
        return _neither(outcome, diff, f"as quantised to {scheme}: {again.message}", again.comparison)
    _as_judged_again(outcome, again)
    return as_documented(outcome, diff, f"{outcome.message}; as quantised to {scheme}: {again.message}")


def _as_judged_again(outcome, again) -> None:
    """A model's layers as the documented difference judges them, and the bound that holds
    there (what compiled or exported is judged against eager by)."""
    if outcome.comparison is not None and again.comparison is not None:
        outcome.comparison.parts = again.comparison.parts
        outcome.comparison.allowed = again.comparison.allowed


def _rounded(inputs: dict, dtype: str) -> dict:
    """The float inputs rounded to `dtype` (kept in their dtype); the others as they are."""
    return {k: compare.round_to(v, dtype).astype(v.dtype) if v.dtype.kind == "f" else v
            for k, v in ((k, np.asarray(v)) for k, v in inputs.items())}


def _beyond_range(ctx, inputs: dict, dtype: str) -> bool:
    """Whether a float input or the reference result lies beyond `dtype`'s finite range (the
    inputs alone where the reference refuses the case: a case documented to raise)."""
    top = np.finfo(np.dtype(dtype)).max
    values = [np.asarray(v, dtype=np.float64) for v in inputs.values() if np.asarray(v).dtype.kind == "f"]
    try:
        reference = ctx.oracle_parts(inputs)
    except Exception:  # noqa: BLE001 - the reference refuses the case: no result to weigh
        reference = ()
    # a law's draws are the framework's, in the dtype it computes in
    values += [np.asarray(part, dtype=np.float64) for part in (reference if isinstance(reference, tuple) else
                                                                (reference,)) if not isinstance(part, Law)]
    return any(np.any(np.abs(v[np.isfinite(v)]) > top) for v in values)


def fails_past_range(outcome, dtype: str) -> bool:
    """Whether the element a failure names has an exact value beyond `dtype`'s finite range: a gradient
    past it (inv's at 4.7e-38 is about 1e75, whose float32 reverse pass overflows to infinities, and a
    directional check's sum of infinities of both signs is NaN) overflows in that dtype as a value does."""
    expected = getattr(outcome.comparison, "expected_at", None)
    return isinstance(expected, float) and np.isfinite(expected) and abs(expected) > np.finfo(np.dtype(dtype)).max


def returned(actual) -> str:
    """What a framework returned, for a documented difference: the values when they are few."""
    return f"returned {actual.tolist()}" if actual.size <= 16 else f"returned shape {actual.shape}"

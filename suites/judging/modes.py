"""A compiled or exported result against the same adapter's eager one.

In the compiled mode every check runs twice on the same inputs: compiled (judged against the
documentation and the float64 reference as the eager mode is) and eager. The two results must
agree within the compiled result's own allowed error, the bound it was judged by: a fusion that
changes rounding within the bound passes; a compiler that changes values beyond it fails, even
where the reference check alone would let both pass. The record keeps the eager outcome beside
the compiled one (`eager`: its status and the distance), so the report lists what the compiler
alone changes. Where the framework is documented to compute the dtype in a narrower precision
(JAX's float64 attention takes its softmax in float32), compiled and eager round in that
precision, and may differ by its rounding even where both pass the dtype's bound (a gradient's
finite-difference bound is loose enough): they agree within that precision's few ulp too.
Where the mode itself is documented to compute otherwise on generated inputs (observed `differs`
for that mode: torch's ONNX export of logaddexp is Log(Exp + Exp)), its result may part from the
eager one beyond the bound while each stays within the reference's: documented, as the entry says.
The exported mode is judged the same way: the runtime's result against the eager one. Where a
spec leaves the values to the framework (its `unspecified`: which of several scatter writes to one
index lands), eager and compiled may each choose, and only their shapes must agree.
"""
import numpy as np

from reports.records import AGAINST_EAGER, PASSING
from suites.judging import compare, differences
from suites.judging.outcome import Outcome


def against_eager(ctx, outcome: Outcome, check, documented: dict | None = None) -> Outcome:
    """`outcome` of a check in ctx's mode; in the compiled and exported modes judged against
    `check(eager ctx)`, the same check run eagerly. `documented`: the documented difference for
    this case and kind of check (entries.find), whose observed `precision` (the framework computes
    in it) widens the agreement, and whose `differs` in this mode explains a disagreement. Eager
    outcomes come back as they are."""
    if ctx.mode not in AGAINST_EAGER or outcome.status == "unsupported":
        return outcome
    eager = check(ctx.eager)
    lacked = lacking(ctx, outcome, eager)
    if lacked:
        return lacked
    outcome.eager = {"status": eager.status, "message": eager.message}
    if outcome.status not in PASSING:
        if eager.status in PASSING:
            outcome.message = f"{ctx.mode} only (eager {eager.status}): {outcome.message}"
        return outcome
    if outcome.difference and outcome.difference.get("mode") == ctx.mode:
        return outcome  # a documented difference of this mode alone: eager differs from it by definition
    if eager.status == "documented":  # eager differs as documented (torch's gelu(inf) on oneDNN): compiled,
        return outcome  # judged by the reference and the documentation, need not differ the same way
    if eager.actual is None or outcome.actual is None:
        return outcome
    observed = (documented or {}).get("observed", {})
    agreement = _agreement(ctx, eager.actual, outcome.actual, outcome.comparison, observed.get("precision"))
    outcome.eager["max_abs_err"] = agreement.max_abs_err
    if agreement.ok:
        return outcome
    parted = Outcome("fail", outcome.case, f"{ctx.mode} and eager differ beyond the bound ({eager.status} eager): "
                     f"{agreement.summary()}", agreement, outcome.inputs, outcome.actual, eager=outcome.eager)
    if observed.get("differs") and documented.get("mode") == ctx.mode:
        explained = differences.as_documented(parted, documented, parted.message)
        explained.actual, explained.eager = parted.actual, parted.eager
        return explained
    return parted


def lacking(ctx, outcome: Outcome, eager: Outcome) -> Outcome | None:
    """Unsupported where a compiled or exported error meets an `eager` outcome that is: the
    framework lacks the kernel in this dtype, and a compiler that meets it while tracing (dynamo's
    fake tensors) or lowering (XLA's LAPACK calls) raises its own error, outside the op's call and
    naming no op. None otherwise. Judged before any documented difference reads the error (an
    entry of the generated cases' values must not turn a lacking kernel into a fail)."""
    if outcome.status != "error" or eager.status != "unsupported":
        return None
    return Outcome("unsupported", outcome.case, f"{eager.message} (eagerly; {ctx.mode}: {outcome.message})",
                   inputs=outcome.inputs)


def lacking_first(ctx, outcome: Outcome, eagerly) -> Outcome | None:
    """lacking(), where ctx's mode is judged against eager and `outcome` is an error, with the
    case's eager outcome from `eagerly()` (run only then, once: functools.cache), before any
    documented difference reads the error (judge._checked, gradcheck)."""
    if ctx.mode not in AGAINST_EAGER or outcome.status != "error" or eagerly is None:
        return None
    return lacking(ctx, outcome, eagerly())


def _agreement(ctx, eager, compiled, comparison, precision=None) -> compare.Comparison:
    """compiled against eager within the allowed error of the compiled result's own check (its
    largest, where that check compared something of another shape: a gradient's directions), and
    within a few ulp of the documented `precision` where the framework computes in one; never
    within less than one ulp of the dtype."""
    eager, compiled = np.asarray(eager), np.asarray(compiled)
    if eager.shape != compiled.shape:
        return compare.Comparison(False, f"shapes differ: eager {eager.shape}, compiled {compiled.shape}")
    if ctx.spec.unspecified:  # each mode's choice was judged by the spec's properties already
        return compare.Comparison(True)
    if not compare.is_inexact(ctx.result_dtype) or compiled.dtype.kind not in "fc":
        return compare.compare(eager, compiled, compiled.dtype.name)  # exact
    # the judged dtype in the result's kind: a complex input's float result (its real part) by its components' dtype
    judged = ctx.judged if compare.is_complex(ctx.result_dtype) else compare.COMPONENT.get(ctx.judged, ctx.judged)
    allowed = getattr(comparison, "allowed", None)
    if allowed is None:  # a check with no bound of its own (documented values): a few ulp
        allowed = compare.allowed_error(compare.widened(eager), judged, tolerance=ctx.tolerance)
    elif np.shape(allowed) != eager.shape:
        allowed = float(np.max(allowed, initial=0.0))
    if ctx.program.tolerance_in_bound:
        # a model's layers are each judged on the mode's own earlier activations, which eager and
        # compiled round apart: what the earlier layers carried may part them by the spec's
        # tolerance, the allowance its layers without a bound of their own have
        allowed = compare.allowed_error(compare.widened(eager), judged, allowed, ctx.tolerance)
    if precision is not None:
        allowed = np.maximum(allowed, compare.allowed_error(compare.widened(eager), precision,
                                                            tolerance=ctx.tolerance))
    # never under one ulp of the result's dtype (a cast's, where the input's is judged): where the
    # bound is narrower than its spacing, eager and compiled may be the two neighbours of the
    # exact value, each within the bound of it
    allowed = np.maximum(allowed, compare.ulp(compare.widened(eager), ctx.result_dtype))
    # in the result's dtype where the judged one is not a float (int64's true division: float64)
    return compare.compare(compare.widened(eager), compiled, judged if compare.is_inexact(judged) else ctx.result_dtype,
                           allowed)

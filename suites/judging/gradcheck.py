"""Judging gradients: the adapter's reverse pass against central finite differences of the
float64 reference (suites/judging/gradients.py), or against documented values.

Small cases compare the whole Jacobian (one reverse pass per output element); larger ones
<vjp(c), v> against the directional difference along a random v. The allowed error is the
judged dtype's gamma_n times the derivative's magnitude for sum-product programs, a few ulp
norm-wise for the rest, plus the difference quotient's own estimated error.
"""
import functools

import numpy as np

from adapters.base import Unsupported
from suites.judging import compare, differences, entries, gradients, modes
from suites.judging.outcome import NoGradient, Outcome, message_of, raised_outcome
from suites.programs.program import widen


def check_gradient(ctx, case: str, inputs: dict, rng: np.random.Generator, per_input: bool | None = None) -> Outcome:
    """The adapter's reverse-mode gradient against central finite differences of the reference;
    `per_input` (default: the program's per_input_gradients) judges each input's gradient along a
    direction of its own, so that a wrong one is named (a model's parameters). In the compiled
    mode, against the eager gradient along the same directions too (suites/judging/modes.py)."""
    state = rng.bit_generator.state
    eagerly = functools.cache(lambda: _gradient_outcome(ctx.eager, case, inputs, _restored(rng, state), per_input))
    outcome = _gradient_outcome(ctx, case, inputs, rng, per_input, eagerly)
    return modes.against_eager(ctx, outcome, lambda _: eagerly(), entries.find(ctx, case, "gradient"))


def _gradient_outcome(ctx, case, inputs, rng, per_input, eagerly=None) -> Outcome:
    """The gradient in ctx's mode judged, its documented difference applied; `eagerly()`: the same
    gradient's eager outcome, read where a compiled or exported reverse pass raised (modes.lacking,
    before the entries read its error, as judge._checked does for values)."""
    state = rng.bit_generator.state
    per_input = getattr(ctx.program, "per_input_gradients", False) if per_input is None else per_input
    diff = entries.find(ctx, case, "gradient")
    outcome = _finite_difference_check(ctx, case, inputs, rng, per_input)
    lacked = modes.lacking_first(ctx, outcome, eagerly)
    if lacked:
        return lacked
    if not diff or diff.get("every_spec") and "precision" not in diff["observed"]:
        # an adapter-wide entry other than a precision explains no gradient: the behaviours may
        return differences.modelled(ctx, outcome, lambda judge: _finite_difference_check(
            judge, case, inputs, _restored(rng, state), per_input))
    if outcome.status == "unsupported":
        return outcome
    if "precision" in diff["observed"]:
        return differences.precision(ctx, outcome, diff, lambda judge, narrowed: _finite_difference_check(
            judge, case, narrowed, _restored(rng, state), per_input))
    return differences.gradient(outcome, diff, ctx, None, outcome.raised)


def check_documented_gradient(ctx, case: str, inputs: dict, documented: dict) -> Outcome:
    """The adapter's gradient against documented values (docs, or a convention at a point where
    the derivative does not exist), for the cotangent given (default: ones); in the compiled
    mode, against the eager gradient too."""
    eagerly = functools.cache(lambda: _documented_gradient(ctx.eager, case, inputs, documented))
    return modes.against_eager(ctx, _documented_gradient(ctx, case, inputs, documented, eagerly),
                               lambda _: eagerly())


def _documented_gradient(ctx, case: str, inputs: dict, documented: dict, eagerly=None) -> Outcome:
    wrt = ctx.spec.wrt
    out = np.asarray(ctx.oracle(inputs))
    cotangent = np.broadcast_to(np.asarray(documented.get("cotangent", 1.0), dtype=np.float64), out.shape)
    diff = entries.find(ctx, case, "gradient")
    try:
        grads = ctx.program.pullback(ctx, ctx.tensors(inputs), wrt)(compare.round_to(cotangent, ctx.dtype))
    except Unsupported as exc:
        return Outcome("unsupported", case, message_of(exc))
    except NoGradient as exc:
        outcome = _no_gradient(case, exc, inputs, f"documented: {documented['expect']}")
        return differences.gradient(outcome, diff, ctx, None, exc) if diff else outcome
    except Exception as exc:
        outcome = raised_outcome(case, exc, inputs)
        lacked = modes.lacking_first(ctx, outcome, eagerly)
        return lacked or (differences.gradient(outcome, diff, ctx, None, exc)
                          if diff and outcome.status != "unsupported" else outcome)
    actual = np.concatenate([np.ravel(grads[n]) for n in wrt])

    def judge(judge_ctx, _inputs=None):
        result = differences.match_gradients(judge_ctx, grads, documented["expect"], documented.get("atol", 0.0))
        return (Outcome("pass", case, result.summary(), result, inputs, actual) if result.ok else
                Outcome("fail", case, f"gradient differs from the documented value: {result.summary()}", result,
                        inputs, actual))

    outcome = judge(ctx)
    if diff and "precision" in diff["observed"]:
        return differences.precision(ctx, outcome, diff, judge)
    return differences.gradient(outcome, diff, ctx, grads) if diff else outcome


def _finite_difference_check(ctx, case, inputs, rng, per_input=False) -> Outcome:
    wrt = ctx.spec.wrt
    wide = {k: widen(v) for k, v in inputs.items()}
    out = np.asarray(ctx.oracle(inputs))
    size_in = sum(inputs[n].size for n in wrt)
    f = ctx.fixed_oracle(inputs)
    try:
        tensors = ctx.tensors(inputs)
        if size_in * max(out.size, 1) <= gradients.FULL_JACOBIAN_LIMIT:
            result, actual = _full_jacobian(ctx, f, tensors, wide, wrt, out)
        elif per_input:
            result, actual = _each_direction(ctx, f, tensors, wide, wrt, out, rng)
        else:
            result, actual = _random_direction(ctx, f, tensors, wide, wrt, out, rng)
    except Unsupported as exc:
        return Outcome("unsupported", case, message_of(exc))
    except NoGradient as exc:
        largest = {n: float(np.abs(gradients.jacobian(f, wide, n)[0]).max(initial=0)) for n in exc.names}
        return _no_gradient(case, exc, inputs, "by finite differences of the reference: " + ", ".join(
            f"max |d/d{n}| = {v:.3g}" for n, v in largest.items()))
    except Exception as exc:
        return raised_outcome(case, exc, inputs)
    if not result.ok:
        return Outcome("fail", case, f"gradient differs from finite differences: {result.summary()}", result, inputs,
                       actual)
    return Outcome("pass", case, result.summary(), result, inputs, actual)


def _no_gradient(case, exc, inputs, expected: str) -> Outcome:
    """A fail that says the framework returned no gradient, and what the gradient is."""
    return Outcome("fail", case, f"{exc} ({expected})", inputs=inputs, raised=exc)


def _restored(rng: np.random.Generator, state: dict) -> np.random.Generator:
    """A generator at an earlier state of `rng`: the same random directions for a second judgement."""
    again = np.random.Generator(type(rng.bit_generator)())
    again.bit_generator.state = state
    return again


def _full_jacobian(ctx, f, tensors, wide, wrt, out):
    """Every row of the Jacobian by one reverse pass per output element: the comparison, and the
    adapter's Jacobian (flat, for comparing frameworks with each other)."""
    rows = {n: [] for n in wrt}
    vjp = ctx.program.pullback(ctx, tensors, wrt)
    if not out.size:  # no output element, so no row: the framework's reverse pass still runs, and gives zeros
        grads = vjp(np.zeros(out.shape))
        results = [_named(compare.compare(np.zeros(wide[n].shape), np.asarray(grads[n], dtype=np.float64), ctx.judged,
                                          np.zeros(wide[n].shape)), n) for n in wrt]
        return _worst(results), np.concatenate([np.ravel(grads[n]) for n in wrt])
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
        expected = _past_range(expected, allowed, ctx.judged)
        results.append(_named(compare.compare(expected, actual, ctx.judged, allowed), n))
    return _worst(results), np.concatenate([np.ravel(rows[n]) for n in wrt])


def _past_range(expected, allowed, dtype: str):
    """expected, with an infinity of its sign where every value within `allowed` of it rounds to
    one in dtype: a derivative past the dtype's range (d(1/a)/da = -4.5e74 at a = 4.7e-38),
    which a framework computing in dtype returns as that infinity. (The random-direction check
    sums the derivative along a direction first, so an element past the range is not seen there.)"""
    low = np.abs(expected) - allowed
    beyond = (low > 0) & np.isinf(compare.round_to(np.where(low > 0, low, 0.0), dtype))
    return np.where(beyond, np.sign(expected) * np.inf, expected)


def _random_direction(ctx, f, tensors, wide, wrt, out, rng):
    """<vjp(c), v> against <c, (f(x + h v) - f(x - h v)) / 2h> for random c and v: the comparison,
    and the adapter's <vjp(c), v>."""
    cotangent = compare.round_to(rng.standard_normal(out.shape), ctx.dtype)
    directions = {n: rng.standard_normal(wide[n].shape) for n in wrt}
    grads = ctx.program.pullback(ctx, tensors, wrt)(cotangent)
    return _along(ctx, f, wide, out, grads, cotangent, directions)


def _each_direction(ctx, f, tensors, wide, wrt, out, rng):
    """_random_direction for each input on its own (one reverse pass for all): the first failing
    comparison, its reason naming the input, and the adapter's <vjp(c), v> per input."""
    cotangent = compare.round_to(rng.standard_normal(out.shape), ctx.dtype)
    grads = ctx.program.pullback(ctx, tensors, wrt)(cotangent)
    directions = {n: rng.standard_normal(wide[n].shape) for n in wrt}
    rounding = gradients.rounding_of(f, wide, directions)  # f's noise, measured once for all of them
    results, actual = [], []
    for n in wrt:
        result, value = _along(ctx, f, wide, out, grads, cotangent, {n: directions[n]}, rounding)
        results.append(_named(result, n))
        actual.append(float(value))
    return _worst(results), np.array(actual)


def _worst(results: list) -> compare.Comparison:
    """compare.worst of each input's comparison, its `allowed` every input's own allowed error,
    flat and in order as the check's actual values: a compiled gradient's agreement with the
    eager one (suites/judging/modes.py) then holds each input's gradient to that input's bound. With the
    worst input's alone, a d/dx within its own bound failed against d/dy's smaller one."""
    worst = compare.worst(results)
    if all(r.allowed is not None for r in results):
        worst.allowed = np.concatenate([np.ravel(r.allowed) for r in results])
    return worst


def _named(result, name: str):
    """A failing comparison's reason, naming the input whose gradient it judged."""
    if not result.ok:
        result.reason = f"d/d{name}: {result.reason}"
    return result


def _along(ctx, f, wide, out, grads, cotangent, directions, rounding=None):
    """The gradients `grads` for `cotangent` against finite differences along `directions`."""
    wrt = list(directions)
    actual = sum(float(np.sum(grads[n].astype(np.float64) * directions[n])) for n in wrt)
    derivative, fd_err = gradients.directional(f, wide, directions, rounding)
    expected = float(np.sum(cotangent * derivative))
    magnitude = _magnitude_fn(ctx, wide)
    along = (gradients.magnitude_directional(magnitude, wide, directions) if magnitude
             else np.abs(derivative) + np.abs(derivative).max(initial=0) + _values_along(out, directions))
    scale = float(np.sum(np.abs(cotangent) * along))
    rounding = max(gradients.input_rounding(wide[n]).max(initial=0) for n in wrt)
    allowed = _allowed(ctx, wide, out.size, scale) + float(np.sum(np.abs(cotangent) * fd_err)) + rounding * scale
    return compare.compare(np.array(expected), np.array(actual), ctx.judged, allowed), np.array(actual)


def _values_along(out, directions) -> float:
    """Where no magnitude model exists, the values' share of the slack: a reverse pass multiplies
    the cotangent by the forward values (softmax's p * (g - <g, p>), tanh's 1 - y * y), so its
    rounding is of |g| |y| |v| even where the derivative vanishes (a softmax over one element,
    which TensorFlow computes as 0.99999994, gives g - 0.99999994 g, not 0)."""
    finite = np.abs(out[np.isfinite(out)])
    return float(finite.max(initial=0)) * max(float(np.abs(d).max(initial=0)) for d in directions.values())


def _magnitude_fn(ctx, wide):
    """The magnitude expression of a sum-product program as a function of its inputs, else None."""
    if _magnitudes(ctx, wide) is None:
        return None
    return lambda ins: ctx.sum_product(ins).magnitude


def _magnitudes(ctx, wide):
    """The program's sum-product Bound where it carries magnitudes; None where it has none or its
    error is a running analysis' (var, std, the optimizers), which bounds the values only."""
    bound = ctx.sum_product(wide)
    return None if bound is None or bound.running is not None else bound


def _allowed(ctx, wide, out_size, scale):
    """gamma_n times the derivative's magnitude, n being the value's roundings plus the
    cotangent's reduction; DEFAULT_ULPS ulp-like norm-wise slack where no bound exists, and the
    smallest normal number (a subnormal derivative, exp(-91) in float32, rounds to its spacing);
    plus the spec's own rtol (relative to that magnitude) and atol."""
    tolerance = ctx.tolerance
    spec_allowed = tolerance.get("atol", 0.0) + tolerance.get("rtol", 0.0) * scale
    bound = _magnitudes(ctx, wide)
    if bound is None:  # and the smallest normal number, as the value check allows: a subnormal derivative
        return 4 * compare.DEFAULT_ULPS * compare.unit_roundoff(ctx.judged) * scale + compare.tiny(ctx.judged) \
            + spec_allowed
    n = bound.n + out_size
    return compare.gamma(n, ctx.judged) * scale + n * compare.tiny(ctx.judged) + spec_allowed

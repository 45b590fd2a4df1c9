"""A fuzzing campaign on one adapter, device, dtype and mode, within a time budget.

Hypothesis draws a program (suites/fuzz/steps.py) and its inputs; the program runs on the adapter
(in the compiled mode, eager too: suites/judging/modes.py) and on the float64 reference, and is judged
by the suite's own judges: its value (suites/judging/judge.py), then, where its value passes, its
gradient against finite differences (suites/judging/gradcheck.py). A failure is shrunk by hypothesis
to a smallest program and inputs, and grouped with its kind: a later failure whose ops include a
group's and whose message is of the same kind counts towards that group and is not shrunk again.

The bound: a drawn program mixes ops that have no a-priori error bound, so its allowed error is
also estimated by Monte Carlo arithmetic (Parker, 1997; the method of Verificarlo and Verrou):
the float64 reference is evaluated RUNS times with every op's operands perturbed by a relative
PERTURBATION (uniform, in units of the dtype's unit roundoff), and its result by as much
relative to itself and to its largest operand (an op's formula may cancel within itself:
gelu's x (1 + erf(x / sqrt 2)) / 2 for x < 0, a one-pass variance); the largest deviation from
the unperturbed value, times SAFETY, is what rounding in the dtype under test can move the
result. A wrong kernel moves it further; an ill-conditioned program is allowed more.

Gradients are checked only where the reference is differentiable at the inputs (`slope`): at
a kink (relu at 0, a tie of max) the derivative is each framework's convention, which the specs
ask about. A backward formula rounds in ways the forward program does not show (1 - tanh(x)^2
where tanh saturates loses a hundred ulp), so a gradient is judged norm-wise within the larger
of GRADIENT_ULPS ulp and the value's relative sensitivity, with an absolute floor on the
derivative's natural scale (`gradient_tolerance`). A wrong gradient (a lost term, a wrong sign,
a broadcast summed the wrong way) is wrong by far more.
"""
import re
import time
import zlib
from dataclasses import dataclass, field, replace

import hypothesis
import numpy as np
from hypothesis import strategies as st

from adapters.base import Unsupported
from reports.records import FAILING
from suites.fuzz.grammar import names_in
from suites.fuzz.steps import STEPS, inputs, programs
from suites.judging import compare, gradcheck, judge
from suites.judging.outcome import CaseFailure, Outcome, message_of, one_line
from suites.loading import specs
from suites.programs import expr
from suites.programs.context import Context
from suites.programs.program import FIXED_OPS, ORACLE, Expression, Modelled, caller, wide_constant, widen
from vocabulary import VOCABULARY

RUNS = 8
PERTURBATION = 8.0  # units of roundoff per op, on each operand and on the result
SAFETY = 4.0  # uniform draws find about half the worst case of RUNS roundings; twice that again
GRADIENT_ULPS = 2**10
MAX_GRADIENT_RTOL = 2**-4  # a value that cancels to nearly 0 still has its gradient judged to 6%
BATCH = 25  # programs per hypothesis run; the budget is checked between them
MAX_SHRINK_SECONDS = 90  # shrinking a failure stops here with the smallest found (a compile takes seconds)


class OutOfTime(BaseException):
    """Raised through hypothesis (which lets a BaseException pass) to end a shrink."""


@dataclass(frozen=True)
class Fuzzed(Expression):
    """A drawn program: an expression whose error bound adds its Monte Carlo sensitivity."""

    def error_bound(self, inputs: dict, dtype: str, behaviour=None, rounded=()):
        """The larger of the op's own bound (a few ulp where it has none) and the estimate."""
        usual = super().error_bound(inputs, dtype, behaviour, rounded)
        if not compare.is_float(dtype):
            return usual
        exact, estimated = sensitivity(self.tree, {k: widen(v) for k, v in inputs.items()}, dtype, behaviour)
        if usual is None:
            usual = compare.DEFAULT_ULPS * compare.ulp(exact, dtype) + compare.tiny(dtype)
        return np.maximum(usual, estimated)

    def differentiable(self) -> list:
        """The inputs with a path to the result that has a derivative (not only through
        comparisons, rounding or stop_gradient, where frameworks may return no gradient)."""
        return sorted(names_in(self.tree, FIXED_OPS))


def sensitivity(tree, wide: dict, dtype: str, behaviour=None) -> tuple:
    """(the exact value, SAFETY times the largest deviation of RUNS perturbed float64 evaluations
    from it); with a documented behaviour, of the reference that computes its op by its model."""
    rng = np.random.default_rng(_digest(wide))
    apply = caller(Modelled(behaviour) if behaviour else ORACLE, "float64")
    noisy = _perturbing(apply, rng, PERTURBATION * compare.unit_roundoff(dtype))
    with np.errstate(all="ignore"):
        exact = np.asarray(expr.evaluate(tree, wide, apply, wide_constant), dtype=np.float64)
        runs = [np.asarray(expr.evaluate(tree, wide, noisy, wide_constant), dtype=np.float64) for _ in range(RUNS)]
        deviation = np.max([np.where(np.isfinite(r), np.abs(r - exact), 0.0) for r in runs], axis=0)
    return exact, SAFETY * deviation


def derivative_sensitivity(tree, wide: dict, wrt: list, dtype: str) -> float:
    """SAFETY times how far the RUNS perturbed programs of `sensitivity` (each run's
    perturbations drawn once, so that each is a smooth function) move the derivative of the
    output, weighed by a random cotangent, along a random direction: rounding's share of a
    reverse pass's result where terms cancel (f - f has derivative 0; a framework's comes back
    as rounding noise; so does layer_norm's along a constant row, scaled by 1 / sqrt(eps))."""
    rng = np.random.default_rng(_digest(wide))
    direction = {n: rng.uniform(-1, 1, wide[n].shape) for n in wrt}
    h = 1e-4 * max(1.0, *(float(np.abs(wide[n]).max(initial=0)) for n in wrt))
    apply, eps = caller(ORACLE, "float64"), PERTURBATION * compare.unit_roundoff(dtype)
    fixed = {node: expr.evaluate(node, wide, apply, wide_constant) for node in expr.calls(tree, FIXED_OPS)}
    cotangent = rng.uniform(-1, 1, np.shape(expr.evaluate(tree, wide, apply, wide_constant)))

    def slope(make_apply) -> float:
        ends = [np.sum(cotangent * expr.evaluate(tree, {**wide, **{n: wide[n] + t * h * direction[n] for n in wrt}},
                                                 make_apply(), wide_constant, fixed)) for t in (1, -1)]
        return float(ends[0] - ends[1]) / (2 * h)

    with np.errstate(all="ignore"):
        exact = slope(lambda: apply)
        moved = [abs(slope(lambda: _perturbing(apply, np.random.default_rng(k), eps)) - exact) for k in range(RUNS)]
    return SAFETY * max((m for m in moved if np.isfinite(m)), default=0.0)


def _perturbing(apply, rng, eps: float):
    """`apply` with every float operand times (1 + d) and the result times (1 + d) plus d times
    its largest operand, each d uniform in [-eps, eps] (Monte Carlo arithmetic); layer_norm's
    result moved as its mean's rounding moves it (`_mean_shift`)."""
    def perturb(v, scale=0.0):
        if isinstance(v, np.ndarray) and v.dtype.kind == "f" or isinstance(v, np.floating):
            return v * (1 + rng.uniform(-eps, eps, np.shape(v))) + scale * rng.uniform(-eps, eps, np.shape(v))
        return v

    def noisy(op, args, kwargs):
        args = [[perturb(a) for a in arg] if isinstance(arg, list) else perturb(arg) for arg in args]
        scale = max((float(np.max(np.abs(a), initial=0.0)) for a in _tensors(args, kwargs)), default=0.0)
        out = apply(op, args, kwargs)
        if op == "layer_norm":
            out = out + _mean_shift(rng, eps, args, kwargs)
        return tuple(perturb(o, scale) for o in out) if isinstance(out, tuple) else perturb(out, scale)

    return noisy


def _mean_shift(rng, eps: float, args, kwargs):
    """layer_norm subtracts its row's mean: the mean's own rounding, up to eps times the row's
    largest value, shifts every centred value of the row alike, and the division by
    sqrt(var + eps) amplifies it (a row of values close together: 1.60 and 1.56 move by 4e-6
    in float32). Perturbing x cannot show it, as layer_norm is invariant to a shift of x."""
    bound = VOCABULARY["layer_norm"].parameters.bind(None, *args, **kwargs)  # None: self
    bound.apply_defaults()
    x, weight = np.asarray(bound.arguments["x"]), bound.arguments["weight"]
    rounding = np.max(np.abs(x), axis=-1, keepdims=True) * rng.uniform(-eps, eps, x.shape[:-1] + (1,))
    shift = rounding / np.sqrt(np.var(x, axis=-1, keepdims=True) + bound.arguments["eps"])
    return shift if weight is None else shift * np.asarray(weight)


def _digest(values: dict) -> int:
    return zlib.crc32(repr(sorted((k, np.asarray(v).tobytes()) for k, v in values.items())).encode())


def _tensors(args, kwargs) -> list:
    """The float operands of a call (a list's members too)."""
    flat = [a for arg in [*args, *kwargs.values()] for a in (arg if isinstance(arg, list) else [arg])]
    return [a for a in flat if isinstance(a, (np.ndarray, np.floating)) and np.asarray(a).dtype.kind == "f"]


def gradient_tolerance(spec, values: dict, dtype: str, slope: float) -> dict:
    """A gradient check's rtol and atol. rtol: GRADIENT_ULPS u, or the value's relative
    sensitivity norm-wise where it is larger (an ill-conditioned value has ill-conditioned
    derivatives). atol, so that a derivative that cancels to 0 may come back as rounding noise:
    the derivative's Monte Carlo sensitivity (f - f), and rtol times its natural scale inside
    an op, the larger of the directional derivative `slope` times the output's size (a
    cotangent sums that many terms: layer_norm of a constant row) and max |value| / max |input|
    (normalize along an axis of one, which TensorFlow computes as a cancelling difference)."""
    wide = {k: widen(v) for k, v in values.items()}
    exact, estimated = sensitivity(spec.program.tree, wide, dtype)
    largest = float(np.max(np.abs(exact[np.isfinite(exact)]), initial=0.0))
    relative = float(np.max(estimated, initial=0.0)) / largest if largest else 0.0  # a value of 0 says nothing
    rtol = min(max(relative, GRADIENT_ULPS * compare.unit_roundoff(dtype)), MAX_GRADIENT_RTOL)
    inputs = max(float(np.max(np.abs(wide[n]), initial=0.0)) for n in spec.wrt)
    natural = max(slope * exact.size, largest / max(inputs, compare.tiny(dtype)))
    return {"rtol": rtol, "atol": rtol * natural + derivative_sensitivity(spec.program.tree, wide, spec.wrt, dtype)}


def slope(ctx, values: dict, wrt: list) -> float | None:
    """The largest directional derivative of the reference at these inputs along two random
    unit directions, or None where it or any intermediate result is not differentiable there as
    far as differences can tell: central differences with steps h and h/8 agree, and so do the
    forward and backward ones. At a kink (relu at 0, a tie of max, clip at its bound) the
    derivative is each framework's convention, which finite differences cannot judge, even
    where the kink is hidden from the result (a tie of two values clipped alike: locally
    constant, whose autodiff gradient is a convention's). The directions come from the inputs'
    values, not from a drawn seed: hypothesis would search the seeds for one along which a tie
    looks smooth."""
    rng = np.random.default_rng(_digest(values))
    f, wide = ctx.fixed_oracle(values), {k: widen(v) for k, v in values.items()}
    inner = _every_result(ctx.program.tree, wide)
    slopes = []
    for _ in range(2):
        direction = {n: rng.uniform(-1, 1, wide[n].shape) for n in wrt}
        if _smooth_along(inner, wide, direction) is None:
            return None
        slopes.append(_smooth_along(f, wide, direction))
    return None if None in slopes else max(slopes)


def _every_result(tree, wide: dict):
    """inputs -> every call's result in the tree, as one vector (held-fixed subtrees left out)."""
    apply = caller(ORACLE, "float64")
    fixed = {node: expr.evaluate(node, wide, apply, wide_constant) for node in expr.calls(tree, FIXED_OPS)}

    def results(ins):
        made = []

        def recording(op, args, kwargs):
            out = apply(op, args, kwargs)
            made.extend(np.ravel(np.asarray(p, dtype=np.float64)) for p in (out if isinstance(out, tuple) else [out]))
            return out

        expr.evaluate(tree, ins, recording, wide_constant, fixed)
        return np.concatenate(made) if made else np.zeros(0)

    return results


def _smooth_along(f, wide: dict, direction: dict) -> float | None:
    """The largest derivative of f along `direction` (of largest component 1), or None."""
    wrt = list(direction)
    h = 1e-4 * max(1.0, *(float(np.abs(wide[n]).max(initial=0)) for n in wrt))
    with np.errstate(all="ignore"):
        at = {t: np.asarray(f({**wide, **{n: wide[n] + t * h * direction[n] for n in wrt}}), dtype=np.float64)
              for t in (-1, -1 / 8, 0, 1 / 8, 1)}
        central, finer = (at[1] - at[-1]) / (2 * h), (at[1 / 8] - at[-1 / 8]) / (h / 4)
        forward, backward = (at[1] - at[0]) / h, (at[0] - at[-1]) / h
    if not all(np.isfinite(v).all() for v in at.values()):
        return None
    scale = float(np.abs(central).max(initial=0.0)) + 1e-8 * float(np.abs(at[0]).max(initial=1.0))
    if np.abs(central - finer).max(initial=0) > 1e-3 * scale \
            or np.abs(forward - backward).max(initial=0) > 1e-2 * scale:
        return None
    return float(np.abs(central).max(initial=0.0)) / max(float(np.abs(d).max(initial=0)) for d in direction.values())


def spec_of(prog, dtype: str, differences=()) -> specs.Spec:
    """The program as a spec (one that suites/fuzz/findings.py writes out as YAML): its inputs
    those the expression names, a gradient with respect to those it differentiates."""
    args = list(prog.used_args())
    program = Fuzzed(expr.parse(prog.text, args))
    name = f"fuzz-{zlib.crc32(prog.text.encode()):08x}"
    return specs.Spec("fuzz", name, "<fuzz>", 0, args, [dtype], program, gradient={"wrt": program.differentiable()},
                      differences=list(differences), expression=prog.text)


@dataclass
class Finding:
    """A kind of failure: its smallest program and inputs, and how often the kind was met."""

    key: tuple  # (check, category, ops)
    spec: specs.Spec
    inputs: dict
    outcome: Outcome
    check: str  # value or gradient
    seen: int = 1

    def explains(self, key: tuple) -> bool:
        """Whether a failure of `key` is of this kind: the same check and category, and every
        op of this one among its ops (shrinking does not always remove a step that plays no part)."""
        return self.key[:2] == key[:2] and set(self.key[2]) <= set(key[2])


@dataclass
class Campaign:
    """Random programs on one adapter, device, dtype and mode: what was found, and how much ran."""

    adapter: object
    device: str
    dtype: str
    mode: str
    differences: list = field(default_factory=list)  # adapter-wide documented differences
    steps: tuple = tuple(STEPS)  # what programs are made of
    findings: list = field(default_factory=list)
    programs: int = 0
    refused: int = 0  # programs the adapter refuses (Unsupported)
    kinks: int = 0  # programs whose gradient is not checked: their inputs sit on a kink

    def run(self, seconds: float, seed: int) -> list:
        """Draw and judge programs until `seconds` have passed; the findings, by kind."""
        deadline = time.monotonic() + seconds
        batch = 0
        while time.monotonic() < deadline:
            self._batch(seed + batch, deadline)
            batch += 1
        return self.findings

    def _batch(self, seed: int, deadline: float) -> None:
        failing = {}

        @hypothesis.seed(seed)
        @hypothesis.settings(max_examples=BATCH, database=None, deadline=None, derandomize=False,
                             suppress_health_check=list(hypothesis.HealthCheck),
                             phases=[hypothesis.Phase.generate, hypothesis.Phase.shrink])
        @hypothesis.given(st.data())
        def prop(data):
            if time.monotonic() > deadline and not failing:
                return
            if failing and time.monotonic() > failing["since"] + MAX_SHRINK_SECONDS:
                raise OutOfTime()  # keep the smallest failure found so far
            prog = data.draw(programs(steps=self.steps), "program")
            values = data.draw(inputs(prog, self.dtype), "inputs")
            rng_seed = data.draw(st.integers(0, 2**32 - 1), "seed")
            spec = spec_of(prog, self.dtype, self.differences)
            check, outcome, spec = self.check(spec, values, rng_seed)
            self.programs += 1
            if outcome.status == "unsupported":
                self.refused += 1
            if outcome.status not in FAILING:
                return
            key = (check, category(outcome), tuple(sorted(spec.program.ops())))
            known = next((f for f in self.findings if f.explains(key)), None)
            if known is not None:
                known.seen += 1
                return
            failing.setdefault("since", time.monotonic())
            failing["last"] = Finding(key, spec, values, outcome, check)
            raise CaseFailure(outcome)

        try:
            prop()
        except (CaseFailure, OutOfTime):
            self.findings.append(failing["last"])
        except (hypothesis.errors.FlakyFailure, hypothesis.errors.FlakyStrategyDefinition):
            finding = failing.get("last")  # failed once, passed when run again: still a finding
            if finding is not None:
                finding.outcome.message += " (the same case passed when run again in this process)"
                self.findings.append(finding)

    def check(self, spec, values: dict, rng_seed: int) -> tuple:
        """(check, outcome, spec): the value's outcome, and where it passes, the gradient's (the
        spec then carries the gradient's tolerance)."""
        ctx = Context(spec, self.adapter, self.device, self.dtype, self.mode)
        outcome = _guarded(lambda: judge.check_case(ctx, "fuzz", values))
        if outcome.status in FAILING or outcome.status == "unsupported" or not spec.wrt:
            return "value", outcome, spec
        derivative = slope(ctx, values, spec.wrt)
        if derivative is None:
            self.kinks += 1
            return "value", outcome, spec
        tolerance = gradient_tolerance(spec, values, self.dtype, derivative)
        ctx = replace(ctx, spec=replace(spec, tolerance={self.dtype: tolerance}), staged=ctx.staged)
        return "gradient", _guarded(lambda: gradcheck.check_gradient(ctx, "fuzz", values,
                                                                     np.random.default_rng(rng_seed))), ctx.spec


def _guarded(check) -> Outcome:
    """A check's outcome; an error escaping the judges (a framework failing outside the adapter's
    call) is the framework's error, as a case's own would be."""
    try:
        return check()
    except Unsupported as exc:
        return Outcome("unsupported", "fuzz", message_of(exc))
    except Exception as exc:
        return Outcome("error", "fuzz", one_line(exc))


def category(outcome: Outcome) -> str:
    """The kind of a failure, without its numbers: its status and the first clause of its message."""
    head = re.split(r"[:;(]", outcome.message, maxsplit=1)[0] if outcome.status != "error" else outcome.message
    head = re.sub(r"'[^']*'|\"[^\"]*\"", "'...'", head)  # quoted names: position 1 'input' or 2 'other'
    head = re.sub(r"\b[0-9][0-9.e+-]*", "#", head)
    return f"{outcome.status}: {head.strip()[:120]}"

"""SGD steps on a model (suites/programs/model.py), each judged as a single forward and backward are.

At every step the framework computes the model's activations, judged layer by layer against the
float64 reference with carried bounds (suites/judging/judge.py), and the loss's gradient, judged against
finite differences of the reference along one random direction (suites/judging/gradcheck.py); then the
parameters take the step p - lr * g, with g the framework's gradient, rounded once to the dtype
under test (Parity's update: what is tested is the model, not an optimizer). The parameters
move with the framework's own gradients, so each framework follows its own trajectory; the
record keeps the loss at every step, and the float64 reference's loss at the same parameters,
for the report to chart the trajectories and their divergence.
"""
import numpy as np

from reports.records import PASSING
from suites.judging import compare, gradcheck, judge
from suites.judging.outcome import Outcome, one_line


def train(ctx, case: str, inputs: dict, seed: int) -> Outcome:
    """The model's `training` steps from these inputs: pass (or documented) when every step's
    forward and gradient are; else the first step that is not, with the trajectory so far."""
    model, settings = ctx.program, ctx.program.training
    weights, values = model.weight_names(), dict(inputs)
    rng, trajectory, documented, forward = np.random.default_rng(seed), [], None, None
    shape = np.shape(ctx.oracle(values))
    if shape != ():
        return Outcome("error", case, f"training needs a scalar loss as the model's last layer; this one has shape "
                       f"{shape}", inputs=values)
    for step in range(settings["steps"]):
        forward = judge.check_case(ctx, case, values)
        if forward.status in PASSING:
            checked = gradcheck.check_gradient(ctx, case, values, rng, per_input=False)
        else:
            checked = forward
        loss = float(forward.actual[-1]) if forward.actual is not None and forward.actual.size else None
        trajectory.append({"step": step, "loss": loss, "reference": float(np.asarray(ctx.oracle(values))),
                           "forward": forward.status, "gradient": checked.status if checked is not forward else None})
        if checked.status not in PASSING:
            what = "gradient" if checked is not forward else "forward"
            return Outcome(checked.status, case, f"step {step}: {what}: {checked.message}", checked.comparison,
                           values, forward.actual, trajectory=trajectory)
        documented = documented or next((o for o in (forward, checked) if o.status == "documented"), None)
        if forward.actual is None:  # a documented error where the loss would be: no step to take
            return Outcome(forward.status, case, f"step {step}: forward: {forward.message}", None, values,
                           difference=forward.difference, trajectory=trajectory)
        try:  # the checks above ran the same reverse pass: what raises here raised there
            grads = model.pullback(ctx, ctx.tensors(values), weights)(np.ones(()))
        except Exception as exc:
            return Outcome("error", case, f"step {step}: the update's gradient: {one_line(exc)}", None, values,
                           trajectory=trajectory)
        values.update({n: compare.round_to(values[n] - settings["lr"] * grads[n].astype(np.float64), ctx.dtype)
                       for n in weights})
    first, last = trajectory[0]["loss"], trajectory[-1]["loss"]
    message = (f"{settings['steps']} SGD steps (lr {settings['lr']:g}): loss {first:.6g} -> {last:.6g}; every "
               "step's activations and gradient within their bounds")
    return Outcome("documented" if documented else "pass", case, message, forward.comparison, values, forward.actual,
                   difference=documented.difference if documented else None, trajectory=trajectory)

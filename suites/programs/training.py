"""Training steps on a model (suites/programs/model.py), each judged as a single forward and backward are.

At every step the framework computes the model's activations, judged layer by layer against the
float64 reference with carried bounds (suites/judging/judge.py), and the loss's gradient, judged against
finite differences of the reference along one random direction (suites/judging/gradcheck.py); then the
parameters step. By default the step is p - lr * g, with g the framework's gradient, rounded once
to the dtype under test (Parity's update: what is tested is the model, not an optimizer). Each
of `optimizers: [{name: adam, ...}]` is one more trajectory, its steps taken by the framework's
own optimizer, as its users train: the adapter's optimizer op (vocabulary/optimizers.py)
runs from the starting parameter through every gradient so far, and its last step is the new
parameter (the optimizers are elementwise, so each parameter runs apart; the ops themselves are
judged in specs/optimizers.yaml). What an entry leaves out is the framework's default, as a user
who names the optimizer gets it: a port's trajectory. The parameters move with the framework's
own gradients, so each framework follows its own trajectory; the record keeps the loss at every
step, and the float64 reference's loss at the same parameters, for the report to chart the
trajectories per optimizer and their divergence.
"""
import numpy as np

from reports.records import PASSING
from suites.judging import compare
from suites.judging.outcome import Outcome, one_line


def train(ctx, example: str, inputs: dict, seed: int, optimizer: dict | None = None,
          first: dict | None = None) -> Outcome:
    """The model's `training` steps from an example's inputs, with Parity's update or `optimizer`
    (an entry of the training's `optimizers`): pass (or documented) when every step's forward and
    gradient are; else the first step that is not, with the trajectory so far. The outcome's case
    is the example's name, and after it the optimizer's label (`batch/adam(lr=0.01)`); the
    checks look up the example's documented differences. `first`, a dict shared by the example's
    trajectories, keeps step 0's checks and gradients: every trajectory starts from the same
    parameters with the same random direction, so the later ones take them from the first."""
    # the judge (hypothesis, SciPy) is imported where a model trains, not where specs load
    from suites.judging import gradcheck, judge

    model, settings = ctx.program, ctx.program.training
    case = example if optimizer is None else f"{example}/{label(optimizer)}"
    weights, values = model.weight_names(), dict(inputs)
    start, history = {n: values[n] for n in weights}, {n: [] for n in weights}
    rng, trajectory, documented, forward = np.random.default_rng(seed), [], None, None
    shape = np.shape(ctx.oracle(values))
    if shape != ():
        return Outcome("error", case, f"training needs a scalar loss as the model's last layer; this one has shape "
                       f"{shape}", inputs=values)
    first = {} if first is None else first
    for step in range(settings["steps"]):
        if step == 0 and first:
            forward, checked = first["forward"], first["checked"]
            rng.bit_generator.state = first["rng"]
        else:
            forward = judge.check_case(ctx, example, values)
            checked = (gradcheck.check_gradient(ctx, example, values, rng, per_input=False)
                       if forward.status in PASSING else forward)
            if step == 0:
                first.update(forward=forward, checked=checked, rng=rng.bit_generator.state)
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
            grads = first.get("grads") if step == 0 else None
            if grads is None:
                grads = model.pullback(ctx, ctx.tensors(values), weights)(np.ones(()))
        except Exception as exc:
            return Outcome("error", case, f"step {step}: the update's gradient: {one_line(exc)}", None, values,
                           trajectory=trajectory)
        if step == 0:
            first["grads"] = grads
        for n in weights:
            history[n].append(np.asarray(grads[n], dtype=np.float64))
        try:
            values.update({n: stepped(ctx, settings["lr"], optimizer, start[n], values[n], history[n])
                           for n in weights})
        except Exception as exc:
            return Outcome("error", case, f"step {step}: the optimizer: {one_line(exc)}", None, values,
                           trajectory=trajectory)
    first, last = trajectory[0]["loss"], trajectory[-1]["loss"]
    message = (f"{settings['steps']} {described(settings['lr'], optimizer)} steps: loss {first:.6g} -> {last:.6g}; "
               "every step's activations and gradient within their bounds")
    return Outcome("documented" if documented else "pass", case, message, forward.comparison, values, forward.actual,
                   difference=documented.difference if documented else None, trajectory=trajectory)


def stepped(ctx, lr: float, optimizer: dict | None, start, value, gradients: list):
    """The parameter after the step that the latest of `gradients` makes: Parity's p - lr g, or
    the framework's optimizer run from `start` through every gradient so far (its state is its
    history), its last step taken."""
    if optimizer is None:
        return compare.round_to(value - lr * gradients[-1], ctx.dtype)
    hyper = {"lr": lr, **hyperparameters(optimizer)}
    adapter, tensor = ctx.adapter, lambda x: ctx.adapter.asarray(x, ctx.dtype, ctx.device)
    steps = getattr(adapter, optimizer["name"])(tensor(start), tensor(np.stack(gradients)), **hyper)
    return adapter.to_numpy(steps)[-1].astype(np.float64)


def hyperparameters(optimizer: dict) -> dict:
    """An optimizer entry's hyperparameters, in its order: all it gives but its name."""
    return {k: v for k, v in optimizer.items() if k != "name"}


def label(optimizer: dict) -> str:
    """An optimizer entry as its case names it: `adam`, `sgd(momentum=0.9, nesterov=True)` (the
    hyperparameters it gives, in its order)."""
    given = ", ".join(f"{k}={v}" for k, v in hyperparameters(optimizer).items())
    return f"{optimizer['name']}({given})" if given else optimizer["name"]


def described(lr: float, optimizer: dict | None) -> str:
    """SGD (lr 0.5), adam (lr 0.01, betas [0.9, 0.999]): the update the steps take."""
    optimizer = optimizer or {"name": "SGD"}
    hyper = {"lr": lr, **hyperparameters(optimizer)}
    return f"{optimizer['name']} ({', '.join(f'{k} {v}' for k, v in hyper.items())})"

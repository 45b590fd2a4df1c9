"""The float64 oracle's optimizers: each algorithm from its paper and torch.optim's documented
pseudocode, written once over numbers that only add, subtract, multiply, divide, raise to an
integer power, sum, and take np.sqrt, np.maximum and np.minimum.

Written that way, the same code runs twice: on float64 arrays it is the reference; on
suites/judging/running_error.Tracked numbers it also carries a bound on the rounding error a
computation in a narrower dtype makes (the optimizer ops' error bound,
suites/judging/bound_rules.py). `number` turns a hyperparameter into such a number (float for
the reference): a framework computes with it in the dtype under test, so its own rounding counts.
"""
import functools
import inspect
import operator

import numpy as np

from vocabulary.optimizers import OPTIMIZER_OPS


def clipped(g, number, clipvalue, max_norm, max_norm_eps):
    """The gradient as torch.nn.utils.clip_grad_value_ and then clip_grad_norm_ leave it before a
    step (of one parameter, whose norm is the global norm)."""
    if clipvalue is not None:
        g = np.minimum(np.maximum(g, -number(clipvalue)), number(clipvalue))
    if max_norm is not None:
        g = g * np.minimum(number(max_norm) / (np.sqrt((g * g).sum()) + number(max_norm_eps)), 1)
    return g


def norm_clipped(grads, number, max_norm, per_parameter, max_norm_eps) -> list:
    """The gradients of several parameters as norm clipping leaves them: each scaled by
    min(1, max_norm / (total + max_norm_eps)), total the norm of the gradients' own norms
    (torch.nn.utils.clip_grad_norm_'s order: a vector_norm per gradient, then theirs), over all of
    them or, `per_parameter`, over each alone (Keras' clipnorm). Run on Tracked numbers, this order
    makes the most roundings of the frameworks' (TensorFlow and Keras sum the squares and scale by
    max_norm * min(1 / total, 1 / max_norm): as many after the norm), so its bound holds for each."""
    def scale(group):
        norms = [np.sqrt((g * g).sum()) for g in group]
        total = np.sqrt(functools.reduce(operator.add, (n * n for n in norms)))
        with np.errstate(divide="ignore"):  # a zero gradient: max_norm / 0 is inf, min(inf, 1) leaves it
            return np.minimum(number(max_norm) / (total + number(max_norm_eps)), 1)
    if per_parameter:
        return [g * scale([g]) for g in grads]
    factor = scale(grads)
    return [g * factor for g in grads]


def sgd(param, grads, number, lr, momentum, dampening, nesterov, weight_decay, decoupled_weight_decay):
    lr, mu, wd = number(lr), number(momentum), number(weight_decay)
    p, buf, out = param, None, []
    for g in grads:
        if decoupled_weight_decay:
            p = p - lr * wd * p
        elif weight_decay:
            g = g + wd * p
        if momentum:
            buf = g if buf is None else mu * buf + (1 - number(dampening)) * g
            g = g + mu * buf if nesterov else buf
        p = p - lr * g
        out.append(p)
    return out


def adam(param, grads, number, lr, betas, eps, weight_decay, amsgrad, decoupled_weight_decay, epsilon_hat,
         amsgrad_corrected):
    """Kingma and Ba's Algorithm 1 as torch.optim.Adam writes it; `decoupled_weight_decay` is
    AdamW's p (1 - lr weight_decay) before the step, in place of the gradient's L2 term;
    `epsilon_hat` adds eps to sqrt(v) and folds both bias corrections into the step size, as the
    paper's end of section 2 does and Keras computes; `amsgrad_corrected` keeps the maximum of
    the bias-corrected v / (1 - b2^t), as optax does, where torch corrects the maximum of v."""
    lr, b1, b2, eps, wd = number(lr), number(betas[0]), number(betas[1]), number(eps), number(weight_decay)
    p, m, v, v_max, out = param, 0, 0, 0, []
    for t, g in enumerate(grads, 1):
        if decoupled_weight_decay:
            p = p * (1 - lr * wd)
        elif weight_decay:
            g = g + wd * p
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * (g * g)
        second, correction = v, 1 - b2 ** t
        if amsgrad:
            v_max = np.maximum(v_max, v / correction if amsgrad_corrected else v)
            second, correction = v_max, 1 if amsgrad_corrected else correction
        if epsilon_hat:
            p = p - lr * np.sqrt(correction) / (1 - b1 ** t) * m / (np.sqrt(second) + eps)
        else:
            p = p - lr * (m / (1 - b1 ** t)) / (np.sqrt(second / correction) + eps)
        out.append(p)
    return out


def adamw(param, grads, number, **hyper):
    """Loshchilov and Hutter's AdamW: Adam with the weight decay decoupled."""
    return adam(param, grads, number, **hyper, decoupled_weight_decay=True)


def rmsprop(param, grads, number, lr, alpha, eps, weight_decay, momentum, centered, eps_in_sqrt,
            decoupled_weight_decay):
    lr, alpha, eps, wd, mu = number(lr), number(alpha), number(eps), number(weight_decay), number(momentum)
    p, v, mean, buf, out = param, 0, 0, 0, []
    for g in grads:
        if decoupled_weight_decay:
            p = p - lr * wd * p
        elif weight_decay:
            g = g + wd * p
        v = alpha * v + (1 - alpha) * (g * g)
        if centered:
            mean = alpha * mean + (1 - alpha) * g
        second = v - mean * mean if centered else v
        denominator = np.sqrt(second + eps) if eps_in_sqrt else np.sqrt(second) + eps
        if momentum:
            buf = mu * buf + g / denominator
            p = p - lr * buf
        else:
            p = p - lr * (g / denominator)
        out.append(p)
    return out


def adagrad(param, grads, number, lr, lr_decay, weight_decay, initial_accumulator_value, eps, eps_in_sqrt,
            decoupled_weight_decay):
    lr, decay, wd, eps = number(lr), number(lr_decay), number(weight_decay), number(eps)
    p, s, out = param, number(initial_accumulator_value), []
    for t, g in enumerate(grads, 1):
        if decoupled_weight_decay:
            p = p - lr * wd * p
        elif weight_decay:
            g = g + wd * p
        s = s + g * g
        p = p - lr / (1 + (t - 1) * decay) * (g / (np.sqrt(s + eps) if eps_in_sqrt else np.sqrt(s) + eps))
        out.append(p)
    return out


ALGORITHMS = {"sgd": sgd, "adam": adam, "adamw": adamw, "rmsprop": rmsprop, "adagrad": adagrad}


def steps(reference, op: str, param, grads, number, *args, **kwargs) -> list:
    """The parameter after each step of optimizer `op`, the hyperparameters bound to the
    reference method's signature (the vocabulary's defaults), each gradient clipped first."""
    bound = inspect.signature(getattr(reference, op)).bind(param, grads, *args, **kwargs)
    bound.apply_defaults()
    hyper = dict(bound.arguments)
    param, grads = hyper.pop("param"), hyper.pop("grads")
    clipping = {k: hyper.pop(k) for k in ("clipvalue", "max_norm", "max_norm_eps")}
    return ALGORITHMS[op](param, [clipped(g, number, **clipping) for g in grads], number, **hyper)


class OptimizerReference:
    """A mixin of adapters.reference.ReferenceAdapter: the trajectory [steps, ...] of each
    optimizer, one method per optimizer op with the vocabulary's signature and defaults, norm
    clipping over two parameters, and L2 in the loss."""

    def clip_grad_norm(self, a, b, max_norm, per_parameter=False, max_norm_eps=1e-06):
        return tuple(norm_clipped([a, b], float, max_norm, per_parameter, max_norm_eps))

    def l2_penalty(self, x, weight_decay):
        return np.asarray(weight_decay / 2 * np.sum(x * x))

    def _trajectory(self, op, param, grads, **hyper):
        return np.stack(steps(self, op, param, list(grads), float, **hyper)) if len(grads) else grads[:0]


def _method(op):
    def method(self, param, grads, **hyper):
        return self._trajectory(op.name, param, grads, **hyper)

    method.__name__, method.__signature__ = op.name, op.parameters
    method.__doc__ = op.semantics
    return method


for _op in OPTIMIZER_OPS:
    setattr(OptimizerReference, _op.name, _method(_op))

"""Optimizers in torch.optim's shape: built on a list of leaf Tensors, step() moves each by its
.grad (in place, on the tape's side: an update records nothing), zero_grad() clears them.

    opt = Adam([w], lr=1e-3)
    loss.backward(); opt.step(); opt.zero_grad()

The algorithms and defaults are torch.optim's documented ones. Arithmetic stays in the
parameter's dtype: hyperparameters are cast to it, as a float32 model's optimizer computes.
"""
import numpy as np


def clip_grad_norm_(params, max_norm) -> float:
    """torch.nn.utils.clip_grad_norm_: every .grad scaled by min(1, max_norm / (total + 1e-6)),
    total the 2-norm of all of them together; returns total."""
    grads = [p.grad for p in params if p.grad is not None]
    total = np.sqrt(sum(np.sum(np.square(g, dtype=g.dtype)) for g in grads)) if grads else 0.0
    for p in params:
        if p.grad is not None:
            scale = min(p.grad.dtype.type(max_norm) / (total + p.grad.dtype.type(1e-6)), 1)
            p.grad = (p.grad * p.grad.dtype.type(scale)).astype(p.grad.dtype)
    return total


def clip_grad_value_(params, clip_value) -> None:
    """torch.nn.utils.clip_grad_value_: every .grad clipped to [-clip_value, clip_value]."""
    for p in params:
        if p.grad is not None:
            p.grad = np.clip(p.grad, -clip_value, clip_value).astype(p.grad.dtype)


class Optimizer:
    def __init__(self, params, **defaults):
        self.params, self.hyper, self.state = list(params), defaults, {}

    def zero_grad(self):
        for p in self.params:
            p.grad = None

    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            state = self.state.setdefault(i, {})
            state["step"] = state.get("step", 0) + 1  # t, counted per parameter from 1, as torch's
            dtype = p.data.dtype.type
            h = {k: dtype(v) if isinstance(v, float) else v for k, v in self.hyper.items()}
            g = np.asarray(p.grad, dtype=p.data.dtype)
            if h.get("weight_decay") and not getattr(self, "decoupled", False):
                g = g + h["weight_decay"] * p.data
            p.data = self.update(p.data, g, state, dtype(1), **h).astype(p.data.dtype)

    def update(self, p, g, state, one, **h):
        """The parameter after one step from gradient g; `state` is this parameter's own."""
        raise NotImplementedError


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0.0, dampening=0.0, nesterov=False, weight_decay=0.0):
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, lr=lr, momentum=momentum, dampening=dampening, nesterov=nesterov,
                         weight_decay=weight_decay)

    def update(self, p, g, state, one, lr, momentum, dampening, nesterov, weight_decay):
        if momentum:
            buf = state.get("buf")
            state["buf"] = buf = g if buf is None else momentum * buf + (one - dampening) * g
            g = g + momentum * buf if nesterov else buf
        return p - lr * g


class Adam(Optimizer):
    decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False):
        super().__init__(params, lr=lr, beta1=betas[0], beta2=betas[1], eps=eps, weight_decay=weight_decay,
                         amsgrad=amsgrad)

    def update(self, p, g, state, one, lr, beta1, beta2, eps, weight_decay, amsgrad):
        if self.decoupled:
            p = p * (one - lr * weight_decay)
        m = state["m"] = beta1 * state.get("m", 0) + (one - beta1) * g
        v = state["v"] = beta2 * state.get("v", 0) + (one - beta2) * g * g
        if amsgrad:
            v = state["v_max"] = np.maximum(state.get("v_max", 0), v)
        t = state["step"]
        return p - lr / (one - beta1 ** t) * m / self.denominator(v, one - beta2 ** t, eps)

    def denominator(self, v, correction, eps):
        """sqrt(v_hat) + eps, v_hat = v / (1 - beta2^t)."""
        return np.sqrt(v) / np.sqrt(correction) + eps


class AdamW(Adam):
    decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad)


class RMSprop(Optimizer):
    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False):
        super().__init__(params, lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum,
                         centered=centered)

    def update(self, p, g, state, one, lr, alpha, eps, weight_decay, momentum, centered):
        v = state["v"] = alpha * state.get("v", 0) + (one - alpha) * g * g
        if centered:
            mean = state["mean"] = alpha * state.get("mean", 0) + (one - alpha) * g
            v = v - mean * mean
        step = g / (np.sqrt(v) + eps)
        if momentum:
            step = state["buf"] = momentum * state.get("buf", 0) + step
        return p - lr * step


class Adagrad(Optimizer):
    def __init__(self, params, lr=1e-2, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10):
        super().__init__(params, lr=lr, lr_decay=lr_decay, weight_decay=weight_decay, eps=eps,
                         initial_accumulator_value=initial_accumulator_value)

    def update(self, p, g, state, one, lr, lr_decay, weight_decay, eps, initial_accumulator_value):
        s = state["sum"] = state.get("sum", initial_accumulator_value) + g * g
        return p - lr / (one + (state["step"] - 1) * lr_decay) * (g / (np.sqrt(s) + eps))

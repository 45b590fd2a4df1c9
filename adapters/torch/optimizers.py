"""The torch adapter's optimizers: torch.optim's classes, stepped as a training loop steps them
(the gradient set on .grad, torch.nn.utils.clip_grad_value_ and clip_grad_norm_ where asked, then
step()); a hyperparameter a spec leaves out is torch's default."""
import numpy as np

from adapters.behaviours import Behaviour
from adapters.optimizers import TORCH_CLASSES, Optimizers, clipping, fixed
from adapters.reference.optimizers import clipped


class TorchOptimizers(Optimizers):
    """A mixin of TorchAdapter (self.torch is the torch module)."""

    def optimize(self, op, param, grads, hyper):
        torch, hyper = self.torch, dict(hyper)
        clipvalue, max_norm = clipping(hyper, "torch.nn.utils.clip_grad_norm_", 1e-6)
        p = param.detach().clone().requires_grad_(True)
        optimizer = getattr(torch.optim, TORCH_CLASSES[op])([p], **hyper)
        trajectory = []
        for g in grads:
            p.grad = g.detach().clone()
            if clipvalue is not None:
                torch.nn.utils.clip_grad_value_([p], clipvalue)
            if max_norm is not None:
                torch.nn.utils.clip_grad_norm_([p], max_norm)
            optimizer.step()
            trajectory.append(p.detach().clone())
        return torch.stack(trajectory) if trajectory else grads.detach().clone()

    def clip_norms(self, grads, max_norm, per_parameter, convention):
        """clip_grad_norm_ over the parameters, or called once per parameter."""
        torch = self.torch
        fixed(convention, {"max_norm_eps": 1e-6}, "torch.nn.utils.clip_grad_norm_")
        params = [torch.zeros_like(g).requires_grad_(True) for g in grads]
        for p, g in zip(params, grads):
            p.grad = g.detach().clone()
        for group in ([p] for p in params) if per_parameter else [params]:
            torch.nn.utils.clip_grad_norm_(group, max_norm)
        return [p.grad for p in params]


def _adagrad_float32_step_size(param, grads, lr=0.01, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0,
                               eps=1e-10, clipvalue=None, max_norm=None, max_norm_eps=1e-06, **conventions):
    """torch.optim.Adagrad compiled (torch's own conventions: eps added to sqrt(s), L2 decay):
    clr = lr / (1 + (step - 1) lr_decay) from the float32 step tensor, which inductor computes in
    float32 as lr times the reciprocal of the denominator (NumPy's float32 scalars round alike)."""
    p, s, out = param, initial_accumulator_value, []
    for t, g in enumerate(grads, 1):
        g = clipped(g, float, clipvalue, max_norm, max_norm_eps)
        g = g + weight_decay * p if weight_decay else g
        s = s + g * g
        clr = np.float32(lr) * (np.float32(1) / (np.float32(1) + np.float32(t - 1) * np.float32(lr_decay)))
        p = p - float(clr) * (g / (np.sqrt(s) + eps))
        out.append(p)
    return np.stack(out)


TORCH_COMPILED_ADAGRAD = Behaviour(
    "adagrad", _adagrad_float32_step_size,
    "torch.compile of Adagrad computes its step size clr = lr / (1 + (step - 1) lr_decay) in float32, as lr times "
    "the reciprocal of the denominator: compiled, "
    "torch.optim keeps the step count as a float32 tensor (_get_scalar_dtype) and _get_value returns it, so a "
    "float64 parameter moves by a float32-rounded lr (lr 0.1 is 0.10000000149: -7.0860567745e-57 for "
    "-7.0860566689e-57 when the step is lr g / eps), as its Adam does (specs/optimizers.yaml, adam-first-step; "
    "adapters/torch/repro/compiled_adagrad_float64.py)",
    "https://github.com/pytorch/pytorch/blob/v2.13.0/torch/optim/adagrad.py", regime="precision", mode="compiled",
    # its error bound: Adagrad's own running bound on the parameters given (the rest rounds in float64)
    fill=lambda args, kwargs: kwargs)

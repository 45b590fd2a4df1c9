"""The torch adapter's optimizers: torch.optim's classes, stepped as a training loop steps them
(the gradient set on .grad, torch.nn.utils.clip_grad_value_ and clip_grad_norm_ where asked, then
step()); a hyperparameter a spec leaves out is torch's default."""
from adapters.optimizers import TORCH_CLASSES, Optimizers, clipping


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

"""The torch adapter's optimizers: torch.optim's classes, stepped as a training loop steps them
(the gradient set on .grad, then step()); a hyperparameter a spec leaves out is torch's default."""
from adapters.optimizers import TORCH_CLASSES, Optimizers


class TorchOptimizers(Optimizers):
    """A mixin of TorchAdapter (self.torch is the torch module)."""

    def optimize(self, op, param, grads, hyper):
        torch = self.torch
        p = param.detach().clone().requires_grad_(True)
        optimizer = getattr(torch.optim, TORCH_CLASSES[op])([p], **hyper)
        trajectory = []
        for g in grads:
            p.grad = g.detach().clone()
            optimizer.step()
            trajectory.append(p.detach().clone())
        return torch.stack(trajectory) if trajectory else grads.detach().clone()

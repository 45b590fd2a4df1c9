"""The engine adapter's optimizers: engine.optim's classes, stepped as torch.optim's users step
theirs (the gradient set on .grad, clip_grad_value_ and clip_grad_norm_ where asked, step())."""
import numpy as np

from adapters.optimizers import TORCH_CLASSES, Optimizers, clipping, fixed


class EngineOptimizers(Optimizers):
    """A mixin of EngineAdapter (self.engine)."""

    def optimizer_class(self, op):
        from engine import optim

        return getattr(optim, TORCH_CLASSES[op])

    def optimize(self, op, param, grads, hyper):
        from engine import optim

        hyper = dict(hyper)
        clipvalue, max_norm = clipping(hyper, "engine.optim", 1e-6)
        p = self.engine.Tensor(param.data.copy(), requires_grad=True)
        optimizer, trajectory = self.optimizer_class(op)([p], **hyper), []
        for g in grads.data:
            p.grad = g.copy()
            if clipvalue is not None:
                optim.clip_grad_value_([p], clipvalue)
            if max_norm is not None:
                optim.clip_grad_norm_([p], max_norm)
            optimizer.step()
            trajectory.append(p.data.copy())
        return self.engine.Tensor(np.stack(trajectory) if trajectory else grads.data.copy())

    def clip_norms(self, grads, max_norm, per_parameter, convention):
        """engine.optim.clip_grad_norm_ over the parameters, or called once per parameter."""
        from engine import optim

        fixed(convention, {"max_norm_eps": 1e-6}, "engine.optim.clip_grad_norm_")
        params = [self.engine.Tensor(np.zeros_like(g.data), requires_grad=True) for g in grads]
        for p, g in zip(params, grads):
            p.grad = g.data.copy()
        for group in ([p] for p in params) if per_parameter else [params]:
            optim.clip_grad_norm_(group, max_norm)
        return [self.engine.Tensor(p.grad) for p in params]

    def l2_penalty(self, x, weight_decay):
        """weight_decay / 2 * sum(x^2), in the engine's ops (the gradient weight_decay x)."""
        return self.ops.mul(self.ops.sum(self.ops.mul(x, x)), weight_decay / 2)

"""The paddle adapter's optimizers: paddle.optimizer's classes as a Paddle training loop steps
them (backward() leaves the gradient on the parameter, then step() and clear_grad()); the loss
is sum(p * g), whose gradient is g exactly. Paddle writes SGD with momentum as a class of its
own (Momentum) and takes a float weight_decay as L2 regularisation added to the gradient
(L2Decay; AdamW's is decoupled). A hyperparameter a spec leaves out is Paddle's default."""
from adapters.base import Unsupported
from adapters.optimizers import Optimizers, clipping, eps_free_clipping, fixed, renamed, with_its_clipping

NAMES = {"lr": "learning_rate", "betas": ("beta1", "beta2"), "eps": "epsilon", "alpha": "rho",
         "nesterov": "use_nesterov"}
# torch's options Paddle has one way only, per op: that way's value
FIXED = {"sgd": {"dampening": 0, "decoupled_weight_decay": False},
         **dict.fromkeys(("adam", "adamw"), {"epsilon_hat": False, "amsgrad_corrected": False}),
         "rmsprop": {"eps_in_sqrt": True, "decoupled_weight_decay": False},
         "adagrad": {"eps_in_sqrt": False, "lr_decay": 0, "decoupled_weight_decay": False}}

# Paddle's conventions and defaults as the judge models them (adapters/behaviours.py)
PADDLE_DOCS = "https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/"
CLIP_NOTE = ("paddle.nn.ClipGradByGlobalNorm scales by clip_norm / max(||g||, clip_norm), where torch.nn.utils."
             "clip_grad_norm_ scales by max_norm / (||g|| + 1e-6)")


def _paddle(op, filled, note, page):
    """Paddle's `op`: `filled` where a spec leaves it out, and its norm clipping's convention."""
    return with_its_clipping(op, filled, note, CLIP_NOTE, PADDLE_DOCS + page)


PADDLE_CLIP_GRAD_NORM = eps_free_clipping(
    CLIP_NOTE + "; paddle.nn.ClipGradByNorm scales each by clip_norm / max(||g||, clip_norm)",
    PADDLE_DOCS + "nn/ClipGradByNorm_en.html")
# Why the compiled mode is refused
STATIC = ("paddle.optimizer steps parameters made from values (paddle.create_parameter with an Assign initializer), "
          "which paddle.jit.to_static's translated function does not have (TypeError: Assign takes a Tensor or an "
          "array, not a pir.Value); Paddle's users build the parameters and the optimizer outside the function they "
          "translate")
PADDLE_OPTIMIZERS = (
    *(_paddle(op, {}, "", "nn/ClipGradByGlobalNorm_en.html") for op in ("sgd", "adam", "adamw")),
    _paddle("rmsprop", {"eps_in_sqrt": True, "alpha": 0.95, "eps": 1e-6},
            "paddle.optimizer.RMSProp divides by sqrt(mean_square + epsilon) (torch: sqrt(v) + eps); its defaults are "
            "rho 0.95 and epsilon 1e-6 (torch: alpha 0.99, eps 1e-8)", "optimizer/RMSProp_en.html"),
    _paddle("adagrad", {"eps": 1e-6}, "paddle.optimizer.Adagrad's epsilon defaults to 1e-6 (torch: 1e-10)",
            "optimizer/Adagrad_en.html"),
)


class PaddleOptimizers(Optimizers):
    """A mixin of PaddleAdapter (self.paddle)."""

    def _outside_to_static(self):
        """Unsupported inside paddle.jit.to_static (STATIC says why): the optimizer's parameters
        are made from values there."""
        if not self.paddle.in_dynamic_mode():
            raise Unsupported(STATIC)

    def optimize(self, op, param, grads, hyper):
        paddle = self.paddle
        self._outside_to_static()
        hyper = dict(hyper)
        clipvalue, max_norm = clipping(hyper, "paddle.nn.ClipGradByGlobalNorm", 0.0)
        if clipvalue is not None and max_norm is not None:
            raise Unsupported("paddle.optimizer takes one grad_clip: ClipGradByValue or ClipGradByGlobalNorm")
        if clipvalue is not None:
            hyper["grad_clip"] = paddle.nn.ClipGradByValue(max=clipvalue, min=-clipvalue)
        if max_norm is not None:
            hyper["grad_clip"] = paddle.nn.ClipGradByGlobalNorm(clip_norm=max_norm)
        fixed(hyper, FIXED[op], f"paddle.optimizer's {op}")
        name = {"sgd": "Momentum" if hyper.get("momentum") else "SGD", "adam": "Adam", "adamw": "AdamW",
                "rmsprop": "RMSProp", "adagrad": "Adagrad"}[op]
        if op == "adam" and hyper.pop("decoupled_weight_decay", False):
            name = "AdamW"
        if name == "SGD":  # plain SGD takes neither
            hyper.pop("momentum", None)
            hyper.pop("nesterov", None)
        p = paddle.create_parameter(param.shape, param.dtype, default_initializer=paddle.nn.initializer.Assign(param))
        optimizer = getattr(paddle.optimizer, name)(parameters=[p], **renamed(hyper, NAMES))
        trajectory = []
        for g in grads:
            (p * g).sum().backward()
            optimizer.step()
            optimizer.clear_grad()
            trajectory.append(p.detach().clone())
        return paddle.stack(trajectory) if trajectory else grads

    def clip_norms(self, grads, max_norm, per_parameter, convention):
        """Paddle clips inside the optimizer's step (grad_clip=ClipGradByGlobalNorm, or
        ClipGradByNorm per parameter): SGD with learning rate 1 steps zero parameters by minus the
        clipped gradients, exactly (0 - 1 g); the loss sum(p * g) has the gradient g."""
        paddle = self.paddle
        self._outside_to_static()
        fixed(convention, {"max_norm_eps": 0.0}, "paddle.nn.ClipGradByGlobalNorm")
        clip = (paddle.nn.ClipGradByNorm if per_parameter else paddle.nn.ClipGradByGlobalNorm)(clip_norm=max_norm)
        params = [paddle.create_parameter(g.shape, g.dtype, default_initializer=paddle.nn.initializer.Constant(0.0))
                  for g in grads]
        optimizer = paddle.optimizer.SGD(learning_rate=1.0, parameters=params, grad_clip=clip)
        paddle.add_n([(p * g).sum() for p, g in zip(params, grads)]).backward()
        optimizer.step()
        return [-p.detach() for p in params]

"""The optimizer ops (vocabulary/optimizers.py) as one method per adapter: each op is
`optimize(op, param, grads, hyper)`, where `hyper` holds only the hyperparameters the spec gave,
in torch.optim's names; the adapter renames them for its framework and leaves the rest to the
framework's own defaults."""
from adapters.base import Unsupported
from adapters.behaviours import framework_default

# torch.optim's class of each op (engine.optim's are named alike)
TORCH_CLASSES = {"sgd": "SGD", "adam": "Adam", "adamw": "AdamW", "rmsprop": "RMSprop", "adagrad": "Adagrad"}


class Optimizers:
    """A mixin: an adapter with an `optimize` method has the five optimizer ops."""

    def optimize(self, op: str, param, grads, hyper: dict):
        """The parameter after each step [steps, ...] of the framework's optimizer `op`, built
        with `hyper` and stepped with each of `grads` in turn, as a training loop steps it."""
        raise NotImplementedError

    def sgd(self, param, grads, **hyper):
        return self.optimize("sgd", param, grads, hyper)

    def adam(self, param, grads, **hyper):
        return self.optimize("adam", param, grads, hyper)

    def adamw(self, param, grads, **hyper):
        return self.optimize("adamw", param, grads, hyper)

    def rmsprop(self, param, grads, **hyper):
        return self.optimize("rmsprop", param, grads, hyper)

    def adagrad(self, param, grads, **hyper):
        return self.optimize("adagrad", param, grads, hyper)

    def clip_norms(self, grads: list, max_norm, per_parameter: bool, convention: dict) -> list:
        """The gradients of several parameters as the framework's norm clipping leaves them (all
        by their global norm, or `per_parameter` each by its own); `convention` holds
        max_norm_eps where the spec gave it."""
        raise NotImplementedError

    def clip_grad_norm(self, a, b, max_norm, **convention):
        per_parameter = convention.pop("per_parameter", False)
        return tuple(self.clip_norms([a, b], max_norm, per_parameter, convention))

    def l2_penalty(self, x, weight_decay):
        """Where the framework has an L2 loss term (Keras' regularizer, tf.nn.l2_loss), its
        adapter overrides this."""
        raise Unsupported(f"{self.name}: the framework has no L2 loss term to call; its weight decay is its "
                          "optimizers' (weight_decay, optax.add_decayed_weights, paddle.regularizer.L2Decay)")


def renamed(hyper: dict, names: dict) -> dict:
    """torch's hyperparameter names as a framework's: names maps a torch name to the framework's
    (a pair of names for betas, which the framework takes as two numbers)."""
    out = {}
    for key, value in hyper.items():
        name = names.get(key, key)
        if isinstance(name, tuple):
            out.update(zip(name, value))
        else:
            out[name] = value
    return out


def fixed(hyper: dict, conventions: dict, framework: str) -> None:
    """Pop from `hyper` the options that the framework has one way only (`conventions`: name ->
    that way's value, 0 where it has none); a spec that asks for another way is unsupported."""
    for name, value in conventions.items():
        if name in hyper and hyper.pop(name) != value:
            raise Unsupported(f"{framework} has no {name} other than {value!r}")


def clipping(hyper: dict, framework: str, eps: float) -> tuple:
    """(clipvalue, max_norm) popped from `hyper`, where the framework clips before its optimizer
    steps; its norm clipping divides by ||g|| + eps (torch's 1e-6; 0: max(||g||, max_norm)), so
    a spec that asks for another max_norm_eps is unsupported."""
    fixed(hyper, {"max_norm_eps": eps}, framework)
    return hyper.pop("clipvalue", None), hyper.pop("max_norm", None)


def eps_free_clipping(note: str, source: str):
    """A framework's norm clipping as its documented behaviour: it scales by max_norm over the
    norm (or over max(norm, max_norm)) without torch's + 1e-6 (max_norm_eps 0)."""
    return framework_default("clip_grad_norm", {"max_norm_eps": 0.0}, note, source, regime="semantics")


def with_its_clipping(op: str, filled: dict, note: str, clipping: str, source: str):
    """A framework's optimizer `op` as its documented behaviour: `filled` where a spec leaves it
    out, and its norm clipping's convention (`clipping`, the note's last words)."""
    return framework_default(op, {**filled, "max_norm_eps": 0.0}, f"{note}; {clipping}" if note else clipping, source,
                             regime="semantics")

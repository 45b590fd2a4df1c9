"""The jax adapter's optimizers: optax's, as a JAX training loop applies them (tx.init, then
tx.update and optax.apply_updates per step). Where optax has no parameter of torch's, its users
chain one: L2 weight decay is optax.add_decayed_weights before the optimizer (torch's Adam and SGD
add it to the gradient, the same values). A hyperparameter a spec leaves out is optax's default."""
from adapters.base import Unsupported
from adapters.behaviours import framework_default
from adapters.optimizers import Optimizers, renamed

NAMES = {"lr": "learning_rate", "betas": ("b1", "b2"), "alpha": "decay"}
# torch's options that optax has one way only: that way's value (rmsprop's eps_in_sqrt is optax's own parameter)
FIXED = {"dampening": 0, "epsilon_hat": False, "lr_decay": 0, "amsgrad_corrected": True}

# optax's conventions and defaults as the judge models them (adapters/behaviours.py)
OPTAX_OPTIMIZERS = (
    framework_default("adam", {"amsgrad_corrected": True},
                      "optax.amsgrad takes the running maximum of the bias-corrected second moment v / (1 - b2^t) "
                      "(bias_correction_nu=True, its default), torch.optim.Adam(amsgrad=True) the maximum of v, "
                      "corrected afterwards by the step's 1 - b2^t: after a large gradient the two divide by "
                      "different numbers (observed 12% apart in a step, -0.01474 for torch's -0.01670)",
                      "https://optax.readthedocs.io/en/latest/api/transformations.html#optax.scale_by_amsgrad",
                      regime="semantics"),
    framework_default("rmsprop", {"eps_in_sqrt": True, "alpha": 0.9},
                      "optax.rmsprop divides by sqrt(nu + eps) (eps_in_sqrt=True, its default; torch: sqrt(v) + eps) "
                      "and its decay defaults to 0.9 (torch's alpha: 0.99)",
                      "https://optax.readthedocs.io/en/latest/api/optimizers.html#optax.rmsprop", regime="semantics"),
    framework_default("adagrad", {"eps_in_sqrt": True, "initial_accumulator_value": 0.1, "eps": 1e-7},
                      "optax.adagrad divides by sqrt(s + eps) (torch: sqrt(s) + eps); its defaults are "
                      "initial_accumulator_value 0.1 and eps 1e-7 (torch: 0 and 1e-10)",
                      "https://optax.readthedocs.io/en/latest/api/optimizers.html#optax.adagrad", regime="semantics"),
)


class JaxOptimizers(Optimizers):
    """A mixin of JaxAdapter (self.jax, self.jnp)."""

    def optimize(self, op, param, grads, hyper):
        import optax

        transformation = self._transformation(optax, op, dict(hyper))
        state, p, trajectory = transformation.init(param), param, []
        for g in grads:
            updates, state = transformation.update(g, state, p)
            p = optax.apply_updates(p, updates)
            trajectory.append(p)
        return self.jnp.stack(trajectory) if trajectory else grads

    @staticmethod
    def _transformation(optax, op, hyper):
        for name, value in {**FIXED, **({"eps_in_sqrt": True} if op == "adagrad" else {})}.items():
            if name in hyper and hyper.pop(name) != value:
                raise Unsupported(f"optax.{op} has no {name} other than {value!r}")
        decay = 0.0 if op == "adamw" else hyper.pop("weight_decay", 0.0)
        if op == "sgd":
            factory = optax.sgd
        elif op == "adam" and hyper.pop("decoupled_weight_decay", False):
            factory, hyper["weight_decay"], decay = optax.adamw, decay, 0.0
        else:
            factory = {"adam": optax.adam, "adamw": optax.adamw, "rmsprop": optax.rmsprop,
                       "adagrad": optax.adagrad}[op]
        if op in ("adam", "adamw") and hyper.pop("amsgrad", False):
            if factory is not optax.adam:
                raise Unsupported("optax has no AdamW with amsgrad (optax.amsgrad is Adam's)")
            factory = optax.amsgrad
        transformation = factory(**renamed(hyper, NAMES))
        return optax.chain(optax.add_decayed_weights(decay), transformation) if decay else transformation

"""The jax adapter's optimizers: optax's, as a JAX training loop applies them (tx.init, then
tx.update and optax.apply_updates per step). Where optax has no parameter of torch's, its users
chain one: clipping is optax.clip and optax.clip_by_global_norm first, L2 weight decay
optax.add_decayed_weights before the optimizer (torch's Adam and SGD add it to the gradient, the
same values). A hyperparameter a spec leaves out is optax's default."""
from adapters.base import Unsupported
from adapters.optimizers import Optimizers, clipping, eps_free_clipping, fixed, renamed, with_its_clipping

NAMES = {"lr": "learning_rate", "betas": ("b1", "b2"), "alpha": "decay"}
# torch's options that optax has one way only: that way's value (rmsprop's eps_in_sqrt is optax's own parameter)
FIXED = {"dampening": 0, "epsilon_hat": False, "lr_decay": 0, "amsgrad_corrected": True}

# optax's conventions and defaults as the judge models them (adapters/behaviours.py)
CLIP_NOTE = ("optax.clip_by_global_norm scales by max_norm / max(||g||, max_norm), where torch.nn.utils."
             "clip_grad_norm_ scales by max_norm / (||g|| + 1e-6)")
OPTAX = "https://optax.readthedocs.io/en/latest/api/"


def _optax(op, filled, note, source):
    """optax's `op`: `filled` where a spec leaves it out, and its norm clipping's convention."""
    return with_its_clipping(op, filled, note, CLIP_NOTE, OPTAX + source)


OPTAX_CLIP_GRAD_NORM = eps_free_clipping(CLIP_NOTE, OPTAX + "transformations.html#optax.clip_by_global_norm")
OPTAX_OPTIMIZERS = (
    _optax("sgd", {}, "", "transformations.html#optax.clip_by_global_norm"),
    _optax("adamw", {}, "", "transformations.html#optax.clip_by_global_norm"),
    _optax("adam", {"amsgrad_corrected": True},
           "optax.amsgrad takes the running maximum of the bias-corrected second moment v / (1 - b2^t) "
           "(bias_correction_nu=True, its default), torch.optim.Adam(amsgrad=True) the maximum of v, corrected "
           "afterwards by the step's 1 - b2^t: after a large gradient the two divide by different numbers "
           "(observed 12% apart in a step, -0.01474 for torch's -0.01670)",
           "transformations.html#optax.scale_by_amsgrad"),
    _optax("rmsprop", {"eps_in_sqrt": True, "alpha": 0.9},
           "optax.rmsprop divides by sqrt(nu + eps) (eps_in_sqrt=True, its default; torch: sqrt(v) + eps) and its "
           "decay defaults to 0.9 (torch's alpha: 0.99)", "optimizers.html#optax.rmsprop"),
    _optax("adagrad", {"eps_in_sqrt": True, "initial_accumulator_value": 0.1, "eps": 1e-7},
           "optax.adagrad divides by sqrt(s + eps) (torch: sqrt(s) + eps); its defaults are initial_accumulator_value "
           "0.1 and eps 1e-7 (torch: 0 and 1e-10)", "optimizers.html#optax.adagrad"),
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

    def clip_norms(self, grads, max_norm, per_parameter, convention):
        import optax

        if per_parameter:
            raise Unsupported("optax has no per-parameter norm clipping (optax.clip_by_block_rms clips each "
                              "parameter by its root mean square, not its norm)")
        fixed(convention, {"max_norm_eps": 0.0}, "optax.clip_by_global_norm")
        transformation = optax.clip_by_global_norm(max_norm)
        return transformation.update(list(grads), transformation.init(list(grads)))[0]

    @staticmethod
    def _transformation(optax, op, hyper):
        fixed(hyper, {**FIXED, **({"eps_in_sqrt": True} if op == "adagrad" else {})}, f"optax.{op}")
        clipvalue, max_norm = clipping(hyper, "optax.clip_by_global_norm", 0.0)
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
        chain = [optax.clip(clipvalue)] if clipvalue is not None else []
        chain += [optax.clip_by_global_norm(max_norm)] if max_norm is not None else []
        chain += [optax.add_decayed_weights(decay)] if decay else []
        return optax.chain(*chain, factory(**renamed(hyper, NAMES)))

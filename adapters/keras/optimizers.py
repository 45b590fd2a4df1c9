"""keras.optimizers as Keras users step them (keras.Variable, then optimizer.apply(grads, vars)
per step), for the Keras adapter on each backend and for TensorFlow's adapter (tf.keras is Keras
3). A hyperparameter a spec leaves out is Keras' default.

Keras' conventions are fixed where torch's are options: its Adam adds epsilon to sqrt(v) before
the bias correction (epsilon_hat), RMSprop and Adagrad put it inside the square root, and every
weight_decay is decoupled. A spec that asks for the convention Keras has runs; one that asks
for another, or for a parameter Keras has none of (SGD's dampening, Adagrad's lr_decay), is
unsupported in those words."""
import numpy as np

from adapters.base import DTYPES, FLOATS, dtypes_except
from adapters.behaviours import Behaviour, framework_default
from adapters.keras.layers import refuse_in_trace
from adapters.optimizers import Optimizers, eps_free_clipping, fixed, renamed
from vocabulary.optimizers import OPTIMIZERS_AND_CLIPPING

NAMES = {"lr": "learning_rate", "betas": ("beta_1", "beta_2"), "eps": "epsilon", "alpha": "rho",
         "max_norm": "global_clipnorm"}
CLASSES = {"sgd": "SGD", "adam": "Adam", "adamw": "AdamW", "rmsprop": "RMSprop", "adagrad": "Adagrad"}
# torch's options that Keras has one way only: that way's value (0: Keras has none)
FIXED = {"epsilon_hat": True, "eps_in_sqrt": True, "decoupled_weight_decay": True, "amsgrad_corrected": False,
         "dampening": 0, "lr_decay": 0, "max_norm_eps": 0}
# What keras.optimizers take per backend (python -m suites coverage --check): Adam multiplies
# by float betas where TensorFlow keeps an integer variable's dtype
OPTIMIZER_DTYPES = {"tensorflow": {**dict.fromkeys(("sgd", "rmsprop", "adagrad"), dtypes_except("bool")),
                                   **dict.fromkeys(("adam", "adamw", "clip_grad_norm"), FLOATS),
                                   # ops.cast of l2 to an 8- or 16-bit integer widens
                                   "l2_penalty": dtypes_except("int8", "uint8", "int16", "uint16")},
                    "jax": {**dict.fromkeys(("sgd", "adam", "adamw", "clip_grad_norm"), dtypes_except("bool")),
                            **dict.fromkeys(("rmsprop", "adagrad"), DTYPES)},
                    "torch": dict.fromkeys(OPTIMIZERS_AND_CLIPPING, FLOATS)}
# Why the compiled mode is refused on the tensorflow backend (the layers' why: adapters/keras/layers.py)
VARIABLES_IN_TRACE = ("make their variables (the parameter's keras.Variable, the optimizer's slots) when they are "
                      "built, and tf.function refuses tf.Variables made inside its trace (ValueError: tf.function "
                      "only supports singleton tf.Variables created on the first call); Keras compiles the train "
                      "step of an optimizer built beforehand")


# Keras' conventions and defaults as the judge models them (adapters/behaviours.py): the Keras
# adapter's behaviours on every backend, and TensorFlow's
KERAS_SOURCE = "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/optimizers/"
KERAS_CLIP = ("its global_clipnorm scales by max_norm min(1 / ||g||, 1 / max_norm) (torch's clip_grad_norm_: "
              "max_norm / (||g|| + 1e-6))")
KERAS_DECAY = ("and its weight_decay is decoupled, p -= lr wd p before the step (BaseOptimizer._apply_weight_decay), "
               "where torch.optim adds wd p to the gradient")


def _keras(op, filled, note, file):
    """Keras' `op`: its conventions and defaults `filled` where a spec leaves them out, every
    weight_decay decoupled (AdamW's is by definition), and global_clipnorm dividing by
    max(||g||, max_norm) (torch's clip_grad_norm_ by ||g|| + 1e-6)."""
    decay = {"max_norm_eps": 0.0} if op == "adamw" else {"decoupled_weight_decay": True, "max_norm_eps": 0.0}
    note += ("" if op == "adamw" else "; " + KERAS_DECAY) + "; " + KERAS_CLIP
    return framework_default(op, {**filled, **decay}, note, KERAS_SOURCE + file, regime="semantics")


KERAS_OPTIMIZERS = (
    _keras("sgd", {"lr": 0.01}, "keras.optimizers.SGD's learning rate defaults to 0.01 (torch: 0.001)",
           "base_optimizer.py"),
    _keras("adam", {"epsilon_hat": True, "eps": 1e-7},
           "keras.optimizers.Adam adds epsilon to sqrt(v) before the bias correction, alpha = lr sqrt(1 - b2^t) / "
           "(1 - b1^t), p -= alpha m / (sqrt(v) + eps) (the paper's 'epsilon hat'; torch adds it to sqrt(v_hat)), "
           "and epsilon defaults to 1e-7 (torch: 1e-8)", "adam.py"),
    _keras("adamw", {"epsilon_hat": True, "eps": 1e-7, "weight_decay": 0.004},
           "keras.optimizers.AdamW is Keras' Adam (epsilon added before the bias correction) with weight_decay "
           "defaulting to 0.004 (torch: 0.01) and epsilon to 1e-7 (torch: 1e-8)", "adamw.py"),
    _keras("rmsprop", {"eps_in_sqrt": True, "lr": 0.001, "alpha": 0.9, "eps": 1e-7},
           "keras.optimizers.RMSprop divides by sqrt(v + epsilon) (torch: sqrt(v) + eps); its defaults are "
           "learning_rate 0.001, rho 0.9, epsilon 1e-7 (torch: 0.01, alpha 0.99, eps 1e-8)", "rmsprop.py"),
    _keras("adagrad", {"eps_in_sqrt": True, "lr": 0.001, "initial_accumulator_value": 0.1, "eps": 1e-7},
           "keras.optimizers.Adagrad divides by sqrt(s + epsilon) (torch: sqrt(s) + eps); its defaults are "
           "learning_rate 0.001, initial_accumulator_value 0.1, epsilon 1e-7 (torch: 0.01, 0, 1e-10)", "adagrad.py"),
)


KERAS_CLIP_GRAD_NORM = eps_free_clipping(
    "keras.optimizers' global_clipnorm scales by max_norm min(1 / ||g||, 1 / max_norm) and clipnorm by max_norm / "
    "max(||g||, max_norm) (torch's clip_grad_norm_: max_norm / (||g|| + 1e-6))", KERAS_SOURCE + "base_optimizer.py")


KERAS_L2_REGULARIZER = Behaviour(
    "l2_penalty", lambda x, weight_decay: np.asarray(weight_decay * np.sum(np.asarray(x) * x)),
    "keras.regularizers.L2(l2) adds l2 * sum(x^2) to the loss (its gradient 2 l2 x), twice the term whose "
    "gradient is torch's weight_decay: L2(wd / 2) is weight_decay=wd", KERAS_SOURCE.replace("optimizers/", "")
    + "regularizers/regularizers.py", regime="semantics")


def clip_norms(keras, grads: list, max_norm, per_parameter: bool, convention: dict) -> list:
    """The gradients as keras.optimizers clip them (global_clipnorm, or clipnorm per variable):
    Keras clips inside the optimizer's apply, so SGD with learning rate 1 steps zero variables by
    minus the clipped gradients, exactly: -0 - 1 g, negated, is g, a zero's sign too (from +0 a
    clipped +0 came back as -(0 - 0) = -0)."""
    if keras.backend.backend() == "tensorflow":
        refuse_in_trace("keras.optimizers", VARIABLES_IN_TRACE)
    fixed(convention, {"max_norm_eps": 0.0}, "keras.optimizers' clipnorm")
    variables = [keras.Variable(keras.ops.negative(keras.ops.zeros_like(g))) for g in grads]  # -0
    clipping = {"clipnorm" if per_parameter else "global_clipnorm": max_norm}
    keras.optimizers.SGD(learning_rate=1.0, **clipping).apply(list(grads), variables)
    return [keras.ops.negative(v.value) for v in variables]


def run(keras, op: str, param, grads, hyper: dict):
    """The parameter after each step [steps, ...] of keras.optimizers' `op`."""
    if keras.backend.backend() == "tensorflow":
        refuse_in_trace("keras.optimizers", VARIABLES_IN_TRACE)
    hyper = dict(hyper)
    fixed(hyper, FIXED, f"keras.optimizers.{CLASSES[op]}")
    # a copy: on the torch backend keras.Variable(tensor) shares the tensor's memory, so the
    # optimizer's steps would write into the caller's parameter (the judge's input check found it,
    # 2026-12-03); the trajectory asked for is the variable's, not the caller's tensor's
    variable = keras.Variable(keras.ops.copy(param))
    optimizer = getattr(keras.optimizers, CLASSES[op])(**renamed(hyper, NAMES))
    trajectory = []
    for g in grads:
        optimizer.apply([g], [variable])
        trajectory.append(keras.ops.copy(variable.value))  # this step's value: the variable changes in place
    return keras.ops.stack(trajectory) if trajectory else grads


class KerasOptimizers(Optimizers):
    """A mixin of KerasAdapter (self.keras)."""

    def optimize(self, op, param, grads, hyper):
        return run(self.keras, op, param, grads, hyper)

    def clip_norms(self, grads, max_norm, per_parameter, convention):
        return clip_norms(self.keras, grads, max_norm, per_parameter, convention)

    def l2_penalty(self, x, weight_decay):
        return self.keras.regularizers.L2(weight_decay)(x)

"""The vocabulary's optimizer records (vocabulary/__init__.py explains the vocabulary): each runs a
framework's own optimizer, as its users build and step it, for as many steps as `grads` holds.

The gradients are given, not computed: every framework starts from the same parameter and takes
the same gradients, so what differs is the optimizer alone (its formula, its defaults, its
rounding). The signatures are torch.optim's, names and defaults; a parameter a spec leaves out
is the framework's own default (Keras' Adam epsilon is 1e-7, optax's rmsprop decay 0.9).
"""
import numpy as np

from vocabulary.records import Op, values

STEPS = ("param [...]: the starting value; grads [steps, ...]: the gradient at each step. Clipping first, as "
         "torch.nn.utils' clip_grad_value_ and clip_grad_norm_ before step(): clipvalue clips each gradient to "
         "[-clipvalue, clipvalue]; max_norm scales it by min(1, max_norm / (||g|| + max_norm_eps)) (one parameter: "
         "its norm is the global norm); torch adds 1e-6 there, optax's clip_by_global_norm, Keras' global_clipnorm "
         "and Paddle's ClipGradByGlobalNorm divide by max(||g||, max_norm) (max_norm_eps 0, documented). Returns "
         "[steps, ...]: the parameter after each step.")
CLIPPING = "clipvalue=None, max_norm=None, max_norm_eps=1e-06"


def _steps(dtype):
    return [values(dtype, (2, 3)), np.stack([values(dtype, (2, 3))] * 3) / 8], {"lr": 0.5}  # optax has no default lr


def optimizer(name, signature, semantics):
    return Op(name, f"param, grads, {signature}, {CLIPPING}", "optimizers", f"{semantics} {STEPS}", _steps,
              bound="optimizer")


OPTIMIZER_OPS = [
    optimizer("sgd", "lr=0.001, momentum=0.0, dampening=0.0, nesterov=False, weight_decay=0.0, "
                     "decoupled_weight_decay=False",
              "torch.optim.SGD: g += weight_decay p (L2, coupled); with momentum mu, b = g at the first step, then "
              "b = mu b + (1 - dampening) g; nesterov uses g + mu b; p -= lr b. decoupled_weight_decay: p -= lr "
              "weight_decay p before the step in place of the L2 term, as Keras' weight_decay is (documented). "
              "Keras writes the velocity with lr inside (v = mu v - lr g; p += v), the same values at a constant lr."),
    optimizer("adam", "lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.0, amsgrad=False, "
                      "decoupled_weight_decay=False, epsilon_hat=False, amsgrad_corrected=False",
              "torch.optim.Adam (Kingma and Ba, Algorithm 1): g += weight_decay p (L2, coupled); m = b1 m + (1 - b1) "
              "g, v = b2 v + (1 - b2) g^2, t counted from 1; p -= lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + "
              "eps); amsgrad divides by the running maximum of v. decoupled_weight_decay (torch's): AdamW's decay in "
              "L2's place. epsilon_hat: p -= lr sqrt(1 - b2^t) / (1 - b1^t) m / (sqrt(v) + eps), eps added "
              "before the bias correction (the paper's 'epsilon hat', end of its section 2): Keras' form, whose "
              "weight_decay is decoupled too (documented). amsgrad_corrected: the maximum of v / (1 - b2^t), "
              "corrected before the maximum, as optax.amsgrad takes it (documented)."),
    optimizer("adamw", "lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False, "
                       "epsilon_hat=False, amsgrad_corrected=False",
              "torch.optim.AdamW (Loshchilov and Hutter): p -= lr weight_decay p (decoupled, before the step), "
              "then Adam's update without L2. optax.adamw adds weight_decay p to the update before the learning "
              "rate scales it: the same values. epsilon_hat and amsgrad_corrected as adam's. Defaults differ: "
              "torch 0.01, optax 1e-4, Keras 0.004."),
    optimizer("rmsprop", "lr=0.01, alpha=0.99, eps=1e-08, weight_decay=0.0, momentum=0.0, centered=False, "
                         "eps_in_sqrt=False, decoupled_weight_decay=False",
              "torch.optim.RMSprop (Hinton's lecture 6e): g += weight_decay p; v = alpha v + (1 - alpha) g^2 (from "
              "0); centered: mean = alpha mean + (1 - alpha) g and v - mean^2 in v's place; d = sqrt(v) + eps; "
              "with momentum mu, b = mu b + g / d, p -= lr b; else p -= lr g / d. eps_in_sqrt (optax's name): d = "
              "sqrt(v + eps), as Keras, optax and Paddle compute it (documented). decoupled_weight_decay as sgd's."),
    optimizer("adagrad", "lr=0.01, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10, "
                         "eps_in_sqrt=False, decoupled_weight_decay=False",
              "torch.optim.Adagrad (Duchi et al.): g += weight_decay p; s = s + g^2 from initial_accumulator_value; "
              "p -= lr / (1 + (t - 1) lr_decay) g / (sqrt(s) + eps); eps_in_sqrt: g / sqrt(s + eps). Keras and "
              "optax start s at 0.1 and put eps inside the square root (documented). decoupled_weight_decay as sgd's."),
]
OPTIMIZERS = tuple(op.name for op in OPTIMIZER_OPS)

# Norm clipping over several parameters: what an optimizer op cannot show, since it steps one
CLIP_GRAD_NORM = Op(
    "clip_grad_norm", "a, b, max_norm, per_parameter=False, max_norm_eps=1e-06", "optimizers",
    "The gradients a and b of two parameters as norm clipping leaves them before a step. Global (torch.nn.utils."
    "clip_grad_norm_ over both, tf.clip_by_global_norm, optax.clip_by_global_norm, Keras' global_clipnorm, "
    "Paddle's ClipGradByGlobalNorm): both scaled by min(1, max_norm / (||(a, b)|| + max_norm_eps)), the norm over "
    "every element of both. per_parameter (Keras' clipnorm, tf.clip_by_norm, Paddle's ClipGradByNorm, one "
    "clip_grad_norm_ call per parameter): each by its own norm. torch adds max_norm_eps 1e-6; the others divide "
    "by max(||g||, max_norm) (max_norm_eps 0, documented). optax has no per-parameter norm clipping.",
    lambda dtype: ([values(dtype, (2, 3)), values(dtype, (3,))], {"max_norm": 1.0}), parts=("a", "b"),
    bound="clipping")
# the optimizers group's ops: what an adapter declares alike where its optimizers take the same dtypes
OPTIMIZERS_AND_CLIPPING = (*OPTIMIZERS, CLIP_GRAD_NORM.name)

# Weight decay written into the loss, against the optimizers' weight_decay
L2_PENALTY = Op(
    "l2_penalty", "x, weight_decay", "optimizers",
    "L2 in the loss for the weight decay weight_decay: weight_decay / 2 * sum(x^2), whose gradient weight_decay x "
    "is what torch's weight_decay adds to the gradient (tf.nn.l2_loss(x) * weight_decay; Paddle's L2Decay "
    "documents this loss). Keras' L2 regularizer (keras.regularizers.L2(l2), a layer's kernel_regularizer) adds "
    "l2 * sum(x^2), twice as much for the same number (documented). torch, optax and Paddle have no loss term to "
    "call: their weight decay is the optimizer's.",
    lambda dtype: ([values(dtype)], {"weight_decay": 0.01}), bound="penalty")

"""The vocabulary: one record per op that specs may call and adapters implement.

A record holds everything Parity knows about an op: its argument signature, its semantics (the
contract an adapter author reads: formats, conventions, defaults), a coverage sample (a small
call that `python -m suites coverage --check` runs in every dtype), and the flags the runner and
the comparison need. Every other table derives from these records: `adapters.base.Adapter`'s
default methods (which raise Unsupported), the expression language's ops, the error-bound rules,
the coverage samples, and docs/vocabulary.md (`python -m suites vocabulary --write`).

Defaults: the signature's defaults are Parity's conventions, which the reference computes. A
parameter a spec leaves out is left to the framework: each adapter's method has its framework's
own default there and calls the framework's API with it (torch's pad_sequence is time-major,
Keras' pad_sequences pads at the front), and documents each default that differs as a behaviour
(adapters/behaviours.py, regime "default"). A spec that checks semantics passes every parameter.

Adding an op: its record here, the reference (adapters/reference.py), the engine, one method per
adapter, a spec that calls it (docs/adding-an-op.md).
"""
import ast
import inspect
from dataclasses import dataclass

import numpy as np


class Index(np.ndarray):
    """A sample's index argument: int64, whatever the dtype under test."""


class Mask(np.ndarray):
    """A sample's mask / condition argument: bool, whatever the dtype under test."""


INDEX = np.array([[0, 2, 1], [1, 0, 0]]).view(Index)
MASK = np.array([[True, False, True], [False, False, True]]).view(Mask)


def _x(dtype, shape=(2, 3)):
    """Small positive values (log and sqrt accept them), exact in every dtype; bools for bool."""
    values = np.arange(1, int(np.prod(shape)) + 1).reshape(shape) % 5 + 1
    return values.astype(bool) if dtype == "bool" else values


def _rnn_sample(op):
    def sample(dtype):
        from adapters.base import rnn_param_shapes

        params = {k: np.full(s, 0.25) for k, s in rnn_param_shapes(3, 2, op=op).items()}
        return [_x(dtype, (2, 4, 3)), *(None,) * (2 if op == "lstm" else 1), params], {}

    return sample


def _mha_sample(dtype):
    from adapters.base import attention_param_shapes

    params = {k: np.full(s, 0.25) for k, s in attention_param_shapes(4).items()}
    return [_x(dtype, (2, 2, 4))] * 3 + [params], {"num_heads": 2}  # a valid call in either layout


def _binary(d):
    return [_x(d), _x(d)], {}


def _unary(d):
    return [_x(d)], {}


def _along_axis(d):
    return [_x(d)], {"axis": 1}


@dataclass(frozen=True)
class Op:
    name: str
    signature: str  # the adapter method's parameters after self, as Python writes them
    group: str  # the section of docs/vocabulary.md
    semantics: str  # the contract: what the result must be, argument formats, conventions
    # dtype -> (args, kwargs) of a small call (NumPy values; Index / Mask keep their own dtype)
    sample: object = None
    no_dtype: bool = False  # no tensor input: its dtype is not a question (coverage skips it)
    number_operands: bool = False  # a number in an expression is a tensor operand here (2 * x)
    dtype_param: bool = False  # the result dtype is a parameter: the runner passes the dtype under test
    index_dtyped: bool = False  # the dtype under test is that of its integer input (lengths, ids)
    zero_derivative: bool = False  # derivative zero by definition or almost everywhere (held fixed)
    parts: tuple = ()  # the names of the tensors it returns, for an op that returns several
    bound: str | None = None  # the sum-product error rule it follows (suites/compare.py), if any

    @property
    def parameters(self) -> inspect.Signature:
        """The signature as inspect sees it (parsed with ast, never executed)."""
        fn = ast.parse(f"def f(self, {self.signature}): pass").body[0].args
        names = [a.arg for a in fn.args]
        defaults = [ast.literal_eval(d) for d in fn.defaults]
        first_default = len(names) - len(defaults)
        return inspect.Signature([
            inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                              default=defaults[i - first_default] if i >= first_default else inspect.Parameter.empty)
            for i, n in enumerate(names)])


BROADCAST = ("Elementwise, NumPy broadcasting; either operand may be a Python number (x + 1.5, as users write "
             "it: weakly typed). The result has the operands' promoted dtype (Parity expects NumPy 2's, NEP 50).")
REDUCTION = ("axis: None (every axis), an int or a tuple of ints; keepdims keeps the reduced axes with "
             "size 1.")
MULTIHEAD = "query, key, value, params, num_heads, key_padding_mask=None, batch_first=True"
POOL = ("torch.nn.functional's pooling on x [N, C, H, W]: kernel and stride (None: the kernel) an int or a "
        "pair; padding an int or a pair (both sides), 'valid' (none) or 'same' (TensorFlow's SAME: ceil(L / "
        "stride) outputs, the odd padding element at the end); ceil_mode rounds the output length up (a last "
        "window must start inside x or its left padding).")

_OPS = [
    # -- linear algebra
    Op("matmul", "a, b", "linear algebra", sample=lambda d: ([_x(d), _x(d, (3, 2))], {}), bound="matmul",
       semantics="numpy.matmul: a 1-D first operand is promoted to (1, n) and a 1-D second operand to (n, 1), "
                 "the added axis removed afterwards; leading (batch) axes broadcast. Scalars are refused."),
    Op("mm", "a, b", "linear algebra", sample=lambda d: ([_x(d), _x(d, (3, 2))], {}), bound="matmul",
       semantics="torch.mm: strictly (n, m) x (m, p) -> (n, p); no broadcasting, no 1-D operands."),
    # -- elementwise, broadcasting
    Op("add", "a, b", "elementwise", "a + b. " + BROADCAST, _binary, number_operands=True, bound="sum"),
    Op("sub", "a, b", "elementwise", "a - b. " + BROADCAST, _binary, number_operands=True, bound="sum"),
    Op("mul", "a, b", "elementwise", "a * b. " + BROADCAST, _binary, number_operands=True, bound="product"),
    Op("div", "a, b", "elementwise", "a / b (true division). " + BROADCAST, _binary, number_operands=True),
    Op("maximum", "a, b", "elementwise", "The larger of a and b; NaN if either is NaN, and +0 of -0 and +0 "
       "(IEEE 754-2019 maximum). " + BROADCAST, _binary, number_operands=True,
       bound="exact"),
    Op("minimum", "a, b", "elementwise", "The smaller of a and b; NaN if either is NaN, and -0 of -0 and +0 "
       "(IEEE 754-2019 minimum). " + BROADCAST, _binary, number_operands=True,
       bound="exact"),
    Op("pow", "a, b", "elementwise", "a ** b. " + BROADCAST, _binary, number_operands=True),
    Op("greater", "a, b", "elementwise", "a > b: a bool tensor (a mask made from values, without a derivative). "
       "Written `a > b` or `b < a` in expressions. " + BROADCAST.split(" The result")[0], _binary,
       number_operands=True, zero_derivative=True),
    Op("clip", "x, lo, hi", "elementwise", "min(max(x, lo), hi), lo <= hi given as numbers (torch.clamp, "
       "jnp.clip, tf.clip_by_value). Where x sits on a bound it has no derivative: the reference's finite "
       "differences give 1/2 there, as maximum's tie does; frameworks choose (documented).",
       lambda d: ([_x(d), 2, 4], {})),
    Op("neg", "x", "elementwise", "-x.", _unary, bound="exact"),
    Op("exp", "x", "elementwise", "e ** x.", _unary),
    Op("log", "x", "elementwise", "Natural logarithm.", _unary),
    Op("tanh", "x", "elementwise", "Hyperbolic tangent.", _unary),
    Op("sigmoid", "x", "elementwise", "1 / (1 + exp(-x)).", _unary),
    Op("relu", "x", "elementwise", "max(x, 0).", _unary),
    Op("abs", "x", "elementwise", "|x|.", _unary, bound="exact"),
    Op("sqrt", "x", "elementwise", "Square root.", _unary),
    Op("square", "x", "elementwise", "x * x.", _unary, bound="square"),
    Op("round", "x, half='even'", "elementwise", "The nearest integer; a tie goes to the even one (half='even': "
       "numpy.round, torch.round, tf.round, keras.ops.round, jnp.round) or away from zero (half='away': C's "
       "round, jax.lax.round's default rounding_method).", _unary, zero_derivative=True),
    Op("sign", "x", "elementwise", "-1, 0 or 1 (sign(0) = 0).", _unary, zero_derivative=True),
    # -- reductions and shapes
    Op("sum", "x, axis=None, keepdims=False", "reductions and shapes", "Sum. " + REDUCTION, _along_axis,
       bound="reduction"),
    Op("mean", "x, axis=None, keepdims=False", "reductions and shapes", "Arithmetic mean. " + REDUCTION,
       _along_axis, bound="reduction"),
    Op("max", "x, axis=None, keepdims=False", "reductions and shapes", "Largest value. " + REDUCTION,
       _along_axis),
    Op("cumsum", "x, axis", "reductions and shapes", "numpy.cumsum along axis: out[..., i] = x[..., 0] + ... + "
       "x[..., i]; the result has x's dtype (NumPy, and torch, widen small integers: documented).", _along_axis,
       bound="cumsum"),
    Op("argmin", "x, axis", "reductions and shapes", "int64 index of the smallest value along axis (the first "
       "one on ties).", _along_axis, zero_derivative=True),
    Op("reshape", "x, shape", "reductions and shapes", "numpy.reshape; shape is a tuple, -1 allowed once.",
       lambda d: ([_x(d), (3, 2)], {}), bound="structural"),
    Op("transpose", "x, axes", "reductions and shapes", "numpy.transpose with every axis named in axes.",
       lambda d: ([_x(d), (1, 0)], {}), bound="structural"),
    Op("concat", "xs, axis", "reductions and shapes", "numpy.concatenate of a list of tensors along axis.",
       lambda d: ([[_x(d), _x(d)], 0], {}), bound="joined"),
    Op("stack", "xs, axis", "reductions and shapes", "numpy.stack: the tensors along a new axis.",
       lambda d: ([[_x(d), _x(d)], 0], {}), bound="joined"),
    Op("softmax", "x, axis=-1", "reductions and shapes", "exp(x) / sum(exp(x)) along axis.", _along_axis),
    Op("log_softmax", "x, axis=-1", "reductions and shapes", "x - log(sum(exp(x))) along axis.", _along_axis),
    Op("where", "cond, x, y", "reductions and shapes", "numpy.where: x where the bool cond is True, else y; "
       "the three broadcast.", lambda d: ([MASK, _x(d), _x(d)], {})),
    # -- masking and padding
    Op("sequence_mask", "lengths, max_len", "masking and padding", "bool [B, max_len], True at the valid steps "
       "t < lengths[b] (lengths: an integer tensor [B]).", lambda d: ([np.array([1, 3]).view(Index)],
                                                                     {"max_len": 4}), index_dtyped=True),
    Op("causal_mask", "size", "masking and padding", "bool [size, size], the lower triangle (diagonal "
       "included) True: position i attends to j <= i.", lambda d: ([3], {}), no_dtype=True),
    Op("segment_mask", "segment_ids", "masking and padding", "bool [B, T, T] from integer segment ids [B, T]: "
       "True where both positions share a nonzero segment id (segment 0 is padding and attends to nothing).",
       lambda d: ([INDEX], {}), index_dtyped=True),
    Op("masked_fill", "x, mask, value", "masking and padding", "x with `value` (a number) where the bool mask "
       "(broadcast to x) is True.", lambda d: ([_x(d), MASK, 0], {})),
    Op("masked_softmax", "x, mask, axis=-1", "masking and padding", "The framework's own masked-softmax idiom: "
       "softmax over the positions where the bool mask is True, 0 at the others; a row with no True position "
       "is all 0 (softmax over nothing), the convention of jax.nn.softmax(where=) and Keras' Softmax(mask=).",
       lambda d: ([_x(d), MASK], {})),
    Op("pad", "x, pad_width, mode='constant', value=0", "masking and padding", "numpy.pad: pad_width is "
       "[(before, after)] per axis of x, in NumPy's axis order (first axis first, unlike torch's F.pad, "
       "which lists the last axis first), non-negative. mode: constant (with value), reflect (mirror without "
       "the edge), symmetric (mirror with the edge), replicate (repeat the edge; NumPy's 'edge').",
       lambda d: ([_x(d), ((1, 1), (0, 2))], {})),
    Op("pad_sequences", "seqs, value=0, side='post', max_len=None, truncate='post', batch_first=True",
       "masking and padding",
       "A list of tensors [T_i, ...] -> one [B, T, ...] ([T, B, ...] where batch_first is false): T = max_len "
       "or the longest T_i; side 'post' pads at the end, 'pre' at the front; sequences longer than max_len "
       "lose their end ('post') or their front ('pre'). The result has the sequences' dtype.",
       lambda d: ([[_x(d, (3,)), _x(d, (1,))]], {})),
    # -- indexing
    Op("gather", "x, axis, index", "indexing", "torch.gather: out[i][j] = x[i][index[i][j]] (axis 1). index is "
       "int64 with x's rank and covers the first index.shape[d] entries of every other axis d; out has "
       "index's shape.", lambda d: ([_x(d), 1, INDEX], {})),
    Op("scatter", "x, axis, index, src", "indexing", "torch.Tensor.scatter, out of place: a copy of x with "
       "out[i][index[i][j]] = src[i][j] (axis 1); src is a tensor (its leading block of index's shape is "
       "used) or a number. With duplicate indices the order of writes is the framework's.",
       lambda d: ([_x(d), 1, INDEX[:, :1], _x(d, (2, 1))], {})),  # unique targets per row
    Op("scatter_add", "x, axis, index, src", "indexing", "torch.Tensor.scatter_add, out of place: "
       "out[i][index[i][j]] += src[i][j] (axis 1); duplicate indices all add.",
       lambda d: ([_x(d), 1, INDEX, _x(d)], {}), bound="scatter_add"),
    Op("one_hot", "indices, num_classes, dtype='int64'", "indexing", "[..., num_classes] with 1 at each index "
       "and 0 elsewhere, in `dtype` (the suite passes the dtype under test).",
       lambda d: ([INDEX], {"num_classes": 3, "dtype": d}), dtype_param=True, index_dtyped=True),
    # -- autodiff
    Op("stop_gradient", "x", "autodiff", "x, with no gradient flowing back through it (torch's detach, "
       "jax.lax.stop_gradient).", _unary, zero_derivative=True, bound="structural"),
    # -- layers
    Op("lstm", "x, h0, c0, params, num_layers=1, bidirectional=False, batch_first=True", "layers",
       "torch.nn.LSTM. x [B, T, I] (batch_first) or [T, B, I]; h0, c0 [D*L, B, H] indexed layer * D + "
       "direction (None: zeros); params: a dict in PyTorch's names and layouts (weight_ih_l0 [4H, I], "
       "weight_hh_l0 [4H, H], bias_ih_l0 and bias_hh_l0 [4H], '_reverse' for the reverse direction; gate order "
       "i, f, g, o). Returns (output [B, T, D*H] or [T, B, D*H], h_n, c_n [D*L, B, H]).",
       _rnn_sample("lstm"), parts=("output", "h_n", "c_n")),
    Op("gru", "x, h0, params, num_layers=1, bidirectional=False, batch_first=True, reset_after=True", "layers",
       "torch.nn.GRU, laid out and stacked as lstm (params weight_ih_l0 [3H, I], weight_hh_l0 [3H, H], bias_ih_l0 "
       "and bias_hh_l0 [3H]; gate blocks r, z, n): r = sigmoid(W_ir x + b_ir + W_hr h + b_hr), z likewise, n = "
       "tanh(W_in x + b_in + r * (W_hn h + b_hn)), h' = (1 - z) n + z h. reset_after=False resets before the "
       "matmul, n = tanh(W_in x + b_in + W_hn (r * h) + b_hn) (Keras' reset_after=False; torch and flax have "
       "only the first). Keras orders the gate blocks z, r, h. Returns (output, h_n).",
       _rnn_sample("gru"), parts=("output", "h_n")),
    Op("linear", "x, weight, bias=None", "layers", "torch.nn.functional.linear: x @ weight.T + bias; x [..., in], "
       "weight [out, in] (PyTorch's layout; Dense kernels are its transpose), bias [out] or None.",
       lambda d: ([_x(d, (2, 3)), _x(d, (4, 3)), _x(d, (4,))], {}), bound="linear"),
    Op("gelu", "x, approximate='none'", "layers", "x * Phi(x), Phi the standard normal CDF (approximate='none', "
       "erf); approximate='tanh': 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))). torch.nn.functional.gelu "
       "and tf.nn.gelu default to the exact form, jax.nn.gelu and keras.ops.gelu to tanh (documented).", _unary),
    Op("layer_norm", "x, weight=None, bias=None, eps=1e-5", "layers", "torch.nn.functional.layer_norm over the "
       "last axis: (x - mean) / sqrt(var + eps) * weight + bias, var the biased variance (divided by n); weight "
       "and bias [D] or None. eps defaults differ: torch 1e-5, flax 1e-6, Keras 1e-3 (documented).",
       lambda d: ([_x(d), _x(d, (3,)), _x(d, (3,))], {"eps": 1e-5})),
    Op("batch_norm", "x, running_mean=None, running_var=None, weight=None, bias=None, training=False, eps=1e-5",
       "layers", "torch.nn.functional.batch_norm on x [N, C, *] (channels on axis 1): (x - mean) / sqrt(var + eps) "
       "* weight + bias per channel; training: the batch's mean and biased variance over every axis but 1; "
       "otherwise running_mean and running_var [C] (required). weight, bias [C] or None. eps defaults: torch and "
       "flax 1e-5, Keras 1e-3 (documented). batch_norm_stats is the running statistics' update.",
       lambda d: ([_x(d, (2, 3, 2)), _x(d, (3,)), _x(d, (3,))], {"eps": 1e-5})),
    Op("batch_norm_stats", "x, running_mean, running_var, momentum=0.1", "layers", "The running statistics after "
       "one training step of batch_norm (torch's in-place update): (1 - momentum) * running + momentum * batch "
       "per channel, the batch variance unbiased (divided by n - 1, n = x.size / C) as torch's. flax and Keras "
       "write momentum as the old value's weight (0.99 by default: 0.01 here) and keep the biased variance "
       "(documented). Returns (running_mean, running_var).",
       lambda d: ([_x(d, (2, 3, 2)), _x(d, (3,)), _x(d, (3,))], {}), parts=("running_mean", "running_var")),
    Op("norm", "x, axis=None, keepdims=False", "layers", "The Euclidean (2-)norm sqrt(sum x^2) over axis (None: "
       "every axis; torch.linalg.vector_norm). At x = 0 it has no derivative: the reference's finite "
       "differences give 0 there, as torch does; others give NaN (documented). " + REDUCTION, _along_axis),
    Op("normalize", "x, axis=-1, eps=1e-12", "layers", "torch.nn.functional.normalize (p=2): x / max(||x||, eps) "
       "along axis. Defaults differ: torch's dim is 1, tf.math.l2_normalize's axis None and its epsilon bounds "
       "the squared norm, Keras' epsilon is 1e-7 (documented).", _along_axis),
    Op("embedding", "indices, weight, padding_idx=None", "layers", "torch.nn.functional.embedding: weight[indices], "
       "rows of the table weight [V, D] looked up by an integer tensor of any shape; out [*indices.shape, D]. "
       "padding_idx (negative: counted from the end): that row's look-ups give no gradient (the row stays "
       "as a padding vector); its value is looked up as any other. torch only: flax's Embed, Keras' Embedding "
       "(mask_zero makes a mask, not this) and tf.nn.embedding_lookup have none.",
       lambda d: ([INDEX, _x(d, (3, 4))], {})),
    Op("cross_entropy", "logits, target, reduction='mean', label_smoothing=0.0, ignore_index=None", "layers",
       "torch.nn.functional.cross_entropy on logits [N, C]: -sum_c q_c log_softmax(logits)_c per row, q the "
       "target: class indices [N] (an integer tensor: q one-hot) or probabilities [N, C] (a float tensor); "
       "label_smoothing e mixes q with the uniform: (1 - e) q + e / C. ignore_index: rows whose class is it "
       "count for nothing (the mean divides by the rows kept). reduction: 'mean' over rows, 'sum' or 'none' ([N]).",
       lambda d: ([_x(d, (2, 3)), np.array([2, 0]).view(Index)], {})),
    Op("dot_product_attention", "q, k, v, mask=None, bias=None, causal=False, scale=None", "layers",
       "torch.nn.functional.scaled_dot_product_attention: softmax(q k^T * scale + bias, masked) v, q [B, N, Tq, "
       "D], k [B, N, Tk, D], v [B, N, Tk, Dv] (batch, heads, time, features: PyTorch's layout; JAX and Keras "
       "take [B, T, N, D]). scale None: 1 / sqrt(D). mask: bool, broadcast to [B, N, Tq, Tk], True where a "
       "query attends to a key; bias: float, added to the scores; causal: query i attends to keys j <= i "
       "(the top-left triangle). A query that attends to no key gets 0 (softmax over nothing, as "
       "masked_softmax); frameworks differ there (documented).",
       lambda d: ([_x(d, (1, 2, 3, 4)), _x(d, (1, 2, 3, 4)), _x(d, (1, 2, 3, 4))], {})),
    Op("multi_head_attention", MULTIHEAD, "layers",
       "torch.nn.MultiheadAttention(E, num_heads) called with need_weights=False: query [B, T, E], key and value "
       "[B, S, E] ([T, B, E] where batch_first is false); params in its names: in_proj_weight [3E, E] (the q, k, v "
       "projections stacked), in_proj_bias [3E], out_proj.weight [E, E], out_proj.bias [E]. Each of num_heads "
       "heads attends over E / num_heads features with scale 1 / sqrt(E / num_heads); the heads are concatenated "
       "and projected. key_padding_mask: bool [B, S], True where a key is padding (torch's convention, the "
       "opposite of dot_product_attention's mask). A query with no key to attend to gets 0 before the output "
       "projection (as dot_product_attention); frameworks differ there (documented). Returns [B, T, E].",
       _mha_sample),
    Op("multi_head_attention_weights", MULTIHEAD, "layers",
       "multi_head_attention by the path that also returns the attention weights (torch: need_weights=True, "
       "average_attn_weights=False; Keras: return_attention_scores; flax: sow_weights): (output, weights [B, "
       "num_heads, T, S]), the softmax weights of each head.", _mha_sample, parts=("output", "weights")),
    Op("max_pool2d", "x, kernel, stride=None, padding=0, ceil_mode=False", "layers",
       POOL + " The largest value of each window (padding never wins).",
       lambda d: ([_x(d, (1, 2, 4, 4)), 2], {"stride": 2})),
    Op("avg_pool2d", "x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True", "layers",
       POOL + " The mean of each window, divided by the window's size with its padding (count_include_pad) or "
       "by its elements inside x (count_include_pad=False, and always with 'same', as TensorFlow's SAME does); "
       "a ceil_mode window that hangs past the padding counts only up to it (torch's rule).",
       lambda d: ([_x(d, (1, 2, 4, 4)), 2], {"stride": 2})),
    Op("max_pool1d", "x, kernel, stride=None, padding=0, ceil_mode=False", "layers",
       "max_pool2d over a height of 1: x [N, C, L], kernel, stride and padding ints.",
       lambda d: ([_x(d, (1, 2, 5)), 2], {"stride": 2})),
    Op("avg_pool1d", "x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True", "layers",
       "avg_pool2d over a height of 1: x [N, C, L], kernel, stride and padding ints.",
       lambda d: ([_x(d, (1, 2, 5)), 2], {"stride": 2})),
    Op("conv1d", "x, w, b=None, stride=1, padding=0, dilation=1, groups=1", "layers",
       "torch.nn.functional.conv1d: x [N, C, L], w [O, C/groups, k], b [O] or None. padding: an int (both "
       "sides), 'valid' (none) or 'same' (d (k - 1) in all, the odd one at the end; stride 1 only).",
       lambda d: ([_x(d, (1, 2, 5)), _x(d, (3, 2, 2))], {}), bound="conv"),
    Op("conv2d", "x, w, b=None, stride=1, padding=0, dilation=1, groups=1", "layers",
       "torch.nn.functional.conv2d: x [N, C, H, W], w [O, C/groups, kh, kw], b [O] or None. stride, padding "
       "and dilation: an int or a pair; padding also 'valid' or 'same' as conv1d's.",
       lambda d: ([_x(d, (1, 2, 4, 4)), _x(d, (3, 2, 2, 2))], {}), bound="conv"),
]

VOCABULARY: dict[str, Op] = {op.name: op for op in _OPS}
# pad's modes as NumPy names them (numpy.pad, jnp.pad, keras.ops.pad take these); "edge" is
# NumPy's own name for replicate.
PAD_MODES = {"constant": "constant", "reflect": "reflect", "symmetric": "symmetric", "replicate": "edge",
             "edge": "edge"}


def having(flag: str) -> frozenset:
    """The names of the ops whose record sets `flag` (a truthy field)."""
    return frozenset(name for name, op in VOCABULARY.items() if getattr(op, flag))


def markdown() -> str:
    """docs/vocabulary.md: every op's signature and semantics, by group."""
    lines = ["# The vocabulary", "",
             "Generated from adapters/vocabulary.py by `python -m suites vocabulary --write`; do not edit.",
             "Every method below exists on `adapters.base.Adapter` and raises `Unsupported` until an adapter",
             "overrides it. Dtype names are NumPy's; tensors are the adapter's own (made by its `asarray`).",
             "The defaults shown are Parity's conventions, which the reference computes; a parameter a spec",
             "leaves out takes each framework's own default (documented where it differs).", ""]
    group = None
    for op in _OPS:
        if op.group != group:
            group = op.group
            lines += [f"## {group}", ""]
        flags = [f"returns ({', '.join(op.parts)})" if op.parts else "",
                 "sum-product error bound" if op.bound else "", "zero derivative" if op.zero_derivative else ""]
        extra = "; ".join(f for f in flags if f)
        lines += [f"- `{op.name}({op.signature})`: {op.semantics}" + (f" *({extra})*" if extra else ""), ""]
    return "\n".join(lines + _interface())


def _interface() -> list:
    """The rest of the adapter interface, from adapters/base.py's docstrings."""
    from adapters.base import Adapter

    lines = ["## the rest of the interface", "",
             "Arrays, devices, autodiff, collectives, compilation and timing (adapters/base.py has the defaults).", ""]
    for name, fn in vars(Adapter).items():
        if callable(fn) and not name.startswith("_") and name not in VOCABULARY and fn.__doc__:
            doc = " ".join(fn.__doc__.split())
            lines += [f"- `{name}{inspect.signature(fn)}`: {doc}".replace("(self, ", "(").replace("(self)", "()"), ""]
    return lines

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

Adding an op: its record here (a layer's in vocabulary/layers.py), the reference
(adapters/reference/__init__.py), the engine, one method per adapter, a spec that calls it
(docs/adding-an-op.md).
"""

import numpy as np

from vocabulary.creation import CREATION_OPS
from vocabulary.dtypes import DTYPE_OPS
from vocabulary.elementwise import ELEMENTWISE_OPS, LOGIC_OPS
from vocabulary.fft import FFT_OPS
from vocabulary.initializers import INITIALIZER_OPS, LAYER_DEFAULT_OPS
from vocabulary.layers import LAYER_OPS
from vocabulary.linalg import LINALG_OPS
from vocabulary.manipulation import MANIPULATION_OPS
from vocabulary.matrices import MATRIX_OPS
from vocabulary.optimizers import CLIP_GRAD_NORM, L2_PENALTY, OPTIMIZER_OPS
from vocabulary.records import (  # noqa: F401  (Index, Mask: the samples' argument types)
    INDEX,
    MASK,
    REDUCTION,
    Index,
    Mask,
    Op,
    along_axis,
    binary,
    unary,
    values,
    vector,
)
from vocabulary.statistics import STATISTICAL_OPS

# How a program runs: op by op, compiled by the framework's compiler, under its mixed-precision
# policy, or exported and run by the runtime that serves it (docs/modes.md).
MODES = ("eager", "compiled", "mixed", "exported")

BROADCAST = ("Elementwise, NumPy broadcasting; either operand may be a Python number (x + 1.5, as users write "
             "it: weakly typed). The result has the operands' promoted dtype (Parity expects NumPy 2's, NEP 50).")

INTEGRAL = ("An integer input keeps its dtype and values (NumPy 2, torch, jnp).")
SET_OPS = ("unique_values", "unique_counts", "unique_inverse", "unique_all")  # the standard's set functions
UNIQUE_PARTS = ("Each NaN is a value of its own, -0 and +0 one; the order of the values is unspecified (the "
                "standard), so the specs judge the parts jointly as sets (the property unique-parts-agree); a "
                "length that depends on the values. "
                "(https://data-apis.org/array-api/2024.12/API_specification/set_functions.html)")

_OPS = [
    # -- linear algebra
    Op("matmul", "a, b", "linear algebra", sample=lambda d: ([values(d), values(d, (3, 2))], {}), bound="matmul",
       semantics="numpy.matmul: a 1-D first operand is promoted to (1, n) and a 1-D second operand to (n, 1), "
                 "the added axis removed afterwards; leading (batch) axes broadcast. Scalars are refused."),
    Op("mm", "a, b", "linear algebra", sample=lambda d: ([values(d), values(d, (3, 2))], {}), bound="matmul",
       semantics="torch.mm: strictly (n, m) x (m, p) -> (n, p); no broadcasting, no 1-D operands."),
    Op("bmm", "a, b", "linear algebra", sample=lambda d: ([values(d, (2, 2, 3)), values(d, (2, 3, 2))], {}),
       bound="matmul", semantics="torch.bmm: strictly (b, n, m) x (b, m, p) -> (b, n, p); no broadcasting "
       "(jax.lax.batch_matmul; TensorFlow's and Keras' matmul broadcast, and they have no bmm)."),
    Op("einsum", "xs, equation", "linear algebra", sample=lambda d: ([[values(d), values(d, (3, 2))]],
                                                                     {"equation": "ij,jk->ik"}),
       bound="contraction", semantics="numpy.einsum(equation, *xs) with an explicit output ('ij,jk->ik'): "
       "the product of the operands summed over every letter the output lacks; a letter appears once per "
       "operand, no ellipsis. xs is the list of operands (users pass them after the equation)."),
    Op("tensordot", "a, b, axes", "linear algebra", sample=lambda d: ([values(d), values(d, (3, 2))], {"axes": 1}),
       bound="contraction", semantics="numpy.tensordot: axes an int n (the last n axes of a against the first n "
       "of b; 0 is the outer product) or a pair of lists of axes of a and of b (negative counted from the "
       "end), summed over in pairs; the result has a's other axes, then b's."),
    Op("dot", "a, b", "linear algebra", sample=lambda d: ([values(d, (3,)), values(d, (3,))], {}), bound="matmul",
       semantics="numpy.dot: two 1-D operands give their inner product (0-D); a 0-D operand multiplies; "
       "otherwise a's last axis against b's second-to-last (its only axis if 1-D), the result having a's other "
       "axes, then b's (N-D operands do not broadcast: (2, 3, 4) . (5, 4, 2) is (2, 3, 5, 2)). torch.dot takes "
       "two 1-D tensors of one dtype only."),
    Op("correlate", "a, v, mode='valid'", "linear algebra", sample=lambda d: ([values(d, (5,)), values(d, (3,))], {}),
       bound="sliding", semantics="numpy.correlate of 1-D a and v (real): c[k] = sum_n a[n + k] v[n] over the "
       "overlaps. mode 'valid' (the default: where v lies within a, max(M, N) - min(M, N) + 1 outputs), 'same' "
       "(max(M, N) outputs, centred: the longer operand's positions) or 'full' (M + N - 1). When v is the "
       "longer, the result is correlate(v, a) reversed. Empty operands are refused. Integer operands give "
       "integers."),
    Op("convolve", "a, v, mode='full'", "linear algebra", sample=lambda d: ([values(d, (5,)), values(d, (3,))], {}),
       bound="sliding", semantics="numpy.convolve of 1-D a and v: correlate(longer, shorter[::-1], mode) (the "
       "operands swapped when v is the longer, so the result is symmetric in them); mode 'full' (the default), "
       "'same' or 'valid' as correlate's."),
    # -- elementwise, broadcasting
    Op("add", "a, b", "elementwise", "a + b. " + BROADCAST, binary, number_operands=True, bound="sum"),
    Op("sub", "a, b", "elementwise", "a - b. " + BROADCAST, binary, number_operands=True, bound="sum"),
    Op("mul", "a, b", "elementwise", "a * b. " + BROADCAST, binary, number_operands=True, bound="product"),
    Op("div", "a, b", "elementwise", "a / b (true division). " + BROADCAST, binary, number_operands=True),
    Op("maximum", "a, b", "elementwise", "The larger of a and b; NaN if either is NaN, and +0 of -0 and +0 "
       "(IEEE 754-2019 maximum). " + BROADCAST, binary, number_operands=True,
       bound="exact"),
    Op("minimum", "a, b", "elementwise", "The smaller of a and b; NaN if either is NaN, and -0 of -0 and +0 "
       "(IEEE 754-2019 minimum). " + BROADCAST, binary, number_operands=True,
       bound="exact"),
    Op("pow", "a, b", "elementwise", "a ** b. " + BROADCAST, binary, number_operands=True),
    Op("greater", "a, b", "elementwise", "a > b: a bool tensor (a mask made from values, without a derivative). "
       "Written `a > b` in expressions (`a < b` is less). " + BROADCAST.split(" The result")[0], binary,
       number_operands=True, zero_derivative=True),
    Op("clip", "x, lo, hi", "elementwise", "min(max(x, lo), hi), lo <= hi given as numbers (torch.clamp, "
       "jnp.clip, tf.clip_by_value). Where x sits on a bound it has no derivative: the reference's finite "
       "differences give 1/2 there, as maximum's tie does; frameworks choose (documented).",
       lambda d: ([values(d), 2, 4], {})),
    Op("neg", "x", "elementwise", "-x.", unary, bound="exact"),
    Op("exp", "x", "elementwise", "e ** x.", unary),
    Op("log", "x", "elementwise", "Natural logarithm.", unary),
    Op("tanh", "x", "elementwise", "Hyperbolic tangent.", unary),
    Op("sigmoid", "x", "elementwise", "1 / (1 + exp(-x)).", unary),
    Op("relu", "x", "elementwise", "max(x, 0).", unary, bound="exact"),
    Op("abs", "x", "elementwise", "|x|.", unary, bound="exact"),
    Op("sqrt", "x", "elementwise", "Square root.", unary),
    Op("square", "x", "elementwise", "x * x.", unary, bound="square"),
    Op("round", "x, half='even'", "elementwise", "The nearest integer; a tie goes to the even one (half='even': "
       "numpy.round, torch.round, tf.round, keras.ops.round, jnp.round) or away from zero (half='away': C's "
       "round, jax.lax.round's default rounding_method).", unary, zero_derivative=True),
    Op("sign", "x", "elementwise", "-1, 0 or 1 (sign(0) = 0).", unary, zero_derivative=True),
    Op("floor", "x", "elementwise", "The largest integer <= x (numpy.floor): -0.5 -> -0; NaN and +-inf stay. " +
       INTEGRAL, unary, zero_derivative=True),
    Op("ceil", "x", "elementwise", "The smallest integer >= x (numpy.ceil): -0.5 -> -0; NaN and +-inf stay. " +
       INTEGRAL, unary, zero_derivative=True),
    Op("trunc", "x", "elementwise", "x with its fraction dropped, toward zero (numpy.trunc, torch.trunc; "
       "tf.math has no trunc, tf.truncatediv is a division): -1.5 -> -1, -0.5 -> -0. " + INTEGRAL, unary,
       zero_derivative=True),
    *ELEMENTWISE_OPS,
    *LOGIC_OPS,
    # -- casts
    Op("cast", "x, dtype", "casts", "x converted to `dtype` (a NumPy dtype name, bfloat16 included), as "
       "x.astype(dtype), torch's x.to, tf.cast and keras.ops.cast write it: to a float, the nearest value (ties "
       "to even); a float to an integer drops the fraction (toward zero); to bool, nonzero is True. A float "
       "that the integer dtype cannot hold (out of its range, +-inf, NaN) has no defined result in C or "
       "NumPy; x86's conversion gives the 'integer indefinite' value, the dtype's minimum, for 32- and 64-bit "
       "signed integers (NumPy and torch on x86 give it), and XLA saturates (documented where it differs). The "
       "derivative to a float dtype is 1 (the cotangent cast back); to an integer or bool dtype there is none.",
       lambda d: ([values(d), "float32"], {})),
    # -- sorting
    Op("sort", "x, axis=-1, descending=False", "sorting", "numpy.sort along axis, ascending: NaN after every "
       "number (NumPy's, torch's and jax's order); descending=True is the reverse order, NaN first "
       "(torch.sort and jnp.sort with descending=True). Its derivative moves each cotangent to the position "
       "its value came from.", along_axis),
    Op("argsort", "x, axis=-1, descending=False", "sorting", "int64 indices that sort x along axis as sort does; "
       "equal values keep their order (a stable sort: numpy.argsort(kind='stable'), jnp.argsort's default; "
       "descending too, as jnp.argsort(descending=True) and torch.argsort(stable=True, descending=True)).",
       along_axis, zero_derivative=True),
    Op("topk", "x, k", "sorting", "The k largest values along the last axis, largest first (torch.topk, "
       "jax.lax.top_k, tf.math.top_k, keras.ops.top_k); NaN is larger than every number (torch's and jax's "
       "order). Its derivative sends each cotangent to the position the value came from.",
       lambda d: ([values(d)], {"k": 2})),
    Op("topk_indices", "x, k", "sorting", "The int64 indices topk's values came from (torch.topk(...).indices, "
       "the second result of jax.lax.top_k, tf.math.top_k and keras.ops.top_k); of equal values the lower "
       "index comes first.", lambda d: ([values(d)], {"k": 2}), zero_derivative=True),
    Op("unique", "x", "sorting", "numpy.unique: the distinct values of x (flattened), ascending, NaNs counted "
       "as one (equal_nan=True) and last; the result has x's dtype and a length that depends on the values "
       "(a compiler that needs static shapes must be told a size: documented).", unary),
    Op("unique_values", "x", "sorting", "The Array API's unique_values: the distinct values of x (flattened), "
       "each NaN distinct from every other (NaN != NaN), -0 and +0 one value; the order of the values is "
       "unspecified (the standard; NumPy 2 and TensorFlow return them unsorted), so the specs judge them as a "
       "set (the property same-values-in-any-order); x's dtype, a length that depends on the values. "
       "(https://data-apis.org/array-api/2024.12/API_specification/generated/array_api.unique_values.html)",
       unary),
    Op("unique_counts", "x", "sorting", "The Array API's unique_counts: unique_values' values and how many "
       "elements of x equal each (1 for each NaN), int64 (the standard's index dtype). " + UNIQUE_PARTS,
       vector, parts=("values", "counts"), part_dtypes=(None, "int64")),
    Op("unique_inverse", "x", "sorting", "The Array API's unique_inverse: unique_values' values and, in x's "
       "shape, the position in values of each element of x (values[inverse_indices] is x), int64. "
       + UNIQUE_PARTS, vector, parts=("values", "inverse_indices"), part_dtypes=(None, "int64")),
    Op("unique_all", "x", "sorting", "The Array API's unique_all: unique_values' values, the flat index of "
       "each one's first occurrence in x, unique_inverse's inverse_indices and unique_counts' counts, int64. "
       + UNIQUE_PARTS, vector, parts=("values", "indices", "inverse_indices", "counts"),
       part_dtypes=(None, "int64", "int64", "int64")),
    # -- reductions and shapes
    Op("sum", "x, axis=None, keepdims=False", "reductions and shapes", "Sum. " + REDUCTION, along_axis,
       bound="reduction"),
    Op("mean", "x, axis=None, keepdims=False", "reductions and shapes", "Arithmetic mean. " + REDUCTION,
       along_axis, bound="reduction"),
    Op("max", "x, axis=None, keepdims=False", "reductions and shapes", "Largest value. " + REDUCTION,
       along_axis),
    *STATISTICAL_OPS,
    Op("cumsum", "x, axis", "reductions and shapes", "numpy.cumsum along axis: out[..., i] = x[..., 0] + ... + "
       "x[..., i]; the result has x's dtype (NumPy, and torch, widen small integers: documented).", along_axis,
       bound="cumsum"),
    Op("reshape", "x, shape", "reductions and shapes", "numpy.reshape; shape is a tuple, -1 allowed once.",
       lambda d: ([values(d), (3, 2)], {}), bound="structural"),
    Op("transpose", "x, axes", "reductions and shapes", "numpy.transpose with every axis named in axes.",
       lambda d: ([values(d), (1, 0)], {}), bound="structural"),
    Op("concat", "xs, axis", "reductions and shapes", "numpy.concatenate of a list of tensors along axis.",
       lambda d: ([[values(d), values(d)], 0], {}), bound="joined"),
    Op("stack", "xs, axis", "reductions and shapes", "numpy.stack: the tensors along a new axis.",
       lambda d: ([[values(d), values(d)], 0], {}), bound="joined"),
    *MANIPULATION_OPS,
    *MATRIX_OPS,
    *LINALG_OPS,
    *CREATION_OPS,
    *DTYPE_OPS,
    *FFT_OPS,
    Op("softmax", "x, axis=-1", "reductions and shapes", "exp(x) / sum(exp(x)) along axis.", along_axis),
    Op("log_softmax", "x, axis=-1", "reductions and shapes", "x - log(sum(exp(x))) along axis.", along_axis),
    Op("where", "cond, x, y", "reductions and shapes", "numpy.where: x where the bool cond is True, else y; "
       "the three broadcast.", lambda d: ([MASK, values(d), values(d)], {})),
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
       "(broadcast to x) is True.", lambda d: ([values(d), MASK, 0], {})),
    Op("masked_softmax", "x, mask, axis=-1", "masking and padding", "The framework's own masked-softmax idiom: "
       "softmax over the positions where the bool mask is True, 0 at the others; a row with no True position "
       "is all 0 (softmax over nothing), the convention of jax.nn.softmax(where=) and Keras' Softmax(mask=).",
       lambda d: ([values(d), MASK], {})),
    Op("pad", "x, pad_width, mode='constant', value=0", "masking and padding", "numpy.pad: pad_width is "
       "[(before, after)] per axis of x, in NumPy's axis order (first axis first, unlike torch's F.pad, "
       "which lists the last axis first), non-negative. mode: constant (with value), reflect (mirror without "
       "the edge), symmetric (mirror with the edge), replicate (repeat the edge; NumPy's 'edge').",
       lambda d: ([values(d), ((1, 1), (0, 2))], {})),
    Op("pad_sequences", "seqs, value=0, side='post', max_len=None, truncate='post', batch_first=True",
       "masking and padding",
       "A list of tensors [T_i, ...] -> one [B, T, ...] ([T, B, ...] where batch_first is false): T = max_len "
       "or the longest T_i; side 'post' pads at the end, 'pre' at the front; sequences longer than max_len "
       "lose their end ('post') or their front ('pre'). The result has the sequences' dtype.",
       lambda d: ([[values(d, (3,)), values(d, (1,))]], {})),
    # -- indexing
    Op("gather", "x, axis, index", "indexing", "torch.gather: out[i][j] = x[i][index[i][j]] (axis 1). index is "
       "int64 with x's rank and covers the first index.shape[d] entries of every other axis d; out has "
       "index's shape.", lambda d: ([values(d), 1, INDEX], {})),
    Op("scatter", "x, axis, index, src", "indexing", "torch.Tensor.scatter, out of place: a copy of x with "
       "out[i][index[i][j]] = src[i][j] (axis 1); src is a tensor (its leading block of index's shape is "
       "used) or a number. With duplicate indices the order of writes is the framework's.",
       lambda d: ([values(d), 1, INDEX[:, :1], values(d, (2, 1))], {})),  # unique targets per row
    Op("scatter_add", "x, axis, index, src", "indexing", "torch.Tensor.scatter_add, out of place: "
       "out[i][index[i][j]] += src[i][j] (axis 1); duplicate indices all add.",
       lambda d: ([values(d), 1, INDEX, values(d)], {}), bound="scatter_add"),
    Op("scatter_reduce", "x, axis, index, src, reduce, include_self=True", "indexing", "torch.Tensor.scatter_reduce, "
       "out of place: every src[i][j] is reduced into out[i][index[i][j]] (axis 1) with reduce: 'sum', 'prod', "
       "'mean', 'amax' or 'amin'; include_self=True counts x's value there among the reduced, False only the "
       "src values written (jax's .at[].add/multiply/max/min and TensorFlow's tensor_scatter_nd_add/max/min "
       "always include it). A position no index meets keeps x's value.",
       lambda d: ([values(d), 1, INDEX, values(d)], {"reduce": "amax"}), bound="scatter_reduce"),
    Op("scatter_nd", "indices, updates, shape", "indexing", "tf.scatter_nd: zeros of `shape` with every "
       "updates[n] added at the coordinates indices[n] (indices [..., k] int64 address the first k axes; updates "
       "[..., shape[k:]]); duplicate coordinates add up (TensorFlow's docs), keras.ops.scatter's contract too. "
       "The result has updates' dtype.",
       lambda d: ([INDEX[:, :2], values(d, (2, 3)), (3, 3, 3)], {}), bound="scatter_nd"),
    Op("index", "x, key", "indexing", "x[key], NumPy's basic and advanced indexing, written x[key] in specs: "
       "the key's parts are ints (negative from the end), slices, None (a new axis), ... and int64 index or "
       "bool mask tensors; index tensors broadcast together and their result axes replace theirs (in front "
       "where they are not adjacent). An out-of-range int or index raises IndexError in NumPy.",
       lambda d: ([values(d), (1, slice(0, 2))], {}), bound="keyed"),  # a basic key: TensorFlow takes it
    Op("index_set", "x, key, values", "indexing", "A copy of x with x[key] = values (values broadcast to "
       "x[key]'s shape and cast to x's dtype), written index_set(x[key], values): torch's x[key] = values on a "
       "clone, jax's x.at[key].set(values), TensorFlow's tensor_scatter_nd_update, keras.ops.scatter_update. "
       "Where an index repeats, which value lands is the framework's (NumPy: the last).",
       lambda d: ([values(d), (INDEX[1, :2],), values(d, (2, 3))], {}), place=True, bound="keyed"),
    Op("index_add", "x, key, values", "indexing", "A copy of x with values added at x[key], every repeat of an "
       "index adding (numpy.add.at, jax's x.at[key].add, torch's index_put(..., accumulate=True), TensorFlow's "
       "tensor_scatter_nd_add), written index_add(x[key], values). Not the same as x[key] += values, which in "
       "NumPy and torch adds a repeated index once: that is index_set(x[key], x[key] + values).",
       lambda d: ([values(d), (INDEX[1, :2],), values(d, (2, 3))], {}), place=True, bound="keyed"),
    Op("one_hot", "indices, num_classes, dtype='int64'", "indexing", "[..., num_classes] with 1 at each index "
       "and 0 elsewhere, in `dtype` (the suite passes the dtype under test).",
       lambda d: ([INDEX], {"num_classes": 3, "dtype": d}), dtype_param=True, index_dtyped=True),
    # -- autodiff
    Op("stop_gradient", "x", "autodiff", "x, with no gradient flowing back through it (torch's detach, "
       "jax.lax.stop_gradient).", unary, zero_derivative=True, bound="structural"),
    *LAYER_OPS,
    *OPTIMIZER_OPS,
    CLIP_GRAD_NORM,
    L2_PENALTY,
    *INITIALIZER_OPS,
    *LAYER_DEFAULT_OPS,
]

VOCABULARY: dict[str, Op] = {op.name: op for op in _OPS}
# The mixed mode (docs/mixed-precision.md): the dtype torch.autocast("cpu", dtype=torch.bfloat16)
# computes each op in, torch's CPU lists (https://pytorch.org/docs/stable/amp.html, "CPU Ops that
# can autocast to bfloat16" and "... to float32"), as torch 2.13 shows them: "bfloat16", one
# rounding of a float32 accumulation (mm, addmm, convolution); "bfloat16-steps", several bfloat16
# operations each rounded (attention: scores, softmax, weighted values); LSTM through oneDNN's
# mkldnn_rnn_layer, GRU not. An op not named follows its inputs (float32 inputs, float32 result).
# einsum and tensordot follow the op their equation becomes (bmm: bfloat16; mul and sum: float32).
AUTOCAST = {**dict.fromkeys(("matmul", "mm", "bmm", "linear", "conv1d", "conv2d"), "bfloat16"),
            **dict.fromkeys(("dot_product_attention", "multi_head_attention", "multi_head_attention_weights", "lstm"),
                            "bfloat16-steps"),
            "cross_entropy": "float32"}
# The classes whose result is bfloat16; "float32-rounded", a policy's (never torch.autocast's): the
# op computed in float32 from its unrounded float32 inputs, the result rounded (flax's norms)
LOWERED = ("bfloat16", "bfloat16-steps", "float32-rounded")
# The ops a program may call to run in the mixed mode: torch's autocast ops and the layers, which
# Keras' dtype policy and flax's dtype reach. Not yet (docs/mixed-precision.md): the recurrent
# layers (their policies differ in what they return, flax's float32) and multi-head attention
# (its projections' rounding through the softmax: a bound of its own, as dot_product_attention has)
MIXED_OPS = (frozenset(AUTOCAST) | frozenset(op.name for op in LAYER_OPS)) - {
    "batch_norm_stats", "lstm", "gru", "multi_head_attention", "multi_head_attention_weights"}
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
             "Generated from vocabulary/__init__.py by `python -m suites vocabulary --write`; do not edit.",
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
                 "sum-product error bound" if op.bound else "", "zero derivative" if op.zero_derivative else "",
                 "a sample, judged as a distribution" if op.random else ""]
        extra = "; ".join(f for f in flags if f)
        lines += [f"- `{op.name}({op.signature})`: {op.semantics}" + (f" *({extra})*" if extra else ""), ""]
    return "\n".join(lines)

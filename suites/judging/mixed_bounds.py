"""Error bounds of ops a mixed-precision policy computes in several bfloat16 steps, where the
sum-product bound (suites/judging/compare.py) does not reach: attention, whose softmax turns the
scores' rounding into relative errors of the weights (docs/mixed-precision.md).

Each bound is of the op computed from its inputs as given (already rounded to bfloat16 by the
judge) against the float64 reference on the same inputs: per output element, an absolute error."""
import math

import numpy as np

from adapters.reference import ReferenceAdapter
from adapters.reference.layers import attention_allowed
from suites.judging.compare import gamma, unit_roundoff
from suites.programs import expr

REFERENCE = ReferenceAdapter()
U = unit_roundoff("bfloat16")


def attention(q, k, v, mask=None, bias=None, causal=False, scale=None):
    """softmax(q k^T scale + bias) v with each step in bfloat16 (torch.autocast's sdpa: the
    scores, the weights and the output each rounded, the products accumulated in float32).

    A score s_ij is off by |ds_ij| <= 3u |s_ij| (the product, the scale and the bias each rounded)
    + u |s_ij - m_i| (the exponent s - max rounded) + gamma_{d+1} scale |q_i| . |k_j| (the float32
    accumulation). A weight w_ij = e^(s_ij) / sum_k e^(s_ik) then moves by a factor
    e^(ds_ij) / sum_k w_ik e^(ds_ik), within exp(+-(|ds_ij| + log B_i)), B_i = sum_k w_ik e^|ds_ik|
    (Jensen: sum_k w_ik e^(ds_ik) >= exp(-sum_k w_ik |ds_ik|) >= 1 / B_i): |dw_ij| <=
    w_ij (exp(|ds_ij| + log B_i) - 1). The weights' own arithmetic (exp, the division, the cast to
    bfloat16) adds 3u w_ij, their float32 sum gamma_T w_ij; the weighted sum of the values,
    accumulated in float32, gamma_T sum_j w_ij |v_j|, and its result's rounding u |out_i|."""
    q, k, v = (np.asarray(t, np.float64) for t in (q, k, v))
    depth, keys = q.shape[-1], k.shape[-2]
    scale = 1 / math.sqrt(depth) if scale is None else scale
    scores = np.einsum("bnid,bnjd->bnij", q, k) * scale + (0 if bias is None else np.asarray(bias, np.float64))
    size = np.einsum("bnid,bnjd->bnij", np.abs(q), np.abs(k)) * abs(scale)
    allowed = attention_allowed(scores.shape, mask, causal)
    weights = REFERENCE.masked_softmax(scores, allowed)
    live = allowed & np.isfinite(scores)  # a -inf score (an additive mask's) weighs 0 exactly
    top = np.max(np.where(live, scores, -np.inf), axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):  # a query that attends to none: the reference's 0
        shift = np.where(live, U * np.abs(scores - top), 0)
        moved = np.where(live, 3 * U * np.abs(scores) + shift + gamma(depth + 1, "float32") * size, 0)
        spread = np.log(np.sum(weights * np.exp(moved), axis=-1, keepdims=True))
    moves = np.expm1(moved + spread) + 3 * U + 2 * gamma(keys, "float32")
    out = np.einsum("bnij,bnjd->bnid", weights, v)
    return np.einsum("bnij,bnjd->bnid", weights * moves, np.abs(v)) + U * np.abs(out)


STEPS = {"dot_product_attention": attention}


def in_steps(tree, inputs: dict):
    """The bound of a program that is one call of an op in STEPS, on these inputs; None for any
    other (the judge then uses the sum-product bound in bfloat16)."""
    if not (isinstance(tree, expr.Call) and tree.op in STEPS):
        return None

    def apply(op, args, kwargs):
        if op == tree.op:
            return STEPS[op](*args, **kwargs)
        return getattr(REFERENCE, op)(*args, **kwargs)
    return expr.evaluate(tree, dict(inputs), apply, np.float64)

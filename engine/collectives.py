"""Collectives on a simulated mesh: device d holds shards[d]; each collective returns the list
of per-device results. They are built from the engine's own ops, so their gradients come from
the tape: psum's transpose is psum, all_gather's is a reduce-scatter, ppermute's is the inverse
permutation, as JAX defines them.
"""
import functools

import numpy as np

from engine import ops
from engine.tensor import Tensor


def _check(shards):
    shards = [ops.tensor(s) for s in shards]
    if not shards:
        raise ValueError("a collective needs at least one device")
    if len({s.shape for s in shards}) != 1:
        raise ValueError(f"every device's shard must have the same shape. Received: {[s.shape for s in shards]}")
    return shards


def all_reduce(shards, op="sum"):
    """Every device gets the reduction of all shards: sum (psum), mean (pmean) or max (pmax).
    max sends the gradient to the winning shard; ties split it pairwise (as chained maximum)."""
    shards = _check(shards)
    if op == "sum":
        out = functools.reduce(ops.add, shards)
    elif op == "mean":
        out = functools.reduce(ops.add, shards) / len(shards)
    elif op == "max":
        out = functools.reduce(ops.maximum, shards)
    else:
        raise ValueError(f"all_reduce op takes sum, mean or max. Received: {op!r}")
    return [out] * len(shards)


def all_gather(shards, axis=0, tiled=False):
    """Every device gets all shards, concatenated along `axis` (tiled) or stacked on a new one."""
    shards = _check(shards)
    out = ops.concat(shards, axis) if tiled else ops.stack(shards, axis)
    return [out] * len(shards)


def _blocks(x, axis, n):
    """x split into n equal blocks along axis."""
    if x.shape[axis] % n:
        raise ValueError(f"axis {axis} of size {x.shape[axis]} does not split into {n} equal blocks")
    size = x.shape[axis] // n
    before = (slice(None),) * (axis % x.ndim)
    return [x[before + (slice(k * size, (k + 1) * size),)] for k in range(n)]


def reduce_scatter(shards, axis=0, op="sum", tiled=False):
    """Reduce all shards, then device d keeps block d of the result along `axis` (psum_scatter);
    untiled (psum_scatter's default) the axis has one entry per device, and device d keeps entry
    d with the axis removed."""
    total = all_reduce(shards, op)[0]
    if not tiled and total.shape[axis] != len(shards):
        raise ValueError(f"untiled: axis {axis} of size {total.shape[axis]} is not the world size {len(shards)}")
    blocks = _blocks(total, axis, len(shards))
    return blocks if tiled else [ops.reshape(b, total.shape[:axis % total.ndim] + total.shape[axis % total.ndim + 1:])
                                 for b in blocks]


def all_to_all(shards, split_axis, concat_axis):
    """Device d splits its shard into N blocks along split_axis and sends block j to device j;
    device j concatenates what it receives, in device order, along concat_axis."""
    shards = _check(shards)
    blocks = [_blocks(s, split_axis, len(shards)) for s in shards]
    return [ops.concat([blocks[d][j] for d in range(len(shards))], concat_axis) for j in range(len(shards))]


def ppermute(shards, perm):
    """Device dst receives shards[src] for each (src, dst) pair; a device no pair sends to gets zeros."""
    shards = _check(shards)
    perm = [tuple(int(v) for v in pair) for pair in perm]
    sources, targets = [s for s, _ in perm], [t for _, t in perm]
    n = len(shards)
    if len(set(sources)) != len(sources) or len(set(targets)) != len(targets) or \
            any(not 0 <= v < n for v in sources + targets):
        raise ValueError(f"perm must pair distinct sources with distinct targets in [0, {n}). Received: {perm}")
    out = [Tensor(np.zeros(shards[0].shape, shards[0].dtype)) for _ in shards]
    for src, dst in perm:
        out[dst] = shards[src]
    return out


def broadcast(shards, root=0):
    """Every device gets the root's shard."""
    shards = _check(shards)
    if not 0 <= root < len(shards):
        raise ValueError(f"root must be a device in [0, {len(shards)}). Received: {root}")
    return [shards[root]] * len(shards)


COLLECTIVES = {"all_reduce": all_reduce, "all_gather": all_gather, "reduce_scatter": reduce_scatter,
               "all_to_all": all_to_all, "ppermute": ppermute, "broadcast": broadcast}

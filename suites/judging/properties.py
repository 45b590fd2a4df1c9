"""Named metamorphic properties that a spec lists under `properties`: relations between parts of
one result, between ranks, or between the results of related inputs (or of two collectives),
that hold whatever the values are.

Each takes the run's Context, the case's inputs and the adapter's result (its parts, for ops
that return several) and returns None when the property holds, else what was seen, in one line.
A property compares the framework with itself, so its only slack is the spec's tolerance.
"""
import numpy as np

from adapters.reference.indexing import positions
from suites.judging import compare
from suites.judging.decompositions import PROPERTIES as DECOMPOSITIONS
from suites.judging.sets import PROPERTIES as SETS
from suites.programs import expr
from vocabulary import VOCABULARY

END_PADDING = 3  # zero steps appended by end-padding-keeps-valid-steps


def final_steps_are_h_n(ctx, inputs, parts):
    """LSTM and GRU: output holds the last layer's h_t at every step and h_n each layer's final
    h_t (torch.nn.LSTM's and GRU's docs), so the forward half of output's last step is h_n[-D] and, when
    bidirectional, the reverse half of its first step (where the reverse pass ends) is h_n[-1]."""
    output, h_n = parts[:2]
    hidden = h_n.shape[-1]
    steps = output if not ctx.spec.params.get("batch_first", True) else np.swapaxes(output, 0, 1)
    pairs = [("output[last step, :H]", steps[-1, ..., :hidden], h_n[-2 if _bidirectional(ctx) else -1])]
    if _bidirectional(ctx):
        pairs.append(("output[first step, H:]", steps[0, ..., hidden:], h_n[-1]))
    for what, value, final in pairs:
        result = compare.compare(final, value, ctx.judged)
        if not result.ok:
            return f"{what} != its h_n: {result.summary()}"
    return None


def end_padding_keeps_valid_steps(ctx, inputs, parts):
    """LSTM and GRU: zeros appended to the sequence change no forward-direction output of the valid
    steps (forward step t depends on steps 0..t only). Stacked bidirectional layers mix the
    future into every step, so there it does not apply."""
    output, h_n = parts[0], parts[1]
    hidden = h_n.shape[-1]
    time_axis = 1 if ctx.spec.params.get("batch_first", True) else 0
    x = inputs["x"]
    widths = [(0, 0)] * x.ndim
    widths[time_axis] = (0, END_PADDING)
    longer = ctx.run_parts({**inputs, "x": np.pad(x, widths)})[0]
    valid = np.take(longer, np.arange(x.shape[time_axis]), axis=time_axis)[..., :hidden]
    forward = output[..., :hidden]
    allowed = compare.allowed_error(forward.astype(np.float64), ctx.judged, tolerance=ctx.tolerance)
    result = compare.compare(forward, valid, ctx.judged, allowed)
    return None if result.ok else f"padding with {END_PADDING} zero steps changed the valid outputs: {result.summary()}"


def same_on_every_rank(ctx, inputs, parts):
    """all_reduce, all_gather, broadcast: every rank ends with the same tensor, bit for bit
    (a rank that summed in another order would drift apart from the others in training)."""
    outputs = parts[0]
    for rank in range(1, len(outputs)):
        if not np.array_equal(outputs[rank], outputs[0], equal_nan=True):
            return f"rank {rank} differs from rank 0: {compare.compare(outputs[0], outputs[rank], ctx.dtype).summary()}"
    return None


def reduce_scatter_is_all_reduce_sliced(ctx, inputs, parts):
    """reduce_scatter gives rank r block r of all_reduce (the same framework's), within the bound
    of two sums."""
    params = ctx.spec.params
    axis = params.get("axis", 0)
    reduced = ctx.collective("all_reduce", list(inputs["shards"]), op=params.get("op", "sum"))[0]
    blocks = np.split(reduced, len(parts[0]), axis)
    bound = ctx.error_bound(inputs)  # None for integers: exact
    for rank, (block, out) in enumerate(zip(blocks, parts[0])):
        allowed = None if bound is None else 2 * np.broadcast_to(bound, parts[0].shape)[rank]
        result = compare.compare(block, out, ctx.judged, allowed)
        if not result.ok:
            return f"rank {rank}'s block differs from all_reduce's: {result.summary()}"
    return None


def all_gather_slices_to_the_shard(ctx, inputs, parts):
    """Slicing rank r's gathered tensor at rank d gives back shard d, exactly."""
    params, shards = ctx.spec.params, inputs["shards"]
    axis, world = params.get("axis", 0), len(shards)
    for rank, gathered in enumerate(parts[0]):
        pieces = np.split(gathered, world, axis) if params.get("tiled") else np.moveaxis(gathered, axis, 0)
        for d, piece in enumerate(pieces):
            if not np.array_equal(piece, shards[d].astype(piece.dtype)):
                return f"rank {rank}'s gathered slice {d} is not shard {d}"
    return None


def all_to_all_twice_is_identity(ctx, inputs, parts):
    """all_to_all back with the axes swapped returns every rank its own shard, exactly."""
    params = ctx.spec.params
    back = ctx.collective("all_to_all", list(parts[0]), split_axis=params["concat_axis"],
                          concat_axis=params["split_axis"])
    for rank, (shard, out) in enumerate(zip(inputs["shards"], back)):
        if not np.array_equal(out, shard.astype(out.dtype)):
            return f"rank {rank} did not get its shard back"
    return None


def writes_one_of_the_sources(ctx, inputs, parts):
    """scatter, and index_set, with duplicate indices: where several writes meet one index, which
    one lands is the framework's (XLA: updates applied in an undefined order; torch.Tensor.scatter_:
    "the order is undefined"); what is specified is that the result there is one of the values
    written to it, and that every index no write meets keeps x's value."""
    call = ctx.program.tree
    if not (isinstance(call, expr.Call) and call.op in WRITES):
        return f"applies to a spec whose expression is one scatter or index_set call, not {ctx.spec.expression!r}"
    x, written = WRITES[call.op](ctx, call, inputs)
    out = parts[0]
    for position in np.ndindex(out.shape):
        candidates = np.asarray(written.get(position, [x[position]])).astype(out.dtype)  # as the framework holds them
        if not _among(out[position], candidates):
            what = "the values written there" if position in written else "x's value (no write meets it)"
            return f"at {position} {out[position]!r} is not one of {what}: {candidates.tolist()}"
    return None


def _scatter_writes(ctx, call, inputs):
    bound = VOCABULARY["scatter"].parameters.bind(None, *call.args).arguments  # None: self
    axis, src = bound["axis"].value, bound["src"]
    x, index = np.asarray(inputs[bound["x"].id]), np.asarray(inputs[bound["index"].id])
    src = np.full(index.shape, src.value) if isinstance(src, expr.Const) else np.asarray(inputs[src.id])
    written = {}
    for position in np.ndindex(index.shape):
        target = list(position)
        target[axis] = int(index[position])
        written.setdefault(tuple(target), []).append(src[position])
    return x, written


def _index_set_writes(ctx, call, inputs):
    """index_set(x[key], values): x, the key and the values as the float64 reference computes them."""
    x, key, values = (ctx.oracle_parts(inputs, tree=node) for node in call.args)
    where = positions(np.shape(x), key)
    values = np.broadcast_to(np.asarray(values), where.shape)
    written = {}
    for flat, v in zip(where.ravel(), values.ravel()):
        written.setdefault(np.unravel_index(flat, np.shape(x)), []).append(v)
    return np.asarray(x), written


WRITES = {"scatter": _scatter_writes, "index_set": _index_set_writes}


def _among(value, candidates) -> bool:
    """value is one of candidates, NaN matching NaN."""
    same = candidates == value
    if candidates.dtype.kind == "f":
        same |= np.isnan(candidates) & np.isnan(value)
    return bool(same.any())


def _bidirectional(ctx) -> bool:
    return bool(ctx.spec.params.get("bidirectional", False))


def _causal(ctx) -> bool:
    """Whether each forward output depends on the past only: not so for stacked bidirectional layers."""
    return not _bidirectional(ctx) or ctx.spec.params.get("num_layers", 1) == 1


# name -> (check, where it applies)
def _reruns(ctx) -> bool:
    """Whether the adapter can run a second collective: not one that replays what ranks across
    processes returned (suites/multihost/launch.py), whose group has ended by then."""
    return getattr(ctx.adapter, "reruns", True)


PROPERTIES = {
    "final-steps-are-h_n": (final_steps_are_h_n, lambda ctx: True),
    "end-padding-keeps-valid-steps": (end_padding_keeps_valid_steps, _causal),
    "same-on-every-rank": (same_on_every_rank, lambda ctx: True),
    "reduce-scatter-is-all-reduce-sliced": (reduce_scatter_is_all_reduce_sliced, _reruns),
    "all-gather-slices-to-the-shard": (all_gather_slices_to_the_shard, lambda ctx: True),
    "all-to-all-twice-is-identity": (all_to_all_twice_is_identity, _reruns),
    "writes-one-of-the-sources": (writes_one_of_the_sources, lambda ctx: True),
    **DECOMPOSITIONS,  # eigh, svd and qr: their factors' defining relations
    **SETS,  # unique_values and its siblings: parts in an order the standard leaves open
}


def applicable(ctx) -> list:
    """The spec's properties that hold for its configuration."""
    return [name for name in ctx.spec.properties if PROPERTIES[name][1](ctx)]

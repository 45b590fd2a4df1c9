"""The reference's collectives: their definitions on a list of per-rank NumPy shards, in float64
(the oracle every collective spec is judged against)."""
import numpy as np


class Collectives:
    """The collectives' definitions on a list of per-rank NumPy shards (shard r on rank r)."""

    @staticmethod
    def all_reduce(shards, op="sum"):
        """Every rank gets sum / mean / max of all shards."""
        reductions = {"sum": lambda s: np.sum(s, axis=0, dtype=s.dtype), "mean": lambda s: np.mean(s, axis=0),
                      "max": lambda s: np.max(s, axis=0)}
        if op not in reductions:
            raise ValueError(f"op takes sum, mean or max. Received: {op!r}")
        return [reductions[op](np.stack(shards))] * len(shards)

    @staticmethod
    def all_gather(shards, axis=0, tiled=False):
        """Every rank gets all shards in rank order: concatenated along axis (tiled) or stacked."""
        return [np.concatenate(shards, axis) if tiled else np.stack(shards, axis)] * len(shards)

    @staticmethod
    def reduce_scatter(shards, axis=0, op="sum", tiled=False):
        """Rank r gets block r, along axis, of the all_reduce; untiled (psum_scatter's default)
        the axis has one entry per rank and rank r gets entry r, the axis removed."""
        total = Collectives.all_reduce(shards, op)[0]
        if not tiled:
            if total.shape[axis] != len(shards):
                raise ValueError(f"untiled: axis {axis} of size {total.shape[axis]} is not the world size "
                                 f"{len(shards)}")
            return list(np.moveaxis(total, axis, 0))
        return np.split(total, len(shards), axis)

    @staticmethod
    def cross_replica_reduce(shards, op="sum", axis=None):
        """tf.distribute's Strategy.reduce: every rank gets the sum / mean over the ranks and, with
        `axis`, along that axis of the shards too (the mean over every rank's entries)."""
        if op not in ("sum", "mean"):
            raise ValueError(f"op takes sum or mean. Received: {op!r}")
        stacked = np.stack(shards)
        axes = 0 if axis is None else (0, 1 + axis % shards[0].ndim)
        total = np.sum(stacked, axis=axes, dtype=stacked.dtype) if op == "sum" else np.mean(stacked, axis=axes)
        return [total] * len(shards)

    @staticmethod
    def all_to_all(shards, split_axis, concat_axis):
        """Rank d splits its shard into N blocks along split_axis and sends block j to rank j;
        rank j concatenates the blocks it receives, in rank order, along concat_axis."""
        blocks = [np.split(s, len(shards), split_axis) for s in shards]
        return [np.concatenate([blocks[d][j] for d in range(len(shards))], concat_axis) for j in range(len(shards))]

    @staticmethod
    def ppermute(shards, perm):
        """Rank dst gets the shard of rank src for each (src, dst); a rank that gets none, zeros."""
        out = [np.zeros_like(s) for s in shards]
        for src, dst in perm:
            out[dst] = shards[src]
        return out

    @staticmethod
    def broadcast(shards, root=0):
        """Every rank gets the root's shard."""
        return [shards[root]] * len(shards)

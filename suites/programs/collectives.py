"""The Collective program: one collective across ranks, on the adapter's workers or devices."""
from dataclasses import dataclass, field

import numpy as np

from suites.judging import compare, outcome
from suites.programs.program import ORACLE, Program, widen
from vocabulary import MODES


@dataclass(frozen=True)
class Collective(Program):
    """One collective on len(shards) ranks; its one input `shards` stacks shard r at index r, and
    so does its result. `replicated` (an all-reduced loss): the result is one value every rank
    holds, so it is rank 0's copy alone (the ranks must hold the same bits), and its cotangent
    reaches every rank once."""

    name: str
    params: dict = field(default_factory=dict)
    replicated: bool = False

    def run(self, ctx, inputs: dict, tree=None):
        outputs = ctx.collective(self.name, list(inputs["shards"]), **self.params)
        if self.replicated:
            for rank, out in enumerate(outputs[1:], 1):
                if not np.array_equal(out, outputs[0], equal_nan=True):
                    raise RuntimeError(f"a replicated result differs between ranks 0 and {rank}")
            outputs = outputs[:1]
        return np.stack(outputs), outputs[0].dtype.name, None

    def tensors(self, ctx, inputs: dict) -> dict:
        return dict(inputs)  # the shards stay NumPy: they go to the workers

    def oracle_parts(self, inputs: dict, dtype: str, fixed=None, tree=None, reference=ORACLE):
        outputs = reference.collective(self.name, [widen(s) for s in inputs["shards"]], **self.params)
        return np.stack(outputs[:1] if self.replicated else outputs)

    def error_bound(self, inputs: dict, dtype: str, behaviour=None, rounded=()):
        # a model of a collective moves data as the collective does (all_gather's layout): the same bound
        bound = compare.collective_bound(self.name, self.params, widen(inputs["shards"]), dtype)
        return bound[:1] if self.replicated and np.ndim(bound) else bound

    def sum_product(self, wide: dict):
        return None  # its reverse pass is another collective: no sum-product bound of its own

    def fixed_calls(self) -> list:
        return []

    def ops(self) -> set:
        return {self.name}  # the collective, which an adapter's documented behaviour may model

    @property
    def modes(self) -> tuple:
        return MODES[:1]  # a collective runs on the adapter's workers or devices as it runs it

    def pullback(self, ctx, inputs, wrt):
        """The reverse pass on the workers: stacked cotangents in, stacked gradients out (no
        gradient where a rank's framework gives None); a replicated result's one cotangent goes
        to every rank, as each rank holds the value."""
        shards = [np.asarray(s).astype(ctx.dtype) for s in inputs["shards"]]

        def vjp(cotangent) -> dict:
            cotangents = [np.asarray(c).astype(ctx.dtype) for c in cotangent] * (len(shards) if self.replicated else 1)
            grads = ctx.adapter.collective_grad(self.name, shards, cotangents, device=ctx.device,
                                                **({"replicated": True} if self.replicated else {}), **self.params)
            return outcome.gradients_of({"shards": None if any(g is None for g in grads) else np.stack(grads)})

        return vjp

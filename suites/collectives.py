"""The Collective program: one collective across ranks, on the adapter's workers or devices."""
from dataclasses import dataclass, field

import numpy as np

from adapters.base import MODES
from suites import compare
from suites.program import ORACLE, Program, widen


@dataclass(frozen=True)
class Collective(Program):
    """One collective on len(shards) ranks; its one input `shards` stacks shard r at index r, and
    so does its result."""

    name: str
    params: dict = field(default_factory=dict)

    def run(self, ctx, inputs: dict, tree=None):
        outputs = ctx.collective(self.name, list(inputs["shards"]), **self.params)
        return np.stack(outputs), outputs[0].dtype.name, None

    def tensors(self, ctx, inputs: dict) -> dict:
        return dict(inputs)  # the shards stay NumPy: they go to the workers

    def oracle_parts(self, inputs: dict, dtype: str, fixed=None, tree=None, reference=ORACLE):
        return np.stack(reference.collective(self.name, [widen(s) for s in inputs["shards"]], **self.params))

    def error_bound(self, inputs: dict, dtype: str, behaviour=None):
        # a model of a collective moves data as the collective does (all_gather's layout): the same bound
        return compare.collective_bound(self.name, self.params, widen(inputs["shards"]), dtype)

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
        """The reverse pass on the workers: stacked cotangents in, stacked gradients out."""
        shards = [np.asarray(s).astype(ctx.dtype) for s in inputs["shards"]]

        def vjp(cotangent) -> dict:
            cotangents = [np.asarray(c).astype(ctx.dtype) for c in cotangent]
            grads = ctx.adapter.collective_grad(self.name, shards, cotangents, device=ctx.device, **self.params)
            return {"shards": np.stack(grads)}

        return vjp

"""jax-pmap: JAX's collectives mapped by jax.pmap, the API a port from older JAX code calls,
beside the jax adapter's jax.shard_map (the API JAX documents now). Not a built-in adapter (it
would run every other spec as jax again): load it for the collectives,

    pytest specs/collectives.yaml --adapter-path adapters/jax/pmap.py --adapter jax-pmap

The specs' differences for jax are its own too (variant_of); where pmap and shard_map part ways
(the gradient of an all-reduced loss), a difference names jax-pmap."""
from adapters import workers
from adapters.base import Unsupported
from adapters.jax import JaxAdapter


class JaxPmapAdapter(JaxAdapter):
    name = "jax-pmap"
    variant_of = "jax"

    def collective_rank(self, rank, processes, announce, device="cpu", **launch):
        raise Unsupported("jax-pmap runs in one process (the multi-process runs map with jax.shard_map)")

    def _pool(self, world, device):
        return workers.pool("adapters.jax.collectives", world, 1, {"device": device, "mapping": "pmap"})

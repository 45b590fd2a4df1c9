"""jax.lax collectives under jax.shard_map, run in one worker process (adapters/workers.py) that
sees world_size devices (XLA host devices on CPU, counted before jax is imported)."""
import functools

from adapters import workers


def collective_worker(rank, world_size, announce, device="cpu"):
    """A 1-D mesh over world_size devices; each request runs jax.shard_map of the lax collective,
    shard r on device r. On CPU the devices are XLA host devices, counted before jax is imported."""
    import json
    import os

    if device == "cpu":
        flags = os.environ.get("XLA_FLAGS", "")
        os.environ["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={world_size}".strip()
    import jax
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    from adapters.jax import X64

    jax.config.update("jax_enable_x64", X64)
    devices = jax.devices("cpu" if device == "cpu" else "gpu")
    if len(devices) < world_size:
        raise RuntimeError(f"{world_size} devices needed, {len(devices)} visible")
    mesh = Mesh(np.array(devices[:world_size]), ("ranks",))
    spec = PartitionSpec("ranks")

    def put(arrays):
        return jax.device_put(np.stack(arrays), NamedSharding(mesh, spec))

    @functools.cache
    def compiled(name, frozen_params):
        """The jitted shard_map of one collective and its vjp (jax.vjp of the shard_map: psum's
        transpose, all_gather's psum_scatter), made once: jit's cache then serves every call of
        the same shapes."""
        params = json.loads(frozen_params)
        mapped = jax.shard_map(lambda block: JAX_COLLECTIVES[name](block[0], "ranks", **params)[None], mesh=mesh,
                               in_specs=spec, out_specs=spec)
        return jax.jit(mapped), jax.jit(lambda x, c: jax.vjp(mapped, x)[1](c)[0])

    def serve(name, shards, params, cotangents=None, rounds=0):
        run, pullback = compiled(name, json.dumps(params, sort_keys=True))
        if cotangents is not None:
            return list(np.asarray(pullback(put(shards), put(cotangents))))
        x = put(shards)
        if rounds:
            return [workers.time_rounds(lambda: run(x).block_until_ready(), rounds)]
        return list(np.asarray(run(x)))

    return serve


def _all_reduce(x, axis_name, op="sum"):
    from jax import lax

    reductions = {"sum": lax.psum, "mean": lax.pmean, "max": lax.pmax}
    if op not in reductions:
        raise ValueError(f"op takes sum, mean or max. Received: {op!r}")
    return reductions[op](x, axis_name)


def _all_gather(x, axis_name, axis=0, tiled=False):
    from jax import lax

    return lax.all_gather(x, axis_name, axis=axis, tiled=tiled)


def _reduce_scatter(x, axis_name, axis=0, op="sum"):
    from jax import lax

    return lax.psum_scatter(x, axis_name, scatter_dimension=axis, tiled=True)


def _all_to_all(x, axis_name, split_axis, concat_axis):
    from jax import lax

    return lax.all_to_all(x, axis_name, split_axis, concat_axis, tiled=True)


def _ppermute(x, axis_name, perm):
    from jax import lax

    return lax.ppermute(x, axis_name, [tuple(pair) for pair in perm])


JAX_COLLECTIVES = {"all_reduce": _all_reduce, "all_gather": _all_gather, "reduce_scatter": _reduce_scatter,
                   "all_to_all": _all_to_all, "ppermute": _ppermute}

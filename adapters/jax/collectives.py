"""jax.lax collectives under jax.shard_map (or jax.pmap: adapters/jax/pmap.py), run in one worker
process (adapters/workers.py) that sees world_size devices (XLA host devices on CPU, counted
before jax is imported), or across processes joined by jax.distributed (collective_rank, for
python -m suites.multihost)."""
import functools

from adapters import workers


def collective_worker(rank, world_size, announce, device="cpu", mapping="shard_map"):
    """world_size devices of this process; each request runs the lax collective mapped over them
    (jax.shard_map, or jax.pmap), shard r on device r. On CPU the devices are XLA host devices,
    counted before jax is imported."""
    jax = _jax(device, world_size)
    devices = jax.devices("cpu" if device == "cpu" else "gpu")
    if len(devices) < world_size:
        raise RuntimeError(f"{world_size} devices needed, {len(devices)} visible")
    return _serving(jax, devices[:world_size], mapping)


def collective_rank(rank, processes, announce, device="cpu", host="127.0.0.1", port=None, local_devices=1,
                    timeout=workers.TIMEOUT):
    """Process `rank` of `processes` joined by jax.distributed.initialize (rank 0 runs the
    coordinator at host:port), each with `local_devices` devices; on CPU the processes' devices
    talk through gloo (jax_cpu_collectives_implementation). The mesh is every process's devices in
    jax.devices()' order (process by process): global rank = rank x local_devices + local index."""
    jax = _jax(device, local_devices)
    if device == "cpu":
        jax.config.update("jax_cpu_collectives_implementation", "gloo")
    jax.distributed.initialize(coordinator_address=f"{host}:{port}", num_processes=processes, process_id=rank,
                               initialization_timeout=max(1, int(timeout)))
    if len(jax.local_devices()) != local_devices:
        raise RuntimeError(f"{local_devices} devices per process needed, {len(jax.local_devices())} visible")
    return _serving(jax, jax.devices())


def _jax(device, count):
    """jax, imported with `count` XLA host devices on CPU, x64 as the adapter sets it."""
    import os

    if device == "cpu":
        flags = os.environ.get("XLA_FLAGS", "")
        os.environ["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={count}".strip()
    import jax

    from adapters.jax.precision import X64

    jax.config.update("jax_enable_x64", X64)
    return jax


def _serving(jax, devices, mapping="shard_map"):
    """serve(name, shards, params, ...) over `devices`: `shards` are this process's (every
    device's in one process), and so are the outputs. `mapping`: jax.shard_map over a 1-D mesh
    (JAX's API for per-device code), or jax.pmap (its older one, one process only)."""
    import json

    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    mesh = Mesh(np.array(devices), ("ranks",))
    spec = PartitionSpec("ranks")
    pmap = mapping == "pmap"

    def put(arrays):
        return np.stack(arrays) if pmap else jax.make_array_from_process_local_data(NamedSharding(mesh, spec),
                                                                                    np.stack(arrays))

    def local(out):
        if pmap:
            return list(np.asarray(out))
        return [np.asarray(s.data)[0] for s in sorted(out.addressable_shards, key=lambda s: s.index[0].start)]

    @functools.cache
    def compiled(name, frozen_params):
        """The mapped collective, its vjp (from outside: psum's transpose, all_gather's
        psum_scatter), the gradient of a replicated result taken inside the mapped function
        (jax.grad of <c, result> on each device, c one value: data-parallel training's loss), and
        the collective with its input donated (in place); made once, so that jit's cache serves
        every call of the same shapes."""
        params = json.loads(frozen_params)

        def collective(v):
            return JAX_COLLECTIVES[name](v, "ranks", **params)

        def inside(v, c):
            return jax.grad(lambda w: jax.numpy.vdot(c, collective(w)))(v)

        if pmap:
            mapped = jax.pmap(collective, axis_name="ranks", devices=devices)
            return (mapped, lambda x, c: jax.vjp(mapped, x)[1](c)[0],
                    jax.pmap(inside, axis_name="ranks", in_axes=(0, None), devices=devices),
                    jax.pmap(collective, axis_name="ranks", devices=devices, donate_argnums=0))
        mapped = jax.shard_map(lambda block: collective(block[0])[None], mesh=mesh, in_specs=spec, out_specs=spec)
        grads = jax.shard_map(lambda block, c: inside(block[0], c)[None], mesh=mesh,
                              in_specs=(spec, PartitionSpec()), out_specs=spec)
        return (jax.jit(mapped), jax.jit(lambda x, c: jax.vjp(mapped, x)[1](c)[0]), jax.jit(grads),
                jax.jit(mapped, donate_argnums=0))

    def serve(name, shards, params, cotangents=None, rounds=0, placement="out-of-place", replicated=False):
        run, pullback, inside, donating = compiled(name, json.dumps(params, sort_keys=True))
        if cotangents is not None and replicated:  # every rank holds the same cotangent: pass it once
            return local(inside(put(shards), cotangents[0]))
        if cotangents is not None:
            return local(pullback(put(shards), put(cotangents)))
        x = put(shards)
        if rounds and placement == "in-place":  # the input donated: each call's result is the next one's input
            state = [x]

            def call():
                state[0] = donating(state[0])
                state[0].block_until_ready()

            return [workers.time_rounds(call, rounds)]
        if rounds:
            return [workers.time_rounds(lambda: run(x).block_until_ready(), rounds)]
        return local(run(x))

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


def _reduce_scatter(x, axis_name, axis=0, op="sum", **tiling):
    """psum_scatter with its own default layout where the spec leaves `tiled` out (untiled)."""
    from jax import lax

    return lax.psum_scatter(x, axis_name, scatter_dimension=axis, **tiling)


def _all_to_all(x, axis_name, split_axis, concat_axis):
    from jax import lax

    return lax.all_to_all(x, axis_name, split_axis, concat_axis, tiled=True)


def _ppermute(x, axis_name, perm):
    from jax import lax

    return lax.ppermute(x, axis_name, [tuple(pair) for pair in perm])


JAX_COLLECTIVES = {"all_reduce": _all_reduce, "all_gather": _all_gather, "reduce_scatter": _reduce_scatter,
                   "all_to_all": _all_to_all, "ppermute": _ppermute}

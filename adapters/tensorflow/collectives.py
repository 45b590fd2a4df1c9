"""tf.distribute collectives through the replica context: in one worker process
(adapters/workers.py) under MirroredStrategy over world_size logical devices, or across processes
under MultiWorkerMirroredStrategy (collective_rank, for python -m suites.multihost)."""
import functools
import itertools
import json

from adapters import workers


def collective_worker(rank, world_size, announce, device="cpu"):
    """MirroredStrategy over world_size logical CPU devices (configured before TF initialises
    its runtime, hence the worker process) or the first world_size GPUs; replica r gets shard r."""
    import tensorflow as tf

    if device == "cpu":
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * world_size)
    names = [d.name for d in tf.config.list_logical_devices("CPU" if device == "cpu" else "GPU")][:world_size]
    if len(names) < world_size:
        raise RuntimeError(f"{world_size} devices needed, {len(names)} visible")
    return _serving(tf.distribute.MirroredStrategy(names), first=0, staged=True, timeout=workers.TIMEOUT)


def collective_rank(rank, processes, announce, device="cpu", host="127.0.0.1", port=None, local_devices=1,
                    timeout=workers.TIMEOUT):
    """Worker `rank` of a MultiWorkerMirroredStrategy cluster that TF_CONFIG describes (as every
    worker of one is configured; python -m suites.multihost --launch writes it), one replica per
    worker on CPU (the strategy's local devices: the GPUs, else the CPU), its collectives timed out
    after `timeout` s (CommunicationOptions).

    The steps run eagerly: under tf.function, ReplicaContext.all_reduce of the step's own input
    raises "destinations can not be empty" with this strategy (the argument has no device; seen
    with TF 2.21), where MirroredStrategy's does not. A step that computes first is unaffected."""
    import os

    import tensorflow as tf

    if "TF_CONFIG" not in os.environ:
        raise RuntimeError("a MultiWorkerMirroredStrategy worker needs TF_CONFIG (the cluster's workers and this "
                           "one's index), as tf.distribute's multi-worker guide sets it")
    if local_devices != 1 and device == "cpu":
        raise RuntimeError("MultiWorkerMirroredStrategy runs one replica per worker on CPU")
    options = tf.distribute.experimental.CommunicationOptions(timeout_seconds=timeout)
    strategy = tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)
    return _serving(strategy, first=rank * strategy.num_replicas_in_sync // processes, staged=False,
                    timeout=timeout)


def _serving(strategy, first: int, staged: bool, timeout: float):
    """serve(name, shards, params, ...) on the strategy's replicas; `shards` are this process's,
    the first of them replica `first`'s. `staged`: each step inside tf.function, as the
    MirroredStrategy guide runs steps. A collective op (COLLECTIVE_OPS) gets the next instance
    key of Parity's own group on every call, in the same order on every worker; and Strategy.reduce
    is a cross-replica call, outside any step."""
    import tensorflow as tf

    instances = itertools.count(_GROUP)

    def distribute(arrays):
        return strategy.experimental_distribute_values_from_function(
            lambda ctx: tf.constant(arrays[ctx.replica_id_in_sync_group - first]))

    @functools.cache
    def steps(name, frozen_params):
        """The collective's forward and reverse steps, made once, so each traces once per shape."""
        params = json.loads(frozen_params)

        def forward(v, instance=None):
            replica = tf.distribute.get_replica_context()
            if name in COLLECTIVE_OPS:
                return COLLECTIVE_OPS[name](replica, v, _keys(replica, instance, timeout), **params)
            return TF_COLLECTIVES[name](replica, v, **params)

        def backward(v, c):
            with tf.GradientTape() as tape:
                tape.watch(v)
                y = forward(v)
            return tape.gradient(y, v, output_gradients=c)

        stage = tf.function if staged else (lambda fn: fn)
        return (stage(lambda v, instance=None: strategy.run(forward, args=(v, instance))),
                stage(lambda v, c: strategy.run(backward, args=(v, c))))

    def serve(name, shards, params, cotangents=None, rounds=0, placement="out-of-place"):
        values = distribute(shards)
        if name == "cross_replica_reduce":
            reduced = _cross_replica_reduce(strategy, values, **params)
            return [reduced.numpy()] * len(shards)  # a cross-replica call: every rank's value
        forward, backward = steps(name, json.dumps(params, sort_keys=True))
        if rounds:
            return [workers.time_rounds(lambda: _wait(strategy.experimental_local_results(
                forward(values, next(instances) if name in COLLECTIVE_OPS else None))), rounds)]
        try:
            if cotangents is not None:
                out = backward(values, distribute(cotangents))
            else:
                out = forward(values, next(instances) if name in COLLECTIVE_OPS else None)
        except tf.errors.OpError:
            # TF aborts the collective executor: every later collective of this process fails with
            # "Collective ops is aborted by: ... Restart your program to reset"
            serve.aborted = True
            raise
        results = strategy.experimental_local_results(out)
        if any(t is None for t in results):
            raise RuntimeError("tape.gradient returned None: no gradient flows through this collective")
        return [t.numpy() for t in results]

    return serve


def _wait(tensors):
    """Block until every replica's result is computed (reading one element of each)."""
    for t in tensors:
        t[(0,) * t.shape.rank].numpy() if t.shape.rank else t.numpy()


def _all_reduce(replica, x, op="sum"):
    import tensorflow as tf

    return replica.all_reduce({"sum": tf.distribute.ReduceOp.SUM, "mean": tf.distribute.ReduceOp.MEAN}[op], x)


def _all_gather(replica, x, axis=0, tiled=True):
    """ReplicaContext.all_gather concatenates along axis (its only form, so the default);
    stacked is that of an inserted axis."""
    import tensorflow as tf

    return replica.all_gather(x if tiled else tf.expand_dims(x, axis), axis)


def _cross_replica_reduce(strategy, values, op="sum", axis=None):
    """Strategy.reduce: over the replicas and, with `axis`, along it (MEAN: over every entry)."""
    import tensorflow as tf

    return strategy.reduce({"sum": tf.distribute.ReduceOp.SUM, "mean": tf.distribute.ReduceOp.MEAN}[op], values,
                           axis=axis)


_GROUP = 1 << 30  # the group and first instance key of Parity's collective ops: far from the strategy's own


def _keys(replica, instance, timeout) -> dict:
    """The collective op's group (every replica of the strategy) and this call's instance key."""
    size = replica.num_replicas_in_sync
    return {"group_size": size, "group_key": _GROUP + size, "instance_key": instance, "timeout_seconds": timeout}


def _to_dim0(x, axis, world):
    """x with `axis` moved to dim 0, where TF's collective ops split into one block per replica."""
    import tensorflow as tf

    moved = tf.experimental.numpy.moveaxis(x, axis, 0)
    if moved.shape[0] % world:
        raise ValueError(f"axis {axis} of size {moved.shape[0]} does not split into {world} equal blocks")
    return moved


def _reduce_scatter(replica, x, keys, axis=0, op="sum", tiled=True):
    """CollectiveReduceScatterV2 scatters blocks of dim 0 (its one layout, so the default): the
    axis is moved there and back; untiled is a port's composition, as torch's (each block's first
    entry, unchecked)."""
    import tensorflow as tf

    moved = _to_dim0(x, axis, keys["group_size"])
    out = tf.raw_ops.CollectiveReduceScatterV2(input=moved, ordering_token=[], merge_op="Add",
                                               final_op="Div" if op == "mean" else "Id", **keys)  # sum or mean
    return tf.experimental.numpy.moveaxis(out, 0, axis) if tiled else out[0]


def _all_to_all(replica, x, keys, split_axis, concat_axis):
    """CollectiveAllToAllV2 splits dim 0 and stacks what it receives on dim 0 in replica order:
    the split axis is moved there, and the received blocks concatenated along concat_axis."""
    import tensorflow as tf

    world = keys["group_size"]
    out = tf.raw_ops.CollectiveAllToAllV2(input=_to_dim0(x, split_axis, world), ordering_token=[], **keys)
    return tf.concat([tf.experimental.numpy.moveaxis(block, 0, split_axis) for block in tf.split(out, world, 0)],
                     concat_axis)


def _broadcast(replica, x, keys, root=0):
    """CollectiveBcastSendV2 on the root's replica, CollectiveBcastRecvV2 (of its shape) elsewhere."""
    import tensorflow as tf

    if tf.get_static_value(replica.replica_id_in_sync_group) == root:
        return tf.raw_ops.CollectiveBcastSendV2(input=x, **keys)
    return tf.raw_ops.CollectiveBcastRecvV2(shape=tf.shape(x), T=x.dtype, **keys)


TF_COLLECTIVES = {"all_reduce": _all_reduce, "all_gather": _all_gather}
# TF's collective ops (tf.raw_ops.Collective*V2), for what the replica context lacks. They need the
# collective executor MultiWorkerMirroredStrategy configures: across processes only.
COLLECTIVE_OPS = {"reduce_scatter": _reduce_scatter, "all_to_all": _all_to_all, "broadcast": _broadcast}

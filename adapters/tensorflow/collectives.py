"""tf.distribute collectives, run in one worker process (adapters/workers.py) under
MirroredStrategy over world_size logical devices, through the replica context."""
import functools
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
    strategy = tf.distribute.MirroredStrategy(names)

    def distribute(arrays):
        return strategy.experimental_distribute_values_from_function(
            lambda ctx: tf.constant(arrays[ctx.replica_id_in_sync_group]))

    @functools.cache
    def steps(name, frozen_params):
        """The collective's forward and reverse steps, strategy.run inside tf.function as the
        MirroredStrategy guide runs steps; made once, so each traces once per input shape."""
        params = json.loads(frozen_params)

        def forward(v):
            return TF_COLLECTIVES[name](tf.distribute.get_replica_context(), v, **params)

        def backward(v, c):
            with tf.GradientTape() as tape:
                tape.watch(v)
                y = forward(v)
            return tape.gradient(y, v, output_gradients=c)

        return (tf.function(lambda v: strategy.run(forward, args=(v,))),
                tf.function(lambda v, c: strategy.run(backward, args=(v, c))))

    def serve(name, shards, params, cotangents=None, rounds=0):
        forward, backward = steps(name, json.dumps(params, sort_keys=True))
        values = distribute(shards)
        if rounds:
            return [workers.time_rounds(lambda: _wait(strategy.experimental_local_results(forward(values))), rounds)]
        out = forward(values) if cotangents is None else backward(values, distribute(cotangents))
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


TF_COLLECTIVES = {"all_reduce": _all_reduce, "all_gather": _all_gather}

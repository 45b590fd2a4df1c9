"""tf.distribute collectives through the replica context: in one worker process
(adapters/workers.py) under MirroredStrategy over world_size logical devices, or across processes
under MultiWorkerMirroredStrategy (collective_rank, for python -m suites.multihost)."""
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
    return _serving(tf.distribute.MirroredStrategy(names), first=0, staged=True)


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
    return _serving(strategy, first=rank * strategy.num_replicas_in_sync // processes, staged=False)


def _serving(strategy, first: int, staged: bool):
    """serve(name, shards, params, ...) on the strategy's replicas; `shards` are this process's,
    the first of them replica `first`'s. `staged`: each step inside tf.function, as the
    MirroredStrategy guide runs steps."""
    import tensorflow as tf

    def distribute(arrays):
        return strategy.experimental_distribute_values_from_function(
            lambda ctx: tf.constant(arrays[ctx.replica_id_in_sync_group - first]))

    @functools.cache
    def steps(name, frozen_params):
        """The collective's forward and reverse steps, made once, so each traces once per shape."""
        params = json.loads(frozen_params)

        def forward(v):
            return TF_COLLECTIVES[name](tf.distribute.get_replica_context(), v, **params)

        def backward(v, c):
            with tf.GradientTape() as tape:
                tape.watch(v)
                y = forward(v)
            return tape.gradient(y, v, output_gradients=c)

        stage = tf.function if staged else (lambda fn: fn)
        return (stage(lambda v: strategy.run(forward, args=(v,))),
                stage(lambda v, c: strategy.run(backward, args=(v, c))))

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

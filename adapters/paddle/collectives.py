"""paddle.distributed collectives, run in worker processes (adapters/workers.py), one process per
rank, as `paddle.distributed.launch` runs them: its environment variables set, then
paddle.distributed.init_parallel_env(), with the gloo backend on CPU (PADDLE_DISTRI_BACKEND=gloo,
which the CPU build needs: its "auto" backend makes no process group). Imports paddle inside the
functions, so that the adapter can name the collectives without starting the runtime.

Measured with PaddlePaddle 3.3.1 on CPU (the docs' paddle.md lists each with its repro): gloo's
process group refuses reduce_scatter and all_to_all ("ProcessGroupGLOO does not support ...",
NotImplementedError), ReduceOp.AVG raises AttributeError on a build without NCCL, and
batch_isend_irecv times out; paddle.distributed's collectives are not recorded by autograd."""
from adapters import workers
from adapters.base import Unsupported

# paddle.distributed takes torch.distributed's calls for these (ReduceOp.SUM / AVG / MAX,
# all_reduce(x, op=), broadcast(x, src=)): torch's functions serve it as they are
from adapters.torch.collectives import _all_reduce, _broadcast, _reduce_op

UNIMPLEMENTED = "(Unimplemented)"  # how Paddle's C++ says that a process group lacks a collective


def collective_rank(rank, processes, announce, device="cpu", host="127.0.0.1", port=None, local_devices=1,
                    timeout=workers.TIMEOUT):
    """Rank `rank` of a group that spans processes (python -m suites.multihost): one rank per
    process, as paddle.distributed.launch runs them."""
    if local_devices != 1:
        raise RuntimeError("paddle.distributed runs one rank per process")
    return collective_worker(rank, processes, announce, device, port, host, timeout)


def collective_worker(rank, world_size, announce, device="cpu", port=None, host="127.0.0.1",
                      timeout=workers.TIMEOUT):
    """Join the process group: rank 0 hosts the TCP store on a free port it announces to the
    other ranks unless `port` is given (paddle's store takes no port 0). gloo's own timeout (30 s)
    is fixed in Paddle (ProcessGroupGloo.create takes none); `timeout` is the pool's."""
    import os

    if device != "cpu":
        raise RuntimeError("the paddle adapter runs on CPU")
    if rank == 0 and not port:
        port = _free_port(host)
        announce({"port": port})
    store = f"{host}:{port}"  # the one endpoint gloo's process group uses
    os.environ.update({"PADDLE_TRAINER_ID": str(rank), "PADDLE_TRAINERS_NUM": str(world_size),
                       "PADDLE_CURRENT_ENDPOINT": store, "PADDLE_TRAINER_ENDPOINTS": ",".join([store] * world_size),
                       "PADDLE_MASTER": store, "PADDLE_DISTRI_BACKEND": "gloo"})
    import paddle
    import paddle.distributed as dist

    paddle.set_device("cpu")
    dist.init_parallel_env()

    def serve(name, shards, params, cotangents=None, rounds=0, placement="out-of-place"):
        try:
            return run(name, shards, params, cotangents, rounds)
        except NotImplementedError as error:  # the process group's own refusal, in its words
            if UNIMPLEMENTED in str(error):
                raise Unsupported(f"{type(error).__name__}: {str(error).strip()}") from error
            raise

    def run(name, shards, params, cotangents, rounds):
        [shard] = shards
        x = paddle.to_tensor(shard)
        if rounds:
            return [workers.time_rounds(lambda: PADDLE_COLLECTIVES[name](x, dist, **params), rounds, dist.barrier)]
        if cotangents is not None:
            grad = _gradient(name, x, paddle.to_tensor(cotangents[0]), dist, params)
            return [None if grad is None else grad.numpy()]
        return [PADDLE_COLLECTIVES[name](x, dist, **params).numpy()]

    return serve


def _free_port(host):
    import socket

    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def _all_gather(x, dist, axis=0, tiled=True):
    """all_gather into a list of the ranks' tensors (Paddle's form), concatenated along the axis
    (tiled) or stacked on a new one."""
    import paddle

    gathered = []
    dist.all_gather(gathered, x)
    return paddle.concat(gathered, axis) if tiled else paddle.stack(gathered, axis)


def _blocks(x, axis, world):
    import paddle

    if x.shape[axis] % world:
        raise ValueError(f"axis {axis} of size {x.shape[axis]} does not split into {world} equal blocks")
    return paddle.split(x, world, axis)


def _reduce_scatter(x, dist, axis=0, op="sum", tiled=True):
    """reduce_scatter of the axis' blocks, one per rank, into this rank's block; untiled, the
    block loses that axis (its first entry), as the torch port composes it."""
    import paddle

    blocks = _blocks(x, axis, dist.get_world_size())
    out = paddle.empty_like(blocks[0])
    dist.reduce_scatter(out, blocks, op=_reduce_op(dist, op))
    return out if tiled else paddle.moveaxis(out, axis, 0)[0]


def _all_to_all(x, dist, split_axis, concat_axis):
    """alltoall of the split axis' blocks; what it receives, concatenated along concat_axis."""
    import paddle

    received = []
    dist.alltoall(received, _blocks(x, split_axis, dist.get_world_size()))
    return paddle.concat(received, concat_axis)


def _ppermute(x, dist, perm):
    """isend and irecv of the pairs this rank is in, then wait (Paddle's point-to-point calls; its
    batch_isend_irecv times out on gloo): the receive buffer starts as zeros, jax's value for a
    rank that receives nothing, as the torch port composes it."""
    import paddle

    rank, out, tasks = dist.get_rank(), paddle.zeros_like(x), []
    for src, dst in perm:
        if src == rank:
            tasks.append(dist.isend(x, dst))
        if dst == rank:
            tasks.append(dist.irecv(out, src))
    for task in tasks:
        task.wait()
    return out


def _gradient(name, x, cotangent, dist, params):
    """paddle.grad through the collective as a user writes it on a tensor that requires grad;
    paddle.distributed's collectives are not recorded by autograd, so what comes back is what
    autograd saw (an in-place all_reduce: the identity; all_gather's list: unconnected, None:
    "no gradient")."""
    import paddle

    x.stop_gradient = False
    y = PADDLE_COLLECTIVES[name](x * 1, dist, **params)  # a copy: in place on a leaf is refused
    return paddle.grad([y], [x], grad_outputs=[cotangent], allow_unused=True)[0]


IN_PLACE = {"all_reduce", "broadcast"}  # Paddle's in-place collectives; the others write an output of their own
PADDLE_COLLECTIVES = {"all_reduce": _all_reduce, "all_gather": _all_gather, "reduce_scatter": _reduce_scatter,
                      "all_to_all": _all_to_all, "ppermute": _ppermute, "broadcast": _broadcast}

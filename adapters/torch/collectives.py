"""torch.distributed collectives, run in worker processes (adapters/workers.py), one process per
rank: gloo on CPU, NCCL on GPU. Imports torch inside the functions, so that the adapter can name
the collectives without starting the runtime."""
from adapters import workers


def collective_rank(rank, processes, announce, device="cpu", host="127.0.0.1", port=None, local_devices=1,
                    timeout=workers.TIMEOUT):
    """Rank `rank` of a group that spans processes (python -m suites.multihost): one rank per
    process, torch.distributed's model; on cuda, the GPU LOCAL_RANK names (torchrun sets it)."""
    import os

    if local_devices != 1:
        raise RuntimeError("torch.distributed runs one rank per process")
    return collective_worker(rank, processes, announce, device, port, host, timeout,
                             gpu_index=int(os.environ.get("LOCAL_RANK", rank)))


def collective_worker(rank, world_size, announce, device="cpu", port=None, host="127.0.0.1",
                      timeout=workers.TIMEOUT, gpu_index=None):
    """Join the process group: rank 0 hosts the TCPStore on a port the OS picks (announced to
    the other ranks, so parallel sessions never collide) unless `port` is given; gloo on CPU,
    NCCL on cuda:rank (cuda:gpu_index); joining and every collective time out after `timeout` s."""
    import datetime
    import os

    import torch
    import torch.distributed as dist

    # under torchrun's agent store (TORCHELASTIC_USE_AGENT_STORE) every rank is a client of it
    master = rank == 0 and os.environ.get("TORCHELASTIC_USE_AGENT_STORE") != "True"
    store = dist.TCPStore(host, port or 0, world_size, is_master=master, wait_for_workers=False,
                          timeout=datetime.timedelta(seconds=timeout))
    if rank == 0 and not port:
        announce({"port": store.port})
    gpu = device != "cpu"
    target = torch.device(f"cuda:{rank if gpu_index is None else gpu_index}" if gpu else "cpu")
    if gpu:
        torch.cuda.set_device(target)  # NCCL's barrier and default streams use the current device
    dist.init_process_group("nccl" if gpu else "gloo", store=store, rank=rank, world_size=world_size,
                            timeout=datetime.timedelta(seconds=timeout))

    def sync():
        if gpu:
            torch.cuda.synchronize(target)

    def serve(name, shards, params, cotangents=None, rounds=0, placement="out-of-place"):
        [shard] = shards
        x = torch.from_numpy(shard).to(target)
        if rounds:  # the timing shards are zeros: a call in place leaves them so
            call = _timed(name, x, dist, placement, params)
            return [workers.time_rounds(lambda: (call(), sync()), rounds, dist.barrier)]
        if cotangents is not None:
            out = TORCH_GRADIENTS[name](x, torch.from_numpy(cotangents[0]).to(target), dist, **params)
        else:
            out = TORCH_COLLECTIVES[name](x, dist, **params)
        sync()
        return [out.cpu().numpy()]

    return serve


def _reduce_op(dist, op):
    ops = {"sum": dist.ReduceOp.SUM, "mean": dist.ReduceOp.AVG, "max": dist.ReduceOp.MAX}
    if op not in ops:
        raise ValueError(f"op takes sum, mean or max. Received: {op!r}")
    return ops[op]


def _all_reduce(x, dist, op="sum"):
    dist.all_reduce(x, op=_reduce_op(dist, op))
    return x


def _all_gather(x, dist, axis=0, tiled=True):
    """all_gather_into_tensor, torch's one-tensor all-gather, which concatenates along dim 0
    (its default layout: tiled): the axis is moved there and back; stacked is the
    concatenation of x with a new leading axis (gloo refuses the stack-shaped output NCCL takes)."""
    import torch

    moved = (x.movedim(axis, 0) if tiled else x.unsqueeze(0)).contiguous()
    out = torch.empty((dist.get_world_size() * moved.shape[0], *moved.shape[1:]), dtype=x.dtype, device=x.device)
    dist.all_gather_into_tensor(out, moved)
    return out.movedim(0, axis)


def _to_dim0(x, axis, world):
    """x with `axis` moved to dim 0, where torch.distributed splits into one block per rank."""
    moved = x.movedim(axis, 0).contiguous()
    if moved.shape[0] % world:
        raise ValueError(f"axis {axis} of size {moved.shape[0]} does not split into {world} equal blocks")
    return moved


def _reduce_scatter(x, dist, axis=0, op="sum", tiled=True):
    """reduce_scatter_single scatters blocks of dim 0 (torch's one layout, so the default): the
    axis is moved there and back. Untiled is a port's composition (torch has no such form): each
    rank's block loses that axis by taking its first entry, and nothing checks that the block
    has one entry (jax's psum_scatter raises: reduce-scatter-untiled shows what the port gets)."""
    import torch

    world = dist.get_world_size()
    moved = _to_dim0(x, axis, world)
    out = torch.empty((moved.shape[0] // world, *moved.shape[1:]), dtype=x.dtype, device=x.device)
    dist.reduce_scatter_single(out, moved, op=_reduce_op(dist, op))
    return out.movedim(0, axis) if tiled else out[0]


def _all_to_all(x, dist, split_axis, concat_axis):
    """all_to_all_single splits dim 0 and stacks what it receives on dim 0 in rank order: the
    split axis is moved there, and the received blocks concatenated along concat_axis."""
    import torch

    world = dist.get_world_size()
    moved = _to_dim0(x, split_axis, world)
    out = torch.empty_like(moved)
    dist.all_to_all_single(out, moved)
    return torch.cat([block.movedim(0, split_axis) for block in out.chunk(world, 0)], concat_axis)


def _ppermute(x, dist, perm):
    """batch_isend_irecv of the pairs this rank is in, as a port composes jax's ppermute (torch has
    none): the receive buffer starts as zeros, jax's value for a rank that receives nothing; torch
    leaves such a buffer as it was (tests/test_unsupported.py), so the zeros are this choice."""
    import torch

    rank, out, ops = dist.get_rank(), torch.zeros_like(x), []
    for src, dst in perm:
        if src == rank:
            ops.append(dist.P2POp(dist.isend, x, dst))
        if dst == rank:
            ops.append(dist.P2POp(dist.irecv, out, src))
    for work in dist.batch_isend_irecv(ops) if ops else []:
        work.wait()
    return out


def _broadcast(x, dist, root=0):
    dist.broadcast(x, src=root)
    return x


def _timed(name, x, dist, placement, params):
    """The call a benchmark times, its buffers made once, as nccl-tests times it: all_reduce and
    broadcast in place (their one form); all_gather of dim 0 into an output of its own, or in
    place, from this rank's slice of that output; the others as the spec runs them."""
    import torch

    if name == "all_gather" and params.get("tiled", True) and params.get("axis", 0) == 0:
        world, rank, n = dist.get_world_size(), dist.get_rank(), x.shape[0]
        out = torch.empty((world * n, *x.shape[1:]), dtype=x.dtype, device=x.device)
        source = out[rank * n:(rank + 1) * n] if placement == "in-place" else x
        return lambda: dist.all_gather_into_tensor(out, source)
    return lambda: TORCH_COLLECTIVES[name](x, dist, **params)


IN_PLACE = {"all_reduce", "broadcast", "all_gather"}  # what torch.distributed can run over its input
OUT_OF_PLACE = {"all_gather", "reduce_scatter", "all_to_all", "ppermute"}  # into an output of its own


def _all_reduce_grad(x, cotangent, dist, op="sum"):
    """The reverse pass through torch.distributed.nn.functional.all_reduce, the autograd-aware
    collective (its backward all-reduces the gradient with the same op)."""
    import torch
    import torch.distributed.nn.functional as differentiable

    x = x.detach().requires_grad_(True)
    y = differentiable.all_reduce(x, op=_reduce_op(dist, op))
    return torch.autograd.grad(y, x, cotangent)[0]


def _all_gather_grad(x, cotangent, dist, axis=0, tiled=True):
    """The reverse pass through torch.distributed.nn.functional.all_gather (its backward
    reduce-scatters the gradient: all_to_all and a sum on gloo)."""
    import torch
    import torch.distributed.nn.functional as differentiable

    x = x.detach().requires_grad_(True)
    gathered = differentiable.all_gather(x)
    y = torch.cat(gathered, axis) if tiled else torch.stack(gathered, axis)
    return torch.autograd.grad(y, x, cotangent)[0]


TORCH_GRADIENTS = {"all_reduce": _all_reduce_grad, "all_gather": _all_gather_grad}

TORCH_COLLECTIVES = {"all_reduce": _all_reduce, "all_gather": _all_gather, "reduce_scatter": _reduce_scatter,
                     "all_to_all": _all_to_all, "ppermute": _ppermute, "broadcast": _broadcast}

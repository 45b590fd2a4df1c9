"""paddle.distributed on CPU (the gloo process group), three ranks on this machine:

    python distributed_gloo.py float16   all_reduce(SUM) of float16 [1, 2], [2, 2], [3, 2] gives [inf, inf]
    python distributed_gloo.py avg       all_reduce(op=ReduceOp.AVG) raises AttributeError: the CPU
                                         build has no paddle.base.core.nccl_version
    python distributed_gloo.py isend     ranks 0 and 1 isend to each other, then irecv: isend (documented
                                         "Send tensor asynchronously") blocks, so the swap ends in
                                         gloo's 30 s TIMEOUT instead of exchanging the tensors
    python distributed_gloo.py tags      send 0 -> 1, then 1 -> 2: the second hangs until gloo's TIMEOUT
                                         (rank 1 has one exchange behind it, rank 2 none)
    python distributed_gloo.py self      each rank isends to itself, then irecvs: SIGSEGV
    python distributed_gloo.py grad      paddle.grad through all_reduce(SUM) gives the cotangent itself,
                                         not the sum of the ranks' cotangents [6, 60]: autograd does not see it
    python distributed_gloo.py gather    paddle.grad through all_gather and concat: no gradient (ValueError)

The script starts its three ranks itself (as paddle.distributed.launch would, gloo backend)."""
import os
import socket
import subprocess
import sys


def rank_main(case, rank):
    import paddle
    import paddle.distributed as dist

    paddle.set_device("cpu")
    dist.init_parallel_env()
    if case == "float16":
        x = paddle.to_tensor([1.0 + rank, 2.0]).astype("float16")
        dist.all_reduce(x)
        print(rank, "float16 sum:", x.numpy(), "expected [6. 6.]")
    elif case == "avg":
        dist.all_reduce(paddle.to_tensor([1.0 + rank]), op=dist.ReduceOp.AVG)
    elif case == "isend" and rank < 2:
        out = paddle.zeros([1])
        task = dist.isend(paddle.to_tensor([1.0 + rank]), dst=1 - rank)
        dist.irecv(out, src=1 - rank).wait()
        task.wait()
        print(rank, "received", out.numpy())
    elif case == "tags":
        out = paddle.zeros([1])
        for src, dst in ((0, 1), (1, 2)):
            if rank == src:
                dist.send(paddle.to_tensor([1.0 + rank]), dst=dst)
            if rank == dst:
                dist.recv(out, src=src)
        print(rank, "received", out.numpy())
    elif case == "self":
        out = paddle.zeros([1])
        task = dist.isend(paddle.to_tensor([1.0]), dst=rank)
        dist.irecv(out, src=rank).wait()
        task.wait()
    elif case == "gather":
        x = paddle.to_tensor([1.0 + rank], stop_gradient=False)
        gathered = []
        dist.all_gather(gathered, x)
        print(rank, "gradient:", paddle.grad([paddle.concat(gathered)], [x])[0].numpy())
    elif case == "grad":
        x = paddle.to_tensor([1.0 + rank, 2.0], stop_gradient=False)
        y = x * 1
        dist.all_reduce(y)
        cotangent = paddle.to_tensor([1.0, 10.0]) * (rank + 1)
        print(rank, "gradient:", paddle.grad([y], [x], [cotangent])[0].numpy(), "expected [6. 60.]")


if __name__ == "__main__":
    if len(sys.argv) == 3:
        rank_main(sys.argv[1], int(sys.argv[2]))
    else:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            store = f"127.0.0.1:{probe.getsockname()[1]}"
        env = {**os.environ, "PADDLE_TRAINERS_NUM": "3", "PADDLE_MASTER": store, "PADDLE_CURRENT_ENDPOINT": store,
               "PADDLE_TRAINER_ENDPOINTS": ",".join([store] * 3), "PADDLE_DISTRI_BACKEND": "gloo"}
        ranks = [subprocess.Popen([sys.executable, __file__, sys.argv[1], str(r)],
                                  env={**env, "PADDLE_TRAINER_ID": str(r)}) for r in range(3)]
        sys.exit(max(rank.wait() for rank in ranks))

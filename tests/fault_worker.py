"""A framework-free worker for tests/test_workers.py: every rank returns its shards, and on
request fails the way a real rank can: raises, exits or hangs."""
import os
import time


def collective_worker(rank, world_size, announce, **setup):
    if setup.get("fail_at_start") == rank:
        raise RuntimeError("cannot start")
    if rank == 0:
        announce({"rank0_pid": os.getpid()})

    def serve(name, shards, params, cotangents=None, rounds=0):
        fault = params.get("fault", {})
        if fault.get("rank") == rank:
            if fault["kind"] == "raise":
                raise ValueError(f"shard of rank {rank} is bad")
            if fault["kind"] == "exit":
                os._exit(3)
            if fault["kind"] == "hang":
                time.sleep(3600)
        return [s * 1 for s in shards]

    return serve

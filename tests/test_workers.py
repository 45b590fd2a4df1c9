"""The worker pool behind the real-runtime collectives: replies in rank order, and a rank that
raises, dies or hangs fails the call in time with its rank named; no worker outlives its parent."""
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from adapters.workers import ROOT, Pool, WorkerError

SHARDS = [np.full(2, r, dtype=np.float32) for r in range(4)]


@pytest.fixture
def pool():
    pool = Pool("tests.fault_worker", 4, 4, timeout=10)
    yield pool
    pool.close()


def alive(pid) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = proc_state(pid)
    return status is None or "Z" not in status


def proc_state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2]
    except OSError:
        return None


def test_replies_come_back_in_rank_order(pool):
    outputs = pool.call("echo", SHARDS, {})
    assert [o.tolist() for o in outputs] == [s.tolist() for s in SHARDS]
    assert pool.announced["rank0_pid"] == pool.pids()[0]  # rank 0's announcement reached the others' setup


def test_a_raising_rank_is_named_and_the_pool_kept_when_every_rank_answered(pool):
    pool.call("echo", SHARDS, {})
    pids = pool.pids()
    with pytest.raises(WorkerError, match="rank 2 raised ValueError: shard of rank 2 is bad"):
        pool.call("echo", SHARDS, {"fault": {"rank": 2, "kind": "raise"}})
    assert pool.pids() == pids and all(alive(p) for p in pids)  # nobody is stuck: no restart
    assert len(pool.call("echo", SHARDS, {})) == 4


def test_a_dying_rank_is_named_and_the_pool_restarted(pool):
    pool.call("echo", SHARDS, {})
    pids = pool.pids()
    with pytest.raises(WorkerError, match=r"rank 2 died \(exit code 3\)"):
        pool.call("echo", SHARDS, {"fault": {"rank": 2, "kind": "exit"}})
    assert not any(alive(p) for p in pids)  # the pool is torn down ...
    assert len(pool.call("echo", SHARDS, {})) == 4  # ... and the next call starts afresh


def test_a_hanging_rank_fails_within_the_timeout():
    pool = Pool("tests.fault_worker", 2, 2, timeout=2)
    try:
        pool.call("echo", SHARDS[:2], {})
        start = time.monotonic()
        with pytest.raises(WorkerError, match=r"rank 1 did not answer within 2 s"):
            pool.call("echo", SHARDS[:2], {"fault": {"rank": 1, "kind": "hang"}})
        assert time.monotonic() - start < 5
    finally:
        pool.close()


def test_a_call_may_end_sooner_than_the_pool():
    """A call's own timeout (Paddle's ppermute, which gloo leaves hanging for 30 s) bounds it
    where the pool's would wait longer."""
    pool = Pool("tests.fault_worker", 2, 2, timeout=30)
    try:
        start = time.monotonic()
        with pytest.raises(WorkerError, match=r"rank 1 did not answer within 1 s"):
            pool.call("echo", SHARDS[:2], {"fault": {"rank": 1, "kind": "hang"}}, timeout=1)
        assert time.monotonic() - start < 15  # the start, then 1 s: not the pool's 30
    finally:
        pool.close()


def test_a_rank_that_cannot_start_is_named():
    pool = Pool("tests.fault_worker", 2, 2, setup={"fail_at_start": 1}, timeout=10)
    with pytest.raises(WorkerError, match="rank 1 failed to start: raised RuntimeError: cannot start"):
        pool.call("echo", SHARDS[:2], {})
    assert not pool.workers


@pytest.mark.parametrize("ending", ["sys.exit(0)", "os.kill(os.getpid(), signal.SIGKILL)"])
def test_no_worker_outlives_its_parent(ending):
    script = textwrap.dedent(f"""
        import os, signal, sys
        import numpy as np
        from adapters.workers import Pool
        pool = Pool("tests.fault_worker", 2, 2, timeout=10)
        pool.call("echo", [np.zeros(1), np.zeros(1)], {{}})
        print(*pool.pids(), flush=True)
        {ending}
    """)
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    pids = [int(p) for p in run.stdout.split()]
    assert len(pids) == 2, run.stdout + run.stderr
    deadline = time.monotonic() + 5
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in pids)

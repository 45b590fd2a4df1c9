"""The torch collective case across two single-rank "hosts" launched separately on loopback,
as `torchrun --nnodes=2` launches them: rank 0 binds a free port and says which; rank 1 joins."""
import json
import os
import subprocess
import sys

import pytest

from adapters.workers import ROOT

pytest.importorskip("torch")


def launch(rank, port):
    env = {**os.environ, "RANK": str(rank), "WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port)}
    return subprocess.Popen([sys.executable, "-m", "suites.multihost", "all-reduce-sum", "docs"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_hosts_agree_with_the_reference():
    first = launch(0, 0)
    try:
        port = first.stdout.readline().split()[-1]  # "port N"
        second = launch(1, port)
        outputs = [p.communicate(timeout=120) for p in (first, second)]
    finally:
        for p in (first, locals().get("second")):
            if p is not None and p.poll() is None:
                p.kill()
    for rank, (out, err) in enumerate(outputs):
        record = json.loads(out.strip().splitlines()[-1])
        assert record["status"] == "pass" and record["rank"] == rank, out + err
        assert record["output"] == [4.0, 6.0]  # the torch docs' all_reduce example


def test_bad_input_is_one_line_and_exit_2():
    run = subprocess.run([sys.executable, "-m", "suites.multihost", "no-such-spec"], cwd=ROOT, capture_output=True,
                         text=True, env={**os.environ, "RANK": "0", "WORLD_SIZE": "2"}, timeout=60)
    assert run.returncode == 2
    assert run.stderr.strip() == "parity multihost: specs/collectives.yaml: no collective spec with id 'no-such-spec'"

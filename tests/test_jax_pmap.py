"""jax-pmap (adapters/jax/pmap.py): JAX's collectives mapped by jax.pmap, loaded with
--adapter-path. Its forward values and outside gradients agree with the reference as jax.shard_map's
do; the gradient of an all-reduced loss taken inside pmap is the device count times the loss's
(documented in collectives/all-reduce-replicated-loss), where shard_map's is the loss's own."""
import json
import subprocess
import sys

import pytest

from adapters.workers import ROOT

pytest.importorskip("jax")


def test_pmap_runs_the_collectives_and_its_replicated_loss_gradient_is_documented(tmp_path):
    run = subprocess.run([sys.executable, "-m", "pytest", "specs/collectives.yaml", "-k", "all-reduce", "-q",
                          "-p", "no:cacheprovider", "--hypothesis-profile=ci", "--adapter-path", "adapters/jax/pmap.py",
                          "--adapter", "jax-pmap", "--results-dir", str(tmp_path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:]
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert {r["adapter"] for r in records} == {"jax-pmap"}
    assert {r["status"] for r in records} <= {"pass", "documented", "unsupported"}
    loss = {(r["case"], r["dtype"]): r for r in records
            if r["spec"] == "collectives/all-reduce-replicated-loss" and r["kind"] == "gradient"}
    assert {r["status"] for r in loss.values()} == {"documented"}
    assert "d/dshards = [[2.0, 2.0], [2.0, 2.0]]" in loss["docs", "float32"]["message"]  # 2 devices: twice
    outside = [r for r in records if r["spec"] == "collectives/all-reduce-sum" and r["kind"] == "gradient"]
    assert outside and all(r["status"] == "pass" for r in outside)  # pmap's vjp from outside agrees

"""No false alarms: the gradient checks, run over many seeds on two frameworks, find nothing.

Where two independent frameworks agree and both fail the finite differences, the oracle's error
estimate is the suspect (the dev profile once failed autograd/elementwise-chain/gradient about one
run in three, on torch and jax alike: tests/test_gradients.py has the case)."""
import pathlib
import subprocess
import sys

import pytest

import adapters

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = (1, 2, 3)  # the dev profile's 40 examples each: 120 per item and framework


@pytest.mark.parametrize("seed", SEEDS)
def test_autograd_gradients_raise_no_alarm_over_seeds(tmp_path, seed):
    for name in ("torch", "jax"):
        if not adapters.classes().get(name):
            pytest.skip(f"{name} is not installed")
    run = subprocess.run([sys.executable, "-m", "pytest", "specs/autograd.yaml", "-k", "gradient", "--adapter",
                          "torch,jax", "--dtype", "float64", "--hypothesis-profile=dev", f"--hypothesis-seed={seed}",
                          "-p", "no:cacheprovider", "-p", "no:xdist", "-q", "--results-dir", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:]
    assert "passed" in run.stdout.splitlines()[-1]

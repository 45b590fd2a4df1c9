"""Benchmarks (pytest-benchmark JSON), run alone and one framework per process:

    python -m suites.benchmarks run [--adapter torch,jax] [--threads 2] [--bench-filter area=matmul]
    python -m suites.benchmarks table results/bench/*.json
    python -m suites.benchmarks compare BASE.json NEW.json

bench_specs.py times every spec's benchmark block, bench_collectives.py all_reduce / all_gather
by message size, bench_harness.py the harness itself, bench_engine.py the engine's targets.
They are not collected by `pytest suites` (their files are bench_*.py, not test_*.py)."""

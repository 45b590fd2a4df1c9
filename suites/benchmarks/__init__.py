"""Benchmarks (pytest-benchmark). Run them alone, one process, e.g.
    pytest suites/benchmarks/bench_engine.py --benchmark-json results/bench-engine.json
    python -m suites.benchmarks.ratios results/bench-engine.json
They are not collected by `pytest suites` (their files are bench_*.py, not test_*.py)."""

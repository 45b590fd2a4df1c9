"""The benchmark machinery: filters, workloads from spec blocks, their inputs and FLOPs, the
regression compare, and one small end-to-end run of `python -m suites.benchmarks run` (its
JSON holds the figures the report reads). No timing is asserted: the machines are noisy."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import adapters
from adapters.base import Unsupported
from reports import stats as bench_stats
from suites.benchmarks import __main__ as cli
from suites.benchmarks import machine, workloads
from suites.benchmarks.turns import merged
from suites.loading import specs
from suites.programs import inputs

ROOT = pathlib.Path(__file__).resolve().parent.parent
ALL = specs.load_path(ROOT / "specs")


def by_id(workload_id):
    return next(w for w in workloads.workloads(ALL) if w.id == workload_id)


def test_filter_keeps_matching_workloads():
    terms = workloads.parse_filter("area=matmul,size=square-*,pass=forward")
    kept = workloads.workloads(ALL, terms)
    assert kept and all(w.spec.area == "matmul" and w.size["name"].startswith("square-") for w in kept)
    assert {w.pass_name for w in kept} == {"forward"}
    assert {w.mode for w in kept} == {"eager", "compiled"}


def test_a_key_given_twice_matches_either():
    terms = workloads.parse_filter("size=square-512,size=square-1024,mode=eager,pass=forward")
    assert {w.size["name"] for w in workloads.workloads(ALL, terms)} == {"square-512", "square-1024"}


def test_alternatives_keep_what_either_keeps():
    terms = workloads.parse_filter("area=matmul,size=square-512,mode=eager,pass=forward;area=lstm,adapter=torch")
    kept = workloads.workloads(ALL, terms)
    assert {w.spec.area for w in kept} == {"matmul", "lstm"}
    matmul = {w.id for w in kept if w.spec.area == "matmul"}
    assert matmul == {"matmul/broadcast-shapes/square-512/float32-eager-forward"}
    lstm = next(w for w in kept if w.spec.area == "lstm")
    assert workloads.matches(lstm.fields("torch"), terms) and not workloads.matches(lstm.fields("jax"), terms)


def test_the_quick_profile_keeps_one_workload_of_each_headline_kind():
    """The report's default (tox -e report): a GEMM eager and compiled, attention's forward pass,
    LSTM and conv trained, and one collective (bench_collectives matches it by these fields)."""
    terms = workloads.parse_filter(workloads.PROFILES["quick"])
    kept = workloads.workloads(ALL, terms)
    assert {w.spec.area for w in kept} == {"matmul", "attention", "lstm", "conv"}
    assert {(w.spec.area, w.mode, w.pass_name) for w in kept} == {
        ("matmul", "eager", "forward"), ("matmul", "compiled", "forward"), ("attention", "eager", "forward"),
        ("lstm", "eager", "forward-backward"), ("conv", "eager", "forward-backward")}
    collective = {"area": "collectives", "spec": "all_reduce", "size": "w2-1MiB-out-of-place", "adapter": "torch",
                  "dtype": "float32", "mode": "eager", "pass": "forward"}
    assert workloads.matches(collective, terms)
    assert not workloads.matches({**collective, "size": "w4-1MiB-out-of-place"}, terms)


def test_a_profile_and_a_filter_together_is_one_clear_error(capsys):
    assert cli.main(["run", "--profile", "quick", "--bench-filter", "area=matmul", "--adapter", "engine"]) == 2
    assert "--profile quick has its own filter" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["colour=red", "area", "adapter:torch", "area=matmul;size"])
def test_bad_filter_is_one_clear_error(text):
    with pytest.raises(workloads.FilterError, match="key=glob"):
        workloads.parse_filter(text)


def test_every_area_the_issue_names_has_workloads():
    areas = {w.spec.area for w in workloads.workloads(ALL)}
    assert {"matmul", "masking", "padding", "scatter", "ste", "lstm", "conv", "attention", "models"} <= areas


def test_gemm_flops_are_2mnk_and_the_backward_counts_twice():
    forward = by_id("matmul/broadcast-shapes/deepbench-35x8457x1760/float32-eager-forward")
    values = workloads.inputs(forward)
    assert values["a"].shape == (35, 1760) and values["b"].shape == (1760, 8457)
    assert workloads.work(forward, values, (35, 8457))["flops"] == 2 * 35 * 8457 * 1760
    both = by_id("matmul/broadcast-shapes/deepbench-35x8457x1760/float32-eager-forward-backward")
    assert workloads.work(both, values, (35, 8457))["flops"] == 3 * 2 * 35 * 8457 * 1760


def test_lstm_inputs_follow_the_sizes_lstm_block():
    w = by_id("lstm/benchmark-num-layers2/b32-t64-h256/float32-eager-forward")
    values = workloads.inputs(w)
    assert values["x"].shape == (32, 64, 256)
    assert values["weight_ih_l1"].shape == (1024, 256) and values["h0"].shape == (2, 32, 256)
    assert np.abs(values["weight_hh_l0"]).max() <= 1 / 16  # U(-1/sqrt(H), 1/sqrt(H))
    b, t, h = 32, 64, 256
    assert workloads.work(w, values, (b, t, h))["flops"] == 8 * b * t * h * (h + h) + 16 * b * t * h * h


def test_gru_inputs_follow_the_sizes_gru_block():
    w = by_id("gru/benchmark/b32-t64-h256/float32-eager-forward")
    values = workloads.inputs(w)
    assert values["weight_ih_l0"].shape == (768, 256) and values["h0"].shape == (1, 32, 256)  # 3H rows, one state
    assert "c0" not in values
    b, t, h = 32, 64, 256
    assert workloads.work(w, values, (b, t, h))["flops"] == 6 * b * t * h * (h + h)


def test_model_inputs_and_parameters_follow_the_sizes_dims():
    w = by_id("models/transformer-encoder/b16-t64-e128/float32-eager-forward-backward")
    values = workloads.inputs(w)
    assert values["tokens"].shape == (16, 64) and values["tokens"].dtype == np.int64
    assert 0 <= values["tokens"].min() and values["tokens"].max() <= 10 and (values["mask"] == 1).all()
    assert values["embedding.weight"].shape == (1000, 128)
    assert values["layers.1.attention.heads.0.q.weight"].shape == (64, 128)  # head_dim x embed
    b, t, e, f = 16, 64, 128, 512
    forward = 2 * (8 * b * t * e * e + 4 * b * t * t * e + 4 * b * t * e * f) + 2 * b * e * 4
    assert workloads.work(w, values, ())["flops"] == 3 * forward


def test_index_and_mask_inputs_are_valid():
    scatter = workloads.inputs(by_id("scatter/scatter-add-duplicates/4096x256-from-16384/float32-eager-forward"))
    assert scatter["i"].min() >= 0 and scatter["i"].max() < 4096
    attention = workloads.inputs(by_id("masking/attention/b8-t256-d64/float32-eager-forward"))
    # at_least_one: false, read as the hypothesis cases read it: every row keeps a position
    assert attention["m"].dtype == bool and (~attention["m"]).any(axis=-1).all()


def test_unique_indices_are_distinct_along_their_axis():
    index = inputs.Seeded("unique").indices((3, 5), 7, 1, unique=True)
    assert all(len(set(row)) == 5 for row in index) and index.max() < 7


def test_bus_bandwidth_factors_are_nccl_tests():
    assert workloads.bus_factor("all_reduce", 4) == 1.5
    assert workloads.bus_factor("all_gather", 4) == 0.75
    assert workloads.message_sizes()[0] == 1024 and workloads.message_sizes()[-1] == 64 * 2**20
    shards = workloads.collective_message(4096, 4, "all_gather")
    assert len(shards) == 4 and sum(s.nbytes for s in shards) == 4096


def report(median, iqr, name="test_x[a]"):
    return {"benchmarks": [{"fullname": name, "stats": {"median": median, "iqr": iqr}}]}


def test_compare_flags_a_slowdown_the_noise_cannot_explain():
    lines, slower = cli.compare(report(1.0, 0.01), report(1.2, 0.01), threshold=0.05)
    assert slower == ["test_x[a]"] and lines[0].startswith("SLOWER +20.0%")


def test_compare_lets_noise_explain_a_change():
    _, slower = cli.compare(report(1.0, 0.2), report(1.2, 0.2), threshold=0.05)
    assert slower == []


def test_compare_exit_code(tmp_path):
    base, new = tmp_path / "base.json", tmp_path / "new.json"
    base.write_text(json.dumps(report(1.0, 0.0)))
    new.write_text(json.dumps(report(2.0, 0.0)))
    assert cli.main(["compare", str(base), str(new)]) == 1
    assert cli.main(["compare", str(base), str(base)]) == 0
    (tmp_path / "bad.json").write_text("{cut off")
    assert cli.main(["compare", str(base), str(tmp_path / "bad.json")]) == 2


def test_peak_rss_window_resets():
    assert machine.reset_peak_rss()
    before = machine.peak_rss()
    block = np.ones(64 * 2**20 // 8)  # 64 MiB touched
    assert machine.peak_rss() >= before + block.nbytes // 2


def test_run_writes_benchmark_json_with_the_figures(tmp_path):
    """The engine on one small workload and one collective: figures, machine info, worker timing."""
    command = [sys.executable, "-m", "suites.benchmarks", "run", "--adapter", "engine", "--threads", "1",
               "--turns", "1",
               "--bench-filter", "spec=ste-round,mode=eager,pass=forward,spec=all_reduce,size=4096x4096,size=w2-1KiB-*",
               "--out", str(tmp_path), "--", "--benchmark-max-time=0.05", "--benchmark-min-rounds=3"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    data = json.loads((tmp_path / "engine.json").read_text())
    assert data["machine_info"]["parity_threads"]["threads"] == 1
    if machine.blas_threads() is not None:  # NumPy's BLAS is an OpenBLAS that says its thread count
        assert data["machine_info"]["parity_threads"]["blas_threads"] == 1  # set before the process started
    assert data["machine_info"]["calibration"]["numpy-cpu"] > 0
    by_spec = {b["extra_info"]["spec"]: b for b in data["benchmarks"]}
    ste = by_spec["ste-round"]["extra_info"]
    assert ste["flops"] == 3 * 4096 * 4096 and ste["bytes"] == 2 * 4096 * 4096 * 4
    for key in ("gflops", "pct_of_peak", "gbps", "rel_iqr", "unstable", "peak_memory_bytes", "first_call_s"):
        assert key in ste, key
    assert ste["checked"] == "pass"  # its output, against the reference before it was timed
    collective = by_spec["all_reduce"]
    info, stats = collective["extra_info"], collective["stats"]
    assert info["timed_in"] == "workers" and stats["rounds"] == 20  # the workers' 20 timed calls
    assert info["placement"] == "out-of-place"  # the engine's tensors are immutable: in place is unsupported
    assert info["algbw_gbps"] == pytest.approx(1024 / stats["median"] / 1e9)
    assert info["busbw_gbps"] == pytest.approx(info["algbw_gbps"])  # 2(n-1)/n = 1 for n = 2
    assert "ste/ste-round/4096x4096/float32-eager-forward" in run.stdout  # the side-by-side table


def test_a_wrong_output_is_a_failure_record_not_a_time(tmp_path):
    """nccl-tests' #wrong: a workload whose output is wrong is not timed; its result is a record."""
    areas = ROOT / "tests" / "adapters" / "broken_areas.py"
    command = [sys.executable, "-m", "pytest", "suites/benchmarks/bench_specs.py", "-p", "no:xdist", "-p",
               "no:cacheprovider", "-q", "--adapter-path", str(areas), "--adapter", "leaky-stop-gradient",
               "--bench-filter", "spec=ste-round,mode=eager,pass=forward*", "--threads", "1",
               "--results-dir", str(tmp_path), "--benchmark-json", str(tmp_path / "bench.json"),
               "--benchmark-max-time=0.05", "--benchmark-min-rounds=3"]
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}  # not a worker's
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, env=environment)
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]
    timed = {b["extra_info"]["pass"] for b in json.loads((tmp_path / "bench.json").read_text())["benchmarks"]}
    assert timed == {"forward"}  # the forward pass is right; the leaky gradient is not timed
    (wrong,) = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert wrong["kind"] == "benchmark" and wrong["status"] == "fail" and wrong["adapter"] == "leaky-stop-gradient"
    assert wrong["case"] == "ste/ste-round/4096x4096/float32-eager-forward-backward"
    assert "gradient differs from finite differences" in wrong["message"] and wrong["max_abs_err"] > 0


@pytest.mark.parametrize("adapter_name, name, placement, supported", [
    ("torch", "all_gather", "in-place", True),  # from this rank's slice of the output
    ("torch", "all_reduce", "out-of-place", False),  # torch.distributed.all_reduce works in place only
    ("jax", "all_reduce", "in-place", True),  # the input donated
    ("jax", "all_gather", "in-place", False),  # no output of the input's shape to donate to
    ("tensorflow", "all_reduce", "in-place", False),
])
def test_collectives_are_timed_in_the_placements_the_api_has(adapter_name, name, placement, supported):
    adapter = adapters.get(adapter_name) if adapter_name in adapters.installed() else pytest.skip(adapter_name)
    shards = workloads.collective_message(4096, 2, name)
    params = {"op": "sum"} if name == "all_reduce" else {"axis": 0, "tiled": True}
    if not supported:
        with pytest.raises(Unsupported, match=placement):
            adapter.time_collective(name, shards, 3, placement=placement, **params)
        return
    times = adapter.time_collective(name, shards, 3, placement=placement, **params)
    assert len(times) == 3 and all(t > 0 for t in times)


def test_a_rate_above_the_measured_peak_is_flagged_broken():
    def bench(gflops):
        return {"extra_info": {"device": "cpu", "gflops": gflops}}

    fast, slow = bench(150.0), bench(50.0)
    reports = [{"machine_info": {"calibration": {"numpy-cpu": 100.0}}, "benchmarks": [fast, slow]}]
    cli.rebase_peak(reports)
    assert fast["extra_info"]["above_peak"] and fast["extra_info"]["pct_of_peak"] == 150
    assert not slow["extra_info"]["above_peak"]
    assert "ABOVE PEAK: the measurement is broken" in cli.columns({**fast["extra_info"]})


@pytest.mark.parametrize("threads", ["0", "4096"])
def test_threads_outside_the_machine_are_one_line_and_exit_2(tmp_path, threads):
    run = subprocess.run([sys.executable, "-m", "suites.benchmarks", "run", "--adapter", "engine", "--threads", threads,
                          "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines()[-1].endswith(f"--threads takes 1 to {len(machine.usable_cpus())} on this "
                                                        f"machine. Received: {threads}")


def test_the_rank_test_agrees_with_scipys():
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(3)
    for shift in (0.0, 0.05, 0.3):
        a = np.round(rng.normal(1.0, 0.1, 40), 2)  # rounded: ties, as timer ticks make
        b = np.round(rng.normal(1.0 + shift, 0.1, 55), 2)
        expected = scipy_stats.mannwhitneyu(a, b, use_continuity=True, alternative="two-sided", method="asymptotic")
        assert bench_stats.mann_whitney_p(a, b) == pytest.approx(expected.pvalue, rel=1e-9)


def test_bootstrap_intervals_hold_the_median_and_the_ratio():
    rng = np.random.default_rng(4)
    fast, slow = rng.normal(1.0, 0.02, 200), rng.normal(2.0, 0.04, 200)
    low, high = bench_stats.median_interval(fast)
    assert low <= np.median(fast) <= high and high - low < 0.02
    low, high = bench_stats.ratio_interval(slow, fast)
    assert low < np.median(slow) / np.median(fast) < high and 1.9 < low and high < 2.1
    assert bench_stats.median_interval(fast) == bench_stats.median_interval(fast)  # seeded: the same run, the same


def sampled(samples):
    data = list(samples)
    return {"benchmarks": [{"fullname": "test_x[a]", "stats": {"median": float(np.median(data)), "iqr": 0.0,
                                                               "data": data}}]}


def test_compare_asks_the_rank_test_where_raw_samples_exist():
    rng = np.random.default_rng(5)
    base = rng.normal(1.0, 0.01, 50)
    lines, slower = cli.compare(sampled(base), sampled(base * 1.2), threshold=0.05)
    assert slower == ["test_x[a]"] and lines[0].startswith("SLOWER +20.0% (p ")
    few = [1.0, 1.5, 0.6]  # a 10% move in three noisy samples: the rank test cannot tell
    _, slower = cli.compare(sampled(few), sampled([x * 1.1 for x in few[::-1]]), threshold=0.05)
    assert slower == []


def test_the_noise_check_reads_load_and_governor(monkeypatch, tmp_path):
    governor = tmp_path / "scaling_governor"
    monkeypatch.setattr(machine, "GOVERNOR", governor)
    monkeypatch.setattr(machine.os, "getloadavg", lambda: (9.0, 9.0, 9.0))
    governor.write_text("powersave\n")
    found = machine.noise()
    assert found["governor"] == "powersave" and found["load_average"] == 9.0
    assert any("loaded" in w for w in found["warnings"]) and any("powersave" in w for w in found["warnings"])
    governor.write_text("performance\n")
    monkeypatch.setattr(machine.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert machine.noise()["warnings"] == []  # quiet, fixed clock: nothing to say


def test_turns_merge_into_one_report_per_adapter():
    def turn(samples, gflops, calibration):
        stats = {"median": float(np.median(samples)), "rounds": len(samples), "iqr": 0.0, "data": samples}
        return {"machine_info": {"calibration": {"numpy-cpu": calibration}},
                "benchmarks": [{"fullname": "test_x[a]", "stats": stats, "extra_info": {"gflops": gflops}}]}

    one = merged([turn([1.0, 1.0, 1.0], 10.0, 50.0), turn([3.0, 3.0, 3.0, 3.0], 3.3, 70.0)])
    [bench] = one["benchmarks"]
    assert bench["stats"]["data"] == [1.0] * 3 + [3.0] * 4 and bench["stats"]["rounds"] == 7
    assert bench["stats"]["median"] == 3.0 and bench["extra_info"]["gflops"] == pytest.approx(10.0 / 3)
    assert [t["median"] for t in bench["extra_info"]["turns"]] == [1.0, 3.0]  # a turn that differs shows
    assert bench["extra_info"]["unstable"]  # a relative IQR of 2/3
    assert one["machine_info"]["calibration"] == {"numpy-cpu": 70.0}  # the fastest GEMM of any turn
    alone = turn([1.0], 1.0, 1.0)
    assert merged([alone]) is alone  # one turn: as pytest-benchmark wrote it


def test_turns_below_one_are_refused(tmp_path):
    run = subprocess.run([sys.executable, "-m", "suites.benchmarks", "run", "--adapter", "engine", "--turns", "0",
                          "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and run.stderr.strip() == "parity: --turns takes a count >= 1. Received: 0"


def test_many_samples_get_the_order_statistic_interval_quickly():
    rng = np.random.default_rng(6)
    many = rng.normal(1.0, 0.1, 150_000)  # a no-op's rounds
    low, high = bench_stats.median_interval(many)
    assert low < np.median(many) < high and high - low < 0.003  # about 2 x 1.96 x 1.25 x 0.1 / sqrt(n)
    low, high = bench_stats.ratio_interval(many * 2, many)
    assert low < 2.0 < high


def test_run_adds_each_ratio_interval_against_its_groups_fastest():
    rng = np.random.default_rng(7)

    def report(samples):
        stats = {"median": float(np.median(samples)), "iqr": 0.0, "rounds": len(samples), "data": list(samples)}
        return {"benchmarks": [{"group": "g", "name": "b", "stats": stats, "extra_info": {}}]}

    fast, slow = report(rng.normal(1.0, 0.01, 100)), report(rng.normal(2.0, 0.02, 100))
    cli.add_intervals([slow, fast])
    fast_info, slow_info = fast["benchmarks"][0]["extra_info"], slow["benchmarks"][0]["extra_info"]
    assert "ratio_ci" not in fast_info and fast_info["median_ci"][0] < 1.0 < fast_info["median_ci"][1]
    low, high = slow_info["ratio_ci"]
    assert low < 2.0 < high and high - low < 0.05
    assert "x [" in "\n".join(cli.side_by_side([slow, fast]))  # the table prints it beside the ratio

"""The report builder: builds from records, escapes everything, survives cut-off files."""
import json
import subprocess
import sys

from reports import summary
from reports.build import build, on_page, read_records
from reports.records import standing


def record(**fields):
    base = {"spec": "matmul/x", "case": "docs", "kind": "example", "adapter": "torch", "device": "cpu",
            "dtype": "float32", "status": "pass", "message": ""}
    return json.dumps({**base, **fields})


def test_matrix_counts_and_escaping(tmp_path):
    hostile = "<script>alert('x')</script>" + "\"'" + "y" * 5000
    (tmp_path / "r.jsonl").write_text("\n".join([
        record(), record(status="fail", message=hostile), record(adapter=hostile, status="documented"),
    ]) + "\n")
    page = build([tmp_path], tmp_path / "out").read_text()
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    assert ">1 pass<" in page and ">1 fail<" in page and ">1 documented<" in page


def test_cut_off_line_is_skipped_and_noted(tmp_path):
    (tmp_path / "r.jsonl").write_text(record() + "\n" + record()[:25])
    records, broken = read_records([tmp_path])
    assert len(records) == 1 and broken == 1
    assert "1 result line(s) could not be read" in build([tmp_path], tmp_path / "out").read_text()


def test_empty_run_says_so(tmp_path):
    page = build([tmp_path], tmp_path / "out").read_text()
    assert "This run has no results" in page


def test_command_line(tmp_path):
    (tmp_path / "r.jsonl").write_text(record() + "\n")
    run = subprocess.run([sys.executable, "-m", "reports", "build", str(tmp_path), "-o", str(tmp_path / "site")],
                         capture_output=True, text=True)
    assert run.returncode == 0 and (tmp_path / "site" / "index.html").exists()
    missing = subprocess.run([sys.executable, "-m", "reports", "build", str(tmp_path / "nope")],
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "no such results folder" in missing.stderr


HOSTILE = "<script>alert('x')</script>\"'&" + "y" * 3000


def bench_file(folder, medians: dict, when: str, commit: str, node: str = "runner", group: str = "matmul"):
    """A pytest-benchmark JSON file as suites/benchmarks writes it: one benchmark per adapter."""
    folder.mkdir(parents=True, exist_ok=True)
    benchmarks = [{"group": group, "name": f"test_workload[{a}]", "stats": {"median": m, "iqr": m / 20, "rounds": 9},
                   "extra_info": {"area": "matmul", "spec": "square", "size": "n512", "dtype": "float32",
                                  "pass": "forward", "mode": "eager", "adapter": a, "device": "cpu",
                                  "gflops": 0.268 / m, "unstable": a == "jax"}} for a, m in medians.items()]
    data = {"machine_info": {"node": node, "cpu_model": "test cpu", "parity_threads": {"threads": 2},
                             "calibration": {"numpy-cpu": 100.0}},
            "commit_info": {"id": commit}, "datetime": when, "benchmarks": benchmarks}
    (folder / "bench.json").write_text(json.dumps(data))


def test_the_performance_section_warns_of_a_loaded_machine_and_keeps_the_harness_apart(tmp_path):
    bench_file(tmp_path / "run", {"torch": 1e-3, "engine": 2e-3}, "2026-01-01T00:00:00", "aaaa")
    data = json.loads((tmp_path / "run" / "bench.json").read_text())
    data["machine_info"]["noise"] = {"warnings": ["the machine is loaded: load average 3.10 on 2 CPUs"]}
    data["benchmarks"][0]["extra_info"].pop("pass")  # a workload without a pass is titled without one
    data["benchmarks"].append({"group": "harness/overhead", "name": "test_harness_overhead_noop",
                               "stats": {"median": 1e-7, "iqr": 1e-8, "rounds": 9},
                               "extra_info": {"within_target": True}})
    (tmp_path / "run" / "bench.json").write_text(json.dumps(data))
    page = build([tmp_path / "run"], tmp_path / "out").read_text()
    assert "These timings were taken while runner (test cpu): the machine is loaded: load average 3.10" in page
    assert "matmul/square/n512/float32</h4>" in page and "None" not in page.split('id="performance"')[1]
    assert "harness/overhead on runner (test cpu): median 0.1 µs (within its target)" in page
    assert "test_harness_overhead_noop" not in page  # not an adapter: no filter option, no column


def test_hostile_strings_are_escaped_everywhere(tmp_path):
    """Spec, case, adapter, messages, inputs, snippets, sources, benchmark names and machines:
    the only script on the page is the report's own."""
    (tmp_path / "r.jsonl").write_text("\n".join([
        record(spec=f"{HOSTILE}/s", case=HOSTILE, adapter=HOSTILE, output=[1.0, 2.0]),
        record(spec=f"{HOSTILE}/s", case=HOSTILE, adapter="torch", output=[1.0, 2.5], machine=HOSTILE),
        record(status="fail", message=HOSTILE, example={HOSTILE: {"shape": [1], "dtype": HOSTILE, "values": [HOSTILE]}},
               around={"start": [0], "expected": [1.0], "actual": [HOSTILE]}, worst=[0],
               repro={HOSTILE: {"code": HOSTILE}, "jax": {"none": HOSTILE}}),
        record(status="documented", difference={"note": HOSTILE, "source": "javascript:alert(1)"}),
    ]) + "\n")
    bench_file(tmp_path / "b", {HOSTILE: 1e-3, "torch": 2e-3}, "2026-01-01T00:00:00", HOSTILE, node=HOSTILE,
               group=HOSTILE)
    page = build([tmp_path], tmp_path / "out").read_text()
    # the report's own three: its script, the specs' and the port view's data, which no recorded string can close
    assert page.count("<script") == 3 and page.count("</script") == 3 and "<script>alert" not in page
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    assert 'href="javascript:' not in page
    data = spec_json(page)  # the data holds the strings themselves (a message as the page cuts it)
    assert on_page(HOSTILE) in data["messages"] and f"{HOSTILE}/s" in data["specs"]


def spec_json(page: str) -> dict:
    """The specs' data island of a page, parsed as the browser parses it."""
    start = page.index('<script type="application/json" id="spec-data">') + len(
        '<script type="application/json" id="spec-data">')
    return json.loads(page[start:page.index("</script>", start)])


def test_runs_of_several_machines_merge_with_a_machine_column(tmp_path):
    (tmp_path / "a.jsonl").write_text(record(machine="cpu-runner") + "\n")
    (tmp_path / "b.jsonl").write_text(record(machine="gpu-runner", device="cuda:0", status="fail") + "\n")
    page = build([tmp_path / "a.jsonl", tmp_path / "b.jsonl"], tmp_path / "out").read_text()
    assert '<th class="sortable" rowspan="2">machine</th>' in page  # the matrix's, beside the area
    assert "<td>cpu-runner</td>" in page and "<td>gpu-runner</td>" in page


def test_relative_difference_between_adapters():
    from reports.build import relative_difference

    assert relative_difference([1.0, 2.0], [1.0, 2.5]) == 0.5 / 2.5
    assert relative_difference([0.0, float("nan")], [0.0, float("nan")]) == 0.0
    assert relative_difference([float("inf")], [float("inf")]) == 0.0
    assert relative_difference([1.0], [float("nan")]) == float("inf")
    assert relative_difference([1.0], [1.0, 2.0]) is None


def test_agreement_heatmap_and_failure_card(tmp_path):
    (tmp_path / "r.jsonl").write_text("\n".join([
        record(adapter="torch", output=[1.0, 2.0]), record(adapter="jax", output=[1.0, 2.5]),
        record(adapter="jax", case="other", status="fail", message="differs", worst=[1],
               around={"start": [0], "expected": [1.0, 2.0], "actual": [1.0, 2.5]},
               repro={"torch": {"code": "import torch\nprint(torch.ones(2))\n"}}),
    ]) + "\n")
    page = build([tmp_path], tmp_path / "out").read_text()
    spec = spec_json(page)["specs"]["matmul/x"]
    assert spec["adapters"] == ["jax", "torch"]
    assert spec["heatmaps"] == [["float32 on cpu", 1, [0.2]]]  # |2 - 2.5| / 2.5, the one pair
    assert "Reproduce on torch" in page and "print(torch.ones(2))" in page
    assert "<td class=\"num\">2.5</td>" in page


def test_benchmarks_table_ratio_and_history(tmp_path):
    bench_file(tmp_path / "run1", {"torch": 1e-3, "jax": 2e-3}, "2026-01-01T00:00:00", "aaaa")
    bench_file(tmp_path / "run2", {"torch": 1e-3, "jax": 4e-3}, "2026-01-02T00:00:00", "bbbb")
    page = build([tmp_path], tmp_path / "out").read_text()
    assert 'class="bars"' in page and "History on runner" in page and 'class="history"' in page
    assert '<td class="num">4</td>' in page  # the latest run: jax takes 4x torch's median
    assert "unstable" in page


def test_a_median_with_its_interval_gets_a_whisker():
    from reports.charts import bars

    chart = str(bars([("torch", "eager", 1e-3, False, [0.9e-3, 1.2e-3]), ("jax", "eager", 2e-3, True, None)], "t"))
    assert chart.count('class="interval"') == 1  # the row without an interval draws none
    assert "95% interval 900 us to 1.2 ms" in chart


ADAPTERS = ("reference", "engine", "torch", "jax", "jax-32", "tensorflow", "keras-tensorflow", "keras-jax",
            "keras-torch")


def full_run(folder) -> None:
    """Records of the size of `tox -e thorough` (every item of every spec in both modes, 9
    adapters): 30 000 outcomes with messages as the suites write them, outputs, documented
    differences (every fifth spec has one per adapter, seen in several cases, kinds and dtypes: 540),
    unsupported ops, and 300 generated failures of one bug."""
    lines = []
    for i in range(30_000):
        adapter, mode, spec = ADAPTERS[i % 9], ("eager", "compiled")[i // 9 % 2], i % 300
        status = "documented" if spec % 5 == 0 else "unsupported" if i % 17 == 0 else "pass"
        fields = {"difference": {"note": f"{adapter} differs on spec{spec} " * 4, "source": "https://example.org/doc",
                                 "regime": "default"},
                  "message": f"observed: returned {[i * 0.1] * 12}; source: https://example.org/doc"} \
            if status == "documented" else {"message": f"{adapter} does not implement op{i % 50}"} \
            if status == "unsupported" else {"message": f"max_abs_err={i * 1e-9:g} max_rel_err=1e-07 ulp 0.5"}
        lines.append(record(spec=f"area{spec % 12}/spec{spec}", case=("docs", "hypothesis", f"case{i % 5}")[i % 3],
                            kind=("example", "property", "gradient")[i % 3], adapter=adapter, mode=mode,
                            dtype=("float32", "float64", "float16")[i // 18 % 3], status=status,
                            max_abs_err=i * 1e-9, max_rel_err=1e-7, ulp=0.5, output=[float(i)] * 16,
                            duration=0.1, versions={adapter: "1.0"}, python="3.11", numpy="2.4",
                            machine="runner", platform="linux", commit="abc", test=f"specs/t.yaml::t{i}", **fields))
    for i in range(300):
        lines.append(record(spec="area0/spec0", case="hypothesis", kind="property", adapter="torch",
                            status="fail", message=f"max_abs_err={i}.5 > allowed {i}e-06 at [{i}, 0]",
                            example={"x": {"shape": [i + 1, 3], "dtype": "float32"}}, seed=i,
                            test=f"specs/t.yaml::bug{i}", rerun=f"pytest specs/t.yaml::bug{i} --adapter torch"))
    (folder / "results.jsonl").write_text("\n".join(lines) + "\n")


def test_a_full_sized_run_stays_under_5_mb(tmp_path):
    full_run(tmp_path)
    page = build([tmp_path], tmp_path / "out")
    assert page.stat().st_size < 5_000_000
    text = page.read_text()
    assert text.count('class="card"') == 1  # the 300 failures of one bug are one group


def test_coverage_table_from_the_runs(tmp_path):
    (tmp_path / "r.jsonl").write_text(record() + "\n")
    (tmp_path / "coverage.json").write_text(json.dumps({"ops": ["matmul", "lstm"], "adapters": {
        "torch": {"matmul": "f32 f64", "lstm": "f32"}, HOSTILE: {"matmul": "-", "lstm": HOSTILE}}}))
    page = build([tmp_path], tmp_path / "out").read_text()
    assert 'id="coverage"' in page and "<td>matmul</td>" in page and ">f32 f64</td>" in page
    assert "<script>alert" not in page


def test_a_rerun_of_an_item_replaces_its_outcome(tmp_path):
    """An item run twice on one machine counts once, as its later run; on two machines, twice;
    records without a test id (the multi-process collectives) all count."""
    first, second = tmp_path / "results-1", tmp_path / "results-2"
    first.mkdir(), second.mkdir()
    item = {"test": "specs/conv.yaml::conv2d[engine-cpu-float32-eager]", "adapter": "engine", "machine": "vm"}
    (first / "results.jsonl").write_text("\n".join([record(status="unsupported", **item),
                                                    record(kind="multihost", status="pass")]) + "\n")
    (second / "results.jsonl").write_text("\n".join([record(status="pass", **item),
                                                     record(status="pass", **{**item, "machine": "gpu-box"}),
                                                     record(kind="multihost", status="pass")]) + "\n")
    page = build([first, second], tmp_path / "out").read_text()
    assert ">4 pass<" in page and ">1 unsupported<" not in page  # the re-run's pass replaced the first outcome
    kept = standing(read_records([first, second])[0])
    assert [(r["machine"], r["status"]) for r in kept if r.get("test")] == [("vm", "pass"), ("gpu-box", "pass")]
    assert len([r for r in kept if r["kind"] == "multihost"]) == 2


def test_a_documented_model_layer_is_not_shown_in_red(tmp_path):
    """The overview's models column names each adapter's first layer out of its bound: red for a
    failure, in the documented colour where the model's record is a documented difference."""
    parts = [{"name": "conv", "ok": True, "drift": 1e-7}, {"name": "head", "ok": False, "drift": 1e-3}]
    (tmp_path / "r.jsonl").write_text("\n".join([
        record(spec="models/cnn", adapter="torch", status="documented", parts=parts),
        record(spec="models/cnn", adapter="jax", status="fail", parts=parts),
    ]) + "\n")
    page = build([tmp_path], tmp_path / "out").read_text()
    overview = page[page.index('class="sortable-table overview"'):page.index("</table>", page.index("overview"))]
    assert overview.count('<span class="documented">head</span>') == 1
    assert overview.count('<span class="fail">head</span>') == 1


def test_a_models_training_is_shown_per_optimizer_with_where_each_ends(tmp_path):
    """A model's training records, one per optimizer (the case's label after the example's name),
    group under the model's example: Parity's SGD first, a trajectory chart per optimizer, and a
    table of each optimizer's last loss per adapter, '-' where an adapter did not run one."""
    from reports import models

    def run(adapter, case, losses, status="pass"):
        return record(spec="models/cnn", case=case, kind="training", adapter=adapter, status=status,
                      trajectory=[{"step": i, "loss": v} for i, v in enumerate(losses)])
    (tmp_path / "r.jsonl").write_text("\n".join([
        run("torch", "batch", [2.0, 1.5]), run("keras", "batch", [2.0, 1.5]),
        run("torch", "batch/adam(lr=0.01)", [2.0, 1.25]), run("keras", "batch/adam(lr=0.01)", [2.0, 1.375]),
        run("torch", "batch/sgd(momentum=0.9)", [2.0, 1.0], "fail"),
        record(spec="models/cnn", case="batch", adapter="torch", parts=[{"name": "loss", "ok": True, "drift": 0.0}]),
    ]) + "\n")
    (model,) = models.summarize(json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines())
    assert [t["optimizer"] for t in model["training"]] == [models.PARITY_SGD, "adam(lr=0.01)", "sgd(momentum=0.9)"]
    assert model["ends"] == {"adapters": ["keras", "torch"], "rows": [
        (models.PARITY_SGD, [("pass", 1.5), ("pass", 1.5)]), ("adam(lr=0.01)", [("pass", 1.375), ("pass", 1.25)]),
        ("sgd(momentum=0.9)", [None, ("fail", 1.0)])]}
    assert len(model["rows"]) == 1  # the layers' record of the same example
    page = build([tmp_path], tmp_path / "out").read_text()
    assert "Training: adam(lr=0.01)" in page and "loss per step, sgd(momentum=0.9)" in page
    assert ">1.375</td>" in page  # a last loss to 6 digits: where defaults part, the digits show it
    assert 'data-model="models/cnn">port view of this model</a>' in page


def test_a_report_run_ends_with_its_totals_and_failures_and_exit_1(tmp_path):
    """The report command's last lines give the totals per status and every failing item with its
    rerun command, and its exit code says whether anything failed; the page is written either way
    (a planted failure among passes; `tox -e report` used to end "OK" while a suite had failed)."""
    (tmp_path / "r.jsonl").write_text("\n".join([
        record(test="specs/a.yaml::a[torch]"), record(test="specs/a.yaml::b[torch]", status="documented"),
        record(test="specs/a.yaml::c[torch]", status="fail", message="max_abs_err=1\nsecond line",
               rerun="python -m pytest 'specs/a.yaml::c[torch]' --adapter torch")]) + "\n")
    run = subprocess.run([sys.executable, "-m", "reports", "build", str(tmp_path), "-o", str(tmp_path / "site")],
                         capture_output=True, text=True)
    assert run.returncode == 1 and (tmp_path / "site" / "index.html").exists()
    assert run.stdout.splitlines()[:3] == [
        "results: 1 pass, 1 documented, 1 fail (cases); 1 failed, 2 passed (items, as pytest counts them)",
        "FAIL specs/a.yaml::c[torch]: max_abs_err=1 second line",
        "  run again: python -m pytest 'specs/a.yaml::c[torch]' --adapter torch"]
    (tmp_path / "r.jsonl").write_text(record(test="specs/a.yaml::a[torch]") + "\n")
    passing = subprocess.run([sys.executable, "-m", "reports", "build", str(tmp_path), "-o", str(tmp_path / "site")],
                             capture_output=True, text=True)
    assert passing.returncode == 0 and passing.stdout.startswith("results: 1 pass (cases); 1 passed (items")


def test_an_item_with_several_failing_cases_is_listed_once_and_counted_as_pytest_counts_it(tmp_path):
    """Tried as a new user would: an item whose three examples erred was listed three times, and
    the ending counted errors by case where pytest counts failed items."""
    rerun = "python -m pytest 'specs/a.yaml::e[mine]' --adapter mine"
    (tmp_path / "r.jsonl").write_text("\n".join([
        *(record(test="specs/a.yaml::e[mine]", case=case, status="error", message=f"{case} erred", rerun=rerun)
          for case in ("one", "two", "three")),
        record(test="specs/a.yaml::f[mine]", case="one"), record(test="specs/a.yaml::f[mine]", case="two",
                                                                 status="fail", message="off", rerun="again f"),
        record(test="specs/a.yaml::g[mine]", status="unsupported")]) + "\n")
    lines = summary.ending(read_records([tmp_path])[0])
    assert lines == [
        "results: 3 error, 1 pass, 1 fail, 1 unsupported (cases); 2 failed, 1 skipped (items, as pytest counts them)",
        "ERROR specs/a.yaml::e[mine] (3 of its 3 cases): one erred", f"  run again: {rerun}",
        "FAIL specs/a.yaml::f[mine] (1 of its 2 cases): off", "  run again: again f"]


def test_a_huge_message_is_cut_on_the_page_and_the_cost_table_counts_items(tmp_path):
    """A record's 5 MB message weighs the page at most a few kB (the record keeps it whole), and the
    cost table shows its item counts (Jinja's c.items was the dict's method, printed as such)."""
    huge = "Traceback line\n" * 350_000
    (tmp_path / "r.jsonl").write_text("\n".join([
        record(status="fail", message=huge, test="specs/t.yaml::a", duration=1.5, mode="eager"),
        record(status="error", message=huge, test="specs/t.yaml::b", duration=0.5, mode="eager", case="other"),
        record(test="specs/t.yaml::c", duration=0.25, mode="eager", case="third"),
    ]) + "\n")
    page = build([tmp_path], tmp_path / "out").read_text()
    assert len(page) < 1_000_000
    assert "characters more in the record" in page
    assert "built-in method" not in page
    assert len(json.loads((tmp_path / "r.jsonl").read_text().splitlines()[0])["message"]) == len(huge)


def test_a_page_built_before_its_run_ends_names_the_parts_it_lacks(tmp_path):
    """tox -e report builds the page after each part (--expect names them all): tried as a new
    user would, a run stopped after 87 minutes left thousands of records and no page."""
    (tmp_path / "r.jsonl").write_text(record(test="specs/a.yaml::a[torch]") + "\n")
    page = build([tmp_path], tmp_path / "out", expect=["torch", "keras-torch", "multihost", "benchmarks"]).read_text()
    assert "Not in this page yet:</b> keras-torch, multihost, benchmarks:" in page
    (tmp_path / "r.jsonl").write_text("\n".join([record(test="specs/a.yaml::a[torch]"), record(
        adapter="keras-torch", test="specs/a.yaml::a[keras-torch]"), record(test="multihost::all-reduce-sum/docs")]))
    page = build([tmp_path], tmp_path / "out", expect=["torch", "keras-torch", "multihost"]).read_text()
    assert "Not in this page yet" not in page

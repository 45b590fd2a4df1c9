"""The report's grouping and its ten-second summary: one bug's generated failures are one group
shown by its smallest example, a documented behaviour is one row with its dtypes and cases, each
adapter and mode gets its share of specs passed and its speed, and earlier runs chart its counts."""
import json
import math

from reports import groups, summary
from reports.build import build
from reports.records import record


def outcome(**fields):
    base = {"spec": "conv/conv2d", "case": "hypothesis", "kind": "property", "adapter": "torch", "device": "cpu",
            "dtype": "float32", "mode": "eager", "status": "pass", "message": ""}
    return record(**{**base, **fields})


def test_a_message_with_other_numbers_and_values_has_the_same_signature():
    a = groups.signature("max_abs_err=0.5 > allowed 1e-06 at [3, 0] (observed [1.0, 2.0])\ntraceback ...")
    b = groups.signature("max_abs_err=12.25 > allowed 2.5e-07 at [0, 1, 7] (observed [[1.5], [3.0]])")
    assert a == b == "max_abs_err=# > allowed # at [...] (...)"
    assert groups.signature("TypeError: bad dtype") != a and groups.signature(None) == ""


def test_one_bugs_generated_failures_are_one_group_shown_by_the_smallest_example():
    bug = [outcome(status="fail", message=f"max_abs_err={i}.5 > allowed 1e-06 at [{i}, 0]", dtype=dtype, seed=i,
                   example={"x": {"shape": [i + 2, 3], "dtype": dtype}})
           for i in range(100) for dtype in ("float32", "float64")]
    other = outcome(status="error", message="RuntimeError: no kernel for Half", dtype="float16")
    elsewhere = outcome(status="fail", message="max_abs_err=1.5 > allowed 1e-06 at [0, 0]", adapter="jax")
    found = groups.failure_groups([*bug, other, elsewhere])
    assert [(g["status"], g["adapter"], g["count"]) for g in found] == [("fail", "torch", 200), ("fail", "jax", 1),
                                                                         ("error", "torch", 1)]
    assert found[0]["shown"]["example"]["x"]["shape"] == [2, 3]  # the smallest failing input
    assert found[0]["dtypes"] == ["float32", "float64"] and len(found[0]["members"]) == groups.MEMBERS_SHOWN


def test_a_documented_behaviour_is_one_row_with_its_dtypes_and_cases():
    note = {"note": "torch keeps the int dtype", "source": "https://pytorch.org/docs", "regime": "promotion"}
    seen = [outcome(status="documented", case=case, kind="example", dtype=dtype, difference=note, max_abs_err=err,
                    message=f"{note['note']} (observed: returned [1, 2]; source: {note['source']})")
            for case, dtype, err in (("docs", "float32", 0.5), ("docs", "float64", 0.25), ("ties", "float32", 2.0))]
    other = outcome(status="documented", adapter="jax", difference=note, message="m")
    rows = groups.difference_groups([*seen, other])
    assert [(g["adapter"], g["count"]) for g in rows] == [("jax", 1), ("torch", 3)]
    torch = rows[1]
    assert torch["cases"] == ["docs", "ties"] and torch["dtypes"] == ["float32", "float64"]
    assert torch["max_abs_err"] == 2.0 and torch["observed"] == "torch keeps the int dtype (observed: returned [1, 2])"


def test_the_summary_gives_each_adapter_and_mode_its_share_and_speed():
    records = [outcome(spec="a/one"), outcome(spec="a/two"), outcome(spec="a/two", status="fail", message="x"),
               outcome(spec="a/three", status="unsupported"),
               outcome(spec="a/one", status="documented", difference={"note": "n"}, case="docs"),
               outcome(spec="a/one", mode="compiled"),
               outcome(spec="a/one", adapter="keras-jax", adapter_env={"KERAS_BACKEND": "jax"},
                       versions={"keras-jax": "3.15.1 (jax backend)"})]
    performance = {"benchmarks": [{"key": "w1", "rows": [{"adapter": "torch", "mode": "eager", "ratio": 2.0},
                                                         {"adapter": "jax", "mode": "eager", "ratio": 1.0}]},
                                  {"key": "w2", "rows": [{"adapter": "torch", "mode": "eager", "ratio": 8.0}]}]}
    rows = {r["column"]: r for r in summary.adapters(records, performance, [])}
    torch = rows["torch"]
    assert (torch["passed"], torch["specs"]) == (1, 2)  # a/two fails; a/three ran nothing it supports
    assert (torch["failure_groups"], torch["documented_groups"], torch["unsupported"]) == (1, 1, 1)
    assert math.isclose(torch["speed"]["ratio"], 4.0)  # the geometric mean of 2 and 8
    assert rows["torch compiled"]["passed"] == 1 and rows["torch compiled"]["speed"] is None
    assert rows["keras-jax"]["environment"] == "KERAS_BACKEND=jax"


def write(folder, records):
    folder.mkdir()
    (folder / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


def test_earlier_runs_chart_each_adapters_outcomes_by_commit_and_version(tmp_path):
    runs = [write(tmp_path / f"run{i}", [outcome(case=str(c), status="fail" if c < fails else "pass", commit=commit,
                                                 versions={"torch": version}, test=f"t{c}") for c in range(4)])
            for i, (commit, version, fails) in enumerate((("aaa", "2.12", 3), ("bbb", "2.13", 1), ("ccc", "2.13", 0)))]
    found = summary.history([(str(i), build_records) for i, build_records in enumerate(
        [[json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()] for run in runs])])
    assert [h["column"] for h in found] == ["torch"]
    by_version = str(found[0]["by_version"])
    assert ">2.12</text>" in by_version and ">2.13</text>" in by_version and by_version.count("<circle") == 6
    page = build([runs[-1]], tmp_path / "out", history=runs[:-1]).read_text()
    assert 'id="history"' in page and ">aaa</text>" in page and ">ccc</text>" in page
    assert 'id="history"' not in build([runs[-1]], tmp_path / "alone").read_text()


def test_a_failure_card_gives_its_rerun_command_and_the_adapter_its_environment(tmp_path):
    rerun = "KERAS_BACKEND=jax pytest 'specs/conv.yaml::conv2d[keras-jax-cpu-float32-eager]' --adapter keras-jax"
    write(tmp_path / "run", [outcome(adapter="keras-jax", status="fail", message="off", rerun=rerun,
                                     adapter_env={"KERAS_BACKEND": "jax"})])
    page = build([tmp_path / "run"], tmp_path / "out").read_text()
    assert "<code>KERAS_BACKEND=jax pytest &#39;specs/conv.yaml::conv2d[keras-jax-cpu-float32-eager]&#39;" in page
    assert "<code>KERAS_BACKEND=jax</code>" in page  # beside its version in the summary


def test_a_behaviour_documented_in_many_specs_reads_as_one_line():
    note = {"note": "JAX runs in 32 bits by default"}
    rows = groups.difference_groups([outcome(spec=f"a/s{i}", adapter="jax-32", status="documented", difference=note)
                                     for i in range(6)] + [outcome(status="documented", difference={"note": "once"})])
    assert groups.widespread(rows) == [{"adapter": "jax-32", "note": "JAX runs in 32 bits by default", "source": "",
                                        "specs": [f"a/s{i}" for i in range(6)], "count": 6}]

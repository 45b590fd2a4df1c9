"""python -m reports diff BASE NEW and the page's changes against a baseline: each kind of change
lands in its group, a re-run's later record stands, the exit code gates on new failures only, and
only the benchmark changes the statistics support are listed."""
import json

import numpy as np
import pytest

from reports import __main__ as cli
from reports import changes, perf
from reports.build import build
from reports.records import record
from suites.judging import differences


def outcome(case, status, message="", adapter="torch", **fields):
    return record(spec="matmul/docs", case=case, kind="example", adapter=adapter, device="cpu", dtype="float32",
                  mode="eager", status=status, message=message, **fields)


def write(path, records):
    path.mkdir()
    (path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


BASE = [outcome("broke", "pass"), outcome("mended", "fail", "off by one"), outcome("stale", "documented"),
        outcome("upstream", "documented"), outcome("found", "fail", "a difference"), outcome("dropped", "pass"),
        outcome("same", "fail", "still"), outcome("skip", "unsupported")]
# fresh: a new case failing (listed); extra: a new case passing (counted only)
NEW = [outcome("broke", "error", "TypeError"), outcome("mended", "pass"), outcome("stale", "pass"),
       outcome("upstream", "fail", "documented difference no longer observed: the value now matches"),
       outcome("found", "documented", "as documented"), outcome("same", "fail", "still"),
       outcome("skip", "pass"), outcome("fresh", "fail", "new case"), outcome("extra", "pass")]


def cases(found, group):
    return [key[1] for key, _, _ in found[group]]


def test_each_change_lands_in_its_group():
    found = changes.changes(BASE, NEW)
    assert cases(found, "new failures") == ["broke", "fresh"]
    assert cases(found, "documented, no longer observed") == ["stale", "upstream"]
    assert cases(found, "fixed") == ["mended"]
    assert cases(found, "newly documented") == ["found"]
    assert cases(found, "other changes") == ["skip"]
    assert [key[1] for key in found["gone"]] == ["dropped"] and found["added"] == 1
    assert changes.gate(found) == 1


def test_a_rerun_of_an_item_is_judged_by_its_later_record():
    found = changes.changes(BASE, [outcome("mended", "fail", "first try"), outcome("mended", "pass")])
    assert cases(found, "fixed") == ["mended"] and changes.gate(found) == 0


def test_only_failures_the_base_did_not_have_fail_the_gate():
    assert changes.gate(changes.changes(BASE, BASE)) == 0
    fixed_only = changes.changes([outcome("a", "fail")], [outcome("a", "pass")])
    assert changes.gate(fixed_only) == 0
    stale = changes.changes([outcome("a", "documented")], [outcome("a", "pass")])  # the spec should change
    assert cases(stale, "documented, no longer observed") == ["a"] and changes.gate(stale) == 0


def test_the_suites_word_an_unobserved_difference_as_the_report_reads_it():
    diff = {"note": "n", "source": "s", "observed": {"crashes": True}}
    stale = differences._no_longer_observed(differences.Outcome("pass", "c", ""), diff, "value")
    assert changes.NO_LONGER_OBSERVED in stale.message
    gone = differences.crashed("c", diff, differences.Outcome("pass", "c", ""), died=None)
    assert changes.NO_LONGER_OBSERVED in gone.message


def test_the_command_prints_the_groups_and_gates(tmp_path, capsys):
    base, new = write(tmp_path / "base", BASE), write(tmp_path / "new", NEW)
    assert cli.main(["diff", base, new]) == 1
    out = capsys.readouterr().out
    assert "new failures (2):" in out and "matmul/docs broke example torch cpu float32 eager: pass -> error" in out
    assert "fresh example torch cpu float32 eager: new -> fail: new case" in out
    summary = ("2 new failures, 2 documented, no longer observed, 1 fixed, 1 newly documented, 1 other changes; "
               "1 outcomes only in the base run, 1 more only in the new one, none failing")
    assert out.strip().endswith(summary)
    assert cli.main(["diff", base, base]) == 0


@pytest.mark.parametrize("which", ["base", "new"])
def test_a_missing_run_is_one_clear_error(tmp_path, capsys, which):
    there = write(tmp_path / "there", BASE)
    args = [str(tmp_path / "nowhere"), there] if which == "base" else [there, str(tmp_path / "nowhere")]
    assert cli.main(["diff", *args]) == 2
    assert capsys.readouterr().err.startswith("reports: no such results folder")


def test_the_page_opens_with_the_changes(tmp_path):
    base, new = write(tmp_path / "base", BASE), write(tmp_path / "new", NEW)
    page = build([new], tmp_path / "out", baseline=base).read_text()
    assert page.index('id="changes"') < page.index('id="matrix"')
    assert ">2 new failure(s)</a>" in page and "<h3>new failures (2)</h3>" in page
    assert "<h3>documented, no longer observed (2)</h3>" in page and "<h3>fixed (1)</h3>" in page
    assert 'id="changes"' not in build([new], tmp_path / "plain").read_text()  # no baseline, no section


def bench_run(folder, samples: dict, node="runner"):
    """A benchmark file with each adapter's raw per-round samples (--benchmark-save-data)."""
    folder.mkdir(parents=True)
    benchmarks = [{"group": "g", "name": a, "stats": {"median": sorted(data)[len(data) // 2], "iqr": 0.0,
                                                      "rounds": len(data), "data": data},
                   "extra_info": {"area": "matmul", "spec": "square", "size": "n512", "dtype": "float32",
                                  "pass": "forward", "mode": "eager", "adapter": a, "device": "cpu"}}
                  for a, data in samples.items()]
    (folder / "bench.json").write_text(json.dumps({"machine_info": {"node": node, "cpu_model": "cpu"},
                                                   "commit_info": {"id": "c"}, "datetime": "2026-01-01T00:00:00",
                                                   "benchmarks": benchmarks}))


def test_benchmark_changes_are_the_ones_the_statistics_support(tmp_path, capsys):
    rng = np.random.default_rng(0)
    steady = list(1e-3 + rng.normal(0, 1e-5, 30))
    bench_run(tmp_path / "base", {"torch": steady, "jax": steady})
    # torch 20% slower, well beyond its noise; jax's samples shuffled and 1% apart: no change
    bench_run(tmp_path / "new", {"torch": [v * 1.2 for v in steady], "jax": [v * 1.01 for v in steady[::-1]]},
              node="other")
    (tmp_path / "base" / "results.jsonl").write_text(json.dumps(outcome("a", "pass")) + "\n")
    (tmp_path / "new" / "results.jsonl").write_text(json.dumps(outcome("a", "pass")) + "\n")
    before, after = (perf.read_runs([tmp_path / f / "bench.json"])[0] for f in ("base", "new"))
    moved = perf.changes(before, after)
    assert [(c["adapter"], c["slower"], c["across"]) for c in moved] == [("torch", True, True)]
    assert moved[0]["change"] == pytest.approx(0.2) and moved[0]["why"].startswith("p ")
    assert cli.main(["diff", str(tmp_path / "base"), str(tmp_path / "new")]) == 0  # listed, not gated
    assert "SLOWER +20.0%" in capsys.readouterr().out
    page = build([tmp_path / "new"], tmp_path / "out", baseline=tmp_path / "base").read_text()
    assert "<h3>Benchmarks (1)</h3>" in page and "+20.0%" in page

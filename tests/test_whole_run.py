"""The last whole run (reports/whole.py): its status counts per adapter and mode, folded in part by
part, and the page of every report built afterwards saying what it showed and what it lacks."""
import json

import pytest

from reports import __main__ as reports_main
from reports import whole
from reports.build import build


def record(test, status="pass", adapter="torch", mode="eager", commit="abc1234", kind="example"):
    return {"spec": "matmul/x", "case": "docs", "kind": kind, "adapter": adapter, "device": "cpu",
            "dtype": "float32", "mode": mode, "status": status, "message": "", "test": test, "commit": commit}


def results(folder, records, collected, share=1.0, paths=("specs",), keyword="", shard=None, kept=None):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    manifest = {"collected": collected, "kept": collected if kept is None else kept, "share": share, "seed": 1,
                "shard": shard, "paths": None if paths is None else list(paths), "keyword": keyword}
    (folder / "selection-1.json").write_text(json.dumps({k: v for k, v in manifest.items() if v is not None}))
    return folder


@pytest.fixture
def kept(tmp_path, monkeypatch):
    """reports/whole-run.json and docs/whole-run.md, here files of the test's own."""
    monkeypatch.setattr(whole, "WHOLE_RUN", tmp_path / "whole-run.json")
    monkeypatch.setattr(whole, "WHOLE_RUN_PAGE", tmp_path / "whole-run.md")
    return whole.WHOLE_RUN


def test_an_item_counts_at_its_worst_record_and_is_unsupported_only_where_nothing_ran():
    statuses = whole.item_statuses([
        record("a", "pass"), record("a", "fail"), record("a", "documented"),  # a failure anywhere is the item's
        record("b", "unsupported"), record("b", "pass"),  # partly refused, and what ran agreed
        record("c", "unsupported"), record("c", "unsupported"),
        record("d", "documented", mode="compiled")])
    assert statuses == {("torch", "eager", "example", "a"): "fail", ("torch", "eager", "example", "b"): "pass",
                        ("torch", "eager", "example", "c"): "unsupported",
                        ("torch", "compiled", "example", "d"): "documented"}


def test_a_part_replaces_the_rows_of_its_adapters_modes_and_kinds_and_counts_lost_records(tmp_path, kept, capsys):
    first = results(tmp_path / "one", [record("a", "fail"), record("b"), record("c", mode="compiled"),
                                       record("r", kind="repeat")], collected=4)
    assert reports_main.main(["whole-run", str(first), "--write"]) == 0
    second = results(tmp_path / "two", [record("a", "pass", commit="def5678")], collected=2)  # b left no record
    assert reports_main.main(["whole-run", str(second), "--write"]) == 0
    assert "1 of its items left no record" in capsys.readouterr().out
    shown = whole.read(kept)
    assert [(r["mode"], r["kind"], r["items"], r["statuses"], r["commit"]) for r in shown["rows"]] == [
        ("compiled", "example", 1, {"pass": 1}, "abc1234"), ("eager", "example", 1, {"pass": 1}, "def5678"),
        ("eager", "repeat", 1, {"pass": 1}, "abc1234")]  # a part without repeat items leaves theirs
    assert shown["totals"] == {"pass": 3} and shown["lost"] == 1 and shown["commits"] == ["abc1234", "def5678"]
    assert [p["part"] for p in shown["parts"]] == [1, 2]  # the first part's compiled row still stands
    assert whole.WHOLE_RUN_PAGE.read_text() == whole.page(json.loads(kept.read_text()))


def test_a_sample_is_refused_and_nothing_is_kept(tmp_path, kept, capsys):
    sample = results(tmp_path / "sample", [record("a")], collected=100, share=0.03)
    assert reports_main.main(["whole-run", str(sample), "--write"]) == 2
    assert "share 1" in capsys.readouterr().err and not kept.exists()
    assert reports_main.main(["whole-run", str(tmp_path / "nothing-here")]) == 2


@pytest.mark.parametrize("paths, said", [
    (["specs/conv.yaml", "specs/pooling.yaml"], "ran ['specs/conv.yaml specs/pooling.yaml']"),  # two files' items
    (None, "(not recorded)"),  # a manifest from before runs said what they ran from
])
def test_a_run_of_some_spec_files_is_no_part_and_nothing_is_kept(tmp_path, kept, capsys, paths, said):
    some = results(tmp_path / "some", [record("a")], collected=1, paths=paths)
    assert reports_main.main(["whole-run", str(some), "--write"]) == 2
    assert said in capsys.readouterr().err and not kept.exists()


def test_results_without_a_manifest_are_no_part_and_nothing_is_kept(tmp_path, kept, capsys):
    bare = results(tmp_path / "bare", [record("a")], collected=1)
    (bare / "selection-1.json").unlink()
    assert reports_main.main(["whole-run", str(bare), "--write"]) == 2
    assert "no selection manifest" in capsys.readouterr().err and not kept.exists()


def test_a_part_run_in_shards_is_one_only_with_every_shard(tmp_path, kept, capsys):
    """Each shard's run collects all 3 items and keeps its own: the part is the two shards together,
    its collected items their kept ones; a shard alone, or shards of two runs, is no part."""
    one = results(tmp_path / "s1", [record("a"), record("b")], collected=3, shard="1/2", kept=2)
    two = results(tmp_path / "s2", [record("c", "documented")], collected=3, shard="2/2", kept=1)
    assert reports_main.main(["whole-run", str(one), "--write"]) == 2
    assert "every shard of one run together" in capsys.readouterr().err and not kept.exists()
    other = results(tmp_path / "o", [record("c")], collected=3, shard="2/3", kept=1)
    assert reports_main.main(["whole-run", str(one), str(other), "--write"]) == 2 and not kept.exists()
    assert reports_main.main(["whole-run", str(one), str(two), "--write"]) == 0
    assert "3 items" in capsys.readouterr().out
    shown = whole.read(kept)
    assert shown["parts"][0]["collected"] == 3 and shown["lost"] == 0
    assert shown["totals"] == {"pass": 2, "documented": 1}


def test_a_part_keeps_the_k_its_runs_left_kinds_out_with(tmp_path, kept):
    part = results(tmp_path / "part", [record("a")], collected=1, keyword="not /repeat")
    assert reports_main.main(["whole-run", str(part), "--write"]) == 0
    assert whole.read(kept)["parts"][0]["keywords"] == ["not /repeat"]


def test_every_page_says_what_the_last_whole_run_showed_and_what_it_lacks(tmp_path, kept):
    whole_part = results(tmp_path / "whole", [record("a", "documented"), record("b", "fail")], collected=2)
    assert reports_main.main(["whole-run", str(whole_part), "--write"]) == 0
    sample = results(tmp_path / "sample", [record("x"), record("y", adapter="jax", mode="compiled")],
                     collected=50, share=0.03)
    page = build([sample], tmp_path / "out").read_text()
    assert "The last whole run" in page and "2 items in 1 rows of an adapter, a mode and a kind" in page
    assert '<span class="fail">1 fail</span>' in page and "abc1234" in page
    assert "not yet run whole: 1 of the adapter, mode and kind rows" in page
    assert "Not in it (run only in samples): jax compiled example" in page
    kept.unlink()
    assert "none recorded" in build([sample], tmp_path / "out").read_text()


def test_a_rerun_stands_over_the_part_and_is_not_counted_again_among_the_collected(tmp_path, kept, capsys):
    part = results(tmp_path / "part", [record("a", "fail"), record("b")], collected=3)  # c left no record
    rerun = results(tmp_path / "rerun", [record("a", "documented"), record("c"), record("z", mode="compiled")],
                    collected=3)  # z: a mode the part did not run, which the rerun does not add
    assert reports_main.main(["whole-run", str(part), "--rerun", str(rerun)]) == 0
    out = capsys.readouterr().out
    assert "| torch | eager | example | 3 | 2 | 1 |" in out and "0 of its items left no record" in out
    assert "compiled" not in out


def test_the_whole_run_page_is_current():
    kept = whole.read()
    assert kept is not None, "reports/whole-run.json: python -m reports whole-run RESULTS --write"
    assert whole.WHOLE_RUN_PAGE.read_text() == whole.page(json.loads(whole.WHOLE_RUN.read_text())), \
        "docs/whole-run.md: rewritten by python -m reports whole-run --write"

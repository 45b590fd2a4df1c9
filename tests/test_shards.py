"""Sharding (suites/running/shards.py) and the workflow that shards (.github/workflows/parity.yml): three
shards run by the workflow's own commands, merged by its own merge command, give the items,
statuses and page of one unsharded run."""
import collections
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest
import yaml

from adapters.workers import ROOT
from reports import build
from suites.running import shards

WORKFLOW = ROOT / ".github" / "workflows" / "parity.yml"
SHARE = "0.3"


def step(job: str, name: str) -> str:
    """The `run:` command of the workflow's step `name` in `job`."""
    steps = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"][job]["steps"]
    return next(s["run"] for s in steps if s.get("name") == name)


def bash(command: str, **variables) -> subprocess.CompletedProcess:
    """A workflow command as the runner runs it (bash), the job's variables set, `python` this one."""
    env = {**os.environ, **variables, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["bash", "-e", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)


def outcomes(folder) -> collections.Counter:
    """(item, case, status) of every record under a folder."""
    records, broken = build.read_records([folder])
    assert not broken and records
    return collections.Counter((r["test"], r["case"], r["status"]) for r in records)


def test_three_shards_merge_into_one_unsharded_run(tmp_path):
    results, unsharded = tmp_path / "results", tmp_path / "unsharded"
    variables = {"SPECS": "specs/masking.yaml", "ADAPTERS": "reference,engine", "SHARDS": "3", "SHARE": SHARE,
                 "RESULTS": str(results), "DURATIONS": str(unsharded), "FRAMEWORK": "engine"}
    alone = subprocess.run([sys.executable, "-m", "pytest", "specs/masking.yaml", "-n", "2", "--adapter",
                            "reference,engine", "--hypothesis-profile=ci", "--share", SHARE, "--results-dir",
                            str(unsharded), "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True,
                           timeout=600)
    assert alone.returncode == 0, alone.stdout[-2000:]
    for shard in "123":
        run = bash(step("shard", "Run the shard"), SHARD=shard, **variables)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
        assert (results / f"engine-{shard}" / "results.jsonl").is_file()  # every shard ran something
    merged = bash(step("report", "Merge the results into one report"), **variables)
    assert merged.returncode == 0, merged.stderr
    assert outcomes(results) == outcomes(unsharded)  # the same items with the same statuses, none twice
    one, three = (build.summarize(build.read_records([f])[0]) for f in (unsharded, results))
    assert one["matrix"] == three["matrix"] and one["totals"] == three["totals"]
    assert (results / "report" / "index.html").is_file()


def items(*seconds):
    return [SimpleNamespace(nodeid=f"t{i}", kind="example", mode="eager") for i in range(len(seconds))], \
        {f"t{i}": s for i, s in enumerate(seconds) if s is not None}


def test_split_is_a_partition_balanced_by_duration():
    many, durations = items(*[float(s) for s in (9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1)])
    parts = shards.split(many, 3, durations)
    assert sorted(i.nodeid for part in parts for i in part) == sorted(i.nodeid for i in many)
    loads = [sum(durations[i.nodeid] for i in part) for part in parts]
    assert max(loads) - min(loads) <= 1  # 47 s into 3: LPT gives 16, 16, 15
    assert [[i.nodeid for i in p] for p in parts] == [[i.nodeid for i in p] for p in shards.split(many, 3, durations)]
    for part in parts:  # each shard keeps the collection order
        assert part == sorted(part, key=many.index)


def test_an_item_without_a_duration_costs_the_mean_of_its_kind():
    few, durations = items(10.0, 2.0, None)
    assert shards.estimates(few, durations) == [10.0, 2.0, 6.0]
    assert shards.estimates(few, {}) == [1.0, 1.0, 1.0]  # nothing recorded: every item alike


def test_more_shards_than_items_leave_some_empty():
    few, durations = items(1.0, 1.0)
    assert [len(p) for p in shards.split(few, 3, durations)] == [1, 1, 0]


def test_durations_are_read_from_records(tmp_path):
    lines = [{"test": "a", "duration": 1.5, "status": "pass"}, {"test": "a", "duration": 1.5, "status": "fail"},
             {"test": "b", "duration": None, "status": "crash"}]
    (tmp_path / "results.jsonl").write_text("\n".join(map(json.dumps, lines)) + "\n{cut off", encoding="utf-8")
    assert shards.read_durations(tmp_path) == {"a": 3.0}  # an item's outcomes share its time


@pytest.mark.parametrize("text", ["4/3", "0/3", "1/0", "a/b", "2", "-1/3", " "])
def test_a_bad_shard_is_refused(text):
    with pytest.raises(shards.ShardError, match=r"^--shard takes K/N with 1 <= K <= N"):
        shards.parse(text)


@pytest.mark.parametrize("args, message", [
    (["--shard", "4/3"], "parity: --shard takes K/N with 1 <= K <= N (the K-th of N shards, e.g. 2/3). "
                         "Received: '4/3'"),
    (["--shard", "1/3", "--shard-durations", "no/such/folder"],
     "parity: --shard-durations: no such results folder or file: no/such/folder"),
    (["--shard-durations", "results"], "parity: --shard-durations balances shards: give --shard K/N with it"),
])
def test_bad_shard_options_are_one_line_and_exit_2(args, message):
    run = subprocess.run([sys.executable, "-m", "pytest", "specs/masking.yaml", "--adapter", "reference", *args],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert message in (run.stdout + run.stderr).splitlines()[-1]

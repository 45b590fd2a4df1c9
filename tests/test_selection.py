"""Every run writes what it selected (selection-<run>.json), and the page says what share of the
suite it holds and which documented items the share left out."""
import json
import subprocess
import sys
from types import SimpleNamespace

from reports import build
from suites.running.changes import ROOT
from suites.running.selection import shared


def test_the_page_says_how_many_of_the_collected_items_it_holds(tmp_path):
    results = tmp_path / "results"
    run = subprocess.run([sys.executable, "-m", "pytest", "specs/ste.yaml", "-n", "2", "--adapter", "reference,engine",
                          "--hypothesis-profile=ci", "--share", "0.03", "--results-dir", str(results), "-p",
                          "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:]
    [manifest] = [json.loads(f.read_text()) for f in results.glob("selection-*.json")]  # one, though 2 workers
    collected = subprocess.run([sys.executable, "-m", "pytest", "specs/ste.yaml", "--adapter", "reference,engine",
                                "--collect-only", "-q", "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True,
                               text=True, timeout=600)
    every = [line for line in collected.stdout.splitlines() if "::" in line]
    ran = {json.loads(line)["test"] for line in (results / "results.jsonl").read_text().splitlines()}
    assert manifest["collected"] == len(every) and manifest["kept"] == len(ran) < len(every)
    assert manifest["share"] == 0.03 and manifest["changed_since"] is None
    # the engine's repeat item of ste-round is named by the engine's own repeat entry ("*": threads)
    assert set(manifest["lacking"]) <= set(every) - ran
    page = build.build([results], tmp_path / "out").read_text()
    assert f"{len(ran)} of the {len(every)} items its runs collected" in page


def test_the_manifest_counts_what_k_leaves_and_nothing_it_drops(tmp_path):
    # -k and -m narrow the run first: its manifest (the whole run's count of items that left no
    # record, the page's share) and --changed-limit's budget are of the items the run asked for
    results = tmp_path / "results"
    run = subprocess.run([sys.executable, "-m", "pytest", "specs/ste.yaml", "--adapter", "reference,engine",
                          "--mode", "eager", "-k", "not /repeat", "--hypothesis-profile=ci",
                          "--results-dir", str(results), "-p", "no:cacheprovider"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:]
    [manifest] = [json.loads(f.read_text()) for f in results.glob("selection-*.json")]
    ran = {json.loads(line)["test"] for line in (results / "results.jsonl").read_text().splitlines()}
    assert not any("/repeat" in test for test in ran)
    assert manifest["collected"] == manifest["kept"] == len(ran)
    # what it ran from, so that a whole run's part is known to be one (reports/whole.py)
    assert manifest["paths"] == ["specs/ste.yaml"] and manifest["keyword"] == "not /repeat"


def _collected(*args) -> set:
    """The node ids a run of three spec files on the engine keeps at CI's share, under args."""
    run = subprocess.run([sys.executable, "-m", "pytest", "specs/reductions.yaml", "specs/attention.yaml",
                          "specs/elementwise.yaml", "--adapter", "engine", "--share", "0.03", "--hypothesis-seed",
                          "5", "--collect-only", "-q", "-p", "no:cacheprovider", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode in (0, 5), run.stdout[-2000:]  # 5: pytest collected no item
    return {line for line in run.stdout.splitlines() if "::" in line}


def test_a_run_split_by_k_keeps_what_one_run_keeps_with_share_over_collected():
    # CI splits one selection in two by -k (test: "not /repeat", test-apart: "/repeat"): drawn
    # after -k, the repeat line's share keeps one item of each (area, adapter, mode) that one run
    # would mostly leave out; drawn over every collected item, the two lines keep what one run does
    one = _collected()
    split = _collected("-k", "not /repeat") | _collected("-k", "/repeat")
    assert split != one and len(split) > len(one)
    over = ("--share-over-collected",)
    repeats, rest = _collected(*over, "-k", "/repeat"), _collected(*over, "-k", "not /repeat")
    assert repeats | rest == one and not repeats & rest


def _item(name: str, example=False, documented=False):
    return SimpleNamespace(nodeid=name, spec=SimpleNamespace(area="area"), adapter_name="engine", mode="compiled",
                           example=example, documented=documented)


def test_share_documented_draws_what_a_documented_difference_names_like_the_rest():
    # a published run keeps every item a documented difference names; CI's lines, which publish
    # nothing, draw the generated and compiled ones by the share (an explicit example stays)
    items = [_item("example", example=True)] + [_item(f"documented-{i}", documented=True) for i in range(66)] + \
        [_item(f"generated-{i}") for i in range(66)]
    every, drawn = shared(items, 0.03, 7)[0], shared(items, 0.03, 7, documented=False)[0]
    assert {i.nodeid for i in every} >= {"example"} | {f"documented-{i}" for i in range(66)}
    assert len(every) == 1 + 66 + 2 and len(drawn) == 1 + 4 and drawn[0].nodeid == "example"
    over_seeds = [i.nodeid for seed in range(33) for i in shared(items, 0.03, seed, documented=False)[0]]
    assert sorted(over_seeds) == sorted(["example"] * 33 + [i.nodeid for i in items[1:]])  # each once in 33
    assert len(_collected("--share-documented")) < len(_collected())  # the option reaches the selection


SPECIAL_CASES = """
- id: acos-edges
  doc: acos at its domain's edges, where finite differences straddle the edge
  source: https://data-apis.org/array-api/2024.12/API_specification/generated/array_api.acos.html
  expr: "acos(x)"
  args: [x]
  dtypes: [float32, float64]
  examples:
    - name: x-one
      inputs: {x: {values: [1.0, 1.0]}}
      expect: {value: [0.0, 0.0]}
  hypothesis: {signature: "()->()", magnitudes: [0.5]}
  gradient: {wrt: [x]GRADIENT}
"""


def test_a_spec_whose_examples_are_special_cases_checks_no_gradient_of_them(tmp_path):
    """`gradient: {examples: false}`: acos's derivative at 1 is -inf, and a central difference
    straddles its domain's edge, so the examples are value checks and its gradients are judged on
    generated cases only; without the key, each dtype's example has a gradient check."""
    from suites.running.selection import gradient_examples
    from tests.spec_text import first_spec

    plain = first_spec(tmp_path, SPECIAL_CASES.replace("GRADIENT", ""), "plain.yaml")
    assert {(e.name, d) for e, d in gradient_examples(plain)} == {("x-one", "float32"), ("x-one", "float64")}
    edges = first_spec(tmp_path, SPECIAL_CASES.replace("GRADIENT", ", examples: false"), "edges.yaml")
    assert gradient_examples(edges) == []

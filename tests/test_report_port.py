"""parity report port SOURCE TARGET: every case the two adapters both ran and did not do alike,
filed by the regime of the difference, with both sides' notes and numbers; cases they did alike
(both passing, both unsupported, both documented by one note) are not a port's concern."""
import json

from reports import __main__ as cli
from reports import port, summary
from reports.records import record


def outcome(case, adapter, status, regime=None, note=None, dtype="float32", **fields):
    difference = {"note": note, "source": "docs", "regime": regime} if status == "documented" else None
    return record(spec="matmul/docs", case=case, kind="example", adapter=adapter, device="cpu", dtype=dtype,
                  mode="eager", status=status, difference=difference, **fields)


RUN = [
    outcome("alike", "torch", "pass"), outcome("alike", "jax", "pass"),
    outcome("both-unsupported", "torch", "unsupported"), outcome("both-unsupported", "jax", "unsupported"),
    outcome("same-note", "torch", "documented", "default", "axis -1"),
    outcome("same-note", "jax", "documented", "default", "axis -1"),
    outcome("promotes", "torch", "pass"), outcome("promotes", "jax", "documented", "promotion", "int32 + float64"),
    outcome("promotes", "torch", "pass", dtype="float64"),
    outcome("promotes", "jax", "documented", "promotion", "int32 + float64", dtype="float64"),
    outcome("old-regime", "torch", "documented", None, "a note from before regimes"),
    outcome("old-regime", "jax", "pass"),
    outcome("broken", "torch", "pass"), outcome("broken", "jax", "fail", message="differs", max_abs_err=0.5, ulp=3),
    outcome("dies", "torch", "pass"), outcome("dies", "jax", "crash"),
    outcome("refused", "torch", "pass"), outcome("refused", "jax", "unsupported", message="no int8"),
    outcome("only-torch", "torch", "fail"),
]


def test_each_differing_case_lands_in_its_regime_in_the_order_a_port_meets_them():
    found = port.port(RUN, "torch", "jax")
    assert list(found) == ["undocumented", "promotion", "crash", "semantics", "unsupported"]
    assert [g["cases"] for g in found["promotion"]] == [["promotes"]]
    assert found["promotion"][0]["dtypes"] == ["float32", "float64"] and found["promotion"][0]["count"] == 2
    assert found["promotion"][0]["target"]["note"] == "int32 + float64"
    assert found["semantics"][0]["source"]["status"] == "documented"  # the source's note, where the target passes
    assert found["undocumented"][0]["target"]["max_abs_err"] == 0.5


def test_the_terminal_names_both_sides_and_exits_1_on_an_undocumented_difference(tmp_path, capsys):
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in RUN))
    assert cli.main(["port", "torch", "jax", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("port torch -> jax: 5 cases differ\n"
                          "  by regime: undocumented 1, promotion 2, crash 1, semantics 1\n"
                          "  and 1 case one side cannot run (--verbose lists them)\n")
    assert "refused" not in out and "no int8" not in out  # the unsupported, folded
    assert cli.main(["port", "torch", "jax", str(tmp_path), "--verbose"]) == 1
    out = capsys.readouterr().out
    assert "  jax: documented: int32 + float64 (source: docs)" in out
    assert "  jax: fail [max abs err 0.5, 3 ulp]: differs" in out and "jax: unsupported: no int8" in out
    calm = [r for r in RUN if r["case"] not in ("broken", "dies")]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in calm))
    assert cli.main(["port", "torch", "jax", str(tmp_path)]) == 0
    assert cli.main(["port", "torch", "paddle", str(tmp_path)]) == 2
    assert "no records of adapter 'paddle'" in capsys.readouterr().err


def test_two_adapters_that_agree_everywhere_say_so():
    same = [r for r in RUN if r["case"] in ("alike", "same-note", "both-unsupported")]
    assert port.port(same, "torch", "jax") == {}
    assert port.lines({}, "torch", "jax") == ["port torch -> jax: no case differs (of the cases both ran)"]


def model_run():
    """A model's records (its layers, a training run per optimizer) and the records of specs
    whose ops it calls or does not, in its dtype and another; each pair of torch and keras
    differs."""
    def pair(spec, ops, case="c", kind="example", dtype="float32", **fields):
        return [record(spec=spec, case=case, kind=kind, adapter="torch", device="cpu", dtype=dtype, mode="eager",
                       status="pass", ops=ops, **fields),
                record(spec=spec, case=case, kind=kind, adapter="keras", device="cpu", dtype=dtype, mode="eager",
                       status="documented", ops=ops, difference={"note": f"{spec} differs", "regime": "default"},
                       **fields)]
    model_ops = ["adam", "batch_norm", "init_linear", "linear"]
    return [*pair("models/net", model_ops, "batch/adam", kind="training", trajectory=[{"loss": 1.0}]),
            *pair("models/net", model_ops, "batch", parts=[{"name": "loss", "drift": 0.0}]),
            *pair("normalization/batch-norm-defaults", ["batch_norm"]),
            *pair("normalization/batch-norm-defaults", ["batch_norm"], dtype="int32"),  # not the model's dtype
            *pair("optimizers/adam-defaults", ["adam"]), *pair("initializers/linear-defaults", ["init_linear"]),
            *pair("layers/linear-then-softmax", ["linear", "softmax"]),  # softmax: not the model's
            *pair("promotion/add", ["add"])]


def test_a_models_port_is_its_own_cases_and_the_specs_of_what_it_meets():
    """--model narrows the port to the model's cases and those of the specs whose ops the model's
    user meets (its layers' ops, optimizers and default initialisations), in the model's dtypes."""
    run = model_run()
    assert port.models(run) == {"models/net": (["initializers/linear-defaults", "models/net",
                                                "normalization/batch-norm-defaults", "optimizers/adam-defaults"],
                                               ["float32"])}
    narrowed = port.port(run, "torch", "keras", model="models/net")
    assert sorted((g["spec"], g["count"]) for g in narrowed["default"]) == [
        ("initializers/linear-defaults", 1), ("models/net", 2), ("normalization/batch-norm-defaults", 1),
        ("optimizers/adam-defaults", 1)]
    assert {d for g in narrowed["default"] for d in g["dtypes"]} == {"float32"}
    assert sum(g["count"] for g in port.port(run, "torch", "keras")["default"]) == 8  # every spec, every dtype
    scope = port.page_data(run)["models"]["models/net"]
    assert sorted(port.page_data(run)["specs"][i] for i in scope["specs"]) == port.models(run)["models/net"][0]


def test_the_terminal_port_of_a_model_and_of_a_model_that_did_not_run(tmp_path, capsys):
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in model_run()))
    assert cli.main(["port", "torch", "keras", str(tmp_path), "--model", "models/net"]) == 0
    assert capsys.readouterr().out.startswith("port torch -> keras of models/net: 5 cases differ\n"
                                              "  by regime: default 5\n")
    assert cli.main(["port", "torch", "keras", str(tmp_path), "--model", "models/cnn"]) == 2
    assert capsys.readouterr().err.strip() == ("reports: no model records of 'models/cnn'; models in these "
                                               "results: models/net")


def test_the_port_opens_on_what_to_change_first_one_line_each_within_a_terminal():
    """Tried as a new user would: `port torch jax` printed 670 lines of up to 630 characters,
    alphabetical, 40% of them unsupported. Now: the ranked top, then a line per group, each within
    WIDTH; failures before behaviours before conventions, an op a model calls first, then the
    larger error."""
    run = [*RUN, outcome("long", "torch", "pass"),
           outcome("long", "jax", "documented", "semantics", "a note " * 60, ulp=2.0),
           outcome("modelled", "torch", "pass", ops=["linear"]),
           outcome("modelled", "jax", "documented", "semantics", "small but used", ulp=1.0, ops=["linear"]),
           record(spec="models/net", case="batch", kind="training", adapter="torch", device="cpu",
                  dtype="float32", mode="eager", status="pass", ops=["linear"])]
    found = port.port(run, "torch", "jax")
    first = [(regime, g["cases"]) for regime, g in port.ranked(found)]
    assert first[:2] == [("undocumented", ["broken"]), ("crash", ["dies"])]
    semantics = [cases for regime, cases in first if regime == "semantics"]
    assert semantics[:2] == [["modelled"], ["long"]]  # the op a model calls first, then by error
    assert first[-1] == ("promotion", ["promotes"])  # a convention after the behaviours
    out = port.lines(found, "torch", "jax")
    assert max(map(len, out)) <= port.WIDTH
    assert out[out.index("First to change (6 of 6 groups, the most urgent first):") + 1].startswith(
        "  1. [undocumented] matmul/docs: jax fail 3 ulp: differs | torch pass")


def test_the_first_screen_names_the_pairs_and_what_to_look_at_first_a_new_failure_before_all():
    """The page opens on a line per pair of frameworks and the three groups to look at first,
    across pairs, one per spec; a failure new since the baseline comes first whatever its rank."""
    run = [*RUN, outcome("promotes", "paddle", "pass"), outcome("broken", "paddle", "pass"),
           record(spec="conv/docs", case="c", kind="example", adapter="torch", device="cpu", dtype="float32",
                  mode="eager", status="pass"),
           record(spec="conv/docs", case="c", kind="example", adapter="paddle", device="cpu", dtype="float32",
                  mode="eager", status="documented", difference={"note": "NCL", "regime": "default"})]
    screen = summary.first_screen(run)
    assert [(p["source"], p["target"]) for p in screen["pairs"]] == [("jax", "torch"), ("jax", "paddle"),
                                                                     ("paddle", "torch")]
    assert screen["pairs"][0]["regimes"] == {"undocumented": 1, "promotion": 2, "crash": 1, "semantics": 1}
    assert [(f["regime"], f["spec"]) for f in screen["first"]] == [("undocumented", "matmul/docs"),
                                                                  ("default", "conv/docs")]
    new = [r for r in run if r["spec"] == "conv/docs" and r["adapter"] == "paddle"]
    assert summary.first_screen(run, new)["first"][0]["spec"] == "conv/docs"

"""parity report port SOURCE TARGET: every case the two adapters both ran and did not do alike,
filed by the regime of the difference, with both sides' notes and numbers; cases they did alike
(both passing, both unsupported, both documented by one note) are not a port's concern."""
import json

from reports import __main__ as cli
from reports import port
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
    assert out.startswith("port torch -> jax: 6 cases differ, in undocumented (1), promotion (2), crash (1), "
                          "semantics (1), unsupported (1)")
    assert "  jax: documented: int32 + float64 (source: docs)" in out
    assert "  jax: fail [max abs err 0.5, 3 ulp]: differs" in out
    calm = [r for r in RUN if r["case"] not in ("broken", "dies")]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in calm))
    assert cli.main(["port", "torch", "jax", str(tmp_path)]) == 0
    assert cli.main(["port", "torch", "paddle", str(tmp_path)]) == 2
    assert "no records of adapter 'paddle'" in capsys.readouterr().err


def test_two_adapters_that_agree_everywhere_say_so():
    same = [r for r in RUN if r["case"] in ("alike", "same-note", "both-unsupported")]
    assert port.port(same, "torch", "jax") == {}
    assert port.lines({}, "torch", "jax") == ["port torch -> jax: no case differs (of the cases both ran)"]

"""The models part of the report: per model (spec, case, dtype, device), each adapter's first
layer out of its bound, charts of every layer's error against its carried bound and of its drift
from the float64 model, and the SGD trajectories with their divergence per step.

A model's records are those whose parts carry a drift (suites/programs/model.py measures one per layer)
and its training records (a trajectory).
"""
import statistics

from reports import charts
from reports.records import column


def summarize(records) -> list:
    """One entry per (spec, case, dtype, device): its adapters' rows and its charts."""
    groups = {}
    for r in records:
        layered = any(isinstance(p, dict) and p.get("drift") is not None for p in r.get("parts") or ())
        kind = "training" if r.get("kind") == "training" else ("layers" if layered and r.get("kind") == "example"
                                                                  else None)
        if kind:
            key = tuple(str(r.get(k, "")) for k in ("spec", "case", "dtype", "device"))
            groups.setdefault(key, {"layers": {}, "training": {}})[kind][column(r)] = r
    return [_model(key, group) for key, group in sorted(groups.items())]


def _model(key, group) -> dict:
    spec, case, dtype, device = key
    title = f"{spec} ({case}, {dtype}, {device})"
    layered = group["layers"]
    names = next((_names(r) for r in layered.values()), [])
    rows = [{"adapter": a, "status": r["status"], "first": _first_out(r), "loss_drift": r["parts"][-1].get("drift")}
            for a, r in sorted(layered.items())]
    excess = {a: [_excess(p) for p in r["parts"]] for a, r in layered.items() if _names(r) == names}
    drift = {a: [p.get("drift") for p in r["parts"]] for a, r in layered.items() if _names(r) == names}
    trajectories = {a: [s.get("loss") for s in r.get("trajectory") or ()] for a, r in group["training"].items()}
    steps = max((len(t) for t in trajectories.values()), default=0)
    return {
        "title": title, "spec": spec, "case": case, "dtype": dtype, "rows": rows,
        "excess": charts.lines(excess, names, f"{title}: each layer's error / its carried bound (1: the bound)",
                               rule=1.0, log=True),
        "drift": charts.lines(drift, names, f"{title}: each layer's distance from the float64 model", log=True),
        "training": [{"adapter": a, "status": r["status"], "message": r.get("message")}
                     for a, r in sorted(group["training"].items())],
        "loss": charts.lines(trajectories, list(range(steps)), f"{title}: loss per SGD step"),
        "divergence": charts.lines(_divergence(trajectories, steps), list(range(steps)),
                                   f"{title}: |loss - the adapters' median| per SGD step", log=True),
    }


def _names(record) -> list:
    return [str(p.get("name")) for p in record.get("parts") or ()]


def _first_out(record) -> str | None:
    return next((str(p.get("name")) for p in record.get("parts") or () if not p.get("ok")), None)


def _excess(part: dict) -> float | None:
    """The part's largest error over the allowed error at its worst element."""
    err, allowed = part.get("max_abs_err"), part.get("allowed")
    if not isinstance(err, (int, float)) or not isinstance(allowed, (int, float)) or allowed <= 0:
        return None
    return err / allowed


def _divergence(trajectories: dict, steps: int) -> dict:
    """Per adapter and step, the distance of its loss from the median of every adapter's at that step."""
    medians = []
    for t in range(steps):
        losses = [v[t] for v in trajectories.values() if t < len(v) and isinstance(v[t], (int, float))]
        medians.append(statistics.median(losses) if losses else None)
    return {a: [abs(v[t] - medians[t]) if t < len(v) and isinstance(v[t], (int, float)) and medians[t] is not None
                else None for t in range(steps)] for a, v in trajectories.items()}

"""The models part of the report: per model (spec, example, dtype, device), each adapter's first
layer out of its bound, charts of every layer's error against its carried bound and of its drift
from the float64 model, and the training trajectories per optimizer with their divergence per
step, and a table of where each optimizer's steps end on each adapter.

A model's records are those whose parts carry a drift (suites/programs/model.py measures one per layer)
and its training records (a trajectory). A training record's case is its example's name, and
after a slash the optimizer's label where the framework's own optimizer took the steps
(`batch/adam(lr=0.01)`; suites/programs/training.py); `batch` alone took Parity's p - lr g.
"""
import statistics

from reports import charts
from reports.records import column, of_a_model

PARITY_SGD = "SGD (Parity's p - lr g)"  # the optimizer of a training record whose case names none


def summarize(records) -> list:
    """One entry per (spec, example, dtype, device): its adapters' rows and its charts."""
    groups = {}
    for r in records:
        if not of_a_model(r):
            continue
        example, _, optimizer = str(r.get("case", "")).partition("/")
        key = (str(r.get("spec", "")), example, *(str(r.get(k, "")) for k in ("dtype", "device")))
        group = groups.setdefault(key, {"layers": {}, "training": {}})
        if r["kind"] == "training":
            group["training"].setdefault(optimizer or PARITY_SGD, {})[column(r)] = r
        else:
            group["layers"][column(r)] = r
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
    optimizers = sorted(group["training"], key=lambda o: (o != PARITY_SGD, o))
    return {
        "title": title, "spec": spec, "case": case, "dtype": dtype, "rows": rows,
        "excess": charts.lines(excess, names, f"{title}: each layer's error / its carried bound (1: the bound)",
                               rule=1.0, log=True),
        "drift": charts.lines(drift, names, f"{title}: each layer's distance from the float64 model", log=True),
        "training": [_trajectories(title, o, group["training"][o]) for o in optimizers],
        "ends": _ends(group["training"], optimizers),
    }


def _trajectories(title: str, optimizer: str, runs: dict) -> dict:
    """One optimizer's runs: each adapter's status and message, its loss per step, and each
    one's divergence from the adapters' median loss per step."""
    trajectories = {a: _losses(r) for a, r in runs.items()}
    steps = max((len(t) for t in trajectories.values()), default=0)
    return {
        "optimizer": optimizer,
        "rows": [{"adapter": a, "status": r["status"], "message": r.get("message")} for a, r in sorted(runs.items())],
        "loss": charts.lines(trajectories, list(range(steps)), f"{title}, {optimizer}: loss per step"),
        "divergence": charts.lines(_divergence(trajectories, steps), list(range(steps)),
                                   f"{title}, {optimizer}: |loss - the adapters' median| per step", log=True),
    }


def _ends(training: dict, optimizers: list) -> dict:
    """Where each optimizer's steps end on each adapter: {"adapters": [...], "rows": [(optimizer,
    [(status, last loss or None) per adapter or None where it did not run])]}, the table that
    shows at a glance what another framework's optimizer does to the same model."""
    adapters = sorted({a for runs in training.values() for a in runs})
    rows = []
    for o in optimizers:
        cells = []
        for a in adapters:
            r = training[o].get(a)
            losses = _losses(r or {})
            cells.append(None if r is None else (r["status"], losses[-1] if losses else None))
        rows.append((o, cells))
    return {"adapters": adapters, "rows": rows}


def _losses(run: dict) -> list:
    """A training run's loss per step (None where a step has none)."""
    return [s.get("loss") for s in run.get("trajectory") or ()]


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

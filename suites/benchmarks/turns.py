"""Interleaved benchmark processes: `run --turns T` runs every adapter's process T times in turn
(A B C, A B C, ...), each with 1/T of the timed budget, so that drift on a shared machine (another
job starting, the clock moving) falls on every adapter alike instead of on whichever ran during
it. The turns' JSON files merge into one per adapter: each benchmark's raw samples are the turns'
samples together (stats recomputed from them), and `extra_info.turns` keeps each turn's median and
round count, so a turn that differs from the others shows."""
import numpy as np

from suites.benchmarks.harness import stability


def merged(turns: list) -> dict:
    """One pytest-benchmark JSON from the same process' JSON of each turn (in turn order): the
    first turn's machine_info (with the fastest calibration of any), every benchmark any turn
    ran, its samples concatenated; one turn's JSON as pytest-benchmark wrote it."""
    if len(turns) == 1:
        return turns[0]
    out = {**turns[0], "benchmarks": []}
    out["machine_info"] = dict(turns[0]["machine_info"])
    calibration = {}
    for turn in turns:
        for key, rate in (turn["machine_info"].get("calibration") or {}).items():
            if isinstance(rate, (int, float)):
                calibration[key] = max(calibration.get(key, 0.0), rate)
    out["machine_info"]["calibration"] = calibration
    by_name = {}
    for index, turn in enumerate(turns):
        for bench in turn["benchmarks"]:
            by_name.setdefault(bench["fullname"], []).append((index, bench))
    for runs in by_name.values():
        first = runs[0][1]
        data = [x for _, bench in runs for x in bench["stats"].get("data") or []]
        extra = {**first.get("extra_info", {}), "turns": [
            {"turn": index, "median": bench["stats"]["median"], "rounds": bench["stats"]["rounds"]}
            for index, bench in runs]}
        figures = {**first["stats"], **statistics(data)} if data else first["stats"]
        rescaled(extra, first["stats"]["median"] / figures["median"], figures)
        out["benchmarks"].append({**first, "extra_info": extra, "stats": figures})
    return out


RATES = ("gflops", "gbps", "algbw_gbps", "busbw_gbps")  # work / median: they scale with 1 / median


def rescaled(info: dict, scale: float, figures: dict) -> None:
    """The first turn's figures for the merged median: rates times `scale` (its median / the
    merged one), the relative IQR and the unstable flag anew (% of peak follows in rebase_peak)."""
    for key in RATES:
        if isinstance(info.get(key), (int, float)):
            info[key] *= scale
    info.update(stability(figures["median"], figures["iqr"]))


def statistics(data: list) -> dict:
    """pytest-benchmark's stats fields that the project reads, from raw samples."""
    values = np.asarray(data, dtype=float)
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return {"data": list(map(float, values)), "rounds": int(values.size), "min": float(values.min()),
            "max": float(values.max()), "mean": float(values.mean()),
            "stddev": float(values.std(ddof=1)) if values.size > 1 else 0.0, "median": float(median),
            "q1": float(q1), "q3": float(q3), "iqr": float(q3 - q1), "total": float(values.sum()),
            "ops": float(1 / values.mean()) if values.mean() else 0.0}

"""What a port from one framework to another meets: every case where two adapters' outcomes
differ, grouped by the regime of the difference.

Two records are the same case when they share (spec, case, kind, device, dtype, mode). A pair
differs when the two outcomes are not alike: both passing, both unsupported, or both documented
by the same note (the two frameworks behave alike, only the reference or the documentation
differs) is alike. Each differing pair is filed under the regime of what the target does, else of
what the source does: a documented difference's own regime (default, promotion, special-value,
no-gradient, precision, crash, compiler, nondeterministic, semantics); `undocumented` for a fail or
error nobody documented (red on the page: mend it or document it); `crash` for a crash or timeout; `unsupported` where
one side cannot run the case at all. The order is what a port trips over first.

Narrowed to a model (`--model models/cnn`; the page's model choice), the port is what moving that
model changes: the model's own cases (its layers, gradients, a training trajectory per optimizer,
the repeat check) and every case of a spec whose ops the model's user meets (a record's `ops`: the
ops its layers call, its optimizers, its layers' default initialisations), in the dtypes the model
ran in. A framework's default that the model's spec passes explicitly (a batch norm's eps) shows
there, on the op's own specs, as what a user who keeps each framework's default gets.
"""
import math

from reports.records import KEY, REGIMES, key_of, mode_of, of_a_model, standing

ORDER = ("undocumented", *REGIMES, "unsupported")
# What a port must change first: what nobody documented (a wrong value, an error), then a crash,
# then the documented behaviours that change a result, then conventions a port sets once (a
# default, a dtype's promotion), precision last. Unsupported is apart: nothing to compare.
URGENCY = ("undocumented", "crash", "semantics", "special-value", "no-gradient", "nondeterministic", "compiler",
           "promotion", "default", "precision")
TOP = 10  # the groups the port's first screen ranks
WIDTH = 100  # a terminal line: one per group, the detail behind --verbose


def regime_of(record: dict) -> str:
    status = record.get("status")
    if status == "documented":
        regime = (record.get("difference") or {}).get("regime")
        return regime if regime in REGIMES else "semantics"
    if status in ("crash", "timeout"):
        return "crash"
    if status == "unsupported":
        return "unsupported"
    return "undocumented"


def models(records: list) -> dict:
    """model spec -> (the specs its port meets, the dtypes it ran in): the model's own and every
    spec whose every record's ops lie within the model's."""
    met, ops, dtypes = {}, {}, {}
    for r in records:
        spec = str(r.get("spec"))
        if r.get("ops"):  # records before ops, and a crash's, say nothing of the spec's
            ops.setdefault(spec, set()).update(r["ops"])
        if of_a_model(r):
            met.setdefault(spec, set()).update(r.get("ops") or ())
            dtypes.setdefault(spec, set()).add(str(r.get("dtype")))
    return {model: (sorted({s for s, o in ops.items() if o <= met[model]} | {model}), sorted(dtypes[model]))
            for model in sorted(met)}


def model_ops(records: list) -> set:
    """The ops the models in these records call: what users' programs are built from."""
    return {op for r in records if of_a_model(r) for op in r.get("ops") or ()}


def within(records: list, model: str | None) -> list:
    """The records of a model's port (models), or every record where no model is named."""
    if model is None:
        return records
    found = models(records)
    if model not in found:
        raise ValueError(f"no model records of {model!r}; models in these results: {', '.join(found) or 'none'}")
    specs, dtypes = (set(v) for v in found[model])
    return [r for r in records if r.get("spec") in specs and str(r.get("dtype")) in dtypes]


def differing(records: list, source: str, target: str, mode: str | None = None) -> list:
    """(source record, target record) of every case both ran that they did not do alike."""
    sides = {}
    for r in standing(records):
        if r.get("adapter") in (source, target) and mode in (None, mode_of(r)):
            sides.setdefault(case_key(r), {})[r["adapter"]] = r
    return [(pair[source], pair[target]) for _, pair in sorted(sides.items(), key=lambda kv: str(kv[0]))
            if len(pair) == 2 and not _alike(pair[source], pair[target])]


def case_key(record: dict) -> tuple:
    """What makes two adapters' records one case: the record's KEY but the adapter."""
    key = key_of(record)
    return key[:KEY.index("adapter")] + key[KEY.index("adapter") + 1:]


def _alike(a: dict, b: dict) -> bool:
    if a["status"] != b["status"]:
        return False
    return a["status"] != "documented" or _note(a) == _note(b)


def _note(record: dict) -> str:
    return str((record.get("difference") or {}).get("note") or "")


def port(records: list, source: str, target: str, mode: str | None = None, model: str | None = None) -> dict:
    """regime -> groups, in ORDER: each group one spec and one pair of behaviours (the two sides'
    status and note), with the cases, kinds, dtypes and modes it was seen in, both sides'
    numbers, note and rerun command from its first pair; of a model's port only (within)."""
    return grouped(differing(within(records, model), source, target, mode), model_ops(records))


def grouped(pairs: list, used: set) -> dict:
    """The differing (source, target) record pairs as `port` returns them; `used`: the ops the
    models call (model_ops), which rank a group (ranked)."""
    groups = {}
    for a, b in pairs:
        regime = regime_of(b) if b["status"] != "pass" else regime_of(a)
        key = (regime, str(a.get("spec")), a["status"], _note(a), b["status"], _note(b))
        group = groups.setdefault(key, {"spec": key[1], "source": _side(a), "target": _side(b), "pairs": []})
        group["pairs"].append((a, b))
        group["used"] = group.get("used", False) or bool(set(a.get("ops") or b.get("ops") or ()) & used)
    out = {regime: [] for regime in ORDER}
    for (regime, *_), group in groups.items():
        pairs = group.pop("pairs")
        group.update(count=len(pairs), **{field: sorted({str(b.get(name) if name != "mode" else mode_of(b))
                                                         for _, b in pairs})
                                          for field, name in (("cases", "case"), ("kinds", "kind"),
                                                              ("dtypes", "dtype"), ("modes", "mode"))})
        out[regime].append(group)
    return {regime: rows for regime, rows in out.items() if rows}


def every_pair(records: list) -> list:
    """Every pair of the adapters that ran eagerly (each framework as its users call it; a
    variant that only exports or only runs models pairs through its base) with what its port
    meets, the records read once: [(source, target, port)], the most urgent pair first (by its
    most urgent group, then by the number of cases that differ)."""
    eager = sorted({str(r.get("adapter")) for r in records if mode_of(r) == "eager"} - {"reference"})
    sides = {}
    for r in standing(records):
        if str(r.get("adapter")) in eager:
            sides.setdefault(case_key(r), {})[str(r["adapter"])] = r
    used, out = model_ops(records), []
    for n, source in enumerate(eager):
        for target in eager[n + 1:]:
            pairs = [(pair[source], pair[target]) for pair in sides.values()
                     if source in pair and target in pair and not _alike(pair[source], pair[target])]
            out.append((source, target, grouped(pairs, used)))

    def urgency(entry):
        top = ranked(entry[2])
        return (URGENCY.index(top[0][0]) if top else len(URGENCY), -sum(g["count"] for _, g in top))
    return sorted(out, key=urgency)


def _side(record: dict) -> dict:
    d = record.get("difference") or {}
    return {"status": record["status"], "note": d.get("note"), "source": d.get("source"),
            "message": str(record.get("message") or "").split("\n")[0][:300],
            "max_abs_err": record.get("max_abs_err"), "ulp": record.get("ulp"), "rerun": record.get("rerun")}


def lines(found: dict, source: str, target: str, model: str | None = None, verbose: bool = False) -> list:
    """The port in the terminal, one screen first: the counts, the TOP groups a port must change
    first (ranked), then per regime one line per group within WIDTH; `unsupported` counted apart
    and folded. `verbose`: every group with both sides in full and its rerun command."""
    title = f"port {source} -> {target}" + (f" of {model}" if model else "")
    if not found:
        return [f"{title}: no case differs (of the cases both ran)"]
    cases = {regime: sum(g["count"] for g in rows) for regime, rows in found.items()}
    differ = {regime: n for regime, n in cases.items() if regime != "unsupported"}
    total = sum(differ.values())
    out = [f"{title}: {_count(total, 'case')} {'differs' if total == 1 else 'differ'}"]
    if differ:
        out.append(_fit("  by regime: " + ", ".join(f"{regime} {n}" for regime, n in differ.items())))
    if "unsupported" in cases:
        out.append(f"  and {_count(cases['unsupported'], 'case')} one side cannot run"
                   + ("" if verbose else " (--verbose lists them)"))
    order = ranked(found)
    first = order[:TOP]
    if first:
        out += ["", f"First to change ({len(first)} of {_count(len(order), 'group')}, the most urgent first):"]
        out += [_fit(f"{n:>3}. [{regime}] {g['spec']}: {both_sides(g, source, target)} ({_count(g['count'], 'case')})")
                for n, (regime, g) in enumerate(first, 1)]
    for regime, rows in found.items():
        if regime == "unsupported" and not verbose:
            continue
        out += ["", f"== {regime} ({_count(cases[regime], 'case')})"]
        for g in rows:
            seen = f"{_count(g['count'], 'case')}; {', '.join(g['kinds'])}; {', '.join(g['dtypes'])}; " \
                   f"{', '.join(g['modes'])}"
            if not verbose:
                out.append(_fit(f"  {g['spec']} ({seen}): {both_sides(g, source, target)}"))
                continue
            out.append(f"{g['spec']}  ({seen})")
            for name, side in ((source, g["source"]), (target, g["target"])):
                out.append(f"  {name}: {_described(side)}")
            rerun = g["target"]["rerun"] or g["source"]["rerun"]
            if rerun:
                out.append(f"  run again: {rerun}")
    return out


def ranked(found: dict) -> list:
    """(regime, group) of every group but the unsupported, most urgent first: by URGENCY of its
    regime, then whether a model calls its ops (what users run), then the size of its error (ulp,
    else absolute), then its number of cases."""
    rows = [(regime, g) for regime, groups in found.items() if regime in URGENCY for g in groups]
    return sorted(rows, key=lambda rg: (URGENCY.index(rg[0]), not rg[1]["used"], -size(rg[1]), -rg[1]["count"]))


def size(group: dict) -> float:
    """A group's error, for ranking: the target's ulp, else its max abs error, else the source's;
    an infinite or NaN error counts as the largest, none as 0."""
    side = group["target"] if group["target"]["ulp"] or group["target"]["max_abs_err"] else group["source"]
    error = side["ulp"] if isinstance(side["ulp"], (int, float)) else side["max_abs_err"]
    if not isinstance(error, (int, float)):
        return 0.0
    return float(error) if math.isfinite(error) else math.inf


def both_sides(group: dict, source: str, target: str) -> str:
    """Both sides in a few words, what the port meets first: the target's status, its error's
    size and a documented note's or an error's start; then the source's (a pass is only that)."""
    def short(side):
        if side["status"] == "pass":
            return "pass"
        size = "" if side["ulp"] is None else f" {side['ulp']:.3g} ulp"
        size = size or ("" if side["max_abs_err"] is None else f" err {side['max_abs_err']:.3g}")
        what = side["note"] if side["status"] == "documented" else side["message"]
        return f"{side['status']}{size}" + (f": {what}" if what else "")
    return f"{target} {short(group['target'])} | {source} {short(group['source'])}"


def _fit(line: str) -> str:
    return line if len(line) <= WIDTH else line[:WIDTH - 3] + "..."


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def first_pair(records: list) -> tuple:
    """The page's port view opens on torch -> jax where both ran, else on the first two adapters
    the records name (the reference last: it is the oracle's NumPy, rarely a port's end)."""
    ran = sorted({str(r.get("adapter")) for r in records}, key=lambda a: (a == "reference", a))
    source = "torch" if "torch" in ran else ran[0] if ran else ""
    others = [a for a in ran if a != source]
    return source, "jax" if "jax" in others else others[0] if others else source


def page_data(records: list) -> dict:
    """What the page's port view needs, compact: every case that some adapter did not pass, with
    each adapter's [status, note index, max abs err, ulp] on it; the page pairs any two adapters from it
    (report.js) as `port` does here. Strings that repeat (specs, notes) are listed once, and one
    rerun command per spec, adapter, status and note (a group's, as the terminal shows it); per
    model, the specs (as indices) and dtypes of its port (models); the urgency of the regimes and
    the specs whose ops a model calls, which rank the view's first groups (ranked). The records
    are the standing ones (build.py takes them so)."""
    specs, notes, cases, reruns = {}, {}, {}, {}
    for r in records:
        if r.get("kind") == "benchmark":
            continue
        cases.setdefault(case_key(r), []).append(r)
    out = []
    for key, rows in sorted(cases.items(), key=lambda kv: str(kv[0])):
        if len(rows) < 2 or all(r["status"] == "pass" for r in rows):
            continue
        sides = {}
        for r in rows:
            d = r.get("difference") or {}
            note = -1 if r["status"] != "documented" else notes.setdefault(
                (regime_of(r), str(d.get("note") or ""), str(d.get("source") or "")), len(notes))
            spec = specs.setdefault(str(key[0]), len(specs))
            sides[str(r.get("adapter"))] = [r["status"], note, _rounded(r.get("max_abs_err")), _rounded(r.get("ulp"))]
            if r.get("rerun"):
                reruns.setdefault(f"{spec} {r.get('adapter')} {r['status']} {note}", r["rerun"])
        out.append([specs[str(key[0])], *map(str, key[1:]), sides])
    scopes = {model: {"specs": [specs[s] for s in met if s in specs], "dtypes": dtypes}
              for model, (met, dtypes) in models(records).items()}
    used = model_ops(records)
    return {"regimes": list(ORDER), "urgency": list(URGENCY), "specs": list(specs), "notes": [list(n) for n in notes],
            "cases": out, "reruns": reruns, "models": scopes,
            "used": sorted({specs[str(r.get("spec"))] for r in records
                            if str(r.get("spec")) in specs and set(r.get("ops") or ()) & used})}


def _rounded(error):
    """An error for the page: 3 significant digits (inf and NaN as text: JSON has neither)."""
    if not isinstance(error, (int, float)) or isinstance(error, bool):
        return None
    return float(f"{error:.3g}") if math.isfinite(error) else str(error)


def _described(side: dict) -> str:
    numbers = "" if side["max_abs_err"] is None else f" [max abs err {side['max_abs_err']:.3g}" + (
        "]" if side["ulp"] is None else f", {side['ulp']:.3g} ulp]")
    if side["status"] == "documented":
        return f"documented: {side['note']}{numbers} (source: {side['source']})"
    return f"{side['status']}{numbers}" + (f": {side['message']}" if side["message"] else "")

"""Failures and documented differences, grouped so that one cause reads as one entry.

A hundred generated failures of one bug share a spec, an adapter and a kind of message (the
message with its numbers and recorded values taken out): one group, shown by its smallest failing
example. A documented difference observed in several dtypes, cases and modes is one row per
(spec, adapter, the behaviour documented).
"""
import re

from reports.records import STATUSES, column, mode_of

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
VALUES = re.compile(r"\[[^\[\]]*\]|\([^()]*\)")  # a recorded list, shape or parenthesised aside
SIGNATURE_LENGTH = 160
MEMBERS_SHOWN = 40  # a group lists this many of its members, then counts the rest


def signature(message) -> str:
    """The kind of a message: its first line with numbers as # and bracketed values as [...],
    so that the same failure with other values or shapes has the same signature."""
    lines = str(message or "").strip().splitlines()
    kind = NUMBER.sub("#", lines[0] if lines else "")
    for _ in range(3):  # nested brackets, innermost first
        kind = VALUES.sub(lambda m: "[...]" if m.group(0).startswith("[") else "(...)", kind)
    return kind[:SIGNATURE_LENGTH]


def failure_groups(failures: list) -> list:
    """Failing and suspect records grouped by (status, spec, adapter, signature of the message),
    worst status first, then by size. Each group: its key fields, its records, the one shown
    (the smallest example: fewest input elements, the shrunk case of a generated failure) and
    the members as (case, kind, mode, device, dtype, machine) rows."""
    grouped = {}
    for r in failures:
        key = (r["status"], str(r.get("spec")), str(r.get("adapter")), signature(r.get("message")))
        grouped.setdefault(key, []).append(r)
    out = []
    for (status, spec, adapter, kind), records in grouped.items():
        shown = min(records, key=_example_size)
        out.append({"status": status, "spec": spec, "adapter": adapter, "signature": kind, "shown": shown,
                    "count": len(records), "modes": sorted({mode_of(r) for r in records}),
                    "dtypes": sorted({str(r.get("dtype")) for r in records}),
                    "members": [_member(r) for r in records[:MEMBERS_SHOWN]]})
    out.sort(key=lambda g: (STATUSES.index(g["status"]), -g["count"], g["spec"], g["adapter"]))
    return out


def _example_size(record) -> tuple:
    """Fewest input elements first; a record without inputs last."""
    example = record.get("example") or {}
    sizes = [_elements(d.get("shape")) for d in example.values() if isinstance(d, dict)]
    return (0, sum(sizes)) if sizes else (1, 0)


def _elements(shape) -> int:
    count = 1
    for n in shape if isinstance(shape, list) else ():
        count *= n if isinstance(n, int) else 1
    return count


def _member(record) -> tuple:
    return tuple(str(record.get(k) or "") for k in ("case", "kind")) + (mode_of(record),) + tuple(
        str(record.get(k) or "") for k in ("device", "dtype", "machine"))


def difference_groups(documented: list) -> list:
    """Documented records grouped by (spec, adapter, the difference's note): per group the
    columns (adapter x mode), kinds, cases, dtypes and devices it was seen in, the largest error
    against the reference, the observed message of its first record (without the source, which
    has a column of its own) and the source."""
    grouped = {}
    for r in documented:
        d = r.get("difference") or {}
        key = (str(r.get("spec")), str(r.get("adapter")), str(d.get("note") or r.get("message")))
        grouped.setdefault(key, []).append(r)
    out = []
    for (spec, adapter, note), records in sorted(grouped.items()):
        first = records[0]
        source = str((first.get("difference") or {}).get("source") or "")
        errors = [r["max_abs_err"] for r in records if isinstance(r.get("max_abs_err"), (int, float))]
        out.append({"spec": spec, "adapter": adapter, "note": note, "source": source, "count": len(records),
                    "columns": _distinct(records, column), "kinds": _distinct(records, lambda r: r.get("kind")),
                    "cases": _distinct(records, lambda r: r.get("case")),
                    "dtypes": _distinct(records, lambda r: r.get("dtype")),
                    "devices": _distinct(records, lambda r: r.get("device")),
                    "max_abs_err": max(errors) if errors else None,
                    "observed": str(first.get("message") or "").replace(f"; source: {source}", "")})
    return out


def _distinct(records, field) -> list:
    return sorted({str(field(r)) for r in records})


def widespread(rows: list, least: int = 5) -> list:
    """The documented behaviours seen in `least` or more specs, most specs first, each with its
    adapter, note, source, specs and outcomes: one default (jax-32's float32) would fill a table
    with one note 140 times, and reads as one line with its specs folded under it."""
    seen = {}
    for g in rows:
        seen.setdefault((g["adapter"], g["note"]), []).append(g)
    found = [{"adapter": adapter, "note": note, "source": found[0]["source"],
              "specs": sorted({g["spec"] for g in found}), "count": sum(g["count"] for g in found)}
             for (adapter, note), found in seen.items() if len({g["spec"] for g in found}) >= least]
    return sorted(found, key=lambda w: (-len(w["specs"]), w["adapter"]))

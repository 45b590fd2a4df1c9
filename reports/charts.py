"""Inline SVG charts: the page carries its pictures, with no script library and no network.
(The per-spec agreement heatmaps are drawn by report.js from the page's data, when a spec is opened.)

Every string that reaches a chart (adapter names, spec ids, commits) is escaped here, because
the SVG is inserted into the page as markup.
"""
import math

from markupsafe import Markup, escape

MODE_COLOURS = {"eager": "#4c78a8", "compiled": "#f58518", "mixed": "#54a24b", "exported": "#b279a2"}
LINE_COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#ff9da6", "#9d755d")


def bars(rows: list, title: str) -> Markup:
    """Horizontal bars of median seconds, one per (label, mode), each with its 95% interval as an
    error bar where it has one; log scale when they span more than a factor of 10.
    rows: [(label, mode, median_s, unstable, [low_s, high_s] or None)]."""
    if not rows:
        return Markup("")
    values = [v for r in rows for v in (r[2], *(r[4] or ())) if v and v > 0]
    lo, hi = min(values), max(values)
    log = hi / lo > 10
    bar_h, left, plot = 18, 170, 360
    height = 24 + bar_h * len(rows)
    parts = [f'<svg class="bars" role="img" width="{left + plot + 90}" height="{height}">',
             f"<title>{escape(title)} (median time{', log scale' if log else ''}; shorter is faster)</title>"]
    for i, (label, mode, median, unstable, interval) in enumerate(rows):
        y = 4 + i * bar_h
        fraction = _scale(median, lo, hi, log)
        whisker, end = "", fraction  # the label goes past the bar and its whisker
        if interval and interval[0] > 0:
            x0, x1 = (left + plot * _scale(v, lo, hi, log) for v in interval)
            end = max(fraction, (x1 - left) / plot)
            whisker = (f'<path d="M{x0:.1f} {y + 9}H{x1:.1f}M{x0:.1f} {y + 5}V{y + 13}M{x1:.1f} {y + 5}V{y + 13}" '
                       f'class="interval"><title>95% interval {escape(_time(interval[0]))} to '
                       f"{escape(_time(interval[1]))}</title></path>")
        colour = MODE_COLOURS.get(mode, "#888")
        flag = " unstable" if unstable else ""
        faded = ' fill-opacity="0.5"' if unstable else ""
        parts.append(f'<g><title>{escape(f"{label} {mode}: {_time(median)}{flag}")}</title>'
                     f'<text x="{left - 6}" y="{y + 13}" text-anchor="end" class="label">'
                     f"{escape(_short(label, 18))} {escape(mode)}</text>"
                     f'<rect x="{left}" y="{y + 2}" width="{max(plot * fraction, 1):.1f}" height="{bar_h - 4}" '
                     f'fill="{colour}"{faded}/>{whisker}'
                     f'<text x="{left + plot * end + 4:.1f}" y="{y + 13}" class="label">'
                     f'{escape(_time(median))}{"*" if unstable else ""}</text></g>')
    parts.append(f'<text x="{left}" y="{height - 4}" class="axis">{"log scale" if log else "linear scale"}; '
                 "* unstable (relative IQR over 10%); whiskers: the median's 95% interval</text></svg>")
    return Markup("".join(parts))


def history(series: dict, labels: list, title: str) -> Markup:
    """Median seconds across runs (x: runs in time order, labelled by commit), one line per
    series name; log scale when the values span more than a factor of 10."""
    return lines(series, labels, f"{title}: median time per run", _time)


def lines(series: dict, labels: list, title: str, fmt=None, rule: float | None = None,
          log: bool | None = None, colours: dict | None = None) -> Markup:
    """One line per series name over the x labels (None: no point there; on a log scale, no point
    at zero either); log scale when asked, or by default when the values are positive and span more
    than a factor of 10; `rule`, a dashed level (a bound); `colours`, a series' colour by name
    (default: the palette in name order)."""
    fmt = fmt or (lambda v: f"{v:.3g}")

    def drawn(v):
        return v is not None and (v > 0 or not log)

    values = [v for points in series.values() for v in points if drawn(v)] + ([rule] if rule else [])
    if not values or len(labels) < 2:
        return Markup("")
    lo, hi = min(values), max(values)
    log = lo > 0 and hi / lo > 10 if log is None else log
    left, top, plot_h = 70, 10, 140
    plot_w = max(420, 22 * len(labels))
    step = plot_w / (len(labels) - 1)
    slanted = max(len(str(label)) for label in labels) > 10
    bottom = top + plot_h + (110 if slanted else 30)

    def y(v):
        return top + plot_h * (1 - _scale(v, lo, hi, log))

    parts = [f'<svg class="history" role="img" width="{left + plot_w + 170}" height="{bottom}">',
             f"<title>{escape(title)}{', log scale' if log else ''}</title>",
             f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" class="grid"/>',
             f'<text x="{left - 6}" y="{top + 8}" text-anchor="end" class="axis">{escape(fmt(hi))}</text>',
             f'<text x="{left - 6}" y="{top + plot_h}" text-anchor="end" class="axis">{escape(fmt(lo))}</text>']
    if rule:
        parts.append(f'<line x1="{left}" y1="{y(rule):.1f}" x2="{left + plot_w}" y2="{y(rule):.1f}" class="grid" '
                     f'stroke-dasharray="4 3"><title>{escape(fmt(rule))}</title></line>')
    for i, label in enumerate(labels):
        x, ty = left + i * step, top + plot_h + 14
        turn = f' transform="rotate(-40 {x:.1f} {ty})" text-anchor="end"' if slanted else ' text-anchor="middle"'
        parts.append(f'<text x="{x:.1f}" y="{ty}"{turn} class="axis"><title>{escape(str(label))}</title>'
                     f"{escape(_short(label, 24 if slanted else 10))}</text>")
    for k, (name, points) in enumerate(sorted(series.items())):
        colour = (colours or {}).get(name) or LINE_COLOURS[k % len(LINE_COLOURS)]
        xy = [(left + i * step, y(v), v) for i, v in enumerate(points) if drawn(v)]
        parts.append(f'<g><title>{escape(name)}</title><polyline fill="none" stroke="{colour}" stroke-width="2" '
                     f'points="{" ".join(f"{x:.1f},{py:.1f}" for x, py, _ in xy)}"/>')
        parts += [f'<circle cx="{x:.1f}" cy="{py:.1f}" r="3" fill="{colour}"><title>{escape(name)}: '
                  f"{escape(fmt(v))}</title></circle>" for x, py, v in xy]
        parts.append(f'<text x="{left + plot_w + 10}" y="{top + 12 + 14 * k}" style="fill: {colour}" class="label">'
                     f"{escape(_short(name, 26))}</text></g>")
    parts.append("</svg>")
    return Markup("".join(parts))


def _scale(value, lo, hi, log) -> float:
    """value's position in [lo, hi] as 0.05..1 (a bar of the smallest value still shows)."""
    if hi == lo or hi <= 0:
        return 1.0 if value else 0.02
    span = (math.log(value / lo) / math.log(hi / lo)) if log else (value - lo) / (hi - lo)
    return 0.05 + 0.95 * span if log else max(value / hi, 0.02)


def _time(seconds: float) -> str:
    if not seconds:
        return "?"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def _short(text: str, limit: int = 12) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit - 1] + "…"

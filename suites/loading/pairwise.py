"""Pairwise option grids: a spec's `pairwise: {param: [values]}` becomes one spec per row of a
covering array in which every value of each param meets every value of each other param at least
once. Bugs that hang on options mostly hang on one option or on two together (two pooling flags,
a stride with a dilation), and a covering array reaches every such pair in far fewer programs than
the full product (`expand`): five two-valued options in 7 rows, not 32; each row is a program that
every adapter, mode and dtype compiles, so the row count is what the grid costs.
"""
import itertools


def covering(grid: dict) -> list[dict]:
    """Rows {param: value} that cover every pair of two params' values, made greedily and
    deterministically (AETG's way): a row starts from the first pair not yet covered and takes,
    param by param in the grid's order, the value that covers the most pairs still uncovered with
    the values chosen so far (the first of the best); rows until no pair is left. A grid of one
    param is its values; of two, their product."""
    names = list(grid)
    sizes = [len(grid[name]) for name in names]
    if len(names) == 1:
        return [{names[0]: value} for value in grid[names[0]]]
    uncovered = {(m, a, n, b) for m, n in itertools.combinations(range(len(names)), 2)
                 for a in range(sizes[m]) for b in range(sizes[n])}
    rows = []
    while uncovered:
        m, a, n, b = min(uncovered)
        row = {m: a, n: b}
        for k in range(len(names)):
            if k not in row:
                row[k] = max(range(sizes[k]), key=lambda v: (_newly_covered(row, k, v, uncovered), -v))
        uncovered -= _pairs(row)
        rows.append(row)
    return [{names[k]: grid[names[k]][row[k]] for k in range(len(names))} for row in rows]


def _pairs(row: dict) -> set:
    """The pairs (param, value index, later param, value index) that a full row covers."""
    return {(m, row[m], n, row[n]) for m, n in itertools.combinations(sorted(row), 2)}


def _newly_covered(row: dict, k: int, v: int, uncovered: set) -> int:
    """How many uncovered pairs value v of param k makes with the values the row has so far."""
    return sum(((j, row[j], k, v) if j < k else (k, v, j, row[j])) in uncovered for j in row)

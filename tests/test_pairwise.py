"""The covering arrays of pairwise option grids (suites/loading/pairwise.py): every pair of two
params' values meets in some row, by mathematics checked over random grids."""
import itertools
import math

from hypothesis import given
from hypothesis import strategies as st

from suites.loading.pairwise import covering

grids = st.lists(st.integers(1, 4), min_size=1, max_size=6).map(
    lambda sizes: {f"p{i}": [f"v{i}.{j}" for j in range(n)] for i, n in enumerate(sizes)})


@given(grids)
def test_every_pair_of_values_meets_in_some_row(grid):
    rows = covering(grid)
    assert all(set(row) == set(grid) and all(row[k] in grid[k] for k in grid) for row in rows)
    for a, b in itertools.combinations(grid, 2):
        assert {(row[a], row[b]) for row in rows} == set(itertools.product(grid[a], grid[b]))
    assert all({row[k] for row in rows} == set(grid[k]) for k in grid)  # one param's values too


@given(grids)
def test_a_covering_array_is_no_larger_than_the_product_and_smaller_past_two_options(grid):
    rows, product = covering(grid), math.prod(map(len, grid.values()))
    assert len(rows) <= product and len({tuple(r.values()) for r in rows}) == len(rows)
    if sum(len(values) >= 2 for values in grid.values()) >= 3:
        assert len(rows) < product
    assert covering(grid) == rows  # deterministic: the same grid makes the same specs in every process


def test_five_two_valued_options_take_seven_programs_not_thirty_two():
    assert len(covering({name: [False, True] for name in "abcde"})) == 7

"""What a sum-product error bound carries through an op (suites/judging/compare.py explains the
bound and applies it; suites/judging/bound_rules.py holds the rules), and the float64 reference
the rules compute values and magnitudes with."""
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from adapters.reference import ReferenceAdapter
from suites.judging.running_error import Arithmetic

REFERENCE = ReferenceAdapter()


@dataclass(frozen=True)
class Bound:
    value: np.ndarray
    magnitude: np.ndarray
    n: int
    # a running error analysis (the optimizers'): the absolute error bound for an Arithmetic, in
    # place of magnitude and roundings (the float64 reference, computed by the same operations,
    # makes an error of its own in float64's)
    running: Callable[[Arithmetic], np.ndarray] | None = None

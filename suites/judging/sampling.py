"""Judging a sample against its law: what an initializer's result must be (adapters/reference/initializers.py).

A sample has no right value, so the judge asks what every draw from the law shares:

- its support, exactly: no element outside [low, high] beyond the rounding of the dtype (4 ulp
  of the bound: a framework computes the bound and scales its draws in the dtype);
- its goodness of fit: the one-sample Kolmogorov-Smirnov test of the elements against the law's
  CDF (scipy.stats.kstest, exact p-values up to 10,000 elements);
- its moments about the law's mean: the mean and the variance from 1,000 elements, the fourth
  moment (a truncation's mark: a normal's is 3 sigma^4, the variance-keeping normal truncated at
  two standard deviations' 2.06 sigma^4) from 10,000; the k-th's z-score is (m_k - mu_k) /
  sqrt((mu_2k - mu_k^2) / n), the law's central moments by integration (scipy's expect);
- a law that is not of independent draws has its own checks: a constant exactly; an orthogonal
  matrix's orthonormal rows (or columns) within the error bound of a Householder QR in the dtype,
  gamma(rows * cols) (Higham, Accuracy and Stability, Theorem 19.4), and its Haar distribution
  through two statistics whose exact variances follow from E[Q_ij Q_kl] = d_ik d_jl / n: the sum
  of the elements (variance rows) and the trace of the leading square block (rows / cols); without
  the sign correction of the QR, the trace is about -sqrt(2 n / pi), 13 standard errors for
  n = 256.
- a law of stacked blocks (a recurrent layer's gates) has each block of rows judged by its own;
- the parts of a result (a layer's weight and bias, a recurrent layer's two biases) and the blocks
  of a stack are independent draws: each against the ones before it, its first elements neither
  the same draws nor correlated (the z-score sqrt(k) r of their correlation, at ALPHA).

Every statistical test rejects at ALPHA, its false-alarm rate (the moments' from the normal
approximation of their z-scores, within a factor of 3 at these sizes by the Edgeworth
expansion's skewness term), so an item's four tests raise a false alarm with probability about
4e-6 (Bonferroni). The draws are seeded, so a false alarm repeats: it is that seed's, and another
seed (a spec's `params`) shows it for what it is.
"""
import functools
import math

import numpy as np
from scipy import stats

from adapters.reference.initializers import Constant, Orthogonal, Stacked
from suites.judging import compare
from suites.judging.compare import Comparison

ALPHA = 1e-6  # each statistical test's false-alarm rate
# The central moments tested (about the law's mean), each from the sample size where its z-score
# is close enough to normal: the fourth's summands (x - mean)^4 are skewed (10 for a normal law),
# which the central limit theorem takes 10,000 of to tame at 4.9 standard errors
MOMENTS = ((1, "mean", 1000), (2, "variance", 1000), (4, "fourth moment", 10000))
SUPPORT_ULPS = 4


def judged(law, actual, dtype: str, actual_dtype: str | None) -> Comparison:
    """The sample `actual` of `law` in `dtype`: shape, dtype, finiteness, then the law's checks."""
    shaped = compare.layout(np.empty(law.shape), actual, dtype, actual_dtype)
    if not shaped.ok:
        return shaped
    x = np.asarray(actual, dtype=np.float64)
    if not np.isfinite(x).all():
        return _failed(law, f"a non-finite element at {_first(~np.isfinite(x))}")
    if isinstance(law, Stacked):
        return _stacked(law, x, dtype)
    if isinstance(law, Constant):
        return _constant(law, x)
    if isinstance(law, Orthogonal):
        return _orthogonal(law, x, dtype)
    return _draws(law, x.ravel(), dtype)


def judged_parts(laws, parts, dtype: str, actual_dtype: str | None, names=()) -> Comparison:
    """Each part of a result against its law (a layer's weight and bias), named by `names`."""
    if len(parts) != len(laws):
        return Comparison(False, f"{len(parts)} parts, expected {len(laws)} ({', '.join(map(str, names))})")
    return _in_turn(zip(names or [None] * len(laws), laws, parts), dtype, actual_dtype)


def _in_turn(pieces, dtype: str, actual_dtype: str | None) -> Comparison:
    """Each (label, law, sample) judged in turn: the first that fails, else every reason, labelled;
    and each against the ones before it for independence (_dependent): two parameters handed one
    sample pass every check of their own."""
    seen, samples = [], []
    for label, law, sample in pieces:
        result = judged(law, sample, dtype, actual_dtype)
        said = f"{label}: {result.reason}" if label else result.reason
        if not result.ok:
            return Comparison(False, said)
        x = np.asarray(sample, dtype=np.float64).ravel()
        why = next((w for earlier, y in samples if (w := _dependent(earlier, y, label or "this part", x))), None)
        if why:
            return Comparison(False, why)
        seen.append(said)
        samples.append((label or "the part before", x))
    return Comparison(True, "; ".join(seen))


def across_seeds(laws, first: list, again: list, other: list, dtype: str, actual_dtype: str | None,
                 names=()) -> Comparison:
    """A seeded draw judged across calls: `again` (the same seed) must repeat `first` bit for bit,
    as seeding a generator promises; `other` (another seed) must hold to the laws (None: not
    judged, a documented law is a behaviour's) and be independent of `first`, part by part (a
    generator that ignores its seed, or a seed folded to the same stream, hands every call one
    sample)."""
    labels = names or [f"part {i}" for i in range(len(first))]
    for label, a, b in zip(labels, first, again):
        if not np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True):
            differ = int(np.sum(np.asarray(a) != np.asarray(b)))
            return Comparison(False, f"{label}: the same seed drew another sample on a second call ({differ} of "
                                     f"{np.size(a)} elements differ)")
    result = judged_parts(laws, other, dtype, actual_dtype, names) if laws is not None else Comparison(True)
    if not result.ok:
        return Comparison(False, f"with another seed: {result.reason}")
    for label, a, b in zip(labels, first, other):
        why = _dependent(f"{label} (seed s)", np.asarray(a, np.float64).ravel(), f"{label} (seed s + 1)",
                         np.asarray(b, np.float64).ravel())
        if why:
            return Comparison(False, why)
    return Comparison(True, "a second call with the seed repeats the sample; another seed draws an independent one")


def _dependent(label_a: str, a: np.ndarray, label_b: str, b: np.ndarray) -> str | None:
    """Why two samples are not independent draws, or None: their first k elements (k the shorter
    one's size) equal, or correlated beyond ALPHA (sqrt(k) r is about normal for independent
    draws of finite variance, whatever their laws). A part that is no draw has nothing to be
    independent of: a constant one, or one of few values (Keras' unit forget bias, blocks of
    zeros and ones), where every law judged here is continuous and draws differ."""
    k = min(a.size, b.size)
    x, y = a[:k], b[:k]
    if k < 2 or np.unique(x).size <= k // 2 or np.unique(y).size <= k // 2:
        return None
    if np.array_equal(x, y):
        return f"{label_b} repeats {label_a}: their first {k} elements are the same draws"
    r = float(np.corrcoef(x, y)[0, 1])
    p = _p(r * math.sqrt(k))
    if p < ALPHA:
        return f"{label_a} and {label_b} are not independent draws: r={r:.3g} over their first {k} elements, " \
               f"p={p:.3g} < {ALPHA:g}"
    return None


def _draws(law, x, dtype) -> Comparison:
    low, high = law.dist.support()
    outside = (x < low - SUPPORT_ULPS * compare.ulp(low, dtype)) | (x > high + SUPPORT_ULPS * compare.ulp(high, dtype))
    if outside.any():
        i = int(np.argmax(outside))
        return _failed(law, f"element {i} is {x[i]!r}, outside the support [{low:.6g}, {high:.6g}] "
                            f"({int(outside.sum())} of {x.size} are)")
    seen = statistics(law, x)
    summary = ", ".join(f"{what}={value:.3g}" for what, value, _ in seen)
    for what, value, p in seen:
        if p < ALPHA:
            return _failed(law, f"{what}={value:.3g}, p={p:.3g} < {ALPHA:g} (sample mean {x.mean():.6g}, std "
                                f"{x.std():.6g}; the law's {law.dist.mean():.6g}, {law.dist.std():.6g}); {summary}")
    return Comparison(True, f"a sample of {law.name}: {x.size} elements within its support; {summary}")


def statistics(law, x) -> list:
    """(what, value, p-value) of each statistical test of the draws x from the law: the
    Kolmogorov-Smirnov test, then the z-score of each central moment the sample is large enough for."""
    fit = stats.kstest(x, law.dist.cdf)
    out = [("Kolmogorov-Smirnov D", float(fit.statistic), float(fit.pvalue))]
    centre = float(law.dist.mean())
    for k, what, smallest in MOMENTS:
        if x.size >= smallest:
            mu_k, mu_2k = (central_moment(law, j) for j in (k, 2 * k))
            z = (np.mean((x - centre) ** k) - mu_k) / math.sqrt((mu_2k - mu_k ** 2) / x.size)
            out.append((f"{what} z", float(z), _p(z)))
    return out


@functools.lru_cache(maxsize=64)
def central_moment(law, k: int) -> float:
    """E[(X - E[X])^k] of the law, by integration."""
    centre = float(law.dist.mean())
    return float(law.dist.expect(lambda v: (v - centre) ** k))


def _stacked(law, x, dtype) -> Comparison:
    """Each block of rows against its own law."""
    ends = np.cumsum([block.shape[0] for block in law.blocks])
    return _in_turn(((f"rows {end - block.shape[0]}:{end}", block, x[end - block.shape[0]:end])
                     for block, end in zip(law.blocks, ends)), dtype, None)


def _constant(law, x) -> Comparison:
    differ = x != law.value
    if differ.any():
        return _failed(law, f"element {_first(differ)} is {x[differ][0]!r}")
    return Comparison(True, f"every one of {x.size} elements is {law.value:g}")


def _orthogonal(law, x, dtype) -> Comparison:
    rows, cols = law.matrix_shape
    q = x.reshape(rows, cols) / law.gain
    gram = q @ q.T if rows <= cols else q.T @ q
    allowed = compare.gamma(rows * cols, dtype)
    error = float(np.abs(gram - np.eye(len(gram))).max())
    if error > allowed:
        return _failed(law, f"its {'rows' if rows <= cols else 'columns'} are not orthonormal: Q Q^T - I reaches "
                            f"{error:.3g}, beyond QR's bound {allowed:.3g}")
    short, long = min(rows, cols), max(rows, cols)
    seen = []
    for what, value, variance in (("sum of elements", q.sum(), short),
                                  ("trace", np.trace(q[:short, :short]), short / long)):
        z = value / math.sqrt(variance)
        seen.append(f"{what} z={z:.3g}")
        if _p(z) < ALPHA:
            return _failed(law, f"{what} z={z:.3g}, p={_p(z):.3g} < {ALPHA:g} (a Haar matrix's {what} is 0 on "
                                f"average)")
    return Comparison(True, f"{law.name} [{rows}, {cols}]: orthonormal within {error:.3g} (bound {allowed:.3g}); "
                      + ", ".join(seen))


def _p(z) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def _first(mask) -> tuple:
    return tuple(int(i) for i in np.argwhere(mask)[0])


def _failed(law, why) -> Comparison:
    return Comparison(False, f"not a sample of {law.name}: {why}")

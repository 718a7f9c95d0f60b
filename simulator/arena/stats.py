"""Statistics over independent blocks: the ratio estimator, Student's t, the luck control variate.

A block (all its duplicate permutations together) is one sample; the hands inside a block are
not independent (same cards, same bots' memories), blocks are.

**Raw mean.** Block ``b`` has ``n_b`` hands of the player and winnings ``y_b``. The mean per
hand is the ratio estimator ``sum(y) / sum(n)``. Its standard error is the linearised one over
blocks: with residuals ``r_b = y_b - mean * n_b``,
``stderr = sqrt(B / (B - 1) * sum(r_b**2)) / sum(n)``, which is the plain standard error of
block means when blocks are equally long. The 95% interval is ``mean +- t * stderr`` with
Student's t quantile at ``B - 1`` degrees of freedom, for every block count ``B >= 2``.

**Luck-adjusted mean (a cross-fitted control variate).** ``l_b``, a block's luck in chips
(:mod:`simulator.arena.luck`), has expectation exactly zero, hand by hand. For any fixed
coefficient ``c`` the adjusted totals ``z_b = y_b - c * l_b`` have the expectations of the
``y_b``, and the ratio estimator over them has the least variance at
``c = sum(u * v) / sum(v * v)``, where ``u_b = y_b - (sum(y) / sum(n)) * n_b`` and
``v_b = l_b - (sum(l) / sum(n)) * n_b`` are the ratio residuals of the winnings and of the
luck (with equally long blocks: the classical control-variate coefficient, sample covariance
over sample variance). Leaving out the luck's centring (using its known mean of zero) would
let the raw mean, which holds the luck's sample mean, pull the coefficient toward zero by
about ``1 / B``.

That coefficient must be estimated, and one fitted on the same block correlates with its luck,
so ``E[c_hat * l_b] != 0``: a naively fitted control variate is biased (by 0.25 in the test's
example, where the result depends on the luck's square). Cross-fitting removes it: block ``b``
is adjusted with ``c_{-b}``, fitted on the other blocks only, which is independent of block
``b``, so ``E[c_{-b} * l_b] = E[c_{-b}] * E[l_b] = 0`` exactly. The adjusted mean is
``sum(y_b - c_{-b} * l_b) / sum(n)``.

What "unbiased" means here: the adjustment's numerator ``sum(c_{-b} * l_b)`` has expectation
zero whatever the block lengths, so the adjusted total estimates the same expected total as
the raw one. When block lengths are fixed by the config (stacks reset each hand, so a block
plays its deals and each player every hand; a shorter last block changes nothing), the
denominator is a constant and both means are exactly unbiased for the mean per hand. When
lengths are random (carry-over stacks end a block when one player is left), both are ratio
estimators: consistent, with a bias of order ``1 / B``, and the adjustment does not change
that order.

**Its interval** is the ratio estimator's over the adjusted totals ``z_b``. Two things are
fitted from the blocks (the mean and the coefficient), so, as in a regression with one slope,
the residual variance is divided by ``B - 2`` instead of ``B - 1`` and the quantile is t at
``B - 2`` degrees of freedom. With ``B - 1`` instead, synthetic blocks whose luck explains much
of the result covered the truth 91-94% of the time at 4 to 12 blocks; with ``B - 2`` they cover
95-97% (the coverage test of ``tests/test_stats.py`` states the tolerance). Under 3 blocks a
fold has one block, whose residuals are zero by construction, so nothing can be fitted: the
adjusted figures are the raw ones, with coefficient 0. At 3 blocks t has one degree of freedom
(12.7), and the adjusted interval is wide: honest, and flagged as not narrowing.

``variance_reduction = 1 - (adjusted stderr / raw stderr)**2`` is the share of the raw
variance the adjustment removed, negative when it widened the interval (possible with few
blocks, or when luck explains little). ``coefficient`` is the one fitted on all blocks,
reported for reading; the blocks were adjusted with their out-of-fold ones.

>>> s = ratio_stats(np.array([10.0, -2.0, 4.0]), np.array([10, 10, 10]))
>>> s.hands, round(s.mean, 3), round(s.stderr, 3), [round(x, 3) for x in s.ci95]
(30, 0.4, 0.346, [-1.09, 1.89])
>>> a = luck_adjusted(np.array([10.0, -2.0, 4.0, 6.0]), np.array([9.0, -3.0, 1.0, 4.0]),
...                   np.array([10, 10, 10, 10]))
>>> round(a.coefficient, 3), round(a.stat.mean, 3), a.variance_reduction > 0
(0.971, 0.123, True)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import stdtrit  # t's inverse CDF; scipy.stats would cost 2 s and 50 MB

MIN_FIT_BLOCKS = 3  # a fold needs two blocks to fit a coefficient on their residuals
_FLOOR = 1e-12  # a control's residual energy below this share of its energy is rounding


@functools.lru_cache(maxsize=1024)  # a call into scipy costs more than a run's few lookups
def t975(df: float) -> float:
    """Student's t 0.975 quantile at ``df`` degrees of freedom (two-sided 95%); ``df`` may be
    fractional (Welch-Satterthwaite).

    >>> round(t975(4), 6), round(t975(29), 6), round(t975(10**6), 4)
    (2.776445, 2.04523, 1.96)
    """
    if df < 1:
        raise ValueError(f"a t quantile needs at least 1 degree of freedom, got {df}")
    return float(stdtrit(df, 0.975))


def quantile975(blocks: int) -> float:
    """The two-sided 95% quantile for an interval over ``blocks`` samples: t at blocks - 1.

    >>> quantile975(5) == t975(4)
    True
    """
    if blocks < 2:
        raise ValueError("an interval needs at least 2 blocks")
    return t975(blocks - 1)


@dataclass(frozen=True)
class Stat:
    """Mean per hand with its standard error and 95% interval (None with fewer than 2 blocks)."""

    hands: int
    mean: float | None
    stderr: float | None
    ci95: tuple[float, float] | None

    def as_dict(self, with_hands: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"hands": self.hands} if with_hands else {}
        out.update(mean=self.mean, stderr=self.stderr,
                   ci95=None if self.ci95 is None else list(self.ci95))
        return out


def ratio_stats(totals: np.ndarray, counts: np.ndarray, fitted: int = 0) -> Stat:
    """Mean of ``totals / counts`` pooled over blocks, with the ratio estimator's error.

    ``fitted`` coefficients estimated from the same blocks (a control variate's) each take a
    degree of freedom: the residual variance is divided by ``B - 1 - fitted`` and the quantile
    is t at ``B - 1 - fitted``; no interval without one left.
    """
    totals, counts = _floats(totals, counts)
    hands = int(counts.sum())
    if hands == 0:
        return Stat(0, None, None, None)
    mean = float(totals.sum() / hands)
    blocks = len(totals)
    df = blocks - 1 - fitted
    if df < 1:
        return Stat(hands, mean, None, None)
    resid = totals - mean * counts
    stderr = math.sqrt(blocks / df * float(np.dot(resid, resid))) / hands
    half = t975(df) * stderr
    return Stat(hands, mean, stderr, (mean - half, mean + half))


@dataclass(frozen=True)
class Adjusted:
    """A control-variate adjusted mean: its statistics, the coefficient and what it gained.

    ``coefficient`` is the one fitted on all blocks (each block was adjusted with the one
    fitted on the others); both it and ``variance_reduction`` are None without an interval,
    and ``variance_reduction`` is None too when the raw error is zero.
    """

    stat: Stat
    coefficient: float | None
    variance_reduction: float | None

    @property
    def narrowed(self) -> bool | None:
        """Whether the adjusted interval is narrower than the raw one (None: no interval)."""
        return None if self.variance_reduction is None else self.variance_reduction > 0

    def as_dict(self) -> dict[str, Any]:
        out = self.stat.as_dict(with_hands=False)
        out.update(coefficient=self.coefficient, variance_reduction=self.variance_reduction)
        return out


def regression_coefficient(totals: np.ndarray, controls: np.ndarray,
                           counts: np.ndarray) -> float:
    """``sum(u * v) / sum(v * v)``, ``u`` and ``v`` the ratio residuals of ``totals`` and
    ``controls``: the coefficient that minimises the adjusted ratio estimator's estimated
    variance. 0 without a usable control (all zero, or proportional to the counts).

    >>> regression_coefficient(np.array([3.0, 1.0]), np.array([1.0, -1.0]), np.array([1, 1]))
    1.0
    """
    y, lk, n = _floats(totals, controls, counts)
    hands = n.sum()
    if hands == 0:
        return 0.0
    u = y - y.sum() / hands * n
    v = lk - lk.sum() / hands * n
    energy = float(np.dot(v, v))
    return float(np.dot(u, v)) / energy if energy > _FLOOR * float(np.dot(lk, lk)) else 0.0


def cross_fitted_coefficients(totals: np.ndarray, controls: np.ndarray,
                              counts: np.ndarray) -> np.ndarray:
    """``c_{-b}`` of every block: :func:`regression_coefficient` of all the other blocks.

    From sums over all blocks minus the block's own terms, so it costs O(blocks);
    ``tests/test_stats.py`` checks it against the direct leave-one-out fit.
    """
    y, lk, n = _floats(totals, controls, counts)
    terms = (n, y, lk, y * lk, y * n, n * lk, n * n, lk * lk)
    hands, ys, ls, yl, yn, nl, nn, ll = (t.sum() - t for t in terms)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(hands > 0, ys / np.where(hands > 0, hands, 1.0), 0.0)
        d = np.where(hands > 0, ls / np.where(hands > 0, hands, 1.0), 0.0)
        # sum(u v) and sum(v v) over the other blocks, expanded into their sums
        uv = yl - d * yn - a * nl + a * d * nn
        vv = ll - 2 * d * nl + d * d * nn
        usable = (hands > 0) & (vv > _FLOOR * ll)
        return np.where(usable, uv / np.where(usable, vv, 1.0), 0.0)


def luck_adjusted(totals: np.ndarray, luck: np.ndarray, counts: np.ndarray) -> Adjusted:
    """The cross-fitted control-variate estimate of the mean, with luck as the control.

    Under 3 blocks no coefficient can be fitted out of fold: the raw figures, coefficient 0.
    """
    totals, luck, counts = _floats(totals, luck, counts)
    raw = ratio_stats(totals, counts)
    if len(totals) < MIN_FIT_BLOCKS:
        return Adjusted(raw, None if raw.stderr is None else 0.0,
                        None if raw.stderr is None else 0.0)
    coefficients = cross_fitted_coefficients(totals, luck, counts)
    stat = ratio_stats(totals - coefficients * luck, counts, fitted=1)
    if raw.stderr is None or stat.stderr is None:  # no hands at all
        return Adjusted(stat, None, None)
    # equal block means leave nothing to reduce (and the coefficient is then 0)
    reduction = 1.0 - (stat.stderr / raw.stderr) ** 2 if raw.stderr > 0 else None
    return Adjusted(stat, regression_coefficient(totals, luck, counts), reduction)


def _floats(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    out = tuple(np.asarray(a, dtype=np.float64) for a in arrays)
    if len({a.shape for a in out}) != 1 or out[0].ndim != 1:
        raise ValueError(f"expected 1-d arrays of one length, got shapes "
                         f"{[a.shape for a in out]}")
    return out

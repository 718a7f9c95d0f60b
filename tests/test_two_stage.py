"""Stein's two-stage procedure: the blocks it asks for, and the coverage it promises."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulator.arena.stats import Stat, ratio_stats, t975
from simulator.arena.two_stage import blocks_needed, staged


def _first(sd: float, blocks: int) -> Stat:
    """A first stage whose blocks' standard error is ``sd / sqrt(blocks)``."""
    return Stat(100 * blocks, 0.0, sd / math.sqrt(blocks), None)


def test_blocks_needed_reaches_the_target_with_the_first_stages_spread() -> None:
    for sd, n0 in ((0.2, 4), (0.11, 4), (0.3, 20), (0.05, 4)):
        first = _first(sd, n0)
        n = blocks_needed(first, n0, target=0.1, most=10_000)
        # the fewest blocks whose Stein half-width is at most the target
        assert t975(n0 - 1) * first.stderr * math.sqrt(n0 / n) <= 0.1 + 1e-12
        if n > n0:
            assert t975(n0 - 1) * first.stderr * math.sqrt(n0 / (n - 1)) > 0.1
    assert blocks_needed(_first(0.05, 4), 4, 0.1, 100) == 4  # there already
    assert blocks_needed(_first(5.0, 4), 4, 0.1, 40) == 40  # the cap
    assert blocks_needed(Stat(100, 0.0, None, None), 1, 0.1, 40) == 1  # no spread to go on


def test_a_target_too_small_to_reach_asks_for_the_cap_without_overflowing() -> None:
    # (half / target) ** 2 overflowed at 1e-200 and reached ceil(inf) at a subnormal target
    first = _first(0.2, 4)
    for target in (1e-200, 5e-324, 0.0):
        assert blocks_needed(first, 4, target, most=40) == 40
    rng = np.random.default_rng(53)
    for _ in range(2000):  # wherever the square is finite, the count is the formula's
        sd, target, most = rng.uniform(0.01, 2.0), rng.uniform(1e-4, 0.5), int(
            rng.integers(4, 5000))
        first = _first(sd, 4)
        half = t975(3) * first.stderr
        expected = 4 if half <= target else min(most, math.ceil(4 * (half / target) ** 2))
        assert blocks_needed(first, 4, target, most) == expected


def test_staged_keeps_the_first_stages_spread_and_degrees_of_freedom() -> None:
    cell = staged(_first(0.2, 4), 4, mean=1.5, hands=1600, blocks=16)
    assert cell.df == 3 and cell.stat.hands == 1600
    assert cell.stat.stderr == pytest.approx(0.2 / math.sqrt(16))
    assert cell.stat.ci95 == pytest.approx((1.5 - t975(3) * 0.05, 1.5 + t975(3) * 0.05))
    with pytest.raises(ValueError, match="two or more blocks"):
        staged(Stat(100, 0.0, None, None), 1, 0.0, 100, 4)


def _coverage(n0: int, sd: float, trials: int, heavy: bool, seed: int) -> tuple[float, float]:
    """How often Stein's interval, and the usual one over all the blocks, cover the true mean
    (0) of equally long blocks, at ``n0`` first-stage blocks and a target of 0.1."""
    rng = np.random.default_rng(seed)

    def draw(k: int) -> np.ndarray:
        if heavy:  # Student's t at 5 degrees of freedom, scaled to standard deviation sd
            return sd * rng.standard_t(5, k) / math.sqrt(5 / 3)
        return rng.normal(0.0, sd, k)

    stein = usual = 0
    counts = np.ones(4 * n0 + 400)
    for _ in range(trials):
        x = draw(n0)
        first = ratio_stats(x, counts[:n0])
        n = blocks_needed(first, n0, 0.1, 4 * n0 + 400)
        x = np.concatenate([x, draw(n - n0)])
        cell = staged(first, n0, float(x.mean()), n, n)
        assert cell.stat.ci95 is not None
        stein += cell.stat.ci95[0] <= 0.0 <= cell.stat.ci95[1]
        pooled = ratio_stats(x, counts[:n]).ci95
        assert pooled is not None
        usual += pooled[0] <= 0.0 <= pooled[1]
    return stein / trials, usual / trials


@pytest.mark.parametrize(("n0", "sd", "heavy"), [(4, 0.114, False), (4, 0.114, True),
                                                 (20, 0.27, False)])
def test_stein_covers_at_the_leagues_block_structure(n0: int, sd: float, heavy: bool) -> None:
    """At the league's first stages (4 blocks with a learner, 20 short blocks without) and
    spreads that call for a second stage most of the time (the widest cells of the league),
    Stein's interval covers 95% (3 standard errors of 3000 trials: 0.938); normal block means
    and heavy-tailed ones."""
    stein, _ = _coverage(n0, sd, 3000, heavy, seed=n0 + int(heavy))
    assert 0.938 <= stein <= 0.962, stein


def test_the_usual_interval_after_a_second_stage_covers_too_little() -> None:
    """Why the league does not pool: the usual interval over both stages covers about 92%
    at four first-stage blocks (20,000 trials: a standard error of 0.0015), Stein's 95%."""
    stein, usual = _coverage(4, 0.114, 20_000, heavy=False, seed=9)
    assert 0.945 <= stein <= 0.955 and usual < 0.935, (stein, usual)

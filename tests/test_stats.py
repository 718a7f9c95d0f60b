"""Statistics over blocks: t quantiles, the ratio estimator, the cross-fitted luck control
variate (exactness, unbiasedness, coverage), and a slow coverage check on real matches."""

import math

import numpy as np
import pytest

from simulator.arena.stats import (
    Adjusted,
    Stat,
    cross_fitted_coefficients,
    luck_adjusted,
    quantile975,
    ratio_stats,
    regression_coefficient,
    t975,
)

Z975 = 1.959963984540054


def _t_cdf_upper_half(t: float, df: int) -> float:
    """P(0 < T < t) by Simpson's rule on Student's density (independent of scipy)."""
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    x = np.linspace(0.0, t, 200_001)
    y = c * np.exp(-(df + 1) / 2 * np.log1p(x * x / df))
    h = x[1] - x[0]
    return float(h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum()))


@pytest.mark.parametrize("df", [*range(1, 41), 59, 99, 999, 99_999])
def test_t_quantiles_are_the_975_points(df: int) -> None:
    assert _t_cdf_upper_half(t975(df), df) == pytest.approx(0.475, abs=2e-7)


def test_every_block_count_uses_t_at_blocks_minus_one() -> None:
    """No switch to the normal quantile at 30 blocks (that gave 94% intervals)."""
    for blocks in (2, 5, 29, 30, 31, 60, 1000):
        assert quantile975(blocks) == t975(blocks - 1)
    assert quantile975(30) == pytest.approx(2.0452296, abs=1e-6)
    assert quantile975(10**6) == pytest.approx(Z975, abs=1e-5)
    with pytest.raises(ValueError, match="at least 2 blocks"):
        quantile975(1)


def test_equal_blocks_give_the_plain_stderr_of_block_means() -> None:
    rng = np.random.default_rng(0)
    totals = rng.normal(5, 30, size=40)
    stat = ratio_stats(totals, np.full(40, 50))
    means = totals / 50
    assert stat.mean == pytest.approx(means.mean())
    assert stat.stderr == pytest.approx(means.std(ddof=1) / math.sqrt(40))
    assert stat.ci95[1] - stat.mean == pytest.approx(t975(39) * stat.stderr)
    assert stat.hands == 2000


def test_unequal_blocks_use_the_ratio_residuals() -> None:
    totals, counts = np.array([3.0, -1.0, 8.0, 2.0]), np.array([10, 4, 20, 6])
    mean = 12 / 40
    resid = totals - mean * counts
    stat = ratio_stats(totals, counts)
    assert stat.mean == pytest.approx(mean)
    assert stat.stderr == pytest.approx(math.sqrt(4 / 3 * (resid ** 2).sum()) / 40)
    fitted = ratio_stats(totals, counts, fitted=1)
    assert fitted.stderr == pytest.approx(math.sqrt(4 / 2 * (resid ** 2).sum()) / 40)
    assert fitted.ci95[1] - mean == pytest.approx(t975(2) * fitted.stderr)


def test_too_few_blocks_have_a_mean_but_no_interval() -> None:
    assert ratio_stats(np.array([7.0]), np.array([10])) == Stat(10, 0.7, None, None)
    assert ratio_stats(np.array([7.0, 1.0]), np.array([10, 10]), fitted=1).ci95 is None
    assert ratio_stats(np.array([0.0]), np.array([0])) == Stat(0, None, None, None)


def test_cross_fitted_coefficients_are_the_leave_one_out_fits() -> None:
    rng = np.random.default_rng(3)
    counts = rng.integers(1, 30, size=9)
    luck = rng.normal(0, 5, size=9)
    totals = 0.2 * counts + 0.8 * luck + rng.normal(0, 2, size=9)
    fast = cross_fitted_coefficients(totals, luck, counts)
    for b in range(9):
        keep = np.arange(9) != b
        # the direct fit: both ratio residuals from the other blocks' own sums
        y, lk, n = totals[keep], luck[keep], counts[keep]
        u, v = y - y.sum() / n.sum() * n, lk - lk.sum() / n.sum() * n
        assert fast[b] == pytest.approx((u @ v) / (v @ v), rel=1e-9)
        assert fast[b] == pytest.approx(regression_coefficient(y, lk, n), rel=1e-9)


def test_luck_that_explains_everything_is_removed() -> None:
    rng = np.random.default_rng(4)
    counts = np.full(10, 50)
    luck = rng.normal(0, 20, size=10)
    totals = 0.1 * counts + 1.5 * luck + rng.normal(0, 0.01, size=10)
    adjusted = luck_adjusted(totals, luck, counts)
    assert adjusted.coefficient == pytest.approx(1.5, abs=0.01)
    assert adjusted.variance_reduction > 0.999 and adjusted.narrowed
    assert adjusted.stat.mean == pytest.approx(0.1, abs=0.001)
    assert adjusted.as_dict()["coefficient"] == adjusted.coefficient


def test_luck_that_explains_nothing_does_not_narrow_the_interval() -> None:
    """Unrelated luck: a coefficient near zero, and the spent degree of freedom shows."""
    rng = np.random.default_rng(5)
    counts = np.full(6, 20)
    totals = rng.normal(0, 10, size=6)
    luck = rng.normal(0, 10, size=6)
    adjusted = luck_adjusted(totals, luck, counts)
    raw = ratio_stats(totals, counts)
    width = adjusted.stat.ci95[1] - adjusted.stat.ci95[0]
    assert width > raw.ci95[1] - raw.ci95[0]
    assert adjusted.narrowed is False and adjusted.variance_reduction < 0


def test_under_three_blocks_the_adjusted_figures_are_the_raw_ones() -> None:
    totals, luck, counts = np.array([4.0, -2.0]), np.array([3.0, -1.0]), np.array([5, 5])
    adjusted = luck_adjusted(totals, luck, counts)
    assert adjusted.stat == ratio_stats(totals, counts)
    assert (adjusted.coefficient, adjusted.variance_reduction) == (0.0, 0.0)
    one = luck_adjusted(totals[:1], luck[:1], counts[:1])
    assert (one.coefficient, one.variance_reduction, one.narrowed) == (None, None, None)


def test_blocks_without_hands_have_no_figures() -> None:
    empty = Stat(0, None, None, None)
    assert luck_adjusted(np.zeros(4), np.zeros(4), np.zeros(4)) == Adjusted(empty, None, None)
    assert luck_adjusted(np.zeros(2), np.zeros(2), np.zeros(2)) == Adjusted(empty, None, None)


def test_no_luck_means_no_adjustment() -> None:
    totals, counts = np.array([4.0, -2.0, 1.0, 3.0]), np.array([5, 5, 5, 5])
    adjusted = luck_adjusted(totals, np.zeros(4), counts)
    assert adjusted.coefficient == 0.0
    assert adjusted.stat.mean == ratio_stats(totals, counts).mean


def test_cross_fitting_keeps_the_adjusted_mean_unbiased() -> None:
    """Results with a luck-squared term (zero mean): a coefficient fitted on all blocks then
    correlates with the blocks' luck and biases the mean by ~0.25; cross-fitted it does not."""
    rng = np.random.default_rng(1)
    blocks, size, reps, mean, gamma = 4, 10, 4000, 0.5, 0.5
    counts = np.full(blocks, size)
    crossed, naive = np.empty(reps), np.empty(reps)
    for i in range(reps):
        luck = rng.normal(0, np.sqrt(counts))
        totals = mean * counts + gamma * (luck * luck - counts) + rng.normal(0, 1, blocks)
        crossed[i] = luck_adjusted(totals, luck, counts).stat.mean
        c = regression_coefficient(totals, luck, counts)
        naive[i] = (totals.sum() - c * luck.sum()) / counts.sum()
    se = crossed.std() / math.sqrt(reps)
    assert abs(crossed.mean() - mean) < 4 * se  # se is about 0.006
    assert naive.mean() - mean < -10 * naive.std() / math.sqrt(reps)  # the test has teeth


@pytest.mark.parametrize("blocks", [5, 12, 40])
def test_intervals_cover_a_known_mean_at_the_stated_rate(blocks: int) -> None:
    """Synthetic hands, mean 0.3, heavy-tailed luck that explains much of the result, an
    unequal last block; 4000 repetitions, so the coverage's binomial sd is 0.0034.

    Raw: 95% within +-0.015. Luck-adjusted: from 0.935 to 0.985 (t at blocks - 2 is a little
    conservative with few blocks: 0.962 at 5, 0.957 at 12, 0.955 at 40). The normal quantile
    (the old rule from 30 blocks on) would give ~0.88 at 5 blocks, and t at blocks - 1 for the
    adjusted interval ~0.92.
    """
    rng = np.random.default_rng(blocks)
    reps, size, mean = 4000, 20, 0.3
    counts = np.full(blocks, size)
    counts[-1] = size // 2
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    raw_in = adjusted_in = narrower = 0
    raw_width = adjusted_width = 0.0
    for _ in range(reps):
        luck = rng.standard_t(4, size=counts.sum()) * 3.0
        hands = mean + 0.85 * luck + rng.standard_t(5, size=counts.sum())
        totals, luck_totals = np.add.reduceat(hands, starts), np.add.reduceat(luck, starts)
        lo, hi = ratio_stats(totals, counts).ci95
        raw_in += lo <= mean <= hi
        raw_width += hi - lo
        adjusted = luck_adjusted(totals, luck_totals, counts)
        lo, hi = adjusted.stat.ci95
        adjusted_in += lo <= mean <= hi
        adjusted_width += hi - lo
        narrower += bool(adjusted.narrowed)
    assert 0.935 <= raw_in / reps <= 0.965
    assert 0.935 <= adjusted_in / reps <= 0.985
    # and the adjustment earns its place: 0.59, 0.38, 0.35 of the raw width
    assert adjusted_width < 0.7 * raw_width and narrower / reps > 0.85


@pytest.mark.slow
def test_identical_bots_intervals_cover_zero() -> None:
    """Two copies of one bot heads-up, no duplicate: the true difference is zero. 300 matches
    of 20 blocks of 10 deals; coverage of 0 by the raw and the luck-adjusted 95% intervals
    within +-0.04 (binomial sd 0.0126 at 300)."""
    from simulator.arena.config import parse_config
    from simulator.arena.summary import summarise
    from simulator.arena.tournament import play_block

    reps, blocks = 300, 20
    raw_in = adjusted_in = reduction = 0.0
    for seed in range(reps):
        config = parse_config({
            "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
            "seats": [{"name": n, "bot": "random",
                       "params": {"fold": 0.15, "call": 0.5, "raise": 0.35}} for n in "ab"],
            "hands": 10 * blocks, "block_size": 10, "seed": seed, "duplicate": False,
            "luck_samples": 30, "output": {"dir": "unused", "plots": False}})
        lines = []
        for b in range(blocks):
            record = play_block(config, b).record
            assert record is not None
            lines.append(record.totals(config.names, 2))
        a = summarise(lines, config.names, unit="small_bets", unit_chips=2,
                      big_blind=2).player("a")
        raw_in += a.raw.ci95[0] <= 0 <= a.raw.ci95[1]
        stat = a.luck_adjusted.stat
        adjusted_in += stat.ci95[0] <= 0 <= stat.ci95[1]
        reduction += a.luck_adjusted.variance_reduction / reps
    assert 0.91 <= raw_in / reps <= 0.99
    assert 0.91 <= adjusted_in / reps <= 0.99
    assert reduction > 0.2  # luck is much of a random bot's variance: ~0.36 measured

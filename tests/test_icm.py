"""ICM against pokerkit's (every finishing order walked), hand-computed cases, and the
Monte Carlo estimate against the exact answer within its stated error."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulator.core.icm import IcmEquity, icm, icm_exact, icm_monte_carlo

pokerkit_analysis = pytest.importorskip("pokerkit.analysis")


def test_agrees_with_pokerkit_on_a_thousand_random_cases() -> None:
    rng = np.random.default_rng(55)
    worst = 0.0
    for _ in range(1000):
        n = int(rng.integers(1, 9))
        paid = int(rng.integers(1, n + 1))
        # stacks from tiny to huge, some tied; prizes any order (not only decreasing)
        stacks = (rng.integers(1, 5, n) if rng.random() < 0.2
                  else rng.integers(1, 10**6, n)).tolist()
        prizes = (rng.random(paid) * rng.choice([1.0, 100.0, 1e4])).tolist()
        ours = icm_exact(stacks, prizes)
        theirs = pokerkit_analysis.calculate_icm(prizes, stacks)
        worst = max(worst, float(np.max(np.abs(ours - np.array(theirs)))))
        assert math.isclose(float(ours.sum()), sum(prizes), rel_tol=1e-12, abs_tol=1e-9)
    assert worst <= 1e-9, worst


def test_hand_computed_cases() -> None:
    # two players: the share of the chips wins first
    assert icm_exact([3, 1], [100, 0]).tolist() == pytest.approx([75.0, 25.0], abs=1e-12)
    # 50/30/20 stacks, 70/30 prizes: p1 first 1/2, second 0.3*0.5/0.7 + 0.2*0.5/0.8
    first = 0.5
    second = 0.3 * 0.5 / 0.7 + 0.2 * 0.5 / 0.8
    assert icm_exact([50, 30, 20], [70, 30])[0] == pytest.approx(70 * first + 30 * second,
                                                                  abs=1e-12)
    # equal stacks share the prizes equally
    assert icm_exact([7, 7, 7, 7], [50, 30, 20]).tolist() == pytest.approx([25.0] * 4)
    # one prize: equity is proportional to chips
    assert icm_exact([10, 20, 70], [1000]).tolist() == pytest.approx([100.0, 200.0, 700.0])
    # every place paid the same: every player gets it
    assert icm_exact([1, 2, 3], [5, 5, 5]).tolist() == pytest.approx([5.0, 5.0, 5.0])


def test_zero_stacks_finish_below_every_stack_with_chips() -> None:
    # the chipless share the places left over: (15 + 5) / 2 each
    eq = icm_exact([5, 0, 3, 0], [50, 30, 15, 5])
    assert eq.tolist() == pytest.approx([50 * 5 / 8 + 30 * 3 / 8, 10.0,
                                         50 * 3 / 8 + 30 * 5 / 8, 10.0])
    # fewer prizes than players left for the chipless: they get nothing
    assert icm_exact([5, 0, 3], [50, 30]).tolist() == pytest.approx([42.5, 0.0, 37.5])
    # the chip leader's equity, with a busted player at the table, is the 2-player one
    assert icm_exact([6, 2, 0], [60, 30, 10])[:2].tolist() == pytest.approx(
        icm_exact([6, 2], [60, 30]).tolist())
    assert icm_exact([0, 0], [10, 4]).tolist() == pytest.approx([7.0, 7.0])


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="at most one prize per player"):
        icm_exact([1, 2], [3, 2, 1])
    with pytest.raises(ValueError, match="chips >= 0"):
        icm_exact([1, -2], [3])
    with pytest.raises(ValueError, match="exact ICM is for at most 16 players"):
        icm_exact([1] * 17, [1])


def test_monte_carlo_is_within_its_standard_error_and_seeded() -> None:
    stacks, prizes = [40, 25, 15, 10, 6, 3, 1, 0], [50, 30, 20]
    exact = icm_exact(stacks, prizes)
    mean, se = icm_monte_carlo(stacks, prizes, samples=200_000, seed=3)
    z = np.abs(mean - exact) / np.where(se > 0, se, 1.0)
    assert np.all(z < 4.5), z  # 8 players: a false alarm once in about 20,000 runs
    assert se[-1] == 0.0 and mean[-1] == 0.0  # the chipless player is never paid
    assert 0.0 < se.max() < 0.2
    again, _ = icm_monte_carlo(stacks, prizes, samples=200_000, seed=3)
    assert np.array_equal(mean, again)
    assert not np.array_equal(mean, icm_monte_carlo(stacks, prizes, 200_000, seed=4)[0])
    # every sample pays the prizes out in full
    assert float(mean.sum()) == pytest.approx(sum(prizes), abs=1e-9)


def test_icm_switches_to_sampling_past_the_threshold() -> None:
    stacks, prizes = list(range(1, 15)), [50, 30, 20]
    sampled = icm(stacks, prizes, samples=50_000, seed=1)
    assert sampled.method == "monte-carlo" and sampled.samples == 50_000
    assert sampled.standard_errors is not None and len(sampled.standard_errors) == 14
    exact = icm(stacks, prizes, exact_up_to=14)
    assert exact == IcmEquity(tuple(icm_exact(stacks, prizes).tolist()), "exact")
    errors = np.abs(np.array(sampled.equities) - np.array(exact.equities))
    assert np.all(errors < 4.5 * np.array(sampled.standard_errors) + 1e-12)

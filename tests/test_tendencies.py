"""The exploiter's threshold model against plain references: the compiled likelihood against
the same arithmetic in numpy, and the exact threshold against bisection."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.rivals.tendencies import (
    _CENTERS,
    AGGRESSIVE,
    BINS,
    FOLD,
    FREE,
    HIST_BINS,
    ONE_BET,
    PASSIVE,
    POSTFLOP,
    PREFLOP,
    TWO_BETS,
    Tendencies,
    ramp,
    ramp_threshold,
)


def _reference(t: Tendencies, phase: int, facing: int, move: int | None, v: np.ndarray,
               w: np.ndarray) -> np.ndarray:
    """The likelihood as numpy arrays (``move`` None: not folding), step by step."""
    fold_below, raise_above = t.thresholds(phase, facing)
    sigma = t.sigma[phase]
    stays = ramp(v, fold_below, sigma) if facing != FREE else np.ones_like(v)
    raises = ramp(v, raise_above, sigma)
    share = np.minimum(np.divide(raises, stays, out=np.zeros_like(v), where=stays > 0), 1.0)
    if move is None:
        return np.maximum(stays, 0.01)
    bins = np.minimum((v * BINS).astype(int), BINS - 1)
    mass = np.bincount(bins, w * stays, BINS)
    model = np.bincount(bins, w * stays * share, BINS) / np.maximum(mass, 1e-300)
    seen = t.shown[phase, facing]
    posterior = (seen[:, 1] + t.bin_prior * model) / (seen.sum(axis=1) + t.bin_prior)
    share = np.clip(share + np.where(mass > 0, posterior - model, 0.0)[bins], 0.0, 1.0)
    p = {FOLD: 1.0 - stays, AGGRESSIVE: stays * share, PASSIVE: stays * (1.0 - share)}[move]
    return np.maximum(p, 0.01)


def _taught(seed: int) -> Tendencies:
    rng = np.random.default_rng(seed)
    t = Tendencies()
    for _ in range(int(rng.integers(0, 60))):
        phase, facing = int(rng.integers(2)), int(rng.integers(4))
        move = int(rng.integers(3)) if facing != FREE else int(rng.integers(1, 3))
        t.count(phase, facing, move, np.bincount(rng.integers(0, HIST_BINS, 40),
                                                 minlength=HIST_BINS) / 40)
        if rng.random() < 0.5:
            t.reveal(phase, facing, move, float(rng.random()))
    return t


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       phase=st.sampled_from([PREFLOP, POSTFLOP]),
       facing=st.sampled_from([FREE, ONE_BET, TWO_BETS, 3]),
       move=st.sampled_from([FOLD, PASSIVE, AGGRESSIVE, None]))
def test_the_compiled_likelihood_is_the_numpy_arithmetic(seed: int, phase: int, facing: int,
                                                        move: int | None) -> None:
    rng = np.random.default_rng(seed)
    t = _taught(seed)
    v = rng.random(1326)
    v[rng.random(1326) < 0.05] = 0.0  # holdings that clash with the board
    v[:3] = (0.0, 0.2, 1.0)  # bin edges
    w = rng.random(1326) * (rng.random(1326) < 0.8)
    got = t.goes_on(phase, facing, v) if move is None else t.likelihood(phase, facing, move,
                                                                          v, w)
    assert np.array_equal(got, _reference(t, phase, facing, move, v, w))


def _bisected(hist: np.ndarray, share: float, sigma: float) -> float:
    weights = hist / hist.sum()
    low, high = -sigma, 1.0 + sigma
    for _ in range(60):
        mid = (low + high) / 2
        if float(weights @ ramp(_CENTERS, mid, sigma)) > share:
            low = mid
        else:
            high = mid
    return (low + high) / 2


@pytest.mark.parametrize("seed", range(40))
def test_the_threshold_is_the_root_bisection_finds(seed: int) -> None:
    rng = np.random.default_rng(seed)
    hist = rng.random(HIST_BINS) ** int(rng.integers(1, 6)) * 50 + 0.2  # every bin held
    sigma = float(rng.choice([0.1, 0.2]))
    for share in (float(rng.random()), 1e-6, 0.5, 1 - 1e-6):
        mu = ramp_threshold(hist, share, sigma)
        assert mu == pytest.approx(_bisected(hist, share, sigma), abs=1e-12)
        assert float(hist / hist.sum() @ ramp(_CENTERS, mu, sigma)) == pytest.approx(
            share, abs=1e-12)


def test_a_share_of_all_or_nothing_takes_the_plateau_end() -> None:
    hist = np.ones(HIST_BINS)
    hist[:5] = 0.0  # no weight on the lowest tenth
    assert ramp_threshold(hist, 1.0, 0.1) == -0.1  # the lowest mu at which all stay
    assert ramp_threshold(hist, 0.0, 0.1) == pytest.approx(_CENTERS[-1] + 0.1)

"""Range trust: the EM kernel against its numpy form, bit for bit, and what it learns."""

from __future__ import annotations

import numpy as np
import pytest

from agent.heuristic.trust import EM_STEPS, WINDOW, RangeTrust, _em, mixed, shown_likelihoods


def numpy_em(pw: np.ndarray, pu: np.ndarray, prior: float, prior_weight: float) -> float:
    """The reference form (the agent's code before the kernel)."""
    a = prior
    for _ in range(EM_STEPS):
        mix = a * pw + (1 - a) * pu
        share = np.divide(a * pw, mix, out=np.full_like(mix, a), where=mix > 0)
        a = (share.sum() + prior_weight * prior) / (len(pw) + prior_weight)
    return float(a)


@pytest.mark.parametrize("n", [1, 7, 8, 9, 130, 300, 1000])
def test_the_kernel_is_the_numpy_form_bit_for_bit(n: int) -> None:
    rng = np.random.default_rng(n)
    pw = rng.random(n) * 0.01
    pw[rng.random(n) < 0.2] = 0.0  # holdings the weights had ruled out
    pu = np.full(n, 1 / 1081)
    pu[rng.random(n) < 0.05] = 0.0  # and a mixture of zero: the share falls back to alpha
    pw[pu == 0] = 0.0
    for prior, weight in ((0.7, 5.0), (0.2, 0.0), (1.0, 3.0)):
        assert _em(pw, pu, prior, weight, EM_STEPS) == numpy_em(pw, pu, prior, weight)


def test_trust_follows_how_well_the_weights_predicted_the_shown_hands() -> None:
    good, bad = RangeTrust(0.7, 5.0), RangeTrust(0.7, 5.0)
    weights = np.ones(1326)
    weights[:100] = 20.0  # the model expects the first 100 holdings
    for holding in range(0, 100, 5):
        good.add("x", *shown_likelihoods(weights, holding))
    for holding in range(500, 600, 5):
        bad.add("x", *shown_likelihoods(weights, holding))
    assert good.alpha("x") > 0.9 and bad.alpha("x") < 0.3  # from the prior 0.7
    assert good.alpha("nobody") == 0.7
    assert mixed(weights, 0.0).sum() == pytest.approx(1.0)


def test_the_fit_runs_over_the_last_window_of_showdowns() -> None:
    rng = np.random.default_rng(5)
    n = 2 * WINDOW
    pw = rng.random(n) * 0.008
    pw[:WINDOW] *= 0.02  # the early showdowns say the weights were wrong, the later ones right
    pu = np.full(n, 1 / 1081)
    trust = RangeTrust(0.7, 5.0)
    for i in range(n):
        trust.add("x", float(pw[i]), float(pu[i]))
        if i + 1 == WINDOW:  # until the window is full: the fit over every showdown, exactly
            assert trust.alpha("x") == numpy_em(pw[:WINDOW], pu[:WINDOW], 0.7, 5.0)
    last = numpy_em(pw[-WINDOW:], pu[-WINDOW:], 0.7, 5.0)
    assert trust.alpha("x") == pytest.approx(last, rel=1e-12)
    assert trust.alpha("x") > 0.9 > numpy_em(pw, pu, 0.7, 5.0) + 0.1


def test_a_line_with_little_evidence_reads_the_players_whole_trust() -> None:
    lines, pooled = RangeTrust(0.7, 5.0, by_line=True), RangeTrust(0.7, 5.0)
    for trust in (lines, pooled):
        for _ in range(60):  # hands ended on a bet, every one where the weights were wrong
            trust.add("x", p_weights=0.0001, p_uniform=0.001, bet=True)
    assert lines.alpha("x", True) < 0.1 and lines.alpha("x") < 0.1
    # no showdown ended on a check: that line reads the player as a whole, not the prior
    assert lines.alpha("x", False) == lines.alpha("x")
    lines.add("x", p_weights=0.004, p_uniform=0.001, bet=False)
    assert lines.alpha("x") < lines.alpha("x", False) < 0.7
    # without lines one trust serves both, whatever the hand ended on
    assert pooled.alpha("x", True) == pooled.alpha("x", False) == pooled.alpha("x") < 0.1

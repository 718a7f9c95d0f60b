"""E's showdown win probability after the flop (``win_probability: showdown``)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.postflop import showdown_wins
from agent.strength.range_strength import range_strength
from simulator.core.cards import clashing_holdings
from simulator.core.equity import multiway_equities


def _spot(seed: int, opponents: int) -> tuple[tuple[int, ...], np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    board = tuple(int(c) for c in rng.choice(52, 3, replace=False))
    live = np.flatnonzero(~clashing_holdings(board))
    weights = rng.random((opponents, 1326)) ** 3  # uneven ranges, as a modeller's are
    return board, weights, rng.choice(live, 12, replace=False)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6))
def test_heads_up_it_is_ehs_with_every_card_to_come(seed: int) -> None:
    """Papp's EHS with two cards of potential on the flop adds up to the showdown equity
    (HS (1 - NPOT) + (1 - HS) PPOT counts every way to be ahead at the end): the exact
    sweep and the two-card potentials, computed apart, must agree."""
    board, weights, holdings = _spot(seed, 1)
    one_card = range_strength(board, weights, holdings, 1)
    two_cards = range_strength(board, weights, holdings, 2)
    got = showdown_wins(board, weights, holdings, one_card.ehs)
    np.testing.assert_allclose(got, two_cards.ehs, atol=1e-9)
    assert np.abs(got - one_card.ehs).max() > 0.01  # one card of potential is not it


def test_several_opponents_and_empty_ranges() -> None:
    board, weights, holdings = _spot(7, 2)
    ehs = range_strength(board, weights, holdings, 1).ehs
    np.testing.assert_allclose(showdown_wins(board, weights, holdings, ehs),
                               multiway_equities(board, list(weights), holdings), atol=1e-12)
    # a range with nothing left beside a holding: EHS (against a uniform range) stands in
    lone = np.zeros((1, 1326))
    lone[0, int(holdings[0])] = 1.0
    got = showdown_wins(board, lone, holdings[:1], ehs[:1])
    assert got.tolist() == ehs[:1].tolist()

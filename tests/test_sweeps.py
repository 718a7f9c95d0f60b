"""The every-holding sweeps agree with one holding at a time, and with the scalar strength
code they vectorise (which brute force checks elsewhere)."""

from __future__ import annotations

import numpy as np
import pytest

from agent.strength.against import top_share
from agent.strength.board_table import board_table
from agent.strength.range_strength import range_strength
from agent.strength.sweeps import now_sums, potential_sums, top_sums
from agent.strength.values import board_values
from simulator.core.cards import parse_cards
from simulator.core.equity import equities

BOARDS = ["3h4cJh", "3h4cJh9d", "AsKsQs2s", "5c5d5h5s9c"]


def _range(board: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    table = board_table(parse_cards(board))
    rng = np.random.default_rng(seed)
    w = rng.random(1326) ** 2 * (rng.random(1326) < 0.7)
    w[table.ranks == 0] = 0.0
    return table.ranks, w


@pytest.mark.parametrize("board", BOARDS)
def test_now_sums_every_equals_scalar(board: str) -> None:
    ranks, w = _range(board, 1)
    table = board_table(parse_cards(board))
    every = now_sums(ranks, w, np.arange(1326))
    for h in np.flatnonzero(ranks)[::97]:
        scalar = table.strength_sums(int(h), table.effective_weights(w, int(h)))
        assert every[:, h] == pytest.approx(scalar, abs=1e-9)
        assert now_sums(ranks, w, np.array([h]))[:, 0] == pytest.approx(scalar, abs=1e-9)
    assert not every[:, ranks == 0].any()


@pytest.mark.parametrize(("board", "look"), [(b, 1) for b in BOARDS[:3]] + [(BOARDS[0], 2)])
def test_potential_sums_every_equals_one_at_a_time(board: str, look: int) -> None:
    """The sweep over every holding and the count over one holding's runouts (two kernels)."""
    ranks, w = _range(board, 2)
    fin = board_table(parse_cards(board)).future(look)[1]
    every = potential_sums(ranks, fin, w, np.arange(1326))
    for h in np.flatnonzero(ranks)[::151]:
        one = potential_sums(ranks, fin, w, np.array([h]))[:, 0]
        assert every[:, h] == pytest.approx(one, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("asked", [np.arange(1326), np.array([5, 300, 1200])],
                         ids=["every", "few"])
def test_several_opponents_are_each_opponent_alone(asked: np.ndarray) -> None:
    """Weight arrays of several opponents at once (one count of each holding's runouts
    serves them all) give each opponent's sums as asked alone, bit for bit."""
    ranks = board_table(parse_cards("3h4cJh")).ranks
    fin = board_table(parse_cards("3h4cJh")).future(1)[1]
    w = np.stack([_range("3h4cJh", seed)[1] for seed in (4, 5, 6)])
    together = potential_sums(ranks, fin, w, asked)
    assert together.shape == (3, 4, asked.shape[0])
    for j in range(3):
        assert np.array_equal(together[j], potential_sums(ranks, fin, w[j], asked))
    assert not np.array_equal(together[0], together[1])


def test_potential_sums_give_the_scalar_hp_matrix() -> None:
    ranks, w = _range("3h4cJh", 3)
    table = board_table(parse_cards("3h4cJh"))
    fin = table.future(1)[1]
    every = potential_sums(ranks, fin, w, np.arange(1326))
    for h in np.flatnonzero(ranks)[::211]:
        hp = table.hp_matrix(int(h), table.effective_weights(w, int(h)), 1)
        a, t, b = 0, 1, 2
        assert (every[0, h] + every[1, h]) / 2 == pytest.approx(
            hp[b, a] + hp[b, t] / 2 + hp[t, a] / 2, rel=1e-9)


@pytest.mark.parametrize("board", BOARDS)
def test_top_sums_equal_the_scalar_top_share(board: str) -> None:
    ranks, w = _range(board, 4)
    table = board_table(parse_cards(board))
    order = board_values(parse_cards(board)).order
    keep = np.random.default_rng(5).random(1326)
    every = top_sums(ranks, w, order, np.arange(1326), keep)
    for h in np.flatnonzero(ranks)[::89]:
        top = top_share(table.effective_weights(w, int(h)), order, keep[h])
        ahead, tied, behind = table.strength_sums(int(h), top)
        assert every[:, h] == pytest.approx([ahead, tied, ahead + tied + behind], abs=1e-9)
        one = top_sums(ranks, w, order, np.array([h]), keep[[h]])[:, 0]
        assert one == pytest.approx(every[:, h], abs=1e-9)


@pytest.mark.parametrize("seed", [1, 2])
def test_two_cards_of_potential_add_up_to_the_showdown_equity(seed: int) -> None:
    """On the flop, ``HS (1 - NPOT) + (1 - HS) PPOT`` with both cards to come counts every
    way to be ahead at the river: the exact equity, an oracle the potentials never use
    (:mod:`simulator.core.equity`), for one holding (the count) and every holding (the
    sweep). One card of potential falls short of it (a draw's second card)."""
    board = parse_cards("3h4cJh")
    ranks, w = _range("3h4cJh", seed)
    live = np.flatnonzero(ranks)
    exact = equities(board, w, live)
    two = range_strength(board, w[None, :], live, lookahead=2).ehs
    np.testing.assert_allclose(two, exact, atol=1e-9)
    few = live[::173]
    np.testing.assert_allclose(range_strength(board, w[None, :], few, lookahead=2).ehs,
                               exact[::173], atol=1e-9)
    one = range_strength(board, w[None, :], live, lookahead=1).ehs
    assert np.abs(one - exact).max() > 0.05

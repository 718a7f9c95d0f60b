"""Strength against per-opponent weights: the fused kernels give the floats of the numpy forms.

The agent's hot path replaced masked numpy sums, ``np.clip`` and a per-pair matrix update by
numba kernels. The references here are those numpy (and plain Python) forms, and the kernels
must match them bit for bit, so that the agent decides exactly as it did before.
"""

from __future__ import annotations

import numpy as np
import pytest

from agent.strength.against import hs_against, strength_against, top_share
from agent.strength.board_table import board_table
from agent.strength.ehs import ehs_formulas, hs_from_sums, potentials_from_hp
from agent.strength.errors import RangeError
from agent.strength.numpy_sums import pairwise_sum
from simulator.core.cards import HOLDING_INDEX, HOLDINGS, NUM_HOLDINGS, clashing_holdings


def ref_live(board: list[int], hole: list[int], w: np.ndarray) -> np.ndarray:
    dead = clashing_holdings(board + hole)
    live = np.array(w, dtype=np.float64)
    live[dead] = 0.0
    if not live.sum() > 0:
        live = np.where(dead, 0.0, 1.0)
    return live


def ref_sums(ranks: np.ndarray, hero: int, w: np.ndarray) -> tuple[float, float, float]:
    mine = ranks[hero]
    return (float(w[ranks > mine].sum()), float(w[ranks == mine].sum()),
            float(w[(ranks < mine) & (ranks > 0)].sum()))


def ref_hp(board: list[int], hero: int, w: np.ndarray, lookahead: int) -> np.ndarray:
    """The matrix by the definition, pair by pair in (runout, opponent) order, in Python."""
    table = board_table(board)
    runouts, fin = table.future(lookahead)
    a, b = HOLDINGS[hero]
    opp = np.flatnonzero(w > 0).tolist()
    now = table.ranks.tolist()
    hp = np.zeros((3, 3))
    for r in range(len(runouts)):
        if a in runouts[r] or b in runouts[r]:
            continue
        row = fin[r].tolist()
        for o in opp:
            if row[o] == 0:
                continue
            x = 0 if now[hero] < now[o] else 1 if now[hero] == now[o] else 2
            y = 0 if row[hero] < row[o] else 1 if row[hero] == row[o] else 2
            hp[x, y] += w[o]
    return hp


def spot(seed: int, n_board: int) -> tuple[list[int], list[int]]:
    cards = np.random.default_rng(seed).permutation(52)[:n_board + 2].tolist()
    return cards[:2], cards[2:]


def random_weights(rng: np.random.Generator) -> np.ndarray:
    w = rng.random(NUM_HOLDINGS)
    return np.where(rng.random(NUM_HOLDINGS) < 0.3, 0.01, w) * (rng.random(NUM_HOLDINGS) < 0.9)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 127, 128, 129, 255, 256, 1000, 1326, 3978, 70001])
def test_pairwise_sum_is_numpys_sum_bit_for_bit(n: int) -> None:
    rng = np.random.default_rng(n)
    a = rng.random(n + 5) * rng.choice([1e-3, 1.0, 1e6], n + 5) * (rng.random(n + 5) < 0.7)
    assert pairwise_sum(a, 0, n) == float(a[:n].sum())
    assert pairwise_sum(a, 5, n) == float(a[5:].sum())


@pytest.mark.parametrize(("seed", "n_board", "opponents"),
                         [(1, 3, 1), (2, 3, 5), (3, 4, 3), (4, 4, 1), (5, 5, 4), (6, 3, 2)])
def test_strength_against_equals_the_numpy_forms(seed: int, n_board: int, opponents: int
                                                 ) -> None:
    hole, board = spot(seed, n_board)
    rng = np.random.default_rng(seed)
    weights = [random_weights(rng) for _ in range(opponents)]
    if opponents > 1:
        weights[1] = np.zeros(NUM_HOLDINGS)  # nothing left: a uniform range stands in
    got = strength_against(hole, board, weights)
    table = board_table(board)
    hero = int(HOLDING_INDEX[hole[0], hole[1]])
    live = [ref_live(board, hole, w) for w in weights]
    hs = tuple(hs_from_sums(*ref_sums(table.ranks, hero, w)) for w in live)
    assert got.hs == hs and got.hs_n == float(np.prod(hs))
    ppot = npot = 0.0
    if n_board < 5:
        field = sum(w / w.sum() for w in live) / len(live)
        ppot, npot = potentials_from_hp(ref_hp(board, hero, field, 1))
    assert (got.ppot, got.npot) == (ppot, npot)
    assert (got.ehs, got.ehs_optimistic) == ehs_formulas(got.hs_n, ppot, npot)


def test_hand_potential_matrix_two_cards_ahead_equals_the_definition() -> None:
    hole, board = spot(11, 3)
    hero = int(HOLDING_INDEX[hole[0], hole[1]])
    rng = np.random.default_rng(11)
    w = ref_live(board, hole, rng.random(NUM_HOLDINGS) * (rng.random(NUM_HOLDINGS) < 0.05))
    assert np.array_equal(board_table(board).hp_matrix(hero, w, 2), ref_hp(board, hero, w, 2))


@pytest.mark.parametrize("seed", range(5))
def test_hs_against_equals_the_numpy_forms(seed: int) -> None:
    hole, board = spot(20 + seed, 3 + seed % 3)
    rng = np.random.default_rng(seed)
    weights = [random_weights(rng) for _ in range(1 + seed % 4)]
    table = board_table(board)
    hero = int(HOLDING_INDEX[hole[0], hole[1]])
    want = float(np.prod([hs_from_sums(*ref_sums(table.ranks, hero, ref_live(board, hole, w)))
                          for w in weights]))
    assert hs_against(hole, board, weights) == want


def ref_top_share(weights: np.ndarray, order: np.ndarray, keep: float) -> np.ndarray:
    keep = min(max(keep, 0.0), 1.0)
    mass = weights[order]
    total = float(mass.sum())
    out = np.zeros_like(weights)
    if total <= 0:
        return out
    cum = np.cumsum(mass)
    out[order] = np.clip(keep * total - (cum - mass), 0.0, mass)
    return out


@pytest.mark.parametrize("seed", range(8))
def test_top_share_equals_the_numpy_form(seed: int) -> None:
    rng = np.random.default_rng(seed)
    w = random_weights(rng) * rng.choice([1e-2, 1.0, 1e3])
    order = rng.permutation(NUM_HOLDINGS)[:rng.integers(1, NUM_HOLDINGS)]
    for keep in (-0.5, 0.0, 0.3, 0.5, float(rng.random()), 1.0, 1.5):
        got, want = top_share(w, order, keep), ref_top_share(w, order, keep)
        assert np.array_equal(got, want) and np.array_equal(np.signbit(got), np.signbit(want))
    assert not top_share(np.zeros(NUM_HOLDINGS), order, 0.5).any()


def test_weights_of_the_wrong_shape_are_refused() -> None:
    hole, board = spot(30, 3)
    with pytest.raises(RangeError, match="bad weights"):
        strength_against(hole, board, [np.ones(10)])
    with pytest.raises(RangeError, match="bad weights"):
        hs_against(hole, board, [np.ones(NUM_HOLDINGS), np.ones(5)])
    with pytest.raises(RangeError, match="at least one"):
        strength_against(hole, board, [])

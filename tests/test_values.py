"""The shared EHS' value vectors: against the hand evaluator, brute force with treys, sharing."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from treys import Evaluator

from agent.strength.ehs import effective_hand_strength, hand_detail
from agent.strength.values import (
    board_values,
    clear_board_values,
    ehs_prime_values,
    hand_strengths_of,
)
from simulator.core.cards import HOLDINGS, clashing_holdings, parse_cards, to_treys

TREYS = Evaluator()


def random_board(seed: int, n: int) -> list[int]:
    return np.random.default_rng(seed).permutation(52)[:n].tolist()


@pytest.mark.parametrize(("seed", "n_board"), [(1, 3), (2, 3), (3, 4), (4, 4), (5, 5)])
def test_every_part_equals_the_hand_evaluator_on_sampled_holdings(seed: int, n_board: int
                                                                  ) -> None:
    board = random_board(seed, n_board)
    bv = board_values(board)
    rng = np.random.default_rng(seed)
    live = np.flatnonzero(~clashing_holdings(board))
    for h in rng.choice(live, 25, replace=False):
        hole = HOLDINGS[h].tolist()
        e = effective_hand_strength(hole, board, lookahead=1)
        assert bv.hs[h] == pytest.approx(e.hs, abs=1e-12)
        assert bv.ppot[h] == pytest.approx(e.ppot, abs=1e-12)
        assert bv.ehs_prime[h] == pytest.approx(e.ehs_optimistic, abs=1e-12)


def test_flop_values_of_every_holding_on_one_board_match_the_hp_matrix() -> None:
    board = parse_cards("Ts9s2d")  # draws everywhere: PPOT matters
    bv = board_values(board)
    for h in np.flatnonzero(~clashing_holdings(board))[::7]:
        d = hand_detail(HOLDINGS[h].tolist(), board, lookahead=1)
        hp = np.array(d.hp)
        ppot = (hp[2, 0] + hp[2, 1] / 2 + hp[1, 0] / 2) / (hp[2].sum() + hp[1].sum() / 2)
        assert bv.ppot[h] == pytest.approx(ppot, abs=1e-12)


def brute_ppot_and_hs(hole: list[int], board: list[int]) -> tuple[float, float]:
    """PPOT (lookahead 1, Papp) and HS by enumerating opponents and next cards with treys."""
    def rank(cards: list[int], b: list[int]) -> int:
        return TREYS.evaluate([to_treys(c) for c in cards], [to_treys(c) for c in b])

    dead = set(hole) | set(board)
    live = [c for c in range(52) if c not in dead]
    hp = np.zeros((3, 3))
    hs = np.zeros(3)
    mine_now = rank(hole, board)
    for opp in itertools.combinations(live, 2):
        theirs = rank(list(opp), board)
        now = 0 if mine_now < theirs else 1 if mine_now == theirs else 2
        hs[now] += 1
        for card in live:
            if card in opp:
                continue
            full = board + [card]
            a, b = rank(hole, full), rank(list(opp), full)
            hp[now, 0 if a < b else 1 if a == b else 2] += 1
    ppot = (hp[2, 0] + hp[2, 1] / 2 + hp[1, 0] / 2) / (hp[2].sum() + hp[1].sum() / 2)
    return ppot, (hs[0] + hs[1] / 2) / hs.sum()


@pytest.mark.parametrize(("hole", "board"), [("9h8h", "Th7c2h"), ("AdQc", "3h4cJh5s")])
def test_brute_force_with_treys(hole: str, board: str) -> None:
    b = parse_cards(board)
    h = int(np.flatnonzero((HOLDINGS == sorted(parse_cards(hole))).all(axis=1))[0])
    ppot, hs = brute_ppot_and_hs(parse_cards(hole), b)
    bv = board_values(b)
    assert bv.ppot[h] == pytest.approx(ppot, abs=1e-12)
    assert bv.hs[h] == pytest.approx(hs, abs=1e-12)
    assert bv.ehs_prime[h] == pytest.approx(hs + (1 - hs) * ppot, abs=1e-12)


def test_river_value_is_hand_strength_and_clashes_are_nan() -> None:
    board = random_board(7, 5)
    bv = board_values(board)
    clash = clashing_holdings(board)
    assert np.isnan(bv.ehs_prime[clash]).all() and not np.isnan(bv.ehs_prime[~clash]).any()
    assert np.array_equal(bv.ehs_prime[~clash], bv.hs[~clash])
    assert (bv.ppot[~clash] == 0).all()


def test_order_lists_live_holdings_from_the_highest_value() -> None:
    bv = board_values(random_board(8, 3))
    v = bv.ehs_prime[bv.order]
    assert len(bv.order) == 1176 and not np.isnan(v).any()
    assert (np.diff(v) <= 0).all()


def test_vectors_are_shared_read_only_and_keyed_by_the_sorted_board() -> None:
    board = random_board(9, 4)
    v = ehs_prime_values(board)
    assert ehs_prime_values(board[::-1]) is v
    with pytest.raises(ValueError):
        v[0] = 1.0
    clear_board_values()
    w = ehs_prime_values(board)
    assert w is not v and np.array_equal(w, v, equal_nan=True)


@pytest.mark.parametrize("board", [[], [1, 2], [1, 2, 3, 4, 5, 6], [1, 1, 2], [1, 2, 60]])
def test_bad_boards_are_refused_with_a_clear_error(board: list[int]) -> None:
    with pytest.raises(ValueError, match="bad board"):
        board_values(board)


def test_strengths_of_a_few_holdings_match_the_vector_and_refuse_clashes() -> None:
    board = random_board(11, 5)
    live = np.flatnonzero(~clashing_holdings(board))
    picked = live[::97].tolist()
    assert hand_strengths_of(board, picked) == pytest.approx(board_values(board).hs[picked],
                                                             abs=1e-12)
    clash = int(np.flatnonzero(clashing_holdings(board))[0])
    with pytest.raises(ValueError, match="clashes"):
        hand_strengths_of(board, [clash])


def ppot_by_pairs(board: list[int]) -> np.ndarray:
    """PPOT of every holding from the board table by comparing every pair of holdings on
    every next card (numpy, no sorting, no bit sets): the oracle of the fast walk."""
    from agent.strength.board_table import board_table

    table = board_table(board)
    now = table.ranks.astype(np.int64)
    live = np.flatnonzero(now > 0)
    cards = HOLDINGS[live].astype(np.int64)
    disjoint = np.ones((len(live), len(live)), dtype=bool)
    for i in range(2):
        for j in range(2):
            disjoint &= cards[:, None, i] != cards[None, :, j]
    x = now[live]
    behind_now = disjoint & (x[None, :] < x[:, None])  # [h, o]: o better than h now
    tied_now = disjoint & (x[None, :] == x[:, None])
    num = np.zeros(len(live))
    _, fin = table.future(1)
    for row in fin.astype(np.int64):
        y = row[live]
        alive = (y[:, None] > 0) & (y[None, :] > 0)
        ahead_final = alive & (y[None, :] > y[:, None])
        tied_final = alive & (y[None, :] == y[:, None])
        num += (behind_now & ahead_final).sum(1) + (behind_now & tied_final).sum(1) / 2 + (
            tied_now & ahead_final).sum(1) / 2
    per_pair = 52 - len(board) - 4
    den = per_pair * (behind_now.sum(1) + tied_now.sum(1) / 2)
    out = np.full(1326, np.nan)
    out[live] = np.divide(num, den, out=np.zeros(len(live)), where=den > 0)
    return out


@pytest.mark.parametrize("board", ["Ts9s2d", "2c2d2h", "AhKhQh", "7c8d9h", "3h4cJh5s",
                                   "AsAhAdKc", "9s8s7s6s", "2c3d4h5s"])
def test_ppot_of_every_holding_equals_the_pairwise_count(board: str) -> None:
    cards = parse_cards(board)
    assert np.array_equal(board_values(cards).ppot, ppot_by_pairs(cards), equal_nan=True)


@pytest.mark.parametrize("seed", range(4))
def test_ppot_of_every_holding_equals_the_pairwise_count_on_random_boards(seed: int) -> None:
    board = random_board(30 + seed, 3 + seed % 2)
    assert np.array_equal(board_values(board).ppot, ppot_by_pairs(board), equal_nan=True)


@pytest.mark.parametrize("seed", range(6))
def test_hs_from_counts_is_the_weighted_sweep_bit_for_bit(seed: int) -> None:
    """HS against anyone comes from whole counts; the weighted showdown sweep with every
    weight 1 must give the very same floats."""
    from agent.strength.board_table import board_table

    board = random_board(60 + seed, 3 + seed % 3)
    assert np.array_equal(board_values(board).hs, board_table(board).hs_all(), equal_nan=True)

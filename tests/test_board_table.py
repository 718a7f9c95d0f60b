"""The per-street board table: its ranks against treys, the range-vs-range HS pass, sharing."""

from __future__ import annotations

import numpy as np
import pytest
from treys import Evaluator

from agent.strength.board_table import BoardTable, board_table
from simulator.core.cards import HOLDINGS, NUM_HOLDINGS, clashing_holdings, parse_cards, to_treys

TREYS = Evaluator()


def treys_rank(hole: tuple[int, int], board: list[int]) -> int:
    return TREYS.evaluate([to_treys(c) for c in hole], [to_treys(c) for c in board])


def random_board(rng: np.random.Generator, n: int) -> list[int]:
    return rng.permutation(52)[:n].tolist()


@pytest.mark.parametrize("n_board", [3, 4, 5])
def test_current_ranks_match_treys_and_mask_clashes(n_board: int) -> None:
    rng = np.random.default_rng(n_board)
    board = random_board(rng, n_board)
    t = BoardTable(board)
    clash = clashing_holdings(board)
    assert np.array_equal(t.ranks == 0, clash)
    for h in rng.choice(np.flatnonzero(~clash), 150, replace=False):
        assert t.ranks[h] == treys_rank(tuple(HOLDINGS[h].tolist()), board)


@pytest.mark.parametrize(("n_board", "lookahead", "rows"), [(3, 1, 49), (3, 2, 1176), (4, 1, 48)])
def test_future_tables_match_treys(n_board: int, lookahead: int, rows: int) -> None:
    rng = np.random.default_rng(10 + n_board + lookahead)
    board = random_board(rng, n_board)
    t = BoardTable(board)
    runouts, ranks = t.future(lookahead)
    assert runouts.shape == (rows, lookahead) and ranks.shape == (rows, NUM_HOLDINGS)
    assert not set(runouts.ravel().tolist()) & set(board)
    assert t.future(lookahead)[1] is ranks  # built once per street
    for r in rng.choice(rows, 5, replace=False):
        full = board + runouts[r].tolist()
        clash = clashing_holdings(full)
        assert np.array_equal(ranks[r] == 0, clash)
        for h in rng.choice(np.flatnonzero(~clash), 40, replace=False):
            assert ranks[r, h] == treys_rank(tuple(HOLDINGS[h].tolist()), full)


def test_lookahead_beyond_the_river_is_refused() -> None:
    with pytest.raises(ValueError, match="card\\(s\\) to come"):
        BoardTable(parse_cards("3h4cJh5s")).future(2)
    with pytest.raises(ValueError, match="card\\(s\\) to come"):
        BoardTable(parse_cards("3h4cJh5s9d")).future(1)


@pytest.mark.parametrize("board", [[], [1, 2], [1, 2, 3, 4, 5, 6], [1, 1, 2]])
def test_bad_boards_are_refused(board: list[int]) -> None:
    with pytest.raises(ValueError, match="bad board"):
        BoardTable(board)


def hs_direct(t: BoardTable, w: np.ndarray) -> np.ndarray:
    """HS of every holding by its own weighted sums (the slow way the trick replaces)."""
    out = np.full(NUM_HOLDINGS, np.nan)
    for h in np.flatnonzero(t.ranks > 0):
        ahead, tied, behind = t.strength_sums(int(h), t.effective_weights(w, int(h)))
        if ahead + tied + behind > 0:
            out[h] = (ahead + tied / 2) / (ahead + tied + behind)
    return out


@pytest.mark.parametrize("n_board", [3, 4, 5])
def test_hs_of_every_holding_matches_one_by_one(n_board: int) -> None:
    rng = np.random.default_rng(20 + n_board)
    t = BoardTable(random_board(rng, n_board))
    w = rng.random(NUM_HOLDINGS) * (rng.random(NUM_HOLDINGS) < 0.5)
    for weights in (None, w):
        fast = t.hs_all(weights)
        slow = hs_direct(t, np.ones(NUM_HOLDINGS) if weights is None else weights)
        assert np.array_equal(np.isnan(fast), np.isnan(slow))
        ok = ~np.isnan(slow)
        assert np.allclose(fast[ok], slow[ok], atol=1e-12)


def test_hs_of_every_holding_with_ties_on_a_paired_board() -> None:
    # A board that plays for many holdings makes large tie groups.
    t = BoardTable(parse_cards("AhKhQhJhTh"))
    hs = t.hs_all()
    assert np.nanmin(hs) == 0.5 and np.nanmax(hs) == 0.5
    t = BoardTable(parse_cards("2c2d2h7s7d"))
    w = np.arange(NUM_HOLDINGS, dtype=float) % 5
    assert np.allclose(np.nan_to_num(t.hs_all(w)), np.nan_to_num(hs_direct(t, w)), atol=1e-12)


def test_the_table_is_shared_within_a_street() -> None:
    a = board_table(parse_cards("3h4cJh"))
    assert board_table(parse_cards("Jh 3h 4c")) is a
    assert board_table(parse_cards("3h4cJh5s")) is not a


def test_effective_weights_remove_board_and_hero_clashes() -> None:
    board = parse_cards("3h4cJh")
    t = BoardTable(board)
    hero = 100
    w = t.effective_weights(np.full(NUM_HOLDINGS, 2.0), hero)
    dead = clashing_holdings(board + HOLDINGS[hero].tolist())
    assert np.array_equal(w == 0, dead) and np.all(w[~dead] == 2.0)
    assert int((t.effective_weights(None) > 0).sum()) == 1176


def evaluated_rows(board: list[int], runouts: np.ndarray) -> np.ndarray:
    """Every row of a table ranked hand by hand by the batch evaluator (0 on clashes)."""
    from simulator.core.hand_ranks import evaluate

    out = np.zeros((len(runouts), NUM_HOLDINGS), dtype=np.int16)
    holdings = HOLDINGS.astype(np.int64)
    for r, runout in enumerate(runouts):
        known = board + list(runout)
        live = ~clashing_holdings(known)
        hands = np.concatenate([np.tile(known, (int(live.sum()), 1)), holdings[live]], axis=1)
        out[r, live] = evaluate(hands)
    return out


@pytest.mark.parametrize("board", [
    [0, 4, 8], [0, 1, 2, 3, 50], [48, 44, 40, 36, 32], [1, 5, 9, 13], [6, 8, 38],
    [51, 47, 43, 39], [0, 1, 4, 5], [2, 6, 10, 14, 18]])
def test_every_row_of_every_table_equals_the_evaluator(board: list[int]) -> None:
    # The tables rank pairs of hole-card ranks once per row; flushes, quads and straight
    # flushes on the board are the cases where that shortcut could go wrong.
    t = BoardTable(board)
    assert np.array_equal(t.ranks, evaluated_rows(board, np.zeros((1, 0), dtype=np.int64))[0])
    for lookahead in range(1, t.cards_to_come + 1):
        runouts, ranks = t.future(lookahead)
        assert np.array_equal(ranks, evaluated_rows(board, runouts))


@pytest.mark.parametrize("seed", range(6))
def test_every_row_on_random_boards_equals_the_evaluator(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    board = random_board(rng, 3 + seed % 3)
    t = BoardTable(board)
    assert np.array_equal(t.ranks, evaluated_rows(board, np.zeros((1, 0), dtype=np.int64))[0])
    if t.cards_to_come:
        runouts, ranks = t.future(1)
        assert np.array_equal(ranks, evaluated_rows(board, runouts))


def test_rows_in_any_order_and_card_order_rank_alike() -> None:
    # The kernel shares one pair table among rows whose runout cards have the same ranks;
    # rows given shuffled, with their cards reversed, must come out as the same rows.
    from simulator.core.board_ranks import HOLD_A, HOLD_B, rank_rows, runouts

    board = parse_cards("2h7hKd")
    rows = runouts(tuple(board), 2)
    order = np.random.default_rng(7).permutation(len(rows))
    mixed = np.ascontiguousarray(rows[order][:, ::-1])
    out = np.empty((len(rows), NUM_HOLDINGS), dtype=np.int16)
    rank_rows(np.array(board, dtype=np.int64), mixed, HOLD_A, HOLD_B, out)
    assert np.array_equal(out, evaluated_rows(board, rows)[order])

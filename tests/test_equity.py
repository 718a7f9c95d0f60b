"""Exact equity against weighted ranges: brute force over every (opponent, runout) agrees."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from simulator.core.cards import HOLDINGS, parse_cards, parse_holding
from simulator.core.equity import (
    RangeWeightsError,
    equities,
    equity,
    preflop_equities,
    preflop_equity_product,
)
from simulator.core.errors import CardError
from simulator.core.hand_ranks import evaluate
from simulator.core.preflop_equity import BOARDS, clashes, preflop_table


def brute_force(hole: list[int], board: list[int], w: np.ndarray) -> float:
    """Every opponent holding and every completion of the board, ranked by the evaluator."""
    dead = set(hole) | set(board)
    share = mass = 0.0
    for o, (a, b) in enumerate(HOLDINGS.tolist()):
        if w[o] == 0 or a in dead or b in dead:
            continue
        rest = [c for c in range(52) if c not in dead | {a, b}]
        runs = np.array(list(itertools.combinations(rest, 5 - len(board))), dtype=np.int64)
        runs = runs.reshape(len(runs), 5 - len(board))
        full = np.hstack([np.tile(board, (len(runs), 1)), runs]).astype(np.int64)
        mine = evaluate(np.hstack([np.tile(hole, (len(runs), 1)), full]))
        theirs = evaluate(np.hstack([np.tile([a, b], (len(runs), 1)), full]))
        share += w[o] * ((mine < theirs).sum() + 0.5 * (mine == theirs).sum())
        mass += w[o] * len(runs)
    return share / mass


@pytest.mark.parametrize("board", ["2c7d9sThJs", "AhKhQh5h", "5s5d5c"])
def test_one_holding_matches_brute_force(board: str) -> None:
    rng = np.random.default_rng(len(board))
    w = rng.random(1326) * (rng.random(1326) < 0.3)  # a narrow, uneven range
    hole = parse_cards("AsKd") if "As" not in board else parse_cards("2h3h")
    cards = parse_cards(board)
    if len(cards) == 3:  # the flop's brute force is slow: keep a handful of opponents
        w = np.zeros(1326)
        w[rng.choice(1326, 12, replace=False)] = rng.random(12)
    assert equity(hole, cards, w) == pytest.approx(brute_force(hole, cards, w), abs=1e-12)


def test_every_holding_equals_one_at_a_time() -> None:
    rng = np.random.default_rng(3)
    for board in ("3h4cJh", "3h4cJh9d", "3h4cJh9dKs"):
        cards = parse_cards(board)
        w = rng.random(1326) ** 3
        every = equities(cards, w)
        probe = [h for h in rng.choice(1326, 40, replace=False) if not np.isnan(every[h])]
        for h in probe[:6]:
            assert every[h] == pytest.approx(equities(cards, w, [h])[0], abs=1e-12)
        touches_board = np.isin(HOLDINGS, cards).any(axis=1)
        assert np.isnan(every[touches_board]).all() and not np.isnan(every[~touches_board]).any()


def test_board_clashes_are_nan_and_known_value() -> None:
    e = equities(parse_cards("3h4cJh"))
    assert np.isnan(e[parse_holding("3h2c")])
    assert round(float(e[parse_holding("AdQc")]), 6) == 0.511399


def test_preflop_table_against_brute_force() -> None:
    table = preflop_table()
    rng = np.random.default_rng(5)
    h, o = rng.choice(1326, 2, replace=False)
    while clashes()[h, o]:
        o = rng.integers(1326)
    a, b = HOLDINGS[h].tolist()
    w = np.zeros(1326)
    w[o] = 1.0
    assert table[h, o] == pytest.approx(brute_force([a, b], [], w), abs=1e-12)
    assert table[h, o] + table[o, h] == pytest.approx(1.0, abs=1e-12)
    assert table[h, o] * 2 * BOARDS == pytest.approx(round(table[h, o] * 2 * BOARDS))


def test_preflop_against_a_range_is_the_weighted_table() -> None:
    rng = np.random.default_rng(9)
    w = rng.random(1326)
    h = parse_holding("QsJs")
    live = ~clashes()[h]
    expected = (preflop_table()[h] * w)[live].sum() / w[live].sum()
    assert equity(parse_cards("QsJs"), [], w) == pytest.approx(expected, abs=1e-12)
    assert equities([], w)[h] == pytest.approx(expected, abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(1, 12))
def test_preflop_product_is_the_product_of_each_equity(seed: int, ranges: int,
                                                        asked: int) -> None:
    """The same floats as numpy's product of the per-range equities, a range with nothing
    left (all its weight on the holding's cards) counting 0."""
    rng = np.random.default_rng(seed)
    w = [rng.random(1326) * (rng.random(1326) < 0.3) for _ in range(ranges)]
    holdings = rng.choice(1326, size=asked, replace=False)
    w[0] = np.where(clashes()[holdings[0]], w[0], 0.0)  # nothing left for the first holding
    each = preflop_equities(w, holdings)
    expected = np.prod(np.where(np.isnan(each), 0.0, each), axis=1)
    got = preflop_equity_product(w, holdings)
    assert got.tolist() == expected.tolist()
    assert got[0] == 0.0


def test_preflop_product_checks_its_ranges() -> None:
    with pytest.raises(RangeWeightsError, match="1326 finite values"):
        preflop_equity_product([np.ones(1326), np.full(1326, -1.0)], [5])
    with pytest.raises(RangeWeightsError):
        preflop_equity_product([np.full(1326, np.inf)], [5])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
@example(830585)  # a river where the sweep's running differences left -2e-19
def test_equity_is_a_share(seed: int) -> None:
    rng = np.random.default_rng(seed)
    deck = rng.permutation(52)
    board = deck[:int(rng.choice([3, 4, 5]))].tolist()
    w = rng.random(1326) * (rng.random(1326) < 0.5)
    e = equities(board, w)
    live = e[~np.isnan(e)]
    assert ((live >= 0) & (live <= 1)).all()


def test_bad_input() -> None:
    with pytest.raises(RangeWeightsError, match="1326 finite values"):
        equities([], np.ones(5))
    with pytest.raises(RangeWeightsError):
        equities([], np.full(1326, np.nan))
    with pytest.raises(CardError, match="bad board"):
        equities([1, 2])
    with pytest.raises(CardError, match="hole card is on the board"):
        equity([0, 1], [1, 5, 9])
    with pytest.raises(CardError, match="two distinct cards"):
        equity([3, 3], [])
    assert np.isnan(equities([], np.zeros(1326))).all()


def test_multiway_against_brute_force_over_independent_opponents() -> None:
    from simulator.core.equity import multiway_equities

    rng = np.random.default_rng(11)
    board = parse_cards("2c7d9sTh")
    ranges = []
    for _ in range(2):
        w = np.zeros(1326)
        w[rng.choice(1326, 25, replace=False)] = rng.random(25)
        ranges.append(w)
    hole = parse_cards("AsKd")
    dead = set(hole) | set(board)
    share = mass = 0.0
    for river in [c for c in range(52) if c not in dead]:
        full = np.array([*board, river])
        mine = evaluate(np.array([[*hole, *full]]))[0]
        live = [[(o, w[o], evaluate(np.array([[*HOLDINGS[o], *full]]))[0])
                 for o in np.flatnonzero(w) if not set(HOLDINGS[o].tolist()) & (dead | {river})]
                for w in ranges]
        for _o1, w1, r1 in live[0]:
            for _o2, w2, r2 in live[1]:
                best = min(mine, r1, r2)
                if mine == best:
                    share += w1 * w2 / [mine, r1, r2].count(best)
                mass += w1 * w2
    expected = share / mass
    assert multiway_equities(board, ranges, [parse_holding("AsKd")])[0] == pytest.approx(
        expected, abs=1e-12)
    assert multiway_equities(board, ranges)[parse_holding("AsKd")] == pytest.approx(
        expected, abs=1e-12)

"""HS, PPOT, NPOT and EHS: Papp's worked vectors, brute force with treys, invariants."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from treys import Evaluator

from agent.strength.board_table import board_table
from agent.strength.ehs import (
    effective_hand_strength,
    field_hand_strength,
    hand_detail,
    hand_potential,
    hand_strength,
    hand_strength_n,
    hand_strength_product,
    potentials_from_hp,
)
from simulator.core.cards import (
    HOLDING_INDEX,
    NUM_HOLDINGS,
    format_cards,
    holding_cards,
    parse_cards,
    to_treys,
)

TREYS = Evaluator()
SPOT = ("AdQc", "3h4cJh")


# --- the literal enumeration, with treys as the oracle ---------------------------------------


def treys_rank(cards: list[int]) -> int:
    return TREYS.evaluate([to_treys(c) for c in cards[:2]], [to_treys(c) for c in cards[2:]])


def brute_force(hole: list[int], board: list[int], weights: np.ndarray, lookahead: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """``([ahead, tied, behind], HP)`` by the seed's pseudocode, HP in runout units."""
    known = set(hole) | set(board)
    unseen = [c for c in range(52) if c not in known]
    ours = treys_rank(hole + board)
    sums, hp = np.zeros(3), np.zeros((3, 3))
    runouts = list(itertools.combinations(unseen, lookahead)) if lookahead else []
    our_final = {r: treys_rank(hole + board + list(r)) for r in runouts}
    for a, b in itertools.combinations(unseen, 2):
        w = weights[HOLDING_INDEX[a, b]]
        if w == 0:
            continue
        theirs = treys_rank([a, b] + board)
        now = 0 if ours < theirs else (1 if ours == theirs else 2)
        sums[now] += w
        for r in runouts:
            if a in r or b in r:
                continue
            mine, opp = our_final[r], treys_rank([a, b] + board + list(r))
            hp[now, 0 if mine < opp else (1 if mine == opp else 2)] += w
    return sums, hp


def random_spot(rng: np.random.Generator, n_board: int) -> tuple[list[int], list[int]]:
    cards = rng.permutation(52)[: 2 + n_board].tolist()
    return cards[:2], cards[2:]


def random_weights(rng: np.random.Generator) -> np.ndarray:
    # Many zeros and uneven positive weights, so a weighting bug cannot hide in uniformity.
    w = rng.random(NUM_HOLDINGS) * (rng.random(NUM_HOLDINGS) < 0.4)
    return np.round(w * 8) / 8


def check_against_brute_force(hole: list[int], board: list[int], weights: np.ndarray | None,
                              lookahead: int) -> None:
    w = np.ones(NUM_HOLDINGS) if weights is None else weights
    look = lookahead if len(board) < 5 else 0
    sums, hp = brute_force(hole, board, w, look)
    d = hand_detail(hole, board, weights, lookahead)
    assert (d.ahead, d.tied, d.behind) == pytest.approx(tuple(sums), abs=1e-9)
    if look:
        assert np.array(d.hp) == pytest.approx(hp, abs=1e-9)
        assert d.potentials() == pytest.approx(potentials_from_hp(hp), abs=1e-12)
        if look == 5 - len(board):  # every card to come: EHS is the weighted showdown equity
            equity = (hp[:, 0].sum() + hp[:, 1].sum() / 2) / hp.sum()
            ehs = effective_hand_strength(hole, board, weights, lookahead=look).ehs
            assert ehs == pytest.approx(equity, abs=1e-12)
    else:
        assert d.hp is None and d.potentials() == (0.0, 0.0)


# --- Papp's worked test vectors --------------------------------------------------------


def test_vector_counts_on_the_flop() -> None:
    d = hand_detail(*SPOT)
    assert (d.ahead, d.tied, d.behind) == (628, 9, 444)
    assert hand_strength(*SPOT) == pytest.approx(0.585106, abs=1e-6)
    assert hand_strength_n(*SPOT, opponents=5) == pytest.approx(0.068576, abs=1e-6)


def test_vector_two_card_potential() -> None:
    d = hand_detail(*SPOT, lookahead=2)
    assert d.hp == ((449005, 3211, 169504), (0, 8370, 540), (91981, 1036, 346543))
    assert d.lookahead == 2
    assert hand_potential(*SPOT, lookahead=2) == pytest.approx((0.208324, 0.273693), abs=1e-6)
    e = effective_hand_strength(*SPOT, lookahead=2)
    assert (e.ehs, e.ehs_optimistic) == pytest.approx((0.511399, 0.671539), abs=1e-6)


def test_vector_one_card_potential() -> None:
    e = effective_hand_strength(*SPOT, lookahead=1)
    got = (e.ppot, e.npot, e.ehs, e.ehs_optimistic)
    assert got == pytest.approx((0.108312, 0.145402, 0.544969, 0.630044), abs=1e-6)


def test_vector_second_spot() -> None:
    d = hand_detail("As8d", "9c8h2s")
    assert (d.ahead, d.tied, d.behind) == (903, 6, 172)
    assert d.hs == pytest.approx(0.838113, abs=1e-6)


def test_total_denominators_differ_from_papp_as_defined() -> None:
    hp = np.array(hand_detail(*SPOT, lookahead=2).hp)
    ppot, npot = hand_potential(*SPOT, lookahead=2, denominators="total")
    total = hp.sum(axis=1)
    assert ppot == pytest.approx((hp[2, 0] + hp[2, 1] / 2 + hp[1, 0] / 2) / (total[2] + total[1]))
    assert npot == pytest.approx((hp[0, 2] + hp[1, 2] / 2 + hp[0, 1] / 2) / (total[0] + total[1]))
    assert ppot < 0.208324


# --- inputs ----------------------------------------------------------------------------------


def test_cards_as_indices_strings_and_any_board_order() -> None:
    a = hand_detail(parse_cards("AdQc"), parse_cards("3h4cJh"), lookahead=2)
    b = hand_detail("Qc Ad", "Jh,3h,4c", lookahead=2)
    assert (a.ahead, a.tied, a.behind, a.hp) == (b.ahead, b.tied, b.behind, b.hp)


@pytest.mark.parametrize(("hole", "board", "lookahead", "message"), [
    ("AdQx", "3h4cJh", 1, "bad card"),
    ("Ad", "3h4cJh", 1, "two cards"),
    ("AdQc", "3h4c", 1, "3, 4 or 5 cards"),
    ("AdQc", "", 1, "3, 4 or 5 cards"),
    ("AdQc", "Ad4cJh", 1, "clash"),
    ("AdQc", "3h4cJh3h", 1, "repeated"),
    ("AdQc", "3h4cJh5s", 2, "lookahead 2 on the turn"),
    ("AdQc", "3h4cJh5s9d", 2, "lookahead 2 on the river"),
    ("AdQc", "3h4cJh", 3, "bad lookahead"),
])
def test_bad_spots_are_refused(hole: str, board: str, lookahead: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        hand_detail(hole, board, lookahead=lookahead)


def test_weights_that_only_clash_are_refused() -> None:
    # AdAc shares the hero's Ad, 3h3s the board's 3h.
    with pytest.raises(ValueError, match="weighs 0"):
        hand_strength(*SPOT, weights={"AdAc": 1.0, "3h3s": 2.0})
    with pytest.raises(ValueError, match="weighs 0"):
        hand_strength(*SPOT, weights=np.zeros(NUM_HOLDINGS))


def test_clashing_weights_are_ignored() -> None:
    w = np.ones(NUM_HOLDINGS)
    for cards in ("AdKs", "Jh2c", "QcQs"):  # clash with hole or board
        w[HOLDING_INDEX[tuple(parse_cards(cards))]] = 1000.0
    assert hand_detail(*SPOT, weights=w, lookahead=2) == hand_detail(*SPOT, lookahead=2)


# --- weighted cases known by hand ------------------------------------------------------------


@pytest.mark.parametrize(("holding", "hs"), [("KdKs", 0.0), ("Ah9s", 1.0), ("AhQs", 0.5)])
def test_a_range_of_one_holding(holding: str, hs: float) -> None:
    d = hand_detail(*SPOT, weights={holding: 3.0}, lookahead=2)
    assert d.hs == hs
    # Against one holding every total is the holding's 990 runouts times its weight.
    assert sum(map(sum, d.hp)) == 3.0 * 990
    hole, board = parse_cards(SPOT[0]), parse_cards(SPOT[1])
    opp = parse_cards(holding)
    wins = ties = 0
    for r in itertools.combinations([c for c in range(52) if c not in hole + board + opp], 2):
        mine, theirs = treys_rank(hole + board + list(r)), treys_rank(opp + board + list(r))
        wins += mine < theirs
        ties += mine == theirs
    e = effective_hand_strength(*SPOT, weights={holding: 3.0}, lookahead=2)
    assert e.ehs == pytest.approx((wins + ties / 2) / 990, abs=1e-12)


def test_a_range_without_the_hands_that_beat_us() -> None:
    hole, board = parse_cards(SPOT[0]), parse_cards(SPOT[1])
    ours = treys_rank(hole + board)
    w = np.zeros(NUM_HOLDINGS)
    for h in range(NUM_HOLDINGS):
        a, b = holding_cards(h)
        if {a, b} & set(hole + board):
            continue
        w[h] = 1.0 + h % 3 if treys_rank([a, b] + board) > ours else 0.0
    d = hand_detail(*SPOT, weights=w, lookahead=2)
    assert d.hs == 1.0 and d.tied == 0 and d.behind == 0
    ppot, npot = d.potentials()
    assert ppot == 0.0  # nothing behind or tied: no denominator, nothing to gain
    assert 0 < npot < 1
    e = effective_hand_strength(*SPOT, weights=w, lookahead=2)
    assert e.ehs == pytest.approx(1 - npot) and e.ehs_optimistic == 1.0


def test_multi_opponent_strength() -> None:
    hs = hand_strength(*SPOT)
    assert hand_strength_n(*SPOT, opponents=3) == pytest.approx(hs ** 3)
    tight, loose = "QQ+, AJs+, AQo+", None
    product = hand_strength_product(*SPOT, [tight, loose])
    assert product == pytest.approx(hand_strength(*SPOT, tight) * hs)
    # Field array: each opponent's live weights normalised, averaged, HS of that, squared.
    w_tight = hand_detail(*SPOT, weights=tight)
    field_hs = ((w_tight.ahead + w_tight.tied / 2) / (w_tight.ahead + w_tight.tied
                                                      + w_tight.behind) + hs) / 2
    assert field_hand_strength(*SPOT, [tight, loose]) == pytest.approx(field_hs ** 2)
    assert field_hand_strength(*SPOT, [None, None]) == pytest.approx(hs ** 2)
    with pytest.raises(ValueError, match="opponents"):
        hand_strength_n(*SPOT, opponents=0)


def test_ehs_uses_hs_n() -> None:
    e = effective_hand_strength(*SPOT, opponents=3, lookahead=2)
    assert e.hs_n == pytest.approx(e.hs ** 3)
    assert e.ehs == pytest.approx(e.hs_n * (1 - e.npot) + (1 - e.hs_n) * e.ppot)
    assert e.ehs_optimistic == pytest.approx(e.hs_n + (1 - e.hs_n) * e.ppot)


# --- brute force on random spots -------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
def test_river_and_turn_match_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for n_board in (5, 4):
        hole, board = random_spot(rng, n_board)
        check_against_brute_force(hole, board, None, 1)
        check_against_brute_force(hole, board, random_weights(rng), 1)


def test_flop_one_card_matches_brute_force() -> None:
    rng = np.random.default_rng(7)
    hole, board = random_spot(rng, 3)
    check_against_brute_force(hole, board, random_weights(rng), 1)


def test_flop_two_cards_with_weights_matches_brute_force() -> None:
    rng = np.random.default_rng(8)
    hole, board = random_spot(rng, 3)
    check_against_brute_force(hole, board, random_weights(rng), 2)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 16))
def test_many_spots_match_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for n_board in (5, 4, 3):
        hole, board = random_spot(rng, n_board)
        check_against_brute_force(hole, board, None, 1)
        check_against_brute_force(hole, board, random_weights(rng), 1)
    hole, board = random_spot(rng, 3)
    check_against_brute_force(hole, board, random_weights(rng) if seed % 2 else None, 2)


# --- the invariant: EHS with every card to come is the showdown equity -------------------------


def eval7_equity(hole: list[int], board: list[int], holdings: list[int]) -> float:
    """Exact equity against one opponent holding any of ``holdings`` (equal weights), eval7.

    eval7 sums in single precision, hence the tolerance of 1e-7 below.

    eval7's exact routine takes a complete board and ignores weights, so each runout's equity
    is weighted by the number of listed holdings still possible on it.
    """
    import eval7

    def card(c: int) -> eval7.Card:
        return eval7.Card(format_cards([c]))

    opp = [holding_cards(h) for h in holdings]
    villain = [((card(a), card(b)), 1.0) for a, b in opp]
    known = set(hole) | set(board)
    unseen = [c for c in range(52) if c not in known]
    num = den = 0.0
    for r in itertools.combinations(unseen, 5 - len(board)):
        live = sum(1 for a, b in opp if a not in r and b not in r and a not in known
                   and b not in known)
        if live:
            eq = eval7.py_hand_vs_range_exact([card(c) for c in hole], villain,
                                              [card(c) for c in board + list(r)])
            num += eq * live
            den += live
    return num / den


@pytest.mark.parametrize(("hole", "board"), [("AdQc", "3h4cJh"), ("7s6s", "8s9dKs"),
                                             ("2c2d", "Ah Kd 2h 7s")])
def test_ehs_equals_exact_equity_uniform(hole: str, board: str) -> None:
    h, b = parse_cards(hole), parse_cards(board)
    cards_to_come = 5 - len(b)
    e = effective_hand_strength(h, b, lookahead=cards_to_come)
    assert e.ehs == pytest.approx(eval7_equity(h, b, list(range(NUM_HOLDINGS))), abs=1e-7)


def test_ehs_equals_exact_equity_of_a_range() -> None:
    h, b = parse_cards("AdQc"), parse_cards("3h4cJh")
    rng = "QQ+, AJs+, KQo, 99-55, 65s, T9s"
    from agent.strength.ranges import parse_range
    listed = np.flatnonzero(parse_range(rng)).tolist()
    e = effective_hand_strength(h, b, weights=rng, lookahead=2)
    assert e.ehs == pytest.approx(eval7_equity(h, b, listed), abs=1e-7)


def test_ehs_lookahead_one_from_flop_is_not_the_equity() -> None:
    # the invariant does not hold for one card from the flop; guard the vectors.
    one = effective_hand_strength(*SPOT, lookahead=1).ehs
    assert abs(one - 0.511399) > 0.01


# --- properties on random spots ---------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_board=st.sampled_from([3, 4, 5]),
       weighted=st.booleans())
def test_properties_of_any_spot(seed: int, n_board: int, weighted: bool) -> None:
    rng = np.random.default_rng(seed)
    hole, board = random_spot(rng, n_board)
    weights = random_weights(rng) if weighted else None
    d = hand_detail(hole, board, weights)
    # The one-pass HS of every holding agrees with this hand's own sums.
    assert (board_table(board).hs_all(weights)[HOLDING_INDEX[hole[0], hole[1]]] ==
        pytest.approx(d.hs, abs=1e-12))
    if n_board == 5:
        return
    # Every live opponent holding meets the same number of runouts: C(unseen - 2, lookahead).
    runouts = math.comb(52 - 2 - n_board - 2, 1)
    totals = np.array(d.hp).sum(axis=1)
    assert totals == pytest.approx(np.array([d.ahead, d.tied, d.behind]) * runouts)
    ppot, npot = d.potentials()
    assert 0 <= ppot <= 1 and 0 <= npot <= 1
    alt_ppot, alt_npot = d.potentials("total")
    assert alt_ppot <= ppot + 1e-12 and alt_npot <= npot + 1e-12

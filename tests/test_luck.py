"""The luck correction: exact equities against a treys brute force, zero mean, zero sum."""

import itertools

import eval7
import numpy as np
import pytest
from treys import Card, Evaluator

from simulator.arena.luck import equity, luck_of_hand
from simulator.core.cards import format_card, parse_cards

_EVAL = Evaluator()


def _treys_equity(holes: list[list[int]], board: list[int], dead: list[int]) -> np.ndarray:
    """Brute-force showdown shares with treys as the oracle."""
    used = {c for h in holes for c in h} | set(board) | set(dead)
    deck = [c for c in range(52) if c not in used]
    acc = np.zeros(len(holes))
    runs = list(itertools.combinations(deck, 5 - len(board)))
    for run in runs:
        full = [Card.new(format_card(c)) for c in (*board, *run)]
        ranks = [_EVAL.evaluate([Card.new(format_card(c)) for c in h], full) for h in holes]
        best = min(ranks)
        winners = [i for i, r in enumerate(ranks) if r == best]
        for i in winners:
            acc[i] += 1 / len(winners)
    return acc / len(runs)


CASES = [
    (["AhAd", "7c2s"], "Ac7d2h", []),
    (["AsKd", "QhQd", "Tc9c"], "Ks8c7c", []),
    (["AsKd", "QhQs", "Tc9c"], "Ks8c7c2d", ["Jh", "Jd"]),
    (["5c4c", "5d4d"], "AhKsQd3h", []),  # a chop on most rivers
]


@pytest.mark.parametrize("holes, board, dead", CASES)
def test_exact_equity_matches_treys_enumeration(holes: list[str], board: str,
                                                dead: list[str]) -> None:
    hs = [parse_cards(h) for h in holes]
    dead_cards = [c for d in dead for c in parse_cards(d)]
    ours = equity(hs, parse_cards(board), dead_cards, rng=None, samples=0)
    assert ours == pytest.approx(_treys_equity(hs, parse_cards(board), dead_cards), abs=1e-12)


def test_monte_carlo_equity_is_close_and_seeded() -> None:
    hs = [parse_cards("AhAd"), parse_cards("KcKs")]
    a = equity(hs, [], [], rng=np.random.default_rng(5), samples=20_000)
    b = equity(hs, [], [], rng=np.random.default_rng(5), samples=20_000)
    assert a.tolist() == b.tolist()
    oracle = eval7.py_hand_vs_range_monte_carlo(
        [eval7.Card("Ah"), eval7.Card("Ad")], eval7.HandRange("KcKs"), [], 400_000)
    assert a[0] == pytest.approx(oracle, abs=0.012)  # 4.5 sd of our 20k samples
    assert a.sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="needs a generator"):
        equity(hs, [], [], rng=None, samples=0)


def _turn_point(pot_each: int) -> list:
    return [(3, (pot_each, pot_each, 0), (True, True, False))]


def test_river_luck_averages_to_zero_over_every_river_card() -> None:
    holes = [parse_cards("AsKd"), parse_cards("QhQd"), parse_cards("Tc9c")]  # seat 2 folded
    turn = parse_cards("Ks8c7c2d")
    used = {c for h in holes for c in h} | set(turn)
    total = np.zeros(3)
    rivers = [c for c in range(52) if c not in used]
    for river in rivers:
        luck = luck_of_hand(holes, [*turn, river], _turn_point(30), rng=None, samples=0)
        assert luck.sum() == pytest.approx(0.0, abs=1e-9)
        assert luck[2] == 0.0  # a folded seat has no luck
        total += luck
    assert total == pytest.approx(np.zeros(3), abs=1e-9)


def test_luck_of_each_event_is_pot_times_equity_change() -> None:
    holes = [parse_cards("AsKd"), parse_cards("QhQd")]
    board = parse_cards("Ks8c7c2dQs")
    flop_eq = _treys_equity(holes, board[:3], [])
    turn_eq = _treys_equity(holes, board[:4], [])
    river_eq = _treys_equity(holes, board, [])
    points = [(2, (10, 10), (True, True)), (3, (30, 30), (True, True))]
    luck = luck_of_hand(holes, board, points, rng=None, samples=0)
    expected = 20 * (turn_eq - flop_eq) + 60 * (river_eq - turn_eq)
    assert luck == pytest.approx(expected, abs=1e-9)
    assert luck[1] > 0  # QQ hit its set on the river


def test_flop_luck_uses_monte_carlo_before_and_exact_after() -> None:
    holes = [parse_cards("AhAd"), parse_cards("7c2s")]
    board = parse_cards("Ac7d2h7s7h")
    points = [(1, (4, 4), (True, True))]
    a = luck_of_hand(holes, board, points, rng=np.random.default_rng(1), samples=40_000)
    after = _treys_equity(holes, board[:3], [])
    # AA is about 88% against 72o before the flop
    assert a[0] == pytest.approx(8 * (after[0] - 0.88), abs=0.05)
    assert a.sum() == pytest.approx(0.0, abs=1e-9)


def test_flop_luck_is_unbiased_over_sampled_flops() -> None:
    """Mean luck over random flops is zero within its Monte Carlo error."""
    rng = np.random.default_rng(7)
    holes = [parse_cards("AhKh"), parse_cards("9s9d")]
    deck = [c for c in range(52) if c not in {*holes[0], *holes[1]}]
    values = []
    for _ in range(300):
        board = rng.choice(deck, size=5, replace=False).tolist()
        luck = luck_of_hand(holes, board, [(1, (2, 2), (True, True))], rng=rng, samples=200)
        values.append(luck[0])
    values = np.array(values)
    assert abs(values.mean()) < 4 * values.std(ddof=1) / np.sqrt(len(values))

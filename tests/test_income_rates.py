"""Income-rate tables: Papp's anchors, the shipped data, the API, and independent oracles."""

from __future__ import annotations

import itertools

import eval7
import numpy as np
import pytest

from agent.preflop.allin_equity import allin_equity, showdown_share
from agent.preflop.errors import IncomeRateError
from agent.preflop.income_rates import (
    TABLE_SIZES,
    IncomeRate,
    income_rate,
    ir,
    ir_vector,
    parse_table,
)
from agent.strength.ranges import HAND_CLASSES, HOLDING_CLASS, class_holdings
from simulator.core.cards import HOLDINGS, format_card, holding_cards, parse_cards
from simulator.core.errors import CardError, HoldemError
from simulator.core.hand_ranks import evaluate

# --- Papp's anchors: his simulated values, so within 5 (IR2), 10 (IR7) --


@pytest.mark.parametrize(("hand", "players", "papp", "tolerance"), [
    ("AA", 7, 2043, 10), ("72o", 7, -495, 10), ("32s", 2, -279, 5), ("32o", 2, -351, 5),
])
def test_papp_anchors(hand: str, players: int, papp: int, tolerance: int) -> None:
    assert abs(ir(hand, players) - papp) <= tolerance


def test_split_pot_equity_of_32o() -> None:
    # Ties split: measured here about -354, a little below Papp's -351.
    assert -357 <= ir("32o", 2) <= -352


def test_lowest_and_highest_classes() -> None:
    table = {x: {c: ir(c, x) for c in HAND_CLASSES} for x in TABLE_SIZES}
    assert min(table[2], key=table[2].get) == "32o"
    assert min(table[7], key=table[7].get) == "72o"
    for x in TABLE_SIZES:
        assert max(table[x], key=table[x].get) == "AA"
    # Papp: 88 of the 169 classes have a non-negative IR7; our estimate must be close.
    assert 84 <= sum(v >= 0 for v in table[7].values()) <= 92


def test_income_grows_with_players_for_aces_and_falls_for_trash() -> None:
    aa, trash = income_rate("AA"), income_rate("72o")
    assert aa.ir2 < aa.ir4 < aa.ir7
    assert trash.ir2 > trash.ir4 > trash.ir7


def test_pairs_and_suits_order() -> None:
    pairs = [c for c in HAND_CLASSES if len(c) == 2]
    for x in TABLE_SIZES:
        values = [ir(p, x) for p in pairs]  # AA down to 22
        assert values == sorted(values, reverse=True)
        for hi, lo in itertools.combinations("AKQJT98765432", 2):
            assert ir(f"{hi}{lo}s", x) > ir(f"{hi}{lo}o", x)  # suited beats offsuit


# --- an independent oracle: eval7's Monte Carlo equity against a random hand --------------


@pytest.mark.parametrize("hand", ["AA", "72o", "32s", "AKs", "T9s", "22", "K5o"])
def test_ir2_against_eval7(hand: str) -> None:
    cards = [eval7.Card(format_card(c)) for c in holding_cards(int(class_holdings(hand)[0]))]
    anyhand = eval7.HandRange(",".join(HAND_CLASSES))
    iterations = 2_000_000
    equity = eval7.py_hand_vs_range_monte_carlo(cards, anyhand, [], iterations)
    oracle = 1000 * (2 * equity - 1)
    se = 1000 * 2 * 0.5 / np.sqrt(iterations)  # at most; ours is about half of it
    assert abs(ir(hand, 2) - oracle) <= 4 * se + 1.0


def test_kernel_shares_match_eval7_on_the_same_deals() -> None:
    """Our ranks and tie splitting against eval7 and a plain Python share, deal by deal."""
    rng = np.random.default_rng(7)
    ties = 0
    for _ in range(400):
        players = int(rng.integers(2, 8))
        deck = rng.permutation(52)
        board, holes = deck[:5], deck[5:5 + 2 * players].reshape(players, 2)
        ours = evaluate(np.array([np.concatenate([board, h]) for h in holes]))
        ranks = np.array(ours, dtype=np.int64)
        scores = [eval7.evaluate([eval7.Card(format_card(int(c)))
                                  for c in np.concatenate([board, h])]) for h in holes]
        best = max(scores)  # eval7: higher is better
        winners = [i for i, s in enumerate(scores) if s == best]
        expected = 1 / len(winners) if 0 in winners else 0.0
        ties += len(winners) > 1
        assert showdown_share(ranks, players) == pytest.approx(expected)
    assert ties > 5  # the sample exercises split pots


def test_estimates_are_reproducible_and_have_honest_errors() -> None:
    a = allin_equity("AhKh", (2, 4, 7), deals=20_000, seed=3)
    b = allin_equity(parse_cards("KhAh"), (7, 2, 4), deals=20_000, seed=3)  # any order
    assert a == b
    c = allin_equity("AhKh", (2, 4, 7), deals=20_000, seed=4)
    assert a != c
    for x in TABLE_SIZES:  # two independent runs agree within their errors
        assert abs(a.income_rate(x) - c.income_rate(x)) <= 5 * np.hypot(
            a.standard_error(x), c.standard_error(x))
        assert abs(a.income_rate(x) - ir("AKs", x)) <= 5 * a.standard_error(x) + 1
    # AA heads-up: 85.2% equity, and a Bernoulli-like share has variance near p(1 - p)
    aa = allin_equity("AsAd", (2,), deals=40_000, seed=5)
    assert aa.variance[0] == pytest.approx(0.852 * 0.148, rel=0.1)


@pytest.mark.parametrize(("args", "message"), [
    (("AsAs", (2,), 10, 1), "repeated card"), (("As", (2,), 10, 1), "exactly two"),
    (("AsKs", (1,), 10, 1), "table sizes"), (("AsKs", (11,), 10, 1), "table sizes"),
    (("AsKs", (2,), 1, 1), "deals"),
])
def test_allin_equity_refuses_bad_input(args: tuple, message: str) -> None:
    with pytest.raises(CardError, match=message):
        allin_equity(*args)


# --- the API -------------------------------------------------------------------------------


def test_every_form_of_a_hand_names_the_same_class() -> None:
    for h in range(0, 1326, 37):
        a, b = holding_cards(h)
        name = HAND_CLASSES[int(HOLDING_CLASS[h])]
        text = format_card(b) + format_card(a)
        assert income_rate(h) == income_rate((a, b)) == income_rate(text) == income_rate(name)
    assert income_rate("AA") == IncomeRate("AA", ir("AA", 2), ir("AA", 4), ir("AA", 7))
    assert income_rate("AKs").at(4) == ir("KsAs", 4)


def test_vectors_follow_the_classes() -> None:
    for x in TABLE_SIZES:
        v = ir_vector(x)
        assert v.shape == (1326,) and v.dtype == np.float64 and not v.flags.writeable
        assert ir_vector(x) is v  # cached: every caller shares one array
        for h in (0, 77, 500, 1325):
            assert v[h] == ir(h, x)
        # holdings of one class share one value
        for name in ("AA", "72o", "T9s"):
            assert len(set(v[class_holdings(name)])) == 1
    assert ir_vector(7)[HOLDINGS[:, 0] == parse_cards("2c")[0]].min() == ir("72o", 7)


@pytest.mark.parametrize(("hand", "players", "message"), [
    ("AKx", 2, "bad hand"), ("AsKsQs", 2, "exactly two"), (1326, 2, "0..1325"),
    (-1, 2, "0..1325"), ("AA", 3, "table size 3"), (True, 2, "bad hand"),
])
def test_bad_hands_and_sizes(hand: object, players: int, message: str) -> None:
    with pytest.raises(IncomeRateError, match=message) as info:
        ir(hand, players)  # type: ignore[arg-type]
    assert isinstance(info.value, HoldemError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(("text", "message"), [
    ("hand,ir2,ir4\nAA,1,2\n", "header"),
    ("hand,ir2,ir4,ir7\nAA,1,2,x\n", "integers"),
    ("hand,ir2,ir4,ir7\nAA,1,2,3\nAA,1,2,3\n", "line 3"),
    ("hand,ir2,ir4,ir7\nAX,1,2,3\n", "line 2"),
    ("hand,ir2,ir4,ir7\nAA,1,2,3\n", "missing classes: KK"),
])
def test_a_corrupt_table_is_refused(text: str, message: str) -> None:
    with pytest.raises(IncomeRateError, match=message):
        parse_table(text)


def test_the_shipped_file_round_trips() -> None:
    from importlib import resources
    text = resources.files("agent.preflop").joinpath("data", "income_rates.csv").read_text()
    table = parse_table(text)
    assert table.shape == (3, 169)
    lines = text.splitlines()
    assert lines[0] == "hand,ir2,ir4,ir7" and len(lines) == 170
    assert [line.split(",")[0] for line in lines[1:]] == list(HAND_CLASSES)

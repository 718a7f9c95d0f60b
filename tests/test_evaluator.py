import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from treys import Evaluator

from simulator.core.cards import parse_cards, to_treys
from simulator.core.hand_ranks import CLASS_NAMES, class_name, evaluate, rank_class

TREYS = Evaluator()


def treys_rank(row) -> int:
    cards = [to_treys(int(c)) for c in row]
    return TREYS.evaluate(cards[:2], cards[2:])


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.int8)


@pytest.mark.parametrize("k, n", [(7, 100_000), (6, 20_000), (5, 20_000)])
def test_agrees_with_treys_on_random_hands(k: int, n: int) -> None:
    hands = random_hands(n, k, seed=k)
    ours = evaluate(hands)
    ref = np.array([treys_rank(h) for h in hands])
    bad = np.flatnonzero(ours != ref)
    assert bad.size == 0, f"first disagreement: {hands[bad[0]].tolist()}"


@pytest.mark.slow
def test_agrees_with_treys_on_two_million_hands() -> None:
    hands = random_hands(2_000_000, 7, seed=99)
    ref = np.array([treys_rank(h) for h in hands])
    assert np.array_equal(evaluate(hands), ref)


EDGE_CASES = {
    "wheel straight": ("As2d3c4h5s9dKc", "Straight"),
    "wheel straight flush": ("Ah2h3h4h5hKhQd", "Straight Flush"),
    "six-high straight over the wheel": ("As2d3c4h5s6dKc", "Straight"),
    "flush beats straight": ("4h5h6h7d8h2hKc", "Flush"),
    "two trips make a full house": ("KsKdKc7h7d7sAc", "Full House"),
    "three pairs keep the best two": ("AsAdKcKh2s2d9c", "Two Pair"),
    "quads with a pair": ("9s9d9c9hAsAdKc", "Four of a Kind"),
    "royal flush": ("AsKsQsJsTs2d3c", "Royal Flush"),
    "steel wheel in six cards": ("5d4d3d2dAdKs", "Straight Flush"),
}


@pytest.mark.parametrize("name", list(EDGE_CASES))
def test_edge_cases_match_treys_and_class(name: str) -> None:
    text, expected_class = EDGE_CASES[name]
    row = parse_cards(text)
    rank = int(evaluate(row))
    assert rank == treys_rank(row)
    assert class_name(rank) == expected_class


def test_edge_case_orderings() -> None:
    def r(text: str) -> int:
        return int(evaluate(parse_cards(text)))

    assert r("As2d3c4h5s9dKc") > r("As2d3c4h5s6dKc")  # the wheel is the lowest straight
    assert r("AsAdKcKh2s2d9c") == r("AsAdKcKh9c3s4d")  # the third pair never plays
    assert r("KsKdKc7h7d7sAc") == r("KsKdKc7h7d2s3c")  # K full of 7, the lower trips are a pair
    assert r("9s9d9c9hAsAdKc") == r("9s9d9c9hAsQdJc")  # quads take the best kicker


def test_category_counts_over_every_five_card_hand() -> None:
    hands = np.array(list(itertools.combinations(range(52), 5)), dtype=np.int8)
    ranks = evaluate(hands)
    counts = Counter(rank_class(ranks).tolist())
    by_name = {CLASS_NAMES[c]: n for c, n in counts.items()}
    assert by_name == {
        "Royal Flush": 4, "Straight Flush": 36, "Four of a Kind": 624, "Full House": 3744,
        "Flush": 5108, "Straight": 10200, "Three of a Kind": 54912, "Two Pair": 123552,
        "Pair": 1098240, "High Card": 1302540,
    }
    assert len(np.unique(ranks)) == 7462 and ranks.min() == 1 and ranks.max() == 7462


def test_single_hand_and_dtypes() -> None:
    row = parse_cards("AdQc3h4cJh9s2d")
    expected = treys_rank(row)
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8):
        assert int(evaluate(np.array(row, dtype=dtype))) == expected
    assert evaluate(np.array([row, row])).tolist() == [expected, expected]
    assert evaluate(np.empty((0, 7), dtype=np.int8)).shape == (0,)


@pytest.mark.parametrize(
    "bad, message",
    [
        (np.zeros((3, 4), dtype=np.int8), "shape"),
        (np.zeros((2, 2, 7), dtype=np.int8), "shape"),
        (np.array([0, 1, 2, 3, 52]), "outside 0..51"),
        (np.array([0, 1, 2, 3, -1]), "outside 0..51"),
        (np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]]), "row 1.*repeated"),
        (np.array([0.5, 1, 2, 3, 4]), "dtype"),
    ],
)
def test_bad_input_raises_value_error(bad: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate(bad)


def test_class_name_rejects_bad_ranks() -> None:
    with pytest.raises(ValueError):
        class_name(0)
    with pytest.raises(ValueError):
        class_name(7463)


SUBSETS = {k: np.array(list(itertools.combinations(range(k), 5))) for k in (6, 7)}


@given(st.lists(st.integers(0, 51), min_size=6, max_size=7, unique=True), st.randoms())
@settings(max_examples=300, deadline=None)
def test_rank_is_best_five_card_subset_in_any_order(cards: list[int], rnd) -> None:
    hand = np.array(cards)
    best = evaluate(hand[SUBSETS[len(cards)]]).min()
    shuffled = hand.copy()
    rnd.shuffle(shuffled)
    assert int(evaluate(hand)) == int(evaluate(shuffled)) == int(best)


def test_the_shipped_tables_are_a_fresh_build_of_the_rules() -> None:
    """The evaluator loads its tables from the package instead of building them at import:
    the file must hold exactly what the rules give."""
    from simulator.core.hand_ranks import TABLES, build_tables, data_path, load_tables

    assert data_path().is_file()
    for shipped, built, loaded in zip(TABLES, build_tables(), load_tables(), strict=True):
        assert shipped.dtype == built.dtype and np.array_equal(shipped, built)
        assert np.array_equal(loaded, built)


def test_damaged_tables_are_refused_naming_the_file(tmp_path) -> None:
    from simulator.core.hand_ranks import HandRanksError, data_path, load_tables

    bad = tmp_path / "hand_ranks.npz"
    raw = bytearray(data_path().read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    bad.write_bytes(bytes(raw))
    with pytest.raises(HandRanksError, match="hand_ranks.npz"):
        load_tables(bad)

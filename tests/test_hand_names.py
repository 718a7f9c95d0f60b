"""A made hand in words: every class, the wheel, and the best five of seven deciding."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.core.cards import parse_cards, rank_of
from simulator.core.hand_names import PLURALS, RANKS, best_five, hand_name
from simulator.core.hand_ranks import class_name, evaluate


@pytest.mark.parametrize(("cards", "words"), [
    ("AhKhQhJhTh2c3d", "a royal flush"),
    ("9h8h7h6h5h", "a straight flush, nine high"),
    ("Ah2h3h4h5h9d", "a straight flush, five high"),
    ("QhQdQcQs2d7h", "four of a kind, queens"),
    ("KhKdKc4s4d", "a full house, kings over fours"),
    ("TsTdTh9s9d9c2h", "a full house, tens over nines"),  # the better trips on top
    ("Kh7h4h3h2h8c", "a flush, king high"),
    ("As2d3c4d5h9h9s", "a straight, five high"),
    ("AsKdQcJdTh", "a straight, ace high"),
    ("7h7d7c4s2d", "three of a kind, sevens"),
    ("6h6d2c2s3d", "two pair, sixes and deuces"),
    ("KhKd4c4s9d9h2c", "two pair, kings and nines"),  # the best two of three pairs
    ("JhJd4c7s9d2h3c", "a pair of jacks"),
    ("6h6dAcKsQd", "a pair of sixes"),
    ("AhKd9c7s4d2h3c", "ace high"),
])
def test_hands_in_words(cards: str, words: str) -> None:
    assert hand_name(parse_cards(cards)) == words


def test_the_words_agree_with_the_evaluator_on_random_hands() -> None:
    """The class is the evaluator's, the best five rank as the seven do, and every rank
    named is among the five."""
    rng = np.random.default_rng(53)
    lead = {"Royal Flush": "a royal flush", "Straight Flush": "a straight flush",
            "Four of a Kind": "four of a kind", "Full House": "a full house",
            "Flush": "a flush", "Straight": "a straight", "Three of a Kind": "three of a kind",
            "Two Pair": "two pair", "Pair": "a pair of", "High Card": ""}
    for _ in range(400):
        cards = [int(c) for c in rng.choice(52, size=7, replace=False)]
        five = best_five(cards)
        assert int(evaluate(np.array(five))) == int(evaluate(np.array(cards)))
        words = hand_name(cards)
        name = class_name(int(evaluate(np.array(cards))))
        assert words.startswith(lead[name]), (words, name)
        if name == "Royal Flush":
            continue
        tail = words.split(", ")[-1] if ", " in words else words.removeprefix("a pair of ")
        tokens = tail.replace(" over ", " ").replace(" and ", " ").removesuffix(" high").split()
        named = {RANKS.index(t) if t in RANKS else PLURALS.index(t) for t in tokens}
        assert named <= {rank_of(c) for c in five}, (words, five)

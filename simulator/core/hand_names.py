"""A made hand in words, as a player says it: "a pair of jacks", "two pair, kings and fours".

The best five of the cards decide (:func:`simulator.core.hand_ranks.evaluate`); the words
name what makes the class (the pair, the trips over the pair, the straight's top card), not
the kickers.

>>> from simulator.core.cards import parse_cards
>>> [hand_name(parse_cards(c)) for c in ("JhJd4c7s9d2h3c", "KhKd4c4s9d", "As2d3c4d5h9h9s")]
['a pair of jacks', 'two pair, kings and fours', 'a straight, five high']
>>> hand_name(parse_cards("AhKhQhJhTh")), hand_name(parse_cards("7h7d7c4s4d"))
('a royal flush', 'a full house, sevens over fours')
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import numpy as np

from simulator.core.cards import rank_of
from simulator.core.hand_ranks import evaluate, rank_class

RANKS = ("deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
         "queen", "king", "ace")
PLURALS = tuple("sixes" if r == "six" else r + "s" for r in RANKS)


def best_five(cards: Sequence[int]) -> tuple[int, ...]:
    """The five of ``cards`` (5 to 7) that make the best hand."""
    fives = list(itertools.combinations(cards, 5))
    ranks = evaluate(np.array(fives, dtype=np.int64).reshape(len(fives), 5))
    return tuple(int(c) for c in fives[int(np.argmin(ranks))])


def hand_name(cards: Sequence[int]) -> str:
    """The best hand of ``cards`` (5 to 7) in words."""
    five = best_five(cards)
    cls = int(rank_class(int(evaluate(np.array(five, dtype=np.int64)))))
    counts = Counter(rank_of(c) for c in five)
    # ranks by how many of each, then by rank: the pair before the kickers
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    top = _straight_top(set(counts)) if cls in (0, 1, 5) else order[0]
    return _words(cls, top, order)


def _straight_top(ranks: set[int]) -> int:
    return 3 if ranks == {12, 0, 1, 2, 3} else max(ranks)  # the wheel is five high


def _words(cls: int, top: int, order: list[int]) -> str:
    one, many = RANKS[top], PLURALS[top]
    return {
        0: "a royal flush",
        1: f"a straight flush, {one} high",
        2: f"four of a kind, {many}",
        3: f"a full house, {many} over {PLURALS[order[1]]}",
        4: f"a flush, {one} high",
        5: f"a straight, {one} high",
        6: f"three of a kind, {many}",
        7: f"two pair, {many} and {PLURALS[order[1]]}",
        8: f"a pair of {many}",
    }.get(cls, f"{one} high")

"""Suit permutations and a board's symmetries: by suit pattern, and as a group."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.core.cards import HOLDINGS, holding_index, parse_cards
from simulator.core.suits import CARD_PERMS, HOLDING_PERMS, board_symmetries


@pytest.mark.parametrize(("board", "count"), [
    ("Ah Kd 2c", 1),  # rainbow: spades are free, alone
    ("Ah Kh 2d", 2),  # two-tone: clubs and spades swap
    ("Ah Kh 2h", 6),  # monotone: the three other suits in any order
    ("7h 7d 2c", 2),  # a pair: its suits swap
    ("2c 2d 2h", 6),  # trips: any order of their suits, spades fixed
    ("As Ah Ad Kc", 6),  # trips beside the only club: their suits in any order
    ("9s 8s 7s 6s", 6),
    ("Ac Kd Qh Js", 1),
])
def test_symmetries_by_suit_pattern(board: str, count: int) -> None:
    cards = parse_cards(board)
    perms = board_symmetries(cards)
    assert len(perms) == count
    assert perms[0] == 0  # the identity first
    for k in perms:
        assert sorted(CARD_PERMS[k][cards].tolist()) == sorted(cards)


def test_symmetries_form_a_group_and_relabel_holdings_as_cards() -> None:
    rng = np.random.default_rng(3)
    for _ in range(50):
        board = rng.permutation(52)[:int(rng.choice([3, 4, 5]))].tolist()
        perms = set(board_symmetries(board).tolist())
        maps = {k: CARD_PERMS[k] for k in perms}
        for a in perms:
            for b in perms:
                composed = maps[a][maps[b]]
                assert any(np.array_equal(composed, maps[c]) for c in perms)
    k = 7
    for h in rng.choice(1326, 40, replace=False):
        a, b = HOLDINGS[h]
        assert HOLDING_PERMS[k, h] == holding_index(int(CARD_PERMS[k, a]), int(CARD_PERMS[k, b]))

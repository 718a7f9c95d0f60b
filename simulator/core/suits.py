"""Suit permutations: the 24 relabellings of the suits, as maps of cards and of holdings, and
the ones that leave a board as it is.

Poker's rules never read a suit's name, only whether suits are equal, so relabelling the
suits of every card in play changes no hand rank. A table over holdings on a board is
therefore the same table, its holdings relabelled, on the relabelled board; and a
relabelling that maps the board onto itself (a **symmetry** of the board) maps the table onto
itself. Solvers use the first fact to keep one row per class of boards; enumerations use the
second to count one next card per class of next cards.

>>> from simulator.core.cards import format_cards, parse_cards
>>> SUIT_PERMS[0].tolist()  # the identity
[0, 1, 2, 3]
>>> format_cards(CARD_PERMS[1][parse_cards("Ac 2d 3h 4s")])  # hearts and spades swapped
'Ac2d3s4h'
>>> len(board_symmetries(parse_cards("Ah Kh 2d")))  # clubs and spades may swap
2
>>> len(board_symmetries(parse_cards("Ah Kd 2c")))  # only spades are free: none
1
>>> len(board_symmetries(parse_cards("Ah Kh 2h")))  # the three other suits, any order
6
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from simulator.core.cards import HOLDING_INDEX, HOLDINGS, NUM_CARDS

SUIT_PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
"""The 24 permutations of the suits, in ``itertools.permutations`` order; row 0 is the
identity."""
CARD_PERMS = np.array([[(c >> 2) * 4 + p[c & 3] for c in range(NUM_CARDS)] for p in SUIT_PERMS],
                      dtype=np.int64)
"""``CARD_PERMS[k, c]``: card c under suit permutation k."""
HOLDING_PERMS = np.array([HOLDING_INDEX[cp[HOLDINGS[:, 0]], cp[HOLDINGS[:, 1]]]
                          for cp in CARD_PERMS], dtype=np.int64)
"""``HOLDING_PERMS[k, h]``: holding h under suit permutation k."""
for _table in (SUIT_PERMS, CARD_PERMS, HOLDING_PERMS):
    _table.setflags(write=False)


def board_symmetries(board: Sequence[int]) -> np.ndarray:
    """The suit permutations (rows of :data:`SUIT_PERMS`) that map ``board`` onto itself, as
    a set of cards; the identity first."""
    cards = np.asarray(board, dtype=np.int64)
    moved = np.sort(CARD_PERMS[:, cards], axis=1)
    return np.flatnonzero((moved == np.sort(cards)).all(axis=1))

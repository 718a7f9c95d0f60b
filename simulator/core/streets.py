"""The four betting rounds and what the board holds on each: the one place that knows it.

>>> Street.TURN.board_size, Street.TURN.new_cards, Street.of_board(3).name
(4, 1, 'FLOP')
>>> [s.cards_to_come for s in Street]
[5, 2, 1, 0]
>>> Street(1) is Street.FLOP, Street.FLOP == 1, Street.RIVER.label
(True, True, 'river')
"""

from __future__ import annotations

import enum

from simulator.core.errors import CardError

_BOARD_SIZES = (0, 3, 4, 5)


class Street(enum.IntEnum):
    """A betting round; an ``int`` (0..3), so it indexes per-street tables directly."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3

    @property
    def board_size(self) -> int:
        """Board cards showing during this round."""
        return _BOARD_SIZES[self]

    @property
    def new_cards(self) -> int:
        """Board cards dealt when this round starts (3 on the flop)."""
        return _BOARD_SIZES[self] - (_BOARD_SIZES[self - 1] if self else 0)

    @property
    def cards_to_come(self) -> int:
        """Board cards still to be dealt after this round's."""
        return 5 - _BOARD_SIZES[self]

    @property
    def label(self) -> str:
        return self.name.lower()

    @property
    def board_slice(self) -> slice:
        """The cards this round adds, as a slice of the five-card board."""
        return slice(_BOARD_SIZES[self - 1] if self else 0, _BOARD_SIZES[self])

    @classmethod
    def of_board(cls, cards: int) -> Street:
        """The round whose board holds ``cards`` cards (0, 3, 4 or 5)."""
        try:
            return cls(_BOARD_SIZES.index(cards))
        except ValueError:
            raise CardError(f"a board holds 0, 3, 4 or 5 cards, not {cards}") from None


POSTFLOP = (Street.FLOP, Street.TURN, Street.RIVER)

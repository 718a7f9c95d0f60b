"""The cards of a deal, from a seed and the hand number alone.

Duplicate permutations replay the same deal with the players in other seats, so the cards
depend only on ``(seed, hand_number, num_seats)``, never on who plays or on any earlier hand.
The deck's generator is in a domain of its own (:mod:`simulator.core.seeds`), so no bot's
generator seeded from the same number replays it.
"""

from __future__ import annotations

from dataclasses import dataclass

from simulator.core.seeds import deck_stream


@dataclass(frozen=True)
class Deal:
    holes: tuple[tuple[int, int], ...]  # per seat, in seat order
    board: tuple[int, ...]  # all 5 board cards (dealt only as the hand reaches them)


def deal_cards(seed: int, hand_number: int, num_seats: int) -> Deal:
    """Depends only on its arguments: duplicate permutations replay the same cards per seat.

    >>> d = deal_cards(7, 0, 3)
    >>> len(d.holes), len(d.board), len(set(sum(d.holes, ()) + d.board))
    (3, 5, 11)
    """
    cards = deck_stream(seed, hand_number).permutation(52)[: 2 * num_seats + 5].tolist()
    holes = tuple((cards[2 * i], cards[2 * i + 1]) for i in range(num_seats))
    return Deal(holes, tuple(cards[2 * num_seats:]))

"""Where players sit relative to the button: table order and position labels.

Seats are numbered 0..n-1 round the table. The table order lists the dealt-in seats from the
button's left round to the button, as PHH's p1..pN: with three or more players the first
posts the small blind; heads-up the big blind comes first and the button posts the small blind.
"""

from __future__ import annotations

from collections.abc import Sequence


def table_order(dealt_in: Sequence[bool], button: int) -> tuple[int, ...]:
    """Dealt-in seats from the button's left round to the button (PHH's p1..pN).

    >>> table_order([True] * 4, 1), table_order([True, False, True], 0)
    ((2, 3, 0, 1), (2, 0))
    """
    n = len(dealt_in)
    return tuple(s % n for s in range(button + 1, button + 1 + n) if dealt_in[s % n])


def position_labels(players: int) -> tuple[str, ...]:
    """Positions clockwise from the seat left of the button, for ``players`` dealt in.

    >>> position_labels(2), position_labels(6)
    (('BB', 'BTN'), ('SB', 'BB', 'UTG', 'UTG+1', 'CO', 'BTN'))
    """
    if players == 2:
        return ("BB", "BTN")  # heads-up the button posts the small blind
    middle = [f"UTG+{i}" if i else "UTG" for i in range(players - 3)]
    if players >= 4:
        middle[-1] = "CO"
    return ("SB", "BB", *middle, "BTN")


def positions_of(seats: Sequence[int], button: int, num_seats: int) -> list[str | None]:
    """Each player's position label in one hand, from table seats (-1: not dealt in).

    >>> positions_of([0, 2, 1], button=2, num_seats=3)
    ['SB', 'BTN', 'BB']
    """
    dealt = set(seats)
    order = table_order([s in dealt for s in range(num_seats)], button)
    labels = dict(zip(order, position_labels(len(order)), strict=True))
    return [labels.get(s) if s >= 0 else None for s in seats]

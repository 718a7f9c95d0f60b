"""Tables of a field larger than one table: breaking them as players bust, and balancing them.

A field is a list of tables, each a list of seats holding an entrant or None (empty). After
every round of hands :func:`rebalance` first breaks tables while fewer would seat everyone
(the table with the fewest players breaks, the last such on a tie; its players go one by one
to the table with the fewest players), then moves players while two tables differ by more than
one player: from the largest table (the first on a tie) the player due to post its next big
blind goes (so nobody escapes a big blind by moving), to the smallest table (the first on a
tie). A moved player takes the first empty seat after the new table's big blind, so that the
big blind, moving on, comes to it next (the TDA's "worst position" for a moved player).

>>> tables = [[0, 1, 2], [3, None, None]]
>>> moves = rebalance(tables, big_blinds=[1, 0])
>>> moves, tables
([Move(entrant=2, from_table=0, to_table=1, seat=1)], [[0, 1, None], [3, 2, None]])
>>> moves = rebalance([[0, None], [1, None]], big_blinds=[0, 0])
>>> moves
[Move(entrant=1, from_table=1, to_table=0, seat=1)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Move:
    entrant: int
    from_table: int
    to_table: int
    seat: int


def players(table: Sequence[int | None]) -> int:
    return sum(1 for e in table if e is not None)


def _open_tables(tables: Sequence[Sequence[int | None]]) -> list[int]:
    return [t for t, table in enumerate(tables) if players(table) > 0]


def _seat_after(table: Sequence[int | None], seat: int, *, empty: bool) -> int:
    """The first seat after ``seat`` that is empty (``empty``) or taken."""
    n = len(table)
    for k in range(1, n + 1):
        s = (seat + k) % n
        if (table[s] is None) == empty:
            return s
    raise ValueError("no such seat")


def _smallest(tables: Sequence[Sequence[int | None]], skip: int | None = None) -> int:
    open_ = [t for t in _open_tables(tables) if t != skip]
    return min(open_, key=lambda t: (players(tables[t]), t))


def _seat_into(tables: list[list[int | None]], to: int, entrant: int, big_blind: int) -> int:
    seat = _seat_after(tables[to], big_blind, empty=True)
    tables[to][seat] = entrant
    return seat


def rebalance(tables: list[list[int | None]], big_blinds: Sequence[int]) -> list[Move]:
    """Break and balance ``tables`` in place (see the module doc); ``big_blinds`` is each
    table's last big blind seat. Returns the moves made, in order."""
    moves: list[Move] = []
    size = len(tables[0])
    total = sum(players(t) for t in tables)
    while len(_open_tables(tables)) > max(1, math.ceil(total / size)):
        open_ = _open_tables(tables)
        breaking = max(open_, key=lambda t: (-players(tables[t]), t))
        for seat, entrant in enumerate(tables[breaking]):
            if entrant is None:
                continue
            tables[breaking][seat] = None
            to = _smallest(tables, skip=breaking)
            moves.append(Move(entrant, breaking, to,
                              _seat_into(tables, to, entrant, big_blinds[to])))
    while True:
        open_ = _open_tables(tables)
        counts = {t: players(tables[t]) for t in open_}
        big = max(open_, key=lambda t: (counts[t], -t))
        small = min(open_, key=lambda t: (counts[t], t))
        if counts[big] - counts[small] <= 1:
            return moves
        seat = _seat_after(tables[big], big_blinds[big], empty=False)
        entrant = tables[big][seat]
        assert entrant is not None
        tables[big][seat] = None
        moves.append(Move(entrant, big, small,
                          _seat_into(tables, small, entrant, big_blinds[small])))

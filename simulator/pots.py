"""Main and side pots, and how each is split among its winners (DESIGN.md section 3).

Pots are built from every player's total contribution (antes, blinds and bets, after uncalled
bets went back). Each contribution level forms a pot that the players still holding cards and
having paid up to that level may win; neighbouring pots with the same eligible players are
merged, as pokerkit does, because merging changes how odd chips fall. The odd chips of a pot
go to the first winner in table order from the button's left (``order``), so heads-up the big
blind, who is listed first.

>>> build_pots([10, 50, 50], [True, True, True], [0, 1, 2])
[Pot(amount=30, players=(0, 1, 2)), Pot(amount=80, players=(1, 2))]
>>> award(build_pots([10, 50, 50], [True, True, True], [0, 1, 2]), [1, 5, 5], 3)
[30, 40, 40]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Pot(NamedTuple):
    amount: int
    players: tuple[int, ...]  # seats that may win it, in table order from the button's left


def build_pots(contributions: Sequence[int], active: Sequence[bool],
               order: Sequence[int]) -> list[Pot]:
    """Pots from contributions per seat; ``order`` lists the dealt-in seats from p1 on."""
    pots: list[Pot] = []
    previous = 0
    for level in sorted({contributions[s] for s in order}):
        if level == 0:
            continue
        amount = sum(min(contributions[s], level) - min(contributions[s], previous)
                     for s in order)
        players = tuple(s for s in order if active[s] and contributions[s] >= level)
        while pots and pots[-1].players == players:
            amount += pots.pop().amount
        pots.append(Pot(amount, players))
        previous = level
    return pots


def award(pots: Sequence[Pot], ranks: Sequence[int], num_seats: int) -> list[int]:
    """Chips won per seat; ``ranks`` per seat (lower is better, only eligible seats are read).

    A pot nobody may win (impossible in legal play) raises rather than burning chips.
    """
    won = [0] * num_seats
    for pot in pots:
        if not pot.players:
            raise ValueError(f"pot of {pot.amount} has no eligible player")
        best = min(ranks[s] for s in pot.players)
        winners = [s for s in pot.players if ranks[s] == best]
        share, odd = divmod(pot.amount, len(winners))
        for s in winners:
            won[s] += share
        won[winners[0]] += odd
    return won

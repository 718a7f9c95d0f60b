"""Main and side pots, and how each is split among its winners.

Pots are built from every player's total contribution (antes, blinds and bets, after uncalled
bets went back). Each contribution level forms a pot that the players still holding cards and
having paid up to that level may win; neighbouring pots with the same eligible players are
merged, as pokerkit does, because merging changes how odd chips fall. Like pokerkit, the pots
are paid after the hands that cannot win any pot are mucked: :func:`showdown_payout` forms the
pots again among the hands still live, so neighbouring pots that the same players contest are
merged before their chips are split. The odd chips of a pot go to the first winner in table
order from the button's left (``order``), so heads-up the big blind, who is listed first.

>>> build_pots([10, 50, 50], [True, True, True], [0, 1, 2])
[Pot(amount=30, players=(0, 1, 2)), Pot(amount=80, players=(1, 2))]
>>> award(build_pots([10, 50, 50], [True, True, True], [0, 1, 2]), [1, 5, 5], 3)
[30, 40, 40]

Three tied winners and two losers who put in 1 and 2 chips: the pots of 5, 4 and 3 chips are
all contested by the winners alone once the losers muck, so they merge and split evenly
(separately the first winner would take 6).

>>> showdown_payout([3, 3, 3, 1, 2], [True] * 5, [0, 1, 2, 3, 4], [1, 1, 1, 9, 9])
[4, 4, 4, 0, 0]
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


def showdown_payout(contributions: Sequence[int], active: Sequence[bool], order: Sequence[int],
                    ranks: Sequence[int]) -> list[int]:
    """Chips won per seat at a showdown, with pokerkit's merging of pots among live hands."""
    pots = build_pots(contributions, active, order)
    live: set[int] = set()
    for pot in pots:
        best = min(ranks[s] for s in pot.players)
        live.update(s for s in pot.players if ranks[s] == best)
    still = [bool(a) and s in live for s, a in enumerate(active)]
    return award(build_pots(contributions, still, order), ranks, len(contributions))

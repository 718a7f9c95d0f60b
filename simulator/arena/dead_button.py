"""Where the button and the blinds go when players bust: the dead button rule.

The rule (Robert's Rules of Poker and the TDA's tournament rules call it the *dead button*):
the big blind moves one live player on every hand, so nobody skips a big blind and nobody
posts it twice in a row. The small blind is whoever had the big blind last hand; if that
player busted the small blind is *dead* (nobody posts it, the big blind alone is posted).
The button is the seat that had the small blind last hand, so it may sit on an empty seat
(a *dead button*): the player left of it acts last after the flop. Heads-up the rule gives
way to the heads-up rule: the button posts the small blind and acts first before the flop,
the big blind still moving one player each hand.

It differs from :func:`simulator.play.match.next_button` (the button to the next seat with
chips, the blinds after it), which carried-stack runs keep using: there a player whose big
blind comes up as the small blind's neighbour busts may see the big blind skip a player.

:class:`Positions` is one hand's button and blinds; :func:`first_positions` opens a table,
:func:`next_positions` moves them on. A seat that is live but sits between the button and
the first blind to post (a player just moved to the table) waits a hand:
:func:`waiting_seats` names them, so that the engine's table order (from the button's left,
the first posting the first blind) holds.

>>> p = first_positions([True] * 4)
>>> p
Positions(button=3, small_blind=0, big_blind=1)
>>> next_positions(p, [True, True, True, True])
Positions(button=0, small_blind=1, big_blind=2)
>>> next_positions(Positions(0, 1, 2), [True, True, False, True])  # the big blind busted
Positions(button=1, small_blind=None, big_blind=3)
>>> next_positions(Positions(0, 1, 2), [True, False, True, False])  # only two left
Positions(button=2, small_blind=2, big_blind=0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Positions:
    """One hand's button seat (perhaps empty), small blind (None: a dead small blind) and big
    blind. ``sb_seat`` is where the small blind is, posted or dead: the next button."""

    button: int
    small_blind: int | None
    big_blind: int
    sb_seat: int | None = None

    def __post_init__(self) -> None:
        if self.sb_seat is None and self.small_blind is not None:
            object.__setattr__(self, "sb_seat", self.small_blind)

    def __repr__(self) -> str:  # the seat of a dead small blind is bookkeeping, not shown
        return (f"Positions(button={self.button}, small_blind={self.small_blind}, "
                f"big_blind={self.big_blind})")

    @property
    def heads_up(self) -> bool:
        return self.small_blind == self.button


def _after(seat: int, live: Sequence[bool]) -> int:
    """The next live seat after ``seat`` (round the table)."""
    n = len(live)
    for k in range(1, n + 1):
        if live[(seat + k) % n]:
            return (seat + k) % n
    raise ValueError("no live seat")


def first_positions(live: Sequence[bool]) -> Positions:
    """The first hand's: the button on the last live seat, the blinds after it."""
    players = [s for s, a in enumerate(live) if a]
    if len(players) < 2:
        raise ValueError(f"a hand needs two players, got {len(players)}")
    button = players[-1]
    small = _after(button, live)
    big = _after(small, live)
    if len(players) == 2:
        return Positions(button, button, small, button)
    return Positions(button, small, big, small)


def next_positions(last: Positions, live: Sequence[bool]) -> Positions:
    """The next hand's positions under the dead button rule, from the last hand's and the
    seats still live (with chips at this table)."""
    players = [s for s, a in enumerate(live) if a]
    if len(players) < 2:
        raise ValueError(f"a hand needs two players, got {len(players)}")
    big = _after(last.big_blind, live)
    if len(players) == 2:
        other = _after(big, live)
        return Positions(other, other, big, other)
    sb_seat = last.big_blind
    button = last.sb_seat if last.sb_seat is not None else last.button
    if last.heads_up:  # cannot happen at one table (players only leave); a fresh start
        return first_positions(live)
    return Positions(button, sb_seat if live[sb_seat] else None, big, sb_seat)


def waiting_seats(positions: Positions, live: Sequence[bool]) -> tuple[int, ...]:
    """Live seats strictly between the button and the first blind to post: they sit out
    this hand (a player moved in there waits for the blinds to pass, as the TDA has it)."""
    if positions.heads_up:
        return ()
    first = positions.small_blind if positions.small_blind is not None else (
        positions.big_blind)
    n = len(live)
    out = []
    seat = (positions.button + 1) % n
    while seat != first:
        if live[seat]:
            out.append(seat)
        seat = (seat + 1) % n
    return tuple(out)

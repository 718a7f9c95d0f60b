"""What a bot is told of the tournament a hand belongs to: prizes and the other stacks.

A hand of a freezeout or sit-and-go carries a :class:`TournamentView` on every observation
(``Observation.tournament``; None in ring games), so a bot can price a decision in prize
equity rather than chips: ``prizes`` are the prizes of the places still to be paid, best
first, and ``others`` the chips of every player still in the tournament who is not dealt
into this hand (at the other tables, or waiting out a hand under the dead button). With the
observation's own ``stacks + contributions`` of the players dealt in, that is every stack
in the tournament at the start of the hand. The view is frozen plain data, the same for
every seat of the table: nothing in it is read back by the coordinator.

>>> view = TournamentView(prizes=(390.0, 210.0), others=(700,), level=3)
>>> view.players_left(dealt_in=3), view.paid_places(players=2)
(4, (390.0, 210.0))
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TournamentView:
    """The prizes still to be paid (best place first), the chips of the players still in who
    are not dealt into this hand, and the level (1-based) the hand is played at."""

    prizes: tuple[float, ...]
    others: tuple[int, ...] = ()
    level: int = 1

    def players_left(self, dealt_in: int) -> int:
        """Players still in the tournament, given how many are dealt into this hand."""
        return dealt_in + len(self.others)

    def paid_places(self, players: int) -> tuple[float, ...]:
        """The prizes ``players`` players still compete for (places past them are paid)."""
        return self.prizes[:players]

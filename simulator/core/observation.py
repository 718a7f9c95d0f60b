"""What a bot sees when it is to act: an immutable observation of the hand.

Seats are numbered 0..n-1 in table order; ``button`` is the dealer seat. Everything here is
frozen so a bot cannot change the game by touching what it was given.
"""

from __future__ import annotations

from dataclasses import dataclass

from simulator.core.actions import ActionKind, ActionRecord, LegalActions
from simulator.core.game import GameConfig
from simulator.core.streets import Street
from simulator.core.tournament_view import TournamentView


@dataclass(frozen=True)
class Observation:
    """The state of a hand as ``seat`` may see it, when ``seat`` is to act.

    ``stacks`` are chips behind (not yet in the pot); ``bets`` this round's bets per seat;
    ``contributions`` each seat's total chips in the pot this hand (blinds and antes
    included); ``pot`` the total in the middle, this round's bets included. ``active`` marks
    seats still holding cards (not folded, and dealt in). ``history`` holds every action of the
    hand so far, blinds and antes excluded. ``tournament`` is None in ring games; in a
    freezeout or sit-and-go it holds the prizes and the other players' stacks
    (:class:`~simulator.core.tournament_view.TournamentView`).
    """

    seat: int
    button: int
    hand_number: int
    game: GameConfig
    hole_cards: tuple[int, ...]
    board: tuple[int, ...]
    street: Street
    pot: int
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    contributions: tuple[int, ...]
    active: tuple[bool, ...]
    history: tuple[ActionRecord, ...]
    legal: LegalActions
    tournament: TournamentView | None = None  # a freezeout's prizes and other stacks

    @property
    def num_seats(self) -> int:
        return len(self.stacks)

    @property
    def to_call(self) -> int:
        return self.legal.call_amount

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        """Each seat's chips at the start of the hand, before blinds and antes."""
        return tuple(s + c for s, c in zip(self.stacks, self.contributions, strict=True))

    @property
    def dealt_in(self) -> tuple[bool, ...]:
        """The seats dealt into the hand: those still holding cards and those that folded."""
        folded = {r.seat for r in self.history if r.kind is ActionKind.FOLD}
        return tuple(a or s in folded for s, a in enumerate(self.active))

    @property
    def live_opponents(self) -> tuple[int, ...]:
        """The other seats still holding cards (all-in seats included)."""
        return tuple(s for s, live in enumerate(self.active) if live and s != self.seat)

"""One hand, stepped from outside: whose turn it is, an action in, the events out.

:class:`HandDriver` is the one place where the events that bots ``observe`` are made. A
caller asks who acts (:attr:`HandDriver.actor`), gives that seat's action
(:meth:`HandDriver.apply`) and collects what the table learnt (:meth:`HandDriver.events`):
each :class:`Told` names its event and the seat it is for (None: every seat). The match loop
steps it with bots; a terminal or a web page steps it with a person's actions, from any
thread, since the driver holds no bot and keeps no clock.

The hand's game is the driver's own (a value of the hand, not of the match: the blinds may
rise between hands) and is announced in the :class:`HandStarted` event.

>>> from simulator.core.actions import Action
>>> from simulator.core.deal import deal_cards
>>> from simulator.core.game import GameConfig
>>> game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
>>> d = HandDriver(game, [200, 200], 1, deal_cards(7, 0, 2), 0, ("a", "b"))
>>> [(type(t.event).__name__, t.to) for t in d.events()]
[('HandStarted', None), ('HoleCardsDealt', 0), ('HoleCardsDealt', 1)]
>>> d.actor, d.events()
(1, [])
>>> _ = d.apply(Action.fold())
>>> [type(t.event).__name__ for t in d.events()], d.finished, d.result().net
(['ActionTaken', 'HandEnded'], True, (1, -1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simulator.core.actions import Action, ActionRecord
from simulator.core.deal import Deal
from simulator.core.events import (
    ActionTaken,
    BoardDealt,
    Event,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    Showdown,
)
from simulator.core.frozen import FrozenMap
from simulator.core.game import GameConfig
from simulator.core.observation import Observation
from simulator.core.records import BotFault, HandHistory, HandResult
from simulator.core.state import HandState
from simulator.core.tournament_view import TournamentView

__all__ = ["HandDriver", "Told"]


@dataclass(frozen=True, slots=True)
class Told:
    """An event and who may see it: ``to`` is the one seat of a private event, None for a
    public one."""

    event: Event
    to: int | None = None


class HandDriver:
    """One hand from the blinds to the payout, stepped by the caller; see the module doc.

    ``stacks`` of 0 sit out. ``seat_games`` are the game records each seat's observations
    carry (default: one copy per seat), so that no bot holds the game the engine plays by.
    """

    def __init__(self, game: GameConfig, stacks: Sequence[int], button: int, deal: Deal,
                 hand_number: int, names: Sequence[str], *,
                 seat_games: Sequence[GameConfig] | None = None,
                 tournament: TournamentView | None = None) -> None:
        self.game, self.names = game, tuple(names)
        self._seat_games = (tuple(game.copy() for _ in stacks) if seat_games is None
                            else tuple(seat_games))
        dealt_in = tuple(s > 0 for s in stacks)
        holes = tuple(h if d else None for h, d in zip(deal.holes, dealt_in, strict=True))
        self.state = HandState(game, stacks, button, holes, deal.board,
                               hand_number=hand_number, dealt_in=dealt_in,
                               tournament=tournament)
        self._pending: list[Told] = [Told(HandStarted(hand_number, button, self.names,
                                                      tuple(stacks), dealt_in, game.copy()))]
        self._pending += [Told(HoleCardsDealt(seat, (hole[0], hole[1])), seat)
                          for seat, hole in enumerate(holes) if hole is not None]
        self._streets_told = 0
        self._after_step()

    # --- reading ----------------------------------------------------------------------------

    @property
    def actor(self) -> int | None:
        """The seat to act, or None once the hand is over."""
        return self.state.actor

    @property
    def finished(self) -> bool:
        return self.state.finished

    def observation(self, seat: int) -> Observation:
        """What ``seat`` sees now, carrying that seat's game record."""
        return self.state.observation(seat, self._seat_games[seat])

    def events(self) -> list[Told]:
        """The events since the last call, in the order they happened (then forgotten)."""
        out, self._pending = self._pending, []
        return out

    # --- stepping ---------------------------------------------------------------------------

    def apply(self, action: Action) -> ActionRecord:
        """Apply the actor's action: ``IllegalActionError`` (the state unchanged) if it is not
        legal. The action and whatever follows it (board cards, the showdown, the end of
        the hand) wait in :meth:`events`."""
        record = self.state.apply(action)
        self._pending.append(Told(ActionTaken(self.state.last_shared_record)))
        self._after_step()
        return record

    def _after_step(self) -> None:
        state = self.state
        points = state.chance_points
        if len(points) > self._streets_told:
            board = state.full_board
            for point in points[self._streets_told:]:
                street = point.street
                self._pending.append(Told(BoardDealt(street, board[street.board_slice],
                                                     board[:street.board_size])))
            self._streets_told = len(points)
        if state.finished:  # once: a finished hand takes no more actions
            shown = state.shown
            if shown:
                self._pending.append(Told(Showdown(FrozenMap(shown))))
            stacks = state.finishing_stacks
            self._pending.append(Told(HandEnded(state.hand_number, self._net(), stacks)))

    def _net(self) -> tuple[int, ...]:
        state = self.state
        return tuple(a - b for a, b in zip(state.finishing_stacks, state.starting_stacks,
                                           strict=True))

    def result(self, faults: Sequence[BotFault] = ()) -> HandResult:
        """The finished hand's result and history, with the bots' ``faults`` during it."""
        state = self.state
        if not state.finished:
            raise ValueError(f"hand {state.hand_number} is not over")
        stacks = state.finishing_stacks
        history = HandHistory(
            game=state.game, hand_number=state.hand_number, button=state.button,
            names=self.names, dealt_in=state.dealt_in, starting_stacks=state.starting_stacks,
            holes=state.holes, board=state.board_cards, actions=state.history,
            chance_points=state.chance_points, shown=state.shown, finishing_stacks=stacks)
        return HandResult(state.hand_number, state.button, self._net(), stacks, history,
                          tuple(faults))

"""A seat of our matches played by an ACPC bot at the other end of a connection.

:class:`AcpcSeat` is a :class:`~simulator.play.protocol.Bot`: our match loop plays it like
any other, and it acts as the reference dealer towards its one connection. From the events
it rebuilds the hand as that seat sees it (:class:`~simulator.interop.acpc.hand.AcpcHand`)
and sends the MATCHSTATE line of every state, as the reference dealer does: the hand's first
state, the state after every action (with the next round's cards when the action ends a
round) and the final state with the cards shown at a showdown. ``act`` reads the bot's reply,
checks the echo and turns the ACPC action into ours.

A state is rendered once its cards are known, that is at the next event that is not a card
event: the next action, the seat's own turn, or the hand's end. The lines go out together on
the seat's turn and at the hand's end: the content and order are the reference dealer's, and
batches wake the bot once per decision, not once per line. Every failure (a timeout, a
disconnect, a malformed reply, an illegal action unless ``illegal="call"``) raises from the
call where it shows, so the match loop's guard makes it a fault of this seat; the seat is then
broken: ``act`` fails at once and ``observe`` stays silent, so a dead bot costs no more waiting.
"""

from __future__ import annotations

from typing import Literal

from simulator.core.actions import Action, ActionRecord
from simulator.core.events import (
    ActionTaken,
    BoardDealt,
    Event,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    Showdown,
)
from simulator.core.game import GameConfig
from simulator.core.observation import Observation
from simulator.interop.acpc.connection import LineConnection
from simulator.interop.acpc.gamedef import gamedef_for
from simulator.interop.acpc.hand import AcpcHand, legal_action, record_action
from simulator.interop.acpc.protocol import (
    ProtocolError,
    parse_action,
    reply_action,
    sized_raises,
)
from simulator.play.protocol import BaseBot, BotContext

Illegal = Literal["error", "call"]


class AcpcSeat(BaseBot):
    """Our side of one ACPC connection; see the module docstring.

    ``timeout`` is seconds per reply (None: wait). ``illegal="error"`` makes an illegal action
    a fault; ``"call"`` fixes it as the reference dealer does (a raise out of range clamped, a
    raise not allowed, a fold when checking is free or an unknown letter made a call).
    """

    def __init__(self, connection: LineConnection | None = None, *,
                 timeout: float | None = 10.0, illegal: Illegal = "error") -> None:
        if illegal not in ("error", "call"):
            raise ValueError(f"illegal: expected 'error' or 'call', got {illegal!r}")
        self.connection = connection
        self.timeout, self.illegal = timeout, illegal
        self.seat = 0
        self.players = 2
        self.game = GameConfig()
        self.fixes = 0  # illegal actions made legal under illegal="call"
        self.failure: str | None = None
        self._hand: AcpcHand | None = None
        self._pending: list[ActionRecord] = []
        self._board: tuple[int, ...] = ()
        self._holes: dict[int, tuple[int, int]] = {}
        self._last_line = ""
        self._outbox: list[str] = []

    def start(self, context: BotContext) -> None:
        self.seat, self.players, self.game = context.seat, len(context.names), context.game
        gamedef_for(self.game, self.players)  # refuses a game that ACPC bots cannot be told

    # --- failures -----------------------------------------------------------------------------

    def _fail(self, problem: str) -> None:
        """Mark the seat broken (once); subclasses also end what they started."""
        if self.failure is None:
            self.failure = problem
            if self.connection is not None:
                self.connection.close()

    def _conn(self) -> LineConnection:
        if self.connection is None:
            raise ProtocolError("the seat has no connection (start() did not connect)")
        return self.connection

    # --- events -------------------------------------------------------------------------------

    def observe(self, event: Event) -> None:
        if self.failure is not None:
            return
        try:
            self._observe(event)
        except BaseException as exc:
            self._fail(_why(exc, "while sending hand states"))
            raise

    def _observe(self, event: Event) -> None:
        if isinstance(event, HandStarted):
            self._hand = AcpcHand(self.game, self.players, event.hand_number, event.button)
            self._pending, self._board, self._holes = [], (), {}  # holes: own, then shown
        elif isinstance(event, HoleCardsDealt):
            self._holes[event.seat] = event.hole_cards
            self._flush()
            self._send_state()
        elif isinstance(event, ActionTaken):
            self._flush()
            self._pending.append(event.record)
        elif isinstance(event, BoardDealt):
            self._board = event.board
        elif isinstance(event, Showdown):
            self._holes.update(event.shown)
        elif isinstance(event, HandEnded):
            self._flush()
            self._send()

    def _flush(self) -> None:
        """Render the state after each action not yet rendered, now that its cards are known."""
        hand = self._hand
        if hand is None:
            raise ProtocolError("an action before the hand started")
        hand.set_cards(self._holes, self._board)
        for record in self._pending:
            hand.apply(record_action(record))
            self._send_state()
        self._pending = []

    def _send_state(self) -> None:
        assert self._hand is not None
        self._last_line = str(self._hand.matchstate(self._hand.position_of(self.seat)))
        self._outbox.append(self._last_line)

    def _send(self) -> None:
        if self._outbox:
            lines, self._outbox = self._outbox, []
            self._conn().send_all(lines)

    # --- decisions ----------------------------------------------------------------------------

    def act(self, observation: Observation) -> Action:
        if self.failure is not None:
            raise ProtocolError(f"failed earlier ({self.failure}); the seat no longer acts")
        try:
            return self._act(observation)
        except BaseException as exc:  # an overrun interrupts with a BaseException
            self._fail(_why(exc, "no answer in time"))
            raise

    def _act(self, observation: Observation) -> Action:
        self._flush()
        self._send()
        hand = self._hand
        assert hand is not None
        if hand.actor != self.seat:
            raise ProtocolError(f"asked to act out of turn (hand {hand.hand_number}, seat "
                                f"{self.seat}, the engine says seat {hand.actor})")
        line = self._conn().read(self.timeout)
        if line is None:
            raise ProtocolError(f"{self._conn().peer}: disconnected")
        text = reply_action(line, self._last_line)
        legal = observation.legal
        try:
            wanted = hand.action_of(parse_action(text, nolimit=sized_raises(self.game)))
        except ProtocolError:
            if self.illegal == "error":
                raise
            self.fixes += 1
            return Action.call()
        if legal.allows(wanted):
            return wanted
        if self.illegal == "error":
            raise ProtocolError(f"illegal action {text!r} ({wanted}) after {hand.betting()!r}; "
                                f"legal: {legal}")
        self.fixes += 1
        return legal_action(wanted, legal)

    def close(self) -> None:
        if self.connection is None:
            return
        try:
            if self.failure is None and not self.connection.closed:
                self._send()  # lines still waiting (normally none: the hand's end sent them)
        finally:
            self.connection.close()


def _why(exc: BaseException, default: str) -> str:
    return str(exc) or default

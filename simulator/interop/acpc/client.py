"""Any of our bots at an ACPC dealer: read MATCHSTATE lines, tell the bot, reply on its turn.

Every line goes through our engine (:class:`~simulator.interop.acpc.hand.AcpcHand`), which
says whose turn it is, what is legal, and what the pots are; an action the dealer sends that
our rules find illegal, or a round that ends elsewhere than ours, is a
:class:`~simulator.interop.acpc.protocol.ProtocolError`. The bot gets the same calls as in our
own matches: ``start(BotContext)`` before the first hand, ``HandStarted`` and its own
``HoleCardsDealt``, every public event (``ActionTaken``, ``BoardDealt``, ``Showdown``,
``HandEnded``) in order, an ``Observation`` on its turn, and ``close()`` at the end.

Seats are ACPC's fixed seats: the dealer rotates positions, seat ``s`` holding position
``(s - hand) % N``, so our seat is ``(position + hand) % N`` and the button is seat
``(hand - 1) % N`` (with ``fixed_positions``, for a dealer run with ``-f``: seat = position and
the button is the last seat). The bot's ``Observation.seat`` is that seat, and the others are
named ``seat1`` ... ``seatN`` by their ACPC seat, so a model of a player follows it from hand to
hand. The bot's action is made legal before it is sent (a raise clamped to the legal range, a
raise not allowed or a fold when checking is free made a call); no-limit raises are sent as
ACPC's totals over the hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from simulator.core.actions import Action
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
from simulator.core.records import HandHistory
from simulator.interop.acpc.connection import LineConnection
from simulator.interop.acpc.hand import AcpcHand, legal_action
from simulator.interop.acpc.protocol import (
    MatchState,
    ProtocolError,
    format_reply,
    parse_matchstate,
)
from simulator.play.protocol import Bot, BotContext


class BotFailed(RuntimeError):
    """The bot raised or returned something that is not an Action."""


@dataclass
class ClientReport:
    """What a client saw: hands finished, chips won (our engine's payout) and fixes made."""

    seat: int | None = None
    hands: int = 0
    chips: int = 0
    fixed: int = 0  # actions of the bot made legal before sending
    histories: list[HandHistory] = field(default_factory=list)


class AcpcClient:
    """Plays ``bot`` through one dealer connection; see the module docstring.

    ``on_hand(report)`` is called after every hand; ``warn(text)`` for each fixed action.
    """

    def __init__(self, bot: Bot, game: GameConfig, players: int, *, name: str = "bot",
                 fixed_positions: bool = False, keep_histories: bool = False,
                 directory: Path | None = None,
                 on_hand: Callable[[ClientReport], None] | None = None,
                 warn: Callable[[str], None] | None = None) -> None:
        self.bot, self.game, self.players, self.name = bot, game, players, name
        self.fixed_positions, self.keep_histories = fixed_positions, keep_histories
        self.directory, self.on_hand, self.warn = directory, on_hand, warn
        self.report = ClientReport()
        self._seat_game = game.copy()
        self._hand: AcpcHand | None = None
        self._names: tuple[str, ...] = ()
        self._applied: list[tuple[int, str]] = []
        self._boards_told = 0
        self._started = False

    def run(self, conn: LineConnection, timeout: float | None = None) -> ClientReport:
        """Play until the dealer closes the connection; then ``close()`` the bot. A dealer
        that sends no whole line within ``timeout`` seconds (None: wait) is a
        ProtocolError."""
        try:
            while (line := conn.read(timeout)) is not None:
                self.handle(line, conn.send)
            if self._hand is not None and not self._hand.finished:
                raise ProtocolError(f"the dealer closed the connection in the middle of hand "
                                    f"{self._hand.hand_number}")
        finally:
            if self._started:
                self._call("close()", getattr(self.bot, "close", None))
        return self.report

    # --- one line -----------------------------------------------------------------------------

    def handle(self, line: str, send: Callable[[str], None]) -> None:
        """Take one MATCHSTATE line; ``send`` the reply when it is the bot's turn."""
        ms = parse_matchstate(line, self.players)
        if self._hand is None or ms.hand_number != self._hand.hand_number:
            self._new_hand(ms)
        hand = self._hand
        assert hand is not None and self.report.seat is not None
        seat = self.report.seat
        if ms.position != hand.position_of(seat):
            raise ProtocolError(f"hand {ms.hand_number}: position {ms.position} changed within "
                                f"the hand")
        if hand.finished:
            raise ProtocolError(f"hand {ms.hand_number}: a state after the hand ended: {line!r}")
        hand.set_cards({hand.seat_of(p): h for p, h in enumerate(ms.holes) if h is not None},
                       ms.board)
        tokens = ms.tokens
        if tokens[:len(self._applied)] != self._applied:
            raise ProtocolError(f"hand {ms.hand_number}: the betting {line.split(':')[3]!r} "
                                f"does not continue what came before")
        for r, token in tokens[len(self._applied):]:
            record = hand.apply_token(token, r)
            self._applied.append((r, token))
            self._tell(ActionTaken(record.copy()))
            self._tell_boards()
        if int(hand.state.street) != ms.round:
            raise ProtocolError(f"hand {ms.hand_number}: the dealer is in round {ms.round}, our "
                                f"rules in round {int(hand.state.street)} after {line!r}")
        if hand.finished:
            self._end_hand()
        elif hand.actor == seat:
            send(format_reply(line, hand.token_of(self._decide())))

    def _seat_of(self, ms: MatchState) -> int:
        if self.fixed_positions:
            return ms.position
        return (ms.position + ms.hand_number) % self.players

    def _new_hand(self, ms: MatchState) -> None:
        if self._hand is not None and not self._hand.finished:
            raise ProtocolError(f"hand {ms.hand_number} began before hand "
                                f"{self._hand.hand_number} ended")
        seat = self._seat_of(ms)
        if self.report.seat is None:
            self.report.seat = seat
            self._names = tuple(self.name if s == seat else f"seat{s + 1}"
                                for s in range(self.players))
            self._start(seat)
        elif seat != self.report.seat:
            hint = ("" if self.fixed_positions else "; a dealer run with -f keeps positions "
                    "fixed: use --fixed-positions")
            raise ProtocolError(f"hand {ms.hand_number}: position {ms.position} is not seat "
                                f"{self.report.seat}'s{hint}")
        button = self.players - 1 if self.fixed_positions else (ms.hand_number - 1) % self.players
        self._hand = AcpcHand(self.game, self.players, ms.hand_number, button)
        self._applied, self._boards_told = [], 0
        own = ms.holes[ms.position]
        if own is None:
            raise ProtocolError(f"hand {ms.hand_number}: no hole cards of our own in the first "
                                f"state")
        stacks = (self.game.stack,) * self.players
        self._tell(HandStarted(ms.hand_number, button, self._names, stacks,
                               (True,) * self.players, self._seat_game))
        self._tell(HoleCardsDealt(seat, own))

    def _start(self, seat: int) -> None:
        self._started = True
        context = BotContext(seat, self._names, self._seat_game, 0, 0, self.directory)
        self._call("start()", getattr(self.bot, "start", None), context)

    def _tell_boards(self) -> None:
        state = self._hand.state if self._hand is not None else None
        assert state is not None
        board = state.full_board
        for point in state.chance_points[self._boards_told:]:
            street = point.street
            self._tell(BoardDealt(street, board[street.board_slice], board[:street.board_size]))
        self._boards_told = len(state.chance_points)

    def _end_hand(self) -> None:
        hand = self._hand
        assert hand is not None and self.report.seat is not None
        state = hand.state
        if state.shown:
            self._tell(Showdown(FrozenMap(state.shown)))
        net = hand.net()
        self._tell(HandEnded(hand.hand_number, net, state.finishing_stacks))
        self.report.hands += 1
        self.report.chips += net[self.report.seat]
        if self.keep_histories:
            self.report.histories.append(hand.history(self._names))
        if self.on_hand is not None:
            self.on_hand(self.report)

    # --- the bot --------------------------------------------------------------------------------

    def _call(self, what: str, fn: Callable[..., object] | None, *args: object) -> object:
        if fn is None:
            return None
        try:
            return fn(*args)
        except Exception as exc:  # a bot's failure: name it, the match cannot go on
            raise BotFailed(f"bot {self.name!r}: {what} raised {type(exc).__name__}: "
                            f"{exc}") from exc

    def _tell(self, event: Event) -> None:
        self._call("observe()", getattr(self.bot, "observe", None), event)

    def _decide(self) -> Action:
        hand = self._hand
        assert hand is not None and self.report.seat is not None
        observation = hand.state.observation(self.report.seat, self._seat_game)
        action = self._call("act()", self.bot.act, observation)
        if not isinstance(action, Action):
            raise BotFailed(f"bot {self.name!r}: act() returned {action!r}, not an Action")
        legal = observation.legal
        if legal.allows(action):
            return action
        fixed = legal_action(action, legal)
        self.report.fixed += 1
        if self.warn is not None:
            self.warn(f"hand {hand.hand_number}: '{action}' is not legal ({legal}); sent "
                      f"'{fixed}'")
        return fixed

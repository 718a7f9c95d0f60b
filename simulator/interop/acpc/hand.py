"""One hand of an ACPC match played through our engine: the betting string's state.

:class:`AcpcHand` replays a hand's actions through our own
:class:`~simulator.core.state.HandState`, which gives legality, pots, observations and the
payout, and renders what ACPC shows of it: the betting string, MATCHSTATE lines for any
position and the dealer's STATE log line. It is the one place where ACPC raise sizes (the
raiser's chips in the pot over the whole hand) and ours (raise-to within the round) are
converted, both ways (:meth:`AcpcHand.action_of`, :meth:`AcpcHand.token_of`).

Seats are fixed; positions rotate: position ``p`` (0 = first after the button) is seat
``(button + 1 + p) % n``. Cards may be learnt as the hand goes on (a client sees the board
round by round and the others' cards at a showdown): the engine's state learns them as they
come, so only the cards of rounds reached are needed.

>>> from simulator.core.game import GameConfig
>>> from simulator.core.cards import parse_cards
>>> game = GameConfig(variant="nolimit", blinds=(50, 100), stack=20000)
>>> hand = AcpcHand(game, players=2, hand_number=1, button=0)
>>> hand.set_cards({1: tuple(parse_cards("JsKs"))}, parse_cards("Qd7s9d"))
>>> [hand.apply_token(t).kind.name for t in ("c", "c")]
['CALL', 'CALL']
>>> hand.apply_token("r17194").amount  # 100 in from pre-flop: raise to 17094 this round
17094
>>> str(hand.matchstate(0))
'MATCHSTATE:0:1:cc/r17194:JsKs|/Qd7s9d'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from simulator.core.actions import (
    Action,
    ActionKind,
    ActionRecord,
    IllegalActionError,
    LegalActions,
)
from simulator.core.cards import format_cards
from simulator.core.game import GameConfig
from simulator.core.records import HandHistory
from simulator.core.state import HandState
from simulator.core.streets import Street
from simulator.interop.acpc.protocol import (
    MatchState,
    ProtocolError,
    format_betting,
    sized_raises,
)


class AcpcHand:
    """A hand's actions through our engine, with ACPC's view of them; see the module doc."""

    def __init__(self, game: GameConfig, players: int, hand_number: int, button: int) -> None:
        self.game, self.players, self.hand_number, self.button = game, players, hand_number, button
        self._holes: list[tuple[int, int] | None] = [None] * players
        self._board: tuple[int, ...] = ()
        self._actions: list[Action] = []
        self._tokens: list[tuple[int, str]] = []  # (round, token)
        self._state: HandState | None = None

    # --- positions ----------------------------------------------------------------------------

    def seat_of(self, position: int) -> int:
        return (self.button + 1 + position) % self.players

    def position_of(self, seat: int) -> int:
        return (seat - self.button - 1) % self.players

    # --- cards --------------------------------------------------------------------------------

    def set_cards(self, holes: Mapping[int, tuple[int, int]], board: Sequence[int]) -> None:
        """Learn hole cards (seat -> cards) and the board so far; known cards never change
        (a shorter board than the one known adds nothing)."""
        changed = False
        for seat, cards in holes.items():
            known = self._holes[seat]
            if known is not None and set(known) != set(cards):
                raise ProtocolError(f"hand {self.hand_number}: seat {seat}'s cards changed from "
                                    f"{format_cards(known)} to {format_cards(cards)}")
            if known is None:
                self._holes[seat] = (cards[0], cards[1])
                changed = True
        board = tuple(board)
        common = min(len(board), len(self._board))
        if board[:common] != self._board[:common]:
            raise ProtocolError(f"hand {self.hand_number}: the board changed from "
                                f"{format_cards(self._board)} to {format_cards(board)}")
        if len(board) > len(self._board):
            self._board = board
            changed = True
        if changed and self._state is not None:
            self._learn(self._state)

    def _learn(self, state: HandState) -> None:
        """Give our state the cards learnt since it was built, instead of replaying the hand.

        The engine reads the board and the hole cards only as the hand reaches them (a
        round's cards when it deals that round, the holes at the showdown and for
        observations), and cards once known never change, so a state that learns them late
        is the state built with them from the start. The state is ours alone: no bot holds it.
        """
        state.full_board = self._board
        state.holes = tuple(self._holes)

    @property
    def holes(self) -> tuple[tuple[int, int] | None, ...]:
        return tuple(self._holes)

    # --- the engine's state -------------------------------------------------------------------

    @property
    def state(self) -> HandState:
        """Our engine's state after every action so far (rebuilt when the cards changed)."""
        if self._state is None:
            state = HandState(self.game, [self.game.stack] * self.players, self.button,
                              self._holes, self._board, hand_number=self.hand_number)
            for action in self._actions:
                state.apply(action)
            self._state = state
        return self._state

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def actor(self) -> int | None:
        return self.state.actor

    def _round_start(self, seat: int) -> int:
        """Chips the seat had in the pot when this round began: ACPC counts from there."""
        state = self.state
        return state.contributions[seat] - state.bets[seat]

    def action_of(self, token: str) -> Action:
        """Our action for the actor's ACPC token (not checked: the engine checks on apply)."""
        state = self.state
        seat = state.actor
        if seat is None:
            raise ProtocolError(f"hand {self.hand_number}: action {token!r} after the hand ended")
        if token == "f":
            return Action.fold()
        if token == "c":
            return Action.call()
        if not token.startswith("r"):
            raise ProtocolError(f"hand {self.hand_number}: unknown action {token!r}")
        if not sized_raises(self.game):
            if len(token) > 1:
                raise ProtocolError(f"hand {self.hand_number}: a limit raise is 'r', got {token!r}")
            legal = state.legal_actions()
            # a raise the cap forbids still gets a size, so the engine names what is wrong
            return Action.raise_to(legal.raise_bounds[0] if legal.can_raise else
                                   max(state.bets) + self.game.bet_size(state.street))
        if len(token) == 1:
            raise ProtocolError(f"hand {self.hand_number}: a no-limit raise is 'r<total>', "
                                f"got {token!r}")
        return Action.raise_to(int(token[1:]) - self._round_start(seat))

    def token_of(self, action: Action) -> str:
        """The ACPC token of the actor's action (before it is applied)."""
        seat = self.state.actor
        if seat is None:
            raise ProtocolError(f"hand {self.hand_number}: action '{action}' after the hand "
                                f"ended")
        if action.kind is ActionKind.FOLD:
            return "f"
        if action.kind is ActionKind.CALL:
            return "c"
        if not sized_raises(self.game):
            return "r"
        return f"r{self._round_start(seat) + int(action.amount or 0)}"

    def apply(self, action: Action) -> ActionRecord:
        """Apply the actor's action (ours); IllegalActionError if the engine refuses it."""
        state = self.state
        token, street = self.token_of(action), int(state.street)
        try:
            record = state.apply(action)
        except ValueError:
            self._state = None  # a refused action leaves the state as it was; rebuild anyway
            raise
        self._actions.append(action)
        self._tokens.append((street, token))
        return record

    def apply_token(self, token: str, round_index: int | None = None) -> ActionRecord:
        """Apply an ACPC token; ``round_index`` (the round the dealer put it in) must be ours.

        Raises :class:`ProtocolError` when our engine finds it illegal or in another round:
        our engine and the dealer disagree.
        """
        state = self.state
        if round_index is not None and round_index != state.street:
            where = "is over" if state.finished else f"is in round {int(state.street)}"
            raise ProtocolError(f"hand {self.hand_number}: the dealer puts {token!r} in round "
                                f"{round_index}, but under our rules the hand {where}")
        before = self.betting()
        try:
            return self.apply(self.action_of(token))
        except IllegalActionError as exc:
            raise ProtocolError(f"hand {self.hand_number}: {token!r} after {before!r} is "
                                f"illegal under our rules: {exc}") from None
        except ValueError as exc:  # the engine needs cards the dealer has not shown
            raise ProtocolError(f"hand {self.hand_number}: after {before!r} and {token!r} our "
                                f"rules end the round, but the dealer shows no new cards "
                                f"({exc})") from None

    # --- what ACPC shows ----------------------------------------------------------------------

    def betting_rounds(self) -> tuple[tuple[str, ...], ...]:
        """Tokens per round up to the current one (after an all-in, every round to the river)."""
        rounds: list[list[str]] = [[] for _ in range(int(self.state.street) + 1)]
        for r, token in self._tokens:
            rounds[r].append(token)
        return tuple(tuple(tokens) for tokens in rounds)

    def betting(self) -> str:
        return format_betting(self.betting_rounds())

    def boards(self) -> tuple[tuple[int, ...], ...]:
        board = self.state.full_board
        return tuple(board[Street(r).board_slice] for r in range(int(self.state.street) + 1))

    def shown_holes(self, viewer: int | None) -> tuple[tuple[int, int] | None, ...]:
        """Hole cards by position as ``viewer`` (a seat; None: the log) sees them."""
        state = self.state
        shown = state.shown if state.finished else {}
        out = []
        for p in range(self.players):
            seat = self.seat_of(p)
            visible = viewer is None or seat == viewer or seat in shown
            out.append(self._holes[seat] if visible else None)
        return tuple(out)

    def matchstate(self, position: int) -> MatchState:
        """The MATCHSTATE the player at ``position`` gets now."""
        return MatchState(position, self.hand_number, self.betting_rounds(),
                          self.shown_holes(self.seat_of(position)), self.boards())

    def net(self) -> tuple[int, ...]:
        """Chips won per seat (the hand must be over)."""
        state = self.state
        return tuple(a - b for a, b in zip(state.finishing_stacks, state.starting_stacks,
                                           strict=True))

    def history(self, names: Sequence[str]) -> HandHistory:
        """The hand as our engine's record (for PHH); unknown hole cards stay None."""
        state = self.state
        return HandHistory(
            game=self.game, hand_number=self.hand_number, button=self.button,
            names=tuple(names), dealt_in=state.dealt_in, starting_stacks=state.starting_stacks,
            holes=state.holes, board=state.board_cards, actions=state.history,
            chance_points=state.chance_points, shown=state.shown,
            finishing_stacks=state.finishing_stacks)


def legal_action(action: Action, legal: LegalActions) -> Action:
    """The nearest legal action, as the reference dealer fixes a bad one: a raise out of range
    is clamped, a raise that is not allowed or a fold when checking is free becomes a call.

    >>> legal = LegalActions(can_fold=False, call_amount=0, min_raise_to=4, max_raise_to=100)
    >>> str(legal_action(Action.raise_to(500), legal)), str(legal_action(Action.fold(), legal))
    ('raise to 100', 'call')
    """
    if action.kind is ActionKind.RAISE:
        if not legal.can_raise:
            return Action.call()
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        amount = action.amount if action.amount is not None else legal.min_raise_to
        return Action.raise_to(min(max(amount, legal.min_raise_to), legal.max_raise_to))
    if action.kind is ActionKind.FOLD and not legal.can_fold:
        return Action.call()
    return Action(action.kind)


def record_action(record: ActionRecord) -> Action:
    """The action that made a record (raise-to within the round, as ours are)."""
    if record.kind is ActionKind.RAISE:
        return Action.raise_to(int(record.amount or 0))
    return Action(record.kind)

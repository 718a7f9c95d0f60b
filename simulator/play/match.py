"""The match loop: deal, ask each bot, apply, stream one :class:`HandResult` per hand.

Cards come from :func:`deal_cards`, which depends only on the seed, the hand number and the
number of seats, so duplicate permutations can replay the same cards per seat. Seat ``i`` is
``bots[i]``; hand 0's button is the last seat and it moves one seat per hand (to the next seat
still in when stacks carry over).

>>> from simulator.play.baseline import CallBot, RaiseBot
>>> from simulator.core.game import GameConfig
>>> game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
>>> results = list(play_match(game, [CallBot(), RaiseBot()], hands=3, seed=1))
>>> [r.button for r in results], all(sum(r.net) == 0 for r in results)
([1, 0, 1], True)
>>> deal_cards(1, 0, 2) == deal_cards(1, 0, 2)
True
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

import numpy as np

from simulator.core.actions import Action, ActionRecord, IllegalActionError, LegalActions
from simulator.core.game import GameConfig
from simulator.core.observation import ActionTaken, BoardDealt, HandEnded, HandStarted, Showdown
from simulator.core.state import BOARD_SIZES, ChancePoint, HandState
from simulator.play.protocol import BaseBot, Bot

__all__ = ["Deal", "deal_cards", "ChancePoint", "HandHistory", "BotFault", "HandResult",
           "BotError", "play_match", "play_hand"]


@dataclass(frozen=True)
class Deal:
    holes: tuple[tuple[int, int], ...]  # per seat, in seat order
    board: tuple[int, ...]  # all 5 board cards (dealt only as the hand reaches them)


def deal_cards(seed: int, hand_number: int, num_seats: int) -> Deal:
    """Depends only on its arguments: duplicate permutations replay the same cards per seat.

    >>> d = deal_cards(7, 0, 3)
    >>> len(d.holes), len(d.board), len(set(sum(d.holes, ()) + d.board))
    (3, 5, 11)
    """
    rng = np.random.default_rng([int(seed), int(hand_number)])
    cards = rng.permutation(52)[: 2 * num_seats + 5].tolist()
    holes = tuple((cards[2 * i], cards[2 * i + 1]) for i in range(num_seats))
    return Deal(holes, tuple(cards[2 * num_seats:]))


@dataclass(frozen=True)
class HandHistory:
    """Everything needed to write PHH and to recompute the hand."""

    game: GameConfig
    hand_number: int
    button: int
    names: tuple[str, ...]
    dealt_in: tuple[bool, ...]  # False for a busted seat sitting out (carry-over stacks)
    starting_stacks: tuple[int, ...]  # before antes and blinds
    holes: tuple[tuple[int, int] | None, ...]  # every dealt-in seat's cards (None if not dealt)
    board: tuple[int, ...]  # board cards actually dealt
    actions: tuple[ActionRecord, ...]
    chance_points: tuple[ChancePoint, ...]
    shown: dict[int, tuple[int, int]]  # seat -> cards shown at showdown
    finishing_stacks: tuple[int, ...]


@dataclass(frozen=True)
class BotFault:
    hand_number: int
    seat: int
    name: str
    message: str  # what went wrong: exception text, bad return, overtime


@dataclass(frozen=True)
class HandResult:
    hand_number: int
    button: int
    net: tuple[int, ...]  # chips won/lost per seat this hand (sums to 0)
    stacks: tuple[int, ...]  # after the hand
    history: HandHistory
    faults: tuple[BotFault, ...]  # faults replaced by check/fold under on_bot_error="fold"


class BotError(RuntimeError):
    """A bot raised, returned something that is not a legal Action, or ran over its time.

    The message names the bot (name and seat), the action and the legal set.
    """

    def __init__(self, fault: BotFault) -> None:
        super().__init__(f"hand {fault.hand_number}: bot {fault.name!r} (seat {fault.seat}): "
                         f"{fault.message}")
        self.fault = fault


def _observers(bots: Sequence[Bot]) -> list[Bot]:
    """Bots whose ``observe`` does something (BaseBot's no-op is skipped to save time)."""
    out = []
    for bot in bots:
        observe = getattr(type(bot), "observe", None)
        if observe is not None and observe is not BaseBot.observe:
            out.append(bot)
    return out


class _Overtime(BaseException):
    """Raised inside a bot that runs past its deadline; a BaseException, so that a bot's own
    ``except Exception`` cannot swallow it."""


def _raise_overtime(signum: int, frame: object) -> None:
    raise _Overtime


@contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    """Interrupt the block after ``seconds`` with a real-time timer, where Unix allows it.

    Signals reach only the main thread, which is where matches run (inline, in pool workers
    and in Ray tasks); elsewhere the overrun is still caught, once the bot returns. Code that
    never returns to the interpreter (a C extension) cannot be interrupted either way.
    """
    if (seconds is None or seconds <= 0 or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return
    previous = signal.signal(signal.SIGALRM, _raise_overtime)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _ask(bot: Bot, state: HandState, seat: int, name: str,
         timeout: float | None) -> tuple[Action | None, str | None]:
    """The bot's action, or None with the reason it is a fault."""
    obs = state.observation(seat)
    legal: LegalActions = obs.legal
    start = time.perf_counter() if timeout is not None else 0.0
    try:
        with _deadline(timeout):
            action = bot.act(obs)
    except _Overtime:
        return None, f"gave no answer within {timeout}s; legal: {legal}"
    except Exception as exc:  # a bot's failure is the bot's fault, never the engine's
        return None, f"raised {type(exc).__name__}: {exc}; legal: {legal}"
    if timeout is not None and time.perf_counter() - start > timeout:
        return None, f"took over {timeout}s to return '{action}'; legal: {legal}"
    if not isinstance(action, Action):
        return None, f"returned {action!r}, not an Action; legal: {legal}"
    return action, None  # its legality is checked once, by the state that applies it


def play_hand(game: GameConfig, bots: Sequence[Bot], stacks: Sequence[int], button: int,
              deal: Deal, hand_number: int, names: Sequence[str], *,
              on_bot_error: Literal["stop", "fold"] = "stop",
              bot_timeout: float | None = None,
              observers: Sequence[Bot] | None = None) -> HandResult:
    """Play one hand from ``stacks`` (0 = sitting out) and return its result."""
    observers = _observers(bots) if observers is None else observers
    dealt_in = tuple(s > 0 for s in stacks)
    holes = tuple(h if d else None for h, d in zip(deal.holes, dealt_in, strict=True))
    state = HandState(game, stacks, button, holes, deal.board, hand_number=hand_number,
                      dealt_in=dealt_in)
    names = tuple(names)
    if observers:
        _emit(observers, HandStarted(hand_number, button, names, tuple(stacks), dealt_in))
    faults: list[BotFault] = []
    streets_told = 0
    while not state.finished:
        seat = state.to_act[0]
        action, problem = _ask(bots[seat], state, seat, names[seat], bot_timeout)
        try:
            record = state.apply(action) if problem is None else None
        except IllegalActionError as exc:
            problem = f"illegal action '{action}'; legal: {exc.legal}"
        if problem is not None:
            fault = BotFault(hand_number, seat, names[seat], problem)
            if on_bot_error == "stop":
                raise BotError(fault)
            faults.append(fault)
            record = state.apply(Action.fold() if state.can_fold() else Action.call())
        if observers:
            _emit(observers, ActionTaken(record))
            streets_told = _tell_board(observers, state, streets_told)
    if observers:
        _tell_board(observers, state, streets_told)
    return _result(state, names, faults, observers)


def _tell_board(observers: Sequence[Bot], state: HandState, told: int) -> int:
    board = state.full_board
    for point in state.chance_points[told:]:
        lo, hi = BOARD_SIZES[point.street - 1], BOARD_SIZES[point.street]
        _emit(observers, BoardDealt(point.street, board[lo:hi], board[:hi]))
    return len(state.chance_points)


def _emit(observers: Sequence[Bot], event: object) -> None:
    for bot in observers:
        bot.observe(event)  # type: ignore[attr-defined]


def _result(state: HandState, names: tuple[str, ...], faults: list[BotFault],
            observers: Sequence[Bot]) -> HandResult:
    stacks = state.finishing_stacks
    net = tuple(a - b for a, b in zip(stacks, state.starting_stacks, strict=True))
    if observers:
        if state.shown:
            _emit(observers, Showdown(dict(state.shown)))
        _emit(observers, HandEnded(state.hand_number, net, stacks))
    history = HandHistory(
        game=state.game, hand_number=state.hand_number, button=state.button, names=names,
        dealt_in=state.dealt_in, starting_stacks=state.starting_stacks, holes=state.holes,
        board=state.board_cards, actions=tuple(state.history),
        chance_points=tuple(state.chance_points), shown=dict(state.shown),
        finishing_stacks=stacks)
    return HandResult(state.hand_number, state.button, net, stacks, history, tuple(faults))


def next_button(button: int, stacks: Sequence[int]) -> int:
    """The next seat after ``button`` that still has chips.

    >>> next_button(2, [5, 0, 3, 0]), next_button(0, [5, 0, 3, 0])
    (0, 2)
    """
    n = len(stacks)
    for k in range(1, n + 1):
        seat = (button + k) % n
        if stacks[seat] > 0:
            return seat
    raise ValueError("no seat has chips")


def play_match(game: GameConfig, bots: Sequence[Bot], hands: int, seed: int, *,
               names: Sequence[str] | None = None,
               on_bot_error: Literal["stop", "fold"] = "stop",
               bot_timeout: float | None = None) -> Iterator[HandResult]:
    """Play up to `hands` hands, yielding each result as it finishes (a stream).

    Seat i is bots[i]; hand 0's button is the last seat; the button moves one seat per hand
    (to the next seat still in, with carry-over stacks). Cards come from
    deal_cards(seed, hand_number, len(bots)). With game.reset_stacks every hand starts from
    game.stack; otherwise stacks carry over, busted seats sit out and the match ends when one
    seat is left. Bots get observe(event) for every public event if they have `observe`.
    on_bot_error="stop" raises BotError; "fold" records a BotFault and plays check if free,
    else fold. bot_timeout: seconds per decision; a slower decision is a fault. On Unix, in
    the main thread, a bot still thinking at the deadline is interrupted; elsewhere the
    overrun is caught when it returns.
    It never calls bot.reset(): the caller decides when memory is cleared.
    """
    n = len(bots)
    if n < 2:
        raise ValueError(f"a match needs at least 2 bots, got {n}")
    if on_bot_error not in ("stop", "fold"):
        raise ValueError(f"on_bot_error: expected 'stop' or 'fold', got {on_bot_error!r}")
    names = tuple(names) if names is not None else tuple(
        f"{type(b).__name__}{i}" for i, b in enumerate(bots))
    if len(names) != n:
        raise ValueError(f"expected {n} names, got {len(names)}")
    observers = _observers(bots)
    stacks = [game.stack] * n
    button = n - 1
    for hand_number in range(hands):
        if game.reset_stacks:
            stacks = [game.stack] * n
        if hand_number > 0:
            button = next_button(button, stacks)
        if sum(1 for s in stacks if s > 0) < 2:
            return
        result = play_hand(game, bots, stacks, button, deal_cards(seed, hand_number, n),
                           hand_number, names, on_bot_error=on_bot_error,
                           bot_timeout=bot_timeout, observers=observers)
        stacks = list(result.stacks)
        yield result

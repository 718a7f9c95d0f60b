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

import dataclasses
import signal
import threading
import time
import traceback
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from numbers import Integral
from pathlib import Path
from typing import Any, Literal, Protocol

from simulator.core.actions import Action, ActionKind, ActionRecord, IllegalActionError
from simulator.core.deal import Deal, deal_cards
from simulator.core.errors import RunError
from simulator.core.events import Event
from simulator.core.game import GameConfig
from simulator.core.observation import Observation
from simulator.core.records import BotFault, HandHistory, HandResult
from simulator.core.state import HandState
from simulator.core.streets import Street
from simulator.core.tournament_view import TournamentView
from simulator.play.deadline import Overtime, deadline
from simulator.play.driver import HandDriver
from simulator.play.protocol import (
    BaseBot,
    Bot,
    BotContext,
    Policy,
    PolicyBot,
    PolicyError,
    StepWithPolicyBot,
)

__all__ = ["BotError", "CallMonitor", "Deal", "deal_cards", "HandHistory", "BotFault",
           "HandResult", "Overseer", "PolicyAsker", "build_bots", "describe_decision",
           "describe_moves",
           "play_match", "play_hand", "next_button"]


class BotError(RunError, RuntimeError):
    """A bot raised, returned something that is not a legal Action, or ran over its time.

    The message names the bot (name and seat), the action and the legal set.
    """

    def __init__(self, fault: BotFault) -> None:
        super().__init__(f"hand {fault.hand_number}: bot {fault.name!r} (seat {fault.seat}): "
                         f"{fault.message}")
        self.fault = fault


def _observers(bots: Sequence[Bot]) -> list[int]:
    """Seats whose bot's ``observe`` does something (BaseBot's no-op is skipped to save time)."""
    out = []
    for seat, bot in enumerate(bots):
        observe = getattr(type(bot), "observe", None)
        if observe is not None and observe is not BaseBot.observe:
            out.append(seat)
    return out


class _InterruptFlag:
    """Tells the user's Ctrl-C from a ``KeyboardInterrupt`` a bot raises itself.

    While a match runs in the main thread, SIGINT sets ``seen`` before raising as usual; a
    ``KeyboardInterrupt`` out of a bot call with ``seen`` unset is the bot's fault. A SIGTERM
    handler the caller installed (the arena ends a run on SIGTERM as on Ctrl-C) is relayed
    the same way, so what it raises inside a bot call is not taken for the bot's.
    """

    def __init__(self) -> None:
        self.seen = False

    def _handler(self, signum: int, frame: object) -> None:
        self.seen = True
        raise KeyboardInterrupt

    def _relay(self, handler: Callable[[int, Any], Any]) -> Callable[[int, Any], Any]:
        def relay(signum: int, frame: Any) -> Any:
            self.seen = True
            return handler(signum, frame)
        return relay

    @contextmanager
    def installed(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.signal(signal.SIGINT, self._handler)
        term = signal.getsignal(signal.SIGTERM)
        if callable(term):
            signal.signal(signal.SIGTERM, self._relay(term))
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)
            if callable(term):
                signal.signal(signal.SIGTERM, term)


class CallMonitor(Protocol):
    """Told when a bot call starts and ends, so a watchdog outside can end a hung one."""

    def enter(self, seat: int, hand_number: int, what: str) -> None: ...

    def leave(self) -> None: ...


class _Guard:
    """Every call into a bot, made the same way: construction (:func:`build_bots`),
    ``start``, ``act``, ``observe`` and ``close`` all turn any exception, ``SystemExit``, a
    bot's own ``KeyboardInterrupt`` or an overrun into a :class:`BotFault`, which
    ``on_bot_error`` then stops on (``BotError``) or records."""

    def __init__(self, names: tuple[str, ...], on_bot_error: str, timeout: float | None,
                 monitor: CallMonitor | None) -> None:
        self.names, self.on_bot_error, self.timeout = names, on_bot_error, timeout
        self.monitor = monitor
        self.interrupt = _InterruptFlag()
        self.hand_number = 0
        self._traceback = ""  # of the last call that raised, for the fault that follows
        # which optional protocols each seat's bot implements, asked once a match
        # (PolicyAsker): a runtime protocol's isinstance walks the class's attributes
        self.kinds: dict[tuple[int, type], bool] = {}

    def call(self, seat: int, what: str, fn: Callable[..., Any], *args: Any,
             interrupt: bool = True) -> tuple[Any, str | None]:
        """``(result, None)``, or ``(None, problem)`` when the call is the bot's fault.

        ``interrupt=False`` skips the interval timer (two system calls), for ``observe``,
        which is called far more often than the rest; its overrun is caught on return, and
        a hung one by the arena's watchdog.
        """
        monitor, timeout = self.monitor, self.timeout
        if monitor is not None:
            monitor.enter(seat, self.hand_number, what)
        start = time.perf_counter() if timeout is not None else 0.0
        try:
            if interrupt:
                with deadline(timeout):
                    result = fn(*args)
            else:
                result = fn(*args)
        except Overtime:
            return None, f"{what}: gave no answer within {timeout}s"
        except BaseException as exc:  # SystemExit too: a bot's failure is the bot's fault
            if self.interrupt.seen:  # the user's Ctrl-C (or the caller's SIGTERM) instead
                raise
            self._traceback = "".join(traceback.format_exception(exc))
            if isinstance(exc, KeyboardInterrupt):
                return None, f"{what}: raised KeyboardInterrupt"
            return None, f"{what}: raised {type(exc).__name__}: {exc}"
        finally:
            if monitor is not None:
                monitor.leave()
        if timeout is not None and time.perf_counter() - start > timeout:
            return None, f"{what}: took over {timeout}s"
        return result, None

    def fault(self, seat: int, problem: str, faults: list[BotFault]) -> None:
        fault = BotFault(self.hand_number, seat, self.names[seat], problem, self._traceback)
        self._traceback = ""
        if self.on_bot_error == "stop":
            raise BotError(fault)
        faults.append(fault)

    def tell(self, bots: Sequence[Bot], seats: Sequence[int], event: Event,
             faults: list[BotFault]) -> None:
        for seat in seats:
            _, problem = self.call(seat, "observe()", bots[seat].observe,  # type: ignore[attr-defined]
                                   event, interrupt=False)
            if problem is not None:
                self.fault(seat, problem, faults)


# --- overseers: a caller's own code watching (or playing) the decisions of a hand -------------


def describe_decision(observation: Observation) -> str:
    """The decision an observation stands for, in words: the street and the actions so far
    (``f`` fold, ``c`` check or call, ``rN`` raise to N; streets apart by ``/``).

    >>> from simulator.core.actions import LegalActions
    >>> from simulator.core.streets import Street
    >>> obs = Observation(1, 0, 7, GameConfig(), (0, 1), (2, 3, 4), Street.FLOP, 8, (96, 96),
    ...                   (0, 0), (4, 4), (True, True),
    ...                   (ActionRecord(0, Street.PREFLOP, ActionKind.RAISE, 4, 3),
    ...                    ActionRecord(1, Street.PREFLOP, ActionKind.CALL, None, 2)),
    ...                   LegalActions(False, 0, 2, 96))
    >>> describe_decision(obs)
    "seat 1's flop decision after 'r4 c / '"
    """
    return describe_moves(observation.seat, observation.street, observation.history)


def describe_moves(seat: int, street: Street, history: Sequence[ActionRecord]) -> str:
    """:func:`describe_decision` from its parts, for a caller that holds no observation."""
    streets: list[list[str]] = [[] for _ in range(int(street) + 1)]
    for r in history:
        verb = {ActionKind.FOLD: "f", ActionKind.CALL: "c"}.get(r.kind, f"r{r.amount}")
        streets[int(r.street)].append(verb)
    text = " / ".join(" ".join(moves) for moves in streets)
    return f"seat {seat}'s {street.label} decision after {text!r}"


class PolicyAsker:
    """Asks a seat's bot for its policy through the guard of every bot call, for an
    :class:`Overseer`: an exception, an overrun, a return that is not a :class:`Policy` with
    one row per holding, or rows that are not a distribution over distinct legal actions
    (:meth:`Policy.check`) are that seat's fault, naming the decision, and ``on_bot_error``
    then stops on it (``BotError``) or records it (the call returns None)."""

    def __init__(self, guard: _Guard, bots: Sequence[Bot], faults: list[BotFault]) -> None:
        self._guard, self._bots, self._faults = guard, bots, faults
        self._drawn: Policy | None = None

    def _is(self, seat: int, protocol: type) -> bool:
        kinds = self._guard.kinds
        found = kinds.get((seat, protocol))
        if found is None:
            found = kinds[seat, protocol] = isinstance(self._bots[seat], protocol)
        return found

    def has_policy(self, seat: int) -> bool:
        """Whether the seat's bot states a policy (a :class:`PolicyBot`)."""
        return self._is(seat, PolicyBot)

    def states_row(self, seat: int) -> bool:
        """Whether the seat's action comes with the row it was drawn from
        (:meth:`drawn_from`), so that an overseer need not ask for it."""
        return self._is(seat, StepWithPolicyBot)

    def drawn_from(self) -> Policy | None:
        """The one-row policy the last action was drawn from, when its bot stated it
        (:class:`StepWithPolicyBot`) and the decision was not a fault."""
        return self._drawn

    def act(self, seat: int, observation: Observation) -> Action | None:
        """The seat's action (None after recording why it is a fault), through
        ``step_with_policy`` where the bot has it; its row is then :meth:`drawn_from`."""
        self._drawn = None
        bot = self._bots[seat]
        if not self.states_row(seat):
            return _ask(self._guard, bot, observation, self._faults)
        what = "step_with_policy()"
        answer, problem = self._guard.call(seat, what, bot.step_with_policy,  # type: ignore[attr-defined]
                                           observation)
        policy, action = None, None
        if problem is None:
            policy, action, problem = _stated(answer, observation, what)
        if problem is not None:
            self._guard.fault(seat, f"{problem}; legal: {observation.legal}", self._faults)
            return None
        self._drawn = policy
        return action

    def __call__(self, seat: int, observation: Observation,
                 holdings: Sequence[tuple[int, int]], decision: str | None = None
                 ) -> Policy | None:
        """The seat's policy at ``observation`` for ``holdings``, or None after a fault.

        ``decision`` names the decision in a fault's message (default: the observation's,
        :func:`describe_decision`); a question about a state the hand did not reach says so.
        """
        bot = self._bots[seat]
        if not self.has_policy(seat):
            raise TypeError(f"seat {seat}'s bot {type(bot).__name__} states no policy")
        policy, problem = self._guard.call(seat, "policy()",
                                           bot.policy,  # type: ignore[attr-defined]
                                           observation, holdings)
        if problem is None:
            problem = _policy_problem(policy, observation, len(holdings))
        if problem is not None:
            where = decision if decision is not None else describe_decision(observation)
            self.fault(seat, f"{problem} (at {where})")
            return None
        return policy

    def fault(self, seat: int, problem: str) -> None:
        """Record ``problem`` as the seat's fault (under ``on_bot_error: stop``, raise)."""
        self._guard.fault(seat, problem, self._faults)


def _policy_problem(policy: object, observation: Observation, rows: int,
                    what: str = "policy()") -> str | None:
    """Why the answer of call ``what`` is not a policy of ``rows`` rows at ``observation``
    (None when it is)."""
    if not isinstance(policy, Policy):
        return f"{what}: returned {type(policy).__name__}, not a Policy"
    try:  # the class's own check, whatever a subclass says; its types before its rows
        Policy.check(policy, observation.legal)
    except PolicyError as exc:
        return f"{what}: {exc}"
    held = int(policy.probabilities.shape[0])
    if held != rows:
        return f"{what}: {held} rows for {rows} holdings"
    return None


def _stated(answer: object, observation: Observation, what: str
            ) -> tuple[Policy | None, Action | None, str | None]:
    """A step's answer checked: its one-row policy and its action, or why it is a fault."""
    if not (isinstance(answer, tuple) and len(answer) == 2):
        return None, None, f"{what}: returned {type(answer).__name__}, not a pair"
    policy, action = answer
    problem = _policy_problem(policy, observation, 1, what)
    if problem is not None:
        return None, None, problem
    own, problem = _own_action(action, what)
    return policy, own, problem


class Overseer(Protocol):
    """A caller's own code told of every decision of a hand (the bots never see it).

    ``before`` comes before the seat to act is asked, with the hand's live state, which it
    must only read (``observation_after`` gives hypothetical states from a copy). It may ask
    any seat's bot for its policy through ``ask``, and it may play the seat itself by
    returning an action (a best response does); None lets the seat's bot act. An action it
    returns must be legal: an illegal one is the caller's error, never a bot's fault.
    ``after`` follows with the record the state applied and whether it was forced (the bot's
    decision failed and the engine checked or folded for it); where the seat's bot states the
    row it drew from with its action (``ask.states_row(seat)``), ``ask.drawn_from()`` has it
    by then, so ``before`` need not ask for the same row.
    """

    def before(self, seat: int, state: HandState, ask: PolicyAsker) -> Action | None: ...

    def after(self, seat: int, state: HandState, record: ActionRecord, forced: bool,
              ask: PolicyAsker) -> None: ...


def _ask(guard: _Guard, bot: Bot, obs: Observation, faults: list[BotFault]) -> Action | None:
    """The bot's action, or None after recording why it is a fault."""
    action, problem = guard.call(obs.seat, "act()", bot.act, obs)
    if problem is None:
        action, problem = _own_action(action)
    if problem is not None:
        guard.fault(obs.seat, f"{problem}; legal: {obs.legal}", faults)
        return None
    return action  # its legality is checked once, by the state that applies it


def _own_action(action: object, what: str = "act()") -> tuple[Action | None, str | None]:
    """The engine's own copy of a returned action, read once: a subclass whose fields change
    between reads (properties) cannot pass the legality check with one amount and be
    applied with another, and an amount that is not an integer is refused."""
    if type(action) is Action and (action.amount is None or type(action.amount) is int):
        return action, None  # the common case: a plain, frozen record
    if not isinstance(action, Action):
        return None, f"{what}: returned {action!r}, not an Action"
    kind, amount = action.kind, action.amount
    if not isinstance(kind, ActionKind):
        return None, f"{what}: returned an Action of kind {kind!r}, not an ActionKind"
    if amount is not None and (isinstance(amount, bool) or not isinstance(amount, Integral)):
        return None, f"{what}: returned an amount of {amount!r}, not an integer"
    return Action(kind, None if amount is None else int(amount)), None


class _StandIn:
    """Sits in the seat of a bot that could not be built (under ``on_bot_error: fold``):
    checks when free, else folds, as a faulty decision does."""

    def act(self, observation: Observation) -> Action:
        return observation.legal.check_or_fold()


def build_bots(makers: Sequence[Callable[[], Bot]], names: Sequence[str], *,
               on_bot_error: Literal["stop", "fold"] = "stop",
               bot_timeout: float | None = None,
               monitor: CallMonitor | None = None) -> tuple[list[Bot], list[BotFault]]:
    """Build each seat's bot through the guard of every bot call: a constructor that raises
    (``SystemExit`` too) or overruns is that bot's fault (hand 0). Under ``"stop"`` it raises
    ``BotError``; under ``"fold"`` the seat gets a stand-in that checks or folds.

    >>> from simulator.play.baseline import CallBot
    >>> bots, faults = build_bots([CallBot, lambda: 1 / 0], ["a", "b"], on_bot_error="fold")
    >>> type(bots[0]).__name__, type(bots[1]).__name__, faults[0].message
    ('CallBot', '_StandIn', 'constructor: raised ZeroDivisionError: division by zero')
    """
    guard = _Guard(tuple(names), on_bot_error, bot_timeout, monitor)
    bots: list[Bot] = []
    faults: list[BotFault] = []
    with guard.interrupt.installed():
        for seat, make in enumerate(makers):
            bot, problem = guard.call(seat, "constructor", make)
            if problem is not None:
                guard.fault(seat, problem, faults)
                bot = _StandIn()
            bots.append(bot)
    return bots, faults


def play_hand(game: GameConfig, bots: Sequence[Bot], stacks: Sequence[int], button: int,
              deal: Deal, hand_number: int, names: Sequence[str], *,
              on_bot_error: Literal["stop", "fold"] = "stop",
              bot_timeout: float | None = None,
              observers: Sequence[int] | None = None,
              seat_games: Sequence[GameConfig] | None = None,
              guard: _Guard | None = None,
              overseer: Overseer | None = None,
              tournament: TournamentView | None = None) -> HandResult:
    """Play one hand from ``stacks`` (0 = sitting out) and return its result: a
    :class:`~simulator.play.driver.HandDriver` stepped with the bots' actions.

    ``seat_games`` are the game records each seat's observations carry (default: a copy per
    seat); the engine plays by ``game``, which no bot is handed. ``overseer`` is told of
    every decision (:class:`Overseer`). ``tournament``, in a freezeout, is what every
    observation tells of it (prizes, the other stacks).
    """
    observers = _observers(bots) if observers is None else observers
    guard = _Guard(tuple(names), on_bot_error, bot_timeout, None) if guard is None else guard
    guard.hand_number = hand_number
    driver = HandDriver(game, stacks, button, deal, hand_number, names, seat_games=seat_games,
                        tournament=tournament)
    faults: list[BotFault] = []
    _tell(guard, bots, observers, driver, faults)
    asker = PolicyAsker(guard, bots, faults)
    state = driver.state
    while not driver.finished:
        seat = driver.actor
        assert seat is not None  # a hand not over has a player to act
        own = overseer.before(seat, state, asker) if overseer is not None else None
        if own is not None:
            driver.apply(own)  # the caller's action: an illegal one is its error, raised
            applied = True
            asker._drawn = None  # no bot drew this action
        else:
            applied = _play_bot(guard, bots, driver, seat,
                                asker if overseer is not None else None, faults)
        if overseer is not None:
            overseer.after(seat, state, state.history[-1], not applied, asker)
        _tell(guard, bots, observers, driver, faults)
    return driver.result(faults)


def _play_bot(guard: _Guard, bots: Sequence[Bot], driver: HandDriver, seat: int,
              asker: PolicyAsker | None, faults: list[BotFault]) -> bool:
    """Apply the seat's bot's action; True if it was, False if the engine checked or folded
    for it after a fault (an exception, an overrun, an illegal action)."""
    obs = driver.observation(seat)
    action = _ask(guard, bots[seat], obs, faults) if asker is None else asker.act(seat, obs)
    if action is not None:
        try:
            driver.apply(action)
            return True
        except IllegalActionError as exc:
            guard.fault(seat, f"illegal action '{action}'; legal: {exc.legal}", faults)
    driver.apply(driver.state.legal_actions().check_or_fold())
    return False


def _tell(guard: _Guard, bots: Sequence[Bot], observers: Sequence[int], driver: HandDriver,
          faults: list[BotFault]) -> None:
    """Tell the observing seats what the driver has to say: a public event to all, a private
    one to its seat alone."""
    told = driver.events()
    if not observers:
        return
    for item in told:
        if item.to is None:
            guard.tell(bots, observers, item.event, faults)
        elif item.to in observers:
            guard.tell(bots, (item.to,), item.event, faults)


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
               bot_timeout: float | None = None, block: int = 0, permutation: int = 0,
               directory: Path | None = None, first_button: int | None = None,
               monitor: CallMonitor | None = None,
               overseer: Overseer | None = None) -> Generator[HandResult, None, None]:
    """Play up to ``hands`` hands, yielding each result as it finishes (a stream).

    Seat i is ``bots[i]``. Hand 0's button is ``first_button`` (default the last seat); it
    moves one seat per hand (to the next seat still in, with carry-over stacks). Cards come
    from ``deal_cards(seed, hand_number, len(bots))``. With ``game.reset_stacks`` every hand
    starts from ``game.stack``; otherwise stacks carry over, busted seats sit out and the
    match ends when one seat is left.

    Each bot's ``start(BotContext)`` runs before the first hand (its ``directory`` is
    ``directory / name``, created first, when ``directory`` is given) and ``close()`` after
    the last; bots with ``observe`` get every public event and their own ``HoleCardsDealt``.
    ``on_bot_error="stop"`` raises ``BotError`` on a bot's fault; ``"fold"`` records a
    ``BotFault`` on the hand's result (a fault in ``start`` on the first hand's, in ``close``
    on the last's) and, for a failed decision, checks if free, else folds. ``bot_timeout`` is
    seconds per call; a decision still running at the deadline is interrupted, in any thread
    (:mod:`simulator.play.deadline`). ``monitor`` is told of every bot call (the arena's
    watchdog); ``overseer`` of every decision (:class:`Overseer`). It never calls
    ``bot.reset()``: the caller decides when memory is cleared.
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
    if hands <= 0:
        return
    guard = _Guard(names, on_bot_error, bot_timeout, monitor)
    observers = _observers(bots)
    seat_games = [game.copy() for _ in bots]
    stacks = [game.stack] * n
    button = n - 1 if first_button is None else first_button
    with guard.interrupt.installed():
        faults = _start_bots(guard, bots, seat_games, block, permutation, directory)
        closed = False
        try:
            for hand_number in range(hands):
                if game.reset_stacks:
                    stacks = [game.stack] * n
                if hand_number > 0:
                    button = next_button(button, stacks)
                result = play_hand(game, bots, stacks, button,
                                   deal_cards(seed, hand_number, n), hand_number, names,
                                   observers=observers, seat_games=seat_games, guard=guard,
                                   overseer=overseer)
                stacks = list(result.stacks)
                if hand_number == hands - 1 or (
                        not game.reset_stacks and sum(1 for s in stacks if s > 0) < 2):
                    closed = True
                    faults += _close_bots(guard, bots)
                if faults:
                    result = dataclasses.replace(result, faults=(*faults, *result.faults))
                    faults = []
                yield result
                if closed:
                    return
        finally:
            if not closed:  # stopped early (an error, or the reader): still let bots clean up
                try:
                    _close_bots(guard, bots)
                except BotError:
                    pass


def _start_bots(guard: _Guard, bots: Sequence[Bot], seat_games: Sequence[GameConfig],
                block: int, permutation: int, directory: Path | None, *,
                moved: bool = False) -> list[BotFault]:
    faults: list[BotFault] = []
    if not moved:  # a move's start comes between hands: a fault's hand is the last one
        guard.hand_number = 0
    for seat, bot in enumerate(bots):
        start = getattr(bot, "start", None)
        if start is None or getattr(type(bot), "start", None) is BaseBot.start:
            continue  # BaseBot's no-op: no call, and no directory made for nothing
        where = None
        if directory is not None:
            where = Path(directory) / guard.names[seat]
            where.mkdir(parents=True, exist_ok=True)
        context = BotContext(seat, guard.names, seat_games[seat], block, permutation, where,
                             moved)
        _, problem = guard.call(seat, "start()", start, context)
        if problem is not None:
            guard.fault(seat, problem, faults)
    return faults


def _close_bots(guard: _Guard, bots: Sequence[Bot]) -> list[BotFault]:
    faults: list[BotFault] = []
    for seat, bot in enumerate(bots):
        close = getattr(bot, "close", None)
        if close is None:
            continue
        _, problem = guard.call(seat, "close()", close)
        if problem is not None:
            guard.fault(seat, problem, faults)
    return faults

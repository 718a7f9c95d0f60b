"""A game at a table in the browser: a person in seat 0, bots in the others, stepped by requests.

:class:`Table` drives :class:`~simulator.play.driver.HandDriver` from outside: the page asks
for the next step (a bot acts: :meth:`Table.step`), or gives the person's action
(:meth:`Table.act`), and renders :meth:`Table.view`. Pacing is the page's: the server never
sleeps, so a bot's action reaches the page as soon as the bot returns. Every bot call is
guarded alike: an exception, an illegal answer or an overrun of ``bot_timeout`` (interrupted
by :func:`simulator.play.deadline.deadline`, which works in the server's worker threads) is the
bot's fault, and ``on_bot_error`` says what follows: ``fold`` plays check-or-fold for it and
says so in the page, ``stop`` ends the game with the message.

What the page is shown is what seat 0 may see: the bots' cards only when shown down, and the
bots' reasoning (each decision's policy row, the heuristic agent's trace lines) only once the
hand is over. Every finished hand is appended as PHH to the session folder's ``hands.phhs``.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from simulator.core.actions import Action, ActionKind, IllegalActionError, LegalActions
from simulator.core.cards import format_cards
from simulator.core.deal import deal_cards
from simulator.core.errors import HoldemError
from simulator.core.events import ActionTaken, BoardDealt, HandEnded
from simulator.core.files import open_nofollow
from simulator.core.game import GameConfig
from simulator.core.hand_names import hand_name
from simulator.core.observation import Observation
from simulator.core.validation import describe_error
from simulator.interop.phh import dumps_all
from simulator.play.deadline import Overtime, deadline
from simulator.play.driver import HandDriver, Told
from simulator.play.protocol import (
    Bot,
    BotContext,
    Policy,
    PolicyBot,
    StepWithPolicyBot,
    own_holding,
)
from simulator.play.registry import build, check_for_game, param_names, prepare, resolve
from simulator.play.trace_files import is_decision, trace_file

MAX_SEATS = 10
TRACE_READ_LIMIT = 1 << 20  # bytes of a bot's trace read after one hand


class BadRequest(HoldemError, ValueError):
    """A request the page should not have sent: a bad game, an unknown bot, an illegal
    action. Its message goes to the page with status 400."""


class Conflict(HoldemError, RuntimeError):
    """A request that does not fit the game's state now (acting out of turn): status 409."""


class SeatRequest(BaseModel):
    """One bot seat of a table: a name from ``holdem bots`` or ``module:Class``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    bot: str = Field(min_length=1, max_length=200)
    params: dict[str, Any] = {}


class TableRequest(BaseModel):
    """A game to play, as the play form sends it (the same rules as a YAML config's game)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    variant: Literal["limit", "nolimit"] = "nolimit"
    blinds: list[int] = Field(default=[1, 2], min_length=2, max_length=3)
    stack: int = Field(default=200, gt=0, le=10**9)
    opponents: list[SeatRequest] = Field(min_length=1, max_length=MAX_SEATS - 1)
    seed: int = Field(default=0, ge=0, lt=2**63)
    bot_timeout: float = Field(default=10.0, gt=0, le=600)
    on_bot_error: Literal["fold", "stop"] = "fold"
    traces: bool = True  # the heuristic agent writes its trace lines, shown after each hand
    hint_bot: str = "heuristic"


def parse_request(data: object) -> TableRequest:
    """The play form's request, or :class:`BadRequest` naming the first problem."""
    try:
        return TableRequest.model_validate(data)
    except ValidationError as exc:
        raise BadRequest(describe_error(exc.errors()[0])) from None


def game_of(request: TableRequest) -> GameConfig:
    """The request's game; a rule it breaks is :class:`BadRequest`."""
    blinds = tuple(request.blinds)
    try:
        if request.variant == "limit":
            return GameConfig(variant="limit", blinds=blinds, small_bet=max(blinds),
                              stack=request.stack)
        return GameConfig(variant="nolimit", blinds=blinds, stack=request.stack)
    except HoldemError as exc:
        raise BadRequest(str(exc)) from None


def card_list(cards: Sequence[int]) -> list[str]:
    return [format_cards([c]) for c in cards]


def legal_view(legal: LegalActions, bet_made: bool) -> dict[str, Any]:
    """The person's buttons: only what is legal, and the raise range in no-limit."""
    out: dict[str, Any] = {"fold": legal.can_fold, "call": legal.call_amount,
                           "raise": list(legal.raise_bounds) if legal.can_raise else None,
                           "raise_word": "raise to" if bet_made else "bet"}
    return out


def action_of(data: object, legal: LegalActions) -> Action:
    """The person's action from ``{"kind": "fold"|"call"|"raise", "amount": N}``: anything
    not legal is :class:`BadRequest` saying why, never turned into another action."""
    if not isinstance(data, dict) or set(data) - {"kind", "amount"}:
        raise BadRequest("action: expected {kind, amount}")
    kind, amount = data.get("kind"), data.get("amount")
    if kind == "fold":
        if not legal.can_fold:
            raise BadRequest("fold: checking is free here; check instead")
        return Action.fold()
    if kind == "call":
        return Action.call()
    if kind != "raise":
        raise BadRequest(f"action: unknown kind {kind!r} (fold, call or raise)")
    if not legal.can_raise:
        raise BadRequest("raise: raising is not allowed here")
    low, high = legal.raise_bounds
    if type(amount) is not int:
        raise BadRequest(f"raise: the amount must be a whole number of chips ({low}..{high})")
    if not low <= amount <= high:
        raise BadRequest(f"raise to {amount}: out of the legal range {low}..{high}")
    return Action.raise_to(amount)


@dataclass(frozen=True)
class Stepped:
    """A bot's step, timed: when the bot returned (seconds since the epoch, the clock a
    browser's ``Date.now()`` shares, so a benchmark can time the page showing the action) and
    the server's seconds from then until the action was applied and told to every bot."""

    returned_at: float
    after_return: float


@dataclass
class Seat:
    name: str
    bot: Bot | None  # None: the person
    spec: str = "you"
    messages: list[str] = field(default_factory=list)
    trace_offset: int = 0


def _seat_names(opponents: Sequence[SeatRequest]) -> list[str]:
    names, seen = ["you"], {"you": 1}
    for o in opponents:
        base = o.bot.rsplit(":", 1)[-1].rsplit(".", 1)[-1][:24] or "bot"
        seen[base] = seen.get(base, 0) + 1
        names.append(base if seen[base] == 1 else f"{base}{seen[base]}")
    return names


class Table:
    """One person's game (see the module doc). Not thread-safe: the server holds its lock."""

    def __init__(self, request: TableRequest, folder: Path) -> None:
        self.request, self.game = request, game_of(request)
        self.folder = folder
        self.names = _seat_names(request.opponents)
        self.seats: list[Seat] = [Seat("you", None)]
        self.hand_number = -1
        self.driver: HandDriver | None = None
        self.log: list[str] = []
        self.totals: list[int] = []
        self.decisions: list[dict[str, Any]] = []
        self.last_result: dict[str, Any] | None = None
        self.stopped: str | None = None
        self.touched = time.monotonic()
        self._hint: PolicyBot | None = None
        self._build(request)

    # --- building ---------------------------------------------------------------------------

    def _build(self, request: TableRequest) -> None:
        specs = []
        for o in request.opponents:
            params = dict(o.params)
            spec = resolve(o.bot)
            if request.traces and "trace" in param_names(spec):
                params.setdefault("trace", True)
            check_for_game(spec, params, self.game, len(self.names))
            specs.append((spec, params))
        self.folder.mkdir(parents=True, exist_ok=False)
        for index, (spec, params) in enumerate(specs, 1):
            prepare(spec, self.game)
            try:
                bot = build(spec, params, seed=request.seed + index)
            except HoldemError:
                raise
            except Exception as exc:
                raise BadRequest(f"bot {spec.name!r} fails to load: {type(exc).__name__}: "
                                 f"{exc}") from None
            self.seats.append(Seat(self.names[index], bot, spec.name))
        for index, seat in enumerate(self.seats):
            start = getattr(seat.bot, "start", None)
            if start is not None:
                self._guard(index, "start()", start, self._context(index, True))
        self._hint = self._hint_bot(request.hint_bot)
        self._write_session()

    def _context(self, seat: int, directory: bool) -> BotContext:
        bot_dir = None
        if directory:
            bot_dir = self.folder / "bots" / self.names[seat]
            bot_dir.mkdir(parents=True, exist_ok=True)
        return BotContext(seat, tuple(self.names), self.game.copy(), directory=bot_dir)

    def _hint_bot(self, name: str) -> PolicyBot | None:
        """The bot that answers "hint" from the person's seat (None when it cannot)."""
        try:
            spec = resolve(name)
            check_for_game(spec, {}, self.game, len(self.names))
            prepare(spec, self.game)
            bot = build(spec, {}, seed=self.request.seed)
            start = getattr(bot, "start", None)
            if start is not None:
                start(self._context(0, False))
        except Exception:  # a hint is a help, never a reason to refuse the game
            return None
        return bot if isinstance(bot, PolicyBot) else None

    def _write_session(self) -> None:
        info = {"game": {"variant": self.game.variant, "blinds": list(self.game.blinds),
                         "stack": self.game.stack},
                "seats": [{"name": s.name, "bot": s.spec} for s in self.seats]}
        with open_nofollow(self.folder / "session.json", "x") as f:
            f.write(json.dumps(info, indent=1) + "\n")

    # --- stepping ---------------------------------------------------------------------------

    def deal(self) -> None:
        """The next hand (stacks reset every hand, the button moves on)."""
        if self.driver is not None and not self.driver.finished:
            raise Conflict("the hand is not over")
        if self.stopped:
            raise Conflict(self.stopped)
        self.hand_number += 1
        n = len(self.seats)
        self.driver = HandDriver(self.game, [self.game.stack] * n, self.hand_number % n,
                                 deal_cards(self.request.seed, self.hand_number, n),
                                 self.hand_number, self.names)
        self.log, self.decisions, self.last_result = [], [], None
        self._tell(self.driver.events())

    def step(self) -> Stepped | None:
        """Let the bot to act act; returns when it returned and what followed (None when no
        bot was to act)."""
        driver = self._live()
        actor = driver.actor
        if actor is None or self.seats[actor].bot is None:
            return None
        bot = self.seats[actor].bot
        assert bot is not None
        obs = driver.observation(actor)
        action, policy = self._ask(actor, bot, obs)
        returned, returned_at = time.perf_counter(), time.time()
        if action is None or not obs.legal.allows(action):
            if action is not None:
                self._fault(actor, f"act(): illegal action {action} (legal: {obs.legal})")
            action = obs.legal.check_or_fold()
            if self.stopped:
                return None
        self._record_decision(actor, obs, policy, action)
        driver.apply(action)
        self._tell(driver.events())
        return Stepped(returned_at, time.perf_counter() - returned)

    def act(self, data: object) -> None:
        """The person's action; :class:`BadRequest` if it is not legal (nothing changes)."""
        driver = self._live()
        if driver.actor != 0:
            raise Conflict("it is not your turn")
        obs = driver.observation(0)
        action = action_of(data, obs.legal)
        try:
            driver.apply(action)
        except IllegalActionError as exc:  # action_of checked it: a safeguard only
            raise BadRequest(str(exc)) from None
        self._tell(driver.events())

    def hint(self) -> dict[str, Any]:
        """What the hint bot would do in the person's seat now: its policy row."""
        driver = self._live()
        if driver.actor != 0:
            raise Conflict("a hint is for your turn")
        if self._hint is None:
            raise BadRequest(f"no hint: bot {self.request.hint_bot!r} cannot state a policy "
                             f"in this game")
        obs, hint = driver.observation(0), self._hint
        policy, problem = self._call(lambda: hint.policy(obs, own_holding(obs)))
        if problem is not None or not isinstance(policy, Policy):
            raise BadRequest(f"no hint: {problem or 'the bot gave no policy'}")
        return {"bot": self.request.hint_bot, **_policy_row(policy)}

    def _live(self) -> HandDriver:
        self.touched = time.monotonic()
        if self.stopped:
            raise Conflict(self.stopped)
        if self.driver is None:
            self.deal()
        assert self.driver is not None
        return self.driver

    def _ask(self, seat: int, bot: Bot, obs: Observation
             ) -> tuple[Action | None, Policy | None]:
        """The bot's action, and its policy row when it states one."""
        if isinstance(bot, StepWithPolicyBot):
            answer, problem = self._call(lambda: bot.step_with_policy(obs))
            if problem is None and isinstance(answer, tuple) and len(answer) == 2:
                policy, action = answer
                return (action if isinstance(action, Action) else None,
                        policy if isinstance(policy, Policy) else None)
        else:
            answer, problem = self._call(lambda: bot.act(obs))
            if problem is None and isinstance(answer, Action):
                return answer, None
        self._fault(seat, f"act(): {problem or 'returned no action'}")
        return None, None

    def _call(self, fn: Any) -> tuple[Any, str | None]:
        try:
            with deadline(self.request.bot_timeout):
                return fn(), None
        except Overtime:
            return None, f"gave no answer within {self.request.bot_timeout}s"
        except Exception as exc:
            return None, f"raised {type(exc).__name__}: {exc}"

    def _guard(self, seat: int, what: str, fn: Any, *args: Any) -> None:
        _, problem = self._call(lambda: fn(*args))
        if problem is not None:
            self._fault(seat, f"{what}: {problem}")

    def _fault(self, seat: int, problem: str) -> None:
        name = self.names[seat]
        if self.request.on_bot_error == "stop":
            self.stopped = f"bot {name} failed ({problem}); the game stopped (on_bot_error: stop)"
        else:
            self.log.append(f"{name}'s fault: {problem}; it checks or folds (on_bot_error: fold)")

    def _tell(self, told: list[Told]) -> None:
        for t in told:
            self._narrate(t)
            for index, seat in enumerate(self.seats):
                if seat.bot is not None and (t.to is None or t.to == index):
                    observe = getattr(seat.bot, "observe", None)
                    if observe is not None:
                        self._guard(index, "observe()", observe, t.event)
            hint = self._hint
            if hint is not None and (t.to is None or t.to == 0):
                try:
                    getattr(hint, "observe", lambda e: None)(t.event)
                except Exception:
                    self._hint = None
            if isinstance(t.event, HandEnded):
                self._hand_over(t.event)

    def _narrate(self, t: Told) -> None:
        event = t.event
        if isinstance(event, ActionTaken):
            r = event.record
            verb = {ActionKind.FOLD: "folds",
                    ActionKind.CALL: f"calls {r.added}" if r.added else "checks"}.get(
                r.kind, f"raises to {r.amount}")
            self.log.append(f"{self.names[r.seat]} {verb}" + (" (all-in)" if r.all_in else ""))
        elif isinstance(event, BoardDealt):
            self.log.append(f"{event.street.label}: {format_cards(event.cards)}")

    def _record_decision(self, seat: int, obs: Observation, policy: Policy | None,
                         action: Action) -> None:
        entry: dict[str, Any] = {"seat": seat, "name": self.names[seat],
                                 "street": obs.street.label, "pot": obs.pot,
                                 "chosen": str(action)}
        if policy is not None:
            entry.update(_policy_row(policy))
        self.decisions.append(entry)

    def _hand_over(self, event: HandEnded) -> None:
        driver = self.driver
        assert driver is not None
        result = driver.result()
        history = result.history
        board = list(history.board)
        shown = []
        for seat, cards in history.shown.items():
            shown.append({"seat": seat, "name": self.names[seat], "cards": card_list(cards),
                          "hand": hand_name([*cards, *board]) if len(board) == 5 else ""})
        self.totals.append((self.totals[-1] if self.totals else 0) + event.net[0])
        self.last_result = {"net": list(event.net), "shown": shown,
                            "winners": [self.names[s] for s, n in enumerate(event.net)
                                        if n > 0]}
        with open_nofollow(self.folder / "hands.phhs", "a") as f:
            f.write(("\n" if self.hand_number else "")
                    + dumps_all([history], start=self.hand_number + 1))
        self._attach_traces()

    def _attach_traces(self) -> None:
        """The trace lines the bots wrote during this hand, as records of JSON (read from
        where the last hand's stopped, bounded), on the decisions they explain."""
        by_seat: dict[int, list[dict[str, Any]]] = {}
        for index, seat in enumerate(self.seats):
            path = trace_file(self.folder / "bots" / seat.name, 0, 0)
            if seat.bot is None or path is None:
                continue
            with open(path, "rb") as f:
                f.seek(seat.trace_offset)
                chunk = f.read(TRACE_READ_LIMIT)
            whole = chunk[:chunk.rfind(b"\n") + 1]
            seat.trace_offset += len(whole)
            for line in whole.splitlines():
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if is_decision(record):
                    by_seat.setdefault(index, []).append(record)
        for entry in self.decisions:
            records = by_seat.get(entry["seat"])
            if records:
                entry["trace"] = records.pop(0)

    # --- reading ----------------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """What the page shows: seat 0's view; the bots' cards and reasoning after the hand."""
        driver = self.driver
        out: dict[str, Any] = {"hand": self.hand_number, "names": self.names,
                               "variant": self.game.variant, "totals": self.totals,
                               "total": self.totals[-1] if self.totals else 0,
                               "log": self.log[-40:], "stopped": self.stopped,
                               "folder": self.folder.name}
        if driver is None:
            return out | {"finished": True, "seats": [], "board": [], "pot": 0,
                          "legal": None, "actor": None, "result": None}
        state = driver.state
        finished = driver.finished
        shown = state.shown if finished else {}
        seats = []
        for i, name in enumerate(self.names):
            hole = state.holes[i]
            cards = (card_list(hole) if hole is not None and (i == 0 or i in shown) else None)
            seats.append({"name": name, "stack": state.stacks[i], "bet": state.bets[i],
                          "active": state.active[i], "cards": cards,
                          "button": i == state.button})
        legal = None
        if driver.actor == 0:
            bet_made = max(state.bets) > 0
            legal = legal_view(state.legal_actions(), bet_made)
        out |= {"finished": finished, "seats": seats, "board": card_list(state.board_cards),
                "pot": state.pot, "actor": driver.actor, "legal": legal,
                "result": self.last_result if finished else None}
        if finished:  # reasoning only once nothing of the hand is hidden any more
            out["reasoning"] = self.decisions
        return out

    def close(self) -> None:
        for index, seat in enumerate(self.seats):
            close = getattr(seat.bot, "close", None)
            if close is not None:
                self._guard(index, "close()", close)
        close = getattr(self._hint, "close", None)
        if close is not None:
            try:
                close()
            except Exception:
                pass
        self.seats = self.seats[:1]
        self._hint = None


def _policy_row(policy: Policy) -> dict[str, Any]:
    row = policy.probabilities[0]
    return {"actions": [str(a) for a in policy.actions], "probs": [float(p) for p in row]}


class Tables:
    """Every live game of a server, each a browser tab's own; an idle one is ended."""

    def __init__(self, sessions: Path, idle_seconds: float = 30.0, max_tables: int = 16
                 ) -> None:
        self.sessions, self.idle_seconds, self.max_tables = sessions, idle_seconds, max_tables
        self._tables: dict[str, tuple[Table, threading.Lock]] = {}
        self._lock = threading.Lock()

    def open(self, request: TableRequest) -> str:
        self.reap()
        with self._lock:
            if len(self._tables) >= self.max_tables:
                raise Conflict(f"{self.max_tables} games are open already: close a tab")
        ident = secrets.token_urlsafe(12)
        folder = self.sessions / (time.strftime("%Y%m%d-%H%M%S") + "-" + ident[:6]
                                  .replace("-", "x").replace("_", "y"))
        table = Table(request, folder)
        with self._lock:
            self._tables[ident] = (table, threading.Lock())
        return ident

    def get(self, ident: str) -> tuple[Table, threading.Lock]:
        with self._lock:
            found = self._tables.get(ident)
        if found is None:
            raise LookupError(ident)
        return found

    def close(self, ident: str) -> bool:
        with self._lock:
            found = self._tables.pop(ident, None)
        if found is None:
            return False
        table, lock = found
        with lock:
            table.close()
        return True

    def reap(self) -> int:
        """End every game idle for longer than ``idle_seconds`` (its tab closed)."""
        now = time.monotonic()
        with self._lock:
            idle = [k for k, (t, _) in self._tables.items()
                    if now - t.touched > self.idle_seconds]
        return sum(self.close(k) for k in idle)

    def close_all(self) -> None:
        with self._lock:
            keys = list(self._tables)
        for k in keys:
            self.close(k)

    def __len__(self) -> int:
        return len(self._tables)


def default_sessions() -> Path:
    return Path(os.environ.get("HOLDEM_SESSIONS", "results/sessions"))

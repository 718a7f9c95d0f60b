"""What bots receive cannot change the game, and every call
into a bot is guarded the same way (finding 3): exceptions, SystemExit, a bot's own
KeyboardInterrupt, constructors, start and close."""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from simulator import Action, ActionKind, BaseBot, BotContext, GameConfig, Observation
from simulator.play.baseline import CallBot, RaiseBot
from simulator.play.match import BotError, build_bots, play_match

NL = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)
LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=100)
BLOCKED = (AttributeError, TypeError)  # frozen records, tuples and read-only mappings


class Tamperer(CallBot):
    """Calls, after trying to change every field of everything it is handed, by ordinary
    assignment and by mutating every container it finds; records what went through."""

    def __init__(self) -> None:
        self.attempts = 0
        self.changed: list[str] = []
        self.kinds: set[str] = set()

    def _try(self, label: str, attempt: Callable[[], Any]) -> None:
        self.attempts += 1
        try:
            attempt()
        except BLOCKED:
            return
        self.changed.append(label)

    def _attack(self, value: Any, label: str, depth: int = 0) -> None:
        if depth > 4:
            return
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                self._try(f"{label}.{f.name} =",
                          lambda v=value, n=f.name: setattr(v, n, None))
                self._try(f"del {label}.{f.name}", lambda v=value, n=f.name: delattr(v, n))
                self._attack(getattr(value, f.name), f"{label}.{f.name}", depth + 1)
            self._try(f"{label}.extra =", lambda v=value: setattr(v, "extra", 1))
        elif isinstance(value, Mapping):
            key = next(iter(value), 0)
            self._try(f"{label}[k] =", lambda v=value, k=key: v.__setitem__(k, None))
            self._try(f"del {label}[k]", lambda v=value, k=key: v.__delitem__(k))
            for method in ("update", "pop", "clear", "setdefault", "popitem"):
                self._try(f"{label}.{method}()",
                          lambda v=value, m=method, k=key: getattr(v, m)(*(
                              [] if m in ("clear", "popitem") else [{k: None}] if m == "update"
                              else [k])))
            self._try(f"{label}._items =", lambda v=value: setattr(v, "_items", {}))
            for k, item in value.items():
                self._attack(item, f"{label}[{k!r}]", depth + 1)
        elif isinstance(value, tuple):
            self._try(f"{label}[0] =", lambda v=value: v.__setitem__(0, None))
            self._try(f"{label}.append()", lambda v=value: v.append(None))
            self._try(f"{label} +=", lambda v=value: v.__iadd__((None,)))
            for i, item in enumerate(value):
                self._attack(item, f"{label}[{i}]", depth + 1)

    def observe(self, event: Any) -> None:
        self.kinds.add(type(event).__name__)
        self._attack(event, type(event).__name__)

    def act(self, observation: Observation) -> Action:
        self.kinds.add("Observation")
        self._attack(observation, "Observation")
        return super().act(observation)


class Recorder(CallBot):
    def __init__(self) -> None:
        self.seen: list[Any] = []

    def observe(self, event: Any) -> None:
        self.seen.append(event)

    def act(self, observation: Observation) -> Action:
        self.seen.append(observation)
        return Action.call()


@pytest.mark.parametrize("game", [NL, LIMIT])
def test_no_bot_can_change_an_event_or_observation(game: GameConfig) -> None:
    tamperer, after, clean = Tamperer(), Recorder(), Recorder()
    # the tamperer sits before the recorder, so it touches every shared event first
    names = ("t", "r", "x")
    attacked = list(play_match(game, [tamperer, after, RaiseBot()], 30, seed=4, names=names))
    untouched = list(play_match(game, [CallBot(), clean, RaiseBot()], 30, seed=4, names=names))
    assert tamperer.changed == []
    assert tamperer.attempts > 10_000
    assert tamperer.kinds == {"Observation", "HandStarted", "HoleCardsDealt", "ActionTaken",
                              "BoardDealt", "Showdown", "HandEnded"}
    assert after.seen == clean.seen  # what the next bot saw is what it would have seen
    assert [r.net for r in attacked] == [r.net for r in untouched]


class ForcedLegal(BaseBot):
    def act(self, observation: Observation) -> Action:
        if observation.legal.can_raise:
            object.__setattr__(observation.legal, "max_raise_to", 10**9)
            return Action.raise_to(5000)
        return Action.call()


class ForcedStack(BaseBot):
    def act(self, observation: Observation) -> Action:
        object.__setattr__(observation.game, "stack", 5000)
        return Action.call()


def test_a_forced_open_legal_set_does_not_make_a_raise_legal() -> None:
    with pytest.raises(BotError, match=r"illegal action 'raise to 5000'; legal: .*raise to "
                                       r"\d+\.\.200"):
        list(play_match(NL, [ForcedLegal(), CallBot()], 5, seed=1))
    results = list(play_match(NL, [ForcedLegal(), CallBot()], 20, seed=1, on_bot_error="fold"))
    assert all(r.faults for r in results if r.history.actions and any(
        a.seat == 0 for a in r.history.actions))
    assert all(-200 <= n <= 200 for r in results for n in r.net)


def test_a_forced_open_game_record_changes_no_later_hand() -> None:
    game = dataclasses.replace(NL, reset_stacks=False)
    results = list(play_match(game, [ForcedStack(), CallBot()], 30, seed=2))
    assert results[0].history.starting_stacks == (200, 200)
    assert all(sum(r.stacks) == 400 for r in results)  # no chips made from nothing
    assert game.stack == 200


class Failing(BaseBot):
    """Calls, but fails in one of its calls: act, observe, start or close."""

    def __init__(self, where: str, error: BaseException) -> None:
        self.where, self.error = where, error

    def _maybe(self, where: str) -> None:
        if where == self.where:
            raise self.error

    def start(self, context: BotContext) -> None:
        self._maybe("start")

    def observe(self, event: Any) -> None:
        self._maybe("observe")

    def act(self, observation: Observation) -> Action:
        self._maybe("act")
        return Action.call()

    def close(self) -> None:
        self._maybe("close")


@pytest.mark.parametrize("where", ["start", "observe", "act", "close"])
@pytest.mark.parametrize("error, text", [
    (SystemExit(3), "raised SystemExit: 3"),
    (KeyboardInterrupt(), "raised KeyboardInterrupt"),
    (ValueError("no"), "raised ValueError: no"),
])
def test_every_bot_call_is_guarded_alike(where: str, error: BaseException, text: str) -> None:
    with pytest.raises(BotError, match=f"{where}\\(\\): {text}"):
        list(play_match(LIMIT, [Failing(where, error), CallBot()], 3, seed=1))
    results = list(play_match(LIMIT, [Failing(where, error), CallBot()], 3, seed=1,
                              on_bot_error="fold"))
    faults = [f for r in results for f in r.faults]
    assert faults and all(f.message.startswith(f"{where}(): {text}") for f in faults)
    assert len(results) == 3


def test_a_constructor_is_guarded_too() -> None:
    def exits() -> BaseBot:
        raise SystemExit(4)

    with pytest.raises(BotError, match="constructor: raised SystemExit: 4"):
        build_bots([CallBot, exits], ["a", "b"])
    bots, faults = build_bots([CallBot, exits], ["a", "b"], on_bot_error="fold")
    assert [f.name for f in faults] == ["b"]
    results = list(play_match(LIMIT, bots, 10, seed=1))
    stand_in = [a for r in results for a in r.history.actions if a.seat == 1]
    assert stand_in and all(a.kind is ActionKind.FOLD or a.added == 0 for a in stand_in)


class Shifty(Action):
    """An Action whose amount changes after its first read: legal when checked, huge when
    applied, if the engine read it twice."""

    @property  # type: ignore[override]
    def amount(self) -> int:
        reads = self.__dict__.get("reads", 0) + 1
        object.__setattr__(self, "reads", reads)
        return 4 if reads == 1 else 10**6

    @amount.setter
    def amount(self, value: int) -> None:
        pass


class ShiftyBot(BaseBot):
    def act(self, observation: Observation) -> Action:
        if observation.legal.can_raise:
            return Shifty(ActionKind.RAISE, 4)
        return Action.call()


class FloatBot(BaseBot):
    def act(self, observation: Observation) -> Action:
        return Action(ActionKind.RAISE, 4.5) if observation.legal.can_raise else Action.call()


def test_the_engine_reads_a_returned_action_once_and_wants_integers() -> None:
    results = list(play_match(NL, [ShiftyBot(), CallBot()], 10, seed=3))
    assert all(abs(n) <= 200 for r in results for n in r.net)
    assert all(a.amount in (None, 4) for r in results for a in r.history.actions)
    with pytest.raises(BotError, match="returned an amount of 4.5, not an integer"):
        list(play_match(NL, [FloatBot(), CallBot()], 10, seed=3))


class SignalsItself(BaseBot):
    def __init__(self, signum: int) -> None:
        self.signum = signum

    def act(self, observation: Observation) -> Action:
        os.kill(os.getpid(), self.signum)
        time.sleep(1)  # the handler runs before this returns
        return Action.call()


class Stop(Exception):
    pass


def test_the_users_ctrl_c_and_sigterm_are_not_taken_for_a_bots_fault() -> None:
    with pytest.raises(KeyboardInterrupt):
        list(play_match(LIMIT, [SignalsItself(signal.SIGINT), CallBot()], 3, seed=1,
                        on_bot_error="fold"))

    def stop(signum: int, frame: object) -> None:
        raise Stop

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        with pytest.raises(Stop):
            list(play_match(LIMIT, [SignalsItself(signal.SIGTERM), CallBot()], 3, seed=1,
                            on_bot_error="fold"))
        assert signal.getsignal(signal.SIGTERM) is stop  # the caller's handler is back
    finally:
        signal.signal(signal.SIGTERM, previous)

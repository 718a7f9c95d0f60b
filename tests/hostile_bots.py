"""Bots that misbehave on purpose, for the arena's tests (found as ``hostile_bots:Name``).

Most call every hand and misbehave at one hand of one block (every permutation), so the other
blocks of a run finish and the failure can be named exactly.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import numpy as np

from simulator import Action, BaseBot, BotContext, Observation
from simulator.play.protocol import Policy, RaiseRange


class Trigger(BaseBot):
    """Calls; ``misbehave`` at hand ``hand`` of block ``block``."""

    def __init__(self, block: int = 1, hand: int = 3) -> None:
        self.block, self.hand = block, hand
        self.now = -1

    def start(self, context: BotContext) -> None:
        self.now = context.block

    def due(self, hand_number: int) -> bool:
        return self.now == self.block and hand_number == self.hand

    def act(self, observation: Observation) -> Action:
        if self.due(observation.hand_number):
            self.misbehave()
        return Action.call()

    def misbehave(self) -> None:
        """Nothing by default: some misbehave elsewhere (in ``observe``)."""


class ExitProcessBot(Trigger):
    def misbehave(self) -> None:
        os._exit(7)


class SysExitBot(Trigger):
    def misbehave(self) -> None:
        sys.exit(3)


class KeyboardBot(Trigger):
    def misbehave(self) -> None:
        raise KeyboardInterrupt


def think_forever() -> None:
    """Never return, swallowing every interrupt, the watchdog's SIGALRM included."""
    while True:
        try:
            time.sleep(10)
        except BaseException:  # noqa: S110 - the point of these bots
            pass


class SwallowBot(Trigger):
    """Thinks forever and swallows every interrupt."""

    def misbehave(self) -> None:
        think_forever()


class ObserveSleepBot(Trigger):
    """Falls asleep in ``observe`` (which has no in-process interrupt)."""

    def observe(self, event: Any) -> None:
        if self.due(getattr(event, "hand_number", -1)):
            time.sleep(600)


class ObserveRaisesBot(Trigger):
    def observe(self, event: Any) -> None:
        if self.due(getattr(event, "hand_number", -1)):
            raise ValueError("cannot watch this")


class FragileBot(BaseBot):
    """A constructor that fails for some seeds (not 0: validation builds with seed 0)."""

    def __init__(self, seed: int | None = None) -> None:
        if seed and seed % 2 == 1:
            raise RuntimeError("odd seed")

    def act(self, observation: Observation) -> Action:
        return Action.call()


class ChattyBot(BaseBot):
    """Prints on both streams when built and at every decision."""

    def __init__(self) -> None:
        print("chatty: built")

    def act(self, observation: Observation) -> Action:
        print(f"chatty: hand {observation.hand_number}")
        print("chatty: to stderr", file=sys.stderr)
        return Action.call()


class DiaryBot(BaseBot):
    """Writes a file into its directory at start; block 0 starts slowly (it finishes last)."""

    def __init__(self, slow: float = 0.0) -> None:
        self.slow = slow

    def start(self, context: BotContext) -> None:
        if context.block == 0:
            time.sleep(self.slow)
        assert context.directory is not None
        (context.directory / f"b{context.block}p{context.permutation}.txt").write_text(
            f"{context.name} in seat {context.seat}\n")

    def act(self, observation: Observation) -> Action:
        return Action.call()


class LegalAttackBot(BaseBot):
    """Finding 4: widens its legal set by force and bets 5000 from a 200-chip stack."""

    def act(self, observation: Observation) -> Action:
        if observation.legal.can_raise:
            object.__setattr__(observation.legal, "max_raise_to", 10**9)
            return Action.raise_to(5000)
        return Action.call()


class StackAttackBot(BaseBot):
    """Finding 4: gives itself a 5000-chip stack in the game record, then bets it."""

    def act(self, observation: Observation) -> Action:
        object.__setattr__(observation.game, "stack", 5000)
        if observation.legal.can_raise:
            return Action.raise_to(observation.game.stack)
        return Action.call()


class ExitInConstructorBot(BaseBot):
    """Ends the process while it is being built."""

    def __init__(self) -> None:
        os._exit(9)


class HangInConstructorBot(BaseBot):
    """Never finishes being built, swallowing every interrupt."""

    def __init__(self) -> None:
        think_forever()


class StartFailsBot(BaseBot):
    """Builds, then fails in ``start()`` (a file it cannot read, say)."""

    def start(self, context: BotContext) -> None:
        raise OSError("cannot read my file")

    def act(self, observation: Observation) -> Action:
        return Action.call()


class ProcessDiaryBot(BaseBot):
    """Writes the process it plays in into its directory at start (which worker played)."""

    def start(self, context: BotContext) -> None:
        assert context.directory is not None
        (context.directory / f"pid-b{context.block}p{context.permutation}.txt").write_text(
            str(os.getpid()))

    def act(self, observation: Observation) -> Action:
        return Action.call()


class CompilesOnFirstActBot(BaseBot):
    """Calls; its first ``act`` in a process takes ``seconds`` (a kernel compiling), unless
    the class was prepared in that process (``prepare``, which the simulator calls off the
    clock)."""

    prepared = False

    def __init__(self, seconds: float = 1.0) -> None:
        self.seconds = seconds

    @classmethod
    def prepare(cls, game: Any) -> None:
        cls.prepared = True

    def act(self, observation: Observation) -> Action:
        if not CompilesOnFirstActBot.prepared:
            time.sleep(self.seconds)
            CompilesOnFirstActBot.prepared = True
        return Action.call()


class PrepareRaisesBot(BaseBot):
    """Calls; its ``prepare`` raises, to show that a run checks every seat before any
    preparing."""

    @classmethod
    def prepare(cls, game: Any) -> None:
        raise RuntimeError("prepare ran before every seat was checked")

    def act(self, observation: Observation) -> Action:
        return Action.call()


_FOREIGN: dict[str, Any] = {
    "string": ("call",), "list": (["c"],), "number": (1,), "kind": ("not-an-action",),
    "range": ("range",)}


class ForeignPolicyBot(BaseBot):
    """Calls, and states a policy whose actions are not ``Action`` values (``shape``: a
    string, a list, a number; ``kind``: an Action whose kind is a string; ``range``: a raise
    range of float bounds), from ``policy`` and, with ``step: true``, from
    ``step_with_policy`` too."""

    def __init__(self, shape: str = "string", step: bool = False) -> None:
        self.shape = shape
        if step:
            self.step_with_policy = self._step

    def act(self, observation: Observation) -> Action:
        return Action.call()

    def policy(self, observation: Observation, holdings: Any) -> Policy:
        entries: tuple[Any, ...] = _FOREIGN[self.shape]
        if self.shape == "kind":
            entries = (Action("c", None),)  # type: ignore[arg-type]
        if self.shape == "range":
            bad = RaiseRange(0, 0)
            object.__setattr__(bad, "low", 0.5)
            entries = (bad,)
        return Policy(entries, np.ones((len(holdings), 1)))

    def _step(self, observation: Observation) -> tuple[Policy, Action]:
        return self.policy(observation, [observation.hole_cards]), self.act(observation)

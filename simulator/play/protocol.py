"""The bot interface (DESIGN.md section 11): ``act`` is required; the rest is optional.

A bot receives an immutable :class:`~simulator.core.observation.Observation` when it is to act
and returns an :class:`~simulator.core.actions.Action`; the engine validates it. Events arrive
through ``observe``: public ones (hand start, actions, board cards, showdowns, results) and
the private :class:`~simulator.core.events.HoleCardsDealt`, sent to the bot's own seat alone.

Its life: ``start(context)`` before the first hand of a block (or of a match played from the
Python API), with the seat names, the block, the permutation and a directory where it may
write its own files; then the hands; then ``close()`` after the last hand. ``reset()`` clears
memory between independent blocks when a caller reuses a bot (the arena builds fresh ones).
Every call into a bot is guarded alike: an exception, a bad return or a call over the time
limit is that bot's fault, handled by the match's ``on_bot_error``. A bot that draws random
numbers takes a ``seed`` keyword and uses its own generator, so matches replay exactly.

>>> from simulator.core.actions import Action
>>> class AlwaysCall(BaseBot):
...     def act(self, observation):
...         return Action.call()
>>> isinstance(AlwaysCall(), Bot)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from simulator.core.actions import Action
from simulator.core.events import Event
from simulator.core.game import GameConfig
from simulator.core.observation import Observation


@runtime_checkable
class Bot(Protocol):
    def act(self, observation: Observation) -> Action: ...


@dataclass(frozen=True)
class BotContext:
    """What a bot is told before its first hand.

    ``names`` are the seat names in seat order for this permutation and ``seat`` is the bot's
    own. ``directory`` is reserved for this seat's bot (``<output>/bots/<name>``), created
    before ``start``; it is None when the match writes no files. Files a bot writes there
    should carry the block and the permutation in their names, so that results never depend
    on which worker played which block.
    """

    seat: int
    names: tuple[str, ...]
    game: GameConfig
    block: int = 0
    permutation: int = 0
    directory: Path | None = None

    @property
    def name(self) -> str:
        return self.names[self.seat]


class BaseBot:
    """Convenience base: no-op ``start``, ``observe``, ``reset`` and ``close``; subclasses
    write ``act``."""

    def act(self, observation: Observation) -> Action:
        raise NotImplementedError

    def start(self, context: BotContext) -> None:
        return None

    def observe(self, event: Event) -> None:
        return None

    def reset(self) -> None:
        return None

    def close(self) -> None:
        return None

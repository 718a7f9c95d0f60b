"""The bot interface (DESIGN.md section 11): ``act`` is required, ``observe`` and ``reset`` not.

A bot receives an immutable :class:`~simulator.core.observation.Observation` when it is to act and
returns an :class:`~simulator.core.actions.Action`; the engine validates it. Public events
(hand start, actions, board cards, showdowns, results) arrive through ``observe``. ``reset``
clears memory between independent blocks and duplicate permutations. A bot that draws random
numbers takes a ``seed`` keyword and uses its own generator, so matches replay exactly.

>>> from simulator.core.actions import Action
>>> class AlwaysCall(BaseBot):
...     def act(self, observation):
...         return Action.call()
>>> isinstance(AlwaysCall(), Bot)
True
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from simulator.core.actions import Action
from simulator.core.observation import Event, Observation


@runtime_checkable
class Bot(Protocol):
    def act(self, observation: Observation) -> Action: ...


class BaseBot:
    """Convenience base: no-op ``observe`` and ``reset``; subclasses write ``act``."""

    def act(self, observation: Observation) -> Action:
        raise NotImplementedError

    def observe(self, event: Event) -> None:
        return None

    def reset(self) -> None:
        return None

"""The rivals that state their policies, built by seed, and the random opponents the policy
tests play them against."""

from __future__ import annotations

from collections.abc import Callable

from agent.rivals.exploiter import ExploiterBot
from agent.rivals.loki import LokiBot
from agent.rivals.maniac import ManiacBot
from agent.rivals.mc import MonteCarloBot
from agent.rivals.rock import RockBot
from simulator import PolicyBot
from simulator.play.baseline import RandomBot

RIVALS: dict[str, Callable[[int], PolicyBot]] = {
    "mc": lambda s: MonteCarloBot(seed=s),
    "rock": lambda s: RockBot(seed=s),
    "maniac": lambda s: ManiacBot(seed=s),
    "exploiter": lambda s: ExploiterBot(seed=s),
    "loki": lambda s: LokiBot(seed=s),
}


def random_opponents(seats: int) -> list[RandomBot]:
    """``seats - 1`` loose random players (fold 0.1, call 0.5, raise 0.4), seeded 0, 1, ..."""
    return [RandomBot(fold=0.1, call=0.5, raise_=0.4, seed=s) for s in range(seats - 1)]

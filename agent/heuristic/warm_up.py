"""Compile a bot's kernels before it plays, off every clock.

The hot paths of the agent and of the rivals are numba kernels, compiled on their first
call and kept in numba's disk cache after. On a fresh install the agent's first post-flop
decision compiles a dozen of them, 13 s on a fast machine (`exploiter`'s 9 s, `cfr`'s 4 s),
which a match's ``bot_timeout`` counts as a hung bot. The simulator calls a bot class's
``prepare(game)`` once per process before it plays (:func:`simulator.play.registry.prepare`);
:class:`WarmsUp` gives the bots of this package one that plays the class a few hands against
callers (heads-up and three-handed limit, three-handed no-limit: those of them it plays)
and asks its full-range policy at each street, which reaches every kernel a match or a
policy question would. With the disk cache warm it costs under a second, once per process
and class.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from simulator import (
    Action,
    BaseBot,
    BotContext,
    Event,
    GameConfig,
    HoldemError,
    Observation,
    PolicyBot,
)
from simulator.core.cards import HOLDINGS, clashing_holdings
from simulator.play.baseline import CallBot
from simulator.play.match import play_match

_LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200)
# (game, seats): every path a decision can take
TABLES = ((_LIMIT, 2), (_LIMIT, 3), (GameConfig(variant="nolimit", blinds=(1, 2), stack=200), 3))
HANDS = 8


class _Asking(BaseBot):
    """Plays ``bot`` and asks its policy over every holding at its first decision on each
    street."""

    def __init__(self, bot: PolicyBot) -> None:
        self.bot = bot
        self.asked: set[int] = set()

    def start(self, context: BotContext) -> None:
        self.bot.start(context)  # type: ignore[attr-defined]

    def observe(self, event: Event) -> None:
        self.bot.observe(event)  # type: ignore[attr-defined]

    def act(self, observation: Observation) -> Action:
        if observation.street not in self.asked:
            self.asked.add(observation.street)
            self.bot.policy(observation, _live(observation.board))
        return self.bot.act(observation)


def _live(board: Sequence[int]) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in HOLDINGS[~clashing_holdings(board)]]


def _plays(cls: type, game: GameConfig, seats: int) -> bool:
    check = getattr(cls, "check_game", None)
    try:
        if check is not None:
            check(game, seats)
    except HoldemError:
        return False
    return True


def play_table(cls: type[PolicyBot], game: GameConfig, seats: int) -> set[int]:
    """A ``cls(seed=0)`` in the first seat, asked at every street, the others callers, for
    :data:`HANDS` hands; the streets at which it was asked."""
    asking = _Asking(cls(seed=0))  # type: ignore[call-arg]
    bots: list[BaseBot] = [asking, *(CallBot() for _ in range(seats - 1))]
    for _ in play_match(game, bots, HANDS, seed=0):
        pass
    return asking.asked


@functools.cache
def warm_up(cls: type[PolicyBot]) -> None:
    """:func:`play_table` at each of :data:`TABLES` that ``cls`` plays: once per process and
    class."""
    for game, seats in TABLES:
        if _plays(cls, game, seats):
            play_table(cls, game, seats)


class WarmsUp:
    """A bot class whose ``prepare`` (:mod:`simulator.play.registry`) compiles its kernels:
    it must take ``seed`` and state its policy."""

    @classmethod
    def prepare(cls, game: GameConfig) -> None:
        warm_up(cls)  # type: ignore[arg-type]

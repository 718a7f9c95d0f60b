"""``cfr``: an approximate equilibrium of heads-up limit hold'em, our stand-in for Sparbot.

It plays the average strategy that counterfactual regret minimisation found in a card
abstraction of the game (:mod:`agent.equilibrium`; the strategy ships in
``agent/equilibrium/data``): at each decision it finds the betting-tree node of the public
history and the bucket of its holding on the current board, and draws from that information
set's probabilities with its own seeded generator. It learns nothing and ignores who its
opponent is: it is a fixed yardstick, not an exploiter.

It states its policy (:class:`~simulator.play.protocol.PolicyBot`): for any observation and
any holdings, a table look-up once the buckets of all holdings on the board are known (kept
for the last few boards), by :class:`agent.equilibrium.player.EquilibriumPlayer`, which the
heuristic agent plays too.

It plays only the game it was solved for (:meth:`CfrBot.check_game`): heads-up fixed-limit,
blinds of half a big blind and a big blind, bets of one and two big blinds, a cap of four
bets a round, no ante, stacks reset every hand and deep enough for a capped hand (24 big
blinds). The chip scale is free: blinds 5/10 with bets 10/20 is the same game.

>>> from simulator.core.game import GameConfig
>>> CfrBot.check_game(GameConfig(variant="nolimit", blinds=(1, 2), stack=200))
Traceback (most recent call last):
...
simulator.core.errors.GameError: cfr plays heads-up fixed-limit hold'em only (blinds b/2 and \
b, bets b and 2b, cap 4, no ante, stacks reset every hand, at least 24 big blinds: 48 chips at \
blinds 1/2); this game is no-limit
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agent.equilibrium import strategy as strategy_file
from agent.equilibrium.player import GAME, EquilibriumPlayer, refusal
from agent.heuristic.warm_up import WarmsUp
from agent.rivals.betting import DrawsFromPolicy
from simulator import BaseBot, BotContext, GameConfig
from simulator.core.errors import GameError

__all__ = ["GAME", "CfrBot", "refusal"]


class CfrBot(WarmsUp, DrawsFromPolicy, EquilibriumPlayer, BaseBot):
    """The average CFR strategy of heads-up limit hold'em (module docstring).

    ``strategy``: a strategy file (default: the shipped one), validated when the bot is
    built; ``seed``: its generator's.
    """

    def __init__(self, strategy: str | None = None, seed: int | None = None) -> None:
        EquilibriumPlayer.__init__(self, strategy_file.load(strategy))
        self.rng = np.random.default_rng(seed)

    @classmethod
    def check_game(cls, game: GameConfig, seats: int | None = None) -> None:
        """Refuse, before any work, a game other than the one the strategy was solved for."""
        problem = refusal(game, seats)
        if problem is not None:
            raise GameError(f"{GAME}; this game is {problem}")

    @classmethod
    def check_seat(cls, params: dict[str, Any], game: GameConfig, seats: int) -> None:
        """The tournament's check of a seat: the game at this many seats, then the strategy
        file the params name (read and validated once per process)."""
        cls.check_game(game, seats)
        strategy_file.load(params.get("strategy"))

    def start(self, context: BotContext) -> None:
        self.check_game(context.game, len(context.names))

"""``cfr``: an approximate equilibrium of heads-up limit hold'em, our stand-in for Sparbot.

It plays the average strategy that counterfactual regret minimisation found in a card
abstraction of the game (:mod:`agent.equilibrium`; the strategy ships in
``agent/equilibrium/data``): at each decision it finds the betting-tree node of the public
history and the bucket of its holding on the current board, and draws from that information
set's probabilities with its own seeded generator. It learns nothing and ignores who its
opponent is: it is a fixed yardstick, not an exploiter.

It states its policy (:class:`~simulator.play.protocol.PolicyBot`): for any observation and
any holdings, a table look-up once the buckets of all holdings on the board are known (kept
for the last few boards). The node is a function of the public history alone, so a
hypothetical history works as well as a real one.

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

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from agent.equilibrium import strategy as strategy_file
from agent.equilibrium.abstraction import CardAbstraction
from agent.equilibrium.tree import CALL, CHANCE, DECISION, FOLD_ACTION, RAISE
from agent.rivals.betting import DrawsFromPolicy
from simulator import Action, ActionKind, BaseBot, BotContext, GameConfig, Observation
from simulator.core.errors import GameError
from simulator.play.protocol import Policy, PolicyError, holding_indices

GAME = ("cfr plays heads-up fixed-limit hold'em only (blinds b/2 and b, bets b and 2b, cap 4, "
        "no ante, stacks reset every hand, at least 24 big blinds: 48 chips at blinds 1/2)")
_COLUMN = {ActionKind.FOLD: FOLD_ACTION, ActionKind.CALL: CALL, ActionKind.RAISE: RAISE}
_KEPT_BOARDS = 8


@functools.lru_cache(maxsize=_KEPT_BOARDS)
def _street_buckets(abstraction: CardAbstraction, board: tuple[int, ...]) -> np.ndarray:
    """The abstraction's buckets of every holding on a sorted board, kept for the last few
    boards by the process rather than by each bot: under duplicate every seating of a deal
    has fresh bots that bucket the same boards (a turn costs about 2 ms). Read-only, as
    every bot shares it."""
    found = abstraction.street_buckets(np.array(board, dtype=np.int64))
    found.setflags(write=False)
    return found


def refusal(game: GameConfig, seats: int | None = None) -> str | None:
    """Why ``cfr`` cannot play this game, or None when it can."""
    if seats is not None and seats != 2:
        return f"{seats} seats"
    if not game.is_limit:
        return "no-limit"
    if len(game.blinds) != 2:
        return f"blinds {list(game.blinds)}"
    small, big = game.blinds
    if big % 2 or small * 2 != big:
        return f"blinds {small}/{big}"
    if game.small_bet != big or game.big_bet != 2 * big:
        return f"bets {game.small_bet}/{game.big_bet} at blinds {small}/{big}"
    if game.cap != 4:
        return f"cap {game.cap}"
    if game.ante:
        return f"ante {game.ante}"
    if not game.reset_stacks:
        return "stacks carried over (reset_stacks: false)"
    if game.stack < 24 * big:
        return f"stacks of {game.stack} (a capped hand costs {24 * big})"
    return None


class CfrBot(DrawsFromPolicy, BaseBot):
    """The average CFR strategy of heads-up limit hold'em (module docstring).

    ``strategy``: a strategy file (default: the shipped one), validated when the bot is
    built; ``seed``: its generator's.
    """

    def __init__(self, strategy: str | None = None, seed: int | None = None) -> None:
        self.table = strategy_file.load(strategy)
        self.tree = self.table.tree
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

    # --- the information set --------------------------------------------------------------

    def node(self, observation: Observation) -> int:
        """The decision node of the observation's public history (PolicyError if it is not a
        decision of the player to act in the game ``cfr`` was solved for)."""
        if observation.num_seats != 2:
            raise PolicyError(f"{GAME}; this hand has {observation.num_seats} seats")
        t = self.tree
        node = 0
        for record in observation.history:
            while t.kind[node] == CHANCE:
                node = int(t.child[node, CALL])
            column = _COLUMN[record.kind]
            role = 0 if record.seat == observation.button else 1
            if (t.kind[node] != DECISION or t.round[node] != int(record.street)
                    or t.player[node] != role or t.child[node, column] < 0):
                raise PolicyError(f"cfr: the history {self._spelled(observation)} is not one "
                                  f"of its betting tree")
            node = int(t.child[node, column])
        while t.kind[node] == CHANCE:
            node = int(t.child[node, CALL])
        role = 0 if observation.seat == observation.button else 1
        if (t.kind[node] != DECISION or t.round[node] != int(observation.street)
                or t.player[node] != role):
            raise PolicyError(f"cfr: after {self._spelled(observation)} it is not seat "
                              f"{observation.seat}'s decision on the {observation.street.label}"
                              f" in its betting tree")
        return node

    @staticmethod
    def _spelled(observation: Observation) -> str:
        return "".join("fcr"[_COLUMN[r.kind]] for r in observation.history) or "(none)"

    def street_buckets(self, board: Sequence[int]) -> np.ndarray:
        """Every holding's bucket on this board (kept for the last few boards)."""
        return _street_buckets(self.table.abstraction, tuple(sorted(int(c) for c in board)))

    # --- policy and play --------------------------------------------------------------------

    def policy(self, observation: Observation, holdings: Sequence[tuple[int, int]]) -> Policy:
        """The strategy's probabilities for each holding at this decision."""
        index = holding_indices(holdings, observation.board)
        node = self.node(observation)
        legal = observation.legal
        columns = [c for c in (FOLD_ACTION, CALL, RAISE) if self.tree.child[node, c] >= 0]
        if ((FOLD_ACTION in columns) != legal.can_fold
                or (RAISE in columns) != legal.can_raise):
            raise PolicyError(f"cfr: the legal actions ({legal}) are not those of its betting "
                              f"tree here: not the game it was solved for")
        actions: list[Action] = []
        for c in columns:
            if c == FOLD_ACTION:
                actions.append(Action.fold())
            elif c == CALL:
                actions.append(Action.call())
            else:
                assert legal.min_raise_to is not None
                actions.append(Action.raise_to(legal.min_raise_to))
        if index.size == 0:
            return Policy(tuple(actions), np.zeros((0, len(columns))))
        buckets = self.street_buckets(observation.board)[index]
        rows = self.table.rows(node, buckets)
        return Policy(tuple(actions), rows[:, columns])


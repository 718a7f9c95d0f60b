"""The equilibrium strategy as a player: its policy at any decision of the game it was
solved for, for any holdings, as a table look-up.

Both the ``cfr`` rival (which draws from it) and the heuristic agent (which plays it until
an opponent shows itself exploitable, :mod:`agent.heuristic.deviation`) read the strategy through
:class:`EquilibriumPlayer`, so the two play it alike. The node is a function of the public
history alone, so a hypothetical history works as well as a real one.

>>> from simulator.core.game import GameConfig
>>> refusal(GameConfig(variant="nolimit", blinds=(1, 2), stack=200))
'no-limit'
>>> refusal(GameConfig(variant="potlimit", blinds=(1, 2), stack=200))
'pot-limit'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import assert_never

import numpy as np

from agent.equilibrium.abstraction import CardAbstraction
from agent.equilibrium.strategy import StrategyTable
from agent.equilibrium.tree import CALL, CHANCE, DECISION, FOLD_ACTION, RAISE
from simulator import Action, ActionKind, GameConfig, Observation
from simulator.core.game import Structure
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
    structure = game.structure
    if structure is Structure.NO_LIMIT:
        return "no-limit"
    if structure is Structure.POT_LIMIT:
        return "pot-limit"
    if structure is not Structure.LIMIT:
        assert_never(structure)
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


class EquilibriumPlayer:
    """The policy of a strategy table (``table``), read only."""

    def __init__(self, table: StrategyTable) -> None:
        self.table = table
        self.tree = table.tree

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


"""A one-round no-limit game (a river subgame) solved exactly: counterfactual regret
minimisation over the arrays of :mod:`agent.equilibrium.nolimit_tree`, and its exact best
response.

A :class:`RiverGame` is a one-round betting tree and a joint deal: ``weights[i, j]`` is the
probability that player 0 holds private state i and player 1 state j, and each state has a
showdown ``strength`` (higher wins, equal splits). Chips are counted from the start of the
hand: a player who folds loses what it had in (antes included), a showdown moves the loser's
chips to the winner. The states are their own buckets (lossless, perfect recall): the
information set of player p at decision node n holding state i is row ``row_base[n] + i``.

This is the reference solver, pure numpy and recursive, for games of a few hundred nodes and
a few dozen states: it checks the tree and the translation on answers known in closed form,
and the kernels of the full no-limit game against it later.

* :func:`solve`: vanilla CFR (Zinkevich et al. 2007) or CFR+ (Tammelin 2014: regrets
  floored at zero, the average weighted by the iteration, alternating updates), exact over
  the deal: every iteration walks the tree once for each player with vectors over states.
* :func:`best_response_value`: what a responder who knows the other's strategy can win;
  with perfect recall in one round its choice at (node, state) is the best child for that
  state, computed bottom up.
* :func:`exploitability`: the mean of the two best responses, 0 exactly at an equilibrium.

>>> game = clairvoyance_game(ante=2, stack=12)  # nuts or air against a bluff-catcher
>>> s = solve(game, 400)
>>> round(value(game, s), 2), exploitability(game, s) < 1e-3  # 2 * 10 / (4 + 10) = 10/7
(1.43, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from agent.equilibrium.errors import EquilibriumError
from agent.equilibrium.nolimit_tree import (
    DECISION,
    FOLD,
    ActionAbstraction,
    NoLimitGame,
    NoLimitTree,
    build_tree,
)

Checkpoint = Callable[[int, np.ndarray], None]
"""What :func:`solve` calls at a checkpoint: the iteration and the average strategy."""


@dataclass(frozen=True)
class RiverGame:
    """A one-round tree and its deal (see the module docstring)."""

    tree: NoLimitTree
    weights: np.ndarray
    strength: tuple[np.ndarray, np.ndarray]

    def __post_init__(self) -> None:
        n0, n1 = self.weights.shape
        if self.tree.game.rounds != 1:
            raise EquilibriumError("a river game has one betting round")
        if self.strength[0].shape != (n0,) or self.strength[1].shape != (n1,):
            raise EquilibriumError("one strength per private state of each player")
        if self.tree.buckets[0] < max(n0, n1):
            raise EquilibriumError(f"the tree's rows hold {self.tree.buckets[0]} states a "
                                   f"node, the deal has {max(n0, n1)}")
        if (self.weights < 0).any() or not np.isclose(self.weights.sum(), 1.0):
            raise EquilibriumError("the deal's weights must be probabilities summing to 1")

    @property
    def states(self) -> tuple[int, int]:
        return int(self.weights.shape[0]), int(self.weights.shape[1])

    def payoff(self, node: int) -> np.ndarray:
        """Player 0's chips won at a terminal, (n0, n1) over the deal's pairs."""
        t = self.tree
        spent = t.spent[node]
        n0, n1 = self.states
        if t.kind[node] == FOLD:
            won = -float(spent[0]) if t.player[node] == 0 else float(spent[1])
            return np.full((n0, n1), won)
        order = np.sign(self.strength[0][:, None] - self.strength[1][None, :])
        return order * float(spent[0])


def river_game(ranks: int, ante: int, stack: int, abstraction: ActionAbstraction,
               full_bet: int = 1) -> RiverGame:
    """Each player draws one of ``ranks`` distinct cards (higher wins), after antes; one
    round of no-limit betting, player 0 first: a Kuhn-like river subgame."""
    game = NoLimitGame(f"{ranks}-card no-limit river", stack=stack, full_bet=full_bet,
                       first=(0,), antes=ante)
    tree = build_tree(game, abstraction, (ranks,))
    weights = (1.0 - np.eye(ranks)) / (ranks * (ranks - 1))
    strength = np.arange(ranks, dtype=np.float64)
    return RiverGame(tree, weights, (strength, strength))


def clairvoyance_game(ante: int, stack: int,
                      abstraction: ActionAbstraction | None = None) -> RiverGame:
    """Player 0 holds the nuts or air, each half the time; player 1 a bluff-catcher that
    beats air and loses to the nuts. With bets up to all-in, player 0's value is
    ``ante * S / (2 ante + S)``, S = ``stack - ante`` the chips behind (see the tests)."""
    ab = abstraction if abstraction is not None else ActionAbstraction((0.5, 1.0), (2,))
    game = NoLimitGame("no-limit clairvoyance game", stack=stack, full_bet=1, first=(0,),
                       antes=ante)
    tree = build_tree(game, ab, (2,))
    weights = np.array([[0.5], [0.5]])
    return RiverGame(tree, weights, (np.array([2.0, 0.0]), np.array([1.0])))


def regret_matching(regrets: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Rows proportional to the positive regrets over the legal columns; uniform where none
    is positive."""
    positive = np.where(legal, np.maximum(regrets, 0.0), 0.0)
    total = positive.sum(axis=1, keepdims=True)
    uniform = legal / legal.sum(axis=1, keepdims=True)
    return np.where(total > 0, positive / np.where(total > 0, total, 1.0), uniform)


@dataclass
class _Tables:
    regrets: np.ndarray
    average: np.ndarray
    legal: np.ndarray


def _rows(game: RiverGame, node: int) -> slice:
    p = int(game.tree.player[node])
    base = int(game.tree.row_base[node])
    return slice(base, base + game.states[p])


def _walk_cfr(game: RiverGame, tables: _Tables, payoffs: dict[int, np.ndarray], node: int,
              reach: tuple[np.ndarray, np.ndarray], updating: int, weight: float,
              floor: bool) -> np.ndarray:
    """The counterfactual values of ``updating``'s states below ``node``; updates its regrets
    and average strategy on the way back."""
    t = game.tree
    if t.kind[node] != DECISION:
        m = payoffs[node]
        return m @ reach[1] if updating == 0 else -(reach[0] @ m)
    p = int(t.player[node])
    rows = _rows(game, node)
    legal = tables.legal[rows]
    sigma = regret_matching(tables.regrets[rows], legal)
    columns = np.flatnonzero(legal[0])
    if p != updating:
        total = np.zeros(game.states[updating])
        for a in columns:
            after = (reach[0] * sigma[:, a], reach[1]) if p == 0 else (
                reach[0], reach[1] * sigma[:, a])
            total += _walk_cfr(game, tables, payoffs, int(t.child[node, a]), after, updating,
                               weight, floor)
        return total
    values = np.zeros(sigma.shape)
    for a in columns:
        values[:, a] = _walk_cfr(game, tables, payoffs, int(t.child[node, a]), reach,
                                 updating, weight, floor)
    mean = (sigma * values).sum(axis=1)
    regret = tables.regrets[rows] + np.where(legal, values - mean[:, None], 0.0)
    tables.regrets[rows] = np.maximum(regret, 0.0) if floor else regret
    tables.average[rows] += weight * reach[p][:, None] * sigma
    return mean


def _payoffs(game: RiverGame) -> dict[int, np.ndarray]:
    """Each terminal's player-0 payoffs weighted by the deal's probabilities."""
    t = game.tree
    return {int(n): game.weights * game.payoff(int(n))
            for n in np.flatnonzero(t.kind != DECISION)}


def _legal(game: RiverGame) -> np.ndarray:
    t = game.tree
    out = np.zeros((t.rows, t.abstraction.width), dtype=bool)
    for node in np.flatnonzero(t.kind == DECISION):
        base = int(t.row_base[node])
        out[base:base + t.buckets[0]] = t.child[node] >= 0
    return out


def solve(game: RiverGame, iterations: int, plus: bool = True,
          checkpoints: Sequence[int] = (), on_checkpoint: Checkpoint | None = None
          ) -> np.ndarray:
    """The average strategy after ``iterations`` of CFR+ (``plus``) or vanilla CFR, rows by
    information set; at each of ``checkpoints`` the average so far goes to
    ``on_checkpoint(iteration, strategy)``."""
    if iterations < 1:
        raise EquilibriumError(f"iterations: expected >= 1, got {iterations}")
    legal = _legal(game)
    tables = _Tables(np.zeros(legal.shape), np.zeros(legal.shape), legal)
    payoffs = _payoffs(game)
    n0, n1 = game.states
    ones = (np.ones(n0), np.ones(n1))
    marks = set(checkpoints)
    for t in range(1, iterations + 1):
        weight = float(t) if plus else 1.0
        for p in (0, 1):
            _walk_cfr(game, tables, payoffs, 0, ones, p, weight, plus)
        if t in marks and on_checkpoint is not None:
            on_checkpoint(t, regret_matching(tables.average, legal))
    return regret_matching(tables.average, legal)


def _walk_value(game: RiverGame, strategy: np.ndarray, payoffs: dict[int, np.ndarray],
                node: int, reach: tuple[np.ndarray, np.ndarray], responder: int | None
                ) -> np.ndarray:
    """Below ``node``: the counterfactual values of ``responder``'s states, best responding;
    or, with no responder, player 0's values with both playing ``strategy``."""
    t = game.tree
    me = 0 if responder is None else responder
    if t.kind[node] != DECISION:
        m = payoffs[node]
        if responder is None:  # both play the strategy: player 0's own reach counts too
            return reach[0] * (m @ reach[1])
        return m @ reach[1] if me == 0 else -(reach[0] @ m)
    p = int(t.player[node])
    columns = t.actions(node)
    if p == responder:
        kids = [_walk_value(game, strategy, payoffs, int(t.child[node, a]), reach, responder)
                for a in columns]
        return np.max(np.stack(kids), axis=0)
    sigma = strategy[_rows(game, node)]
    total = np.zeros(game.states[me])
    for a in columns:
        after = (reach[0] * sigma[:, a], reach[1]) if p == 0 else (
            reach[0], reach[1] * sigma[:, a])
        total += _walk_value(game, strategy, payoffs, int(t.child[node, a]), after, responder)
    return total


def best_response_value(game: RiverGame, strategy: np.ndarray, responder: int) -> float:
    """The most ``responder`` wins on average, in chips, against the other's ``strategy``."""
    n0, n1 = game.states
    return float(_walk_value(game, strategy, _payoffs(game), 0, (np.ones(n0), np.ones(n1)),
                             responder).sum())


def value(game: RiverGame, strategy: np.ndarray) -> float:
    """Player 0's expected winnings when both play ``strategy``."""
    n0, n1 = game.states
    return float(_walk_value(game, strategy, _payoffs(game), 0, (np.ones(n0), np.ones(n1)),
                             None).sum())


def exploitability(game: RiverGame, strategy: np.ndarray) -> float:
    """``(BR against player 1's part + BR against player 0's part) / 2``, in chips a game."""
    return 0.5 * (best_response_value(game, strategy, 0)
                  + best_response_value(game, strategy, 1))

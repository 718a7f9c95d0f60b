"""Miximax over the rest of the hand's betting tree, with a vector over holdings.

From our decision node the whole remaining betting tree is valued, in small blinds of net
result for the hand, for every holding at once (the tree is the same for every holding;
only the showdown leaves differ):

* a fold pays the folder's chips to the other;
* a showdown with ``s`` each in is worth ``(2 W - 1) s``, where ``W = A @ q`` is our chance
  of beating the opponent's modelled shown strengths ``q`` there
  (:mod:`agent.rivals.vexbot.strength`: ``A`` averages our strength over the cards to come);
* the opponent's decisions are chance nodes: the sum of the children weighted by its
  modelled action chances in that context;
* our later decisions take the best child (*miximax*); the root's values are returned and
  the bot turns them into its row.

Why miximax rather than miximix inside the tree: the opponent model is what adapts, and a
best reply to it is the value of each line; a softmax inside the tree would value our later
choices below their best and blur exactly the differences the model is learned for.
Randomisation is kept to the root (a small softmax there, :mod:`.bot`), where it makes the
row smooth and the bot harder to read.

Card deals between rounds are not branched: ``A`` already averages our final strength over
the runouts, and the model holds no cards, so every node of a later round would see the same
average. The cost of that choice is the value of information: our later decisions are taken
as if we did not see the later cards (a lower bound on their worth), which keeps a decision
one pass over the tree (about 2,000 nodes after the flop, 17,000 before it).

The walk goes by depth, deepest first, all nodes of a depth in one array operation.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from agent.equilibrium.tree import CALL, CHANCE, DECISION, FOLD, SHOWDOWN
from agent.rivals.vexbot.contexts import ContextTree


@dataclass(frozen=True)
class Subtree:
    """The nodes under a root, grouped for the walk: ``nodes`` (global ids, in order),
    ``opponent`` / ``ours`` / ``chance``: per depth (deepest first) the local indices of
    those internal nodes; ``folds``, ``showdowns``: the local indices of the leaves."""

    root: int
    nodes: np.ndarray
    levels: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...]
    folds: np.ndarray
    showdowns: np.ndarray
    opponent_nodes: np.ndarray


@functools.lru_cache(maxsize=256)
def _subtree(contexts: ContextTree, root: int, us: int) -> Subtree:
    t = contexts.tree
    nodes = np.arange(root, int(contexts.end[root]))
    kind, player, depth = t.kind[nodes], t.player[nodes], contexts.depth[nodes]
    local = np.arange(nodes.size)
    levels = []
    for d in range(int(depth.max()), int(depth.min()) - 1, -1):
        at = depth == d
        opp = local[at & (kind == DECISION) & (player != us)]
        ours = local[at & (kind == DECISION) & (player == us)]
        chance = local[at & (kind == CHANCE)]
        if opp.size or ours.size or chance.size:
            levels.append((opp, ours, chance))
    opponent = local[(kind == DECISION) & (player != us)]
    return Subtree(root, nodes, tuple(levels), local[kind == FOLD], local[kind == SHOWDOWN],
                   opponent)


def subtree(contexts: ContextTree, root: int, us: int) -> Subtree:
    """The walk's grouping of ``root``'s subtree, for us in role ``us`` (kept)."""
    return _subtree(contexts, root, us)


def root_values(contexts: ContextTree, sub: Subtree, us: int, action_chances: np.ndarray,
                showdown_histograms: np.ndarray, wins: np.ndarray) -> np.ndarray:
    """The value (H, 3) of each action at the root for each row of ``wins`` (H, bins) (NaN
    for an illegal action), given the opponent's chances (one row per ``sub.opponent_nodes``)
    and histograms (one row per ``sub.showdowns``)."""
    t = contexts.tree
    nodes, root = sub.nodes, sub.root
    h = wins.shape[0]
    values = np.zeros((nodes.size, h))
    folds = nodes[sub.folds]
    folder = t.player[folds]
    values[sub.folds] = np.where(folder == us, -t.spent[folds, us],
                                 t.spent[folds, 1 - us]).astype(np.float64)[:, None]
    if sub.showdowns.size:
        win = showdown_histograms @ wins.T  # (leaves, H)
        values[sub.showdowns] = (2.0 * win - 1.0) * t.spent[nodes[sub.showdowns], 0][:, None]
    chances = np.zeros((nodes.size, 3))
    chances[sub.opponent_nodes] = action_chances
    children = np.where(t.child[nodes] >= 0, t.child[nodes] - root, 0)
    legal = t.child[nodes] >= 0
    for opp, ours, chance in sub.levels:
        if opp.size:
            values[opp] = np.einsum("ka,kah->kh", chances[opp], values[children[opp]])
        if ours.size:
            best = np.where(legal[ours][:, :, None], values[children[ours]], -np.inf)
            values[ours] = best.max(axis=1)
        if chance.size:
            values[chance] = values[children[chance, CALL]]
    out = np.where(legal[0][None, :], values[children[0]].T, np.nan)
    return out

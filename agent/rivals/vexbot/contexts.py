"""The context tree: the betting tree of heads-up limit hold'em without the cards, and the
coarser contexts Vexbot backs off to when a betting sequence has been seen too rarely.

The nodes are those of :func:`agent.equilibrium.tree.build_tree` for ``HEADS_UP_LIMIT``
(player 0 is the button; chips in units of a small blind), so ``cfr``'s self-play counts
land on the same nodes. Each opponent decision node has five contexts, finest first:

* level 0, the exact sequence (the node);
* level 1, the pair of bet counts: (round, player, the player's bets and raises in the hand,
  the other's, whether it faces a bet);
* level 2, the round's betting: (round, player, whether it faces a bet, bets in the round);
* level 3, the street: (round, whether it faces a bet), either seat;
* level 4, the hand: whether it faces a bet, in any round and seat.

Each showdown leaf, seen from an opponent in role ``p``, has four:

* level 0, the exact sequence and ``p``;
* level 1, ``p`` and the pair of bet counts of the hand;
* level 2, ``p`` and the final pot;
* level 3, every showdown (one context).

Why the two coarse levels: against an opponent whose exact sequences rarely repeat (a
raiser's), the finer levels stay thin for hundreds of hands, while "how often it folds to a
bet" is seen in nearly every hand. Pooled over nodes whose equilibrium frequencies differ,
they are read *relative to the prior* (:mod:`.model`), not as raw frequencies.

The preorder numbering puts every node's subtree in one range ``[n, end[n])``, which the
search walks by depth, deepest first.

>>> t = context_tree()
>>> int(t.tree.kind.shape[0]), t.action_contexts[3:], t.showdown_contexts[3:]
(17221, (8, 2), (1,))
>>> bool(t.end[0] == t.tree.nodes), int(t.depth[t.tree.find("rc/r")])
(True, 4)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from agent.equilibrium.tree import (
    CALL,
    CHANCE,
    DECISION,
    FOLD_ACTION,
    HEADS_UP_LIMIT,
    RAISE,
    SHOWDOWN,
    Tree,
    build_tree,
)
from simulator.core.actions import ActionKind
from simulator.core.observation import Observation
from simulator.play.protocol import PolicyError

ACTION_LEVELS = 5
SHOWDOWN_LEVELS = 4
COLUMN = {ActionKind.FOLD: FOLD_ACTION, ActionKind.CALL: CALL, ActionKind.RAISE: RAISE}


@dataclass(frozen=True, eq=False)  # hashed by identity: one per process
class ContextTree:
    """The betting tree with its contexts (module docstring).

    ``action_context[level, n]``: the context id of decision node ``n`` at a level (-1 for
    other nodes); ``showdown_context[level, p, n]``: of showdown leaf ``n`` seen from an
    opponent in role ``p``; ``action_contexts`` and ``showdown_contexts``: the number of ids
    at each level. ``raises[n, p]``: player p's bets and raises before node ``n``.
    """

    tree: Tree
    end: np.ndarray
    depth: np.ndarray
    raises: np.ndarray
    action_context: np.ndarray
    showdown_context: np.ndarray
    action_contexts: tuple[int, ...]
    showdown_contexts: tuple[int, ...]

    def node_of(self, observation: Observation) -> int:
        """The decision node of the observation's public history, the chance nodes between
        rounds passed (PolicyError when the history is not one of the tree's)."""
        t = self.tree
        node = 0
        for record in observation.history:
            node = self._skip_chance(node)
            role = 0 if record.seat == observation.button else 1
            column = COLUMN[record.kind]
            if (t.kind[node] != DECISION or t.player[node] != role
                    or t.round[node] != int(record.street) or t.child[node, column] < 0):
                raise PolicyError("vexbot: the hand's history is not one of the heads-up "
                                  "limit betting tree")
            node = int(t.child[node, column])
        node = self._skip_chance(node)
        role = 0 if observation.seat == observation.button else 1
        if (t.kind[node] != DECISION or t.player[node] != role
                or t.round[node] != int(observation.street)):
            raise PolicyError(f"vexbot: after this history it is not seat {observation.seat}'s "
                              f"decision on the {observation.street.label}")
        return node

    def _skip_chance(self, node: int) -> int:
        while self.tree.kind[node] == CHANCE:
            node = int(self.tree.child[node, CALL])
        return node


def _attributes(tree: Tree) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per node: the end of its subtree, its depth, each player's raises before it and the
    bets of its round before it."""
    n = tree.nodes
    end = np.arange(1, n + 1, dtype=np.int64)
    depth = np.zeros(n, dtype=np.int64)
    raises = np.zeros((n, 2), dtype=np.int64)
    round_bets = np.zeros(n, dtype=np.int64)
    round_bets[0] = 1  # the big blind is the first round's first bet
    for node in range(n):  # preorder: a parent comes before its children
        for column in range(3):
            c = int(tree.child[node, column])
            if c < 0:
                continue
            depth[c] = depth[node] + 1
            raises[c] = raises[node]
            round_bets[c] = round_bets[node]
            if tree.kind[node] == CHANCE:
                round_bets[c] = 0
            elif column == RAISE:
                raises[c, int(tree.player[node])] += 1
                round_bets[c] += 1
    for node in range(n - 1, -1, -1):  # a subtree ends where its last child's ends
        children = [int(c) for c in tree.child[node] if c >= 0]
        if children:
            end[node] = max(end[c] for c in children)
    return end, depth, raises, round_bets


def _ids(keys: list[tuple[int, ...] | None]) -> tuple[np.ndarray, int]:
    """Dense ids of the keys (-1 for None), in order of first appearance."""
    seen: dict[tuple[int, ...], int] = {}
    out = np.full(len(keys), -1, dtype=np.int64)
    for i, key in enumerate(keys):
        if key is not None:
            out[i] = seen.setdefault(key, len(seen))
    return out, len(seen)


@functools.cache
def context_tree() -> ContextTree:
    """The heads-up limit context tree, built once per process (read-only arrays)."""
    tree = build_tree(HEADS_UP_LIMIT)
    end, depth, raises, round_bets = _attributes(tree)
    n = tree.nodes
    action = np.full((ACTION_LEVELS, n), -1, dtype=np.int64)
    counts: list[int] = []
    decisions = [int(x) for x in np.flatnonzero(tree.kind == DECISION)]
    for level in range(ACTION_LEVELS):
        keys: list[tuple[int, ...] | None] = [None] * n
        for node in decisions:
            p, r = int(tree.player[node]), int(tree.round[node])
            facing = int(tree.spent[node, p] < tree.spent[node, 1 - p])
            keys[node] = ((node,), (r, p, int(raises[node, p]), int(raises[node, 1 - p]),
                                    facing),
                          (r, p, facing, int(round_bets[node])), (r, facing),
                          (facing,))[level]
        action[level], count = _ids(keys)
        counts.append(count)
    showdown = np.full((SHOWDOWN_LEVELS, 2, n), -1, dtype=np.int64)
    sd_counts: list[int] = []
    leaves = [int(x) for x in np.flatnonzero(tree.kind == SHOWDOWN)]
    for level in range(SHOWDOWN_LEVELS):
        keys = [None] * (2 * n)
        for p in (0, 1):
            for node in leaves:
                keys[p * n + node] = ((node, p), (p, int(raises[node, p]),
                                                  int(raises[node, 1 - p])),
                                      (p, int(tree.spent[node, 0])), ())[level]
        ids, count = _ids(keys)
        showdown[level] = ids.reshape(2, n)
        sd_counts.append(count)
    for array in (end, depth, raises, action, showdown):
        array.setflags(write=False)
    return ContextTree(tree, end, depth, raises, action, showdown, tuple(counts),
                       tuple(sd_counts))

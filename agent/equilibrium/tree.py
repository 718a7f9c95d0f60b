"""The betting tree of a two-player fixed-limit game, flattened into arrays for the kernels.

A *limit game* here is described by :class:`LimitRules`: the chips each player has in before
the first action (blinds or antes), one bet size per round, the cap (the most bets a round
may hold, a blind counted as its round's first bet) and which player acts first in each
round. Player 0 is the one who acts first in the first round: in heads-up hold'em as our
engine plays it, the button, who posts the small blind (ACPC's reverse blinds).

The tree has three kinds of node besides the decisions:

* a *fold* terminal: the folder loses what it has in, the other wins it;
* a *showdown* terminal after the last round: both have the same amount in;
* a *chance* node where a round ends and the next begins (board cards are dealt).

Actions are ``f`` (fold), ``c`` (check or call) and ``r`` (bet or raise); a node's *history*
spells the actions so far with ``/`` between rounds, as ACPC does (``"rc/cr"``: the button
raises, the big blind calls, then on the flop the big blind checks and the button bets).

Every decision node has a row block in a strategy table: ``row_base[node] + bucket`` is the
row of the information set (node, bucket), the bucket being the acting player's card class in
the node's round (:mod:`agent.equilibrium.abstraction`). Columns are the three actions in the
order fold, call, raise; a column whose action is illegal at the node is never played.

>>> t = build_tree(HEADS_UP_LIMIT)
>>> t.decisions_by_round()
(8, 70, 630, 5670)
>>> t.history[t.child[0, CALL]], int(t.player[t.child[0, CALL]])
('c', 1)
>>> t.find("rc/r") > 0, int(t.spent[t.find("rc/rr"), 1])  # the big blind bet 2 after 4
(True, 6)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agent.equilibrium.errors import EquilibriumError

# Node kinds.
DECISION, FOLD, SHOWDOWN, CHANCE = 0, 1, 2, 3
# Action columns.
FOLD_ACTION, CALL, RAISE = 0, 1, 2
ACTIONS = "fcr"


@dataclass(frozen=True)
class LimitRules:
    """A two-player fixed-limit betting game.

    ``forced``: the chips each player has in before the first action (player 0 first).
    ``bets``: the bet (and raise) size of each round. ``caps``: the most bets each round may
    hold. ``blind_bets``: how many bets the first round already holds (1 with blinds, the big
    blind counting as the first bet; 0 with antes). ``first``: the player acting first in
    each round.
    """

    name: str
    forced: tuple[int, int]
    bets: tuple[int, ...]
    caps: tuple[int, ...]
    first: tuple[int, ...]
    blind_bets: int = 0

    def __post_init__(self) -> None:
        rounds = len(self.bets)
        if not rounds or len(self.caps) != rounds or len(self.first) != rounds:
            raise EquilibriumError(f"{self.name}: bets, caps and first need one entry a round")
        if any(b <= 0 for b in self.bets) or any(c < 1 for c in self.caps):
            raise EquilibriumError(f"{self.name}: bets and caps must be positive")

    @property
    def rounds(self) -> int:
        return len(self.bets)

    def deepest(self) -> int:
        """The most chips a player can put in: every round capped."""
        return max(self.forced) + sum(
            b * (c - (self.blind_bets if r == 0 else 0))
            for r, (b, c) in enumerate(zip(self.bets, self.caps, strict=True)))


HEADS_UP_LIMIT = LimitRules("heads-up limit hold'em", forced=(1, 2), bets=(2, 2, 4, 4),
                            caps=(4, 4, 4, 4), first=(0, 1, 1, 1), blind_bets=1)
"""Our heads-up fixed-limit game in chips at blinds 1/2 (``configs/headsup_limit.yaml``):
the button (player 0) posts the small blind and acts first pre-flop, last after."""

LEDUC = LimitRules("Leduc hold'em", forced=(1, 1), bets=(2, 4), caps=(2, 2), first=(0, 0))
KUHN = LimitRules("Kuhn poker", forced=(1, 1), bets=(1,), caps=(1,), first=(0,))


def decisions_by_round(kind: np.ndarray, rounds_of: np.ndarray, rounds: int
                       ) -> tuple[int, ...]:
    """The decision nodes of each round of a flattened betting tree (limit or no-limit)."""
    decisions = kind == DECISION
    return tuple(int((decisions & (rounds_of == r)).sum()) for r in range(rounds))


def information_sets(per_round: Sequence[int], buckets: Sequence[int]) -> int:
    """Information sets: one per (decision node, bucket of its round).

    >>> information_sets((8, 70), (169, 200))
    15352
    """
    return int(sum(n * b for n, b in zip(per_round, buckets, strict=True)))


@dataclass(frozen=True)
class Tree:
    """The flattened tree. Node 0 is the root; arrays are indexed by node.

    ``kind``: DECISION, FOLD, SHOWDOWN or CHANCE. ``player``: the player to act (decisions),
    the folder (folds), else -1. ``round``: the betting round. ``child[n, a]``: the node
    after action column a (-1 if illegal); a chance node's next round starts at
    ``child[n, CALL]``. ``spent[n, p]``: the chips player p has in. ``row_base[n]``: the
    first strategy-table row of a decision node (see the module docstring); ``buckets``:
    the bucket count of each round the rows were laid out for. ``history``: the actions so
    far.
    """

    rules: LimitRules
    kind: np.ndarray
    player: np.ndarray
    round: np.ndarray
    child: np.ndarray
    spent: np.ndarray
    row_base: np.ndarray
    buckets: tuple[int, ...]
    history: tuple[str, ...]

    @property
    def nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def rows(self) -> int:
        """Rows of a strategy table: information sets, one per (decision node, bucket)."""
        return information_sets(self.decisions_by_round(), self.buckets)

    def decisions_by_round(self) -> tuple[int, ...]:
        return decisions_by_round(self.kind, self.round, self.rules.rounds)

    def legal(self, node: int) -> np.ndarray:
        """Boolean (3,): the action columns legal at a decision node."""
        return self.child[node] >= 0

    def find(self, history: str) -> int:
        """The node reached by ``history``; EquilibriumError if no node has it."""
        try:
            return self._index()[history]
        except KeyError:
            raise EquilibriumError(f"no node with history {history!r} in the "
                                   f"{self.rules.name} tree") from None

    def _index(self) -> dict[str, int]:
        index: dict[str, int] | None = getattr(self, "_by_history", None)
        if index is None:
            index = {h: n for n, h in enumerate(self.history) if self.kind[n] != CHANCE}
            object.__setattr__(self, "_by_history", index)
        return index


def build_tree(rules: LimitRules, buckets: Sequence[int] | None = None) -> Tree:
    """Every betting sequence of ``rules``, depth first (fold, call, raise), from node 0.

    ``buckets`` (one count a round, default 1) lays out the strategy-table rows.
    """
    counts = tuple(int(b) for b in buckets) if buckets is not None else (1,) * rules.rounds
    if len(counts) != rules.rounds or any(b < 1 for b in counts):
        raise EquilibriumError(f"{rules.name}: expected {rules.rounds} bucket counts >= 1, "
                               f"got {list(counts)}")
    kind: list[int] = []
    player: list[int] = []
    rnd: list[int] = []
    child: list[list[int]] = []
    spent: list[tuple[int, int]] = []
    history: list[str] = []

    def add(k: int, p: int, r: int, s: tuple[int, int], h: str) -> int:
        kind.append(k)
        player.append(p)
        rnd.append(r)
        child.append([-1, -1, -1])
        spent.append(s)
        history.append(h)
        return len(kind) - 1

    def start_round(r: int, s: tuple[int, int], h: str) -> int:
        bets = rules.blind_bets if r == 0 else 0
        return decision(r, rules.first[r], s, bets, 0, h)

    def decision(r: int, p: int, s: tuple[int, int], bets: int, acted: int, h: str) -> int:
        node = add(DECISION, p, r, s, h)
        other = 1 - p
        if s[p] < s[other]:
            child[node][FOLD_ACTION] = add(FOLD, p, r, s, h + "f")
        # check or call: the round ends once both have acted and the bets are level
        called = (max(s), max(s))
        if acted + 1 >= 2:
            child[node][CALL] = end_round(r, called, h + "c")
        else:
            child[node][CALL] = decision(r, other, called, bets, acted + 1, h + "c")
        if bets < rules.caps[r]:
            raised = list(s)
            raised[p] = max(s) + rules.bets[r]
            child[node][RAISE] = decision(r, other, (raised[0], raised[1]), bets + 1,
                                          acted + 1, h + "r")
        return node

    def end_round(r: int, s: tuple[int, int], h: str) -> int:
        if r + 1 == rules.rounds:
            return add(SHOWDOWN, -1, r, s, h)
        node = add(CHANCE, -1, r, s, h)
        child[node][CALL] = start_round(r + 1, s, h + "/")
        return node

    start_round(0, (int(rules.forced[0]), int(rules.forced[1])), "")
    kind_a = np.array(kind, dtype=np.int8)
    round_a = np.array(rnd, dtype=np.int8)
    row_base = np.full(len(kind), -1, dtype=np.int64)
    offset = 0
    for r in range(rules.rounds):
        ids = np.flatnonzero((kind_a == DECISION) & (round_a == r))
        row_base[ids] = offset + np.arange(ids.size, dtype=np.int64) * counts[r]
        offset += ids.size * counts[r]
    return Tree(rules, kind_a, np.array(player, dtype=np.int8), round_a,
                np.array(child, dtype=np.int32), np.array(spent, dtype=np.int32), row_base,
                counts, tuple(history))

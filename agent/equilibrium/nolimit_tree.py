"""The betting tree of a two-player no-limit game under an action abstraction, flattened into
arrays as :mod:`agent.equilibrium.tree` flattens a limit game.

A *no-limit game* (:class:`NoLimitGame`) is two players with equal stacks, antes (dead chips
in the pot before the first round, equal for both), blinds (the first round's opening bets,
player 0's first) and the *full bet* (the big blind: the smallest opening bet and the
smallest raise increment). Player 0 acts first in the first round: in heads-up hold'em as
our engine plays it, the button, who posts the small blind and acts last after the flop.
The betting rules are the engine's (``simulator/core/state.py``): a raise's increment over
the bet it raises is at least the largest increment of the round so far and at least the
full bet (the big blind counting as the first full bet pre-flop); a raise to all-in may be
smaller; a player facing an all-in, or whose call puts it all-in, may only call or fold.

The *action abstraction* (:class:`ActionAbstraction`) offers at every decision: fold (when
there is something to call), check or call, and bets or raises to each listed fraction of
*the pot after the call* (a pot-sized raise calls, then raises by everything in the middle),
plus all-in. A size below the legal minimum becomes the minimum raise, a size at or above the
stack all-in, and equal sizes are offered once. A round holds at most ``caps[r]`` bets and
raises; past the cap all-in stays offered (``all_in_past_cap``), so a capped round can still
be shoved. Chips are rounded to the nearest chip, halves up.

The tree's columns are fold, call, then the raises of the node from smallest to largest
(all-in, when offered, the last); ``child[n, a]`` is -1 where a node has fewer actions.
``to[n, a]`` is the actor's total chips in the hand after action a (its bet, for a call or
raise; what it had in, for a fold); the engine's raise-to amount is ``to - base[n]``, base
being what each had in when the round began (antes and earlier rounds).

*Histories* use the ACPC dealer's no-limit notation: ``f`` fold, ``c`` check or call,
``r<N>`` a bet or raise to N chips in the hand in all (blinds and antes included), ``/``
between rounds. A call of an all-in ends the hand at a showdown with no more ``/`` (the board
is dealt out there): a SHOWDOWN node may belong to any round.

>>> t = build_tree(HEADS_UP_NO_LIMIT)
>>> [t.describe(0, a) for a in t.actions(0)]
['f', 'c', 'r4', 'r6', 'r10', 'r200']
>>> n = t.find("r6")  # the button made a pot-sized raise to 6: the pot after the call is 12
>>> [t.describe(n, a) for a in t.actions(n)]
['f', 'c', 'r12', 'r18', 'r30', 'r200']
>>> m = t.find("r6c/")  # the flop: the big blind opens, pot 12
>>> [t.describe(m, a) for a in t.actions(m)], int(t.base[m]), int(t.player[m])
(['c', 'r12', 'r18', 'r30', 'r200'], 6, 1)
>>> t.kind[t.find("r200c")] == SHOWDOWN, t.spent[t.find("r200f")].tolist()
(np.True_, [200, 2])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from agent.equilibrium.errors import EquilibriumError
from agent.equilibrium.tree import (
    CHANCE,
    DECISION,
    FOLD,
    SHOWDOWN,
    decisions_by_round,
    information_sets,
)

FOLD_ACTION, CALL = 0, 1
FIRST_RAISE = 2
"""Column of a node's smallest raise; its larger raises follow."""

__all__ = ["CALL", "CHANCE", "DECISION", "FIRST_RAISE", "FOLD", "FOLD_ACTION", "SHOWDOWN",
           "ActionAbstraction", "NoLimitGame", "NoLimitTree", "build_tree", "HEADS_UP_NO_LIMIT",
           "HEADS_UP_NO_LIMIT_200", "DEFAULT_ABSTRACTION"]


@dataclass(frozen=True)
class NoLimitGame:
    """A two-player no-limit betting game (see the module docstring).

    ``stack``: the chips each player starts the hand with (antes and blinds included).
    ``antes``: each player's dead chips. ``blinds``: the first round's forced bets, player
    0's first. ``full_bet``: the smallest bet and raise increment. ``first``: the player
    acting first in each round.
    """

    name: str
    stack: int
    full_bet: int
    first: tuple[int, ...]
    blinds: tuple[int, int] = (0, 0)
    antes: int = 0

    def __post_init__(self) -> None:
        if not self.first or any(p not in (0, 1) for p in self.first):
            raise EquilibriumError(f"{self.name}: first needs a player (0 or 1) a round")
        if self.full_bet <= 0 or min(self.blinds) < 0 or self.antes < 0:
            raise EquilibriumError(f"{self.name}: the full bet must be positive, blinds and "
                                   f"antes non-negative")
        if self.stack <= self.antes + max(self.blinds):
            raise EquilibriumError(f"{self.name}: the stack {self.stack} must exceed the "
                                   f"forced chips")

    @property
    def rounds(self) -> int:
        return len(self.first)


@dataclass(frozen=True)
class ActionAbstraction:
    """Which bets and raises the tree offers: ``fractions`` of the pot after the call, all-in
    (``all_in``), and at most ``caps[r]`` bets and raises in round r, all-in excepted past
    the cap when ``all_in_past_cap`` (see the module docstring). Without ``all_in`` a
    fraction whose size reaches the stack is still offered, as the all-in it is."""

    fractions: tuple[float, ...] = (0.5, 1.0, 2.0)
    caps: tuple[int, ...] = (4, 4, 4, 4)
    all_in: bool = True
    all_in_past_cap: bool = True

    def __post_init__(self) -> None:
        if any(f <= 0 for f in self.fractions) or list(self.fractions) != sorted(
                set(self.fractions)):
            raise EquilibriumError(f"fractions: expected distinct positive pot fractions in "
                                   f"increasing order, got {list(self.fractions)}")
        if any(c < 0 for c in self.caps):
            raise EquilibriumError(f"caps: expected counts >= 0, got {list(self.caps)}")

    @property
    def width(self) -> int:
        """Action columns: fold, call, one per fraction and all-in."""
        return FIRST_RAISE + len(self.fractions) + int(self.all_in)


HEADS_UP_NO_LIMIT = NoLimitGame("heads-up no-limit hold'em, 100 bb", stack=200, full_bet=2,
                                first=(0, 1, 1, 1), blinds=(1, 2))
"""Our heads-up no-limit game at blinds 1/2 with stacks of 200 reset every hand
(``configs`` variant ``nolimit``): the button (player 0) posts the small blind."""

HEADS_UP_NO_LIMIT_200 = NoLimitGame("heads-up no-limit hold'em, 200 bb", stack=400,
                                    full_bet=2, first=(0, 1, 1, 1), blinds=(1, 2))

DEFAULT_ABSTRACTION = ActionAbstraction()
"""Half pot, pot, twice the pot and all-in, four bets and raises a round."""


@dataclass(frozen=True, repr=False)
class NoLimitTree:
    """The flattened tree; node 0 is the root and arrays are indexed by node.

    ``kind``, ``player``, ``round``, ``spent``, ``row_base``, ``buckets`` and ``history`` are
    as in :class:`agent.equilibrium.tree.Tree`; ``child`` has ``abstraction.width`` columns
    (see the module docstring), a chance node's next round at ``child[n, CALL]``. ``to[n,
    a]`` is the actor's chips in after action a (-1 where absent), ``base[n]`` what each
    player had in when the node's round began.
    """

    game: NoLimitGame
    abstraction: ActionAbstraction
    kind: np.ndarray
    player: np.ndarray
    round: np.ndarray
    child: np.ndarray
    to: np.ndarray
    spent: np.ndarray
    base: np.ndarray
    row_base: np.ndarray
    buckets: tuple[int, ...]
    history: tuple[str, ...]
    _index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __repr__(self) -> str:  # the arrays would print hundreds of thousands of entries
        return f"NoLimitTree({self.game.name!r}, {self.abstraction}, {self.nodes} nodes)"

    @property
    def nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def rows(self) -> int:
        """Information sets: one per (decision node, bucket of its round)."""
        return information_sets(self.decisions_by_round(), self.buckets)

    def decisions_by_round(self) -> tuple[int, ...]:
        return decisions_by_round(self.kind, self.round, self.game.rounds)

    def actions(self, node: int) -> list[int]:
        """The columns of the actions offered at a decision node."""
        return [int(a) for a in np.flatnonzero(self.child[node] >= 0)]

    def fraction(self, node: int, column: int) -> float:
        """A raise column's size as a fraction of the pot after the call (chips rounded)."""
        top = int(self.spent[node].max())
        return (int(self.to[node, column]) - top) / (2 * top)

    def is_all_in(self, node: int, column: int) -> bool:
        return column >= FIRST_RAISE and int(self.to[node, column]) == self.game.stack

    def describe(self, node: int, column: int) -> str:
        """The action's history letters: ``f``, ``c`` or ``r<N>``."""
        if column == FOLD_ACTION:
            return "f"
        return "c" if column == CALL else f"r{int(self.to[node, column])}"

    def find(self, history: str) -> int:
        """The node reached by ``history``; EquilibriumError if no node has it."""
        if not self._index:
            self._index.update((h, n) for n, h in enumerate(self.history)
                               if self.kind[n] != CHANCE)
        try:
            return self._index[history]
        except KeyError:
            raise EquilibriumError(f"no node with history {history!r} in the "
                                   f"{self.game.name} tree") from None


def raise_sizes(game: NoLimitGame, abstraction: ActionAbstraction, spent: tuple[int, int],
                raises: int, increment: int, r: int) -> list[int]:
    """The totals (chips in the hand) of the raises offered to a player facing ``spent``
    (``raises`` already made this round, the largest ``increment`` so far), smallest first.

    >>> raise_sizes(HEADS_UP_NO_LIMIT, DEFAULT_ABSTRACTION, (1, 2), 0, 2, 0)
    [4, 6, 10, 200]
    >>> quarter = ActionAbstraction(fractions=(0.25, 0.5))  # a quarter pot is under the minimum
    >>> raise_sizes(HEADS_UP_NO_LIMIT, quarter, (2, 80), 2, 60, 0)
    [140, 160, 200]
    """
    top = max(spent)
    if top >= game.stack:
        return []  # facing an all-in (or all-in oneself): call or fold
    lowest = min(game.stack, top + max(increment, game.full_bet))
    sizes: set[int] = set()
    if raises < abstraction.caps[r]:
        for f in abstraction.fractions:
            target = top + int(np.floor(f * 2 * top + 0.5))
            sizes.add(min(game.stack, max(lowest, target)))
    if abstraction.all_in and (raises < abstraction.caps[r] or abstraction.all_in_past_cap):
        sizes.add(game.stack)
    return sorted(sizes)


@dataclass
class _Builder:
    """The growing node lists of :func:`build_tree`."""

    game: NoLimitGame
    abstraction: ActionAbstraction
    kind: list[int] = field(default_factory=list)
    player: list[int] = field(default_factory=list)
    round: list[int] = field(default_factory=list)
    child: list[list[int]] = field(default_factory=list)
    to: list[list[int]] = field(default_factory=list)
    spent: list[tuple[int, int]] = field(default_factory=list)
    base: list[int] = field(default_factory=list)
    history: list[str] = field(default_factory=list)

    def add(self, kind: int, player: int, r: int, spent: tuple[int, int], base: int,
            history: str) -> int:
        width = self.abstraction.width
        self.kind.append(kind)
        self.player.append(player)
        self.round.append(r)
        self.child.append([-1] * width)
        self.to.append([-1] * width)
        self.spent.append(spent)
        self.base.append(base)
        self.history.append(history)
        return len(self.kind) - 1

    def start_round(self, r: int, spent: tuple[int, int], history: str) -> int:
        """The first decision of round r; pre-flop the big blind is the full bet to beat."""
        increment = max(self.game.blinds) if r == 0 else 0
        base = self.game.antes if r == 0 else spent[0]
        return self.decision(r, self.game.first[r], spent, base, 0, increment, 0, history)

    def decision(self, r: int, p: int, spent: tuple[int, int], base: int, raises: int,
                 increment: int, acted: int, history: str) -> int:
        node = self.add(DECISION, p, r, spent, base, history)
        top = max(spent)
        if spent[p] < top:
            self.child[node][FOLD_ACTION] = self.add(FOLD, p, r, spent, base, history + "f")
            self.to[node][FOLD_ACTION] = spent[p]
        called = (top, top)
        if acted >= 1:  # both have acted and the bets are level: the round is over
            self.child[node][CALL] = self.end_round(r, called, base, history + "c")
        else:
            self.child[node][CALL] = self.decision(r, 1 - p, called, base, raises, increment,
                                                   acted + 1, history + "c")
        self.to[node][CALL] = top
        sizes = raise_sizes(self.game, self.abstraction, spent, raises, increment, r)
        for column, total in enumerate(sizes, start=FIRST_RAISE):
            after = (total, spent[1]) if p == 0 else (spent[0], total)
            self.child[node][column] = self.decision(
                r, 1 - p, after, base, raises + 1, max(increment, total - top), acted + 1,
                f"{history}r{total}")
            self.to[node][column] = total
        return node

    def end_round(self, r: int, spent: tuple[int, int], base: int, history: str) -> int:
        if r + 1 == self.game.rounds or spent[0] == self.game.stack:
            return self.add(SHOWDOWN, -1, r, spent, base, history)
        node = self.add(CHANCE, -1, r, spent, base, history)
        self.child[node][CALL] = self.start_round(r + 1, spent, history + "/")
        return node


def build_tree(game: NoLimitGame, abstraction: ActionAbstraction = DEFAULT_ABSTRACTION,
               buckets: Sequence[int] | None = None) -> NoLimitTree:
    """Every betting sequence of ``game`` under ``abstraction``, depth first (fold, call,
    raises from smallest), from node 0. ``buckets`` (one count a round, default 1) lays out
    the strategy-table rows: ``row_base[node] + bucket``, round by round."""
    rounds = game.rounds
    counts = tuple(int(b) for b in buckets) if buckets is not None else (1,) * rounds
    if len(counts) != rounds or any(b < 1 for b in counts):
        raise EquilibriumError(f"{game.name}: expected {rounds} bucket counts >= 1, got "
                               f"{list(counts)}")
    if len(abstraction.caps) < rounds:
        raise EquilibriumError(f"{game.name}: the abstraction needs a cap for each of the "
                               f"{rounds} rounds, got {list(abstraction.caps)}")
    b = _Builder(game, abstraction)
    forced = game.antes
    b.start_round(0, (forced + game.blinds[0], forced + game.blinds[1]), "")
    kind = np.array(b.kind, dtype=np.int8)
    rnd = np.array(b.round, dtype=np.int8)
    row_base = np.full(kind.size, -1, dtype=np.int64)
    offset = 0
    for r in range(rounds):
        ids = np.flatnonzero((kind == DECISION) & (rnd == r))
        row_base[ids] = offset + np.arange(ids.size, dtype=np.int64) * counts[r]
        offset += ids.size * counts[r]
    return NoLimitTree(game, abstraction, kind, np.array(b.player, dtype=np.int8), rnd,
                       np.array(b.child, dtype=np.int32), np.array(b.to, dtype=np.int32),
                       np.array(b.spent, dtype=np.int32), np.array(b.base, dtype=np.int32),
                       row_base, counts, tuple(b.history))

"""Action translation: an opponent's real bet, of any size, read as one of the abstract
tree's actions (:mod:`agent.equilibrium.nolimit_tree`).

Sizes are compared as fractions of the pot after the call, each in its own game: the real
bet against the real pot, the abstract sizes against the abstract node's pot. The two pots
differ once a real bet has been read as another size, and that is the point: the bot follows
the abstract node for its strategy while its caller keeps the real pot and stacks, so the
chips it puts in are never misread (:func:`real_total` turns an abstract raise back into
chips of the real hand).

A real bet x between two abstract sizes A < B goes to A with the probability of the
pseudo-harmonic mapping (Ganzfried and Sandholm 2013),

    f(x) = ((B - x)(1 + A)) / ((B - A)(1 + x)),

and to B otherwise, drawn from the caller's generator. f(A) = 1, f(B) = 0, and f falls in
between; it is the mapping that makes the bettor's indifference in a simple game line up
with the real size, and it is much less exploitable than nearest-size rounding.

Outside the abstract sizes:

* **all-in**, for less than a minimum raise or not, is the abstract all-in (the stacks are
  the same in both games), or the largest raise where the node offers none;
* **below the smallest size**: where a check would hand the turn to the other player (a bet
  into nobody's bet, first to act), A = 0 is the check and the bet may be read as one, as
  Ganzfried and Sandholm do; where a check would end the round, or there is a bet to
  raise, the bet is read as the smallest size, so the abstract round never ends while the
  real one goes on;
* **above the largest size**: the largest, which is all-in when the node offers it.

A raise where the node offers none (the abstract player faces an abstract all-in) is read
as a call, and a fold where the abstract player has nothing to call (the real bet it folds
to was read as a check) as a check: the real hand is over there, and the caller stops.

>>> round(pseudo_harmonic(0.75, 0.5, 1.0), 12)  # (0.25 * 1.5) / (0.5 * 1.75) = 3/7
0.428571428571
>>> pseudo_harmonic(0.5, 0.5, 1.0), pseudo_harmonic(1.0, 0.5, 1.0), pseudo_harmonic(0.25, 0.0, 0.5)
(1.0, 0.0, 0.4)
"""

from __future__ import annotations

import numpy as np

from agent.equilibrium.errors import EquilibriumError
from agent.equilibrium.nolimit_tree import (
    CALL,
    DECISION,
    FIRST_RAISE,
    FOLD_ACTION,
    NoLimitTree,
)
from simulator.core.actions import ActionKind


def pseudo_harmonic(x: float, a: float, b: float) -> float:
    """The probability of reading a bet of ``x`` pots as the smaller abstract size ``a``
    rather than ``b`` (0 <= a <= x <= b, a < b)."""
    return ((b - x) * (1.0 + a)) / ((b - a) * (1.0 + x))


def real_fraction(spent: tuple[int, int], total: int) -> float:
    """A raise to ``total`` chips in the hand, facing ``spent``, as a fraction of the pot
    after the call (heads-up that pot is twice the larger of the two)."""
    top = max(spent)
    return (total - top) / (2 * top)


def ladder(tree: NoLimitTree, node: int) -> list[tuple[int, float]]:
    """The abstract raises of a decision node as (column, pot fraction), smallest first,
    headed by (CALL, 0.0) where a bet may be read as a check (see the module docstring)."""
    out = [(a, tree.fraction(node, a)) for a in tree.actions(node) if a >= FIRST_RAISE]
    check = int(tree.child[node, CALL])
    opens = (tree.child[node, FOLD_ACTION] < 0 and tree.kind[check] == DECISION
             and tree.round[check] == tree.round[node])
    return [(CALL, 0.0), *out] if opens and out else out


def translate(tree: NoLimitTree, node: int, spent: tuple[int, int], kind: ActionKind,
              total: int | None, rng: np.random.Generator) -> int:
    """The column of ``node`` that the real action stands for: ``kind``, and for a raise
    the actor's ``total`` chips in the hand after it, facing the real ``spent`` (player 0
    first). Draws from ``rng`` only between two sizes."""
    if tree.kind[node] != DECISION:
        raise EquilibriumError(f"node {node} ({tree.history[node]!r}) is not a decision")
    if kind is ActionKind.FOLD:
        return FOLD_ACTION if tree.child[node, FOLD_ACTION] >= 0 else CALL
    if kind is ActionKind.CALL:
        return CALL
    if total is None:
        raise EquilibriumError("a raise needs its total")
    raises = [a for a in tree.actions(node) if a >= FIRST_RAISE]
    if not raises:
        return CALL
    if total >= tree.game.stack:
        return raises[-1]
    steps = ladder(tree, node)
    x = real_fraction(spent, total)
    if x <= steps[0][1]:
        return steps[0][0]
    for (low, a), (high, b) in zip(steps, steps[1:], strict=False):
        if x < b:
            return low if rng.random() < pseudo_harmonic(x, a, b) else high
    return steps[-1][0]


def real_total(tree: NoLimitTree, node: int, column: int, spent: tuple[int, int],
               lowest: int, highest: int) -> int:
    """The chips in the hand of the real raise that abstract raise ``column`` stands for:
    the same fraction of the real pot after the call, within the real bounds (``lowest``
    and ``highest``, totals in the hand, from the real legal set); all-in stays all-in.

    >>> from agent.equilibrium.nolimit_tree import HEADS_UP_NO_LIMIT, build_tree
    >>> t = build_tree(HEADS_UP_NO_LIMIT)
    >>> n = t.find("r6c/")  # abstract pot 12; the real pot is 16 (the button raised to 8)
    >>> [real_total(t, n, a, (8, 8), 10, 200) for a in t.actions(n)[1:]]
    [16, 24, 40, 200]
    """
    if tree.is_all_in(node, column):
        return highest
    top = max(spent)
    target = top + int(np.floor(tree.fraction(node, column) * 2 * top + 0.5))
    return min(highest, max(lowest, target))

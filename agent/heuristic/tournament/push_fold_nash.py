"""The heads-up push-or-fold game's equilibrium, over the 169 pre-flop classes.

The game: both players start the hand with ``stack`` big blinds (the effective stack, posts
included); each posts an ``ante``, the small blind (the button) posts half a big blind and the
big blind one. The small blind pushes all-in or folds; facing a push, the big blind calls
or folds. A called push goes to a showdown, the winner taking ``2 * stack``.

Strategies are taken per class (suits are symmetric before the flop, so an equilibrium
exists among such strategies) and every payoff is an exact aggregate over the combos of two
classes that share no card: ``N[i, j]`` counts those pairs and ``W[i, j]`` sums class i's
all-in equity over them, from the exact pre-flop table
(:func:`simulator.core.preflop_equity.preflop_table`), so card removal is exact.

The equilibrium is found by fictitious play: each side's best response to the other's
average strategy, averaged in turn; in a two-player zero-sum game the averages converge to
an equilibrium. What the agent uses of it is the pushing range (the range a pusher is
credited with) and the calling range; :func:`exploitability` states how far from an
equilibrium a pair of strategies is, in big blinds per hand.

>>> eq = push_fold_equilibrium(10.0)
>>> [HAND_CLASSES[i] for i in (0, 12)], bool(eq.push[0] == 1.0), bool(eq.push[12] == 1.0)
(['AA', '22'], True, True)
>>> exploitability(eq, 10.0) < 0.005
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from agent.strength.ranges import HAND_CLASSES, HOLDING_CLASS
from simulator.core.preflop_equity import clashes, preflop_table

ITERATIONS = 4000  # fictitious play rounds: exploitability below 0.005 BB a hand by 20 BB
SMALL_BLIND = 0.5  # big blinds


@dataclass(frozen=True)
class ClassGame:
    """The class aggregates: ``pairs[i, j]`` non-clashing combo pairs, ``wins[i, j]`` class
    i's summed equity over them."""

    pairs: np.ndarray
    wins: np.ndarray


@cache
def class_game() -> ClassGame:
    """The 169 x 169 aggregates of the exact 1,326 x 1,326 table (computed once)."""
    onehot = np.zeros((len(HOLDING_CLASS), len(HAND_CLASSES)))
    onehot[np.arange(len(HOLDING_CLASS)), HOLDING_CLASS] = 1.0
    live = (~clashes()).astype(np.float64)
    pairs = onehot.T @ live @ onehot
    wins = onehot.T @ preflop_table() @ onehot
    pairs.setflags(write=False)
    wins.setflags(write=False)
    return ClassGame(pairs, wins)


@dataclass(frozen=True)
class PushFoldEquilibrium:
    """Per class (``HAND_CLASSES`` order): the chance the small blind pushes and the chance
    the big blind calls a push."""

    stack: float
    ante: float
    push: np.ndarray
    call: np.ndarray

    def push_range(self) -> np.ndarray:
        """The pushing strategy as weights over the 1,326 holdings."""
        return self.push[HOLDING_CLASS]

    def call_range(self) -> np.ndarray:
        return self.call[HOLDING_CLASS]


def push_gain(call: np.ndarray, stack: float, ante: float = 0.0) -> np.ndarray:
    """Per class, the small blind's expected gain from pushing over folding, in big blinds,
    against a big blind calling each class with chance ``call``."""
    g = class_game()
    held = g.pairs.sum(axis=1)
    steal = (g.pairs @ (1.0 - call)) * (1.0 + ante)
    called = 2.0 * stack * (g.wins @ call) - stack * (g.pairs @ call)
    return (steal + called) / held + (SMALL_BLIND + ante)


def call_gain(push: np.ndarray, stack: float, ante: float = 0.0) -> np.ndarray:
    """Per class, the big blind's expected gain from calling a push over folding, in big
    blinds, against a small blind pushing each class with chance ``push`` (0 for a class
    that never faces a push)."""
    g = class_game()
    faced = g.pairs.T @ push  # how often the big blind holding j faces a push
    losses = g.wins.T @ push  # the pusher's equity summed over those pairs
    value = 2.0 * stack * (faced - losses) - stack * faced
    return np.divide(value, faced, out=np.zeros_like(value), where=faced > 0) + (1.0 + ante)


@cache
def push_fold_equilibrium(stack: float, ante: float = 0.0,
                          iterations: int = ITERATIONS) -> PushFoldEquilibrium:
    """The equilibrium at an effective ``stack`` and ``ante`` (both in big blinds), by
    ``iterations`` rounds of fictitious play (cached: the agent asks at a few depths)."""
    if not stack > SMALL_BLIND + ante:
        raise ValueError(f"stack: expected more than the posts ({SMALL_BLIND + ante} big "
                         f"blinds), got {stack}")
    push = np.ones(len(HAND_CLASSES))
    call = np.ones(len(HAND_CLASSES))
    for t in range(1, iterations + 1):
        best_push = (push_gain(call, stack, ante) > 0).astype(np.float64)
        best_call = (call_gain(push, stack, ante) > 0).astype(np.float64)
        push += (best_push - push) / (t + 1)
        call += (best_call - call) / (t + 1)
    push.setflags(write=False)
    call.setflags(write=False)
    return PushFoldEquilibrium(stack, ante, push, call)


def exploitability(eq: PushFoldEquilibrium, stack: float, ante: float = 0.0) -> float:
    """What best responses to both sides gain over the pair, in big blinds per hand (half
    the sum of each side's gain from deviating): 0 exactly at an equilibrium."""
    g = class_game()
    weight = g.pairs.sum(axis=1) / g.pairs.sum()  # each class's share of the deals
    push_now = push_gain(eq.call, stack, ante)
    pusher = float(weight @ (np.maximum(push_now, 0.0) - eq.push * push_now))
    faced = g.pairs.T @ eq.push
    call_now = call_gain(eq.push, stack, ante)
    share = faced / g.pairs.sum()  # the chance of holding j and facing a push
    caller = float(share @ (np.maximum(call_now, 0.0) - eq.call * call_now))
    return (pusher + caller) / 2.0

"""Counterfactual regret minimisation over a limit betting tree with card buckets.

One *iteration* walks the tree once for every board of a batch (:func:`kernels.walk`: vectors
over private states, both players updated together) with the current strategy held fixed,
then adds the batch's regrets and average-strategy weights to the tables. With every public
board of a small game in the batch this is vanilla CFR (Zinkevich et al. 2007); with boards
drawn at random it is public chance sampling (Johanson et al. 2012), each board's
counterfactual values an unbiased estimate of the full ones up to one constant factor (every
pair of compatible states meets on the same share of the boards).

*Schedules* (how old regrets and old strategies are weighted):

* ``cfr``: plain sums;
* ``cfr+``: regrets floored at zero after every iteration (regret matching+), the average
  weighted by the iteration number (Tammelin 2014);
* ``dcfr``: discounted CFR (Brown & Sandholm 2019) with alpha 1.5, beta 0, gamma 2: after
  iteration t, positive regrets are multiplied by t^1.5 / (t^1.5 + 1), negative ones by 1/2,
  and the average by (t / (t + 1))^2;
* ``linear``: linear CFR (Brown & Sandholm 2019), alpha = beta = gamma = 1: iteration t's
  regrets and strategy weigh t, by discounting everything before it by t / (t + 1).

A batch's boards are split among ``workers`` threads (the kernels release the GIL), each
adding into its own delta tables, which are then summed in worker order: the result is
identical for a given seed, schedule and worker count.

The strategy table has one row per information set, ``tree.row_base[node] + bucket``, and
three columns (fold, call, raise).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np

from agent.equilibrium import kernels
from agent.equilibrium.errors import EquilibriumError
from agent.equilibrium.tree import Tree

SCHEDULES = ("cfr", "cfr+", "dcfr", "linear")
MAX_DEPTH = 40  # decisions on one path: at most 6 a round in hold'em, 24 in all


@dataclass(frozen=True)
class Board:
    """What one walk needs of a board: its live private states, strongest at the showdown
    first, as ``states`` (their indices among all private states), their cards ``ca`` and
    ``cb`` (:func:`kernels.card_pairs`), ``buckets`` (rounds, m) and ``group_start`` (m,):
    the first state tied with each."""

    states: np.ndarray
    ca: np.ndarray
    cb: np.ndarray
    buckets: np.ndarray
    group_start: np.ndarray

    @classmethod
    def of(cls, all_cards: np.ndarray, buckets: np.ndarray, strength: np.ndarray) -> Board:
        """From every state's ``buckets`` (rounds, n; -1 where dead) and showdown
        ``strength`` (n; higher is stronger)."""
        live = np.flatnonzero(buckets[0] >= 0)
        order = live[np.argsort(-strength[live], kind="stable")]
        s = strength[order]
        start = np.zeros(order.size, dtype=np.int64)
        if order.size:
            new = np.flatnonzero(np.diff(s) != 0) + 1
            marks = np.zeros(order.size, dtype=np.int64)
            marks[new] = new
            start = np.maximum.accumulate(marks)
        ca, cb = kernels.card_pairs(all_cards)
        return cls(order.astype(np.int64), ca[order], cb[order],
                   np.ascontiguousarray(buckets[:, order], np.int32), start)


@numba.njit(cache=True, nogil=True)
def _merge(regrets: np.ndarray, average: np.ndarray, delta_r: np.ndarray,
           delta_s: np.ndarray, lo: int, hi: int, positive: float, negative: float,
           floor: bool, keep: float, weight: float) -> None:
    """Rows lo..hi: discount, add the workers' deltas (in worker order) and clear them."""
    workers = delta_r.shape[0]
    for i in range(lo, hi):
        for a in range(3):
            r = regrets[i, a]
            r *= positive if r > 0.0 else negative
            s = 0.0
            t = 0.0
            for w in range(workers):
                s += delta_r[w, i, a]
                t += delta_s[w, i, a]
                delta_r[w, i, a] = 0.0
                delta_s[w, i, a] = 0.0
            r += s
            if floor and r < 0.0:
                r = 0.0
            regrets[i, a] = r
            average[i, a] = average[i, a] * keep + weight * t


class Solver:
    """The regret and average-strategy tables of one tree, and the iterations that fill them.

    ``cards`` (n, 2) are the private states' cards (:mod:`agent.equilibrium.kernels`).
    """

    def __init__(self, tree: Tree, cards: np.ndarray, schedule: str = "cfr+",
                 workers: int = 1) -> None:
        if schedule not in SCHEDULES:
            raise EquilibriumError(f"schedule: expected one of {', '.join(SCHEDULES)}, got "
                                   f"{schedule!r}")
        if workers < 1:
            raise EquilibriumError(f"workers: expected >= 1, got {workers}")
        self.tree, self.schedule, self.workers = tree, schedule, int(workers)
        self.cards = np.ascontiguousarray(cards, dtype=np.int64)
        n = self.cards.shape[0]
        rows = tree.rows
        self.regrets = np.zeros((rows, 3))
        self.average = np.zeros((rows, 3))
        self.delta_r = np.zeros((self.workers, rows, 3))
        self.delta_s = np.zeros((self.workers, rows, 3))
        self.iterations = 0
        self._updating = -1
        self._counts = np.array(tree.buckets, dtype=np.int64)
        self._scratch = [_Scratch(n, max(tree.buckets)) for _ in range(self.workers)]
        self._pool = ThreadPoolExecutor(self.workers) if self.workers > 1 else None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def _walk(self, worker: int, boards: Sequence[Board]) -> None:
        t = self.tree
        s = self._scratch[worker]
        tree = kernels.TreeArrays(t.kind, t.player, t.round, t.child, t.spent, t.row_base)
        tables = kernels.RegretTables(self._counts, self.regrets, self.delta_r[worker],
                                      self.delta_s[worker])
        for board in boards:
            m = board.states.shape[0]
            reach = np.ones(m)
            kernels.walk(0, 0, tree,
                         kernels.BoardStates(board.buckets, board.ca, board.cb,
                                             board.group_start),
                         tables, kernels.WalkBuffers(s.reach[:, :m], s.kids[:, :, :, :m],
                                                     s.sigma[:, :, :m], s.rows, s.per_card),
                         reach, reach, s.out[0, :m], s.out[1, :m], self._updating)

    def iterate(self, boards: Sequence[Board], alternate: bool = False) -> None:
        """One iteration over ``boards`` (split in order among the workers); with
        ``alternate``, player 0 is updated first and then player 1 against its new strategy
        (each half an iteration of its own for the schedule)."""
        if alternate:
            for p in (0, 1):
                self._updating = p
                self._iterate(boards)
            self._updating = -1
            return
        self._iterate(boards)

    def _iterate(self, boards: Sequence[Board]) -> None:
        if not boards:
            raise EquilibriumError("an iteration needs at least one board")
        share = -(-len(boards) // self.workers)
        parts = [boards[w * share:(w + 1) * share] for w in range(self.workers)]
        if self._pool is None:
            self._walk(0, parts[0])
        else:
            for f in [self._pool.submit(self._walk, w, part) for w, part in enumerate(parts)
                      if part]:
                f.result()
        self.iterations += 1
        self._apply(self.iterations)

    def _apply(self, t: int) -> None:
        positive, negative, floor, keep, weight = 1.0, 1.0, False, 1.0, 1.0
        if self.schedule == "cfr+":
            floor, weight = True, float(t)
        elif self.schedule == "linear":
            positive = negative = keep = t / (t + 1.0)
        elif self.schedule == "dcfr":
            positive = t ** 1.5 / (t ** 1.5 + 1.0)
            negative = 0.5
            keep = (t / (t + 1.0)) ** 2
        rows = self.regrets.shape[0]
        if self._pool is None or rows < 4096:
            _merge(self.regrets, self.average, self.delta_r, self.delta_s, 0, rows, positive,
                   negative, floor, keep, weight)
            return
        cut = [rows * w // self.workers for w in range(self.workers + 1)]
        jobs = [self._pool.submit(_merge, self.regrets, self.average, self.delta_r,
                                  self.delta_s, cut[w], cut[w + 1], positive, negative, floor,
                                  keep, weight) for w in range(self.workers)]
        for j in jobs:
            j.result()

    def average_strategy(self) -> np.ndarray:
        """Rows of the average strategy: each row's weights over its legal actions, normalised;
        uniform over the legal actions where a row was never reached."""
        return normalise(self.average, self.tree)

    def current_strategy(self) -> np.ndarray:
        """Regret matching on the regrets: the strategy of the next iteration."""
        positive = np.where(self.regrets > 0, self.regrets, 0.0)
        return normalise(positive, self.tree)


def legal_rows(tree: Tree) -> np.ndarray:
    """Boolean (rows, 3): the legal action columns of every row."""
    out = np.zeros((tree.rows, 3), dtype=bool)
    decisions = np.flatnonzero(tree.kind == 0)
    for node in decisions:
        b = tree.buckets[tree.round[node]]
        base = tree.row_base[node]
        out[base:base + b] = tree.child[node] >= 0
    return out


def normalise(weights: np.ndarray, tree: Tree) -> np.ndarray:
    """Each row over its legal actions divided by its sum; uniform where the sum is 0."""
    legal = legal_rows(tree)
    w = np.where(legal, np.maximum(weights, 0.0), 0.0)
    total = w.sum(axis=1, keepdims=True)
    uniform = legal / legal.sum(axis=1, keepdims=True)
    return np.where(total > 0, w / np.where(total > 0, total, 1.0), uniform)


class _Scratch:
    """One worker's per-depth buffers (see :func:`kernels.walk`)."""

    def __init__(self, n: int, rows: int) -> None:
        self.rows = np.zeros((MAX_DEPTH, rows, 3))
        self.reach = np.zeros((MAX_DEPTH, n))
        self.kids = np.zeros((MAX_DEPTH, 3, 2, n))
        self.sigma = np.zeros((MAX_DEPTH, 3, n))
        self.out = np.zeros((2, n))
        self.per_card = np.zeros((6, kernels.MAX_CARDS))

"""Solving heads-up limit hold'em in the card abstraction: public chance sampling.

Each iteration draws ``boards`` five-card boards from its seeded generator (every board of
52 cards equally likely), buckets every holding on each street of each
(:meth:`CardAbstraction.deal_buckets`), and walks the whole betting tree once per board with
vectors over the 1,081 live holdings of both players (:mod:`agent.equilibrium.solver`). A
board's walk updates every information set its holdings fall in, each with the exact
expectation over the opponent's holdings, so one iteration is worth far more than one
sampled deal (Johanson et al. 2012 found public chance sampling the fastest to converge in
hold'em abstractions).

Everything is a function of the seed, the schedule, the boards per iteration and the worker
count: the boards come from one generator in the main thread and the workers' regrets are
summed in a fixed order, so a run repeats byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from agent.equilibrium import features
from agent.equilibrium.abstraction import CardAbstraction
from agent.equilibrium.errors import EquilibriumError
from agent.equilibrium.solver import Board, Solver
from agent.equilibrium.tree import HEADS_UP_LIMIT, Tree, build_tree
from simulator.core.cards import HOLDINGS

CARDS = HOLDINGS.astype(np.int64)


def board_data(abstraction: CardAbstraction, board: np.ndarray) -> Board:
    """What a walk needs of one five-card board: buckets on every street and the showdown
    order of the live holdings."""
    ranks = features.river_ranks(board)
    buckets = abstraction.deal_buckets(board, ranks)
    return Board.of(CARDS, buckets, -ranks.astype(np.int64))


class Trainer:
    """Public-chance-sampling CFR on heads-up limit hold'em in one card abstraction."""

    def __init__(self, abstraction: CardAbstraction, *, seed: int, boards: int = 2,
                 schedule: str = "dcfr", workers: int = 1) -> None:
        if boards < 1:
            raise EquilibriumError(f"boards per iteration: expected >= 1, got {boards}")
        self.abstraction = abstraction
        self.tree: Tree = build_tree(HEADS_UP_LIMIT, abstraction.counts)
        self.solver = Solver(self.tree, CARDS, schedule, workers)
        self.seed, self.boards, self.schedule, self.workers = seed, boards, schedule, workers
        self.rng = np.random.default_rng(seed)
        self._pool = ThreadPoolExecutor(workers) if workers > 1 else None

    @property
    def iterations(self) -> int:
        return self.solver.iterations

    def draw(self) -> list[np.ndarray]:
        """The next iteration's boards."""
        return [self.rng.choice(52, 5, replace=False).astype(np.int64)
                for _ in range(self.boards)]

    def step(self) -> None:
        """One iteration."""
        drawn = self.draw()

        def prepare(b: np.ndarray) -> Board:
            return board_data(self.abstraction, b)

        data: Sequence[Board] = (list(self._pool.map(prepare, drawn)) if self._pool is not None
                                 else [prepare(b) for b in drawn])
        self.solver.iterate(data)

    def run(self, iterations: int, every: Callable[[int], None] | None = None) -> None:
        """``iterations`` more iterations, calling ``every(t)`` after each."""
        for _ in range(iterations):
            self.step()
            if every is not None:
                every(self.iterations)

    def close(self) -> None:
        self.solver.close()
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

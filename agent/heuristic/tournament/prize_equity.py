"""Prize equity: what a stack is worth in a tournament's prizes, by ICM (Malmuth-Harville).

A hand's chips are read as :class:`TableChips`: every seat's stack at the start of the hand
(chips behind plus chips put in), the chips put in so far, which seats still hold cards, and
the stacks of the players left who are not in this hand; with the prizes still to be paid.
An outcome of the hand is the stacks it leaves (:meth:`TableChips.after`), and its worth to
a seat is that seat's ICM equity (:func:`simulator.core.icm.icm_exact`).

E(t) after the flop is an expectation over four endings (a showdown won or lost, every
opponent folding, our folding later): :func:`outcome_values` turns E's parameters into the
stack each ending leaves us, and values each by ICM. The chips we win are taken from, and
the chips we lose given to, the opponents still in the hand in proportion to their stacks at
the start of the hand (exact heads-up; a stated approximation multi-way). The worth is
stated in chip-equivalents: the equity's change times the tournament's chips over the prize
pool, so that with a single prize (equity linear in chips) it is E itself.

>>> chips = TableChips(seat=0, start=(600, 400), put_in=(0, 0), live=(True, True),
...                    others=(), prizes=(100.0,))
>>> round(chips.equity_of_stack(700.0), 6)  # winner takes all: equity is the chip share
70.0
>>> halves = TableChips(0, (500, 500, 500), (0, 0, 0), (True, True, False), (), (65.0, 35.0))
>>> [round(float(x), 4) for x in halves.equities(halves.after(1000.0))]
[55.0, 0.0, 45.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agent.heuristic.e_value import EParams
from simulator import Observation
from simulator.core.icm import icm_exact


@dataclass(frozen=True)
class TableChips:
    """The chips of a tournament hand as ``seat`` sees them (see the module doc)."""

    seat: int
    start: tuple[int, ...]
    put_in: tuple[int, ...]
    live: tuple[bool, ...]
    others: tuple[int, ...]
    prizes: tuple[float, ...]

    @classmethod
    def of(cls, obs: Observation) -> TableChips | None:
        """The chips of ``obs``'s hand, or None when it is not a tournament's."""
        view = obs.tournament
        if view is None:
            return None
        start = obs.starting_stacks
        dealt = sum(1 for s in start if s > 0)
        return cls(obs.seat, start, obs.contributions, obs.active, view.others,
                   view.paid_places(view.players_left(dealt)))

    @property
    def total(self) -> int:
        return sum(self.start) + sum(self.others)

    @property
    def pool(self) -> float:
        return float(sum(self.prizes))

    def behind(self, s: int) -> int:
        return self.start[s] - self.put_in[s]

    def equities(self, stacks: Sequence[float]) -> np.ndarray:
        """Each seat's ICM equity when the table's stacks are ``stacks`` (the other
        tables' as they are); seats not dealt in get 0."""
        dealt = [s for s in range(len(self.start)) if self.start[s] > 0]
        chips = [float(stacks[s]) for s in dealt] + [float(x) for x in self.others]
        eq = icm_exact(chips, self.prizes)
        out = np.zeros(len(self.start))
        out[dealt] = eq[:len(dealt)]
        return out

    def after(self, ours: float) -> tuple[float, ...]:
        """The table's stacks when the hand leaves us ``ours``: the folded keep what they
        have behind, and the rest goes to the live opponents in proportion to their stacks at
        the start of the hand."""
        live = [s for s in range(len(self.start)) if self.live[s] and s != self.seat]
        folded = sum(self.behind(s) for s in range(len(self.start))
                     if s != self.seat and s not in live)
        rest = sum(self.start) - folded - ours
        weight = sum(self.start[s] for s in live)
        out = [float(self.behind(s)) for s in range(len(self.start))]
        out[self.seat] = ours
        for s in live:
            out[s] = rest * self.start[s] / weight if weight else 0.0
        return tuple(out)

    def equity_of_stack(self, ours: float) -> float:
        """Our equity when the hand leaves us ``ours`` chips (see :meth:`after`)."""
        return float(self.equities(self.after(ours))[self.seat])

    def chip_equivalent(self, equity_change: np.ndarray | float) -> np.ndarray | float:
        """An equity change in chips: times the tournament's chips over the prize pool."""
        return equity_change * (self.total / self.pool)


def _equity_of_stacks(chips: TableChips, stacks: np.ndarray) -> np.ndarray:
    """Our equity for each of our final stacks (rounded to the chip: one ICM each)."""
    limit = sum(chips.start) - sum(chips.behind(s) for s in range(len(chips.start))
                                   if s != chips.seat and not chips.live[s])
    rounded = np.clip(np.rint(stacks), 0, limit)
    values, where = np.unique(rounded, return_inverse=True)
    worth = np.array([chips.equity_of_stack(float(v)) for v in values])
    return worth[where].reshape(stacks.shape)


def outcome_values(chips: TableChips, estimates: Sequence[EParams], shape: tuple[int, ...]
                   ) -> np.ndarray:
    """Each candidate's E(t) valued by ICM, in chip-equivalents (candidates x holdings):
    the equity of the stack each ending leaves us, weighted by its chance, less the equity
    of folding now; see the module doc."""
    now = float(chips.behind(chips.seat))
    base = chips.equity_of_stack(now)
    out = np.zeros((len(estimates), *shape))
    for k, e in enumerate(estimates):
        p_sd = np.broadcast_to(np.asarray(e.p_sd, dtype=np.float64), shape)
        safe = np.where(p_sd > 0, p_sd, 1.0)
        bets_sd = np.broadcast_to(np.asarray(e.eb_w, dtype=np.float64), shape) / safe
        endings = (
            (np.broadcast_to(e.p_w, shape), now - bets_sd + np.asarray(e.es_w)),
            (np.maximum(p_sd - np.asarray(e.p_w), 0.0), now - bets_sd),
            (np.broadcast_to(e.p_vf, shape), now - np.asarray(e.eb_vf) + np.asarray(e.es_vf)),
            (np.broadcast_to(e.p_hf, shape), now - np.asarray(e.eb_hf)),
        )
        total = np.zeros(shape)
        for chance, stack in endings:
            stack = np.broadcast_to(np.asarray(stack, dtype=np.float64), shape)
            total += np.asarray(chance) * _equity_of_stacks(chips, stack)
        out[k] = chips.chip_equivalent(total - base)
    return out

"""Whether a bot plays as its policy says: a sequential test of each seat's actions against
the probabilities it stated for them.

AIVAT (:mod:`simulator.arena.aivat`) is unbiased only if a seat's action is a draw from the
row it stated; a bot whose ``act`` and ``policy`` disagree (it states a uniform row and always
bets) shifts AIVAT's figure with no fault to show for it, unless the action it played had
probability 0. So at every decision AIVAT corrects, four increments of mean zero under an
honest draw are noted:

* for each kind (fold, call, raise) ``1{the kind taken} - p(kind)``;
* the *aggression* ``m - 1/2``, where ``m`` is the mid-rank of the action taken among the
  row's entries ordered fold < call < raises by size (``F(before it) + p(it) / 2``, whose
  mean is exactly 1/2): it sees a bot that bets bigger, or smaller, than it says.

For every increment ``d`` and every bet ``l`` of :data:`BETS` the product over decisions of
``1 + l * d`` is a nonnegative martingale of mean 1 for an honest bot (a *test martingale*,
the likelihood ratio of a betting game), and so is the mean of those :data:`TESTS` products.
Ville's inequality bounds the chance that an honest bot's mean ever reaches ``1 / a`` by
``a``, however long the run and whenever it is looked at. A player is flagged when the log of
its mean reaches :func:`threshold`: ``log(tests / FALSE_ALARM)`` for ``tests`` players tested
together (the seats of a run, times the cells of a league: a Bonferroni correction), so that
an honest player is flagged in at most :data:`FALSE_ALARM` of runs (one in a thousand) and in
fact far fewer. A bot that states uniform rows and always plays its last legal action is
flagged within a few dozen decisions.

The products are kept as sums of logs per (statistic, bet): blocks, seatings and workers add
them like AIVAT's sums, since each block's draws are independent of the others'.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from simulator.core.actions import Action, ActionKind
from simulator.play.protocol import PolicyEntry, RaiseRange

FALSE_ALARM = 0.001
"""The chance that an honest player is flagged in a run, at most (Ville's bound)."""
BETS = (-0.5, -0.25, -0.125, -0.0625, 0.0625, 0.125, 0.25, 0.5)
"""The fractions of its wealth each test martingale bets per decision (both directions)."""
STATISTICS = ("fold", "call", "raise", "aggression")
TESTS = len(STATISTICS) * len(BETS)
"""The length of a player's log-wealth vector: one per (statistic, bet)."""

_KINDS = (ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE)


def increments(actions: Sequence[PolicyEntry], row: Sequence[float], taken: Action
               ) -> tuple[float, float, float, float]:
    """The four increments of a decision (see the module docstring), each of mean zero when
    ``taken`` is a draw from ``row``; ``taken`` has a positive probability in it.

    >>> uniform = (Action.fold(), Action.call(), Action.raise_to(4))
    >>> [round(x, 3) for x in increments(uniform, [1 / 3] * 3, Action.raise_to(4))]
    [-0.333, -0.333, 0.667, 0.333]
    """
    # at every decision AIVAT corrects: one pass, and no sort for rows already in order
    ranks = [_rank(entry) for entry in actions]
    order: Sequence[int] = range(len(ranks))
    if ranks != sorted(ranks):
        order = sorted(order, key=ranks.__getitem__)
    scale = 1.0 / sum(row)
    below = mid_rank = weight = 0.0
    kinds = [0.0, 0.0, 0.0]
    for j in order:
        entry, p = actions[j], row[j] * scale
        kinds[ranks[j][0]] += p
        if isinstance(entry, RaiseRange):
            share = p / entry.sizes if entry.contains(taken) else 0.0
        else:
            share = p if entry.kind is taken.kind and entry.amount == taken.amount else 0.0
        if share:
            mid_rank += share * (below + p / 2)
            weight += share
        below += p
    k = _KIND_INDEX[taken.kind]
    return ((k == 0) - kinds[0], (k == 1) - kinds[1], (k == 2) - kinds[2],
            mid_rank / weight - 0.5)


_KIND_INDEX = {kind: i for i, kind in enumerate(_KINDS)}


def _rank(entry: PolicyEntry) -> tuple[int, int, int]:
    """Where an entry stands on the aggression scale: fold, call, raises by size."""
    if isinstance(entry, RaiseRange):
        return 2, entry.low, entry.high
    amount = entry.amount or 0
    return _KIND_INDEX[entry.kind], amount, amount


def log_wealth(d: Sequence[float]) -> list[float]:
    """A decision's term of each test martingale's log: ``log(1 + bet * d)`` per (statistic,
    bet), statistics outer."""
    return [math.log1p(bet * x) for x in d for bet in BETS]


def log_wealth_sums(ds: Sequence[Sequence[float]]) -> np.ndarray:
    """:func:`log_wealth` summed over many decisions' increments, at array speed."""
    if len(ds) == 0:
        return np.zeros(TESTS)
    d = np.asarray(ds, dtype=np.float64)
    return np.log1p(d[:, :, None] * np.asarray(BETS)[None, None, :]).sum(axis=0).ravel()


def log_evidence(sums: Sequence[float] | np.ndarray) -> float:
    """The log of the mean of the test martingales whose logs are ``sums``: 0 for a player
    never tested, and what :func:`threshold` is compared with.

    >>> log_evidence([0.0] * TESTS)
    0.0
    """
    logs = np.asarray(sums, dtype=np.float64)
    top = float(logs.max())
    return top + math.log(float(np.exp(logs - top).mean()))


def threshold(tests: int, false_alarm: float = FALSE_ALARM) -> float:
    """The log evidence at which a player is flagged when ``tests`` players are tested
    together (every policy seat of a run, times a league's cells).

    >>> round(threshold(2), 3)
    7.601
    """
    return math.log(max(1, tests) / false_alarm)


def flagged(sums: Sequence[float] | np.ndarray, tests: int) -> bool:
    """Whether a player's play disagrees with its stated policy beyond chance."""
    return log_evidence(sums) >= threshold(tests)


class Watch:
    """The test as the run goes: per player the sums of the blocks finished so far, and a
    line the first time a player's evidence reaches the threshold (the summary says it again
    at the end, over every block)."""

    def __init__(self, names: Sequence[str]) -> None:
        self._names = list(names)
        self._sums = np.zeros((len(names), TESTS))
        self._told: set[str] = set()

    def add(self, block: int, sums: np.ndarray | None, policies: Sequence[bool]) -> list[str]:
        """Add one finished block's sums (``(players, TESTS)``, None without AIVAT); the
        lines for players flagged by it."""
        if sums is None or len(policies) != len(self._names):
            return []
        self._sums += sums
        bar = threshold(sum(policies))
        lines = []
        for p, name in enumerate(self._names):
            if policies[p] and name not in self._told and log_evidence(self._sums[p]) >= bar:
                self._told.add(name)
                lines.append(f"note: after block {block}, {name}'s actions disagree with its "
                             f"stated policy (honesty test): AIVAT's figures will be the "
                             f"chance-corrected ones")
        return lines

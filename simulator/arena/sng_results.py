"""What a field of sit-and-gos says per bot, each figure with its 95% interval.

Per bot: the share of each finishing place (a tie over places counts a share of each), the
average place, the in-the-money share (the share of paid places held), ROI (prize over buy-in,
less 1), the expected final chips and the expected prize.

**Intervals.** Student's t over independent units: a unit is a tournament, or with
``duplicate`` a duplicate set (the ``n`` seat rotations of one card sequence, which share
their cards and so are not independent of each other: the set's mean is the unit). Each
tournament builds fresh bots and draws its own cards, so units are independent and
identically distributed, and with hundreds of units the t interval's coverage is close to
95% for these bounded figures; a bootstrap would cost a resampling per figure and give the
same interval to the precision the figures are read at. A share that is 0 or 1 in every
unit has a zero-width interval (t cannot say more there).

**Duplicate's variance reduction** per bot: the variance of a single tournament's ROI over
all tournaments, against ``n`` times the variance of a set's mean ROI. Played as ``M``
independent tournaments, the mean's variance is ``var_1 / M``; played as ``M / n`` duplicate
sets it is ``var_set / (M / n)``; their ratio is the factor (above 1: duplicate needs that
many times fewer tournaments for the same interval).

>>> rows = [Row(0, 0, (1.0, 2.0), (2.0, 0.0), (20, 0)), Row(1, 0, (2.0, 1.0), (0.0, 2.0), (0, 20)),
...         Row(2, 0, (1.0, 2.0), (2.0, 0.0), (20, 0))]
>>> s = summarise(rows, ("a", "b"), buy_in=1.0, paid=1)
>>> round(s["bots"]["a"]["roi"]["mean"], 4), s["bots"]["a"]["places"][0]["mean"]
(0.3333, 0.6666666666666666)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulator.arena.stats import t975

METHOD = ("Student's t over independent units (a tournament; with duplicate, a set of seat "
          "rotations of one card sequence), 95% two-sided")


@dataclass(frozen=True)
class Row:
    """One tournament's outcome per entrant (config order)."""

    tournament: int
    rotation: int
    places: tuple[float, ...]
    prizes: tuple[float, ...]
    chips: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "rotation": self.rotation,
                "places": list(self.places), "prizes": list(self.prizes),
                "chips": list(self.chips)}


def interval(values: np.ndarray) -> dict[str, Any]:
    """Mean, standard error and t interval of independent ``values``."""
    n = len(values)
    mean = float(values.mean())
    if n < 2:
        return {"mean": mean, "stderr": None, "ci95": None, "units": n}
    se = float(values.std(ddof=1) / math.sqrt(n))
    half = t975(n - 1) * se
    return {"mean": mean, "stderr": se, "ci95": [mean - half, mean + half], "units": n}


def _shares(rows: Sequence[Row], e: int, n: int) -> np.ndarray:
    out = np.zeros((len(rows), n))
    for i, row in enumerate(rows):
        p = row.places[e]
        m = sum(1 for q in row.places if q == p)
        first = round(p - (m - 1) / 2)
        out[i, first - 1:first - 1 + m] = 1.0 / m
    return out


def _units(values: np.ndarray, rows: Sequence[Row]) -> np.ndarray:
    """Per unit (a tournament, or its duplicate set), the mean of ``values`` (rows first)."""
    keys = sorted({r.tournament for r in rows})
    index = {k: i for i, k in enumerate(keys)}
    sums = np.zeros((len(keys), *values.shape[1:]))
    counts = np.zeros(len(keys))
    for row, v in zip(rows, values, strict=True):
        sums[index[row.tournament]] += v
        counts[index[row.tournament]] += 1
    return sums / counts.reshape(-1, *([1] * (values.ndim - 1)))


def summarise(rows: Sequence[Row], names: Sequence[str], *, buy_in: float, paid: int
              ) -> dict[str, Any]:
    """The per-bot figures of ``rows`` (see the module doc), as summary.json has them."""
    n = len(names)
    rows = sorted(rows, key=lambda r: (r.tournament, r.rotation))
    bots: dict[str, Any] = {}
    rois: dict[str, np.ndarray] = {}
    for e, name in enumerate(names):
        shares = _shares(rows, e, n)
        places = np.array([r.places[e] for r in rows])
        prize = np.array([r.prizes[e] for r in rows])
        roi = prize / buy_in - 1.0
        rois[name] = roi
        unit = _units(np.column_stack([places, shares[:, :paid].sum(axis=1), roi,
                                       [r.chips[e] for r in rows], prize, shares]), rows)
        bots[name] = {
            "places": [interval(unit[:, 5 + k]) for k in range(n)],
            "average_place": interval(unit[:, 0]), "in_the_money": interval(unit[:, 1]),
            "roi": interval(unit[:, 2]), "chips": interval(unit[:, 3]),
            "prize": interval(unit[:, 4]),
        }
    out: dict[str, Any] = {"method": METHOD, "tournaments": len(rows),
                           "units": len({r.tournament for r in rows}), "bots": bots}
    ranked = sorted(names, key=lambda b: -bots[b]["roi"]["mean"])
    if len(ranked) >= 2:
        best, second = ranked[0], ranked[1]
        diff = _units((rois[best] - rois[second]).reshape(-1, 1), rows)[:, 0]
        out["best_vs_second"] = {"best": best, "second": second, "roi_difference":
                                 interval(diff)}
    if len({r.rotation for r in rows}) > 1:
        out["duplicate_variance_reduction"] = {
            name: _reduction(rois[name], rows) for name in names}
    return out


def _reduction(roi: np.ndarray, rows: Sequence[Row]) -> float | None:
    """Var of one tournament's ROI over n times the var of a duplicate set's mean."""
    sets = _units(roi.reshape(-1, 1), rows)[:, 0]
    rotations = len(rows) / len(sets)
    if len(sets) < 2 or len(roi) < 2:
        return None
    per_set = float(sets.var(ddof=1)) * rotations
    return None if per_set == 0 else float(roi.var(ddof=1)) / per_set

"""Weight arrays: what an opponent may hold, re-weighted after each of its actions.

Each opponent has 1326 weights, 1 at the start of a hand and 0 on holdings that clash with
our cards or the board. After an action (a fold is not re-weighted: the player is out) they
are multiplied by a factor of the holding's value ``v`` (IR7 pre-flop, EHS' after the flop),
with a floor of 0.01 (see below):

* **Threshold (Loki-1).** ``mu`` is the value above which the live holdings, weighted by
  their current weights, hold the fraction ``f`` of the mass, where ``f`` is the frequency of
  the observed action or a stronger one (a raise: P(raise); a call: P(call) + P(raise)).
  Factor: 0.01 below ``mu - sigma``, 1 above ``mu + sigma``, else ``(v - mu + sigma) /
  (2 sigma)``. Pre-flop a threshold below the 5th percentile of the values is skipped.
* **Probability triple (Loki-2).** The factor is the probability that a player would take
  the observed action with that holding. Without the player's own strategy, a generic triple
  stands in (proposed here): with the context's frequencies ``(pf, pc, pr)`` and the same
  weighted quantiles as the threshold method, ``q_r`` has mass ``pr`` above it and ``q_f``
  mass ``pf`` below it, and with a spread ``s``

      raise(v) = L((v - q_r) / s),  fold(v) = (1 - raise(v)) * L((q_f - v) / s),
      call(v) = 1 - raise(v) - fold(v),   L(x) = 1 / (1 + exp(-x)),

  so strong holdings raise, weak ones fold (never when ``pf`` is 0: checking is free), and
  the rest call, in about the proportions the frequencies say.
* **Both** (``passive_triple``, the default): the triple for checks and calls,
  the threshold for raises.

**The floor** keeps every live holding possible. Papp (1998, section 7.2) floors the weight,
``max(floor, w * factor)``. Floored on the factor instead, ``w * max(floor, factor)``
(``floor_on: factor``, the default), it is the chance that a player takes an action its model
says it never takes, and a holding that two actions rule out weighs 0.01 x 0.01 of one they
both fit. A weight floor holds every holding at 1% of a fully plausible one however much the
hand has said; once a few checks and calls (whose triple chances are below 1) have thinned
the plausible holdings too, the floored ones weigh more than that against them.

**Snapshot rule.** Each round starts from a snapshot of the weights. An opponent's first
action of the round re-weights from the snapshot; a later, more aggressive action of the same
opponent in that round (a raise: every later raise faces more bets than the earlier action)
re-weights again from the same snapshot, so a round is never counted twice.

>>> v = np.array([0.35, 0.45, 0.60, 0.75, 0.85])
>>> threshold_factors(v, 0.6, 0.2).round(12).tolist()  # the worked test vector
[0.01, 0.125, 0.5, 0.875, 1.0]
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from agent.modeller.params import Frequencies
from agent.strength.values import ValueLevels
from simulator import ActionKind
from simulator.core.frozen import quick_init

FLOOR = 0.01
KIND_ROW = {ActionKind.FOLD: 0, ActionKind.CALL: 1, ActionKind.RAISE: 2}


# --- scalar pieces, shared by the array functions and the kernels ---------------------------


@numba.njit(cache=True, nogil=True)
def _factor(v: float, mu: float, sigma: float, floor: float) -> float:
    if v < mu - sigma:
        return floor
    return min(1.0, (v - mu + sigma) / (2.0 * sigma))


@numba.njit(cache=True, nogil=True)
def _logistic(x: float) -> float:
    return 1.0 / (1.0 + np.exp(-min(max(x, -50.0), 50.0)))


@numba.njit(cache=True, nogil=True)
def _triple_row(v: float, q_raise: float, q_fold: float, folds: bool, spread: float,
                row: int) -> float:
    """P(fold), P(call) or P(raise) (``row`` 0, 1, 2) of a holding of value ``v``."""
    raise_p = _logistic((v - q_raise) / spread)
    fold_p = (1.0 - raise_p) * _logistic((q_fold - v) / spread) if folds else 0.0
    if row == 2:
        return raise_p
    if row == 0:
        return fold_p
    return 1.0 - raise_p - fold_p


@numba.njit(cache=True, nogil=True)
def _floored(w: float, factor: float, floor: float, on_factor: bool) -> float:
    """A weight after an action of chance (or factor) ``factor``: ``w * max(floor, factor)``
    on the factor, ``max(floor, w * factor)`` on the weight; 0 stays 0."""
    if w <= 0.0:
        return 0.0
    if on_factor:
        return w * max(floor, factor)
    return max(floor, w * factor)


@numba.njit(cache=True, nogil=True)
def _quantiles(values: np.ndarray, order: np.ndarray, w: np.ndarray, a: float, b: float
               ) -> tuple[float, float]:
    """The values above which the weighted mass reaches the fractions ``a`` and ``b``.

    Walks the holdings from the highest value down; the first holding where the running
    mass reaches ``fraction * total`` gives the value (the last one if rounding never does).
    """
    total = 0.0
    for i in range(order.shape[0]):
        total += w[order[i]]
    a = min(max(a, 0.0), 1.0) * total
    b = min(max(b, 0.0), 1.0) * total
    last = values[order[order.shape[0] - 1]]
    qa, qb = last, last
    found_a, found_b = False, False
    cum = 0.0
    for i in range(order.shape[0]):
        cum += w[order[i]]
        if not found_a and cum >= a:
            qa, found_a = values[order[i]], True
        if not found_b and cum >= b:
            qb, found_b = values[order[i]], True
        if found_a and found_b:
            break
    return qa, qb


@numba.njit(cache=True, nogil=True)
def _threshold_kernel(w: np.ndarray, values: np.ndarray, order: np.ndarray, fraction: float,
                      sigma: float, floor: float, skip_below: float, on_factor: bool,
                      out: np.ndarray) -> bool:
    mu = _quantiles(values, order, w, fraction, fraction)[0]
    if mu < skip_below:
        return False
    for h in range(w.shape[0]):
        out[h] = _floored(w[h], _factor(values[h], mu, sigma, floor), floor, on_factor)
    return True


@numba.njit(cache=True, nogil=True)
def _triple_kernel(w: np.ndarray, values: np.ndarray, order: np.ndarray, levels: np.ndarray,
                   level_of: np.ndarray, fold: float, raise_: float, spread: float, row: int,
                   floor: float, on_factor: bool, out: np.ndarray) -> None:
    """The triple's re-weighting, each distinct value's chance computed once: ``levels``
    are the distinct values and ``level_of[h]`` the level of ``values[h]`` (pre-flop's 1326
    income rates take 169 levels; a value's chance is the same float however often it is
    computed)."""
    q_raise, q_fold = _quantiles(values, order, w, raise_, 1.0 - fold)
    chance = np.empty(levels.shape[0])
    for k in range(levels.shape[0]):
        chance[k] = _triple_row(levels[k], q_raise, q_fold, fold > 0, spread, row)
    for h in range(w.shape[0]):
        out[h] = _floored(w[h], chance[level_of[h]], floor, on_factor)


# --- the functions ----------------------------------------------------------------------------


def threshold_factors(values: np.ndarray, mu: float, sigma: float,
                      floor: float = FLOOR) -> np.ndarray:
    """Loki-1's factors: ``floor`` below ``mu - sigma``, 1 above ``mu + sigma``, linear between."""
    return np.array([_factor(float(v), mu, sigma, floor) for v in np.asarray(values, float)])


def quantile_above(values: np.ndarray, order: np.ndarray, weights: np.ndarray,
                   fraction: float) -> float:
    """The value above which the holdings hold ``fraction`` of the weighted mass.

    ``order`` lists the holdings from the highest value down (the live ones at least).

    >>> quantile_above(np.array([0.1, 0.9, 0.5, 0.3]), np.array([1, 2, 3, 0]),
    ...                np.array([1.0, 1.0, 2.0, 0.0]), 0.5)
    0.5
    """
    return float(_quantiles(np.asarray(values, float), np.asarray(order, np.int64),
                            np.asarray(weights, float), fraction, fraction)[0])


def _read_only(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def reweight_threshold(weights: np.ndarray, values: np.ndarray, order: np.ndarray,
                       fraction: float, sigma: float, floor: float = FLOOR,
                       skip_below: float | None = None, on_factor: bool = False
                       ) -> np.ndarray:
    """Loki-1: ``max(floor, w * factor)`` (``on_factor``: ``w * max(floor, factor)``) after an
    action whose (or a stronger action's) frequency is ``fraction``; holdings weighing 0 stay
    0. Returns ``weights`` itself when ``mu`` falls below ``skip_below`` (pre-flop's 5th
    percentile: an action nearly everyone takes says nothing)."""
    out = np.empty(len(weights))
    skip = -np.inf if skip_below is None else skip_below
    if not _threshold_kernel(weights, values, order, fraction, sigma, floor, skip, on_factor,
                             out):
        return weights
    return _read_only(out)


def generic_triple(values: np.ndarray, order: np.ndarray, weights: np.ndarray,
                   freqs: Frequencies, spread: float) -> np.ndarray:
    """The generic probability triple of every holding: shape (3, n), fold/call/raise.

    >>> v = np.linspace(0, 1, 11)
    >>> t = generic_triple(v, np.argsort(-v), np.ones(11), (0.5, 0.3, 0.2), 0.05)
    >>> bool(t[2, -1] > 0.8 and t[0, 0] > 0.8), np.allclose(t.sum(axis=0), 1)
    (True, True)
    """
    pf, _, pr = freqs
    q_raise, q_fold = _quantiles(np.asarray(values, float), np.asarray(order, np.int64),
                                 np.asarray(weights, float), pr, 1.0 - pf)
    return np.array([[_triple_row(float(v), q_raise, q_fold, pf > 0, spread, row)
                      for v in values] for row in range(3)])


def reweight_triple(weights: np.ndarray, values: np.ndarray, order: np.ndarray,
                    freqs: Frequencies, kind: ActionKind, spread: float,
                    floor: float = FLOOR, on_factor: bool = False,
                    levels: ValueLevels | None = None) -> np.ndarray:
    """Loki-2 with the generic triple: ``max(floor, w * P(kind | value))`` (``on_factor``:
    ``w * max(floor, P(kind | value))``); 0 stays 0. ``levels`` are those of ``values``
    (:class:`ValueLevels`, which a board's values and the modeller's pre-flop table keep);
    without them they are found here, at the cost of a sort."""
    if levels is None:
        levels = ValueLevels.along(values, np.argsort(-np.asarray(values), kind="stable"))
    out = np.empty(len(weights))
    _triple_kernel(weights, values, order, levels.levels, levels.level_of, freqs[0], freqs[2],
                   spread, KIND_ROW[kind], floor, on_factor, out)
    return _read_only(out)


@quick_init
@dataclass(frozen=True, slots=True)
class OpponentWeights:
    """One opponent's weights in one hand, with the round's snapshot (see the module doc);
    immutable: each change returns a new record.

    >>> dead = np.zeros(4, dtype=bool); dead[0] = True
    >>> ow = OpponentWeights.fresh(dead)
    >>> ow.weights.tolist(), ow.wants(ActionKind.CALL)
    ([0.0, 1.0, 1.0, 1.0], True)
    >>> ow2 = ow.update(np.array([0.0, 0.5, 1.0, 1.0]), ActionKind.CALL)
    >>> ow2.wants(ActionKind.CALL), ow2.wants(ActionKind.RAISE), ow2.snapshot.tolist()
    (False, True, [0.0, 1.0, 1.0, 1.0])
    >>> ow.wants(ActionKind.CALL)  # the record it came from is unchanged
    True
    """

    weights: np.ndarray
    snapshot: np.ndarray
    used: ActionKind | None = None

    @classmethod
    def fresh(cls, dead: np.ndarray) -> OpponentWeights:
        w = _read_only(np.where(dead, 0.0, 1.0))
        return cls(w, w)

    def new_round(self, dead: np.ndarray) -> OpponentWeights:
        """Zero the holdings that clash with the known cards and take the snapshot."""
        # one pass (a copy and a masked store took two); the same values
        w = _read_only(np.where(dead, 0.0, self.weights))
        return OpponentWeights(w, w)

    def wants(self, kind: ActionKind) -> bool:
        """Whether an action of this kind re-weights (from the snapshot) now."""
        if kind is ActionKind.FOLD:
            return False
        return self.used is None or kind is ActionKind.RAISE

    def update(self, weights: np.ndarray, kind: ActionKind) -> OpponentWeights:
        return OpponentWeights(weights, self.snapshot, kind)

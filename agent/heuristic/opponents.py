"""How each live opponent stands at a decision: its range, how far we trust it, and how it
answers a bet or a check of ours. Built once per decision, for every holding asked about.

An :class:`OpponentView` holds, for one live opponent:

* ``weights``: its weights mixed with the uniform range by our ``trust`` in them
  (:func:`agent.heuristic.trust.mixed`), over the holdings the board leaves it; our own cards are
  left out later, per holding asked about;
* ``weak``: per holding asked about, the share of that range (without the holdings that
  share a card with ours) whose value (EHS' against anyone) is below ``fold_value``: the
  part that may fold to a bet;
* ``bet_trust``: our trust in its range after its bets (:mod:`agent.heuristic.trust`, the bet line),
  what its bets to come tell of its cards;
* ``bet`` and ``check``: its action frequencies in the context our bet or raise would leave
  it in, and in its context now (:mod:`agent.modeller.tracker`). Facing our bet it folds at
  most its weak share: a range the modeller has narrowed to strong hands by its bets does
  not fold, whatever the generic rates say; the rest of its answers keep their proportions.

>>> import numpy as np
>>> from simulator.core.cards import parse_holding
>>> weak = np.zeros(1326, dtype=bool); weak[:663] = True  # the first half of the holdings
>>> shares = weak_shares(np.ones(1326), weak, np.array([parse_holding("2c2d"),
...                                                      parse_holding("AsAh")]))
>>> [round(float(x), 3) for x in shares]  # a low pair blocks some of the weak holdings
[0.459, 0.517]
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from agent.heuristic.e_value import OpponentTendency, Values
from agent.strength.numpy_sums import pairwise_sum
from simulator.core.board_ranks import HOLD_A, HOLD_B
from simulator.core.equity import free_masses_into
from simulator.core.frozen import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class OpponentView:
    """One live opponent at one decision (see the module docstring)."""

    seat: int
    weights: np.ndarray
    trust: float
    weak: np.ndarray
    bet: OpponentTendency
    check: OpponentTendency
    bet_trust: float


def weak_shares(weights: np.ndarray, weak: np.ndarray, holdings: np.ndarray) -> np.ndarray:
    """Per holding, the share of ``weights`` on ``weak`` holdings once the holdings sharing a
    card with it are left out (0 when nothing is left). ``weights`` is one range (1326,) or
    one per row; the shares are then one row per range (every range's masses in one pass:
    each is the sum it was alone)."""
    w = np.ascontiguousarray(np.atleast_2d(weights), dtype=np.float64)
    asked = np.asarray(holdings, dtype=np.int64).reshape(-1)
    shares = np.empty((w.shape[0], asked.shape[0]))
    _weak_shares(w, np.asarray(weak, dtype=np.bool_), asked, HOLD_A, HOLD_B, shares)
    return shares if np.ndim(weights) == 2 else shares[0]


@numba.njit(cache=True, nogil=True)
def _weak_shares(w: np.ndarray, weak: np.ndarray, holdings: np.ndarray, hold_a: np.ndarray,
                 hold_b: np.ndarray, out: np.ndarray) -> None:
    """:func:`weak_shares` into ``out`` (ranges x holdings): each range and its weak part as
    rows, their totals as numpy sums them (pairwise), the free masses as
    :func:`simulator.core.equity.free_masses` takes them, and ``ratio``'s 0 where nothing
    is left: the numpy form's floats, in one call instead of a dozen array calls."""
    k, n = w.shape
    both = np.empty((2 * k, n))
    totals = np.empty(2 * k)
    for j in range(k):
        for i in range(n):
            both[2 * j, i] = w[j, i]
            both[2 * j + 1, i] = w[j, i] if weak[i] else 0.0
        totals[2 * j] = pairwise_sum(both[2 * j], 0, n)
        totals[2 * j + 1] = pairwise_sum(both[2 * j + 1], 0, n)
    masses = np.empty((holdings.shape[0], 2 * k))
    free_masses_into(both, totals, holdings, hold_a, hold_b, masses)
    for j in range(k):
        for i in range(holdings.shape[0]):
            free = masses[i, 2 * j]
            out[j, i] = masses[i, 2 * j + 1] / free if free > 1e-12 else 0.0


def facing_our_bet(frequencies: tuple[float, float, float], weak: Values) -> OpponentTendency:
    """An opponent's answer to our bet or raise: its frequencies with the fold rate capped by
    its weak share (per holding), the call and raise rates scaled to fill the rest.

    >>> t = facing_our_bet((0.6, 0.3, 0.1), np.array([0.2, 0.9]))
    >>> t.fold.tolist(), [round(x, 3) for x in t.call.tolist()]
    ([0.2, 0.6], [0.6, 0.3])
    """
    fold, call, raise_ = frequencies
    shares = np.asarray(weak, dtype=np.float64)
    out = np.empty((3, *shares.shape))
    _facing(float(fold), float(call), float(raise_), shares.reshape(-1), out.reshape(3, -1))
    return OpponentTendency(out[0], out[1], out[2])


@numba.njit(cache=True, nogil=True)
def _facing(fold: float, call: float, raise_: float, weak: np.ndarray, out: np.ndarray
            ) -> None:
    """:func:`facing_our_bet` into ``out`` (fold, call, raise rows): the numpy form
    ``keep = where(fold > weak, (1 - weak) / (call + raise) or 0, 1)``, one holding at a time
    with the same float operations, instead of seven array calls per opponent and answer."""
    rest = call + raise_
    for i in range(weak.shape[0]):
        capped = fold > weak[i]
        keep = ((1.0 - weak[i]) / rest if rest > 0 else 0.0) if capped else 1.0
        out[0, i] = weak[i] if capped else fold
        out[1, i] = call * keep
        out[2, i] = raise_ * keep

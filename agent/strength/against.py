"""Our strength against the live opponents' own weight arrays, for one decision.

With one weight array per opponent, HS against the table is the product of the HS against
each (HS_n with per-opponent weights), and the potential is taken
against Loki's field array (each opponent's weights normalised, then averaged), which costs
one hand-potential pass however many opponents there are. EHS and EHS' follow from those.

``restricted`` gives the strength against only the stronger part of each range, the hands
that would call a bet (the rest fold): see :func:`top_share`.

>>> import numpy as np
>>> from simulator.core.cards import parse_cards
>>> s = strength_against(parse_cards("AdQc"), parse_cards("3h4cJh"), [np.ones(1326)])
>>> round(s.hs_n, 6), round(s.ppot, 6), round(s.ehs, 6)
(0.585106, 0.108312, 0.544969)
>>> s2 = strength_against(parse_cards("AdQc"), parse_cards("3h4cJh"), [np.ones(1326)] * 2)
>>> round(s2.hs_n, 6) == round(0.585106 ** 2, 6)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np

from agent.strength.board_table import board_table
from agent.strength.ehs import EHS, ehs_formulas, hs_from_sums, potentials_from_hp
from agent.strength.errors import RangeError
from agent.strength.numpy_sums import pairwise_sum
from simulator.core.cards import HOLDING_INDEX, NUM_HOLDINGS


@dataclass(frozen=True)
class TableStrength:
    """Our strength against every live opponent at once (weights per opponent)."""

    hs: tuple[float, ...]  # against each opponent
    hs_n: float  # the product: we must beat them all
    ppot: float  # against the field array
    npot: float
    ehs: float
    ehs_optimistic: float

    def as_ehs(self) -> EHS:
        return EHS(self.ehs, self.ehs_optimistic, float(np.mean(self.hs)), self.hs_n,
                   self.ppot, self.npot, len(self.hs))


@numba.njit(cache=True, nogil=True)
def _field_kernel(live: np.ndarray, totals: np.ndarray, out: np.ndarray) -> None:
    """Loki's field array, as ``sum(w / total for each opponent) / opponents`` in numpy."""
    k = live.shape[0]
    for h in range(live.shape[1]):
        f = 0.0
        for j in range(k):
            f += live[j, h] / totals[j]
        out[h] = f / k


def strength_against(hole: Sequence[int], board: Sequence[int],
                     weights: Sequence[np.ndarray], lookahead: int = 1) -> TableStrength:
    """HS per opponent, HS_n, and PPOT/NPOT against the field, with ``lookahead`` cards
    (capped by the cards to come; none on the river)."""
    if not len(weights):
        raise RangeError("strength_against needs the weights of at least one opponent")
    table = board_table(board)
    hero = int(HOLDING_INDEX[hole[0], hole[1]])
    live, totals, sums = table.per_opponent(hero, weights)
    hs = tuple(hs_from_sums(*row) for row in sums.tolist())
    hs_n = float(np.prod(hs))
    look = min(lookahead, table.cards_to_come)
    ppot = npot = 0.0
    if look:
        field = np.empty(NUM_HOLDINGS)
        _field_kernel(live, totals, field)
        ppot, npot = potentials_from_hp(table.hp_matrix(hero, field, look))
    ehs, ehs_opt = ehs_formulas(hs_n, ppot, npot)
    return TableStrength(hs, hs_n, ppot, npot, ehs, ehs_opt)


def top_share(weights: np.ndarray, order: np.ndarray, keep: float) -> np.ndarray:
    """The weights of the strongest holdings that hold the share ``keep`` of the weight mass;
    the rest set to 0. ``order`` lists the holdings from the strongest down (holdings not in
    it weigh 0). The boundary holding keeps the fraction that fills the share exactly.

    >>> w = np.array([1.0, 1.0, 1.0, 1.0]); by_value = np.array([1, 3, 2, 0])
    >>> top_share(w, by_value, 0.5).tolist()
    [0.0, 1.0, 0.0, 1.0]
    >>> top_share(w, by_value, 0.625).tolist()
    [0.0, 1.0, 0.5, 1.0]
    """
    keep = min(max(keep, 0.0), 1.0)
    out = np.zeros(len(weights))
    _top_share_kernel(np.asarray(weights, dtype=np.float64), np.asarray(order, dtype=np.int64),
                      keep, out)
    return out


@numba.njit(cache=True, nogil=True)
def _top_share_kernel(weights: np.ndarray, order: np.ndarray, keep: float,
                      out: np.ndarray) -> None:
    """``out[order]``: ``clip(keep * total - (cumsum - mass), 0, mass)`` of the masses in
    ``order``, with numpy's sum and clip, so the floats are those of the numpy expression."""
    m = order.shape[0]
    mass = np.empty(m)
    for i in range(m):
        mass[i] = weights[order[i]]
    total = pairwise_sum(mass, 0, m)
    if not total > 0:
        return
    cum = 0.0
    for i in range(m):
        cum += mass[i]
        x = keep * total - (cum - mass[i])
        x = x if x > 0.0 else 0.0
        out[order[i]] = x if x < mass[i] else mass[i]


def hs_against(hole: Sequence[int], board: Sequence[int],
               weights: Sequence[np.ndarray]) -> float:
    """HS_n only (the product over opponents), for ranges narrowed to their callers."""
    table = board_table(board)
    hero = int(HOLDING_INDEX[hole[0], hole[1]])
    sums = table.per_opponent(hero, weights)[2]
    return float(np.prod([hs_from_sums(*row) for row in sums.tolist()]))

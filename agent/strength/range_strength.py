"""Every holding's strength against the live opponents' ranges at once: what a policy needs.

For each holding h asked about, as :mod:`agent.strength.against` defines it for one hand:

* ``hs[:, j]``: HS against opponent j's weights, the holdings that share a card with h or
  the board left out (an opponent whose every holding is ruled out plays a uniform range);
* ``hs_n``: their product, the chance to beat every opponent;
* ``ppot`` and ``npot``: Papp's potentials against Loki's field array, each opponent's
  weights normalised over the holdings h leaves it and averaged, with ``lookahead`` cards;
* ``ehs = hs_n (1 - npot) + (1 - hs_n) ppot`` and ``ehs_optimistic = hs_n + (1 - hs_n) ppot``.

The field array depends on h only through each opponent's normalising mass, so the
potentials are per-opponent sums (:func:`agent.strength.sweeps.potential_sums`) combined per
holding. With ``r`` the rank now, ``f`` at the end of a runout, and ``m`` the runouts free of
both holdings' cards, summed over the runouts (``a1``, ``a2``, ``f_lt``, ``f_le`` as in the
sweeps module; ``ahead``, ``tied``, ``behind`` the weighted sums now):

    PPOT = (a1 + a2) / 2 / (m * (behind + tied / 2))
    NPOT = (f_lt + f_le + a1 + a2 - m * (2 * behind + tied)) / 2 / (m * (ahead + tied / 2))

which are Papp's ``(HP[B][A] + HP[B][T]/2 + HP[T][A]/2) / (HPtotal[B] + HPtotal[T]/2)`` and
its NPOT twin, since ``sum w[r_o >= r][f_o < f] = f_lt - (m behind - a2)`` and ``sum
w[r_o > r][f_o <= f] = f_le - (m (behind + tied) - a1)``.

>>> from simulator.core.cards import parse_cards, parse_holding
>>> s = range_strength(parse_cards("3h4cJh"), np.ones((1, 1326)), [parse_holding("AdQc")])
>>> round(float(s.hs_n[0]), 6), round(float(s.ppot[0]), 6), round(float(s.ehs[0]), 6)
(0.585106, 0.108312, 0.544969)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

import numba
import numpy as np

from agent.strength.board_table import BoardTable, board_table
from agent.strength.errors import RangeError
from agent.strength.sweeps import FEW, now_few, now_sums, potential_sums, top_sums
from simulator.core.board_ranks import HOLD_A, HOLD_B, board_ranks
from simulator.core.cards import NUM_HOLDINGS
from simulator.core.frozen import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class RangeStrength:
    """Strength of each holding asked about (arrays over those holdings; see the module)."""

    holdings: np.ndarray
    hs: np.ndarray  # (n, opponents)
    hs_n: np.ndarray
    ppot: np.ndarray
    npot: np.ndarray
    ehs: np.ndarray
    ehs_optimistic: np.ndarray
    sums: np.ndarray  # (opponents, 3, n): weights we are ahead of, tied with, behind now
    weights: np.ndarray  # (opponents, 1326): the ranges, 0 where a holding meets the board


def _weights(weights: np.ndarray | Sequence[np.ndarray]) -> np.ndarray:
    try:
        w = np.asarray(weights, dtype=np.float64)
    except ValueError:  # arrays of different lengths
        w = np.empty(0)
    if w.ndim != 2 or w.shape[0] < 1 or w.shape[1] != NUM_HOLDINGS:
        raise RangeError(f"bad weights: expected one array of {NUM_HOLDINGS} weights per "
                         f"opponent, got shape {w.shape}")
    return w


def range_strength(board: Sequence[int], weights: np.ndarray | Sequence[np.ndarray],
                   holdings: Sequence[int] | np.ndarray, lookahead: int = 1) -> RangeStrength:
    """Strength of each holding (indices) against one weight array per live opponent."""
    table = board_table(board)
    ranks = table.ranks
    w = np.where(table.live, _weights(weights), 0.0)
    asked = np.asarray(holdings, dtype=np.int64).reshape(-1)
    k, n = w.shape[0], asked.shape[0]
    sums = np.empty((k, 3, n))
    for j in range(k):
        sums[j] = now_sums(ranks, w[j], asked)
    # a range's sums are 0 only where every one of its holdings is ruled out, in any order
    empty = sums.sum(axis=1) <= 0
    if empty.any():  # every holding of that range ruled out: a uniform range instead
        for j in np.flatnonzero(empty.any(axis=1)).tolist():
            sums[j][:, empty[j]] = now_sums(ranks, table.uniform, asked[empty[j]])
    look = min(lookahead, table.cards_to_come)
    ppot = npot = np.zeros(n)
    if look:
        ppot, npot = _potentials(table, w, asked, sums, empty, look)
    hs = np.empty((n, k))
    parts = np.empty((3, n))
    _strengths(sums, ppot, npot, hs, parts)
    hs_n, ehs, ehs_optimistic = parts
    return RangeStrength(asked, hs, hs_n, ppot, npot, ehs, ehs_optimistic, sums, w)


@numba.njit(cache=True, nogil=True)
def _strengths(sums: np.ndarray, ppot: np.ndarray, npot: np.ndarray, hs: np.ndarray,
               parts: np.ndarray) -> None:
    """``hs`` (n, k) and ``parts`` (HS_n, EHS, EHS') from the sums now and the potentials:
    the numpy expressions they replaced (``ratio(ahead + tied / 2, mass)``, their product
    over the opponents in order, the EHS formulas), one holding at a time with the same float
    operations in the same order, without a dozen array calls per decision."""
    for i in range(sums.shape[2]):
        hs_n = 1.0  # times the first HS is that HS exactly, as numpy's product starts
        for j in range(sums.shape[0]):
            ahead, tied, behind = sums[j, 0, i], sums[j, 1, i], sums[j, 2, i]
            mass = ahead + tied + behind
            hs[i, j] = (ahead + tied / 2) / mass if mass > 0 else 0.0
            hs_n = hs_n * hs[i, j]
        parts[0, i] = hs_n
        parts[1, i] = hs_n * (1 - npot[i]) + (1 - hs_n) * ppot[i]
        parts[2, i] = hs_n + (1 - hs_n) * ppot[i]


def _potentials(table: BoardTable, w: np.ndarray, asked: np.ndarray, sums: np.ndarray,
                empty: np.ndarray, look: int) -> tuple[np.ndarray, np.ndarray]:
    ranks = table.ranks
    fin = table.future(look)[1]
    # a sweep over every holding walks each runout in rank order; a few holdings do not
    orders = board_ranks(table.board).orders(look) if asked.shape[0] > FEW else None
    every = potential_sums(ranks, fin, w, asked, orders)
    for j in np.flatnonzero(empty.any(axis=1)).tolist():
        every[j][:, empty[j]] = potential_sums(ranks, fin, table.uniform, asked[empty[j]],
                                               orders)
    out = np.empty((2, asked.shape[0]))
    _field_potentials(sums, every, comb(52 - len(table.board) - 4, look), out)
    return out[0], out[1]


@numba.njit(cache=True, nogil=True)
def _field_potentials(sums: np.ndarray, every: np.ndarray, m: int, out: np.ndarray) -> None:
    """PPOT and NPOT (``out`` rows) against the field from each opponent's sums now
    (``sums``, (k, 3, n)) and over the runouts (``every``, (k, 4, n)), each opponent scaled by
    ``1 / (k * mass)``: the numpy expressions they replaced, one holding at a time with the
    same float operations in the same order (opponents added in turn from 0)."""
    k = sums.shape[0]
    for i in range(sums.shape[2]):
        f0 = f1 = f2 = f3 = 0.0
        ahead = tied = behind = 0.0
        for j in range(k):
            mass = sums[j, 0, i] + sums[j, 1, i] + sums[j, 2, i]
            scale = 1.0 / (k * mass) if k * mass > 0 else 0.0
            f0 += every[j, 0, i] * scale
            f1 += every[j, 1, i] * scale
            f2 += every[j, 2, i] * scale
            f3 += every[j, 3, i] * scale
            ahead += sums[j, 0, i] * scale
            tied += sums[j, 1, i] * scale
            behind += sums[j, 2, i] * scale
        den = m * (behind + tied / 2)
        out[0, i] = (f0 + f1) / 2 / den if den > 0 else 0.0
        den = m * (ahead + tied / 2)
        out[1, i] = (f2 + f3 + f0 + f1 - m * (2 * behind + tied)) / 2 / den if den > 0 else 0.0


def hs_against_tops(board: Sequence[int], by_value: np.ndarray, strength: RangeStrength,
                    keep: np.ndarray, trust: Sequence[float]) -> np.ndarray:
    """HS_n of each holding against only the strongest ``keep[j, i]`` share of each range
    that ``strength`` was measured against (the hands that call or re-raise a bet), the
    trusted part of it from the top of the range in value order (``by_value``) and the rest
    evenly: ``trust * top + (1 - trust) * keep * weights``. Shape (n,)."""
    ranks = board_table(board).ranks
    w = strength.weights
    asked = strength.holdings
    hs = np.ones(asked.shape[0])
    for j in range(w.shape[0]):
        top = top_sums(ranks, w[j], by_value, asked, keep[j])
        _times_mixed_hs(top, strength.sums[j], float(trust[j]),
                        np.asarray(keep[j], dtype=np.float64), ranks, asked, HOLD_A, HOLD_B,
                        hs)
    return hs


@numba.njit(cache=True, nogil=True)
def _times_mixed_hs(top: np.ndarray, sums: np.ndarray, a: float, keep: np.ndarray,
                    ranks: np.ndarray, asked: np.ndarray, hold_a: np.ndarray,
                    hold_b: np.ndarray, hs: np.ndarray) -> None:
    """``hs[i] *=`` the HS of ``asked[i]`` against one range's mix (trust ``a``) of its top
    (``top``: ahead, tied, kept) and of ``keep`` of its whole (``sums``: ahead, tied,
    behind), as :func:`hs_against_tops` defines it: the numpy expressions it replaced, one
    holding at a time, with the same float operations in the same order (``np.clip``'s
    comparisons, ``ratio``'s 0 where nothing is left), without a dozen array calls per
    opponent. Nobody left to call: HS against a uniform range instead, whose sums are whole
    numbers (exact in any order)."""
    rest = 1 - a
    one = np.empty(1, dtype=np.int64)
    uniform = np.empty(0)
    for i in range(asked.shape[0]):
        k = keep[i]
        if k == k:  # np.clip(k, 0, 1); NaN stays NaN
            k = k if k > 0.0 else 0.0
            k = k if k < 1.0 else 1.0
        ahead, tied, behind = sums[0, i], sums[1, i], sums[2, i]
        mix_ahead = a * top[0, i] + rest * k * ahead
        mix_tied = a * top[1, i] + rest * k * tied
        total = a * top[2, i] + rest * k * (ahead + tied + behind)
        if total <= 0:
            if uniform.shape[0] == 0:
                uniform = (ranks > 0).astype(np.float64)
            u = np.zeros((3, 1))
            one[0] = asked[i]
            now_few(ranks, uniform, hold_a, hold_b, one, u)
            mix_ahead, mix_tied, total = u[0, 0], u[1, 0], u[0, 0] + u[1, 0] + u[2, 0]
        hs[i] = hs[i] * ((mix_ahead + mix_tied / 2) / total if total > 0 else 0.0)

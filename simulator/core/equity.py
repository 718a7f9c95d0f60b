"""Exact showdown equity against a weighted range, for one holding or for every holding.

A holding's equity against one opponent's range ``w`` (one weight per holding) is its share of
the pot when the hand is checked down: over every opponent holding o that shares no card with
it or the board, weighted by ``w[o]``, and every way to complete the board from the cards left,
it wins 1, ties 1/2 or loses 0. Every opponent holding leaves the same number of completions,
so

    equity(h) = sum over (o, runout) of w[o] * share(h, o, runout)
                / sum over (o, runout) of w[o]

is exact: the board is enumerated, never sampled. Before the flop the shipped holding-against-
holding table does the enumeration (:mod:`simulator.core.preflop_equity`).

Speed. One holding costs a pass over (runout, opponent) pairs: about 1.5 million on the flop,
a third of a millisecond as integer counts per opponent. Every holding at once walks each
runout's holdings from the worst rank to the best, keeping running sums overall and per
card, so each holding's sums come in constant time after the walk (Johanson et al. 2011's
showdown trick): about 10 ms on the flop. Rank tables are shared per board
(:mod:`simulator.core.board_ranks`).

>>> from simulator.core.cards import parse_cards, parse_holding
>>> round(equity(parse_cards("AdQc"), parse_cards("3h4cJh")), 6)  # turn and river enumerated
0.511399
>>> e = equities(parse_cards("3h4cJh"))
>>> round(float(e[parse_holding("AdQc")]), 6)
0.511399
>>> round(equity(parse_cards("AsAh"), ()), 4)  # against a random hand, before the flop
0.852
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numba
import numpy as np

from simulator.core.board_ranks import HOLD_A, HOLD_B, board_ranks
from simulator.core.cards import HOLDING_INDEX, NUM_CARDS, NUM_HOLDINGS
from simulator.core.errors import CardError, HoldemError
from simulator.core.preflop_equity import clashes, preflop_table
from simulator.core.ratios import ratio
from simulator.core.tie_groups import walk_tie_groups

_FEW = 8  # up to this many holdings, one pass each beats the walk over every holding
_ALL = np.arange(NUM_HOLDINGS)


class RangeWeightsError(HoldemError, ValueError):
    """Weights that are not 1326 finite values >= 0."""


def range_weights(weights: np.ndarray | Sequence[float] | None) -> np.ndarray:
    """``weights`` as a float array of 1326 finite values >= 0 (uniform when None)."""
    if weights is None:
        return np.ones(NUM_HOLDINGS)
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (NUM_HOLDINGS,) or not _finite_non_negative(w):
        raise RangeWeightsError(f"bad weights: expected {NUM_HOLDINGS} finite values >= 0, "
                                f"got shape {w.shape}")
    return w


def _board(board: Sequence[int]) -> tuple[int, ...]:
    """The board as a checked tuple of ints; a tuple's check is kept (a rival asks about the
    same board several times a decision, and each question checked it twice)."""
    if type(board) is tuple:
        try:
            return _checked_board(board)
        except TypeError:  # an unhashable card: checked below, as any sequence
            pass
    return _checked_board.__wrapped__(board)


@lru_cache(maxsize=256)
def _checked_board(board: Sequence[int]) -> tuple[int, ...]:
    cards = tuple(int(c) for c in board)
    if (len(cards) not in (0, 3, 4, 5) or len(set(cards)) != len(cards)
            or not all(0 <= c < NUM_CARDS for c in cards)):
        raise CardError(f"bad board {cards!r}: expected 0, 3, 4 or 5 distinct cards 0..51")
    return cards


@numba.njit(cache=True, nogil=True)
def showdown_counts(fin: np.ndarray, hero: int, met: np.ndarray, ahead: np.ndarray,
                    tied: np.ndarray) -> None:
    """Per opponent holding o, over the rows of ``fin`` (ranks of every holding on each
    runout; lower is stronger, 0 dead) where ``hero`` is live: the runouts where o is live
    too (``met``), where ``hero`` ends ahead of o (``ahead``) and where they tie (``tied``).
    A branch-free pass over whole rows, which the compiler vectorises; weights come in
    afterwards, once per opponent. The counts are kept in 16 bits as they run (at most
    32767 rows; a flop has 1176), twice the lanes of 32, then widened."""
    if fin.shape[0] > 32767:
        raise ValueError("showdown_counts: more runouts than 16-bit counts hold")
    n = fin.shape[1]
    met16 = np.zeros(n, dtype=np.int16)
    ahead16 = np.zeros(n, dtype=np.int16)
    tied16 = np.zeros(n, dtype=np.int16)
    for r in range(fin.shape[0]):
        mine = fin[r, hero]
        if mine == 0:
            continue
        row = fin[r]
        for o in range(n):
            theirs = row[o]
            met16[o] += theirs != 0
            ahead16[o] += mine < theirs
            tied16[o] += mine == theirs
    met[:] = met16
    ahead[:] = ahead16
    tied[:] = tied16


@lru_cache(maxsize=64)
def _showdowns(board: tuple[int, ...], hero: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`showdown_counts` of ``hero`` over the runouts of a (sorted) board to the river,
    kept: they do not depend on the range, and a bot asks about the same holding at each
    decision of a street, often twice (against a range and against its callers). Never
    written to: they are shared."""
    fin = board_ranks(board).river()[1]
    met, ahead, tied = (np.empty(fin.shape[1], dtype=np.int32) for _ in range(3))
    showdown_counts(fin, hero, met, ahead, tied)
    for counts in (met, ahead, tied):
        counts.flags.writeable = False  # shared by every caller: a write would be a bug
    return met, ahead, tied


@numba.njit(cache=True, nogil=True)
def _one(met: np.ndarray, ahead: np.ndarray, tied: np.ndarray, opp: np.ndarray,
         w: np.ndarray) -> float:
    """Equity of a holding with these :func:`showdown_counts` against the listed opponents:
    a tie counting half, weighed per opponent."""
    share = 0.0
    mass = 0.0
    for i in range(opp.shape[0]):
        o = opp[i]
        share += w[o] * (2 * ahead[o] + tied[o])
        mass += w[o] * met[o]
    return min(0.5 * share / mass, 1.0) if mass > 0 else np.nan


@numba.njit(cache=True, nogil=True)
def _live_count(order: np.ndarray) -> int:
    """How many holdings a row's order lists (it is padded with -1)."""
    n = 0
    while n < order.shape[0] and order[n] >= 0:
        n += 1
    return n


@numba.njit(cache=True, nogil=True)
def _every(fin: np.ndarray, orders: np.ndarray, w: np.ndarray, hold_a: np.ndarray,
           hold_b: np.ndarray, share: np.ndarray, mass: np.ndarray) -> None:
    """Add each holding's won share and its opponents' mass over every runout row: per row,
    the showdown walk (:mod:`simulator.core.tie_groups`) of its live holdings from the
    worst rank (``orders[r]``) adds the weight each beats, ties and meets; a tie is won
    half."""
    n_all = fin.shape[1]
    ahead = np.zeros(n_all)
    tied = np.zeros(n_all)
    for r in range(fin.shape[0]):
        order = orders[r]
        walk_tie_groups(fin[r], order, _live_count(order), w, hold_a, hold_b, ahead, tied,
                        mass)
    for h in range(n_all):
        share[h] += ahead[h] + 0.5 * tied[h]


@numba.njit(cache=True, nogil=True)
def free_masses_into(w: np.ndarray, totals: np.ndarray, holdings: np.ndarray,
                     hold_a: np.ndarray, hold_b: np.ndarray, out: np.ndarray) -> None:
    """``out[i, j]``: the free mass of range ``w[j]`` (its sum ``totals[j]``) for
    ``holdings[i]`` (see :func:`free_masses`), with the float operations of the numpy form it
    replaced: each card's mass added up in holding order as ``np.bincount`` does, by the low
    card and by the high card apart, then the two added; a decision asks this of every
    range, and numpy's calls cost more than the sums. The ranges are summed side by side:
    holdings in order share their low card, so one range's sums wait on each other, and
    several ranges' fill that wait."""
    k = w.shape[0]
    by_a = np.zeros((52, k))
    by_b = np.zeros((52, k))
    for h in range(w.shape[1]):
        a, b = hold_a[h], hold_b[h]
        for j in range(k):
            by_a[a, j] += w[j, h]
            by_b[b, j] += w[j, h]
    for i in range(holdings.shape[0]):
        h = holdings[i]
        a, b = hold_a[h], hold_b[h]
        for j in range(k):
            out[i, j] = (totals[j] - (by_a[a, j] + by_b[a, j]) - (by_a[b, j] + by_b[b, j])
                         + w[j, h])


# The holdings by their low card and by their high card, each card's in holding order
# (``_BY_LOW[_LOW_START[c]:_LOW_START[c + 1]]``): the order ``free_masses_into`` adds them in.
_BY_LOW = np.argsort(HOLD_A, kind="stable")
_BY_HIGH = np.argsort(HOLD_B, kind="stable")
_LOW_START = np.searchsorted(HOLD_A[_BY_LOW], np.arange(NUM_CARDS + 1))
_HIGH_START = np.searchsorted(HOLD_B[_BY_HIGH], np.arange(NUM_CARDS + 1))
_FEW_MASSES = 8  # up to this many holdings, summing their own cards beats every card's sums


@numba.njit(cache=True, nogil=True)
def _card_mass(w: np.ndarray, members: np.ndarray, start: np.ndarray, card: int) -> float:
    """The sum of ``w`` over ``members[start[card]:start[card + 1]]``, in that order."""
    total = 0.0
    for m in range(start[card], start[card + 1]):
        total += w[members[m]]
    return total


@numba.njit(cache=True, nogil=True)
def _free_masses_few(w: np.ndarray, totals: np.ndarray, holdings: np.ndarray,
                     hold_a: np.ndarray, hold_b: np.ndarray, by_low: np.ndarray,
                     low_start: np.ndarray, by_high: np.ndarray, high_start: np.ndarray,
                     out: np.ndarray) -> None:
    """:func:`free_masses_into` for a few holdings: the sums of their own cards only, each over
    the same holdings in the same order (the same floats), instead of every card's."""
    for i in range(holdings.shape[0]):
        h = holdings[i]
        a, b = hold_a[h], hold_b[h]
        for j in range(w.shape[0]):
            row = w[j]
            out[i, j] = (totals[j] - (_card_mass(row, by_low, low_start, a)
                                      + _card_mass(row, by_high, high_start, a))
                         - (_card_mass(row, by_low, low_start, b)
                            + _card_mass(row, by_high, high_start, b)) + row[h])


def free_masses(w: np.ndarray, holdings: np.ndarray) -> np.ndarray:
    """Per holding, the weight of each range (rows of ``w``) on the holdings that share no
    card with it: shape (holdings, ranges). Inclusion and exclusion: the holding itself holds
    both its cards, so it is taken away twice and added back once."""
    w = np.ascontiguousarray(w, dtype=np.float64)
    asked = np.asarray(holdings, dtype=np.int64).reshape(-1)
    out = np.empty((asked.shape[0], w.shape[0]))
    # numpy sums each row of a C-ordered array pairwise, as it sums the row alone
    if asked.shape[0] <= _FEW_MASSES:
        _free_masses_few(w, w.sum(axis=1), asked, HOLD_A, HOLD_B, _BY_LOW, _LOW_START,
                         _BY_HIGH, _HIGH_START, out)
    else:
        free_masses_into(w, w.sum(axis=1), asked, HOLD_A, HOLD_B, out)
    return out


@numba.njit(cache=True, nogil=True)
def _pot_share(ahead: np.ndarray, tied: np.ndarray, coeffs: np.ndarray) -> float:
    """Our expected share of the pot against independent opponents, unnormalised: opponent
    j is beaten with weight ``ahead[j]`` and tied with weight ``tied[j]``; a tie among m + 1
    players pays 1 / (m + 1). ``coeffs`` is scratch of length opponents + 1."""
    k = ahead.shape[0]
    coeffs[:] = 0.0
    coeffs[0] = 1.0
    for j in range(k):
        for m in range(j + 1, 0, -1):
            coeffs[m] = coeffs[m] * ahead[j] + coeffs[m - 1] * tied[j]
        coeffs[0] *= ahead[j]
    share = 0.0
    for m in range(k + 1):
        share += coeffs[m] / (m + 1)
    return share


@numba.njit(cache=True, nogil=True)
def _multi_one(fin: np.ndarray, hero: int, w: np.ndarray, hold_a: np.ndarray,
               hold_b: np.ndarray) -> float:
    """Equity of ``hero`` against independent opponents with weights ``w[j]``."""
    k = w.shape[0]
    a, b = hold_a[hero], hold_b[hero]
    ahead = np.empty(k)
    tied = np.empty(k)
    coeffs = np.empty(k + 1)
    share = 0.0
    mass = 0.0
    for r in range(fin.shape[0]):
        mine = fin[r, hero]
        if mine == 0:
            continue
        joint = 1.0
        for j in range(k):
            ahead[j] = 0.0
            tied[j] = 0.0
            total = 0.0
            for o in range(fin.shape[1]):
                theirs = fin[r, o]
                x = w[j, o]
                if (theirs == 0 or x == 0.0 or hold_a[o] == a or hold_a[o] == b
                        or hold_b[o] == a or hold_b[o] == b):
                    continue
                total += x
                if mine < theirs:
                    ahead[j] += x
                elif mine == theirs:
                    tied[j] += x
            joint *= total
        if joint > 0:
            share += _pot_share(ahead, tied, coeffs)
            mass += joint
    return min(share / mass, 1.0) if mass > 0 else np.nan


@numba.njit(cache=True, nogil=True)
def _multi_every(fin: np.ndarray, orders: np.ndarray, w: np.ndarray, hold_a: np.ndarray,
                 hold_b: np.ndarray, share: np.ndarray, mass: np.ndarray) -> None:
    """Per runout, each opponent's ahead, tied and total weight for every holding (one
    showdown walk each, as ``_every``), combined per holding by :func:`_pot_share`."""
    k = w.shape[0]
    n_all = fin.shape[1]
    ahead = np.zeros((k, n_all))
    tied = np.zeros((k, n_all))
    total = np.zeros((k, n_all))
    ah = np.empty(k)
    ti = np.empty(k)
    coeffs = np.empty(k + 1)
    for r in range(fin.shape[0]):
        order = orders[r]
        n = _live_count(order)
        ahead[:, :] = 0.0
        tied[:, :] = 0.0
        total[:, :] = 0.0
        for j in range(k):
            walk_tie_groups(fin[r], order, n, w[j], hold_a, hold_b, ahead[j], tied[j],
                            total[j])
        for i in range(n):
            h = order[i]
            joint = 1.0
            for j in range(k):
                ti[j] = tied[j, h]
                ah[j] = ahead[j, h]
                joint *= total[j, h]
            if joint > 0:
                share[h] += _pot_share(ah, ti, coeffs)
                mass[h] += joint


def _preflop_parts(w: np.ndarray, holdings: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Before the flop, each holding's won share and its opponents' free mass, per range in
    ``w`` (ranges x 1326): both (holdings, ranges); one matrix product for every range."""
    table = preflop_table()
    every = holdings.shape[0] == NUM_HOLDINGS and bool((holdings == _ALL).all())
    share = (table if every else table[holdings]) @ w.T
    return share, free_masses(w, holdings)


def _preflop(w: np.ndarray, holdings: np.ndarray) -> np.ndarray:
    """Equity of each holding against each range in ``w`` (ranges x 1326) before the flop:
    shape (holdings, ranges)."""
    share, mass = _preflop_parts(w, holdings)
    return np.minimum(ratio(share, mass, np.nan), 1.0)


@numba.njit(cache=True, nogil=True)
def _products(share: np.ndarray, mass: np.ndarray, out: np.ndarray) -> None:
    """Per row, the product of ``min(share / mass, 1)``, 0 where the mass is 0: the floats
    of numpy's ``ratio``, ``minimum`` and ``prod`` (a product reduced in order), in one
    pass instead of five calls."""
    for i in range(share.shape[0]):
        product = 1.0
        for j in range(share.shape[1]):
            m = mass[i, j]
            product *= min(share[i, j] / m, 1.0) if m > 0.0 else 0.0
        out[i] = product


def preflop_equities(weights: Sequence[np.ndarray | Sequence[float] | None],
                     holdings: Sequence[int] | np.ndarray | None = None) -> np.ndarray:
    """Exact pre-flop equity of each holding against each of several ranges (one opponent
    at a time): shape (holdings, ranges); NaN where a range has nothing left."""
    asked = (np.arange(NUM_HOLDINGS) if holdings is None
             else np.asarray(holdings, dtype=np.int64).reshape(-1))
    return _preflop(_ranges(weights), asked)


def preflop_equity_product(weights: Sequence[np.ndarray | Sequence[float] | None],
                           holdings: Sequence[int] | np.ndarray) -> np.ndarray:
    """The product over several ranges of each holding's exact pre-flop equity against each
    (as if beating one opponent said nothing of beating the next), 0 where a range has
    nothing left; 1 with no ranges. Shape (holdings,).

    >>> from simulator.core.cards import parse_holding
    >>> aces = parse_holding("AsAh")
    >>> each = preflop_equities([None, None], [aces])
    >>> product = preflop_equity_product([None, None], [aces])
    >>> round(float(each[0, 0]), 4), round(float(product[0]), 4)
    (0.852, 0.726)
    >>> preflop_equity_product([], [aces]).tolist()
    [1.0]
    """
    asked = np.asarray(holdings, dtype=np.int64).reshape(-1)
    out = np.ones(asked.shape[0])
    if len(weights):
        _products(*_preflop_parts(_ranges(weights), asked), out)
    return out


@numba.njit(cache=True, nogil=True)
def _finite_non_negative(w: np.ndarray) -> bool:
    """Whether every value is finite and at least 0 (NaN fails both comparisons): what
    ``w.min() >= 0 and w.max() < inf`` says, in one pass instead of two reductions. The
    values that pass are counted rather than the first failure sought: a loop without an
    early exit is vectorised, three times faster on the ranges that pass, as ours do."""
    passed = 0
    for i in range(w.shape[0]):
        x = w[i]
        passed += (x >= 0.0) & (x < np.inf)
    return passed == w.shape[0]


def _ranges(weights: Sequence[np.ndarray | Sequence[float] | None]) -> np.ndarray:
    """The ranges as rows (ranges x 1326), each checked as :func:`range_weights` does:
    arrays of the right shape are stacked and checked at once (a decision asks about every
    live range; one check of the stack costs what one range's did)."""
    if not len(weights):
        return np.empty((0, NUM_HOLDINGS))
    arrays = [x for x in weights if isinstance(x, np.ndarray) and x.shape == (NUM_HOLDINGS,)]
    if len(arrays) == len(weights):
        w = np.array(arrays).astype(np.float64, copy=False)
        if _finite_non_negative(w.reshape(-1)):
            return w
    return np.stack([range_weights(x) for x in weights])


def equities(board: Sequence[int], weights: np.ndarray | Sequence[float] | None = None,
             holdings: Sequence[int] | np.ndarray | None = None) -> np.ndarray:
    """Exact equity of each holding (indices; default every holding) against the range
    ``weights`` (default uniform) on ``board``; NaN for a holding that shares a card with
    the board or whose opponents all weigh 0."""
    cards = _board(board)
    w = range_weights(weights)
    asked = (np.arange(NUM_HOLDINGS) if holdings is None
             else np.asarray(holdings, dtype=np.int64).reshape(-1))
    if asked.size and (asked.min() < 0 or asked.max() >= NUM_HOLDINGS):
        raise CardError(f"bad holding index in {asked.tolist()[:5]}...: expected 0..1325")
    if not cards:
        return _preflop(w[None, :], asked)[:, 0]
    ranks = board_ranks(cards)
    live_w = np.where(ranks.ranks > 0, w, 0.0)
    if asked.size <= _FEW:
        return np.array([_one(*_showdowns(ranks.board, int(h)),
                              np.flatnonzero((live_w > 0) & ~clashes()[h]), live_w)
                         if ranks.ranks[h] else np.nan for h in asked])
    share = np.zeros(NUM_HOLDINGS)
    mass = np.zeros(NUM_HOLDINGS)
    _every(ranks.river()[1], ranks.river_orders(), live_w, HOLD_A, HOLD_B, share, mass)
    return _shares(share, mass, ranks.ranks > 0)[asked]


def _shares(share: np.ndarray, mass: np.ndarray, live: np.ndarray) -> np.ndarray:
    """Each holding's won share over its opponents' mass, NaN where it is dead or meets no
    one. The sweeps subtract running sums, which can leave -1e-19 where nothing is won (or
    1 + 1e-16 where everything is): a share is clipped into [0, 1]."""
    return np.clip(ratio(share, np.where(live, mass, 0.0), np.nan), 0.0, 1.0)


def multiway_equities(board: Sequence[int],
                      weights: Sequence[np.ndarray | Sequence[float] | None],
                      holdings: Sequence[int] | np.ndarray | None = None) -> np.ndarray:
    """Equity of each holding against several opponents, one range each, after the flop.

    Every completion of the board is enumerated; given the board and our holding the
    opponents' holdings are taken as independent draws from their ranges (each free of our
    cards and the board, but not of each other's: the one simplification), and a tie among
    m + 1 players pays each 1 / (m + 1). With one opponent it is :func:`equities` exactly.
    """
    cards = _board(board)
    if not cards:
        raise CardError("multiway equity needs the flop: before it use the pre-flop table")
    if len(weights) == 1:  # one opponent: equities itself, which checks the range
        return equities(cards, weights[0], holdings)
    w = np.stack([range_weights(x) for x in weights]) if len(weights) else np.empty((0, 0))
    if not 2 <= w.shape[0] <= 9:
        raise RangeWeightsError(f"bad number of opponents {w.shape[0]}: expected 1..9")
    asked = (np.arange(NUM_HOLDINGS) if holdings is None
             else np.asarray(holdings, dtype=np.int64).reshape(-1))
    ranks = board_ranks(cards)
    fin = ranks.river()[1]
    w = np.where(ranks.ranks > 0, w, 0.0)
    if asked.size <= _FEW:
        return np.array([_multi_one(fin, int(h), w, HOLD_A, HOLD_B) if ranks.ranks[h]
                         else np.nan for h in asked])
    share = np.zeros(NUM_HOLDINGS)
    mass = np.zeros(NUM_HOLDINGS)
    _multi_every(fin, ranks.river_orders(), w, HOLD_A, HOLD_B, share, mass)
    return _shares(share, mass, ranks.ranks > 0)[asked]


def equity(hole: Sequence[int], board: Sequence[int],
           weights: np.ndarray | Sequence[float] | None = None) -> float:
    """Exact equity of the two cards ``hole`` against the range ``weights`` on ``board``."""
    cards = [int(c) for c in hole]
    if len(cards) != 2 or cards[0] == cards[1] or not all(0 <= c < NUM_CARDS for c in cards):
        raise CardError(f"bad hole cards {tuple(hole)!r}: expected two distinct cards 0..51")
    if set(cards) & set(_board(board)):
        raise CardError("bad spot: a hole card is on the board")
    return float(equities(board, weights, [int(HOLDING_INDEX[cards[0], cards[1]])])[0])

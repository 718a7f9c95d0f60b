"""Hand values of all 1326 holdings on a board: EHS' with one card to come, against anyone.

The opponent modeller ranks an opponent's possible holdings by a value that does not depend on
who is looking: EHS' = HS + (1 - HS) * PPOT against a uniform
range, with PPOT over the next card only (lookahead 1) and Papp's denominators; on the river
there is nothing to come and EHS' = HS. One vector serves every opponent and every agent at
the table, so it is computed once per board and kept per process (:func:`ehs_prime_values`).

Speed: PPOT of every holding at once. For each next card, PPOT's numerator of holding h is

    1/2 * (#{o: now_o <= now_h, final_o > final_h} + #{o: now_o < now_h, final_o >= final_h})

in rank numbers (lower is better), which is ``HP[B][A] + HP[B][T]/2 + HP[T][A]/2`` counted
for that card. Both counts are 2-D dominance counts: walk the holdings from the worst final
rank to the best, keep the holdings already passed as a bit set in the order of the current
ranks, so that each count is a prefix of it, and take away the opponents that share a card
with h with one popcount per card (Johanson et al. 2011's showdown trick, as
``BoardTable.hs_all`` does for HS; see ``_ppot_numerators``). ``HPtotal`` of a holding is its
behind (tied) count times the runouts each pair of holdings leaves, so the denominators need
no runout loop.

Holdings that clash with the board get NaN.

>>> from simulator.core.cards import parse_cards, parse_holding
>>> v = ehs_prime_values(parse_cards("3h4cJh"))
>>> round(float(v[parse_holding("AdQc")]), 6)  # the worked vector, lookahead 1
0.630044
>>> ehs_prime_values(parse_cards("Jh3h4c")) is v  # shared: the order of the cards is moot
True
>>> round(float(ehs_prime_values(parse_cards("3h4cJh5s9d"))[parse_holding("AdQc")]), 6)
0.335859
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

from agent.strength.board_table import board_table
from simulator.core.board_ranks import sorted_board
from simulator.core.cards import HOLDINGS, NUM_CARDS, NUM_HOLDINGS
from simulator.core.errors import CardError
from simulator.core.frozen import quick_init
from simulator.core.hand_ranks import WORST_RANK
from simulator.core.suits import CARD_PERMS, HOLDING_PERMS, board_symmetries
from simulator.core.tie_groups import walk_tie_groups

_HOLD_A = HOLDINGS[:, 0].astype(np.int64)
_HOLD_B = HOLDINGS[:, 1].astype(np.int64)


# --- kernels --------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _parts(now: np.ndarray, behind: np.ndarray, tied: np.ndarray, others: np.ndarray,
           twice: np.ndarray, per_pair: int, out: np.ndarray) -> None:
    """``out``'s rows: HS, PPOT, EHS' and EHS' with 0 for NaN (the re-weighting's values) of
    every holding, NaN on clashes, from the counts now and twice PPOT's numerators.

    HS comes from whole counts: the floats of the weighted showdown sweep
    (``BoardTable.hs_all``) with every weight 1, whose sums are these counts exactly. PPOT's
    denominator is ``HPtotal``: each (holding, opponent) pair leaves ``per_pair`` next cards
    (0: nothing to come, PPOT 0). The numpy expressions this replaced, one holding at a time
    with the same float operations in the same order."""
    for h in range(now.shape[0]):
        if now[h] == 0:
            out[0, h] = out[1, h] = out[2, h] = np.nan
            out[3, h] = 0.0
            continue
        n = others[h]
        hs = (n - behind[h] - tied[h] + tied[h] / 2.0) / n if n > 0 else np.nan
        denominator = per_pair * (behind[h] + tied[h] / 2)
        ppot = twice[h] / 2 / denominator if denominator > 0 else 0.0
        ehs = hs + (1 - hs) * ppot
        out[0, h], out[1, h], out[2, h] = hs, ppot, ehs
        out[3, h] = 0.0 if np.isnan(ehs) else ehs


# numba's stub types a call of an intrinsic as one of its typing function (typingctx first,
# returning Never); in a kernel the intrinsics below take and return one integer.
_IntOp = Callable[[int], int]


def _popcount_typing(typingctx, x):  # type: ignore[no-untyped-def]
    """The number of set bits of an integer (LLVM's ctpop: one instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return x(x), codegen


_popcount = cast(_IntOp, intrinsic(_popcount_typing))


def _leading_zeros_typing(typingctx, x):  # type: ignore[no-untyped-def]
    """The number of leading zero bits of a non-zero integer (LLVM's ctlz)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctlz(args[0], context.get_constant(types.boolean, True))

    return x(x), codegen


_leading_zeros = cast(_IntOp, intrinsic(_leading_zeros_typing))


# The per-position layout (``_layout``): two words per place in the current-rank order, 16
# bytes where a holding once took 64, so that the walk's working set stays in the L1 cache.
# _SPAN: ``start | end << 16``, the span of the place's tie group in that order.
# _CARDS: 6-bit fields, its low card, its high card, then per card (low, high) among the
# holdings holding that card (at most 51, numbered in the current-rank order, so that a set
# of them is one 64-bit word): those strictly better now, those better or tied, and its own
# number.
_SPAN, _CARDS = 0, 1
_A, _B, _LT, _LE, _OWN = 0, 6, 12, 24, 36


@numba.njit(cache=True, nogil=True)
def _field(word: int, shift: int) -> int:
    return (word >> shift) & 63


@numba.njit(cache=True, nogil=True)
def _below(count: int) -> int:
    """The set of the first ``count`` holdings of a card."""
    return ~(-1 << count)


@numba.njit(cache=True, nogil=True)
def _layout(now: np.ndarray, order: np.ndarray, hold_a: np.ndarray, hold_b: np.ndarray,
            info: np.ndarray) -> None:
    """Per place p of the current-rank order ``order``, what the PPOT walk needs of its
    holding, in ``info[p]`` (see ``_SPAN`` and ``_CARDS``)."""
    placed = np.zeros(52, dtype=np.int64)
    n = order.shape[0]
    start = 0
    while start < n:
        end = start
        while end < n and now[order[end]] == now[order[start]]:
            end += 1
        for i in range(start, end):
            a, b = hold_a[order[i]], hold_b[order[i]]
            info[i, _SPAN] = start | (end << 16)
            info[i, _CARDS] = (a << _A) | (b << _B) | (placed[a] << _LT) | (
                placed[b] << (_LT + 6))
        for i in range(start, end):
            a, b = hold_a[order[i]], hold_b[order[i]]
            info[i, _CARDS] |= (placed[a] << _OWN) | (placed[b] << (_OWN + 6))
            placed[a] += 1
            placed[b] += 1
        for i in range(start, end):
            a, b = hold_a[order[i]], hold_b[order[i]]
            info[i, _CARDS] |= (placed[a] << _LE) | (placed[b] << (_LE + 6))
        start = end


@numba.njit(cache=True, nogil=True)
def _passed_before(bits: np.ndarray, below: np.ndarray, p: int) -> int:
    """How many positions below ``p`` are set: the words below p's, and p's word's low bits."""
    return below[p >> 6] + _popcount(bits[p >> 6] & ~(np.int64(-1) << (p & 63)))


@numba.njit(cache=True, nogil=True)
def _ppot_numerators(fin: np.ndarray, rows: np.ndarray, times: np.ndarray, order: np.ndarray,
                     info: np.ndarray, out: np.ndarray) -> None:
    """``out[h]`` += twice PPOT's numerator of h, summed over the next cards ``rows`` of
    ``fin``, row ``rows[k]`` counted ``times[k]`` times.

    Per next card, walk the live holdings from the worst final rank to the best, one tie
    group of final ranks at a time, keeping the holdings passed (final rank worse) as bits at
    their places in the current-rank order. ``#{o: now_o <= now_h, final_o > final_h}``
    is then the number of bits below the end of h's current tie group, and ``#{o: now_o <
    now_h, final_o >= final_h}`` (after adding h's group) the number below its start; the
    opponents that share a card with h come off by one popcount per card, of the passed
    holdings holding that card within the set that ``_layout`` gives. h itself is never
    counted: it is neither strictly better nor strictly worse than itself, and the only
    holding with both its cards. The final ranks present are found through a bit set of
    rank values, with the places of each rank chained in a list. Everything is kept by place,
    in small integers, so that the walk's working set stays in the L1 cache.
    """
    n = order.shape[0]
    words = (n >> 6) + 1
    bits = np.zeros(words, dtype=np.int64)  # the passed places
    per_word = np.zeros(words, dtype=np.int64)
    below = np.zeros(words, dtype=np.int64)  # passed places in the words before each
    passed = np.zeros(52, dtype=np.int64)  # per card, the passed holdings holding it
    head = np.full(WORST_RANK + 1, -1, dtype=np.int16)  # per final rank, a chain of places
    chain = np.empty(n, dtype=np.int16)
    present = np.zeros((WORST_RANK >> 6) + 1, dtype=np.int64)
    group = np.empty(n, dtype=np.int64)
    twice = np.zeros(n, dtype=np.int32)  # by place
    for k in range(rows.shape[0]):
        row = fin[rows[k]]
        m = times[k]
        for p in range(n):
            y = row[order[p]]
            if y > 0:
                chain[p] = head[y]
                head[y] = p
                present[y >> 6] |= np.int64(1) << (y & 63)
        bits[:] = 0
        per_word[:] = 0
        below[:] = 0
        passed[:] = 0
        for w in range(present.shape[0] - 1, -1, -1):
            word = present[w]
            while word != 0:
                top = 63 - _leading_zeros(word)
                word &= ~(np.int64(1) << top)
                y = (w << 6) + top
                g = 0
                p = int(head[y])
                head[y] = -1
                while p >= 0:
                    group[g] = p
                    g += 1
                    p = int(chain[p])
                # Opponents better or tied now with a final rank strictly worse than ours.
                for i in range(g):
                    p = group[i]
                    c = info[p, _CARDS]
                    twice[p] += m * (_passed_before(bits, below, info[p, _SPAN] >> 16)
                                     - _popcount(passed[_field(c, _A)]
                                                 & _below(_field(c, _LE)))
                                     - _popcount(passed[_field(c, _B)]
                                                 & _below(_field(c, _LE + 6))))
                low = words
                for i in range(g):
                    p = group[i]
                    c = info[p, _CARDS]
                    bits[p >> 6] |= np.int64(1) << (p & 63)
                    per_word[p >> 6] += 1
                    low = min(low, p >> 6)
                    passed[_field(c, _A)] |= np.int64(1) << _field(c, _OWN)
                    passed[_field(c, _B)] |= np.int64(1) << _field(c, _OWN + 6)
                # only the words after the lowest one the group entered have more below them
                total = below[low] + per_word[low]
                for j in range(low + 1, words):
                    below[j] = total
                    total += per_word[j]
                # Opponents strictly better now with a final rank no better than ours.
                for i in range(g):
                    p = group[i]
                    c = info[p, _CARDS]
                    twice[p] += m * (_passed_before(bits, below, info[p, _SPAN] & 0xFFFF)
                                     - _popcount(passed[_field(c, _A)]
                                                 & _below(_field(c, _LT)))
                                     - _popcount(passed[_field(c, _B)]
                                                 & _below(_field(c, _LT + 6))))
            present[w] = 0
    for p in range(n):
        out[order[p]] += twice[p]


@numba.njit(cache=True, nogil=True)
def _strengths_of(ranks: np.ndarray, holdings: np.ndarray, hold_a: np.ndarray,
                  hold_b: np.ndarray, out: np.ndarray) -> None:
    """HS against a uniform range of a few holdings, by one scan of the board's ranks each."""
    for k in range(holdings.shape[0]):
        h = holdings[k]
        a, b = hold_a[h], hold_b[h]
        mine = ranks[h]
        ahead, tied, total = 0, 0, 0
        for o in range(ranks.shape[0]):
            r = ranks[o]
            if r == 0 or hold_a[o] == a or hold_a[o] == b or hold_b[o] == a or hold_b[o] == b:
                continue
            total += 1
            if r > mine:
                ahead += 1
            elif r == mine:
                tied += 1
        out[k] = (ahead + tied / 2.0) / total


# --- the vectors ----------------------------------------------------------------------------


@quick_init
@dataclass(frozen=True, slots=True)
class ValueLevels:
    """The distinct values of a value vector and each holding's level among them: a
    re-weighting computes each level's chance once (pre-flop's 1326 income rates take 169
    levels, a flop's EHS' about 150: suits the board leaves alike give equal values).

    >>> v = np.array([0.5, 0.2, 0.5, 0.9, 0.0])
    >>> lv = ValueLevels.along(v, np.array([3, 0, 2, 1]))  # holding 4 is off the order
    >>> lv.levels.tolist(), lv.level_of.tolist()
    ([0.9, 0.5, 0.2, 0.0], [1, 2, 1, 0, 3])
    """

    levels: np.ndarray
    level_of: np.ndarray

    @classmethod
    def along(cls, values: np.ndarray, order: np.ndarray) -> ValueLevels:
        """The levels of ``values`` given ``order``, its holdings from the highest value
        down (a sort already made); holdings left out of ``order`` must be worth 0, as the
        dead ones are in :attr:`BoardValues.weighing`."""
        ranked = values[order]
        new = np.empty(len(order), dtype=bool)
        new[:1] = True
        np.not_equal(ranked[1:], ranked[:-1], out=new[1:])
        level_of = np.full(len(values), int(new.sum()), dtype=np.int64)
        level_of[order] = np.cumsum(new) - 1
        return cls(_read_only(np.append(ranked[new], 0.0)), _read_only(level_of))


@dataclass(frozen=True)
class BoardValues:
    """EHS' of every holding on one board, with its parts (all (1326,), NaN on clashes).

    ``order`` lists the live holdings from the highest value to the lowest, so a weighted
    quantile of the values is a cumulative sum away (the threshold re-weighting's mu);
    ``weighing`` is ``ehs_prime`` with 0 instead of NaN, as re-weighting reads it, and
    ``levels`` its distinct values.
    """

    board: tuple[int, ...]
    hs: np.ndarray
    ppot: np.ndarray
    ehs_prime: np.ndarray
    order: np.ndarray
    weighing: np.ndarray
    levels: ValueLevels


def _read_only(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _twice_ppot_numerators(board: tuple[int, ...], now: np.ndarray, order: np.ndarray,
                           next_cards: np.ndarray, fin: np.ndarray) -> np.ndarray:
    """Twice PPOT's numerator of every holding, summed over the next cards (``fin``'s rows:
    the final ranks with each card of ``next_cards``), one card per class of the board's
    symmetries (:func:`simulator.core.suits.board_symmetries`).

    A suit permutation g that keeps the board gives the next card g(c) the counts of c with
    the holdings relabelled: ``count[g(c)][g(h)] = count[c][h]``. Summed over the board's
    symmetries G, the counts of one card c give each card of its class ``|G| / |class|``
    times; so one card per class, counted ``|class|`` times, then summed over G, gives every
    card's counts ``|G|`` times. The counts are whole numbers, so each sum and the division
    by ``|G|`` are exact: the same floats as counting every card. Two-tone flops skip 13 of
    49 cards, monotone ones 26; a rainbow flop has no symmetry.
    """
    info = np.zeros((order.shape[0], 2), dtype=np.int64)
    _layout(now, order, _HOLD_A, _HOLD_B, info)
    twice = np.zeros(NUM_HOLDINGS)
    perms = board_symmetries(board)
    if len(perms) == 1:
        rows = np.arange(len(next_cards))
        _ppot_numerators(fin, rows, np.ones(len(rows), dtype=np.int64), order, info, twice)
        return twice
    images = CARD_PERMS[perms][:, next_cards]  # (symmetries, cards)
    rows = np.flatnonzero(next_cards == images.min(axis=0))  # one card of each class
    sizes = len(perms) // (images[:, rows] == next_cards[rows]).sum(axis=0)  # |G| / |stab|
    _ppot_numerators(fin, rows, sizes, order, info, twice)
    return twice[HOLDING_PERMS[perms]].sum(axis=0) / len(perms)


def _compute(board: tuple[int, ...]) -> BoardValues:
    table = board_table(board)
    now = table.ranks
    live = np.flatnonzero(now > 0)
    order = live[np.argsort(now[live], kind="stable")]  # best first
    behind, tied, others = (np.zeros(NUM_HOLDINGS, dtype=np.int64) for _ in range(3))
    # walked best first, the opponents before a holding are those better now
    walk_tie_groups(now, order, order.size, None, _HOLD_A, _HOLD_B, behind, tied, others)
    twice, per_pair = np.zeros(NUM_HOLDINGS), 0  # nothing to come: PPOT is 0
    if table.cards_to_come:
        runouts, fin = table.future(1)
        twice = _twice_ppot_numerators(board, now, order, runouts[:, 0], fin)
        # Each (holding, opponent) pair leaves the same number of next cards.
        per_pair = NUM_CARDS - len(board) - 4
    parts = np.empty((4, NUM_HOLDINGS))
    _parts(now, behind, tied, others, twice, per_pair, parts)
    hs, ppot, ehs_prime, weighing = _read_only(parts)
    by_value = live[np.argsort(-ehs_prime[live], kind="stable")]
    return BoardValues(board, hs, ppot, ehs_prime, _read_only(by_value), weighing,
                       ValueLevels.along(weighing, by_value))


@lru_cache(maxsize=256)  # about 40 KB a board
def _cached(key: tuple[int, ...]) -> BoardValues:
    return _compute(key)


def _key(board: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    key = sorted_board(board if type(board) is tuple else tuple(board))
    if len(key) not in (3, 4, 5) or len(set(key)) != len(key) or not all(
            0 <= c < NUM_CARDS for c in key):
        raise CardError(f"bad board {tuple(board)!r}: expected 3, 4 or 5 distinct cards 0..51 "
                        "(pre-flop values are income rates)")
    return key


@lru_cache(maxsize=256)
def _as_dealt(board: tuple[int, ...]) -> BoardValues:
    """The values of a board as its cards came (a modeller asks at every re-weighting),
    without sorting and checking them again."""
    return _cached(_key(board))


def board_values(board: tuple[int, ...] | list[int]) -> BoardValues:
    """The shared values of a board (any card order), computed on first request and kept."""
    return _as_dealt(board if type(board) is tuple else tuple(board))


def hand_strengths_of(board: tuple[int, ...] | list[int], holdings: list[int]) -> np.ndarray:
    """HS against a uniform range of a few holdings (indices) on ``board``, without building
    every holding's values: a showdown's shown hands after an all-in, say.

    >>> from simulator.core.cards import parse_cards, parse_holding
    >>> hand_strengths_of(parse_cards("9c8h2s"), [parse_holding("As8d")]).round(6).tolist()
    [0.838113]
    """
    table = board_table(_key(board))
    picked = np.asarray(holdings, dtype=np.int64)
    if (table.ranks[picked] == 0).any():
        raise CardError(f"a holding of {holdings} clashes with the board {tuple(board)}")
    out = np.empty(len(picked))
    _strengths_of(table.ranks, picked, _HOLD_A, _HOLD_B, out)
    return out


def ehs_prime_values(board: tuple[int, ...] | list[int]) -> np.ndarray:
    """EHS' of all 1326 holdings against a uniform range, one card to come; read-only."""
    return board_values(board).ehs_prime


def clear_board_values() -> None:
    """Forget every kept vector (benchmarks time cold boards with it)."""
    _cached.cache_clear()
    _as_dealt.cache_clear()

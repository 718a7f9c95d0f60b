"""Batch 5-, 6- and 7-card hand evaluator returning treys' ranks (1 = royal flush, 7462 worst).

Design: a perfect hash on rank counts plus a flush table, as in phevaluator.

* With at most 7 cards, five of one suit rule out quads and full houses, so a hand with a
  flush is ranked by ``FLUSH[mask]``, the 13-bit rank mask of that suit (8192 entries).
* Otherwise only the rank counts matter. The vector of 13 counts (each 0..4, summing to k)
  is hashed to its lexicographic position among all such vectors (49,205 for k = 7) with
  13 table look-ups, and ``NOFLUSH[base[k] + hash]`` holds its rank.

Both tables are derived here from the hand-ranking rules, in treys' order; treys is only the
oracle of the tests. Building them takes about half a second of Python loops, which every
process that plays paid at import, so the built tables ship as ``data/hand_ranks.npz``
(``python experiments/build/make_hand_ranks.py`` writes it; a test holds it to a fresh build).

>>> from simulator.core.cards import parse_cards
>>> int(evaluate(parse_cards("AhKhQhJhTh")))
1
>>> int(evaluate(parse_cards("7d5c4h3s2d")))
7462
>>> evaluate(np.array([parse_cards("AsAdKcKd2h3h4s"), parse_cards("As2d3c4d5h9h9s")])).tolist()
[2476, 1609]
>>> class_name(1609)
'Straight'
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

import numba
import numpy as np

from simulator.core.archive import ArchiveError, Declared, read_archive, write_archive
from simulator.core.errors import CardError, HoldemError
from simulator.core.packaged import packaged_file

# --- treys' rank order ---------------------------------------------------------------------

CLASS_NAMES = (
    "Royal Flush", "Straight Flush", "Four of a Kind", "Full House", "Flush", "Straight",
    "Three of a Kind", "Two Pair", "Pair", "High Card",
)
# The worst rank of each class, as treys' MAX_* constants.
_CLASS_MAX = np.array([1, 10, 166, 322, 1599, 1609, 2467, 3325, 6185, 7462])
WORST_RANK = 7462

# Straights from ace-high down to the wheel, as 13-bit rank masks.
_STRAIGHTS = [0b11111 << (high - 4) for high in range(12, 3, -1)] + [0b1_0000_0000_1111]


def _desc(ranks: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(ranks, reverse=True))


def _five_card_ranks() -> dict[tuple, int]:
    """Map a hand key ``(category, ranks...)`` to its treys rank."""
    straight_masks = set(_STRAIGHTS)
    distinct = [
        _desc(c) for c in itertools.combinations(range(13), 5)
        if sum(1 << r for r in c) not in straight_masks
    ]
    distinct.sort(reverse=True)
    singles = list(range(12, -1, -1))
    keys: list[tuple] = []
    keys += [("straight_flush", m) for m in _STRAIGHTS]
    keys += [("quads", q, k) for q in singles for k in singles if k != q]
    keys += [("full_house", t, p) for t in singles for p in singles if p != t]
    keys += [("flush",) + d for d in distinct]
    keys += [("straight", m) for m in _STRAIGHTS]
    keys += [("trips", t) + _desc(k) for t in singles
             for k in sorted(itertools.combinations([r for r in singles if r != t], 2),
                             key=_desc, reverse=True)]
    keys += [("two_pair", hi, lo, k) for hi, lo in sorted(
        itertools.combinations(singles, 2), key=_desc, reverse=True)
        for k in singles if k not in (hi, lo)]
    keys += [("pair", p) + _desc(k) for p in singles
             for k in sorted(itertools.combinations([r for r in singles if r != p], 3),
                             key=_desc, reverse=True)]
    keys += [("high",) + d for d in distinct]
    assert len(keys) == WORST_RANK
    return {key: i + 1 for i, key in enumerate(keys)}


def _best_straight(mask: int) -> int | None:
    for m in _STRAIGHTS:
        if mask & m == m:
            return m
    return None


def _top_ranks(mask: int, n: int, exclude: tuple[int, ...] = ()) -> tuple[int, ...]:
    return tuple(r for r in range(12, -1, -1) if mask >> r & 1 and r not in exclude)[:n]


def _flush_key(mask: int) -> tuple:
    straight = _best_straight(mask)
    if straight is not None:
        return ("straight_flush", straight)
    return ("flush",) + _top_ranks(mask, 5)


def _counts_key(counts: tuple[int, ...]) -> tuple:
    """The best five-card hand, ignoring suits, of a multiset of ranks."""
    present = sum(1 << r for r in range(13) if counts[r])
    at_least = {n: [r for r in range(12, -1, -1) if counts[r] >= n] for n in (2, 3, 4)}
    if at_least[4]:
        q = at_least[4][0]
        return ("quads", q, _top_ranks(present, 1, (q,))[0])
    if at_least[3]:
        t = at_least[3][0]
        pairs = [r for r in at_least[2] if r != t]
        if pairs:
            return ("full_house", t, pairs[0])
    straight = _best_straight(present)
    if straight is not None:
        return ("straight", straight)
    if at_least[3]:
        t = at_least[3][0]
        return ("trips", t) + _top_ranks(present, 2, (t,))
    if len(at_least[2]) >= 2:
        hi, lo = at_least[2][:2]
        return ("two_pair", hi, lo) + _top_ranks(present, 1, (hi, lo))
    if at_least[2]:
        p = at_least[2][0]
        return ("pair", p) + _top_ranks(present, 3, (p,))
    return ("high",) + _top_ranks(present, 5)


# --- the quinary hash ------------------------------------------------------------------------


def _hash_offsets() -> np.ndarray:
    """``offs[r, rem, q]``: how many count vectors sort before ours at rank r.

    With ``rem`` cards left to place on ranks r..12 and ``q`` of them on rank r, the vectors
    that put ``v < q`` cards on rank r come first; there are ``ways(12 - r, rem - v)`` of each.
    """
    ways = np.zeros((14, 8), dtype=np.int64)  # ways[n][s]: n ranks, s cards, <= 4 per rank
    ways[0, 0] = 1
    for n in range(1, 14):
        for s in range(8):
            ways[n, s] = sum(ways[n - 1, s - v] for v in range(min(4, s) + 1))
    offs = np.zeros((13, 8, 5), dtype=np.int32)
    for r in range(13):
        for rem in range(8):
            for q in range(1, 5):
                v = q - 1
                prev = ways[12 - r, rem - v] if rem - v >= 0 else 0
                offs[r, rem, q] = offs[r, rem, q - 1] + prev
    return offs


def _count_vectors(k: int) -> np.ndarray:
    """Every vector of 13 rank counts (each 0..4) summing to ``k``, one a row, in
    lexicographic order: a row's position is its hash (:func:`_hashes`)."""
    rows = np.zeros((1, 0), dtype=np.int64)
    for r in range(13):
        room = k - rows.sum(axis=1)
        grown = [np.column_stack([rows, np.full(len(rows), v)])[room >= v] for v in range(5)]
        rows = np.concatenate(grown)
        rows = rows[k - rows.sum(axis=1) <= 4 * (12 - r)]  # the ranks left can hold the rest
    return rows[np.lexsort(rows.T[::-1])]


def _hashes(counts: np.ndarray, offs: np.ndarray) -> np.ndarray:
    """The hash of each row of rank counts: its position among the vectors of its sum."""
    left = counts.sum(axis=1, keepdims=True) - np.cumsum(counts, axis=1) + counts
    return offs[np.arange(13), left, counts].sum(axis=1)


class Tables(NamedTuple):
    """The evaluator's look-up tables."""

    offs: np.ndarray  # (13, 8, 5) int32, hash offsets
    flush: np.ndarray  # (8192,) int16, rank of a suit's rank mask with >= 5 bits, else 0
    noflush: np.ndarray  # int16, rank of each rank-count vector, per k from base[k]
    base: np.ndarray  # (8,) int32, start of the k-card block in noflush


def build_tables() -> Tables:
    """Five cards are ranked by the rules; six or seven by the best of the hands one card
    fewer (the best five of seven is the best five of the best six), a vectorised step."""
    ranks = _five_card_ranks()
    offs = _hash_offsets()
    flush = np.zeros(1 << 13, dtype=np.int16)
    for mask in range(1 << 13):
        if mask.bit_count() >= 5:
            flush[mask] = ranks[_flush_key(mask)]
    blocks = [np.array([ranks[_counts_key(tuple(v))] for v in _count_vectors(5).tolist()],
                       dtype=np.int16)]
    for k in (6, 7):
        vectors = _count_vectors(k)
        best = np.full(len(vectors), WORST_RANK + 1, dtype=np.int16)
        for r in range(13):
            held = vectors[:, r] > 0
            fewer = vectors[held].copy()
            fewer[:, r] -= 1
            best[held] = np.minimum(best[held], blocks[-1][_hashes(fewer, offs)])
        blocks.append(best)
    base = np.zeros(8, dtype=np.int32)
    base[6], base[7] = len(blocks[0]), len(blocks[0]) + len(blocks[1])
    return Tables(offs, flush, np.concatenate(blocks), base)


FORMAT = "holdem-hand-ranks"
VERSION = 1
_SHAPES = {"offs": ((13, 8, 5), np.int32), "flush": ((1 << 13,), np.int16),
           "noflush": ((6175 + 18395 + 49205,), np.int16), "base": ((8,), np.int32)}


class HandRanksError(HoldemError, RuntimeError):
    """The shipped hand-rank tables are missing or damaged: reinstall the package, or rebuild
    them with ``experiments/build/make_hand_ranks.py``."""


def data_path() -> Path:
    return packaged_file("simulator.core", "data", "hand_ranks.npz")


def write_tables(path: str | Path, tables: Tables) -> None:
    write_archive(path, FORMAT, VERSION, {}, tables._asdict(), compress=True)


def _expect(header: dict[str, object], declared: Mapping[str, Declared]) -> None:
    if set(declared) != set(_SHAPES) or any(
            declared[name].shape != shape or declared[name].dtype != dtype
            for name, (shape, dtype) in _SHAPES.items()):
        raise ArchiveError("not the four hand-rank tables of the expected shapes")


def load_tables(path: str | Path | None = None) -> Tables:
    """The shipped tables (or those at ``path``), checked; ``HandRanksError`` naming the
    file if they cannot be read."""
    try:
        arrays = read_archive(data_path() if path is None else path, FORMAT, (VERSION,),
                              _expect).arrays
    except ArchiveError as exc:
        raise HandRanksError(f"hand-rank tables: {exc}") from None
    return Tables(**{name: arrays[name] for name in _SHAPES})


def _tables() -> Tables:
    """The shipped tables; built afresh only where the file is absent (as when
    ``experiments/build/make_hand_ranks.py`` writes it the first time)."""
    return load_tables() if data_path().is_file() else build_tables()


TABLES = _tables()

# --- the kernels ------------------------------------------------------------------------------

BAD_CARD = -1
REPEATED_CARD = -2

# A hand is summarised in three integers, so the kernels touch no scratch memory:
#   cnt: 3 bits per rank (its count), sc: 4 bits per suit (its count),
#   sm: 16 bits per suit (the 13-bit mask of its ranks).
# Adding 3 to every 4-bit suit count sets the nibble's top bit exactly when the count is >= 5.


# numba freezes global arrays into the compiled code as constants, so the kernels below take
# no table arguments: a call with four array arguments costs more than the rank itself.
_OFFS, _FLUSH, _NOFLUSH, _BASE = TABLES


@numba.njit(cache=True, nogil=True)
def rank_summary(cnt: np.int64, sc: np.int64, sm: np.int64, k: int) -> int:
    """Rank of a hand of k cards given as the three integers above (for kernels that build
    many hands from one shared part, adding each hand's own cards to the sums)."""
    f = (sc + 0x3333) & 0x8888
    if f:
        s = 0
        while not (f >> (4 * s + 3)) & 1:
            s += 1
        return _FLUSH[(sm >> (16 * s)) & 0x1FFF]
    h = 0
    rem = np.int64(k)  # the counts are int64: numba types rem so anyway
    for r in range(13):
        q = (cnt >> (3 * r)) & 7
        h += _OFFS[r, rem, q]
        rem -= q
        if rem == 0:
            break
    return _NOFLUSH[_BASE[k] + h]


@numba.njit(cache=True, nogil=True)
def rank_row(row: np.ndarray) -> int:
    """Rank of one valid hand of 5..7 cards, for other numba kernels (no validation)."""
    cnt = np.int64(0)
    sc = np.int64(0)
    sm = np.int64(0)
    for j in range(row.shape[0]):
        c = np.int64(row[j])
        cnt += np.int64(1) << (3 * (c >> 2))
        sc += np.int64(1) << (4 * (c & 3))
        sm |= np.int64(1) << (16 * (c & 3) + (c >> 2))
    return rank_summary(cnt, sc, sm, row.shape[0])


@numba.njit(cache=True, nogil=True)
def _evaluate_batch(cards: np.ndarray, out: np.ndarray) -> int:
    """Rank every row into ``out``; returns the first bad row's index or -1.

    Validation costs one 52-bit mask per row, cheap next to the rank itself. The card loop is
    fused with rank_row's accumulation on purpose: validating first and then calling
    ``rank_row(cards[i])`` measured 30% slower (29M against 41M hands/s).
    """
    n, k = cards.shape
    first_bad = -1
    for i in range(n):
        seen = np.int64(0)
        cnt = np.int64(0)
        sc = np.int64(0)
        sm = np.int64(0)
        bad = 0
        for j in range(k):
            c = np.int64(cards[i, j])
            if c < 0 or c > 51:
                bad = BAD_CARD
                break
            bit = np.int64(1) << c
            if seen & bit:
                bad = REPEATED_CARD
                break
            seen |= bit
            cnt += np.int64(1) << (3 * (c >> 2))
            sc += np.int64(1) << (4 * (c & 3))
            sm |= np.int64(1) << (16 * (c & 3) + (c >> 2))
        if bad:
            out[i] = bad
            if first_bad < 0:
                first_bad = i
            continue
        out[i] = rank_summary(cnt, sc, sm, k)
    return first_bad


# --- the public API ---------------------------------------------------------------------------


def evaluate(cards: np.ndarray | list) -> np.ndarray:
    """Ranks of hands of 5, 6 or 7 cards: shape (n, k) gives (n,), shape (k,) a 0-d array.

    Raises ``CardError`` (a ``ValueError``) for a wrong shape, a card outside 0..51 or a card
    repeated in a hand.
    """
    arr = np.asarray(cards)
    single = arr.ndim == 1
    if single:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] not in (5, 6, 7):
        raise CardError(f"bad hand shape {np.shape(cards)}: expected (n, 5|6|7) or (5|6|7,)")
    if arr.dtype.kind not in "iu":
        if arr.size == 0 or arr.dtype.kind == "f" and np.all(arr == np.round(arr)):
            arr = arr.astype(np.int64)
        else:
            raise CardError(f"bad card dtype {arr.dtype}: expected integer card indices")
    if arr.dtype.kind == "u" and arr.dtype.itemsize == 8:
        arr = arr.astype(np.int64)
    out = np.empty(arr.shape[0], dtype=np.int16)
    bad = _evaluate_batch(np.ascontiguousarray(arr), out)
    if bad >= 0:
        what = "a card outside 0..51" if out[bad] == BAD_CARD else "a repeated card"
        raise CardError(f"bad hand at row {bad}: {arr[bad].tolist()} has {what}")
    return out[0] if single else out


def rank_class(rank: int | np.ndarray) -> int | np.ndarray:
    """treys' class of a rank: 0 royal flush, 1 straight flush, ... 9 high card."""
    cls = np.searchsorted(_CLASS_MAX, rank)
    return int(cls) if np.ndim(cls) == 0 else cls


def class_name(rank: int) -> str:
    """The name of a rank's class, as treys spells it (``'Royal Flush'``, ``'Pair'``, ...)."""
    if not 1 <= int(rank) <= WORST_RANK:
        raise CardError(f"bad rank {rank}: expected 1..{WORST_RANK}")
    return CLASS_NAMES[rank_class(int(rank))]

"""Exact hand-strength features of every holding on a board, in integers, and suit symmetry.

*HS* (hand strength) of a holding on a five-card board is its chance of beating a uniformly
random opponent holding, ties counting half. On a river board every live holding meets the
same number of compatible opponents (990), so ``2 * wins + ties``, its *HS code* (0..1980),
is HS exactly, scaled by 1980.

*E[HS²]* on a flop or turn board is the mean, over the cards still to come, of HS² on the
river (Zinkevich et al. 2007; Johanson 2007): it rewards holdings whose strength may still
rise. Here it is the sum of the squared HS codes over every turn-and-river pair (flop: 1,081
of them for each live holding) or every river card (turn: 46): again an integer, the same
count of terms for every live holding, so the feature orders holdings exactly as E[HS²]
does. Integers make every feature, and so every bucket, exactly invariant under a
permutation of the suits: floating-point sums in another order could not promise it.

A *suit permutation* maps card ``rank*4 + s`` to ``rank*4 + perm[s]``. A board's *canonical
form* is the smallest sorted card tuple its 24 permutations give (compared as base-52
numbers, :func:`canonical`).

>>> from simulator.core.cards import parse_cards, parse_holding
>>> codes = river_codes(np.array(parse_cards("2c7d9hJsKs")))
>>> int(codes[parse_holding("AsQs")]), int(codes[parse_holding("3c4d")]), int(codes[0])
(721, 9, -1)
"""

from __future__ import annotations

import itertools

import numba
import numpy as np

from simulator.core.board_ranks import rank_rows  # the shared 91-rank-pair ranking kernel
from simulator.core.canonical_boards import canonical_classes, canonical_code, decode_boards
from simulator.core.cards import HOLDINGS, NUM_CARDS, NUM_HOLDINGS
from simulator.core.hand_ranks import WORST_RANK
from simulator.core.suits import CARD_PERMS
from simulator.core.tie_groups import walk_tie_groups

HOLD_A = HOLDINGS[:, 0].astype(np.int64)
HOLD_B = HOLDINGS[:, 1].astype(np.int64)


# --- kernels --------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _codes_of_row(ranks: np.ndarray, hold_a: np.ndarray, hold_b: np.ndarray,
                  out: np.ndarray, count: np.ndarray, start: np.ndarray, order: np.ndarray,
                  sums: np.ndarray) -> None:
    """HS codes of every holding from one row of ranks (0 = dead; lower ranks are better):
    ``out[h] = 2 * (compatible opponents) - 2 * better - tied``, -1 for dead holdings.

    The live holdings are counting-sorted by rank, best first, and walked one tie group at a
    time (:func:`simulator.core.tie_groups.walk_tie_groups`, in counts: no weights);
    ``count``, ``start``, ``order`` and ``sums`` (3, 1326) are scratch.
    """
    n = ranks.shape[0]
    count[:] = 0
    live = 0
    for h in range(n):
        r = ranks[h]
        if r > 0:
            count[r] += 1
            live += 1
    total = 0
    for r in range(count.shape[0]):
        start[r] = total
        total += count[r]
    for h in range(n):
        r = ranks[h]
        if r > 0:
            order[start[r]] = h
            start[r] += 1
    sums[:, :] = 0
    better, tied, met = sums[0], sums[1], sums[2]
    walk_tie_groups(ranks, order, live, None, hold_a, hold_b, better, tied, met)
    for h in range(n):
        out[h] = 2 * met[h] - 2 * better[h] - tied[h] if ranks[h] > 0 else -1


@numba.njit(cache=True, nogil=True)
def _squared_codes(board: np.ndarray, runouts: np.ndarray, hold_a: np.ndarray,
                   hold_b: np.ndarray, out: np.ndarray) -> None:
    """``out[h]``: the sum over the runouts of h's squared HS code on the completed board
    (runouts holding one of h's cards are skipped); -1 for holdings dead on ``board``."""
    n = hold_a.shape[0]
    ranks = np.empty((1, n), dtype=np.int16)
    codes = np.empty(n, dtype=np.int64)
    count = np.zeros(WORST_RANK + 1, dtype=np.int64)
    start = np.zeros(WORST_RANK + 1, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    sums = np.empty((3, n), dtype=np.int64)
    dead = np.int64(0)
    for j in range(board.shape[0]):
        dead |= np.int64(1) << board[j]
    for h in range(n):
        if (dead >> hold_a[h]) & 1 or (dead >> hold_b[h]) & 1:
            out[h] = -1
        else:
            out[h] = 0
    for r in range(runouts.shape[0]):
        rank_rows(board, runouts[r:r + 1], hold_a, hold_b, ranks)
        _codes_of_row(ranks[0], hold_a, hold_b, codes, count, start, order, sums)
        for h in range(n):
            c = codes[h]
            if c >= 0 and out[h] >= 0:
                out[h] += c * c


# --- the features -----------------------------------------------------------------------------


def _runouts(board: np.ndarray, cards: int) -> np.ndarray:
    live = [c for c in range(NUM_CARDS) if c not in set(board.tolist())]
    return np.array(list(itertools.combinations(live, cards)), dtype=np.int64).reshape(-1, cards)


def river_ranks(board: np.ndarray) -> np.ndarray:
    """The hand rank of all 1326 holdings on a five-card board (0 where dead; lower ranks
    are better, as ``simulator.core.hand_ranks``)."""
    b = np.ascontiguousarray(board, dtype=np.int64)
    ranks = np.empty((1, NUM_HOLDINGS), dtype=np.int16)
    rank_rows(b, np.zeros((1, 0), dtype=np.int64), HOLD_A, HOLD_B, ranks)
    return ranks[0]


def codes_of_ranks(ranks: np.ndarray) -> np.ndarray:
    """HS codes of all 1326 holdings from their ranks on a river board (-1 where dead)."""
    out = np.empty(NUM_HOLDINGS, dtype=np.int64)
    _codes_of_row(ranks, HOLD_A, HOLD_B, out, np.zeros(WORST_RANK + 1, dtype=np.int64),
                  np.zeros(WORST_RANK + 1, dtype=np.int64), np.empty(NUM_HOLDINGS, np.int64),
                  np.empty((3, NUM_HOLDINGS), np.int64))
    return out


def river_codes(board: np.ndarray) -> np.ndarray:
    """HS codes of all 1326 holdings on a five-card board (-1 where dead)."""
    return codes_of_ranks(river_ranks(board))


def squared_codes(board: np.ndarray) -> np.ndarray:
    """E[HS²] features of all 1326 holdings on a flop or turn (module docstring; -1 where
    dead): the sum of squared river HS codes over every runout."""
    b = np.ascontiguousarray(board, dtype=np.int64)
    out = np.empty(NUM_HOLDINGS, dtype=np.int64)
    _squared_codes(b, _runouts(b, 5 - b.size), HOLD_A, HOLD_B, out)
    return out


def feature(board: np.ndarray) -> np.ndarray:
    """The street's feature of every holding: HS code on the river, E[HS²] sum before."""
    return river_codes(board) if len(board) == 5 else squared_codes(board)


def canonical(board: np.ndarray) -> tuple[int, int]:
    """``(code, k)``: the board's canonical code and a suit permutation k that maps the board
    to its canonical form (the first such, so the answer is deterministic)."""
    code, perm = canonical_code(np.ascontiguousarray(board, dtype=np.int64), CARD_PERMS)
    return int(code), int(perm)


def decode(code: int, k: int) -> np.ndarray:
    """The sorted cards of a k-card board code."""
    return decode_boards(np.array([code], dtype=np.int64), k)[0]


def canonical_deal_count(rounds: tuple[int, ...]) -> int:
    """How many suit classes of deals of ``rounds`` cards a round (a set of cards each, the
    rounds in order): by Burnside's lemma, the mean over the 24 suit permutations of the
    deals each leaves as they are, those whose every round is a union of the permutation's
    card cycles. ``(3,)``: the 1,755 flops; ``(3, 1, 1)``: 2,554,656 (flop, turn, river)."""
    fixed = 0
    for perm in CARD_PERMS:
        cycles = _cycle_lengths(perm)
        ways = {tuple(0 for _ in rounds): 1}  # cards dealt so far a round -> deals
        for length in cycles:
            nxt = dict(ways)
            for dealt, count in ways.items():
                for r, need in enumerate(rounds):
                    if dealt[r] + length <= need:
                        key = dealt[:r] + (dealt[r] + length,) + dealt[r + 1:]
                        nxt[key] = nxt.get(key, 0) + count
            ways = nxt
        fixed += ways.get(tuple(rounds), 0)
    return fixed // len(CARD_PERMS)


def _cycle_lengths(perm: np.ndarray) -> list[int]:
    seen = np.zeros(perm.size, dtype=bool)
    out = []
    for c in range(perm.size):
        length = 0
        while not seen[c]:
            seen[c] = True
            c = int(perm[c])
            length += 1
        if length:
            out.append(length)
    return out


def canonical_boards(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every canonical k-card board (codes ascending) and the number of boards each stands
    for: 1,755 flops, 16,432 turn boards, 134,459 river boards (as sets of cards)."""
    return canonical_classes(k, CARD_PERMS)

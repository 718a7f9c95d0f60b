"""Exact pre-flop equity of every holding against every other: the shipped table.

``E[h, o]`` is holding h's share of the pot against holding o when both see all five board
cards, over every one of the C(48, 5) = 1,712,304 boards free of their four cards (a tie pays
each half). Equity against a weighted range is then a matrix product, and no Monte Carlo is
needed before the flop.

The table is built by :func:`build_counts` (run ``python experiments/build/make_preflop_equity.py``;
a few minutes) and ships as ``data/preflop_equity.npz``, an archive
(:mod:`simulator.core.archive`) holding ``upper``: for every pair h < o in holding order,
``2 * wins(h) + ties`` over those boards (an integer; ``E[h, o]`` is it over twice the board
count, and ``E[o, h] = 1 - E[h, o]``).

**How it is built.** Every five-card board is equivalent, under one of the 24 permutations of
the suits, to a canonical one; the 134,459 canonical boards are ranked once each, every
holding on them at once (``board_ranks.rank_rows``), and each adds ``2 * [h beats o] +
[tie]`` for every pair of live holdings, weighted by the number of boards its class stands
for. Summing the 24 suit-permuted copies of that matrix and dividing by 24 gives the counts
over all boards exactly.

>>> from simulator.core.cards import parse_holding
>>> t = preflop_table()
>>> round(float(t[parse_holding("AsAh"), parse_holding("KdKc")]), 4)  # brute force agrees
0.8126
>>> round(float(t[parse_holding("AsKs"), parse_holding("QhJh")]), 4)
0.6272
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numba
import numpy as np

from simulator.core.archive import ArchiveError, Declared, read_archive, write_archive
from simulator.core.board_ranks import HOLD_A, HOLD_B, rank_rows
from simulator.core.canonical_boards import canonical_classes, decode_boards
from simulator.core.cards import NUM_HOLDINGS
from simulator.core.errors import HoldemError
from simulator.core.suits import CARD_PERMS, HOLDING_PERMS

FORMAT = "holdem-preflop-equity"
VERSION = 1
BOARDS = 1_712_304  # C(48, 5): the boards free of two holdings' four cards
_PAIRS = NUM_HOLDINGS * (NUM_HOLDINGS - 1) // 2
_UPPER = np.triu_indices(NUM_HOLDINGS, k=1)


class PreflopTableError(HoldemError, RuntimeError):
    """The shipped pre-flop equity table is missing or damaged: reinstall the package, or
    rebuild it with ``experiments/build/make_preflop_equity.py``."""


def data_path() -> Path:
    return Path(str(resources.files("simulator.core") / "data" / "preflop_equity.npz"))


# --- building ------------------------------------------------------------------------------


def _canonical_boards() -> tuple[np.ndarray, np.ndarray]:
    """Every five-card board's suit class: one representative (the class's canonical form,
    :mod:`simulator.core.canonical_boards`) and the number of boards in the class."""
    codes, sizes = canonical_classes(5, CARD_PERMS)
    return decode_boards(codes, 5), sizes


@numba.njit(cache=True, nogil=True)
def _accumulate(boards: np.ndarray, sizes: np.ndarray, hold_a: np.ndarray,
                hold_b: np.ndarray, out: np.ndarray) -> None:
    """``out[h, o] += size * (2 * [h beats o] + [tie])`` over the boards, live pairs only
    (a clashing opponent has rank 0, which neither beats nor ties a real rank)."""
    ranks = np.empty((1, hold_a.shape[0]), dtype=np.int16)
    empty = np.zeros((1, 0), dtype=np.int64)
    for i in range(boards.shape[0]):
        rank_rows(boards[i], empty, hold_a, hold_b, ranks)
        size = np.uint32(sizes[i])
        row = ranks[0]
        for h in range(row.shape[0]):
            mine = row[h]
            if mine == 0:
                continue
            target = out[h]
            for o in range(row.shape[0]):
                theirs = row[o]
                target[o] += size * (np.uint32(2) * np.uint32(mine < theirs)
                                     + np.uint32(mine == theirs))


def build_counts(progress: bool = False, boards: int | None = None) -> np.ndarray:
    """The upper triangle (h < o) of ``2 * wins + ties`` over all boards: shape (878,475,).

    ``boards`` counts only the first that many board classes: a tiny table for a smoke run
    of the build script, never one to ship (each class is whole, so the suit symmetrisation
    still divides evenly)."""
    every, every_size = _canonical_boards()
    cards, sizes = every[:boards], every_size[:boards]
    acc = np.zeros((NUM_HOLDINGS, NUM_HOLDINGS), dtype=np.uint32)
    step = 4096
    for start in range(0, len(cards), step):
        _accumulate(cards[start:start + step], sizes[start:start + step], HOLD_A, HOLD_B, acc)
        if progress:
            print(f"\r{min(start + step, len(cards))}/{len(cards)} boards", end="",
                  flush=True)
    if progress:
        print()
    total = np.zeros((NUM_HOLDINGS, NUM_HOLDINGS), dtype=np.uint64)
    for perm in HOLDING_PERMS:
        # the board class of B counted |class| times stands for every board in its class;
        # permuting the suits of the pair reaches the other boards' views of it
        total[np.ix_(perm, perm)] += acc
    if np.any(total % 24):
        raise AssertionError("suit symmetrisation left a remainder: the boards are wrong")
    total[clashes()] = 0  # pairs that share a card never meet
    return (total[_UPPER] // 24).astype(np.uint32)


@cache
def clashes() -> np.ndarray:
    """``clashes()[h, o]``: holdings h and o share a card (read-only, shape (1326, 1326))."""
    a, b = HOLD_A, HOLD_B
    out = ((a[:, None] == a[None, :]) | (a[:, None] == b[None, :])
           | (b[:, None] == a[None, :]) | (b[:, None] == b[None, :]))
    out.setflags(write=False)
    return out


def write_table(path: str | Path, upper: np.ndarray) -> None:
    write_archive(path, FORMAT, VERSION, {"boards": BOARDS, "holdings": NUM_HOLDINGS},
                  {"upper": upper.astype(np.uint32)}, compress=True)


# --- reading -------------------------------------------------------------------------------


def _expect(header: dict[str, Any], declared: Mapping[str, Declared]) -> None:
    d = declared.get("upper")
    if (set(declared) != {"upper"} or d is None or d.dtype != np.uint32
            or d.shape != (_PAIRS,) or header.get("boards") != BOARDS
            or header.get("holdings") != NUM_HOLDINGS):
        raise ArchiveError("not the table of every pair of 1326 holdings over C(48, 5) boards")


@cache
def preflop_table() -> np.ndarray:
    """``E[h, o]``, shape (1326, 1326), read-only; 0 where h and o share a card."""
    try:
        upper = read_archive(data_path(), FORMAT, (VERSION,), _expect).arrays["upper"]
    except ArchiveError as exc:
        raise PreflopTableError(f"pre-flop equity table: {exc}") from None
    if np.any(upper > 2 * BOARDS):
        raise PreflopTableError(f"pre-flop equity table {data_path()}: a count above "
                                f"{2 * BOARDS}")
    table = np.zeros((NUM_HOLDINGS, NUM_HOLDINGS))
    table[_UPPER] = upper / (2.0 * BOARDS)
    table.T[_UPPER] = 1.0 - table[_UPPER]
    table[clashes()] = 0.0
    table.setflags(write=False)
    return table

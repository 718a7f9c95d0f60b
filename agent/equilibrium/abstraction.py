"""The card abstraction: which bucket each holding is in, street by street.

* Pre-flop: the 169 lossless classes (``AA``, ``AKs``, ``AKo``, ...): suits matter only as
  suited or not before the flop, so nothing is lost.
* Flop and turn: percentile buckets of E[HS²] (:mod:`agent.equilibrium.features`); the
  river: percentile buckets of HS. Bucket b of a street holds the holdings whose feature
  lies between the b-th and (b+1)-th of its ``B - 1`` thresholds, which cut the feature's
  distribution over every (holding, board) pair of that street, each deal counted once,
  into B equal shares (fewer where ties make cuts coincide). Higher buckets are stronger.
* Imperfect recall: a bucket depends on the holding and the current board alone, not on the
  buckets of earlier streets. At a given table size that spends every bucket on telling
  today's hands apart instead of remembering yesterday's, which Waugh et al. (2009) and
  Johanson et al. (2013) found the better use of the same memory; the bet history still
  carries what the players did.

Why E[HS²] and not k-means on equity histograms (Johanson et al. 2013 found the
distribution-aware clustering somewhat better at equal size): the bot must bucket every
holding at the first decision of a street within milliseconds. A turn feature is 46 river
evaluations of every holding (about 1.5 ms) and a percentile is a binary search, whereas
assigning 1,326 histograms to hundreds of centroids would cost tens of milliseconds; and a
percentile abstraction needs no tables for the turn and river at all, so the whole
abstraction ships in a few megabytes. The flop, where the feature sums 1,081 runouts
(30 ms), is a table: one row of buckets per canonical flop (1,755 of them, suit isomorphism),
looked up through the suit permutation that makes the flop canonical.

Everything is computed in integers (exact suit invariance) by :func:`build`, which the
script ``experiments/build/make_cfr_tables.py`` runs to write the shipped file; the file is
validated on load (:func:`load`).

>>> a = load()
>>> a.counts[0], len(a.counts)
(169, 4)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agent.equilibrium import features
from agent.equilibrium.errors import StrategyFileError
from agent.strength.ranges import HOLDING_CLASS
from simulator.core.archive import ArchiveError, Declared, Limits, read_archive, write_archive
from simulator.core.cards import NUM_HOLDINGS
from simulator.core.packaged import packaged_file
from simulator.core.suits import HOLDING_PERMS

FORMAT = "holdem-cfr-buckets"
VERSION = 1
DEFAULT_PATH = packaged_file("agent.equilibrium", "data", "buckets.npz")
PREFLOP_CLASSES = 169
FLOPS = 1755
DEAD = -1
MAX_BUCKETS = 1981  # the river's HS codes take 1,981 values
LIMITS = Limits(file_bytes=16 << 20, array_bytes=8 << 20, members=16)


@dataclass(frozen=True)
class Features:
    """The distribution of each street's feature over all (holding, board) pairs, and the
    flop features of every canonical flop: what thresholds are cut from.

    ``flop`` (1755, 1326): E[HS²] sums per canonical flop (in its own suits; -1 dead), with
    ``flop_weight`` boards per canonical flop. ``turn_values``/``turn_weight``: the distinct
    turn features and how many (holding, board) pairs have each. ``river_weight`` (1981,):
    pairs per HS code.
    """

    flop_codes: np.ndarray
    flop: np.ndarray
    flop_weight: np.ndarray
    turn_values: np.ndarray
    turn_weight: np.ndarray
    river_weight: np.ndarray


def _pool_map(fn: Callable[[Any], Any], items: list[Any], workers: int) -> list[Any]:
    if workers <= 1:
        return [fn(x) for x in items]
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, items))


def compute_features(workers: int = 1, progress: Callable[[str], None] | None = None,
                     boards: int | None = None) -> Features:
    """Every street's feature over every canonical board (about a minute and a half on two
    cores); the numba kernels release the GIL, so ``workers`` threads share the boards.
    ``boards`` takes only the first that many canonical boards of each street: tiny features
    for a smoke run of the build script, never an abstraction to ship."""
    say = progress or (lambda _: None)

    def canonical(cards: int) -> tuple[np.ndarray, np.ndarray]:
        codes, weights = features.canonical_boards(cards)
        return codes[:boards], weights[:boards]

    flop_codes, flop_weight = canonical(3)
    say(f"flop features of {flop_codes.size} canonical flops")
    flop = np.stack(_pool_map(lambda c: features.squared_codes(features.decode(c, 3)),
                              flop_codes.tolist(), workers))
    turn_codes, turn_weight = canonical(4)
    say(f"turn features of {turn_codes.size} canonical turn boards")

    def turn_chunk(chunk: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        values, weights = [], []
        for code, w in chunk:
            f = features.squared_codes(features.decode(int(code), 4))
            live = f[f >= 0]
            values.append(live)
            weights.append(np.full(live.size, w, dtype=np.int64))
        v = np.concatenate(values)
        u, inverse = np.unique(v, return_inverse=True)
        return u, np.bincount(inverse, weights=np.concatenate(weights)).astype(np.int64)

    pairs = np.stack([turn_codes, turn_weight], axis=1)
    parts = _pool_map(turn_chunk, np.array_split(pairs, min(64, len(pairs))), workers)
    allv = np.concatenate([p[0] for p in parts])
    allw = np.concatenate([p[1] for p in parts])
    turn_values, inverse = np.unique(allv, return_inverse=True)
    turn_w = np.bincount(inverse, weights=allw).astype(np.int64)
    river_codes, river_board_weight = canonical(5)
    say(f"river features of {river_codes.size} canonical river boards")

    def river_chunk(chunk: np.ndarray) -> np.ndarray:
        hist = np.zeros(MAX_BUCKETS, dtype=np.int64)
        for code, w in chunk:
            c = features.river_codes(features.decode(int(code), 5))
            hist += np.bincount(c[c >= 0], minlength=MAX_BUCKETS) * w
        return hist

    rivers = np.stack([river_codes, river_board_weight], axis=1)
    river = np.sum(_pool_map(river_chunk, np.array_split(rivers, min(64, len(rivers))),
                             workers), axis=0)
    return Features(flop_codes, flop, flop_weight, turn_values, turn_w, river)


def quantile_thresholds(values: np.ndarray, weights: np.ndarray, buckets: int) -> np.ndarray:
    """Cuts of a weighted distribution into ``buckets`` equal shares: distinct, ascending.

    A value v falls in bucket ``searchsorted(cuts, v, side="right")``.

    >>> quantile_thresholds(np.arange(10), np.ones(10, dtype=np.int64), 5).tolist()
    [2, 4, 6, 8]
    >>> quantile_thresholds(np.array([0, 1]), np.array([9, 1]), 4).tolist()  # no share ends at 1
    []
    """
    order = np.argsort(values, kind="stable")
    v, w = values[order], weights[order]
    cum = np.cumsum(w)
    total = cum[-1]
    targets = [total * k // buckets for k in range(1, buckets)]
    idx = np.searchsorted(cum, targets, side="right")
    idx = idx[idx < v.size]
    cuts = np.unique(v[idx])
    return cuts[cuts > v[0]]


class CardAbstraction:
    """The buckets of every holding on every street; see the module docstring.

    ``counts``: buckets per street (pre-flop 169). ``thresholds``: the flop, turn and river
    cuts. ``flop_codes``/``flop_buckets``: the canonical flops and the flop bucket of every
    holding on each (in the canonical flop's suits; -1 dead). ``checksum`` identifies the
    file it came from (a strategy records it).
    """

    def __init__(self, thresholds: tuple[np.ndarray, np.ndarray, np.ndarray],
                 flop_codes: np.ndarray, flop_buckets: np.ndarray, checksum: int = 0,
                 path: Path | None = None) -> None:
        self.thresholds = tuple(np.asarray(t, dtype=np.int64) for t in thresholds)
        self.flop_codes = np.asarray(flop_codes, dtype=np.int64)
        self.flop_buckets = np.asarray(flop_buckets)
        self.counts: tuple[int, ...] = (PREFLOP_CLASSES,) + tuple(
            int(t.size) + 1 for t in self.thresholds)
        self.checksum = int(checksum)
        self.path = path

    @property
    def name(self) -> str:
        """A short description: ``169-Bf-Bt-Br imperfect recall, E[HS²]/HS percentiles``."""
        return "-".join(map(str, self.counts)) + " imperfect recall, E[HS2]/HS percentiles"

    def street_buckets(self, board: tuple[int, ...] | np.ndarray) -> np.ndarray:
        """The bucket of all 1326 holdings on the street a board of 0, 3, 4 or 5 cards
        shows (-1 where a holding shares a card with the board)."""
        cards = np.asarray(board, dtype=np.int64)
        if cards.size == 0:
            return HOLDING_CLASS.astype(np.int32)
        if cards.size == 3:
            code, k = features.canonical(cards)
            row = self.flop_buckets[int(np.searchsorted(self.flop_codes, code))]
            out = row[HOLDING_PERMS[k]].astype(np.int32)
            out[out == np.iinfo(row.dtype).max] = DEAD
            return out
        values = features.feature(cards)
        out = np.searchsorted(self.thresholds[cards.size - 3], values, side="right")
        return np.where(values >= 0, out, DEAD).astype(np.int32)

    def deal_buckets(self, board: np.ndarray, river_ranks: np.ndarray | None = None
                     ) -> np.ndarray:
        """(4, 1326): the bucket of every holding on each street of a five-card board, -1 on
        every street for the holdings that share a card with any of the five."""
        out = np.empty((4, NUM_HOLDINGS), dtype=np.int32)
        for street, size in enumerate((0, 3, 4)):
            out[street] = self.street_buckets(board[:size])
        ranks = features.river_ranks(board) if river_ranks is None else river_ranks
        codes = features.codes_of_ranks(ranks)
        out[3] = np.searchsorted(self.thresholds[2], codes, side="right")
        out[:, codes < 0] = DEAD
        return out


def build(found: Features, counts: tuple[int, int, int]) -> CardAbstraction:
    """The abstraction with (about) ``counts`` buckets on the flop, turn and river."""
    flop_cuts = quantile_thresholds(
        found.flop[found.flop >= 0],
        np.broadcast_to(found.flop_weight[:, None], found.flop.shape)[found.flop >= 0], counts[0])
    turn_cuts = quantile_thresholds(found.turn_values, found.turn_weight, counts[1])
    codes = np.arange(MAX_BUCKETS)
    river_cuts = quantile_thresholds(codes[found.river_weight > 0],
                                     found.river_weight[found.river_weight > 0], counts[2])
    dtype = np.uint8 if flop_cuts.size + 1 < 255 else np.uint16
    flop_buckets = np.searchsorted(flop_cuts, found.flop, side="right").astype(np.int64)
    flop_buckets[found.flop < 0] = np.iinfo(dtype).max
    table = flop_buckets.astype(dtype)
    return CardAbstraction((flop_cuts, turn_cuts, river_cuts), found.flop_codes, table)


# --- the file -----------------------------------------------------------------------------------


def save(abstraction: CardAbstraction, path: str | Path) -> None:
    """Write the abstraction's file (compressed: the flop table shrinks by half)."""
    flop, turn, river = abstraction.thresholds
    write_archive(path, FORMAT, VERSION, {"counts": list(abstraction.counts)},
                  {"flop_cuts": flop, "turn_cuts": turn, "river_cuts": river,
                   "flop_codes": abstraction.flop_codes,
                   "flop_buckets": abstraction.flop_buckets}, compress=True)


def _expect(header: dict[str, Any], declared: Mapping[str, Declared]) -> None:
    counts = header.get("counts")
    if (not isinstance(counts, list) or len(counts) != 4 or counts[0] != PREFLOP_CLASSES
            or not all(isinstance(c, int) and 1 <= c <= MAX_BUCKETS for c in counts)):
        raise ArchiveError(f"bad bucket counts {counts!r}")
    wanted = {"flop_cuts": ((counts[1] - 1,), "i8"), "turn_cuts": ((counts[2] - 1,), "i8"),
              "river_cuts": ((counts[3] - 1,), "i8"), "flop_codes": ((FLOPS,), "i8"),
              "flop_buckets": ((FLOPS, NUM_HOLDINGS), "u1" if counts[1] < 255 else "u2")}
    if set(declared) != set(wanted):
        raise ArchiveError(f"arrays {sorted(declared)}, expected {sorted(wanted)}")
    for name, (shape, kind) in wanted.items():
        d = declared[name]
        if d.shape != shape or d.dtype.str[1:] != kind:
            raise ArchiveError(f"array {name!r} is {d.dtype.str[1:]} {d.shape}, expected "
                               f"{kind} {shape}")


def read(path: str | Path) -> CardAbstraction:
    """Read and validate a bucket file; StrategyFileError naming the file and the problem."""
    try:
        got = read_archive(path, FORMAT, (VERSION,), expect=_expect, limits=LIMITS)
    except ArchiveError as exc:
        text = str(exc)
        prefix = f"{path}: "
        raise StrategyFileError(text if text.startswith(prefix) else prefix + text) from None
    a = got.arrays
    return CardAbstraction((a["flop_cuts"], a["turn_cuts"], a["river_cuts"]), a["flop_codes"],
                           a["flop_buckets"], int(got.header["checksum"]), Path(path))


@functools.lru_cache(maxsize=4)
def load(path: str | None = None) -> CardAbstraction:
    """The shipped abstraction (or the file at ``path``), read once per process."""
    return read(DEFAULT_PATH if path is None else Path(path))

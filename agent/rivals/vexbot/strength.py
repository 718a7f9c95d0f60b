"""Showdown strengths: what a hand shown at showdown is worth, and our chance of beating an
opponent whose shown strengths after a betting line form a histogram.

A hand's *strength* on a five-card board is its percentile among the holdings the board
leaves (the share it beats, ties counted half), ``x`` in 0..1. The opponent's shown hands
are binned by ``x`` into ``bins`` equal bins; within a bin its strength is taken as uniform,
so against bin ``j`` a hand of strength ``x`` wins ``clip(x * bins - j, 0, 1)``.

Before the river our strength is a distribution over the runouts: :func:`win_matrix` gives,
per holding, the mean of that win function over the runouts, ``A[h, j]``, so the chance of
winning against a histogram ``q`` is ``A @ q``. Card removal: a runout that shares a card
with the holding is left out of that holding's mean (and the board's cards out of every
runout); the opponent's histogram is not conditioned on our cards. The turn averages over
all 46 rivers, the flop over ``runouts`` turn-and-river pairs drawn by a generator seeded
from the board (so the same board always gives the same matrix, and asking draws nothing
from the bot's generator), each runout's strength counted in a fine bin (``FINE`` to a
histogram bin, its centre taken: within ``1 / (16 bins)`` of exact) so the mean is one
count and one small product; pre-flop the shipped class distributions are used
(:mod:`agent.rivals.vexbot.prior`: each of the 169 classes' final strengths on sampled
boards).

>>> from simulator.core.cards import parse_cards, parse_holding
>>> x = river_strengths(tuple(parse_cards("2c7d9hJsKd")))
>>> round(float(x[parse_holding("AsAh")]), 3), bool(np.isnan(x[parse_holding("2c3c")]))
(0.871, True)
"""

from __future__ import annotations

import functools

import numpy as np

from agent.strength.board_table import board_table
from agent.strength.ranges import HOLDING_CLASS
from simulator.core.cards import NUM_HOLDINGS

_KEPT = 8


def percentiles(ranks: np.ndarray) -> np.ndarray:
    """Each holding's percentile for a (..., 1326) array of hand ranks (1 the best hand, 0 a
    clash: NaN out), all rows at once by counting each row's ranks."""
    ranks = np.asarray(ranks)
    flat = ranks.reshape(-1, NUM_HOLDINGS).astype(np.int64)
    rows = flat.shape[0]
    width = int(flat.max(initial=0)) + 2
    offsets = (np.arange(rows, dtype=np.int64) * width)[:, None]
    counts = np.bincount((flat + offsets).ravel(), minlength=rows * width).reshape(rows, width)
    counts[:, 0] = 0  # clashes count for nobody
    # holdings of a worse rank than r (a larger number): the row total less those up to r
    upto = np.cumsum(counts, axis=1)
    live = upto[:, -1:]
    worse = live - np.take_along_axis(upto, flat, axis=1)
    ties = np.take_along_axis(counts, flat, axis=1) - 1
    out = (worse + 0.5 * ties) / np.maximum(live - 1, 1)
    return np.where(flat > 0, out, np.nan).reshape(ranks.shape)


def river_strengths(board: tuple[int, ...]) -> np.ndarray:
    """Every holding's strength on a five-card board (NaN where it clashes)."""
    return percentiles(board_table(board).ranks)


def bin_of(x: float, bins: int) -> int:
    """The histogram bin of strength ``x``.

    >>> bin_of(0.0, 4), bin_of(0.5, 4), bin_of(1.0, 4)
    (0, 2, 3)
    """
    return min(int(x * bins), bins - 1)


def win_against_bins(x: np.ndarray, bins: int) -> np.ndarray:
    """``clip(x * bins - j, 0, 1)`` for every bin ``j``: shape ``x.shape + (bins,)``."""
    return np.clip(x[..., None] * bins - np.arange(bins), 0.0, 1.0)


FINE = 8  # fine bins per histogram bin for our own strengths


@functools.lru_cache(maxsize=_KEPT)
def _postflop_matrix(board: tuple[int, ...], bins: int, runouts: int) -> np.ndarray:
    table = board_table(board)
    if len(board) == 5:
        x = percentiles(table.ranks)[None, :]
    else:
        _, ranks = table.future(5 - len(board))
        if ranks.shape[0] > runouts:
            rng = np.random.default_rng(list(board))
            ranks = ranks[np.sort(rng.choice(ranks.shape[0], runouts, replace=False))]
        x = percentiles(ranks)
    fine = FINE * bins
    valid = ~np.isnan(x)
    holding = np.broadcast_to(np.arange(NUM_HOLDINGS), x.shape)[valid]
    cell = np.minimum((x[valid] * fine).astype(np.int64), fine - 1)
    hist = np.bincount(holding * fine + cell, minlength=NUM_HOLDINGS * fine).astype(
        np.float64).reshape(NUM_HOLDINGS, fine)
    hist /= np.maximum(hist.sum(axis=1, keepdims=True), 1.0)
    if len(board) == 5:  # one runout: the exact strength, not its fine bin
        out = win_against_bins(np.where(valid[0], x[0], 0.0), bins) * valid[0][:, None]
    else:
        out = hist @ win_against_bins((np.arange(fine) + 0.5) / fine, bins)
    out.setflags(write=False)
    return out


def win_matrix(board: tuple[int, ...], bins: int, runouts: int,
               preflop: np.ndarray | None = None) -> np.ndarray:
    """``A`` (1326, bins): each holding's mean chance of beating an opponent of each bin
    (module docstring); ``preflop`` is the (169, fine) class distribution of final
    strengths used before the flop. Read-only, kept for the last few boards."""
    if board:
        return _postflop_matrix(tuple(sorted(board)), bins, runouts)
    if preflop is None:
        raise ValueError("win_matrix: a pre-flop decision needs the class distributions")
    return _preflop_matrix(preflop.tobytes(), preflop.shape, bins)


@functools.lru_cache(maxsize=4)
def _preflop_matrix(raw: bytes, shape: tuple[int, ...], bins: int) -> np.ndarray:
    dist = np.frombuffer(raw, dtype=np.float64).reshape(shape)
    fine = dist.shape[1]
    centers = (np.arange(fine) + 0.5) / fine
    per_class = dist @ win_against_bins(centers, bins)  # (169, bins)
    out = per_class[HOLDING_CLASS]
    out.setflags(write=False)
    return out


def rebin(histogram: np.ndarray, bins: int) -> np.ndarray:
    """A fine histogram (last axis) summed into ``bins`` bins by its bins' centres.

    >>> rebin(np.array([1.0, 2.0, 3.0, 4.0]), 2).tolist()
    [3.0, 7.0]
    """
    fine = histogram.shape[-1]
    target = np.minimum(((np.arange(fine) + 0.5) / fine * bins).astype(np.int64), bins - 1)
    out = np.zeros(histogram.shape[:-1] + (bins,))
    for i in range(fine):
        out[..., target[i]] += histogram[..., i]
    return out

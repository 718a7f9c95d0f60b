"""Monte-Carlo showdown equity of one hand against the live opponents' (weighted) ranges.

One numba kernel serves every rival: for each sample it draws a holding for every opponent
from that opponent's weights (uniform weights are "random hands"), rejecting holdings that
share a card with an earlier opponent, deals the rest of the board from the cards left, ranks
every seven-card hand with ``simulator.core.hand_ranks.rank_row`` and credits our share of
the pot: 1 for a win, ``1 / k`` for a k-way tie at the top, 0 for a loss. The result is our
equity when the hand is checked down, the number the ``mc`` bot and the exploiter act on.

Random numbers come from numba's own generator, seeded on every call from the ``seed`` the
caller draws from its seeded generator, so a bot's decisions replay exactly.

>>> from simulator.core.cards import parse_cards
>>> e = equity(parse_cards("AdQc"), parse_cards("3h4cJh"), [None], samples=20000, seed=1)
>>> abs(e - 0.511399) < 0.01  # the exact turn-and-river value (DESIGN.md section 5)
True
>>> equity(parse_cards("AsKs"), parse_cards("QsJsTs2d3c"), [None, None], samples=50, seed=1)
1.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np

from agent.strength.errors import RangeError
from simulator.core.cards import HOLDINGS, NUM_CARDS, NUM_HOLDINGS, parse_cards
from simulator.core.errors import CardError
from simulator.core.hand_ranks import rank_row

_HOLD_A = HOLDINGS[:, 0].astype(np.int64)
_HOLD_B = HOLDINGS[:, 1].astype(np.int64)
_MAX_TRIES = 64  # draws per opponent before a sample is given up (ranges that clash a lot)


@numba.njit(cache=True, nogil=True)
def _equity_kernel(hole: np.ndarray, board: np.ndarray, cdf: np.ndarray, hold_a: np.ndarray,
                   hold_b: np.ndarray, samples: int, seed: int) -> float:
    """Our mean pot share over ``samples`` deals; ``cdf[i]`` is opponent i's cumulative
    weights over the 1326 holdings (zero steps where a holding clashes with known cards)."""
    np.random.seed(seed)
    n_opp = cdf.shape[0]
    k = board.shape[0]
    known = np.int64(0)
    for c in hole:
        known |= np.int64(1) << c
    for c in board:
        known |= np.int64(1) << c
    deck = np.empty(52, dtype=np.int64)
    n_deck = 0
    for c in range(52):
        if not (known >> c) & 1:
            deck[n_deck] = c
            n_deck += 1
    row = np.empty(7, dtype=np.int64)
    full = np.empty(5, dtype=np.int64)
    full[:k] = board
    opp = np.empty((n_opp, 2), dtype=np.int64)
    total = 0.0
    valid = 0
    for _ in range(samples):
        used = known
        ok = True
        for i in range(n_opp):
            top = cdf[i, cdf.shape[1] - 1]
            drawn = False
            for _try in range(_MAX_TRIES):
                h = np.searchsorted(cdf[i], np.random.random() * top, side="right")
                a, b = hold_a[h], hold_b[h]
                if not ((used >> a) & 1 or (used >> b) & 1):
                    drawn = True
                    break
            if not drawn:
                ok = False
                break
            opp[i, 0], opp[i, 1] = a, b
            used |= (np.int64(1) << a) | (np.int64(1) << b)
        if not ok:
            continue
        for j in range(k, 5):
            while True:
                c = deck[np.random.randint(0, n_deck)]
                if not (used >> c) & 1:
                    break
            full[j] = c
            used |= np.int64(1) << c
        row[2:] = full
        row[0], row[1] = hole[0], hole[1]
        mine = rank_row(row)
        best = mine
        ties = 1
        for i in range(n_opp):
            row[0], row[1] = opp[i, 0], opp[i, 1]
            theirs = rank_row(row)
            if theirs < best:
                best = theirs
                ties = 1
            elif theirs == best:
                ties += 1
        if best == mine:
            total += 1.0 / ties
        valid += 1
    return total / valid if valid else 0.0


def dead_holdings(cards: Sequence[int]) -> np.ndarray:
    """Mask of the holdings that share a card with ``cards``.

    >>> int(dead_holdings([0]).sum()), int(dead_holdings([0, 1]).sum())
    (51, 101)
    """
    dead = np.zeros(NUM_CARDS, dtype=bool)
    dead[list(cards)] = True
    return dead[_HOLD_A] | dead[_HOLD_B]


def live_weights(weights: np.ndarray | None, known: Sequence[int]) -> np.ndarray:
    """Weights (uniform when None) with the holdings that clash with ``known`` cards set to
    0; a range that weighs nothing once the clashes are gone falls back to uniform."""
    dead = dead_holdings(known)
    w = np.ones(NUM_HOLDINGS) if weights is None else np.array(weights, dtype=np.float64)
    if w.shape != (NUM_HOLDINGS,) or not np.all(np.isfinite(w)) or np.any(w < 0):
        raise RangeError(f"bad weights: expected 1326 finite values >= 0, got shape {w.shape}")
    w[dead] = 0.0
    if not w.sum() > 0:
        w = (~dead).astype(np.float64)
    return w


def equity(hole: Sequence[int], board: Sequence[int],
           weights: Sequence[np.ndarray | None], samples: int = 1000, seed: int = 0) -> float:
    """Our showdown equity against one range per live opponent (None: random hands).

    ``hole`` and ``board`` are card indices (or strings); the board holds 0, 3, 4 or 5 cards.
    """
    hole_cards = parse_cards(hole)
    board_cards = parse_cards(board)
    if len(hole_cards) != 2 or len(board_cards) not in (0, 3, 4, 5):
        raise CardError(f"bad spot: expected 2 hole cards and 0, 3, 4 or 5 board cards, got "
                        f"{len(hole_cards)} and {len(board_cards)}")
    if set(hole_cards) & set(board_cards):
        raise CardError("hole cards clash with the board")
    if not 1 <= len(weights) <= 9:
        raise RangeError(f"bad number of opponents {len(weights)}: expected 1..9")
    if samples < 1:
        raise ValueError(f"bad samples {samples}: expected >= 1")
    known = hole_cards + board_cards
    cdf = np.stack([np.cumsum(live_weights(w, known)) for w in weights])
    return float(_equity_kernel(np.array(hole_cards, dtype=np.int64),
                                np.array(board_cards, dtype=np.int64), cdf, _HOLD_A, _HOLD_B,
                                int(samples), int(seed) % (2**32)))

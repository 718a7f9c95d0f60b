"""Monte-Carlo showdown equity of one hand against the live opponents' (weighted) ranges.

One numba kernel serves every rival: for each sample it draws a holding for every opponent
from that opponent's weights (uniform weights are "random hands") among the holdings free of
the cards drawn so far, weights the deal so that deals come in proportion to the product of
the opponents' weights (see ``_equity_kernel``), deals the rest of the board from the cards
left, ranks every seven-card hand with ``simulator.core.hand_ranks.rank_row`` and credits
our share of the pot: 1 for a win, ``1 / k`` for a k-way tie at the top, 0 for a loss. The
result is our equity when the hand is checked down, the number the ``mc`` bot and the
exploiter act on.

Random numbers come from numba's own generator, seeded on every call from the ``seed`` the
caller draws from its seeded generator, so a bot's decisions replay exactly.

>>> from simulator.core.cards import parse_cards
>>> e = equity(parse_cards("AdQc"), parse_cards("3h4cJh"), [None], samples=20000, seed=1)
>>> abs(e - 0.511399) < 0.01  # the exact turn-and-river value
True
>>> equity(parse_cards("AsKs"), parse_cards("QsJsTs2d3c"), [None, None], samples=50, seed=1)
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numba
import numpy as np

from agent.strength.errors import RangeError
from simulator.core.cards import HOLDING_INDEX, HOLDINGS, NUM_CARDS, NUM_HOLDINGS, parse_cards
from simulator.core.errors import CardError
from simulator.core.hand_ranks import rank_row

_HOLD_A = HOLDINGS[:, 0].astype(np.int64)
_HOLD_B = HOLDINGS[:, 1].astype(np.int64)
_TRIES = 16  # draws from a whole range before walking the part free of drawn cards
_INDEX = HOLDING_INDEX.astype(np.int64)


@numba.njit(cache=True, nogil=True)
def _free_mass(w: np.ndarray, card_mass: np.ndarray, index: np.ndarray, drawn: np.ndarray,
               n_drawn: int, total: float) -> float:
    """The weight of a range's holdings that share no card with the ``n_drawn`` drawn cards
    (inclusion-exclusion: a holding made of two drawn cards was subtracted twice)."""
    z = total
    for x in range(n_drawn):
        z -= card_mass[drawn[x]]
        for y in range(x):
            z += w[index[drawn[x], drawn[y]]]
    return max(z, 0.0)


@numba.njit(cache=True, nogil=True)
def _free_card(deck: np.ndarray, n_deck: int, used: np.int64) -> np.int64:
    """A card drawn uniformly from the deck's cards not in ``used`` (by rejection: at most 27
    of the 50 are ever used)."""
    while True:
        c = deck[np.random.randint(0, n_deck)]
        if not (used >> c) & 1:
            return c


@numba.njit(cache=True, nogil=True)
def _draw(cdf: np.ndarray, w: np.ndarray, used: np.int64, hold_a: np.ndarray,
          hold_b: np.ndarray) -> int:
    """A holding from the weights ``w`` restricted to those free of ``used`` cards: by
    rejection from the whole range, else (a range mostly blocked) by a walk over the free
    part; -1 when nothing is free."""
    top = cdf[cdf.shape[0] - 1]
    for _try in range(_TRIES):
        h = np.searchsorted(cdf, np.random.random() * top, side="right")
        if not ((used >> hold_a[h]) & 1 or (used >> hold_b[h]) & 1):
            return h
    free = 0.0
    for h in range(w.shape[0]):
        if not ((used >> hold_a[h]) & 1 or (used >> hold_b[h]) & 1):
            free += w[h]
    target = np.random.random() * free
    last = -1
    for h in range(w.shape[0]):
        if w[h] > 0 and not ((used >> hold_a[h]) & 1 or (used >> hold_b[h]) & 1):
            last = h
            target -= w[h]
            if target < 0:
                return h
    return last


@numba.njit(cache=True, nogil=True)
def _equity_kernel(hole: np.ndarray, board: np.ndarray, w: np.ndarray, flat: np.ndarray,
                   index: np.ndarray, hold_a: np.ndarray, hold_b: np.ndarray, samples: int,
                   seed: int) -> float:
    """Our pot share over ``samples`` deals, importance-weighted.

    ``w[i]`` are opponent i's weights (0 where a holding clashes with known cards);
    ``flat[i]`` says they are equal over every live holding (random hands). Opponent i is
    drawn from its weights restricted to the holdings free of the cards drawn before it,
    which leaves out how much of its range those cards removed; weighting the deal by the
    free share of each range (``_free_mass``) restores the joint distribution, proportional
    to the product of the weights over deals that share no card. A flat range keeps the
    same share whatever was drawn before it, so it needs no weight.
    """
    np.random.seed(seed)
    n_opp = w.shape[0]
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
    cdf = np.empty_like(w)
    card_mass = np.zeros((n_opp, 52))  # [i, c]: the weight of i's holdings that hold c
    totals = np.zeros(n_opp)
    for i in range(n_opp):
        for h in range(w.shape[1]):
            totals[i] += w[i, h]
            cdf[i, h] = totals[i]
            card_mass[i, hold_a[h]] += w[i, h]
            card_mass[i, hold_b[h]] += w[i, h]
    row = np.empty(7, dtype=np.int64)
    full = np.empty(5, dtype=np.int64)
    full[:k] = board
    drawn = np.empty(2 * n_opp, dtype=np.int64)
    total = 0.0
    mass = 0.0
    for _ in range(samples):
        used = known
        weight = 1.0
        for i in range(n_opp):
            if i and not flat[i]:
                weight *= _free_mass(w[i], card_mass[i], index, drawn, 2 * i,
                                     totals[i]) / totals[i]
            if flat[i]:  # random hands: two free cards, cheaper than a search of the range
                a = _free_card(deck, n_deck, used)
                b = _free_card(deck, n_deck, used | (np.int64(1) << a))
            else:
                h = _draw(cdf[i], w[i], used, hold_a, hold_b) if weight > 0.0 else -1
                if h < 0:
                    weight = 0.0
                    break
                a, b = hold_a[h], hold_b[h]
            drawn[2 * i], drawn[2 * i + 1] = a, b
            used |= (np.int64(1) << a) | (np.int64(1) << b)
        if weight <= 0.0:
            continue
        for j in range(k, 5):
            full[j] = _free_card(deck, n_deck, used)
            used |= np.int64(1) << full[j]
        row[2:] = full
        row[0], row[1] = hole[0], hole[1]
        mine = rank_row(row)
        best = mine
        ties = 1
        for i in range(n_opp):
            row[0], row[1] = drawn[2 * i], drawn[2 * i + 1]
            theirs = rank_row(row)
            if theirs < best:
                best = theirs
                ties = 1
            elif theirs == best:
                ties += 1
        if best == mine:
            total += weight / ties
        mass += weight
    return total / mass if mass > 0 else 0.0


_TOUCHES = np.zeros((NUM_CARDS, NUM_HOLDINGS), dtype=bool)  # [card, holding]: shares it
_TOUCHES[_HOLD_A, np.arange(NUM_HOLDINGS)] = True
_TOUCHES[_HOLD_B, np.arange(NUM_HOLDINGS)] = True


def dead_holdings(cards: Sequence[int]) -> np.ndarray:
    """Mask of the holdings that share a card with ``cards``.

    >>> int(dead_holdings([0]).sum()), int(dead_holdings([0, 1]).sum())
    (51, 101)
    """
    # numpy's stub types any() along an axis as an array or a scalar: here an array
    return cast(np.ndarray, _TOUCHES[list(cards)].any(axis=0))


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


def _cards(cards: Sequence[int] | str) -> list[int]:
    """Card indices as given (the bots' fast path), else parsed and validated."""
    if not isinstance(cards, str) and all(
            type(c) is int and 0 <= c < NUM_CARDS for c in cards):
        return list(cards)
    return parse_cards(cards)


def equity(hole: Sequence[int], board: Sequence[int],
           weights: Sequence[np.ndarray | None], samples: int = 1000, seed: int = 0) -> float:
    """Our showdown equity against one range per live opponent (None: random hands).

    ``hole`` and ``board`` are card indices (or strings); the board holds 0, 3, 4 or 5 cards.
    """
    hole_cards = _cards(hole)
    board_cards = _cards(board)
    if len(hole_cards) != 2 or len(board_cards) not in (0, 3, 4, 5):
        raise CardError(f"bad spot: expected 2 hole cards and 0, 3, 4 or 5 board cards, got "
                        f"{len(hole_cards)} and {len(board_cards)}")
    if len(set(hole_cards + board_cards)) < len(hole_cards) + len(board_cards):
        raise CardError("bad spot: a card is repeated in the hole cards and board")
    if not 1 <= len(weights) <= 9:
        raise RangeError(f"bad number of opponents {len(weights)}: expected 1..9")
    if samples < 1:
        raise ValueError(f"bad samples {samples}: expected >= 1")
    known = hole_cards + board_cards
    w = np.stack([live_weights(x, known) for x in weights])
    live = ~dead_holdings(known)
    flat = np.array([row[live].min() == row[live].max() for row in w])
    return float(_equity_kernel(np.array(hole_cards, dtype=np.int64),
                                np.array(board_cards, dtype=np.int64), w, flat, _INDEX,
                                _HOLD_A, _HOLD_B, int(samples), int(seed) % (2**32)))

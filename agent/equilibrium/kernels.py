"""Numba kernels of the equilibrium layer: one walk of the betting tree with vectors over
private states, and the payoffs of its terminals.

A *private state* is what one player holds: a hold'em holding (two cards, index 0..1325), or
one card in Kuhn and Leduc. ``cards[h]`` lists its cards, the second -1 for one-card states.
Two states are *compatible* when they share no card: only compatible states can face each
other. A state that shares a card with the board is *dead*: its bucket is -1 and its reach 0.

A walk is one iteration of counterfactual regret minimisation on one board (public chance
sampling, Johanson et al. 2012): each player's *reach* is a vector over its states (the
probability its own strategy plays to the node), and each node returns each player's
*counterfactual values*, also a vector over states: the expected payoff, in chips, of holding
that state at the node, weighted by the opponent's reach and counting only compatible
opponents. Both players are updated in the same walk (simultaneous updates).

At a showdown with both players in for ``s`` chips, a state's value is ``s * (W - L)``, W and L
the opponent reach of the compatible states it beats and loses to. Sorting the live states by
strength once per board, W and L of every state come from one pass with running sums per card
(the showdown trick of Johanson et al. 2011): the states sharing a card with h are taken away
card by card, and h itself, counted twice, is put back once.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

DECISION, FOLD, SHOWDOWN, CHANCE = 0, 1, 2, 3
MAX_CARDS = 64
"""Card slots of the per-card sums: the 52 cards, then the second "card" of one-card states."""


# The walks' inputs as named records: numba passes a named tuple of arrays as cheaply as the
# arrays one by one, and a reader sees which number is which.


class TreeArrays(NamedTuple):
    """The betting tree as the walks read it (:class:`agent.equilibrium.tree.Tree`'s arrays,
    one row a node): its kind, the player to act, the betting round, the children by action
    (-1 where illegal), each player's chips in, and the first row of its regrets."""

    kind: np.ndarray
    player: np.ndarray
    round: np.ndarray
    child: np.ndarray
    spent: np.ndarray
    row_base: np.ndarray


class BoardStates(NamedTuple):
    """One board's live states, strongest first: each one's bucket per round
    (``buckets[round, h]``), its cards (:func:`card_pairs`) and the first state tied with it
    at the showdown."""

    buckets: np.ndarray
    ca: np.ndarray
    cb: np.ndarray
    group_start: np.ndarray


class RegretTables(NamedTuple):
    """The solver's tables: the buckets of each round (rows per decision node), the regrets
    the current strategy comes from (read only), and the walk's additions to the regrets and
    to the average strategy."""

    bucket_counts: np.ndarray
    regrets: np.ndarray
    delta_r: np.ndarray
    delta_s: np.ndarray


class WalkBuffers(NamedTuple):
    """Per-depth scratch of :func:`walk`: reach (depth, n), the children's values (depth, 3,
    2, n), the strategy (depth, 3, n) and per-bucket rows (depth, buckets, 3); and per-card
    sums (6, MAX_CARDS)."""

    reach: np.ndarray
    kids: np.ndarray
    sigma: np.ndarray
    rows: np.ndarray
    per_card: np.ndarray


def card_pairs(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' two card arrays of the states ``cards`` (n, 2; second -1 for one card).

    A one-card state gets a second card of its own, ``52 + index``, which no other state
    holds: the two-card formulas then count it exactly as one card (the state itself, put
    back once, is the only one holding it).
    """
    first = np.ascontiguousarray(cards[:, 0], dtype=np.int64)
    second = np.ascontiguousarray(cards[:, 1], dtype=np.int64)
    alone = second < 0
    if alone.any():
        slots = 52 + np.flatnonzero(alone)
        if slots.max() >= MAX_CARDS:
            raise ValueError(f"at most {MAX_CARDS - 52} one-card states")
        second[alone] = slots
    return first, second


@numba.njit(cache=True, nogil=True)
def card_totals(reach: np.ndarray, ca: np.ndarray, cb: np.ndarray, per_card: np.ndarray
                ) -> float:
    """The total of ``reach`` over the states, and into ``per_card[c]`` (reset here) the
    reach of the states holding card c: with them, the reach compatible with a state h is
    ``total - per_card[ca[h]] - per_card[cb[h]] + reach[h]``."""
    per_card[:] = 0.0
    total = 0.0
    for h in range(reach.shape[0]):
        x = reach[h]
        total += x
        per_card[ca[h]] += x
        per_card[cb[h]] += x
    return total


@numba.njit(cache=True, nogil=True)
def fold_pair(r0: np.ndarray, r1: np.ndarray, ca: np.ndarray, cb: np.ndarray, stake0: float,
              stake1: float, out0: np.ndarray, out1: np.ndarray, do0: bool, do1: bool,
              sums: np.ndarray) -> None:
    """Values at a fold: ``out0[h] = stake0 * (player 1's reach compatible with h)``, and
    ``out1`` alike from player 0's reach (each only if ``do0``/``do1``)."""
    n = r0.shape[0]
    t0 = card_totals(r0, ca, cb, sums[0])
    t1 = card_totals(r1, ca, cb, sums[1])
    if do0:
        for h in range(n):
            out0[h] = stake0 * (t1 - sums[1, ca[h]] - sums[1, cb[h]] + r1[h])
    if do1:
        for h in range(n):
            out1[h] = stake1 * (t0 - sums[0, ca[h]] - sums[0, cb[h]] + r0[h])


@numba.njit(cache=True, nogil=True)
def showdown_pair(r0: np.ndarray, r1: np.ndarray, ca: np.ndarray, cb: np.ndarray,
                  group_start: np.ndarray, stake: float, out0: np.ndarray, out1: np.ndarray,
                  sums: np.ndarray) -> None:
    """Both players' showdown values, ``stake * (W - L)`` (module docstring), in one pass.

    The states are the live ones, strongest first; ``group_start[h]`` is the first state
    tied with h. ``sums`` (6, MAX_CARDS) holds per card each player's total, strictly worse
    and tied reach.
    """
    n = r0.shape[0]
    sums[:] = 0.0
    t0 = card_totals(r0, ca, cb, sums[0])
    t1 = card_totals(r1, ca, cb, sums[1])
    w0 = 0.0
    w1 = 0.0
    pos = n - 1
    while pos >= 0:
        start = group_start[pos]
        g0 = 0.0
        g1 = 0.0
        for h in range(start, pos + 1):
            x0 = r0[h]
            x1 = r1[h]
            a = ca[h]
            b = cb[h]
            g0 += x0
            g1 += x1
            sums[4, a] += x0
            sums[4, b] += x0
            sums[5, a] += x1
            sums[5, b] += x1
        for h in range(start, pos + 1):
            a = ca[h]
            b = cb[h]
            x0 = r0[h]
            x1 = r1[h]
            won = w1 - sums[3, a] - sums[3, b]
            tied = g1 - sums[5, a] - sums[5, b] + x1
            met = t1 - sums[1, a] - sums[1, b] + x1
            out0[h] = stake * (2.0 * won + tied - met)
            won = w0 - sums[2, a] - sums[2, b]
            tied = g0 - sums[4, a] - sums[4, b] + x0
            met = t0 - sums[0, a] - sums[0, b] + x0
            out1[h] = stake * (2.0 * won + tied - met)
        for h in range(start, pos + 1):
            a = ca[h]
            b = cb[h]
            sums[2, a] += r0[h]
            sums[2, b] += r0[h]
            sums[3, a] += r1[h]
            sums[3, b] += r1[h]
            sums[4, a] = 0.0
            sums[4, b] = 0.0
            sums[5, a] = 0.0
            sums[5, b] = 0.0
        w0 += g0
        w1 += g1
        pos = start - 1


@numba.njit(cache=True, nogil=True)
def regret_matching(regrets: np.ndarray, row: int, legal: np.ndarray, out: np.ndarray) -> None:
    """``out``: the current strategy of a row, each legal action's positive regret over
    their sum, uniform over the legal actions when no regret is positive."""
    total = 0.0
    for a in range(3):
        if legal[a] and regrets[row, a] > 0.0:
            total += regrets[row, a]
    count = 0
    for a in range(3):
        count += legal[a]
    for a in range(3):
        if not legal[a]:
            out[a] = 0.0
        elif total > 0.0:
            out[a] = max(regrets[row, a], 0.0) / total
        else:
            out[a] = 1.0 / count


# Not cached: numba's cache reloads a self-recursive function wrongly (it crashes), so the
# walk compiles once per process, in a few seconds.
@numba.njit(nogil=True)
def walk(node: int, depth: int, tree: TreeArrays, board: BoardStates, tables: RegretTables,
         buf: WalkBuffers, reach0: np.ndarray, reach1: np.ndarray, out0: np.ndarray,
         out1: np.ndarray, updating: int) -> None:
    """One CFR iteration below ``node`` on one board (module docstring).

    The states are the board's live ones (:class:`BoardStates`). Reads the current strategy
    from ``tables.regrets`` (never written here) and adds each decision's regrets to
    ``tables.delta_r`` and its reach-weighted strategy to ``tables.delta_s``, row by row, so
    walks of other boards may run at the same time on their own deltas. ``updating`` is the
    player whose regrets and average are updated, or -1 for both; only the updated players'
    values are computed, into ``out0``/``out1``.
    """
    k = tree.kind[node]
    if k == CHANCE:
        walk(tree.child[node, 1], depth, tree, board, tables, buf, reach0, reach1, out0, out1,
             updating)
        return
    if k == FOLD:
        folder = tree.player[node]
        stake = float(tree.spent[node, folder])
        fold_pair(reach0, reach1, board.ca, board.cb, -stake if folder == 0 else stake,
                  -stake if folder == 1 else stake, out0, out1, updating != 1, updating != 0,
                  buf.per_card)
        return
    if k == SHOWDOWN:
        # Both values cost little more than one, so both are computed whoever is updated.
        showdown_pair(reach0, reach1, board.ca, board.cb, board.group_start,
                      float(tree.spent[node, 0]), out0, out1, buf.per_card)
        return
    p = tree.player[node]
    n = reach0.shape[0]
    r = tree.round[node]
    bk = board.buckets[r]
    base = tree.row_base[node]
    regrets = tables.regrets
    legal = np.zeros(3, dtype=np.int64)
    for a in range(3):
        legal[a] = 1 if tree.child[node, a] >= 0 else 0
    sigma = buf.sigma[depth]
    kids = buf.kids[depth]
    # Regret matching once per row when rows are fewer than states, else once per state.
    if tables.bucket_counts[r] < n:
        rows = buf.rows[depth]
        for b in range(tables.bucket_counts[r]):
            regret_matching(regrets, base + b, legal, rows[b])
        for h in range(n):
            b = bk[h]
            for a in range(3):
                sigma[a, h] = rows[b, a]
    else:
        strat = buf.rows[depth, 0]
        for h in range(n):
            regret_matching(regrets, base + bk[h], legal, strat)
            for a in range(3):
                sigma[a, h] = strat[a]
    mine = reach0 if p == 0 else reach1
    for a in range(3):
        if not legal[a]:
            continue
        rr = buf.reach[depth]
        for h in range(n):
            rr[h] = mine[h] * sigma[a, h]
        if p == 0:
            walk(tree.child[node, a], depth + 1, tree, board, tables, buf, rr, reach1,
                 kids[a, 0], kids[a, 1], updating)
        else:
            walk(tree.child[node, a], depth + 1, tree, board, tables, buf, reach0, rr,
                 kids[a, 0], kids[a, 1], updating)
    own = out0 if p == 0 else out1
    other = out1 if p == 0 else out0
    if updating != 1 - p:
        own[:] = 0.0
        for a in range(3):
            if legal[a]:
                kid_own = kids[a, p]
                for h in range(n):
                    own[h] += sigma[a, h] * kid_own[h]
    if updating != p:
        other[:] = 0.0
        for a in range(3):
            if legal[a]:
                kid_other = kids[a, 1 - p]
                for h in range(n):
                    other[h] += kid_other[h]
    if (updating >= 0 and updating != p) or n == 0:
        return
    delta_r = tables.delta_r
    delta_s = tables.delta_s
    # Neighbouring states often share a bucket (on the river the order of strength is
    # nearly that of the buckets): sums run in registers until the row changes, instead of
    # a chain of adds through the same memory.
    for a in range(3):
        if not legal[a]:
            continue
        kid = kids[a, p]
        sig = sigma[a]
        row = base + bk[0]
        regret = 0.0
        weight = 0.0
        for h in range(n):
            now = base + bk[h]
            if now != row:
                delta_r[row, a] += regret
                delta_s[row, a] += weight
                row = now
                regret = 0.0
                weight = 0.0
            regret += kid[h] - own[h]
            weight += mine[h] * sig[h]
        delta_r[row, a] += regret
        delta_s[row, a] += weight

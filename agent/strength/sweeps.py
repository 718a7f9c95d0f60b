"""Sums over an opponent's weighted range for every holding at once: the kernels of a policy.

A policy asks how strong each of ~1,100 holdings is against the same ranges. Asked one holding
at a time that is ~1,100 passes over (opponent holding, runout) pairs; here each question is
one walk over the holdings in rank order, with running sums overall and per card, so that the
opponent holdings sharing a card with the holding asked about come off in constant time
(Johanson et al. 2011's showdown trick). Every sum leaves out the opponent holdings that share
a card with the holding asked about, and holdings that share a card with the board or the
runout; the holding itself is never its own opponent.

Ranks are the evaluator's (lower is better, 0 marks a clash). With ``r`` our rank now, ``f``
at the end of a runout, for opponent holdings ``o`` of weight ``w[o]``:

* :func:`now_sums`: ``ahead = sum w[r_o > r]``, ``tied = sum w[r_o == r]``,
  ``behind = sum w[r_o < r]``;
* :func:`potential_sums`: over the runouts, ``a1 = sum w[r_o <= r][f_o > f]`` and
  ``a2 = sum w[r_o < r][f_o >= f]``, whose sum is twice the hand-potential numerator of PPOT
  (Papp: behind now and ahead at the end, ties half either way), and ``f_lt = sum
  w[f_o < f]``, ``f_le = sum w[f_o <= f]``, from which NPOT's numerator follows
  (:func:`agent.strength.range_strength`);
* :func:`top_sums`: ``ahead``, ``tied`` and the mass over only the strongest part of the
  range, down to a per-holding position in value order (the hands that would call a bet).

The sweeps over several runouts keep, per card, a Fenwick tree over the holdings holding that
card in current-rank order, so "opponents better now and worse at the end, without my cards"
is two prefix sums less four small ones.

>>> import numpy as np
>>> from simulator.core.board_ranks import board_ranks
>>> from simulator.core.cards import parse_cards, parse_holding
>>> b = board_ranks(parse_cards("3h4cJh"))
>>> h = parse_holding("AdQc")
>>> s = now_sums(b.ranks, np.ones(1326), np.array([h]))
>>> s[0].tolist(), s[1].tolist(), s[2].tolist()  # ahead, tied, behind of 1081 holdings
([628.0], [9.0], [444.0])
"""

from __future__ import annotations

import numba
import numpy as np

from simulator.core.board_ranks import HOLD_A, HOLD_B
from simulator.core.equity import showdown_counts
from simulator.core.tie_groups import walk_tie_groups

FEW = 8  # up to this many holdings, a direct pass each is cheaper than a sweep


# --- layouts -----------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _rank_layout(ranks: np.ndarray, hold_a: np.ndarray, hold_b: np.ndarray,
                 lay: np.ndarray) -> int:
    """Positions of the live holdings in rank order (best first), per holding in ``lay``:
    0 its position, 1/2 the start/end of its tie group, 3/4 its place among the holdings
    holding its low/high card, 5/6 (7/8) how many holdings holding its low (high) card come
    before its tie group starts (ends). Returns the number of live holdings."""
    n_all = ranks.shape[0]
    keys = np.empty(n_all, dtype=np.int64)
    n = 0
    for h in range(n_all):
        if ranks[h] > 0:
            keys[n] = np.int64(ranks[h]) * 2048 + h
            n += 1
    keys = np.sort(keys[:n])
    placed = np.zeros(52, dtype=np.int64)
    start = 0
    while start < n:
        rank = keys[start] >> 11
        end = start
        while end < n and (keys[end] >> 11) == rank:
            end += 1
        for i in range(start, end):
            h = keys[i] & 2047
            lay[h, 0] = i
            lay[h, 1] = start
            lay[h, 2] = end
            lay[h, 5] = placed[hold_a[h]]
            lay[h, 7] = placed[hold_b[h]]
        for i in range(start, end):
            h = keys[i] & 2047
            lay[h, 3] = placed[hold_a[h]]
            lay[h, 4] = placed[hold_b[h]]
            placed[hold_a[h]] += 1
            placed[hold_b[h]] += 1
        for i in range(start, end):
            h = keys[i] & 2047
            lay[h, 6] = placed[hold_a[h]]
            lay[h, 8] = placed[hold_b[h]]
        start = end
    return n


@numba.njit(cache=True, nogil=True)
def _fenwick_add(tree: np.ndarray, i: int, x: float) -> None:
    i += 1
    while i < tree.shape[0]:
        tree[i] += x
        i += i & (-i)


@numba.njit(cache=True, nogil=True)
def _fenwick_prefix(tree: np.ndarray, i: int) -> float:
    """The sum of the first ``i`` entries."""
    s = 0.0
    while i > 0:
        s += tree[i]
        i -= i & (-i)
    return s


# --- now ---------------------------------------------------------------------------------


_NO_RANK = 8192  # above every rank: (_NO_RANK - rank) orders the holdings worst first


@numba.njit(cache=True, nogil=True)
def _worst_first(ranks: np.ndarray) -> np.ndarray:
    """Sort keys of the live holdings, worst rank first: ``(_NO_RANK - rank) << 11 | h``."""
    keys = np.empty(ranks.shape[0], dtype=np.int64)
    n = 0
    for h in range(ranks.shape[0]):
        if ranks[h] > 0:
            keys[n] = (np.int64(_NO_RANK - ranks[h]) << 11) | h
            n += 1
    return np.sort(keys[:n])


@numba.njit(cache=True, nogil=True)
def _now_every(ranks: np.ndarray, w: np.ndarray, hold_a: np.ndarray, hold_b: np.ndarray,
               ahead: np.ndarray, tied: np.ndarray, behind: np.ndarray) -> None:
    """The showdown walk (:mod:`simulator.core.tie_groups`) from the worst rank: what each
    holding beats and ties, and what is left of its opponents' weight, behind (the arrays
    come in as zeros)."""
    keys = _worst_first(ranks)
    n = keys.shape[0]
    order = np.empty(n, dtype=np.int64)
    for i in range(n):
        order[i] = keys[i] & 2047
    walk_tie_groups(ranks, order, n, w, hold_a, hold_b, ahead, tied, behind)  # all met
    for i in range(n):
        h = order[i]
        behind[h] = behind[h] - ahead[h] - tied[h]


@numba.njit(cache=True, nogil=True)
def now_few(ranks: np.ndarray, w: np.ndarray, hold_a: np.ndarray, hold_b: np.ndarray,
             holdings: np.ndarray, out: np.ndarray) -> None:
    for k in range(holdings.shape[0]):
        h = holdings[k]
        mine = ranks[h]
        a, b = hold_a[h], hold_b[h]
        if mine == 0:
            continue
        for o in range(ranks.shape[0]):
            r = ranks[o]
            if r == 0 or hold_a[o] == a or hold_a[o] == b or hold_b[o] == a or hold_b[o] == b:
                continue
            if r > mine:
                out[0, k] += w[o]
            elif r == mine:
                out[1, k] += w[o]
            else:
                out[2, k] += w[o]


def now_sums(ranks: np.ndarray, w: np.ndarray, holdings: np.ndarray) -> np.ndarray:
    """``(ahead, tied, behind)`` of each holding against ``w`` now: shape (3, len(holdings));
    zeros for a holding that clashes with the board."""
    holdings = np.asarray(holdings, dtype=np.int64)
    w = np.ascontiguousarray(w, dtype=np.float64)
    if holdings.shape[0] <= FEW:
        out = np.zeros((3, holdings.shape[0]))
        now_few(ranks, w, HOLD_A, HOLD_B, holdings, out)
        return out
    full = np.zeros((3, ranks.shape[0]))
    _now_every(ranks, w, HOLD_A, HOLD_B, full[0], full[1], full[2])
    full[:, ranks == 0] = 0.0
    return full[:, holdings]


# --- potential ---------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _potential_every(now: np.ndarray, fin: np.ndarray, orders: np.ndarray, w: np.ndarray,
                     hold_a: np.ndarray, hold_b: np.ndarray, out: np.ndarray) -> None:
    """``out[0..3, h]`` += a1, a2, f_lt, f_le of every holding over the rows of ``fin``;
    ``orders[r]`` lists row r's live holdings from the worst final rank (padded with -1)."""
    n_all = now.shape[0]
    lay = np.zeros((n_all, 9), dtype=np.int64)
    n = _rank_layout(now, hold_a, hold_b, lay)
    main = np.zeros(n + 1)
    cards = np.zeros((52, 53))
    passed_card = np.zeros(52)
    live_card = np.zeros(52)
    keys = np.empty(n_all, dtype=np.int64)
    for r in range(fin.shape[0]):
        row = fin[r]
        m = 0
        while m < n_all and orders[r, m] >= 0:
            h = orders[r, m]
            keys[m] = (np.int64(_NO_RANK - row[h]) << 11) | h
            m += 1
        main[:] = 0.0
        cards[:, :] = 0.0
        passed_card[:] = 0.0
        live_card[:] = 0.0
        total = 0.0
        for i in range(m):
            h = keys[i] & 2047
            total += w[h]
            live_card[hold_a[h]] += w[h]
            live_card[hold_b[h]] += w[h]
        passed = 0.0
        start = 0
        while start < m:
            end = start
            while end < m and (keys[end] >> 11) == (keys[start] >> 11):
                end += 1
            for i in range(start, end):
                h = keys[i] & 2047
                if now[h] == 0:
                    continue
                a, b = hold_a[h], hold_b[h]
                out[0, h] += (_fenwick_prefix(main, lay[h, 2])
                              - _fenwick_prefix(cards[a], lay[h, 6])
                              - _fenwick_prefix(cards[b], lay[h, 8]))
                live = total - live_card[a] - live_card[b] + w[h]
                out[3, h] += live - (passed - passed_card[a] - passed_card[b])
            for i in range(start, end):
                h = keys[i] & 2047
                if now[h] == 0:
                    continue
                a, b = hold_a[h], hold_b[h]
                _fenwick_add(main, lay[h, 0], w[h])
                _fenwick_add(cards[a], lay[h, 3], w[h])
                _fenwick_add(cards[b], lay[h, 4], w[h])
                passed += w[h]
                passed_card[a] += w[h]
                passed_card[b] += w[h]
            for i in range(start, end):
                h = keys[i] & 2047
                if now[h] == 0:
                    continue
                a, b = hold_a[h], hold_b[h]
                out[1, h] += (_fenwick_prefix(main, lay[h, 1])
                              - _fenwick_prefix(cards[a], lay[h, 5])
                              - _fenwick_prefix(cards[b], lay[h, 7]))
                live = total - live_card[a] - live_card[b] + w[h]
                out[2, h] += live - (passed - passed_card[a] - passed_card[b] + w[h])
            start = end


@numba.njit(cache=True, nogil=True)
def _potential_few(now: np.ndarray, fin: np.ndarray, w: np.ndarray, hold_a: np.ndarray,
                   hold_b: np.ndarray, holdings: np.ndarray, out: np.ndarray) -> None:
    """Per holding: its :func:`~simulator.core.equity.showdown_counts` against every
    opponent holding (once, whatever the number of weight rows), then each opponent weighed
    once per weight row ``w[j]`` by how it stands against us now."""
    k, n = w.shape
    met = np.empty(n, dtype=np.int32)
    ahead = np.empty(n, dtype=np.int32)
    tied = np.empty(n, dtype=np.int32)
    for q in range(holdings.shape[0]):
        h = holdings[q]
        r = now[h]
        if r == 0:
            continue
        a, b = hold_a[h], hold_b[h]
        showdown_counts(fin, h, met, ahead, tied)
        for j in range(k):
            a1 = a2 = lt = le = 0.0
            for o in range(n):
                x = w[j, o]
                if (x == 0.0 or now[o] == 0 or hold_a[o] == a or hold_a[o] == b
                        or hold_b[o] == a or hold_b[o] == b):
                    continue
                ro = now[o]
                behind_end = met[o] - ahead[o] - tied[o]
                if ro <= r:
                    a1 += x * ahead[o]
                if ro < r:
                    a2 += x * (ahead[o] + tied[o])
                lt += x * behind_end
                le += x * (behind_end + tied[o])
            out[j, 0, q] += a1
            out[j, 1, q] += a2
            out[j, 2, q] += lt
            out[j, 3, q] += le


def potential_sums(now: np.ndarray, fin: np.ndarray, w: np.ndarray, holdings: np.ndarray,
                   orders: np.ndarray | None = None) -> np.ndarray:
    """``(a1, a2, f_lt, f_le)`` of each holding over the runout rows ``fin`` (see the module
    docstring): shape (4, len(holdings)), or (k, 4, len(holdings)) for k weight arrays
    ``w`` of shape (k, 1326), one per opponent; zeros for a holding clashing with the board.
    ``orders`` (each row's live holdings worst first, as ``BoardRanks.orders`` keeps them)
    saves sorting the rows."""
    holdings = np.asarray(holdings, dtype=np.int64)
    rows = np.ascontiguousarray(np.atleast_2d(w), dtype=np.float64)
    if holdings.shape[0] <= FEW:
        out = np.zeros((rows.shape[0], 4, holdings.shape[0]))
        _potential_few(now, fin, rows, HOLD_A, HOLD_B, holdings, out)
    else:
        if orders is None:
            ranks = fin.astype(np.int64)
            orders = np.argsort(-ranks, axis=1, kind="stable")
            orders[np.take_along_axis(ranks, orders, axis=1) == 0] = -1
        full = np.zeros((rows.shape[0], 4, now.shape[0]))
        for j in range(rows.shape[0]):
            _potential_every(now, fin, orders, rows[j], HOLD_A, HOLD_B, full[j])
        out = full[:, :, holdings]
    return out[0] if np.ndim(w) == 1 else out


# --- the top of a range ------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _top_every(ranks: np.ndarray, w: np.ndarray, by_value: np.ndarray,
               holdings: np.ndarray, keep: np.ndarray, hold_a: np.ndarray,
               hold_b: np.ndarray, out: np.ndarray) -> None:
    """For each asked holding h: the opponent holdings o sharing no card with h, walked from
    the highest value down (``by_value``) until they hold ``keep[k]`` of their mass, the
    boundary holding counting with the fraction that fills it; ``out[0..2, k]``: the kept
    weight we are ahead of and tied with now, and the kept weight."""
    n_all = ranks.shape[0]
    lay = np.zeros((n_all, 9), dtype=np.int64)
    n = _rank_layout(ranks, hold_a, hold_b, lay)
    m = by_value.shape[0]
    # prefix masses in value order, overall and per card (for each card, its holdings'
    # positions in value order and the mass up to each)
    cum = np.zeros(m + 1)
    card_count = np.zeros(52, dtype=np.int64)
    for i in range(m):
        o = by_value[i]
        cum[i + 1] = cum[i] + w[o]
        card_count[hold_a[o]] += 1
        card_count[hold_b[o]] += 1
    card_pos = np.zeros((52, 52), dtype=np.int64)
    card_cum = np.zeros((52, 53))
    fill = np.zeros(52, dtype=np.int64)
    value_pos = np.full(n_all, m, dtype=np.int64)  # m: not in value order (weighs nothing)
    for i in range(m):
        o = by_value[i]
        value_pos[o] = i
        for c in (hold_a[o], hold_b[o]):
            j = fill[c]
            card_pos[c, j] = i
            card_cum[c, j + 1] = card_cum[c, j] + w[o]
            fill[c] += 1
    # the cut of each asked holding: the first value position at which its mass is reached
    cut = np.empty(holdings.shape[0], dtype=np.int64)
    part = np.empty(holdings.shape[0])
    for k in range(holdings.shape[0]):
        h = holdings[k]
        a, b = hold_a[h], hold_b[h]
        total = _mass_before(m, h, a, b, cum, card_pos, card_cum, card_count, value_pos, w)
        target = min(max(keep[k], 0.0), 1.0) * total
        lo, hi = 0, m  # smallest p with mass_before(p + 1) >= target
        while lo < hi:
            mid = (lo + hi) // 2
            if _mass_before(mid + 1, h, a, b, cum, card_pos, card_cum, card_count, value_pos,
                            w) >= target:
                hi = mid
            else:
                lo = mid + 1
        cut[k] = lo
        before = _mass_before(lo, h, a, b, cum, card_pos, card_cum, card_count, value_pos, w)
        part[k] = target - before if target > 0 else 0.0
    # sweep value order, inserting holdings into Fenwick trees over the current-rank order
    order = np.argsort(cut)
    main = np.zeros(n + 1)
    cards = np.zeros((52, 53))
    inserted = 0.0
    ins_card = np.zeros(52)
    p = 0
    for q in range(order.shape[0]):
        k = order[q]
        while p < cut[k] and p < m:
            o = by_value[p]
            if ranks[o] > 0 and w[o] > 0:
                _fenwick_add(main, lay[o, 0], w[o])
                _fenwick_add(cards[hold_a[o]], lay[o, 3], w[o])
                _fenwick_add(cards[hold_b[o]], lay[o, 4], w[o])
                inserted += w[o]
                ins_card[hold_a[o]] += w[o]
                ins_card[hold_b[o]] += w[o]
            p += 1
        h = holdings[k]
        if ranks[h] == 0:
            continue
        a, b = hold_a[h], hold_b[h]
        upto_end = (_fenwick_prefix(main, lay[h, 2]) - _fenwick_prefix(cards[a], lay[h, 6])
                    - _fenwick_prefix(cards[b], lay[h, 8]))
        upto_start = (_fenwick_prefix(main, lay[h, 1]) - _fenwick_prefix(cards[a], lay[h, 5])
                      - _fenwick_prefix(cards[b], lay[h, 7]))
        kept = inserted - ins_card[a] - ins_card[b]
        if value_pos[h] < cut[k] and w[h] > 0:
            kept += w[h]  # h itself was taken away twice
            upto_end += w[h]
        ahead = kept - upto_end
        tied = upto_end - upto_start
        if cut[k] < m and part[k] > 0:
            o = by_value[cut[k]]
            if ranks[o] > 0 and not (hold_a[o] == a or hold_a[o] == b or hold_b[o] == a
                                     or hold_b[o] == b):
                if ranks[o] > ranks[h]:
                    ahead += part[k]
                elif ranks[o] == ranks[h]:
                    tied += part[k]
                kept += part[k]
        out[0, k] = ahead
        out[1, k] = tied
        out[2, k] = kept


@numba.njit(cache=True, nogil=True)
def _mass_before(p: int, h: int, a: int, b: int, cum: np.ndarray, card_pos: np.ndarray,
                 card_cum: np.ndarray, card_count: np.ndarray, value_pos: np.ndarray,
                 w: np.ndarray) -> float:
    """The mass of the first ``p`` holdings in value order that share no card with h."""
    mass = (cum[p] - card_cum[a, _count_below(card_pos[a], card_count[a], p)]
        - card_cum[b, _count_below(card_pos[b], card_count[b], p)])
    if value_pos[h] < p:
        mass += w[h]  # h holds both cards: it was taken away twice
    return mass


@numba.njit(cache=True, nogil=True)
def _count_below(positions: np.ndarray, count: int, p: int) -> int:
    """How many of the first ``count`` (sorted) positions are below ``p``."""
    lo, hi = 0, count
    while lo < hi:
        mid = (lo + hi) // 2
        if positions[mid] < p:
            lo = mid + 1
        else:
            hi = mid
    return lo


@numba.njit(cache=True, nogil=True)
def _top_few(ranks: np.ndarray, w: np.ndarray, by_value: np.ndarray, holdings: np.ndarray,
             keep: np.ndarray, hold_a: np.ndarray, hold_b: np.ndarray,
             out: np.ndarray) -> None:
    """``_top_every`` one holding at a time: two walks down the value order each."""
    for k in range(holdings.shape[0]):
        h = holdings[k]
        mine = ranks[h]
        if mine == 0:
            continue
        a, b = hold_a[h], hold_b[h]
        total = 0.0
        for i in range(by_value.shape[0]):
            o = by_value[i]
            if not (hold_a[o] == a or hold_a[o] == b or hold_b[o] == a or hold_b[o] == b):
                total += w[o]
        left = min(max(keep[k], 0.0), 1.0) * total
        for i in range(by_value.shape[0]):
            if left <= 0.0:
                break
            o = by_value[i]
            if hold_a[o] == a or hold_a[o] == b or hold_b[o] == a or hold_b[o] == b:
                continue
            x = min(w[o], left)
            left -= x
            if ranks[o] == 0 or x <= 0.0:
                continue
            out[2, k] += x
            if ranks[o] > mine:
                out[0, k] += x
            elif ranks[o] == mine:
                out[1, k] += x


def top_sums(ranks: np.ndarray, w: np.ndarray, by_value: np.ndarray, holdings: np.ndarray,
             keep: np.ndarray) -> np.ndarray:
    """``(ahead, tied, kept)`` of each holding against the top ``keep`` share of ``w`` in
    value order (``by_value``: holdings from the highest value down; others weigh 0), its
    own clashes left out: shape (3, len(holdings))."""
    holdings = np.asarray(holdings, dtype=np.int64)
    out = np.zeros((3, holdings.shape[0]))
    if holdings.shape[0] <= FEW:
        _top_few(ranks, np.ascontiguousarray(w, dtype=np.float64),
                 np.asarray(by_value, dtype=np.int64), holdings,
                 np.asarray(keep, dtype=np.float64), HOLD_A, HOLD_B, out)
        return out
    _top_every(ranks, np.ascontiguousarray(w, dtype=np.float64),
               np.asarray(by_value, dtype=np.int64), holdings,
               np.asarray(keep, dtype=np.float64), HOLD_A, HOLD_B, out)
    return out

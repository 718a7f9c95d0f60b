"""The per-street board table: strength questions over the ranks of every holding on a board.

Every player at the table sees the same board, so the ranks of all 1326 holdings on it (and on
every board one or two cards further on, ``simulator.core.board_ranks``) are computed once per
street and shared by every question asked during it: HS, PPOT and NPOT of any hand against
any weights, and HS of every holding against a range, become array reductions over these
tables.

A rank of 0 marks a holding that clashes with the board (or with the runout of that row); real
ranks run 1 (royal flush) .. 7462, lower is better, as ``simulator.core.hand_ranks``.

>>> from simulator.core.cards import parse_cards, parse_holding
>>> t = board_table(parse_cards("3h4cJh"))
>>> hero = parse_holding("AdQc")
>>> t.strength_sums(hero, t.effective_weights(None, hero))
(628.0, 9.0, 444.0)
>>> t.hp_matrix(hero, t.effective_weights(None, hero), lookahead=2)[2].tolist()
[91981.0, 1036.0, 346543.0]
>>> int((t.ranks == 0).sum())  # holdings holding a board card
150
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numba
import numpy as np

from agent.strength.errors import RangeError, StrengthError
from agent.strength.numpy_sums import pairwise_sum
from simulator.core.board_ranks import board_ranks, clear_board_ranks, sorted_board
from simulator.core.cards import HOLDINGS, NUM_HOLDINGS, format_cards
from simulator.core.errors import CardError
from simulator.core.tie_groups import walk_tie_groups

AHEAD, TIED, BEHIND = 0, 1, 2

# Holding cards as int64 once, so the kernels index them without conversions.
_HOLD_A = HOLDINGS[:, 0].astype(np.int64)
_HOLD_B = HOLDINGS[:, 1].astype(np.int64)
_ONES = np.ones(NUM_HOLDINGS)


# --- kernels --------------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _hp_kernel(now: np.ndarray, runouts: np.ndarray, fin: np.ndarray, hero: int,
               hero_a: int, hero_b: int, opp: np.ndarray, opp_w: np.ndarray,
               hp: np.ndarray) -> None:
    """Add ``opp_w`` over (opponent, runout) pairs into ``hp[now relation, final relation]``.

    ``opp`` lists only the opponent holdings with positive weight (already free of board and
    hero clashes), so a narrow range costs less than a uniform one, never more.

    Each cell adds its weights runout by runout, opponent by opponent in ``opp``'s order. The
    opponents are grouped by their relation now first, which keeps that order within every
    cell (a cell's row is its opponents' relation now) and lets each row's three sums live in
    registers: the same floats, twice as fast as indexing the matrix per pair.
    """
    n_opp = opp.shape[0]
    mine_now = now[hero]
    grouped = np.empty(n_opp, dtype=np.int64)
    grouped_w = np.empty(n_opp)
    bounds = np.zeros(4, dtype=np.int64)
    k = 0
    for x in range(3):
        bounds[x] = k
        for i in range(n_opp):
            theirs = now[opp[i]]
            if (0 if mine_now < theirs else (1 if mine_now == theirs else 2)) == x:
                grouped[k] = opp[i]
                grouped_w[k] = opp_w[i]
                k += 1
    bounds[3] = k
    for x in range(3):
        ahead, tied, behind = 0.0, 0.0, 0.0
        for r in range(runouts.shape[0]):
            clash = False
            for j in range(runouts.shape[1]):
                if runouts[r, j] == hero_a or runouts[r, j] == hero_b:
                    clash = True
            if clash:
                continue
            row = fin[r]
            mine = row[hero]
            for i in range(bounds[x], bounds[x + 1]):
                theirs = row[grouped[i]]
                if theirs == 0:  # the opponent holds a card of this runout
                    continue
                if mine < theirs:
                    ahead += grouped_w[i]
                elif mine == theirs:
                    tied += grouped_w[i]
                else:
                    behind += grouped_w[i]
        hp[x, 0] += ahead
        hp[x, 1] += tied
        hp[x, 2] += behind


@numba.njit(cache=True, nogil=True)
def _hs_all_kernel(ranks: np.ndarray, w: np.ndarray, hold_a: np.ndarray,
                   hold_b: np.ndarray, order: np.ndarray, out: np.ndarray) -> None:
    """HS of every holding against weights ``w``: the showdown walk
    (:mod:`simulator.core.tie_groups`) from the worst rank (``order``) gives the weight each
    holding beats, ties and meets."""
    n = ranks.shape[0]
    ahead = np.zeros(n)
    tied = np.zeros(n)
    opp_total = np.zeros(n)
    walk_tie_groups(ranks, order, order.shape[0], w, hold_a, hold_b, ahead, tied, opp_total)
    for i in range(order.shape[0]):
        h = order[i]
        total = opp_total[h]
        out[h] = (ahead[h] + tied[h] / 2.0) / total if total > 0 else np.nan


@numba.njit(cache=True, nogil=True)
def _effective_kernel(ranks: np.ndarray, w: np.ndarray, hero_a: int, hero_b: int,
                      hold_a: np.ndarray, hold_b: np.ndarray, out: np.ndarray) -> float:
    """``out``: ``w`` with the holdings that clash with the board or the hero's cards (none
    when ``hero_a`` is -1) set to 0; returns its sum (numpy's summation order)."""
    for h in range(out.shape[0]):
        a = hold_a[h]
        b = hold_b[h]
        if ranks[h] == 0 or a == hero_a or a == hero_b or b == hero_a or b == hero_b:
            out[h] = 0.0
        else:
            out[h] = w[h]
    return pairwise_sum(out, 0, out.shape[0])


@numba.njit(cache=True, nogil=True)
def _strength_sums_kernel(ranks: np.ndarray, mine: int, w: np.ndarray, buf: np.ndarray,
                          out: np.ndarray) -> None:
    """``out``: the weights of the holdings ranked worse than, as, and better than ``mine``
    (rank 0, a clash, is none of them), each summed as numpy sums ``w[mask]``."""
    n = ranks.shape[0]
    ahead, tied, behind = 0, n, 2 * n
    for h in range(n):
        r = ranks[h]
        if r > mine:
            buf[ahead] = w[h]
            ahead += 1
        elif r == mine:
            buf[tied] = w[h]
            tied += 1
        elif r > 0:
            buf[behind] = w[h]
            behind += 1
    out[0] = pairwise_sum(buf, 0, ahead)
    out[1] = pairwise_sum(buf, n, tied - n)
    out[2] = pairwise_sum(buf, 2 * n, behind - 2 * n)


@numba.njit(cache=True, nogil=True)
def _against_kernel(ranks: np.ndarray, hero: int, hero_a: int, hero_b: int,
                    hold_a: np.ndarray, hold_b: np.ndarray, weights: np.ndarray,
                    uniform: np.ndarray, live: np.ndarray, totals: np.ndarray,
                    sums: np.ndarray) -> None:
    """Per opponent j: ``live[j]`` its weights free of clashes (uniform when they weigh
    nothing), ``totals[j]`` their sum, ``sums[j]`` the ahead/tied/behind sums (numpy's
    summation order throughout, as ``BoardTable.live_weights`` and ``strength_sums``).

    It calls the kernels above, which is why it lives here: numba's cache keeps a kernel's
    compiled callees and only notices edits of the kernel's own file.
    """
    buf = np.empty(3 * ranks.shape[0])
    for j in range(weights.shape[0]):
        total = _effective_kernel(ranks, weights[j], hero_a, hero_b, hold_a, hold_b, live[j])
        if not total > 0:
            # an opponent whose every holding is ruled out: fall back to a uniform range
            total = _effective_kernel(ranks, uniform, hero_a, hero_b, hold_a, hold_b, live[j])
        totals[j] = total
        _strength_sums_kernel(ranks, ranks[hero], live[j], buf, sums[j])


# --- the table ------------------------------------------------------------------------------


class BoardTable:
    """Ranks of all 1326 holdings on one board (3, 4 or 5 cards) and on the boards to come.

    The current ranks are computed at once; the next-card table (one row per unseen card)
    and, on the flop, the turn-and-river table (one row per unseen pair) on first use.
    Weights are float arrays of length 1326; the methods take the hero as a holding index.
    """

    def __init__(self, board: tuple[int, ...] | list[int]) -> None:
        board = tuple(int(c) for c in board)
        if len(board) not in (3, 4, 5) or len(set(board)) != len(board):
            raise CardError(f"bad board {board!r}: expected 3, 4 or 5 distinct cards")
        self.board: tuple[int, ...] = board
        self._ranks = board_ranks(board)
        self.ranks: np.ndarray = self._ranks.ranks
        # the holdings the board leaves, and the uniform range over them: a decision reads
        # them several times
        self.live: np.ndarray = self.ranks > 0
        self.live.setflags(write=False)
        self.uniform: np.ndarray = self.live.astype(np.float64)
        self.uniform.setflags(write=False)

    def __repr__(self) -> str:
        return f"BoardTable({format_cards(self.board)!r})"

    @property
    def cards_to_come(self) -> int:
        return 5 - len(self.board)

    def future(self, lookahead: int) -> tuple[np.ndarray, np.ndarray]:
        """``(runouts, ranks)`` for ``lookahead`` more cards: shapes (n, lookahead), (n, 1326).

        Built once and kept, so every later question on this street reuses it.
        """
        if not 1 <= lookahead <= self.cards_to_come:
            raise StrengthError(
                f"bad lookahead {lookahead}: {self.cards_to_come} card(s) to come on a "
                f"{len(self.board)}-card board")
        return self._ranks.future(lookahead)

    def effective_weights(self, weights: np.ndarray | None, hero: int | None = None
                          ) -> np.ndarray:
        """Weights with the holdings that clash with the board (and the hero) set to 0."""
        return self.live_weights(weights, hero)[0]

    def live_weights(self, weights: np.ndarray | None, hero: int | None = None
                     ) -> tuple[np.ndarray, float]:
        """``effective_weights`` and their sum (as ``effective_weights(...).sum()``)."""
        w = _ONES if weights is None else np.asarray(weights, dtype=np.float64)
        if w.shape != (NUM_HOLDINGS,):
            raise RangeError(f"bad weights: expected {NUM_HOLDINGS} values, got shape "
                             f"{w.shape}")
        a, b = (-1, -1) if hero is None else (int(_HOLD_A[hero]), int(_HOLD_B[hero]))
        out = np.empty(NUM_HOLDINGS)
        total = _effective_kernel(self.ranks, w, a, b, _HOLD_A, _HOLD_B, out)
        return out, total

    def check_hero(self, hero: int) -> None:
        """Refuses hole cards that clash with the board."""
        if self.ranks[hero] == 0:
            raise CardError(f"hole cards clash with the board {format_cards(self.board)}")

    def strength_sums(self, hero: int, w: np.ndarray) -> tuple[float, float, float]:
        """Weighted sums of the opponent holdings we are ahead of, tied with, behind now.

        ``w`` must already be free of clashes (see ``effective_weights``).
        """
        self.check_hero(hero)
        w = np.asarray(w, dtype=np.float64)
        if w.shape != (NUM_HOLDINGS,):
            raise RangeError(f"bad weights: expected {NUM_HOLDINGS} values, got shape "
                             f"{w.shape}")
        out = np.empty(3)
        _strength_sums_kernel(self.ranks, int(self.ranks[hero]), w,
                              np.empty(3 * NUM_HOLDINGS), out)
        return float(out[0]), float(out[1]), float(out[2])

    def per_opponent(self, hero: int, weights: Sequence[np.ndarray] | np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each opponent's weights: its live weights (``live_weights``, uniform when
        every holding is ruled out), their sum, and the ahead/tied/behind sums
        (``strength_sums``), as arrays (k, 1326), (k,) and (k, 3), in one kernel call."""
        self.check_hero(hero)
        try:
            w = np.asarray(weights, dtype=np.float64)
        except ValueError:  # arrays of different lengths
            w = np.empty(0)
        if w.ndim != 2 or w.shape[1] != NUM_HOLDINGS:
            raise RangeError(f"bad weights: expected one array of {NUM_HOLDINGS} weights per "
                             f"opponent, got shape {w.shape}")
        live = np.empty_like(w)
        totals = np.empty(len(w))
        sums = np.empty((len(w), 3))
        _against_kernel(self.ranks, hero, int(_HOLD_A[hero]), int(_HOLD_B[hero]), _HOLD_A,
                        _HOLD_B, w, _ONES, live, totals, sums)
        return live, totals, sums

    def hp_matrix(self, hero: int, w: np.ndarray, lookahead: int = 1) -> np.ndarray:
        """The 3x3 matrix ``HP[now][final]`` (ahead, tied, behind) in runout units."""
        self.check_hero(hero)
        runouts, fin = self.future(lookahead)
        opp = np.flatnonzero(w > 0)
        hp = np.zeros((3, 3))
        _hp_kernel(self.ranks, runouts, fin, hero, int(_HOLD_A[hero]), int(_HOLD_B[hero]),
                   opp, np.ascontiguousarray(w[opp]), hp)
        return hp

    def hs_all(self, weights: np.ndarray | None = None) -> np.ndarray:
        """HS of every holding against one opponent with ``weights``, in one pass.

        Holdings that clash with the board get NaN, as does a holding whose opponents all
        weigh 0. Opponent holdings sharing a card with the holding are left out, as always.

        >>> from simulator.core.cards import parse_cards, parse_holding
        >>> hs = board_table(parse_cards("3h4cJh")).hs_all()
        >>> round(float(hs[parse_holding("AdQc")]), 6)
        0.585106
        """
        w = self.effective_weights(weights)
        # ranks are int16 (at most 7462), so their negation is too: numpy sorts 16-bit keys
        # by radix, in the same stable order
        order = np.argsort(-self.ranks, kind="stable")
        order = order[self.ranks[order] > 0]
        out = np.full(NUM_HOLDINGS, np.nan)
        _hs_all_kernel(self.ranks, w, _HOLD_A, _HOLD_B, order, out)
        return out


@lru_cache(maxsize=8)  # a flop table with its river boards is about 3 MB
def _cached_table(key: tuple[int, ...]) -> BoardTable:
    return BoardTable(key)


def board_table(board: Sequence[int]) -> BoardTable:
    """The shared table of a board, built on first request and kept for the recent boards.

    The order of the board cards does not matter, so a street's table is built once.

    >>> board_table([6, 8, 38]) is board_table([38, 6, 8])
    True
    """
    return _cached_table(sorted_board(board if type(board) is tuple else tuple(board)))


def clear_board_tables() -> None:
    """Forget every kept table, so that the next request builds its board from scratch."""
    _cached_table.cache_clear()
    clear_board_ranks()

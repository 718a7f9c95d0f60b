"""Luck correction of a played hand (Zinkevich et al. 2006; the idea behind AIVAT).

At each chance event (the flop as one event, the turn, the river) a seat still in the hand
gets ``value(after) - mean of value over every card(s) the event could have dealt``, with the
fixed value function ``equity x pot - own contribution``, pot and contributions taken at the
moment of the event (``HandHistory.chance_points``). The contribution is the same before and
after, so the luck of an event is ``pot x (equity after - equity before)``, and the mean over
the event's cards is the equity before the event. Hole cards are left to duplicate.

Equity is the showdown share among the seats still in, every seat's cards known (the
simulator sees them): exact enumeration when at most two cards are to come (the turn and
river); before the flop exact from the shipped holding-against-holding table when only the
two players were dealt in, else Monte Carlo with the caller's generator. The estimate
stays unbiased with Monte Carlo, because the sampled mean does not depend on the dealt cards.
Folded seats get no luck; over the seats the luck of an event sums to zero.

``net - luck`` is the luck-adjusted result of a hand.

>>> from simulator.core.cards import parse_cards
>>> holes = [tuple(parse_cards("AhAd")), tuple(parse_cards("7c2s"))]
>>> eq = equity(holes, parse_cards("Ac7d2h"), dead=[], rng=None, samples=0)
>>> [round(float(x), 4) for x in eq]  # 7c2s needs quads: 7h7s or 2c2d, 2 runouts of 990
[0.998, 0.002]
>>> luck = luck_of_hand(holes, parse_cards("Ac7d2h7s7h"),
...                     [(3, (10, 10), (True, True))], rng=None, samples=0)
>>> [round(float(x), 3) for x in luck]  # 7h, 1 river of 44, gave 7c2s the 20-chip pot
[-19.545, 19.545]
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numba
import numpy as np

from simulator.core.cards import HOLDING_INDEX
from simulator.core.hand_ranks import rank_row
from simulator.core.preflop_equity import preflop_table
from simulator.core.streets import Street

if TYPE_CHECKING:
    from simulator.core.records import HandHistory


@numba.njit(cache=True, nogil=True)
def _share(holes: np.ndarray, row: np.ndarray, acc: np.ndarray) -> None:
    """Add each player's showdown share of one complete board (row[2:7]) to ``acc``."""
    k = holes.shape[0]
    best = 1 << 30
    winners = 0
    ranks = np.empty(k, dtype=np.int64)
    for i in range(k):
        row[0] = holes[i, 0]
        row[1] = holes[i, 1]
        r = rank_row(row)
        ranks[i] = r
        if r < best:
            best = r
            winners = 1
        elif r == best:
            winners += 1
    for i in range(k):
        if ranks[i] == best:
            acc[i] += 1.0 / winners


@numba.njit(cache=True, nogil=True)
def _equity_exact(holes: np.ndarray, board: np.ndarray, deck: np.ndarray) -> np.ndarray:
    """Exact showdown equity, enumerating every runout of 0, 1 or 2 cards from ``deck``."""
    k = holes.shape[0]
    m = board.shape[0]
    acc = np.zeros(k, dtype=np.float64)
    row = np.empty(7, dtype=np.int64)
    for j in range(m):
        row[2 + j] = board[j]
    d = deck.shape[0]
    count = 0
    if m == 5:
        _share(holes, row, acc)
        count = 1
    elif m == 4:
        for a in range(d):
            row[6] = deck[a]
            _share(holes, row, acc)
            count += 1
    else:
        for a in range(d):
            row[5] = deck[a]
            for b in range(a + 1, d):
                row[6] = deck[b]
                _share(holes, row, acc)
                count += 1
    return acc / count


@numba.njit(cache=True, nogil=True)
def _equity_sampled(holes: np.ndarray, board: np.ndarray, deck: np.ndarray,
                    uniforms: np.ndarray) -> np.ndarray:
    """Monte Carlo equity: each row of ``uniforms`` draws one runout (partial Fisher-Yates)."""
    k = holes.shape[0]
    m = board.shape[0]
    need = 5 - m
    acc = np.zeros(k, dtype=np.float64)
    row = np.empty(7, dtype=np.int64)
    for j in range(m):
        row[2 + j] = board[j]
    work = deck.copy()
    d = work.shape[0]
    for s in range(uniforms.shape[0]):
        for j in range(need):
            pick = j + int(uniforms[s, j] * (d - j))
            tmp = work[j]
            work[j] = work[pick]
            work[pick] = tmp
            row[2 + m + j] = work[j]
        _share(holes, row, acc)
    return acc / uniforms.shape[0]


RngSource = np.random.Generator | Callable[[], np.random.Generator | None] | None
"""A generator, or a function that gives one the first time Monte Carlo needs it (seeding a
stream costs about 80 µs, and most hands never draw from theirs); it must give the same
generator every time it is called (:func:`when_drawn` makes one)."""


def when_drawn(make: Callable[..., np.random.Generator | None], *args: int) -> RngSource:
    """``make(*args)``, made the first time it is asked for and the same one after."""
    return functools.cache(functools.partial(make, *args))


def _generator(rng: RngSource) -> np.random.Generator | None:
    return rng() if callable(rng) else rng


def equity(holes: Sequence[Sequence[int]], board: Sequence[int], dead: Sequence[int],
           rng: RngSource, samples: int) -> np.ndarray:
    """Showdown equity of each of ``holes`` on ``board``, cards in ``dead`` out of the deck.

    Exact with at most two cards to come; otherwise ``samples`` Monte Carlo runouts drawn
    with ``rng`` (:data:`RngSource`).
    """
    to_come = 5 - len(board)
    if to_come <= 2:
        return _exact(holes, board, dead)
    gen = _generator(rng) if samples >= 1 else None
    if gen is None:
        raise ValueError(f"equity with {to_come} cards to come needs a generator and samples")
    return _equity_sampled(*_arrays(holes, board, dead), gen.random((samples, to_come)))


def _arrays(holes: Sequence[Sequence[int]], board: Sequence[int], dead: Sequence[int]
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernels' holes (k, 2), board, and deck (every card not in them or in ``dead``)."""
    hole_arr = np.asarray(holes, dtype=np.int64).reshape(-1, 2)
    board_arr = np.asarray(board, dtype=np.int64)
    used = np.zeros(52, dtype=bool)
    used[hole_arr.ravel()] = True
    used[board_arr] = True
    if len(dead):
        used[np.asarray(dead, dtype=np.int64)] = True
    return hole_arr, board_arr, np.flatnonzero(~used).astype(np.int64)


def _exact(holes: Sequence[Sequence[int]], board: Sequence[int], dead: Sequence[int]
           ) -> np.ndarray:
    """Exact equity through :func:`_exact_sorted`, the holes put in sorted order and the
    shares given back in the caller's: a player's share sums its own wins in the same order
    whatever the order of the others, so every seating of a deal gets the same floats."""
    hands = [tuple(int(c) for c in h) for h in holes]
    order = sorted(range(len(hands)), key=hands.__getitem__)
    shares = _exact_sorted(tuple(hands[i] for i in order), tuple(int(c) for c in board),
                           tuple(sorted(int(c) for c in dead)))
    out = np.empty(len(hands), dtype=np.float64)
    out[order] = shares
    return out


@functools.lru_cache(maxsize=64)
def _exact_sorted(holes: tuple[tuple[int, ...], ...], board: tuple[int, ...],
                  dead: tuple[int, ...]) -> np.ndarray:
    """Exact equity, kept for the last few deals: the luck correction and AIVAT of every
    seating of a duplicate deal ask for the same boards, and a flop costs ~170 us."""
    shares = _equity_exact(*_arrays(holes, board, dead))
    shares.setflags(write=False)
    return shares


ChancePointLike = tuple[int, Sequence[int], Sequence[bool]]


def preflop_pair(holes: Sequence[Sequence[int] | None]) -> np.ndarray:
    """Exact pre-flop equity of two holdings, from the shipped table."""
    (a, b), (c, d) = (tuple(int(x) for x in h) for h in holes if h is not None)
    share = float(preflop_table()[HOLDING_INDEX[a, b], HOLDING_INDEX[c, d]])
    return np.array([share, 1.0 - share])


def luck_of_hand(holes: Sequence[Sequence[int] | None], board: Sequence[int],
                 chance_points: Sequence[ChancePointLike], rng: RngSource,
                 samples: int) -> np.ndarray:
    """Luck in chips per seat of one hand: the sum over its chance events.

    ``holes`` are every seat's cards (None for a seat not dealt in); every dealt card is out of
    the deck, folded hands included, as in the real deal. ``chance_points`` are
    ``(street, contributions, active)`` triples.
    """
    luck = np.zeros(len(holes), dtype=np.float64)
    for event in luck_by_event(holes, board, chance_points, rng, samples):
        luck += event.pot * event.gain
    return luck


@dataclass(frozen=True)
class EventLuck:
    """One chance event of a hand: its street, the pot when it came, and each seat's equity
    gain from it (zero for a seat out of the hand). Its luck is ``pot x gain``."""

    street: Street
    pot: float
    gain: np.ndarray


def luck_by_event(holes: Sequence[Sequence[int] | None], board: Sequence[int],
                  chance_points: Sequence[ChancePointLike], rng: RngSource,
                  samples: int) -> list[EventLuck]:
    """:func:`luck_of_hand` event by event (for a study of where a hand's luck lies); events
    with fewer than two seats in are left out."""
    seats = len(holes)
    dealt = [c for h in holes if h is not None for c in h]
    cache: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}

    def hole(p: int) -> Sequence[int]:
        h = holes[p]
        assert h is not None  # a seat still in the hand was dealt in
        return h

    def eq(n_board: int, players: tuple[int, ...]) -> np.ndarray:
        key = (n_board, players)
        if key not in cache:
            others = [c for c in dealt if all(c not in hole(p) for p in players)]
            if n_board == 0 and len(players) == 2 and not others:  # heads-up: exact table
                cache[key] = preflop_pair([hole(p) for p in players])
            else:
                cache[key] = equity([hole(p) for p in players], board[:n_board], others,
                                    rng, samples)
        return cache[key]

    events = []
    for street, contributions, active in chance_points:
        players = tuple(i for i in range(seats) if active[i])
        if len(players) < 2:
            continue
        gain = np.zeros(seats, dtype=np.float64)
        gain[list(players)] = (eq(Street(street).board_size, players)
                               - eq(Street(street - 1).board_size, players))
        events.append(EventLuck(Street(street), float(sum(contributions)), gain))
    return events


def history_luck(history: HandHistory, rng: RngSource, samples: int) -> np.ndarray:
    """:func:`luck_of_hand` of a ``simulator.play.match.HandHistory``."""
    points = [(p.street, p.contributions, p.active) for p in history.chance_points]
    return luck_of_hand(history.holes, history.board, points, rng, samples)

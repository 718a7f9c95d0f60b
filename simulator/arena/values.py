"""The value function of the variance-reduced estimates, fixed before any data is seen.

A seat's value at a point of a hand where every hole card is known (the simulator's view) is

    value(seat) = pot x equity(seat) - contribution(seat)

for a seat still holding cards, and ``-contribution(seat)`` for a seat that has folded:
``pot`` is every chip in the middle (this round's bets included), ``contribution`` the seat's
own chips in it, and ``equity`` its showdown share of the pot among the seats still in, over
every way to complete the board from the cards no one was dealt (folded hands' cards are dead,
as in the real deal). It is the chance (luck) correction's function
(:mod:`simulator.arena.luck`), and the values of the seats add up to zero.

It is declared in code and never fitted: AIVAT's corrections have expectation zero for any
fixed function, and a function fitted on the hands it evaluates could manufacture
significance (Burch et al. 2018).

Equity is exact where that is cheap: before the flop with two players dealt in from the
shipped holding-against-holding table (:mod:`simulator.core.preflop_equity`), and by
enumeration with at most two board cards to come. Otherwise (three or more players dealt in,
before the flop) it is a Monte Carlo estimate from the caller's generator; the estimate does
not depend on the action being valued, so a correction built on it keeps expectation zero.

>>> from simulator.core.cards import parse_cards
>>> v = HandValues([tuple(parse_cards("AhAd")), tuple(parse_cards("7c2s"))], (), rng=None)
>>> [round(x, 3) for x in v.values((2, 2), (True, True)).tolist()]  # 0.874 of a pot of 4
[1.497, -1.497]
>>> v.values((2, 4), (True, False)).tolist()  # seat 1 folded: it loses its 4 chips
[4.0, -4.0]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulator.arena.luck import RngSource, equity
from simulator.core.cards import HOLDING_INDEX
from simulator.core.preflop_equity import preflop_table

DEFAULT_SAMPLES = 400  # Monte Carlo runouts before the flop with three or more players


class HandValues:
    """The value function of one hand: every seat's cards (None for a seat not dealt in),
    the board so far (its length is the street's), and a generator for Monte Carlo equity
    (needed only with three or more players before the flop). Equities are kept per set of
    players, so a decision's actions share them."""

    def __init__(self, holes: Sequence[tuple[int, int] | None], board: Sequence[int],
                 rng: RngSource, samples: int = DEFAULT_SAMPLES) -> None:
        self.holes = tuple(holes)
        self.board = tuple(int(c) for c in board)
        self.rng, self.samples = rng, samples
        self._shares: dict[tuple[int, ...], list[float]] = {}

    def equity(self, players: tuple[int, ...]) -> np.ndarray:
        """Showdown equity of each of ``players`` (seat order) on this board."""
        return np.array(self._shares_of(players), dtype=np.float64)

    def _compute(self, players: tuple[int, ...]) -> np.ndarray:
        if len(players) == 1:
            return np.ones(1)
        cards = [self.holes[p] for p in players]
        if any(h is None for h in cards):
            raise ValueError(f"equity of seats {players}: a seat's cards are unknown")
        hands = [h for h in cards if h is not None]
        dead = [c for s, h in enumerate(self.holes) if h is not None and s not in players
                for c in h]
        if not self.board and len(players) == 2 and not dead:  # heads-up: the exact table
            (a, b), (c, d) = hands
            share = float(preflop_table()[HOLDING_INDEX[a, b], HOLDING_INDEX[c, d]])
            return np.array([share, 1.0 - share])
        return equity(hands, self.board, dead, self.rng, self.samples)

    def values(self, contributions: Sequence[float], active: Sequence[bool]) -> np.ndarray:
        """Every seat's value with these contributions and these seats still in."""
        return np.array(self.value_list(contributions, active), dtype=np.float64)

    def value_list(self, contributions: Sequence[float], active: Sequence[bool]
                   ) -> list[float]:
        """:meth:`values` as Python floats, for a caller that goes on in them (AIVAT)."""
        # In Python floats rather than arrays of a few seats (AIVAT asks about ten times a
        # hand): each seat's -paid + pot x equity as before, and the pot, of chips and half
        # chips, sums exactly in any order.
        paid = [float(c) for c in contributions]
        out = [-c for c in paid]
        players = tuple(s for s, live in enumerate(active) if live)
        if players:
            pot = sum(paid)
            for s, share in zip(players, self._shares_of(players), strict=True):
                out[s] += pot * share
        return out

    def _shares_of(self, players: tuple[int, ...]) -> list[float]:
        """:meth:`equity` as Python floats, kept per set of players (a decision's actions
        share them)."""
        if players not in self._shares:
            self._shares[players] = self._compute(players).tolist()
        return self._shares[players]

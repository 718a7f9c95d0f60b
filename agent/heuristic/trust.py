"""How far to trust each opponent's weight array, learned from the hands it shows down.

Loki's re-weighting reads strength into betting: after a raise the weights move to the
holdings that would raise. Against a player whose bets say little about its cards (a random
or wild player, a bluffer) that sends the agent folding the best hand. So each opponent gets
a trust ``alpha`` in [0, 1], and the agent plays against the mixture

    alpha * (weights, normalised) + (1 - alpha) * (uniform over the live holdings)

``alpha`` is the maximum-likelihood mixture weight of the holdings the opponent showed down:
at each showdown the shown holding ``h`` has probability ``p_w = w[h] / sum(w)`` under the
weights and ``p_u = 1 / live`` under the uniform range; EM on those pairs, with
``prior_weight`` pseudo-showdowns at ``prior`` (proposed here), gives ``alpha``. A player
whose shown hands sit where its weights put them earns trust near 1; a random player's shown
hands are no likelier under the weights than under the uniform range, and its trust falls.

With ``by_line`` the trust is kept apart for the two lines a hand can end on: the
opponent's last action a bet or raise, or anything else (a check, a call, no action yet). A
player's bets can say much about its cards while its checks say little (Loki-1's
re-weighting never takes a strong holding out after a check or a call, as a player who
slow-plays keeps them; a player who bets every strong hand does not), or the other way
round (a bluffer); one trust for both would mix the two. Each line learns from the showdowns
that ended on it and is asked at the decisions that follow it. Its fit has ``prior_weight``
pseudo-showdowns at the opponent's trust over all its showdowns, not at ``prior``: a line
with little evidence (a player who nearly always bets seldom ends a hand on a call) reads as
the player does as a whole.

The fit runs over the opponent's last :data:`WINDOW` showdowns, not all of them. An EM fit
cannot be updated as a pair comes in, so a fit over every showdown cost time in proportion to
the showdowns seen, at each new one (a 60,000-hand block took 5.3 times as long as one of
20,000). A bounded window makes each fit cost the same however long the match, and it is
exactly the full fit until an opponent has shown down ``WINDOW`` times, which no match of the
reports reaches (blocks of at most 2,000 deals); beyond that the oldest evidence gives way, so
the trust also follows a player who changes. The alternatives were an online EM (a step per
showdown: it changes every fit from the first showdown on) and a likelihood kept on a grid of
alpha (exact, but its resolution is one more number to choose); the window keeps the fit the
reports were tuned with. On the tuning seeds (heads-up limit, 4 blocks of 5,000 deals, both
seatings) the window against the full fit earned +0.014 SB/hand [-0.008, +0.036] against
``maniac`` and +0.010 [-0.017, +0.037] against ``exploiter``: no measurable difference.

>>> t = RangeTrust(prior=0.7, prior_weight=5)
>>> t.alpha("x")
0.7
>>> for _ in range(40):  # the shown hands were 4 times as likely under the weights
...     t.add("x", p_weights=0.004, p_uniform=0.001)
>>> t.alpha("x") > 0.95
True
>>> for _ in range(40):
...     t.add("y", p_weights=0.0001, p_uniform=0.001)  # the weights were wrong every time
>>> t.alpha("y") < 0.1
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numba
import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from agent.modeller.hand import HandModel
from agent.strength.numpy_sums import pairwise_sum
from simulator import ActionKind
from simulator.core.cards import HOLDING_INDEX

EM_STEPS = 30
WINDOW = 1000  # showdowns per opponent the fit runs over (see the module docstring)


class TrustParams(BaseModel):
    """The prior of each opponent's trust (values proposed here, in the agent's YAML)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    prior: float = Field(ge=0, le=1)
    prior_weight: float = Field(ge=0, le=1e9)
    by_line: bool
    """Keep a trust apart for hands whose opponent's last action was a bet or raise."""


def on_bet_line(hand: HandModel, seat: int) -> bool:
    """Whether ``seat``'s last action in ``hand`` so far was a bet or raise.

    >>> from simulator import GameConfig, HandStarted
    >>> game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
    >>> hand = HandModel.start(game, HandStarted(0, 0, ("a", "b"), (100, 100), (True, True),
    ...                        game), 0, ())
    >>> on_bet_line(hand, 1)  # "b" has not acted yet
    False
    """
    return hand.last_action_of(seat) is ActionKind.RAISE


@dataclass
class ShowdownWindow:
    """One opponent's last ``WINDOW`` showdowns, a ring of pairs of numbers (here p_w and
    p_u; :mod:`agent.heuristic.calibration` keeps its own pairs in one too)."""

    first: np.ndarray = field(default_factory=lambda: np.empty(WINDOW))
    second: np.ndarray = field(default_factory=lambda: np.empty(WINDOW))
    seen: int = 0

    def add(self, first: float, second: float) -> None:
        at = self.seen % WINDOW
        self.first[at], self.second[at] = first, second
        self.seen += 1

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The pairs kept, as two arrays."""
        n = min(self.seen, WINDOW)
        return self.first[:n], self.second[:n]


@dataclass
class RangeTrust:
    """Per opponent (by name) the shown-down evidence and the trust it gives; with
    ``by_line``, per opponent and line too (``bet``: the hand ended on its bet or raise)."""

    prior: float
    prior_weight: float
    by_line: bool = False
    _shown: dict[str, ShowdownWindow] = field(default_factory=dict)
    _alpha: dict[str, float] = field(default_factory=dict)
    _line_shown: dict[tuple[str, bool], ShowdownWindow] = field(default_factory=dict)
    _line_alpha: dict[tuple[str, bool], float] = field(default_factory=dict)

    def add(self, name: str, p_weights: float, p_uniform: float, bet: bool = False) -> None:
        shown = self._shown.setdefault(name, ShowdownWindow())
        shown.add(p_weights, p_uniform)
        pooled = float(_em(*shown.arrays(), self.prior, self.prior_weight, EM_STEPS))
        self._alpha[name] = pooled
        if not self.by_line:
            return
        self._line_shown.setdefault((name, bet), ShowdownWindow()).add(p_weights, p_uniform)
        for line in (False, True):  # both lines: their prior, the pooled trust, moved
            window = self._line_shown.get((name, line))
            if window is not None:
                self._line_alpha[name, line] = float(_em(*window.arrays(), pooled,
                                                         self.prior_weight, EM_STEPS))

    def learn(self, hand: HandModel, shown: Mapping[int, tuple[int, int]],
              weights_of: Callable[[int], np.ndarray]) -> None:
        """Score the weights each opponent had (``weights_of(seat)``) against the holding it
        showed in ``hand``, on the line the hand ended on."""
        for seat, cards in shown.items():
            if seat == hand.us:
                continue
            p_w, p_u = shown_likelihoods(weights_of(seat), int(HOLDING_INDEX[cards[0], cards[1]]))
            if p_u > 0:
                self.add(hand.names[seat], p_w, p_u, on_bet_line(hand, seat))

    def of(self, hand: HandModel, seat: int) -> float:
        """The trust in ``seat``'s range at this point of ``hand`` (on the line it is on)."""
        return self.alpha(hand.names[seat], on_bet_line(hand, seat))

    def alpha(self, name: str, bet: bool | None = None) -> float:
        """The trust in ``name``'s range on a line (``bet``), or over all its showdowns
        (None, and every line without ``by_line``)."""
        pooled = self._alpha.get(name, self.prior)
        if bet is None or not self.by_line:
            return pooled
        return self._line_alpha.get((name, bet), pooled)


@numba.njit(cache=True, nogil=True)
def _em(pw: np.ndarray, pu: np.ndarray, prior: float, prior_weight: float,
        steps: int) -> float:
    """EM for the mixture weight, with ``prior_weight`` pseudo-observations at ``prior``;
    the same float operations in the same order as the numpy form in ``tests/test_trust.py``,
    so the result is bit for bit the same, without numpy's per-call overhead (a fit runs
    at every showdown)."""
    n = pw.shape[0]
    share = np.empty(n)
    a = prior
    for _ in range(steps):
        for i in range(n):
            mix = a * pw[i] + (1 - a) * pu[i]
            share[i] = a * pw[i] / mix if mix > 0 else a
        a = (pairwise_sum(share, 0, n) + prior_weight * prior) / (n + prior_weight)
    return a


def mixed(weights: np.ndarray, alpha: float) -> np.ndarray:
    """The weights (normalised) mixed with the uniform range over the same live holdings.

    >>> mixed(np.array([0.0, 3.0, 1.0]), 0.5).tolist()
    [0.0, 0.625, 0.375]
    """
    w = np.ascontiguousarray(weights, dtype=np.float64)
    out = np.empty(w.shape[0])
    return out if _mixed(w, float(alpha), out) else weights


@numba.njit(cache=True, nogil=True)
def _mixed(w: np.ndarray, alpha: float, out: np.ndarray) -> bool:
    """:func:`mixed` into ``out``, False (``out`` unset) when the weights sum to nothing: the
    numpy form ``alpha * w / total + (1 - alpha) * live / count`` one holding at a time, with
    the same float operations in the same order (``total`` is numpy's pairwise sum), in one
    pass instead of eight array calls per opponent and decision."""
    n = w.shape[0]
    total = pairwise_sum(w, 0, n)
    if total <= 0:
        return False
    count = 0
    for i in range(n):
        if w[i] > 0:
            count += 1
    count = max(count, 1)
    rest = 1 - alpha
    for i in range(n):
        out[i] = alpha * w[i] / total + rest * (1.0 if w[i] > 0 else 0.0) / count
    return True


def shown_likelihoods(weights: np.ndarray, holding: int) -> tuple[float, float]:
    """``(p_w, p_u)`` of a shown holding under the weights and under the uniform range."""
    live = int((weights > 0).sum())
    total = float(weights.sum())
    if total <= 0 or live == 0:
        return 0.0, 0.0
    return float(weights[holding]) / total, 1.0 / live

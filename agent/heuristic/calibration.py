"""Our river strength against each opponent, calibrated by the showdowns it went to.

The agent's river win probability is HS against the opponent's modelled range (mixed with the
uniform range by our trust in it). Two things bend it away from the truth, in either
direction and by opponent: the re-weighting reads a bet as strength whether or not this
player bets that way, and the uniform part of the mixture credits weak hands with wins
against holdings the player would have folded long before. Against a player whose river
bets are mostly value, the agent then calls with hands that almost never win.

Every showdown says how right the estimate was: ``x = logit(HS)`` of our holding against the
range as it stood when the hand ended, and the outcome ``y`` (1 a win, 1/2 a split, 0 a loss).
Per opponent and :func:`situation` (whether it bet or raised on the river: a player's river
bets and its checked-down hands are misread in opposite directions, and one map for both
corrected neither), a logistic fit ``P(win) = L(a + b x)`` over its last
:data:`agent.heuristic.trust.WINDOW` showdowns, with ``prior_weight`` pseudo-showdowns' worth of
Gaussian prior at the identity (``a = 0, b = 1``: HS taken as it is), maps HS to the
calibrated win probability. With no showdowns the map is the identity; with many it follows
the evidence.

Only showdowns are seen: the fit answers "when we get to the river's end against this
player, how often does an estimate like ours win", the question a river call asks.

>>> c = ShowdownCalibration(prior_weight=20.0)
>>> c.win("x", 0.6)  # nothing seen: HS as it is
0.6
>>> for _ in range(200):  # estimates of 0.6 that won only a fifth of the time
...     for outcome in (1.0, 0.0, 0.0, 0.0, 0.0):
...         c.add("x", 0.6, outcome)
>>> round(c.win("x", 0.6), 2)  # the prior holds it a little toward 0.6
0.21
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from agent.heuristic.trust import RangeTrust, ShowdownWindow, mixed
from agent.modeller.hand import HandModel
from agent.strength.range_strength import range_strength
from simulator import ActionKind, Street
from simulator.core.cards import HOLDING_INDEX

EDGE = 0.005  # HS is clipped to [EDGE, 1 - EDGE] before its logit
NEWTON_STEPS = 8


class CalibrationParams(BaseModel):
    """Whether the river strength is calibrated by showdowns, and the prior's weight."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    enabled: bool
    prior_weight: float = Field(gt=0, le=1e9)
    """Pseudo-showdowns' worth of belief that HS is right as it is (proposed here)."""


def situation(hand: HandModel, seat: int) -> str:
    """The key a showdown against ``seat`` is filed under, and a river decision read by: its
    name, and whether it bet or raised on the river."""
    bet = any(a.street is Street.RIVER and a.seat == seat and a.kind is ActionKind.RAISE
              for a in hand.actions)
    return f"{hand.names[seat]}/{'bet' if bet else 'quiet'}"


def logit(p: np.ndarray | float) -> np.ndarray:
    q = np.clip(np.asarray(p, dtype=np.float64), EDGE, 1.0 - EDGE)
    return np.asarray(np.log(q / (1.0 - q)))


def fit(x: np.ndarray, y: np.ndarray, prior_weight: float) -> tuple[float, float]:
    """The MAP ``(a, b)`` of ``P(y) = L(a + b x)`` with a Gaussian prior at ``(0, 1)`` of
    precision ``prior_weight / 4`` (a logistic's curvature at 1/2 times the pseudo-count),
    by Newton's method from the prior's mode (the loss is convex: it converges)."""
    theta = np.array([0.0, 1.0])
    prior = np.array([0.0, 1.0])
    precision = prior_weight / 4.0
    design = np.stack([np.ones_like(x), x], axis=1)
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-(design @ theta)))
        grad = design.T @ (p - y) + precision * (theta - prior)
        hess = (design * (p * (1.0 - p))[:, None]).T @ design + precision * np.eye(2)
        theta = theta - np.linalg.solve(hess, grad)
    return float(theta[0]), float(theta[1])


@dataclass
class ShowdownCalibration:
    """Per opponent (by name) its showdowns and the map they give."""

    prior_weight: float
    _seen: dict[str, ShowdownWindow] = field(default_factory=dict)
    _fit: dict[str, tuple[float, float]] = field(default_factory=dict)

    def add(self, name: str, hs: float, outcome: float) -> None:
        seen = self._seen.setdefault(name, ShowdownWindow())
        seen.add(float(logit(hs)), outcome)
        self._fit[name] = fit(*seen.arrays(), self.prior_weight)

    def learn(self, hand: HandModel, shown: Mapping[int, tuple[int, int]],
              weights_of: Callable[[int], np.ndarray], trust: RangeTrust) -> None:
        """At a river showdown we took part in: our HS against each shown opponent's range
        as we saw it (mixed by the trust we had), beside the outcome against the holding it
        showed."""
        ours = shown.get(hand.us)
        board = hand.board
        if ours is None or len(board) != 5:
            return
        hole = int(HOLDING_INDEX[ours[0], ours[1]])
        for seat, cards in shown.items():
            if seat == hand.us:
                continue
            weights = mixed(weights_of(seat), trust.of(hand, seat))
            hs = float(range_strength(board, [weights], [hole]).ehs[0])
            theirs = np.zeros_like(weights)
            theirs[HOLDING_INDEX[cards[0], cards[1]]] = 1.0
            outcome = float(range_strength(board, [theirs], [hole]).ehs[0])
            self.add(situation(hand, seat), hs, outcome)

    def coefficients(self, name: str) -> tuple[float, float]:
        return self._fit.get(name, (0.0, 1.0))

    def win(self, name: str, hs: np.ndarray | float) -> np.ndarray | float:
        """The calibrated win probability of river strength ``hs`` against ``name``."""
        if name not in self._fit:
            return hs
        a, b = self._fit[name]
        out = 1.0 / (1.0 + np.exp(-(a + b * logit(hs))))
        return float(out) if np.ndim(hs) == 0 else out

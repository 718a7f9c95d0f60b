"""A player of one fixed style: how many hands it plays, how readily it bets, how often it
bluffs. ``rock`` (tight-passive) and ``maniac`` (loose-aggressive) are two settings of it.

Pre-flop it ranks its hand on the 169-class ranking (``agent.rivals.hand_values``, a
percentile ``v``): it raises with the top ``preflop_raise`` share of hands, continues with the
top ``preflop_play`` share, and checks or folds the rest. After the flop its strength is its
equity against random hands of the live opponents (:mod:`agent.rivals.equity`) times the
players in the hand (1.0 is a fair share of the pot): it bets or raises at ``value`` or more,
checks or calls at ``call`` or more, else checks or folds; with probability ``bluff`` it bets
or raises anyway. Each test moves its threshold by a uniform noise of up to ``jitter``
(pre-flop on the percentile scale, after the flop in proportion to the threshold), so its
play near a threshold is mixed: its policy gives each choice the chance the noise gives it,
and it acts by drawing from that, with its seeded generator. Every default is proposed here
(no source fixes them).

>>> bot = StyleBot(preflop_play=0.2, preflop_raise=0.05, jitter=0.05)
>>> bot.preflop_chances(np.array([0.99, 0.85, 0.3, 0.95])).round(2).tolist()
[[0.0, 0.1, 0.9], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.5, 0.5]]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.heuristic.warm_up import WarmsUp
from agent.rivals.betting import DrawsFromPolicy, choice_policy
from agent.rivals.equity import equities_against
from agent.rivals.hand_values import preflop_values
from agent.rivals.params import StyleParams, validated
from simulator import BaseBot, Observation, Policy
from simulator.play.protocol import holding_indices


class StyleBot(WarmsUp, DrawsFromPolicy, BaseBot):
    """A fixed style (see the module doc)."""

    def __init__(self, preflop_play: float = 0.5, preflop_raise: float = 0.1,
                 value: float = 1.4, call: float = 1.0, bluff: float = 0.0,
                 jitter: float = 0.05, seed: int | None = None) -> None:
        p = validated(StyleParams, type(self).__name__, {
            "preflop_play": preflop_play, "preflop_raise": preflop_raise, "value": value,
            "call": call, "bluff": bluff, "jitter": jitter})
        self.preflop_play, self.preflop_raise = p.preflop_play, p.preflop_raise
        self.bluff, self.jitter = p.bluff, p.jitter
        self.value, self.call = p.value, p.call
        self.rng = np.random.default_rng(seed)

    def _passes(self, margin: np.ndarray) -> np.ndarray:
        """The chance that ``margin + u >= 0`` for the noise u, uniform on +-``jitter``."""
        if not self.jitter:
            return (margin >= 0).astype(np.float64)
        return np.clip((margin + self.jitter) / (2 * self.jitter), 0.0, 1.0)

    def preflop_chances(self, v: np.ndarray) -> np.ndarray:
        """Fold, call and raise chances of hands of percentile ``v`` (one noise draw per
        test, the raise's first)."""
        raise_ = self._passes(v - (1.0 - self.preflop_raise))
        call = (1.0 - raise_) * self._passes(v - (1.0 - self.preflop_play))
        return np.stack([1.0 - raise_ - call, call, raise_], axis=1)

    def postflop_chances(self, strength: np.ndarray) -> np.ndarray:
        """Fold, call and raise chances at ``equity * players``: a bluff first, then the
        thresholds scaled by ``1 + u``."""
        raise_ = self.bluff + (1.0 - self.bluff) * self._passes(strength / self.value - 1.0)
        call = (1.0 - raise_) * self._passes(strength / self.call - 1.0)
        return np.stack([1.0 - raise_ - call, call, raise_], axis=1)

    def policy(self, observation: Observation,
               holdings: Sequence[tuple[int, int]]) -> Policy:
        obs = observation
        indices = holding_indices(holdings, obs.board)
        if not obs.board:
            chances = self.preflop_chances(preflop_values()[indices])
        else:
            opponents = len(obs.live_opponents)
            eq = equities_against(obs.board, [None] * opponents, indices)
            chances = self.postflop_chances(eq * (opponents + 1))
        return choice_policy(obs, chances)

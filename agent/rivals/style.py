"""A player of one fixed style: how many hands it plays, how readily it bets, how often it
bluffs. ``rock`` (tight-passive) and ``maniac`` (loose-aggressive) are two settings of it.

Pre-flop it ranks its hand on the 169-class ranking (``agent.rivals.hand_values``, a
percentile ``v``): it raises with the top ``preflop_raise`` share of hands, continues with the
top ``preflop_play`` share, and checks or folds the rest. After the flop its strength is its
equity against random hands of the live opponents times the players in the hand (1.0 is a
fair share of the pot): it bets or raises at ``value`` or more, checks or calls at ``call``
or more, else checks or folds; with probability ``bluff`` it bets or raises anyway. Each
decision draws a uniform noise of up to ``jitter`` from its seeded generator and moves the
thresholds by it (pre-flop on the percentile scale, after the flop in proportion to the
threshold), so its play near a threshold is mixed. Every default is proposed here (no
source fixes them).

>>> bot = StyleBot(preflop_play=0.2, preflop_raise=0.05, seed=1)
>>> bot.preflop_action(0.99), bot.preflop_action(0.85), bot.preflop_action(0.3)
('raise', 'call', 'fold')
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from agent.rivals.betting import bet_or_raise, check_or_fold
from agent.rivals.hand_values import preflop_values
from agent.rivals.params import StyleParams, validated
from agent.strength.equity import equity
from simulator import Action, BaseBot, Observation
from simulator.core.cards import HOLDING_INDEX

Choice = Literal["raise", "call", "fold"]


class StyleBot(BaseBot):
    """A fixed style (see the module doc); ``samples`` deals per post-flop equity."""

    def __init__(self, preflop_play: float = 0.5, preflop_raise: float = 0.1,
                 value: float = 1.4, call: float = 1.0, bluff: float = 0.0,
                 jitter: float = 0.05, samples: int = 300, seed: int | None = None) -> None:
        p = validated(StyleParams, type(self).__name__, {
            "preflop_play": preflop_play, "preflop_raise": preflop_raise, "value": value,
            "call": call, "bluff": bluff, "jitter": jitter, "samples": samples})
        self.preflop_play, self.preflop_raise = p.preflop_play, p.preflop_raise
        self.bluff, self.jitter = p.bluff, p.jitter
        self.value, self.call, self.samples = p.value, p.call, p.samples
        self.rng = np.random.default_rng(seed)

    def _noise(self) -> float:
        return float(self.rng.uniform(-self.jitter, self.jitter))

    def preflop_action(self, v: float) -> Choice:
        """The pre-flop choice for a hand of percentile ``v``."""
        if v + self._noise() >= 1.0 - self.preflop_raise:
            return "raise"
        if v + self._noise() >= 1.0 - self.preflop_play:
            return "call"
        return "fold"

    def postflop_action(self, strength: float) -> Choice:
        """The post-flop choice for ``equity * players``; a bluff is drawn first."""
        if self.rng.random() < self.bluff or strength >= self.value * (1 + self._noise()):
            return "raise"
        if strength >= self.call * (1 + self._noise()):
            return "call"
        return "fold"

    def act(self, observation: Observation) -> Action:
        obs = observation
        if not obs.board:
            v = float(preflop_values()[HOLDING_INDEX[obs.hole_cards[0], obs.hole_cards[1]]])
            choice = self.preflop_action(v)
        else:
            opponents = len(obs.live_opponents)
            eq = equity(obs.hole_cards, obs.board, [None] * opponents, self.samples,
                        int(self.rng.integers(2**32)))
            choice = self.postflop_action(eq * (opponents + 1))
        if choice == "raise":
            return bet_or_raise(obs)
        return Action.call() if choice == "call" else check_or_fold(obs)

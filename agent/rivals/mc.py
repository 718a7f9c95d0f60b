"""``mc``: the Monte-Carlo equity player, the common baseline of other poker frameworks.

Its equity against random hands of every live opponent (1,000 deals by default, in the
rivals' numba kernel) decides, pre-flop and after: fold when it is below the pot odds, bet or
raise when it is at least ``1.5 / players in the hand``, otherwise check or call. It bets one
bet in limit and the pot in no-limit. It learns nothing; its only randomness is the deals of
its simulation, drawn from its own seeded generator.

>>> from simulator.core.game import GameConfig
>>> from simulator.core.state import HandState
>>> from simulator.core.cards import parse_cards
>>> game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
>>> s = HandState(game, [200, 200], button=1,
...               holes=[tuple(parse_cards("7c2d")), tuple(parse_cards("AhAs"))],
...               board=parse_cards("Ks9s5h4c3d"))
>>> str(MonteCarloBot(seed=1).act(s.observation(1)))  # AA on the button raises
'raise to 4'
"""

from __future__ import annotations

import numpy as np

from agent.rivals.betting import bet_or_raise, check_or_fold, pot_odds
from agent.rivals.params import MCParams, validated
from agent.strength.equity import equity
from simulator import Action, BaseBot, Observation


class MonteCarloBot(BaseBot):
    """Monte-Carlo equity against random hands: fold below the pot odds, raise when high.

    It raises at ``raise_share / players`` or more, else calls; ``samples`` deals per
    decision.
    """

    def __init__(self, samples: int = 1000, raise_share: float = 1.5,
                 seed: int | None = None) -> None:
        params = validated(MCParams, "mc", {"samples": samples, "raise_share": raise_share})
        self.samples = params.samples
        self.raise_share = params.raise_share
        self.rng = np.random.default_rng(seed)

    def equity(self, obs: Observation) -> float:
        """Our equity against a random hand for each live opponent."""
        opponents = obs.live_opponents
        return equity(obs.hole_cards, obs.board, [None] * len(opponents), self.samples,
                      int(self.rng.integers(2**32)))

    def act(self, observation: Observation) -> Action:
        eq = self.equity(observation)
        players = len(observation.live_opponents) + 1
        if eq < pot_odds(observation):
            return check_or_fold(observation)
        if eq >= self.raise_share / players:
            return bet_or_raise(observation)
        return Action.call()

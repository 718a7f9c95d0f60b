"""``mc``: the equity player, the common baseline of other poker frameworks.

Its equity against random hands of every live opponent decides, pre-flop and after: fold
when it is below the pot odds, bet or raise when it is at least ``1.5 / players in the
hand``, otherwise check or call. It bets one bet in limit and the pot in no-limit and
pot-limit. It learns nothing. Other frameworks estimate that equity by Monte Carlo; here it
is computed (:mod:`agent.rivals.equity`), so the bot plays a fixed function of its cards and
the spot, and its policy, for every holding at once, is that function's value.

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

from collections.abc import Sequence

import numpy as np

from agent.heuristic.warm_up import WarmsUp
from agent.rivals.betting import CALL, FOLD, RAISE, DrawsFromPolicy, choice_policy, pot_odds
from agent.rivals.equity import equities_against
from agent.rivals.params import MCParams, validated
from simulator import BaseBot, Observation, Policy
from simulator.play.protocol import holding_indices, own_holding


class MonteCarloBot(WarmsUp, DrawsFromPolicy, BaseBot):
    """Equity against random hands: fold below the pot odds, raise when high.

    It raises at ``raise_share / players`` or more, else calls.
    """

    def __init__(self, raise_share: float = 1.5, seed: int | None = None) -> None:
        params = validated(MCParams, "mc", {"raise_share": raise_share})
        self.raise_share = params.raise_share
        self.rng = np.random.default_rng(seed)

    def equities(self, obs: Observation, holdings: np.ndarray) -> np.ndarray:
        """Each holding's equity against a random hand for each live opponent."""
        return equities_against(obs.board, [None] * len(obs.live_opponents), holdings)

    def equity(self, obs: Observation) -> float:
        """Our own holding's equity (see :meth:`equities`)."""
        return float(self.equities(obs, holding_indices(own_holding(obs), obs.board))[0])

    def policy(self, observation: Observation,
               holdings: Sequence[tuple[int, int]]) -> Policy:
        obs = observation
        indices = holding_indices(holdings, obs.board)
        eq = self.equities(obs, indices)
        players = len(obs.live_opponents) + 1
        choice = np.where(eq < pot_odds(obs), FOLD,
                          np.where(eq >= self.raise_share / players, RAISE, CALL))
        return choice_policy(obs, np.eye(3)[choice].reshape(len(indices), 3))

"""What the rivals share about a spot: pot odds, the live opponents, and how big a bet is.

Every rival plays no-limit and pot-limit by betting the pot where limit bets one bet: a
pot-sized raise first calls, then raises by the pot after the call, clamped to the legal range
(a short stack goes all-in; in pot-limit the pot is the largest raise) and to what the
opponents have left.

>>> from simulator.core.actions import LegalActions
>>> from simulator.core.game import GameConfig
>>> from simulator.core.observation import Observation
>>> legal = LegalActions(can_fold=True, call_amount=10, min_raise_to=20, max_raise_to=190)
>>> obs = Observation(0, 1, 5, GameConfig(), (0, 1), (2, 3, 4), 1, 30, (190, 100),
...                   (0, 10), (10, 20), (True, True), (), legal)
>>> pot_raise_to(obs), str(bet_or_raise(obs)), round(pot_odds(obs), 3), obs.live_opponents
(50, 'raise to 50', 0.25, (1,))
>>> pot_raise_to(obs, fraction=10.0)  # the opponent can put in 10 + 100 this round
110
>>> str(check_or_fold(obs))
'fold'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, assert_never

import numpy as np

from agent.heuristic.selector import draw
from simulator import Action, Observation, Policy
from simulator.core import sizing
from simulator.core.game import Structure
from simulator.core.sizing import raise_to_fraction
from simulator.play.protocol import own_holding


def pot_odds(obs: Observation) -> float:
    """The share of the pot after our call that the call costs; 0 when checking is free."""
    return sizing.pot_odds(obs.pot, obs.legal.call_amount)


def pot_raise_to(obs: Observation, fraction: float = 1.0) -> int:
    """The raise-to total of a bet of ``fraction`` of the pot after our call, clamped to the
    legal range and to the most any live opponent could put in this round (a bigger bet
    only comes back); the caller checks that raising is legal."""
    legal = obs.legal
    call = legal.call_amount
    target = raise_to_fraction(obs.bets[obs.seat] + call, obs.pot, call, fraction)
    reach = max((obs.bets[o] + obs.stacks[o] for o in obs.live_opponents), default=target)
    low, high = legal.raise_bounds
    return max(low, min(high, target, reach))


def rival_raise_to(obs: Observation) -> int:
    """A rival's bet or raise: the one bet of limit, the pot in no-limit and pot-limit (the
    pot-limit maximum); the caller checks that raising is legal."""
    structure = obs.game.structure
    if structure is Structure.LIMIT:
        return obs.legal.raise_bounds[0]
    if structure is Structure.NO_LIMIT or structure is Structure.POT_LIMIT:
        return pot_raise_to(obs)
    assert_never(structure)


def bet_or_raise(obs: Observation) -> Action:
    """One bet in limit, a pot-sized bet in no-limit and pot-limit; a call when raising is not
    legal."""
    if not obs.legal.can_raise:
        return Action.call()
    return Action.raise_to(rival_raise_to(obs))


def check_or_fold(obs: Observation) -> Action:
    """Check when it is free, else fold: never fold when checking is free."""
    return obs.legal.check_or_fold()


FOLD, CALL, RAISE = 0, 1, 2


def choice_actions(obs: Observation) -> tuple[Action, Action, Action]:
    """What a rival's fold, call and raise stand for here: the fold is a check when checking
    is free, the raise one bet (limit) or the pot (no-limit, pot-limit), a call when raising
    is not legal."""
    return check_or_fold(obs), Action.call(), bet_or_raise(obs)


def choice_policy(obs: Observation, chances: np.ndarray) -> Policy:
    """The policy of a rival that chooses fold, call or raise: ``chances`` has a row per
    holding and the columns fold, call, raise; choices that play the same action here (a
    free fold is a check) share its column.

    >>> from simulator.core.actions import LegalActions
    >>> from simulator.core.game import GameConfig
    >>> from simulator.core.observation import Observation
    >>> legal = LegalActions(can_fold=False, call_amount=0, min_raise_to=2, max_raise_to=2)
    >>> obs = Observation(0, 1, 0, GameConfig(), (0, 1), (2, 3, 4), 1, 4, (98, 98), (0, 0),
    ...                   (2, 2), (True, True), (), legal)
    >>> p = choice_policy(obs, np.array([[0.2, 0.3, 0.5]]))
    >>> [str(a) for a in p.actions], p.probabilities.tolist()
    (['call', 'raise to 2'], [[0.5, 0.5]])
    """
    actions = tuple(dict.fromkeys(choice_actions(obs)))
    column = np.array([actions.index(a) for a in choice_actions(obs)])
    out = np.zeros((chances.shape[0], len(actions)))
    for choice in (FOLD, CALL, RAISE):
        out[:, column[choice]] += chances[:, choice]
    return Policy(actions, out)


class _Stating(Protocol):
    rng: np.random.Generator

    def policy(self, observation: Observation,
               holdings: Sequence[tuple[int, int]]) -> Policy: ...


class DrawsFromPolicy:
    """``act`` as one draw from the bot's row for its own holding, and ``step_with_policy``
    (:class:`~simulator.StepWithPolicyBot`) giving that row with the action: for a bot
    with a ``policy`` and a generator ``rng``."""

    def step_with_policy(self: _Stating, observation: Observation) -> tuple[Policy, Action]:
        policy = self.policy(observation, own_holding(observation))
        return policy, draw(policy, self.rng)

    def act(self: _Stating, observation: Observation) -> Action:
        return DrawsFromPolicy.step_with_policy(self, observation)[1]

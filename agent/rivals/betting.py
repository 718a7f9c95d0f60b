"""What the rivals share about a spot: pot odds, the live opponents, and how big a bet is.

Every rival plays no-limit by betting the pot where limit bets one bet: a pot-sized raise
first calls, then raises by the pot after the call, clamped to the legal range (a short
stack goes all-in) and to what the opponents have left.

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

from simulator import Action, Observation


def pot_odds(obs: Observation) -> float:
    """The share of the pot after our call that the call costs; 0 when checking is free."""
    call = obs.legal.call_amount
    return call / (obs.pot + call) if call else 0.0


def pot_raise_to(obs: Observation, fraction: float = 1.0) -> int:
    """The raise-to total of a bet of ``fraction`` of the pot after our call, clamped to the
    legal range and to the most any live opponent could put in this round (a bigger bet
    only comes back); the caller checks that raising is legal."""
    legal = obs.legal
    call = legal.call_amount
    target = obs.bets[obs.seat] + call + int(round(fraction * (obs.pot + call)))
    reach = max((obs.bets[o] + obs.stacks[o] for o in obs.live_opponents), default=target)
    return max(legal.min_raise_to, min(legal.max_raise_to, target, reach))


def bet_or_raise(obs: Observation) -> Action:
    """One bet in limit, a pot-sized bet in no-limit; a call when raising is not legal."""
    legal = obs.legal
    if not legal.can_raise:
        return Action.call()
    if obs.game.is_limit:
        return Action.raise_to(legal.min_raise_to)
    return Action.raise_to(pot_raise_to(obs))


def check_or_fold(obs: Observation) -> Action:
    """Check when it is free, else fold: never fold when checking is free."""
    return obs.legal.check_or_fold()

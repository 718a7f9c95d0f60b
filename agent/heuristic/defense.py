"""Pre-flop checks by equity that the income-rate rules lack: defence by pot odds, and
value raises.

Loki's pre-flop rules (agent/preflop/expert.py) compare a hand's income rate with thresholds
and never look at the price or at the opponent in front of them.

* **Defence.** Heads-up the rules fold the big blind to a raise with about half the deck,
  while a raise there offers 3 to 1; an opponent that learns it raises every hand (Papp 1998
  names the rules' neglect of pot odds himself). So when the rules fold a hand that faces a
  bet, the agent calls instead if its equity against the opponents' modelled ranges (which
  the modeller has already narrowed on their raises), discounted by ``realization`` for
  playing the rest of the hand after the flop, beats the pot odds.
* **Steals** (``steal``). The rules do not ask whether the opponents fold: heads-up they
  limp most hands from the button against a player who folds its big blind to a raise with
  most of its hands. So when the rules do not raise, the agent raises instead (as Make4
  would) if the raise is worth more than the best of folding and calling by a one-street
  account: the chance ``F`` that every opponent folds takes the pot, and otherwise the hand
  plays for its realized equity against the ranges that call (:func:`worth_stealing`). ``F``
  counts only the folds the modeller has seen (no folds by default until it has seen enough,
  :func:`agent.heuristic.preflop_policy.raise_answers`): against a player not yet seen, or one who
  never folds, ``F`` is 0 and only strong hands clear it.
* **Value raises** (``value_raise``). The rules call or check with hands that are well ahead
  of what an opponent really plays: against a player that raises or calls every hand, half
  the deck. Each bet that goes in when our share of the pot is above an equal share earns
  that difference, so when the rules do not raise a hand the agent raises instead (as Make4
  would) if its equity against the modelled ranges, times the players in the hand, is at
  least ``value_edge`` (heads-up 1.1: an equity of 0.55 or more). Against an opponent whose
  range the modeller has narrowed by its raises, few hands clear that bar.

The equity against one range is exact (the shipped holding-against-holding table,
:mod:`simulator.core.preflop_equity`); against several it is the product of the equities
against each, as if beating one opponent said nothing about beating the next (the agent's
own HS_n takes the same view after the flop).

>>> from agent.heuristic.params import load_agent_params
>>> p = load_agent_params().defense
>>> worth_calling(0.40, to_call=2, pot=6, params=p), worth_calling(0.22, 2, 6, p)
(True, False)
>>> worth_raising(0.58, players=2, params=p), worth_raising(0.52, 2, p)  # value_edge 1.1
(True, False)
"""

from __future__ import annotations

from typing import overload

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from simulator.core.sizing import pot_odds

MAX_SAMPLES = 100_000


class DefenseParams(BaseModel):
    """Parameters of the pre-flop defence (all proposed here)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    enabled: bool
    realization: float = Field(gt=0, le=1.5)
    """The share of its showdown equity a hand is taken to win when it plays on."""
    value_raise: bool
    """Raise where the rules do not and the hand's equity clears ``value_edge``."""
    value_edge: float = Field(gt=0, le=10)
    """The equity times the players in the hand at which a hand raises for value."""
    steal: bool
    """Raise where the rules do not and the chance that all fold pays for it."""


@overload
def worth_calling(share: float, to_call: int, pot: int, params: DefenseParams) -> bool: ...


@overload
def worth_calling(share: np.ndarray, to_call: int, pot: int, params: DefenseParams
                  ) -> np.ndarray: ...


def worth_calling(share: float | np.ndarray, to_call: int, pot: int, params: DefenseParams
                  ) -> bool | np.ndarray:
    """Whether ``share`` of the pot (our equity) pays for ``to_call`` into ``pot`` (elementwise
    for an array of shares)."""
    return params.realization * share >= pot_odds(pot, to_call)


@overload
def worth_raising(share: float, players: int, params: DefenseParams) -> bool: ...


@overload
def worth_raising(share: np.ndarray, players: int, params: DefenseParams) -> np.ndarray: ...


def worth_raising(share: float | np.ndarray, players: int, params: DefenseParams
                  ) -> bool | np.ndarray:
    """Whether ``share`` of the pot (our equity) among ``players`` is worth a raise for value
    (elementwise for an array of shares); whether value raises are on is the caller's
    question, as the defence's is."""
    return share * players >= params.value_edge


def worth_stealing(equity: np.ndarray, called: np.ndarray, fold_all: float, pot: int,
                   to_call: int, added: int, pot_called: int, params: DefenseParams
                   ) -> np.ndarray:
    """Whether a raise adding ``added`` chips beats both folding (0) and calling ``to_call``
    into ``pot``, elementwise over holdings. With ``equity`` against the ranges now, ``called``
    against the ranges that call the raise, ``fold_all`` the chance that every opponent folds,
    ``pot_called`` the pot once all call and ``r`` the realization, in chips from now:

        raise: F * pot + (1 - F) * (r * called * pot_called - added)
        call:  r * equity * (pot + to_call) - to_call  (a check when to_call is 0)

    From the button heads-up (pot 3, a raise to 4 adds 3, the big blind calls 2 more), a hand
    with equity 0.5 now and 0.4 against the hands that call: when half the big blind's hands
    fold the raise is worth 1.5 + 0.5 (0.8 x 0.4 x 8 - 3) = 1.28 against the call's 0.6; when
    none fold, -0.44.

    >>> from agent.heuristic.params import load_agent_params
    >>> p = load_agent_params().defense
    >>> eq, called = np.array([0.5]), np.array([0.4])
    >>> [bool(worth_stealing(eq, called, f, 3, 1, 3, 8, p)[0]) for f in (0.5, 0.0)]
    [True, False]
    """
    r = params.realization
    raised = fold_all * pot + (1.0 - fold_all) * (r * called * pot_called - added)
    stayed = r * equity * (pot + to_call) - to_call
    return np.asarray(raised > np.maximum(stayed, 0.0))


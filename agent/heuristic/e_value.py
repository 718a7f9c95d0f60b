"""The direct-estimation evaluation function: the expected value E(t) of each candidate action.

    E(t) = (Pw * ESw - EBw) + Pvf * (ESvf - EBvf) - Phf * EBhf

After action t the hand ends in one of three ways, with probabilities that sum to one:
a showdown (``sd``), every opponent folding (``vf``, "victory by fold") or our folding later
(``hf``, "hero folds"). The terms, all in chips:

* ``Pw``: the probability that the hand goes to a showdown *and* we win it (a tie counts
  as half), ``P(sd) * p_win``;
* ``ESw``: the expected final pot of showdown endings (every player's chips, ours included);
* ``EBw``: our expected bets in showdown endings, weighted by the probability of a showdown,
  ``P(sd) * E[bets | sd]``, because we pay them whether we win or lose;
* ``Pvf``, ``ESvf``, ``EBvf``: the probability that everyone else folds, the pot we then take
  and our bets in that ending (conditional on it);
* ``Phf``, ``EBhf``: the probability that we fold later and our bets lost then (conditional).

Bets are counted *from this decision on* (the candidate's own chips included); chips already
in the pot are sunk. So E is the expected change of our stack from now, measured against
folding now: ``E(fold now) = 0`` exactly, and every other candidate is worth playing when its
E is positive.

This module holds the formula and its eight parameters (:class:`EParams`). The parameters
come from two sources:

* :func:`agent.heuristic.heuristic_model.heuristic_params`: a small model of the rest of
  the hand from our showdown win probability, the pot odds, the players in the hand and each
  opponent's action frequencies; rough by design, it carries the agent until data arrives;
* :func:`agent.heuristic.chain_model.chain_params`: the betting-chain store's answer for
  "chains like this one plus t". How often the opponents fold on a line is their behaviour,
  the same whatever we hold, so ``Pvf`` comes from the chains; whether we fold later depends
  on our cards, so the rest is split between showdown and our fold by the heuristic; pots
  and bets come from the chains, and the win probability blends ours with the mean strength
  the opponents showed down.
  Counts are shrunk toward the heuristic by ``chain_prior`` pseudo-observations.

A hand-computed case, heads-up on the river: the pot is 10 with a bet of 2 to call, we win
60% of showdowns. Calling is worth 0.6 * 12 - 2 = 5.2:

>>> from agent.heuristic.candidates import Candidate, Spot
>>> from agent.heuristic.heuristic_model import heuristic_params
>>> from agent.heuristic.params import load_agent_params
>>> params = load_agent_params().evaluation
>>> spot = Spot(pot=10, to_call=2, our_bet=0, stack=100, street=3, is_limit=True,
...             bet_unit=2, future_unit=2, opponent_calls=(0,), opponent_stacks=(98,))
>>> call = Candidate.call(spot)
>>> p = heuristic_params(spot, call, p_win=0.6, p_called=0.6,
...                      opponents=(OpponentTendency(0.5, 0.3, 0.2),),
...                      params=params)
>>> round(p.value, 6)
5.2
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.core.frozen import quick_init

Values = float | np.ndarray
"""A number per holding asked about: a float for one hand, an array over holdings for many."""


@quick_init
@dataclass(frozen=True, slots=True)
class OpponentTendency:
    """An opponent's action frequencies where it faces our action (street x bets to call):
    numbers, or arrays over the holdings we ask about (its fold rate can depend on our cards:
    they change which of its hands are left)."""

    fold: Values
    call: Values
    raise_: Values


@quick_init
@dataclass(frozen=True, slots=True)
class EParams:
    """The eight parameters of E(t) (see the module docstring) and where they came from;
    ``win`` is our chance to win the showdown as the estimate sees it (``p_w / P(sd)``)."""

    p_w: Values
    es_w: Values
    eb_w: Values
    p_vf: Values
    es_vf: Values
    eb_vf: Values
    p_hf: Values
    eb_hf: Values
    win: Values = 0.0
    source: str = "heuristic"

    @property
    def p_sd(self) -> Values:
        return np.maximum(0.0, 1.0 - self.p_vf - self.p_hf)

    @property
    def value(self) -> Values:
        """E(t) = (Pw*ESw - EBw) + Pvf*(ESvf - EBvf) - Phf*EBhf."""
        return ((self.p_w * self.es_w - self.eb_w) + self.p_vf * (self.es_vf - self.eb_vf)
                - self.p_hf * self.eb_hf)

    def at(self, i: int) -> EParams:
        """The parameters of the ``i``-th holding asked about, as plain numbers."""
        def pick(x: Values) -> float:
            return (float(np.broadcast_to(x, np.shape(self.value))[i])
                    if np.ndim(x) or np.ndim(self.value) else float(x))
        return EParams(pick(self.p_w), pick(self.es_w), pick(self.eb_w), pick(self.p_vf),
                       pick(self.es_vf), pick(self.eb_vf), pick(self.p_hf), pick(self.eb_hf),
                       pick(self.win), source=self.source)

    def as_dict(self) -> dict[str, float | str]:
        return {"Pw": float(self.p_w), "ESw": float(self.es_w), "EBw": float(self.eb_w),
                "Pvf": float(self.p_vf), "ESvf": float(self.es_vf),
                "EBvf": float(self.eb_vf), "Phf": float(self.p_hf),
                "EBhf": float(self.eb_hf), "source": self.source}


FOLD_NOW = EParams(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0)
"""Folding now: we lose nothing more than what is already in, so E = 0."""

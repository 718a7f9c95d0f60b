"""What the heuristic agent learns from how its hands end, apart from the opponent model.

Three learners read a hand's end; the decision only reads them:

* the **range trust** (:mod:`agent.heuristic.trust`): how far each opponent's weight array is
  believed,
  fitted to the holdings it shows down;
* the **showdown calibration** (:mod:`agent.heuristic.calibration`, with ``calibration.enabled``):
  what
  a river strength against that opponent turned out to be worth at its showdowns;
* the **fold cap's call outcomes** (:mod:`agent.heuristic.fold_cap`): what the calls the cap made
  against an opponent earned, scored when the hand ends.

:class:`Learners` holds the three and the calls the cap made in the current hand, and is
told of showdowns and hand ends. It shares the agent's :class:`LearningSwitch` with the
opponent model: once frozen (``HeuristicAgent.freeze``) it learns nothing.

>>> from agent.heuristic.params import load_agent_params
>>> learners = Learners.of(load_agent_params(None, {}))
>>> learners.capped(CappedCall("p1", 0.5, 6))
>>> learners.hand_ended(-14, 2)  # (-14 + 6) / 2 = -4 big blinds, at the cap's share 0.5
>>> learners.call_outcomes.sums["p1"], learners.capped_calls
((-2.0, 0.5), [])
>>> learners.switch.freeze(); learners.capped(CappedCall("p1", 0.5, 6))
>>> learners.hand_ended(10, 2); learners.call_outcomes.sums["p1"], learners.capped_calls
((-2.0, 0.5), [])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from agent.heuristic.calibration import ShowdownCalibration
from agent.heuristic.fold_cap import CallOutcomes, CappedCall, outcome_cap
from agent.heuristic.params import AgentParams
from agent.heuristic.trust import RangeTrust
from agent.modeller.hand import HandModel
from agent.modeller.learning import LearningSwitch


@dataclass
class Learners:
    """The agent's learners of hand ends (see the module doc), under ``params``."""

    params: AgentParams
    trust: RangeTrust
    calibration: ShowdownCalibration
    call_outcomes: CallOutcomes
    switch: LearningSwitch = field(default_factory=LearningSwitch)  # the agent's, shared
    capped_calls: list[CappedCall] = field(default_factory=list)  # this hand's, not scored

    @classmethod
    def of(cls, params: AgentParams, switch: LearningSwitch | None = None) -> Learners:
        return cls(params,
                   RangeTrust(params.trust.prior, params.trust.prior_weight,
                              params.trust.by_line),
                   ShowdownCalibration(params.calibration.prior_weight),
                   CallOutcomes(params.fold_cap.prior_weight),
                   switch if switch is not None else LearningSwitch())

    def showdown(self, hand: HandModel, shown: Mapping[int, tuple[int, int]],
                 weights: Callable[[int], np.ndarray]) -> None:
        """Learn from the holdings shown at the end of ``hand`` (the modeller's picture of it,
        its ``weights`` before the showdown)."""
        if self.switch.frozen:
            return
        if self.params.calibration.enabled:
            self.calibration.learn(hand, shown, weights, self.trust)
        self.trust.learn(hand, shown, weights)

    def capped(self, call: CappedCall) -> None:
        """Note a call the fold cap made in this hand, to score when it ends."""
        if not self.switch.frozen:
            self.capped_calls.append(call)

    def hand_ended(self, net: int, big_blind: int) -> None:
        """Score this hand's capped calls by its ``net`` result, and forget them."""
        if not self.switch.frozen:
            self.call_outcomes.learn(self.capped_calls, net, big_blind)
        self.capped_calls = []

    def forget_hand(self) -> None:
        """Drop this hand's capped calls unscored (a frozen agent, or a new hand)."""
        self.capped_calls = []

    def fold_cap_of(self, hand: HandModel, seat: int) -> float:
        """The fold cap against ``seat``, as its capped calls so far have paid."""
        params = self.params.fold_cap
        return outcome_cap(params.cap, self.call_outcomes.mean(hand.names[seat]),
                           params.loss_scale)

"""The heuristic agent's decision, assembled once when the bot is made.

A decision is a pipeline of pure steps over typed records: pre-flop the rules with the
defence (:mod:`agent.heuristic.preflop_policy`), after the flop the views, the strength, E and the
selector (:mod:`agent.heuristic.postflop`). In a tournament hand, a short stack's
pre-flop is push or fold (:mod:`agent.heuristic.tournament.push_fold`). Which optional parts
take part (the showdown calibration, the fold cap) follows from the parameters, so it is
chosen here, once, and each part the steps read is built here: the opponents' answers to a
raise, the cached pre-flop reach.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agent.heuristic.fold_cap import FoldCap
from agent.heuristic.learners import Learners
from agent.heuristic.params import AgentParams
from agent.heuristic.postflop import PostflopParts, PostflopRows, postflop_rows
from agent.heuristic.preflop_policy import (
    PreflopReach,
    PreflopRows,
    RaiseAnswers,
    preflop_rows,
    raise_answers,
)
from agent.heuristic.tournament.push_fold import PushFoldRows, push_fold_rows, short_spot
from agent.modeller import OpponentModeller
from agent.preflop.expert import PreflopExpert
from simulator import Observation, Street

Rows = PreflopRows | PostflopRows | PushFoldRows


@dataclass(frozen=True)
class Pipeline:
    """The decision at an observation for any holdings (:meth:`rows`); it only reads."""

    expert: PreflopExpert
    params: AgentParams
    answers: RaiseAnswers
    postflop: PostflopParts

    @classmethod
    def of(cls, params: AgentParams, expert: PreflopExpert, modeller: OpponentModeller,
           learners: Learners) -> Pipeline:
        answers = raise_answers(modeller)
        calibrated = learners.calibration.win if params.calibration.enabled else None
        fold_cap = (FoldCap(learners.fold_cap_of,
                            PreflopReach(expert, params.defense, modeller, answers))
                    if params.fold_cap.cap else None)
        return cls(expert, params, answers,
                   PostflopParts(modeller, learners.trust, params, calibrated, fold_cap))

    def rows(self, obs: Observation, holdings: np.ndarray) -> Rows:
        """The decision at ``obs`` for each holding (indices)."""
        path = self.postflop.modeller.path_of(obs)
        if obs.street is Street.PREFLOP:
            short = short_spot(obs, self.params.tournament)  # None outside tournaments
            if short is not None:
                return push_fold_rows(obs, short, self.params.tournament, holdings)
            return preflop_rows(obs, path, self.expert, self.params.defense, holdings,
                                self.answers)
        return postflop_rows(obs, path, self.postflop, holdings)

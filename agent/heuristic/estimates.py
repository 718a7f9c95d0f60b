"""E's parameters of every candidate action, for every holding asked about, from the spot, our
strength and the opponents' views: the pure heart of a post-flop decision.

Two sources, as :mod:`agent.heuristic.e_value` defines them:

* the heuristic model (:func:`agent.heuristic.heuristic_model.heuristic_params`) with our
  win probability against the whole ranges (EHS), against the hands that would call a bet
  (``p_called``) and against those that would re-raise (``p_reraised``), and the share of
  EHS that comes from improving (``(1 - HS_n) PPOT / EHS``);
* the betting-chain store's answers, one per candidate, used for every candidate or for none
  (:func:`from_chains`): chains count what happened later in the hand (later folds, bigger
  pots) and the heuristic does not, so pricing one action by chains and its alternative by
  heuristics would favour whichever has the data, and the agent would only ever learn about
  that one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.heuristic.candidates import Candidate, Spot
from agent.heuristic.chain_model import chain_params
from agent.heuristic.e_value import FOLD_NOW, EParams, Values
from agent.heuristic.evaluation_params import EvaluationParams
from agent.heuristic.heuristic_model import HoldingInputs, SpotInputs, behind_share
from agent.heuristic.opponents import OpponentView
from agent.modeller import ChainAnswer
from simulator.core.ratios import ratio


def draw_share(hs_n: Values, ppot: Values, ehs: Values) -> Values:
    """The share of EHS that comes from improving: ``(1 - HS_n) PPOT / EHS`` (0 at EHS 0)."""
    return ratio((1.0 - np.asarray(hs_n)) * ppot, ehs)


def heuristic_estimates(spot: Spot, candidates: Sequence[Candidate], ehs: Values,
                        p_called: Values, p_reraised: Values, draw: Values,
                        views: Sequence[OpponentView], params: EvaluationParams
                        ) -> list[EParams]:
    """The heuristic parameters of every candidate: a bet or raise meets each opponent's
    answer to a bet and is won at ``p_called`` (``p_reraised`` once re-raised); a check or
    call meets its answer now and is won at ``ehs``. How giving up later meets our wins
    follows the trust in the opponents' bets where ``give_up`` says so."""
    spot_inputs = SpotInputs.of(spot, params,
                                behind_share(params, [v.bet_trust for v in views]))
    # the inputs of the aggressive candidates and of the others, each built at first need
    inputs: dict[bool, HoldingInputs] = {}
    out = []
    for c in candidates:
        if c.kind == "fold":
            out.append(FOLD_NOW)
            continue
        shared = inputs.get(c.aggressive)
        if shared is None:
            shared = inputs[c.aggressive] = (
                HoldingInputs.of(ehs, p_called, [v.bet for v in views], p_reraised, draw)
                if c.aggressive else
                HoldingInputs.of(ehs, ehs, [v.check for v in views], ehs, draw))
        out.append(spot_inputs.params(c, shared))
    return out


def from_chains(candidates: Sequence[Candidate], guesses: Sequence[EParams],
                answers: Sequence[ChainAnswer | None] | None, contributed: int,
                our_value: Values, params: EvaluationParams) -> list[EParams]:
    """Each candidate's parameters from its chain answer, shrunk toward its guess; the
    guesses themselves when ``answers`` is None (too few chains for some candidate)."""
    if answers is None:
        return list(guesses)
    return [g if a is None or c.kind == "fold"
            else chain_params(a, g, c, contributed, our_value, params)
            for c, g, a in zip(candidates, guesses, answers, strict=True)]

"""E's parameters from the betting-chain store's answer for "this line plus t", shrunk toward
the heuristic model's (:mod:`agent.heuristic.heuristic_model`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from agent.heuristic.candidates import Candidate
from agent.heuristic.e_value import EParams, Values
from agent.heuristic.evaluation_params import EvaluationParams
from simulator.core.ratios import ratio

if TYPE_CHECKING:  # the modeller's records, only named here
    from agent.modeller import ChainAnswer, EndingStats


def _plain(x: np.ndarray) -> Values:
    """A 0-d result as a float, so one hand's numbers stay plain numbers."""
    return float(x) if np.ndim(x) == 0 else x


def chain_params(answer: ChainAnswer, heuristic: EParams, candidate: Candidate,
                 contributed: int, our_value: Values, params: EvaluationParams) -> EParams:
    """E's parameters from the chain store's answer for "this line plus t", shrunk toward
    ``heuristic`` (numbers, or arrays over holdings).

    ``contributed`` is our chips in the pot before this decision (the chains count our bets
    over the whole hand, so that many are sunk; the chips of an uncalled bet came back and
    are in neither the final pot nor our bets); ``our_value`` is our hand's strength on the
    scale of the shown strengths (HS against a uniform range). The win probability the
    showdown evidence blends with is the heuristic's (``heuristic.win``).
    """
    n = answer.matched
    k = params.chain_prior
    sd, vf, hf = answer.showdown, answer.they_fold, answer.we_fold
    p_vf = (vf.count + k * heuristic.p_vf) / (n + k) if n + k > 0 else heuristic.p_vf
    rest_h = heuristic.p_sd + heuristic.p_hf
    sd_share = ratio(heuristic.p_sd, rest_h, 1.0)
    p_sd = (1.0 - p_vf) * sd_share
    p_hf = (1.0 - p_vf) - p_sd
    a = float(candidate.added)

    def future(stats: EndingStats, floor: float, fallback: Values) -> Values:
        return max(floor, stats.mean_our_bets - contributed) if stats.count else fallback

    h_sd = heuristic.p_sd
    bets_sd = future(sd, a, ratio(heuristic.eb_w, h_sd, a))
    p_win = heuristic.win
    win = p_win
    if answer.mean_shown_strength is not None and answer.shown:
        seen = 1.0 / (1.0 + np.exp(-(np.asarray(our_value) - answer.mean_shown_strength)
                                   / params.shown_scale))
        win = (answer.shown * seen + params.shown_prior * p_win) / (
            answer.shown + params.shown_prior)
    return EParams(
        p_w=_plain(p_sd * win), es_w=sd.mean_pot if sd.count else heuristic.es_w,
        eb_w=_plain(p_sd * bets_sd), p_vf=_plain(np.asarray(p_vf)),
        es_vf=vf.mean_pot if vf.count else heuristic.es_vf,
        eb_vf=future(vf, 0.0, heuristic.eb_vf),
        p_hf=_plain(p_hf), eb_hf=future(hf, a, heuristic.eb_hf), win=_plain(np.asarray(win)),
        source=f"chains (level {answer.level}, {n} matched)")

"""The showdown calibration of the river strength: the fit, and the agent that uses it."""

from __future__ import annotations

import numpy as np
import pytest
from agent_support import pipeline
from test_heuristic_agent import LIMIT, Script, deal_with, one_hand

from agent.heuristic.bot import HeuristicAgent
from agent.heuristic.calibration import ShowdownCalibration, fit, logit
from agent.heuristic.trust import WINDOW
from simulator import BaseBot, Street
from simulator.play.baseline import CallBot
from simulator.play.match import play_match


def test_the_fit_recovers_a_known_map() -> None:
    rng = np.random.default_rng(5)
    x = rng.normal(0.0, 1.5, 20_000)
    y = (rng.random(x.size) < 1 / (1 + np.exp(-(-1.0 + 1.8 * x)))).astype(float)
    a, b = fit(x, y, prior_weight=1.0)
    assert a == pytest.approx(-1.0, abs=0.08) and b == pytest.approx(1.8, abs=0.08)


def test_without_evidence_or_against_a_strong_prior_hs_stays_as_it_is() -> None:
    c = ShowdownCalibration(prior_weight=1e8)
    assert c.win("x", 0.37) == 0.37 and c.coefficients("x") == (0.0, 1.0)
    for hs in (0.2, 0.5, 0.8):
        c.add("x", hs, 0.0)
    assert c.win("x", 0.6) == pytest.approx(0.6, abs=1e-3)
    hs = np.array([0.1, 0.5, 0.9])
    assert np.asarray(c.win("y", hs)) is hs  # nobody seen: the same array back


def test_a_calibrated_estimate_is_left_alone_and_ties_count_half() -> None:
    rng = np.random.default_rng(2)
    c = ShowdownCalibration(prior_weight=20.0)
    for hs in rng.uniform(0.05, 0.95, WINDOW):
        c.add("fair", float(hs), float(rng.random() < hs))  # HS was the truth
        c.add("ties", float(hs), 0.5)  # every showdown split the pot
    for hs in (0.2, 0.5, 0.8):
        assert c.win("fair", hs) == pytest.approx(hs, abs=0.05)
        assert c.win("ties", hs) == pytest.approx(0.5, abs=0.03)


def test_the_window_forgets_the_oldest_showdowns() -> None:
    c = ShowdownCalibration(prior_weight=5.0)
    for _ in range(WINDOW):
        c.add("x", 0.6, 1.0)  # it used to win every time
    assert c.win("x", 0.6) > 0.9
    for _ in range(WINDOW):
        c.add("x", 0.6, 0.0)  # now it never does
    assert c.win("x", 0.6) < 0.1
    assert logit(0.6) == pytest.approx(np.log(1.5))


def _river_call_chance(agent: HeuristicAgent) -> float:
    # heads-up, the agent on the button with top pair against a bettor on every street
    bots: list[BaseBot] = [Script(bets=(Street.FLOP, Street.TURN, Street.RIVER)), agent]
    spy = one_hand(LIMIT, bots, deal_with(2, 1, "Kd9h", "Kc5d2s8h3c", 3), 1, 1)
    river = [o for o, a in spy.seen if o.street is Street.RIVER and o.legal.call_amount]
    assert river, "the agent did not face a river bet"
    obs = river[0]
    policy = agent.policy(obs, [obs.hole_cards])
    return float(sum(p for a, p in zip(policy.actions, policy.probabilities[0], strict=True)
                     if a.kind.value != "f"))


def test_a_river_bet_that_always_won_its_showdowns_is_called_less() -> None:
    # each agent plays the hand once: a second hand would meet what the first taught it
    plain = _river_call_chance(pipeline(seed=1, **{"calibration.enabled": True}))
    warned = pipeline(seed=1, **{"calibration.enabled": True})
    for hs in np.linspace(0.3, 0.95, 200):
        warned.learners.calibration.add("p0/bet", float(hs), 0.0)  # p0's river bets always won
    assert _river_call_chance(warned) < 0.5 * plain
    elsewhere = pipeline(seed=1, **{"calibration.enabled": True})
    for hs in np.linspace(0.3, 0.95, 200):
        elsewhere.learners.calibration.add("p0/quiet", float(hs), 0.0)  # its checked-down hands
    assert _river_call_chance(elsewhere) == plain


def test_the_agent_learns_from_showdowns_unless_frozen() -> None:
    game = LIMIT
    for frozen in (False, True):
        agent = pipeline(seed=3, **{"calibration.enabled": True})
        if frozen:
            agent.freeze()
        results = list(play_match(game, [agent, CallBot()], 40, seed=8,
                                  names=["hero", "caller"]))
        showdowns = sum(1 for r in results if r.history.shown and len(r.history.board) == 5)
        assert showdowns > 0
        learned = agent.learners.calibration.coefficients("caller/quiet") != (0.0, 1.0)
        assert learned is not frozen

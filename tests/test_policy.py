"""The heuristic agent states its policy: the contract of ``simulator.PolicyBot``."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from agent_support import pipeline
from policy_support import (
    at_decision,
    consistent_with_act,
    independent_of_real_cards,
    live_holdings,
    no_side_effects,
    recorded_decisions,
)

from agent.heuristic.bot import HeuristicAgent
from simulator import GameConfig, HoldemError, PolicyBot, PolicyError
from simulator.play.baseline import CallBot, RandomBot

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=400)
NOLIMIT = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)


def agent(seed: int) -> HeuristicAgent:
    return HeuristicAgent(seed=seed)


def value_raiser(seed: int) -> HeuristicAgent:
    """The pipeline with its pre-flop value raises on (an option that changes rows and
    draws)."""
    return pipeline(seed=seed, **{"defense.value_raise": True})


def stealer(seed: int) -> HeuristicAgent:
    """The agent trusting the folds it has seen from the first one: its pre-flop steals (which
    ask the modeller about a raise that was not made) start within these tests' few hands,
    where the default's wait for 20 observations would leave them all but silent."""
    return pipeline(seed=seed, **{"modeller.prior_observations": 1})


def pipeline_only(seed: int) -> HeuristicAgent:
    """The pipeline from the first hand. The default (``agent``) plays the equilibrium in
    heads-up limit until the opponent deviates: its rows come from the strategy, then, once
    the random rival is found out, from the pipeline."""
    return pipeline(seed=seed)


def test_it_is_a_policy_bot_and_refuses_bad_holdings() -> None:
    rec = recorded_decisions(agent, [RandomBot(seed=2)], LIMIT, 6, seed=1)
    assert isinstance(rec.bot, PolicyBot) and not isinstance(CallBot(), HeuristicAgent)
    for i in range(len(rec.decisions)):
        bot, obs = at_decision(agent, rec, i)
        empty = bot.policy(obs, [])
        assert empty.probabilities.shape == (0, len(empty.actions)) and empty.actions
    i = next(i for i, (_, o) in enumerate(rec.decisions) if o.board)
    bot, obs = at_decision(agent, rec, i)
    with pytest.raises(PolicyError, match="shares a card with the board"):
        bot.policy(obs, [(obs.board[0], 51 if obs.board[0] != 51 else 50)])
    for bad in [(3, 3), (0, 52), (-1, 4), ("As", "Kd")]:
        with pytest.raises(PolicyError, match="bad holding"):
            bot.policy(obs, [bad])
    rows = bot.policy(obs, live_holdings(obs))
    rows.check(obs.legal)
    assert rows.probabilities.shape[0] == len(live_holdings(obs))


def test_an_observation_of_another_hand_is_refused() -> None:
    """The modeller's pictures are of the hand being played: an earlier hand's observation
    would be read against this hand's board, so it is refused, naming both hands."""
    rec = recorded_decisions(agent, [RandomBot(seed=2)], LIMIT, 6, seed=1)
    _, obs = rec.decisions[0]
    last = rec.decisions[-1][1].hand_number
    assert obs.hand_number != last
    with pytest.raises(HoldemError, match=f"hand {obs.hand_number}, but the hand in progress "
                                          f"is {last}"):
        rec.bot.policy(obs, live_holdings(obs))


@pytest.mark.parametrize("factory", [agent, value_raiser, stealer, pipeline_only],
                         ids=["default", "value-raise", "steal", "pipeline"])
@pytest.mark.parametrize(("game", "seats", "hands"), [(LIMIT, 2, 30), (NOLIMIT, 3, 12)],
                         ids=["limit-heads-up", "nolimit-3"])
def test_asking_changes_nothing(factory: Callable[[int], HeuristicAgent], game: GameConfig,
                                seats: int, hands: int) -> None:
    def rivals() -> list:
        return [RandomBot(fold=0.1, call=0.5, raise_=0.4, seed=s) for s in range(seats - 1)]

    assert no_side_effects(factory, rivals, game, hands, seed=5) >= 10


@pytest.mark.parametrize("factory", [agent, value_raiser, stealer, pipeline_only],
                         ids=["default", "value-raise", "steal", "pipeline"])
@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
def test_rows_do_not_depend_on_the_real_cards(factory: Callable[[int], HeuristicAgent],
                                              game: GameConfig) -> None:
    rec = recorded_decisions(factory, [RandomBot(seed=4)], game, 10, seed=2)
    assert independent_of_real_cards(factory, rec) >= 4


def test_act_draws_from_its_row() -> None:
    rec = recorded_decisions(agent, [RandomBot(fold=0.0, call=0.5, raise_=0.5, seed=7)],
                             LIMIT, 8, seed=3)
    mixed = []
    for i in range(len(rec.decisions)):
        bot, obs = at_decision(agent, rec, i)
        row = bot.policy(obs, [tuple(obs.hole_cards)]).probabilities[0]
        if np.sort(row)[-2] > 0.15:
            mixed.append(i)
    assert mixed, "no decision with a mixed row to test"
    def reseed(bot: HeuristicAgent, seed: int) -> None:
        bot.rng = np.random.default_rng(seed)

    assert consistent_with_act(agent, rec, mixed[0], draws=60) > 1e-3  # fresh bots
    for i in mixed[:3]:
        assert consistent_with_act(agent, rec, i, draws=600, reseed=reseed) > 1e-3


def test_a_holding_sharing_our_card_is_answered() -> None:
    rec = recorded_decisions(agent, [RandomBot(seed=4)], LIMIT, 4, seed=2)
    bot, obs = at_decision(agent, rec, next(i for i, (_, o) in enumerate(rec.decisions)
                                            if o.board))
    ours = tuple(obs.hole_cards)
    other = next(c for c in range(52) if c not in obs.board and c not in ours)
    rows = bot.policy(obs, [(ours[0], other), ours])
    rows.check(obs.legal)
    assert rows.probabilities.shape == (2, len(rows.actions))

"""The rivals state their policies: the contract of ``simulator.PolicyBot`` for each."""

from __future__ import annotations

import numpy as np
import pytest
from policy_rivals import RIVALS, random_opponents
from policy_support import (
    at_decision,
    consistent_with_act,
    independent_of_real_cards,
    live_holdings,
    no_side_effects,
    recorded_decisions,
)

from simulator import GameConfig, PolicyBot, PolicyError

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=400)
NOLIMIT = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)


@pytest.mark.parametrize("name", sorted(RIVALS))
def test_rows_are_well_formed_and_bad_holdings_refused(name: str) -> None:
    rec = recorded_decisions(RIVALS[name], random_opponents(2), LIMIT, 6, seed=1)
    assert isinstance(rec.bot, PolicyBot)
    for i in range(len(rec.decisions)):
        bot, obs = at_decision(RIVALS[name], rec, i)
        rows = bot.policy(obs, live_holdings(obs))
        rows.check(obs.legal)
        empty = bot.policy(obs, [])
        assert empty.probabilities.shape == (0, len(empty.actions))
    with pytest.raises(PolicyError, match="bad holding"):
        bot.policy(obs, [(7, 7)])


@pytest.mark.parametrize("name", sorted(RIVALS))
@pytest.mark.parametrize(("game", "seats", "hands"), [(LIMIT, 2, 20), (NOLIMIT, 3, 10)],
                         ids=["limit-heads-up", "nolimit-3"])
def test_asking_changes_nothing(name: str, game: GameConfig, seats: int, hands: int) -> None:
    assert no_side_effects(RIVALS[name], lambda: random_opponents(seats), game, hands, seed=4) >= 5


@pytest.mark.parametrize("name", sorted(RIVALS))
def test_rows_do_not_depend_on_the_real_cards(name: str) -> None:
    rec = recorded_decisions(RIVALS[name], random_opponents(2), LIMIT, 12, seed=2)
    assert independent_of_real_cards(RIVALS[name], rec) >= 3


@pytest.mark.parametrize("name", ["rock", "maniac", "exploiter", "loki"])
def test_act_draws_from_its_row(name: str) -> None:
    rec = recorded_decisions(RIVALS[name], random_opponents(2), LIMIT, 30, seed=3)
    def second_largest(i: int) -> float:
        bot, obs = at_decision(RIVALS[name], rec, i)
        return float(np.sort(bot.policy(obs, [tuple(obs.hole_cards)]).probabilities[0])[-2])

    mixed = [i for i in range(len(rec.decisions)) if second_largest(i) > 0.15]
    if not mixed:
        pytest.skip(f"{name} made no mixed decision in this match")

    def reseed(bot: PolicyBot, seed: int) -> None:
        bot.rng = np.random.default_rng(seed)  # type: ignore[attr-defined]

    assert consistent_with_act(RIVALS[name], rec, mixed[0], draws=500, reseed=reseed) > 1e-3

"""Baseline bots: legal choices, the documented substitutions, seeding, YAML parameters."""

from __future__ import annotations

from collections import Counter

import pytest

from simulator.core.actions import ActionKind, LegalActions
from simulator.core.game import GameConfig
from simulator.core.observation import Observation
from simulator.play.baseline import CallBot, RaiseBot, RandomBot


def obs(legal: LegalActions, variant: str = "nolimit") -> Observation:
    game = GameConfig(variant=variant, blinds=(1, 2))
    return Observation(0, 1, 0, game, (0, 1), (), 0, 3, (98, 99), (2, 1), (2, 1),
                       (True, True), (), legal)


FACING_BET = LegalActions(can_fold=True, call_amount=2, min_raise_to=6, max_raise_to=12)
FREE_NO_RAISE = LegalActions(can_fold=False, call_amount=0)


def test_call_and_raise_bots() -> None:
    assert CallBot().act(obs(FACING_BET)).kind is ActionKind.CALL
    assert RaiseBot().act(obs(FACING_BET)).amount == 6
    assert RaiseBot().act(obs(FREE_NO_RAISE)).kind is ActionKind.CALL


def test_random_bot_frequencies_follow_normalised_weights() -> None:
    bot = RandomBot(fold=2, call=1, seed=5, **{"raise": 1})
    kinds = Counter(bot.act(obs(FACING_BET)).kind for _ in range(4000))
    assert abs(kinds[ActionKind.FOLD] / 4000 - 0.5) < 0.03
    assert abs(kinds[ActionKind.RAISE] / 4000 - 0.25) < 0.03


def test_random_bot_raises_uniformly_over_the_legal_range() -> None:
    bot = RandomBot(fold=0, call=0, raise_=1, seed=2)
    amounts = Counter(bot.act(obs(FACING_BET)).amount for _ in range(7000))
    assert set(amounts) == set(range(6, 13))
    assert min(amounts.values()) > 800


def test_random_bot_substitutions() -> None:
    folder = RandomBot(fold=1, call=0, raise_=0, seed=1)
    raiser = RandomBot(fold=0, call=0, raise_=1, seed=1)
    assert {folder.act(obs(FREE_NO_RAISE)).kind for _ in range(20)} == {ActionKind.CALL}
    assert {raiser.act(obs(FREE_NO_RAISE)).kind for _ in range(20)} == {ActionKind.CALL}


def test_random_bot_is_seeded() -> None:
    a = [RandomBot(seed=3).act(obs(FACING_BET)) for _ in range(1)]
    one, two = RandomBot(seed=3), RandomBot(seed=3)
    seq1 = [one.act(obs(FACING_BET)) for _ in range(50)]
    seq2 = [two.act(obs(FACING_BET)) for _ in range(50)]
    assert seq1 == seq2 and seq1[0] == a[0]
    other = RandomBot(seed=4)
    assert [other.act(obs(FACING_BET)) for _ in range(50)] != seq1


def test_random_bot_rejects_bad_parameters() -> None:
    with pytest.raises(ValueError, match="positive sum"):
        RandomBot(fold=0, call=0, raise_=0)
    with pytest.raises(ValueError):
        RandomBot(fold=-1)
    with pytest.raises(TypeError, match="unknown"):
        RandomBot(folds=1)

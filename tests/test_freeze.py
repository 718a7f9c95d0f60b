"""``freeze()``: a frozen learning bot learns nothing in a match (its model stays as it
started), an unfrozen one learns; ``holdem exploit`` measures the frozen one as its headline."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import pytest

from agent.heuristic.bot import HeuristicAgent
from agent.rivals.exploiter import ExploiterBot
from agent.rivals.loki import LokiBot
from simulator.core.game import GameConfig
from simulator.play.baseline import RandomBot
from simulator.play.match import play_match
from simulator.play.protocol import LearningBot

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=2000)


def _modeller(bot: Any) -> tuple[Any, ...]:
    """What the opponent model has learned: its action counts and chain stores' hands."""
    m = bot.modeller
    counts = sum(int(c.counts.sum()) for c in m.action_counts.values())
    return counts, m.generic.hands, sorted((n, s.hands) for n, s in m.stores.items())


def _heuristic(bot: Any) -> tuple[Any, ...]:
    return _modeller(bot) + (pickle.dumps(bot.learners.trust),)


def _exploiter(bot: Any) -> tuple[Any, ...]:
    """What it has learned of each opponent: move counts, ranges held, hands shown."""
    learned = [(name, float(t.moves.sum()), float(t.held.sum()), float(t.shown.sum()))
               for name, t in bot.known.items()]
    return tuple(sorted(entry for entry in learned if any(entry[1:])))


@pytest.mark.parametrize(("make", "learned"), [
    (HeuristicAgent, _heuristic), (LokiBot, _modeller), (ExploiterBot, _exploiter)],
    ids=["heuristic", "loki", "exploiter"])
def test_a_frozen_bot_learns_nothing(make: Callable[..., Any],
                                     learned: Callable[[Any], tuple[Any, ...]]) -> None:
    states = {}
    for frozen in (False, True):
        bot = make(seed=3)
        assert isinstance(bot, LearningBot)
        if frozen:
            bot.freeze()
        before = learned(bot)
        for _ in play_match(LIMIT, [bot, RandomBot(seed=4)], 40, seed=5,
                            names=("bot", "random")):
            pass
        states[frozen] = (before, learned(bot))
    assert states[True][0] == states[True][1]
    assert states[False][0] != states[False][1]

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


def _every_learner(bot: HeuristicAgent) -> dict[str, bytes]:
    """Everything the agent's learners hold, learner by learner, as bytes (the action
    frequencies' counts, not the blends they keep for reading)."""
    m, learners = bot.modeller, bot.learners
    portfolio = bot.equilibrium.portfolio.opponents if bot.equilibrium is not None else None
    counts = {name: f.counts for name, f in m.action_counts.items()}
    return {name: pickle.dumps(state) for name, state in (
        ("modeller", (m.generic, m.stores, counts, m.changed)),
        ("trust", learners.trust), ("calibration", learners.calibration),
        ("fold cap", (learners.call_outcomes, learners.capped_calls)),
        ("portfolio", portfolio))}


@pytest.mark.parametrize(("params", "learning"), [
    ({"equilibrium.play": False, "fold_cap.cap": 1.5, "calibration.enabled": True},
     ("modeller", "trust", "calibration", "fold cap")),
    ({}, ("modeller", "trust", "portfolio"))],
    ids=["pipeline", "equilibrium"])
def test_one_freeze_stops_every_learner(params: dict[str, Any],
                                        learning: tuple[str, ...]) -> None:
    """The agent's learners share one switch: after ``freeze()`` a hand played changes the
    state of none of them, while the same hands teach each of them when it is not frozen."""
    changed = {}
    for frozen in (False, True):
        bot = HeuristicAgent(seed=3, **params)
        rival = RandomBot(fold=0.0, call=0.3, raise_=0.7, seed=11)
        matches = play_match(LIMIT, [bot, rival], 60, seed=4, names=("bot", "rival"))
        for _ in range(20):  # learn something first: freezing must keep it as it is
            next(matches)
        if frozen:
            bot.freeze()
        before = _every_learner(bot)
        for _ in matches:
            pass
        after = _every_learner(bot)
        changed[frozen] = sorted(name for name in before if before[name] != after[name])
    assert changed[True] == []
    assert changed[False] == sorted(learning)

"""``step_with_policy``: a bot's action and the row it drew it from, in one call.

Every bot of ours that states a policy acts through it, so a tool that needs the row of
each decision (AIVAT) pays for it once. The contract: the same action and the same draws as
``act``, the same row as ``policy`` for the bot's own holding, and AIVAT's corrections
exactly those it computes by asking.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from policy_rivals import RIVALS, random_opponents
from policy_support import recorded_decisions, replayed

from agent.heuristic.bot import HeuristicAgent
from agent.rivals.cfr import CfrBot
from agent.rivals.vexbot import VexbotBot
from simulator import Action, BaseBot, GameConfig, Observation, Policy, StepWithPolicyBot
from simulator.arena.aivat import AivatRecorder
from simulator.arena.config import parse_config
from simulator.arena.tournament import TournamentError, run_tournament
from simulator.core.events import Event
from simulator.play.baseline import CallBot, RaiseBot, RandomBot
from simulator.play.match import play_match
from simulator.play.protocol import BotContext, PolicyBot

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200)

STEPPING: dict[str, Callable[[int], Any]] = {
    **RIVALS,
    "heuristic": lambda s: HeuristicAgent(seed=s),
    "cfr": lambda s: CfrBot(seed=s),
    "vexbot": lambda s: VexbotBot(seed=s),
    "call": lambda s: CallBot(),
    "raise": lambda s: RaiseBot(),
    "random": lambda s: RandomBot(0.2, 0.5, 0.3, seed=s),
}


def _rival() -> RandomBot:
    return random_opponents(2)[0]


@pytest.mark.parametrize("name", sorted(STEPPING))
def test_step_is_act_with_its_row(name: str) -> None:
    factory = STEPPING[name]
    rec = recorded_decisions(factory, [_rival()], LIMIT, 8, seed=5)
    assert isinstance(rec.bot, StepWithPolicyBot)
    streets = set()
    for count, obs in rec.decisions[-8:]:
        events = rec.events[:count]
        stepping = replayed(factory, 17, rec.context, events)
        acting = replayed(factory, 17, rec.context, events)
        policy, action = stepping.step_with_policy(obs)
        assert action == acting.act(obs)
        asked = replayed(factory, 17, rec.context, events).policy(obs, [obs.hole_cards])
        assert policy.actions == asked.actions
        assert np.array_equal(policy.probabilities, asked.probabilities)
        # the same draws were taken: the generators stand at the same point
        if name not in ("call", "raise"):  # the two that draw nothing
            assert stepping.rng.random() == acting.rng.random()  # type: ignore[attr-defined]
        streets.add(obs.street)
    assert len(streets) >= 2


class _Asked(BaseBot):
    """A bot seen without its ``step_with_policy``: AIVAT must ask it for its rows."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def start(self, context: BotContext) -> None:
        self.bot.start(context)

    def observe(self, event: Event) -> None:
        self.bot.observe(event)

    def act(self, observation: Observation) -> Action:
        return self.bot.act(observation)

    def policy(self, observation: Observation, holdings: Any) -> Policy:
        return self.bot.policy(observation, holdings)


def _corrections(bots: list[Any], hands: int) -> np.ndarray:
    recorder = AivatRecorder(2)
    out = []
    for _ in play_match(LIMIT, bots, hands, seed=8, overseer=recorder):
        out.append(recorder.take())
    return np.array(out)


@pytest.mark.parametrize("name", ["heuristic", "exploiter"])
def test_aivat_is_the_same_whether_the_row_comes_with_the_action(name: str) -> None:
    factory = STEPPING[name]
    asked = _Asked(factory(3))
    assert isinstance(asked, PolicyBot) and not isinstance(asked, StepWithPolicyBot)
    stated = _corrections([factory(3), _rival()], 25)
    assert np.count_nonzero(stated) > 10
    assert np.array_equal(stated, _corrections([asked, _rival()], 25))


def _config(tmp_path: Path, bot: str) -> Any:
    return parse_config({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2, "stack": 2000},
        "seats": [{"name": "s", "bot": bot}, {"name": "c", "bot": "call"}],
        "hands": 20, "block_size": 10, "seed": 4, "workers": 1, "luck_samples": 40,
        "output": {"dir": str(tmp_path / "out"), "plots": False}})


def test_a_stated_row_that_gives_the_action_no_chance_is_a_fault(tmp_path: Path) -> None:
    from policy_bots import SteppingLiarBot

    assert isinstance(SteppingLiarBot(), StepWithPolicyBot)  # the row comes with the action
    with pytest.raises(TournamentError, match="bot 's'.*probability 0"):
        run_tournament(_config(tmp_path, "tests.policy_bots:SteppingLiarBot"),
                       progress=False, inline=True)


def test_a_step_that_is_not_a_pair_is_a_fault(tmp_path: Path) -> None:
    with pytest.raises(TournamentError, match="bot 's'.*step_with_policy\\(\\): returned "
                                              "Action, not a pair"):
        run_tournament(_config(tmp_path, "tests.policy_bots:BadStepBot"),
                       progress=False, inline=True)


def test_a_step_with_an_illegal_row_is_a_fault_naming_the_call(tmp_path: Path) -> None:
    with pytest.raises(TournamentError, match="bot 's'.*step_with_policy\\(\\): policy: "
                                              "row 0 sums to 0.9"):
        run_tournament(_config(tmp_path, "tests.policy_bots:BadRowStepBot"),
                       progress=False, inline=True)


class _PlaysEveryOtherDecision:
    """An overseer that plays seat 0's odd decisions itself (a call) and notes, after each
    action, whether a row came with it."""

    def __init__(self) -> None:
        self.count = 0
        self.seen: list[tuple[bool, bool]] = []  # (overseer played, a row came with it)

    def before(self, seat: int, state: Any, ask: Any) -> Action | None:
        if seat != 0:
            return None
        self.count += 1
        return Action.call() if self.count % 2 else None

    def after(self, seat: int, state: Any, record: Any, forced: bool, ask: Any) -> None:
        if seat == 0:
            self.seen.append((self.count % 2 == 1, ask.drawn_from() is not None))


def test_no_row_is_stated_for_an_action_the_overseer_played() -> None:
    overseer = _PlaysEveryOtherDecision()
    list(play_match(LIMIT, [STEPPING["mc"](1), _rival()], 12, seed=3, overseer=overseer))
    assert {played for played, _ in overseer.seen} == {True, False}
    assert all(stated == (not played) for played, stated in overseer.seen)

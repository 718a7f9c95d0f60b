"""The bots' warm-up: what the simulator's ``prepare`` hook runs before a bot plays."""

from __future__ import annotations

import pytest

from agent.heuristic.bot import HeuristicAgent
from agent.heuristic.warm_up import TABLES, _plays, play_table, warm_up
from agent.rivals.cfr import CfrBot
from simulator import Street
from simulator.play.registry import prepare, resolve

PANEL = ("heuristic", "loki", "exploiter", "mc", "rock", "maniac", "cfr", "vexbot")


@pytest.mark.parametrize("name", PANEL)
def test_every_bot_of_the_panel_is_warmed_up_once_per_process(name: str) -> None:
    spec = resolve(name)
    game, _ = TABLES[0]
    prepare(spec, game)
    before = warm_up.cache_info()
    prepare(spec, game)  # the second time costs a look-up
    after = warm_up.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)


@pytest.mark.parametrize(("game", "seats"), TABLES[1:])
def test_the_agents_warm_up_reaches_every_street_and_asks_a_full_range(game, seats) -> None:
    # a warm-up that never left the pre-flop would leave the post-flop kernels cold
    assert play_table(HeuristicAgent, game, seats) == set(Street)


def test_cfr_warms_up_on_the_one_game_it_plays() -> None:
    assert [_plays(CfrBot, game, seats) for game, seats in TABLES] == [True, False, False]

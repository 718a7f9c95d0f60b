"""Decision fingerprints of the yardstick rivals: a change to shared code that moves them fails.

Each case plays a short seeded match and hashes every action and every chip result. The
expected digests are the rivals' decisions as last measured; a change that moves a rival on
purpose updates its digest in a commit of its own, which says why.
"""

from __future__ import annotations

import hashlib

import pytest

from agent.rivals.exploiter import ExploiterBot
from agent.rivals.loki import LokiBot
from agent.rivals.maniac import ManiacBot
from agent.rivals.mc import MonteCarloBot
from agent.rivals.rock import RockBot
from simulator.core.game import GameConfig
from simulator.play.baseline import RandomBot
from simulator.play.match import play_match

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=400)
NOLIMIT = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)


def _digest(game: GameConfig, bots: list, hands: int, seed: int) -> str:
    h = hashlib.sha256()
    for result in play_match(game, bots, hands, seed=seed):
        actions = [(r.seat, int(r.street), r.kind.value, r.amount, r.added)
                   for r in result.history.actions]
        h.update(repr((result.hand_number, actions, result.net)).encode())
    return h.hexdigest()[:16]


CASES = {
    "mc-rock-maniac-limit": (
        LIMIT, lambda: [MonteCarloBot(seed=6), RockBot(seed=7), ManiacBot(seed=8)], 80, 13),
    "loki-exploiter-limit": (LIMIT, lambda: [LokiBot(seed=1), ExploiterBot(seed=2)], 150, 11),
    "loki-exploiter-random-nolimit": (
        NOLIMIT, lambda: [LokiBot(seed=3), ExploiterBot(seed=4), RandomBot(seed=5)], 80, 12),
}

EXPECTED = {
    "mc-rock-maniac-limit": "bf1f0e021bfbe269",
    "loki-exploiter-limit": "cd846d9f14755648",
    "loki-exploiter-random-nolimit": "e421e881e695adb3",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_rival_decisions_are_unchanged(case: str) -> None:
    game, bots, hands, seed = CASES[case]
    assert _digest(game, bots(), hands, seed) == EXPECTED[case]

"""The hand tracker against the engine: chips, bets to call and sizes, from events alone."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agent.modeller.tracker import HandTracker, size_code
from simulator import (
    Action,
    ActionKind,
    ActionTaken,
    BaseBot,
    BoardDealt,
    BotContext,
    Event,
    GameConfig,
    HandEnded,
    HandStarted,
    Observation,
)
from simulator.core.state import HandState
from simulator.play.match import play_match


class Probe(BaseBot):
    """Follows the hand with a tracker and checks it against every observation it gets."""

    def __init__(self, seed: int, edges: tuple[float, ...] = (0.4, 0.8, 1.5)) -> None:
        self.rng = np.random.default_rng(seed)
        self.edges = edges
        self.checked = 0
        self.finals: dict[int, tuple[int, ...]] = {}
        self.sizes: list[tuple[float, bool, int]] = []

    def start(self, context: BotContext) -> None:
        self.tracker = HandTracker(context.game, self.edges)
        self.game = context.game

    def observe(self, event: Event) -> None:
        t = self.tracker
        if isinstance(event, HandStarted):
            t.start(event)
        elif isinstance(event, ActionTaken):
            r = event.record
            if r.kind is ActionKind.RAISE and not self.game.is_limit:
                top = max(t.bets)
                frac = (r.amount - top) / (t.pot + top - t.bets[r.seat])
                self.sizes.append((frac, r.all_in, t.apply(r).size))
            else:
                t.apply(r)
        elif isinstance(event, BoardDealt):
            t.deal(event)
        elif isinstance(event, HandEnded):
            t.close_round()
            self.finals[event.hand_number] = tuple(t.contributions)

    def act(self, obs: Observation) -> Action:
        t = self.tracker
        assert t.bets == list(obs.bets)
        assert t.contributions == list(obs.contributions)
        assert t.stacks == list(obs.stacks)
        assert t.pot == obs.pot
        assert tuple(t.active) == obs.active
        assert t.street == obs.street and t.board == obs.board
        if obs.game.is_limit and obs.stacks[obs.seat] > obs.to_call:
            bet = obs.game.bet_size(obs.street)
            assert t.bets_to_call(obs.seat) == math.ceil(obs.to_call / bet)
        self.checked += 1
        legal = obs.legal
        roll = self.rng.random()
        if roll < 0.15 and legal.can_fold:
            return Action.fold()
        if roll < 0.5 and legal.can_raise:
            top = legal.max_raise_to if roll < 0.155 else min(
                legal.max_raise_to, legal.min_raise_to + obs.pot)  # all-in now and then
            return Action.raise_to(int(self.rng.integers(legal.min_raise_to, top + 1)))
        return Action.call()


def replayed_contributions(history) -> tuple[int, ...]:
    state = HandState(history.game, history.starting_stacks, history.button, history.holes,
                      _full_board(history), hand_number=history.hand_number,
                      dealt_in=history.dealt_in)
    for record in history.actions:
        state.apply(Action(record.kind, record.amount))
    return state.contributions


def _full_board(history) -> tuple[int, ...]:
    used = set(history.board) | {c for h in history.holes if h for c in h}
    spare = [c for c in range(52) if c not in used]
    return tuple(history.board) + tuple(spare[:5 - len(history.board)])


GAMES = [
    GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=60),
    GameConfig(variant="limit", blinds=(1, 2), small_bet=2, ante=1, stack=400),
    GameConfig(variant="nolimit", blinds=(1, 2), stack=100),
    GameConfig(variant="nolimit", blinds=(1, 2), ante=1, stack=300, reset_stacks=False),
]


@pytest.mark.parametrize("seats", [2, 3, 6, 10])
@pytest.mark.parametrize("game", GAMES, ids=["limit", "limit-ante", "nolimit",
                                             "nolimit-carry-over"])
def test_tracker_follows_the_engine(game: GameConfig, seats: int) -> None:
    bots = [Probe(seed=seats * 10 + i) for i in range(seats)]
    results = list(play_match(game, bots, hands=40, seed=seats))
    assert sum(b.checked for b in bots) > 10
    if not game.reset_stacks and seats > 2:  # busted seats sit out: the tracker skips them
        assert any(not all(r.history.dealt_in) for r in results)
    for r in results:
        truth = replayed_contributions(r.history)
        for bot in bots:
            assert bot.finals[r.hand_number] == truth


def test_size_codes_follow_the_pot_fraction_of_each_raise() -> None:
    bots = [Probe(seed=i) for i in range(4)]
    list(play_match(GAMES[2], bots, hands=60, seed=3))
    sizes = [s for b in bots for s in b.sizes]
    assert len({code for _, _, code in sizes}) == 5  # every bucket and all-in seen
    for frac, all_in, code in sizes:
        expected = 5 if all_in else 1 + sum(frac >= e for e in (0.4, 0.8, 1.5))
        assert code == expected


def test_size_code_edges() -> None:
    edges = (0.4, 0.8, 1.5)
    assert [size_code(edges, f, False) for f in (0.0, 0.39, 0.4, 0.79, 0.8, 1.5, 9.0)] == \
        [1, 1, 2, 2, 3, 4, 4]
    assert size_code(edges, 0.1, True) == 5


def test_big_blind_counts_as_a_bet_preflop() -> None:
    game = GameConfig(variant="nolimit", blinds=(1, 2), stack=100)
    t = HandTracker(game, (0.5,))
    t.start(HandStarted(0, button=3, names=tuple("abcd"), stacks=(100,) * 4,
                        dealt_in=(True,) * 4))
    # seats: 0 small blind, 1 big blind, 2 first to act, 3 button
    assert [t.bets_to_call(s) for s in range(4)] == [1, 0, 1, 1]

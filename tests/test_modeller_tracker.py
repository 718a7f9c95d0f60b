"""The betting view built from events against the engine: chips, bets to call and sizes,
from events alone; and the modeller's size codes and contexts read from it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agent.modeller.tracker import seen, size_code
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
from simulator.core.betting import Betting
from simulator.core.state import HandState
from simulator.play.match import play_match


class Probe(BaseBot):
    """Follows the hand with a betting view built from events and checks it against every
    observation it gets."""

    def __init__(self, seed: int, edges: tuple[float, ...] = (0.4, 0.8, 1.5)) -> None:
        self.rng = np.random.default_rng(seed)
        self.edges = edges
        self.checked = 0
        self.finals: dict[int, tuple[int, ...]] = {}
        self.sizes: list[tuple[float, bool, int]] = []

    def start(self, context: BotContext) -> None:
        self.game = context.game

    def observe(self, event: Event) -> None:
        if isinstance(event, HandStarted):
            self.betting = Betting.start(self.game, event.button, event.stacks, event.dealt_in)
            self.board: tuple[int, ...] = ()
        elif isinstance(event, ActionTaken):
            r = event.record
            b = self.betting
            if r.kind is ActionKind.RAISE and not self.game.is_limit:
                top = b.current.top
                frac = (r.amount - top) / (b.pot + top - b.current.bets[r.seat])
                self.sizes.append((frac, r.all_in, seen(b, r, self.edges).size))
            self.betting = b.apply(r)
        elif isinstance(event, BoardDealt):
            self.betting = self.betting.deal(event.street)
            self.board = tuple(event.board)
        elif isinstance(event, HandEnded):
            self.finals[event.hand_number] = self.betting.settled().contributions

    def act(self, obs: Observation) -> Action:
        t = self.betting
        assert t.current.bets == obs.bets
        assert t.contributions == obs.contributions
        assert t.stacks == obs.stacks
        assert t.pot == obs.pot
        assert t.active == obs.active
        assert t.street == obs.street and self.board == obs.board
        if obs.game.is_limit and obs.stacks[obs.seat] > obs.to_call:
            bet = obs.game.bet_size(obs.street)
            assert t.current.bets_to_call(obs.seat) == math.ceil(obs.to_call / bet)
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
    assert ([size_code(edges, f, False) for f in (0.0, 0.39, 0.4, 0.79, 0.8, 1.5, 9.0)] ==
        [1, 1, 2, 2, 3, 4, 4])
    assert size_code(edges, 0.1, True) == 5


def test_big_blind_counts_as_a_bet_preflop() -> None:
    game = GameConfig(variant="nolimit", blinds=(1, 2), stack=100)
    t = Betting.start(game, button=3, stacks=(100,) * 4)
    # seats: 0 small blind, 1 big blind, 2 first to act, 3 button
    assert [t.current.bets_to_call(s) for s in range(4)] == [1, 0, 1, 1]

"""The hand driver, stepped from outside: the events it emits agree with the hand it plays."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.core.actions import Action
from simulator.core.deal import deal_cards
from simulator.core.events import (
    ActionTaken,
    BoardDealt,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    Showdown,
)
from simulator.core.game import GameConfig
from simulator.play.driver import HandDriver

GAMES = (GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=40),
         GameConfig(variant="nolimit", blinds=(1, 2), stack=30),
         GameConfig(variant="nolimit", blinds=(5, 10), ante=1, stack=300))


def _random_action(driver: HandDriver, rng: random.Random) -> Action:
    legal = driver.state.legal_actions()
    choices = [Action.call()]
    if legal.can_fold:
        choices.append(Action.fold())
    if legal.can_raise:
        low, high = legal.raise_bounds
        choices.append(Action.raise_to(rng.randint(low, high)))
    return rng.choice(choices)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.integers(2, 6), st.integers(0, 10**6))
def test_events_tell_the_hand_as_it_was_played(game: GameConfig, seats: int,
                                               seed: int) -> None:
    rng = random.Random(seed)
    stacks = [rng.choice((0, game.stack, game.stack * 2)) for _ in range(seats)]
    stacks[0] = stacks[1] = game.stack  # two players at least
    driver = HandDriver(game, stacks, seats - 1, deal_cards(seed, 0, seats), 0,
                        [f"p{i}" for i in range(seats)])
    told = driver.events()
    while not driver.finished:
        seat = driver.actor
        obs = driver.observation(seat)
        assert obs.seat == seat and obs.hole_cards == driver.state.holes[seat]
        driver.apply(_random_action(driver, rng))
        told += driver.events()
    assert driver.events() == []  # each event is handed out once
    events = [t.event for t in told]
    start = events[0]
    assert isinstance(start, HandStarted) and start.game == game and start.stacks == tuple(stacks)
    dealt = [t for t in told if isinstance(t.event, HoleCardsDealt)]
    assert [t.to for t in dealt] == [s for s in range(seats) if stacks[s] > 0]
    assert all(t.event.seat == t.to for t in dealt)
    assert all(t.to is None for t in told if not isinstance(t.event, HoleCardsDealt))
    taken = [e.record for e in events if isinstance(e, ActionTaken)]
    assert [(r.seat, r.kind, r.amount) for r in taken] == [
        (r.seat, r.kind, r.amount) for r in driver.state.history]
    boards = [e for e in events if isinstance(e, BoardDealt)]
    assert [b.street for b in boards] == [p.street for p in driver.state.chance_points]
    end = events[-1]
    result = driver.result()
    assert isinstance(end, HandEnded) and end.net == result.net and sum(end.net) == 0
    assert sum(end.stacks) == sum(stacks)  # chips conserved
    shows = [e for e in events if isinstance(e, Showdown)]
    assert len(shows) == (1 if driver.state.shown else 0)


def test_a_hand_over_before_anyone_acts_still_tells_its_end() -> None:
    """Everyone all-in from the blinds: the board, the showdown and the end come at once."""
    game = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)
    driver = HandDriver(game, [2, 1], 1, deal_cards(3, 0, 2), 0, ("a", "b"))
    kinds = [type(t.event).__name__ for t in driver.events()]
    assert driver.finished and kinds[-2:] == ["Showdown", "HandEnded"]
    assert kinds.count("BoardDealt") == 3

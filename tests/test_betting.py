"""The betting view agrees with the engine at every decision, built from events or replayed
from an observation."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.core.actions import ActionKind, ActionRecord
from simulator.core.betting import Betting
from simulator.core.game import GameConfig
from simulator.core.state import HandState
from simulator.core.streets import Street
from simulator.play.baseline import RandomBot
from simulator.play.match import deal_cards

games = st.builds(
    GameConfig,
    variant=st.sampled_from(["limit", "nolimit", "potlimit"]),
    ante=st.sampled_from([0, 0, 1]),
    cap=st.sampled_from([None, 4]),
    stack=st.integers(10, 300),
)


@settings(max_examples=120, deadline=None)
@given(game=games, stacks=st.lists(st.integers(1, 300), min_size=2, max_size=9),
       seed=st.integers(0, 2**31))
def test_the_view_matches_the_engine_at_every_decision(game: GameConfig, stacks: list[int],
                                                       seed: int) -> None:
    rng = np.random.default_rng(seed)
    deal = deal_cards(seed, 0, len(stacks))
    button = int(rng.integers(len(stacks)))
    state = HandState(game, stacks, button, list(deal.holes), deal.board)
    live = Betting.start(game, button, stacks)
    bot = RandomBot(fold=0.1, call=0.6, raise_=0.3, seed=seed)
    while not state.finished:
        obs = state.observation(state.actor)
        live = live.deal(obs.street)
        replayed = Betting.of(obs)
        for view in (live, replayed):
            assert view.street == obs.street
            assert view.stacks == obs.stacks and view.contributions == obs.contributions
            assert view.current.bets == obs.bets and view.pot == obs.pot
            assert view.active == obs.active
            to_call = view.current.bets_to_call(obs.seat)
            assert (to_call > 0) == (obs.legal.call_amount > 0)
            assert view.order == state.order
        assert replayed == live
        live = live.apply(state.apply(bot.act(obs)))


def test_contexts_of_a_raised_back_player() -> None:
    game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
    b = Betting.start(game, button=1, stacks=(100, 100))  # heads-up: seat 1 posts the small
    for record in (ActionRecord(1, Street.PREFLOP, ActionKind.CALL, None, 1),
                   ActionRecord(0, Street.PREFLOP, ActionKind.CALL, None, 0),
                   ActionRecord(0, Street.FLOP, ActionKind.RAISE, 2, 2),
                   ActionRecord(1, Street.FLOP, ActionKind.RAISE, 4, 4)):
        b = b.apply(record)
    assert b.street is Street.FLOP and b.current.levels == (2, 4)
    assert b.current.bets_to_call(0) == 1 and b.current.raised(0)
    assert b.current.raised(1) and b.current.last_raiser == 1
    assert b.rounds[0].limpers == 1 and b.previous_raiser() is None
    assert [m.to_call for m in b.moves] == [1, 0, 0, 1]
    assert [m.raised for m in b.moves] == [False, False, False, False]
    assert not b.yet_to_act(1) and not b.yet_to_act(0)


def test_uncalled_bets_go_back_when_a_round_closes() -> None:
    game = GameConfig(variant="nolimit", blinds=(1, 2), stack=100)
    b = Betting.start(game, button=0, stacks=(100, 30, 100))  # seat 1 small, seat 2 big
    b = b.apply(ActionRecord(0, Street.PREFLOP, ActionKind.RAISE, 60, 60))
    b = b.apply(ActionRecord(1, Street.PREFLOP, ActionKind.CALL, None, 29))  # all-in
    b = b.apply(ActionRecord(2, Street.PREFLOP, ActionKind.FOLD, None, 0))
    assert b.contributions == (60, 30, 2)
    b = b.deal(Street.FLOP)
    assert b.contributions == (30, 30, 2) and b.stacks == (70, 0, 98)

"""Property tests: chips are conserved, nothing outside the legal set is accepted, replays
reproduce results; plus the hand state's views (observations, sitting-out seats)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.core.actions import Action, ActionKind
from simulator.core.game import GameConfig
from simulator.core.state import HandState
from simulator.interop.phh import dumps, loads, replay
from simulator.play.baseline import RandomBot
from simulator.play.match import deal_cards, play_match

games = st.builds(
    GameConfig,
    variant=st.sampled_from(["limit", "nolimit"]),
    ante=st.sampled_from([0, 0, 1, 3]),
    cap=st.sampled_from([None, 2, 4]),
    stack=st.integers(10, 300),
    reset_stacks=st.booleans(),
)


def random_hand(game: GameConfig, stacks: list[int], seed: int) -> tuple[HandState, int]:
    """Play random legal actions, trying illegal ones first; returns the state, refusals."""
    rng = np.random.default_rng(seed)
    n = len(stacks)
    deal = deal_cards(seed, 0, n)
    s = HandState(game, stacks, int(rng.integers(n)), list(deal.holes), deal.board)
    refused = 0
    while not s.finished:
        legal = s.legal_actions()
        before = (list(s.stacks), list(s.bets), s.actor, len(s.history))
        for bad in _illegal(legal, rng):
            with pytest.raises(ValueError, match=f"seat {s.actor}: illegal action"):
                s.apply(bad)
            refused += 1
        assert before == (list(s.stacks), list(s.bets), s.actor, len(s.history))
        bot = RandomBot(fold=0.1, call=0.6, raise_=0.3, seed=int(rng.integers(1 << 30)))
        s.apply(bot.act(s.observation(s.actor)))
        if not s.finished:
            assert sum(s.stacks) + sum(s.contributions) == sum(stacks)
    return s, refused


def _illegal(legal, rng) -> list[Action]:
    bad = []
    if not legal.can_fold:
        bad.append(Action.fold())
    if legal.can_raise:
        bad += [Action.raise_to(legal.min_raise_to - 1), Action.raise_to(legal.max_raise_to + 1)]
    else:
        bad.append(Action.raise_to(int(rng.integers(1, 1000))))
    bad.append(Action(ActionKind.CALL, 5))  # a call never names an amount
    return bad


@settings(max_examples=150, deadline=None)
@given(game=games, stacks=st.lists(st.integers(1, 300), min_size=2, max_size=10),
       seed=st.integers(0, 2**31))
def test_chips_conserved_and_illegal_actions_refused(game, stacks, seed) -> None:
    s, refused = random_hand(game, stacks, seed)
    assert sum(s.finishing_stacks) == sum(stacks)
    assert all(x >= 0 for x in s.finishing_stacks)
    assert refused >= len(s.history)


@settings(max_examples=40, deadline=None)
@given(game=games, n=st.integers(2, 9), seed=st.integers(0, 2**31))
def test_phh_replay_reproduces_match_results(game, n, seed) -> None:
    bots = [RandomBot(fold=0.15, call=0.5, seed=seed + i, **{"raise": 0.35}) for i in range(n)]
    for result in play_match(game, bots, 5, seed):
        hand = loads(dumps(result.history))
        state = replay(hand, cap=game.cap)
        assert list(state.finishing_stacks) == hand.finishing_stacks
        n_seats = len(result.stacks)
        order = [x % n_seats for x in range(result.button + 1, result.button + 1 + n_seats)
                 if result.history.dealt_in[x % n_seats]]
        ours = [dataclasses.replace(r, seat=order[r.seat]) for r in state.history]
        assert tuple(ours) == result.history.actions


def test_same_state_replays_identically() -> None:
    game = GameConfig(variant="nolimit", blinds=(1, 2), ante=1)
    a, _ = random_hand(game, [50, 120, 7, 300], 12)
    b, _ = random_hand(game, [50, 120, 7, 300], 12)
    assert a.history == b.history and a.finishing_stacks == b.finishing_stacks


def test_sitting_out_seats_keep_their_chips_and_never_act() -> None:
    game = GameConfig(variant="nolimit", blinds=(1, 2))
    deal = deal_cards(1, 0, 4)
    s = HandState(game, [100, 0, 100, 100], 3, list(deal.holes), deal.board)
    assert s.order == (0, 2, 3)  # seat 1 is skipped: seat 0 small blind, seat 2 big blind
    assert s.bets == (1, 0, 2, 0) and s.actor == 3
    while not s.finished:
        assert s.actor != 1
        s.check_or_call()
    assert s.finishing_stacks[1] == 0 and sum(s.finishing_stacks) == 300


def test_observation_is_immutable_and_shows_only_own_cards() -> None:
    game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, ante=1)
    deal = deal_cards(3, 0, 3)
    s = HandState(game, [30, 30, 30], 2, list(deal.holes), deal.board, hand_number=7)
    s.raise_to(4)
    obs = s.observation(0)
    assert obs.hole_cards == deal.holes[0] and obs.board == () and obs.hand_number == 7
    assert obs.pot == 3 + 1 + 2 + 4 and obs.bets == (1, 2, 4)
    assert obs.contributions == (2, 3, 5) and obs.stacks == (28, 27, 25)
    assert obs.legal.call_amount == 3 and obs.legal.min_raise_to == 6
    assert len(obs.history) == 1 and obs.history[0].amount == 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.pot = 0  # type: ignore[misc]
    s.check_or_call()
    assert len(obs.history) == 1  # a snapshot, not a live view

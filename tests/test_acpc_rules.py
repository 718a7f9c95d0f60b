"""For ACPC play our engine's legal set is the reference dealer's.

ACPC reopens the betting after any raise; our no-limit rules follow the TDA on short all-ins.
With the equal stacks reset every hand of every ACPC game, the two cannot differ. These tests
check it decision by decision over thousands of random hands, many of them with all-ins and
short all-ins, against an independent implementation of ACPC's rules
(``acpc_tiny_client.acpc_view``, written from the protocol notes alone): the same player to
act, the same fold and raise options, the same no-limit raise range, the rounds ending at the
same actions, and the hand ending at the same action.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from acpc_tiny_client import acpc_view, read_game

from simulator.core.actions import Action
from simulator.core.deal import deal_cards
from simulator.core.game import GameConfig
from simulator.interop.acpc.gamedef import (
    NO_STACK,
    SHIPPED,
    GameDef,
    format_gamedef,
    gamedef_for,
    load_gamedef,
)
from simulator.interop.acpc.hand import AcpcHand

SHIPPED_GAMES = sorted(SHIPPED.glob("*.game"))


def _random_action(hand: AcpcHand, rng: random.Random) -> Action:
    legal = hand.state.legal_actions()
    roll = rng.random()
    if legal.can_fold and roll < 0.15:
        return Action.fold()
    if legal.can_raise and roll < 0.6:
        assert legal.min_raise_to is not None and legal.max_raise_to is not None
        pick = rng.random()
        if pick < 0.25:
            return Action.raise_to(legal.max_raise_to)  # all-in (or the fixed limit raise)
        if pick < 0.5:
            return Action.raise_to(legal.min_raise_to)
        return Action.raise_to(rng.randint(legal.min_raise_to, legal.max_raise_to))
    return Action.call()


def _check_hand(hand: AcpcHand, game_keys: dict, rng: random.Random) -> int:
    """Play one random hand, comparing with ACPC's rules at every step; returns decisions."""
    decisions = 0
    while True:
        view = acpc_view(game_keys, hand.betting())
        assert view["betting"] == hand.betting()
        assert view["finished"] == hand.finished, hand.betting()
        if hand.finished:
            return decisions
        state = hand.state
        seat = state.actor
        legal = state.legal_actions()
        assert hand.position_of(seat) == view["actor"], hand.betting()
        assert legal.can_fold == view["can_fold"], hand.betting()
        assert legal.can_raise == view["can_raise"], (hand.betting(), str(legal))
        if legal.can_raise and not hand.game.is_limit:
            start = state.contributions[seat] - state.bets[seat]
            assert (start + legal.min_raise_to, start + legal.max_raise_to) == (
                view["min_to"], view["max_to"]), (hand.betting(), str(legal))
        hand.apply(_random_action(hand, rng))
        decisions += 1


def _play(gd: GameDef, hands: int, seed: int, directory: Path) -> tuple[int, int]:
    """Random hands compared with ACPC's rules; returns (decisions, all-in raises)."""
    game = gd.to_game_config()
    path = directory / "game.game"
    path.write_text(format_gamedef(gd), encoding="ascii")
    keys = read_game(str(path))  # the tiny client reads the definition its own way
    rng = random.Random(seed)
    decisions = all_ins = 0
    for h in range(hands):
        n = gd.num_players
        hand = AcpcHand(game, n, h, (h - 1) % n)
        deal = deal_cards(seed, h, n)
        hand.set_cards(dict(enumerate(deal.holes)), deal.board)
        decisions += _check_hand(hand, keys, rng)
        all_ins += sum(1 for r in hand.state.history if r.all_in and r.amount)
    return decisions, all_ins


@pytest.mark.parametrize("path", SHIPPED_GAMES, ids=lambda p: p.stem)
def test_shipped_games_legal_sets_equal_acpc_rules(path: Path, tmp_path: Path) -> None:
    decisions, _ = _play(load_gamedef(path), hands=600, seed=11, directory=tmp_path)
    assert decisions > 2000


@pytest.mark.parametrize("players, stack", [(2, 400), (3, 300), (6, 250)])
def test_short_stacked_nolimit_legal_sets_equal_acpc_rules(players: int, stack: int,
                                                            tmp_path: Path) -> None:
    """Shallow stacks make all-ins (short ones included) frequent: they cannot differ."""
    game = GameConfig(variant="nolimit", blinds=(5, 10), stack=stack)
    decisions, all_ins = _play(gamedef_for(game, players), hands=500, seed=players,
                               directory=tmp_path)
    assert decisions > 1500 and all_ins > 100


def test_limit_with_a_straddle_and_no_cap(tmp_path: Path) -> None:
    game = GameConfig(variant="limit", blinds=(1, 2, 4), small_bet=4, big_bet=8, cap=None,
                      stack=NO_STACK)
    gd = gamedef_for(game, 4)
    assert gd.first_player == (4, 1, 1, 1) and gd.max_raises is None and gd.stack is None
    decisions, _ = _play(gd, hands=300, seed=4, directory=tmp_path)
    assert decisions > 1000

"""The exact solve of a tiny no-limit game (agent/equilibrium/nolimit_subgame.py): known
answers in closed form, the best response on strategies whose best answer is derived by
hand, and exploitability falling to zero."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from agent.equilibrium import nolimit_subgame as sg
from agent.equilibrium import tiny_games as tg
from agent.equilibrium.errors import EquilibriumError
from agent.equilibrium.nolimit_tree import (
    CALL,
    DECISION,
    FIRST_RAISE,
    FOLD_ACTION,
    ActionAbstraction,
)

ANTE, STACK = 2, 12
NUTS, AIR = 0, 1  # player 0's states in the clairvoyance game


def _clairvoyance_value(ante: int, behind: int) -> Fraction:
    """Player 0's value in the clairvoyance game when its largest bet is ``behind`` chips.

    Each player antes a (pot P = 2a); player 0 holds the nuts or air, half the time each,
    player 1 a bluff-catcher. Player 0 bets B with every nut hand and with a share alpha of
    its air; player 1 calls a bet with probability c. Air is indifferent between bluffing
    (-(a + B) when called, +a when not) and checking (-a): c (a + B) = (1 - c) a + a, so
    c = 2a / (2a + B). Player 1 is indifferent between calling (+(a + B) against air,
    -(a + B) against the nuts) and folding (-a) when air makes up a share q of the bets
    with (2q - 1)(a + B) = -a: q = B / (2(a + B)), so alpha = q / (1 - q) = B / (2a + B).
    The nuts win a + c B on average and air -a (checking or bluffing alike), so the value
    is (a + cB - a) / 2 = a B / (2a + B): increasing in B, so with all-in offered the
    bettor shoves. Raising with a bluff-catcher only loses more to the nuts, and
    betting after a check gains nothing (air has already lost), so neither changes it.
    """
    return Fraction(ante * behind, 2 * ante + behind)


def test_the_clairvoyance_game_with_all_in_reaches_its_known_value() -> None:
    game = sg.clairvoyance_game(ANTE, STACK)
    strategy = sg.solve(game, 1000)
    expected = _clairvoyance_value(ANTE, STACK - ANTE)
    assert expected == Fraction(10, 7)
    assert sg.value(game, strategy) == pytest.approx(float(expected), abs=1e-3)
    assert sg.exploitability(game, strategy) < 5e-4
    t = game.tree
    root, shove = t.row_base[0], t.actions(0)[-1]
    assert t.describe(0, shove) == "r12"
    # the nuts shove; air bluffs alpha = 10 / 14 = 5/7 of the time; facing the shove,
    # player 1 calls c = 4 / 14 = 2/7 of the time
    assert strategy[root + NUTS, shove] == pytest.approx(1.0, abs=0.01)
    assert strategy[root + AIR, shove] == pytest.approx(5 / 7, abs=0.01)
    facing = t.find("r12")
    assert strategy[t.row_base[facing], CALL] == pytest.approx(2 / 7, abs=0.01)


def test_a_single_pot_sized_bet_has_its_smaller_known_value() -> None:
    one_size = ActionAbstraction(fractions=(1.0,), caps=(1,), all_in=False)
    game = sg.clairvoyance_game(ANTE, STACK, one_size)
    assert [game.tree.describe(0, a) for a in game.tree.actions(0)] == ["c", "r6"]
    strategy = sg.solve(game, 3000)  # one size: the average settles more slowly
    expected = _clairvoyance_value(ANTE, 4)  # a pot bet of 4: 2 * 4 / 8 = 1
    assert expected == 1
    assert sg.value(game, strategy) == pytest.approx(1.0, abs=1e-4)
    assert sg.exploitability(game, strategy) < 5e-4


def _always(game: sg.RiverGame, column: int, fallback: int) -> np.ndarray:
    """Every row plays ``column``, or ``fallback`` where the node lacks it."""
    t = game.tree
    out = np.zeros((t.rows, t.abstraction.width))
    for node in np.flatnonzero(t.kind == DECISION):
        a = column if t.child[node, column] >= 0 else fallback
        out[t.row_base[node]:t.row_base[node] + t.buckets[0], a] = 1.0
    return out


def test_the_best_response_to_known_leaks() -> None:
    game = sg.clairvoyance_game(ANTE, STACK)
    calls = _always(game, CALL, CALL)
    # against a player who always checks and calls, player 0 shoves the nuts and is
    # called (+12) and checks air (-2): (12 - 2) / 2 = 5; player 1, facing checks and
    # calls of everything, wins the same whatever it does against nuts or air: 0
    assert sg.best_response_value(game, calls, 0) == pytest.approx(5.0)
    assert sg.best_response_value(game, calls, 1) == pytest.approx(0.0)
    assert sg.value(game, calls) == pytest.approx(0.0)
    # against a player who folds to every bet, any bet takes the antes: +2 with either hand
    folds = _always(game, FOLD_ACTION, CALL)
    assert sg.best_response_value(game, folds, 0) == pytest.approx(2.0)
    assert sg.exploitability(game, calls) == pytest.approx(2.5)


def test_exploitability_falls_to_zero_on_a_six_card_river() -> None:
    game = sg.river_game(6, ANTE, STACK, ActionAbstraction((0.5, 1.0, 2.0), (3,)))
    schedule = (10, 30, 100, 300, 1000)
    for plus, final in ((True, 2e-3), (False, 2e-2)):
        strategies: list[np.ndarray] = []

        def keep(_iteration: int, s: np.ndarray, out: list[np.ndarray] = strategies) -> None:
            out.append(s)

        strategy = sg.solve(game, schedule[-1], plus=plus, checkpoints=schedule,
                            on_checkpoint=keep)
        curve = [sg.exploitability(game, s) for s in strategies]
        assert len(curve) == len(schedule)
        assert all(later < earlier for earlier, later in zip(curve, curve[1:], strict=False))
        assert curve[-1] < final and curve[0] > 10 * curve[-1]
        # the strategy returned is the last checkpoint's
        assert sg.exploitability(game, strategy) == pytest.approx(curve[-1])
    legal = game.tree.child[np.flatnonzero(game.tree.kind == DECISION)] >= 0
    assert legal.any(axis=1).all()


def test_the_solved_strategy_plays_only_legal_actions() -> None:
    game = sg.river_game(4, 1, 6, ActionAbstraction((0.5, 1.0), (2,)))
    strategy = sg.solve(game, 50)
    t = game.tree
    for node in np.flatnonzero(t.kind == DECISION):
        rows = strategy[t.row_base[node]:t.row_base[node] + t.buckets[0]]
        assert np.allclose(rows.sum(axis=1), 1.0)
        assert (rows[:, t.child[node] < 0] == 0).all()


def test_bad_games_are_refused() -> None:
    game = sg.clairvoyance_game(ANTE, STACK)
    with pytest.raises(EquilibriumError, match="summing to 1"):
        sg.RiverGame(game.tree, np.array([[0.5], [0.6]]), game.strength)
    with pytest.raises(EquilibriumError, match="strength"):
        sg.RiverGame(game.tree, game.weights, (np.array([1.0]), np.array([1.0])))
    with pytest.raises(EquilibriumError, match="iterations"):
        sg.solve(game, 0)


KUHN_AS_NO_LIMIT = ActionAbstraction(fractions=(0.5,), caps=(1,), all_in=False)
"""Antes 1 and stacks 2: the half-pot bet of 1 is all-in, one bet a round: Kuhn poker."""


def _kuhn() -> sg.RiverGame:
    return sg.river_game(3, ante=1, stack=2, abstraction=KUHN_AS_NO_LIMIT)


def _as_tiny(game: sg.RiverGame, strategy: np.ndarray) -> tg.Strategy:
    """The no-limit table read as a strategy of :mod:`tiny_games`' independent Kuhn rules
    (their ``r`` is the one bet, here ``r2``)."""
    t = game.tree
    letters = {FOLD_ACTION: "f", CALL: "c", FIRST_RAISE: "r"}

    def play(info: tg.InfoSet) -> dict[str, float]:
        node = t.find(info[2].replace("r", "r2"))
        row = strategy[t.row_base[node] + info[0]]
        return {letters[a]: float(row[a]) for a in t.actions(node)}

    return play


def test_kuhn_poker_as_a_no_limit_river_reaches_its_value() -> None:
    game = _kuhn()
    t = game.tree
    assert [t.describe(0, a) for a in t.actions(0)] == ["c", "r2"]
    assert t.decisions_by_round() == (4,)  # c, r2, c then r2, and the bet after the check
    strategy = sg.solve(game, 2000)
    assert sg.value(game, strategy) == pytest.approx(float(tg.KUHN_VALUE), abs=1e-3)
    assert sg.exploitability(game, strategy) < 1e-3
    # the independent rules and best response of tiny_games agree
    mine = _as_tiny(game, strategy)
    assert tg.exploitability(tg.KUHN_GAME, mine, mine) == pytest.approx(
        sg.exploitability(game, strategy), abs=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_best_response_and_value_agree_with_tiny_games_on_random_strategies(seed: int
                                                                            ) -> None:
    game = _kuhn()
    t = game.tree
    rng = np.random.default_rng(seed)
    strategy = sg.regret_matching(rng.random((t.rows, t.abstraction.width)),
                                  np.vstack([np.repeat(t.child[n:n + 1] >= 0, t.buckets[0],
                                                       axis=0)
                                             for n in np.flatnonzero(t.kind == DECISION)]))
    theirs = _as_tiny(game, strategy)
    assert sg.value(game, strategy) == pytest.approx(
        tg.expected_value(tg.KUHN_GAME, theirs, theirs), abs=1e-12)
    for responder in (0, 1):
        assert sg.best_response_value(game, strategy, responder) == pytest.approx(
            tg.best_response_value(tg.KUHN_GAME, theirs, responder), abs=1e-12)

"""Action translation (agent/equilibrium/translation.py): the pseudo-harmonic mapping, its
frequencies, the sizes outside the abstraction, and real hands followed through the tree."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from agent.equilibrium.errors import EquilibriumError
from agent.equilibrium.nolimit_tree import (
    CALL,
    CHANCE,
    DECISION,
    FIRST_RAISE,
    FOLD,
    FOLD_ACTION,
    HEADS_UP_NO_LIMIT,
    SHOWDOWN,
    ActionAbstraction,
    NoLimitTree,
    build_tree,
)
from agent.equilibrium.translation import (
    ladder,
    pseudo_harmonic,
    real_fraction,
    real_total,
    translate,
)
from simulator.core.actions import ActionKind
from simulator.core.game import GameConfig
from simulator.core.state import HandState

SEAT = (1, 0)  # tree player -> engine seat, with the button on seat 1
PLAYER = {1: 0, 0: 1}
RAISE = ActionKind.RAISE


@functools.cache
def _tree() -> NoLimitTree:
    return build_tree(HEADS_UP_NO_LIMIT)


def _column(tree: NoLimitTree, node: int, letters: str) -> int:
    return next(a for a in tree.actions(node) if tree.describe(node, a) == letters)


@pytest.mark.parametrize(("a", "b"), [(0.0, 0.5), (0.5, 1.0), (1.0, 2.0), (2.0, 16.2)])
def test_the_mapping_is_one_at_a_zero_at_b_and_falls_between(a: float, b: float) -> None:
    assert pseudo_harmonic(a, a, b) == pytest.approx(1.0)
    assert pseudo_harmonic(b, a, b) == pytest.approx(0.0)
    grid = np.linspace(a, b, 101)
    values = [pseudo_harmonic(float(x), a, b) for x in grid]
    assert all(later < earlier for earlier, later in zip(values, values[1:], strict=False))
    # even odds where 2(B - x)(1 + A) = (B - A)(1 + x), x = (A + B + 2AB) / (2 + A + B),
    # below the midpoint: a bet halfway between the sizes leans to the larger one
    fair = (a + b + 2 * a * b) / (2 + a + b)
    assert pseudo_harmonic(fair, a, b) == pytest.approx(0.5)
    assert fair < (a + b) / 2 and pseudo_harmonic((a + b) / 2, a, b) < 0.5


def _frequency(tree: NoLimitTree, node: int, spent: tuple[int, int], total: int,
               column: int, draws: int, seed: int) -> int:
    rng = np.random.default_rng(seed)
    return sum(translate(tree, node, spent, RAISE, total, rng) == column for _ in range(draws))


def _within_binomial(hits: int, draws: int, p: float) -> bool:
    """Within four standard deviations: a correct mapping fails about once in 16,000 runs,
    and the seeds are fixed."""
    return abs(hits - draws * p) <= 4 * math.sqrt(draws * p * (1 - p))


def test_a_bet_between_two_sizes_goes_to_each_at_the_mapped_rate() -> None:
    tree = _tree()
    node = tree.find("r6c/")  # the big blind opens the flop; pot 12
    spent = (6, 6)
    # a bet of 9 into 12 is 0.75 pots, between half pot (r12) and pot (r18): 3/7 to r12
    assert real_fraction(spent, 15) == 0.75
    draws = 20_000
    half, pot = _column(tree, node, "r12"), _column(tree, node, "r18")
    hits = _frequency(tree, node, spent, 15, half, draws, seed=1)
    assert _within_binomial(hits, draws, 3 / 7)
    rng = np.random.default_rng(2)
    assert {translate(tree, node, spent, RAISE, 15, rng) for _ in range(200)} == {half, pot}


def test_a_small_bet_into_nobody_is_read_as_a_check_or_the_smallest_size() -> None:
    tree = _tree()
    node = tree.find("r6c/")
    assert ladder(tree, node)[0] == (CALL, 0.0)
    # a bet of 2 into 12 is 1/6 pot: a check with probability f(1/6; 0, 1/2) = 4/7
    draws = 20_000
    hits = _frequency(tree, node, (6, 6), 8, CALL, draws, seed=3)
    assert _within_binomial(hits, draws, 4 / 7)


def test_a_small_bet_that_a_check_would_close_is_the_smallest_size() -> None:
    tree = _tree()
    node = tree.find("r6c/c")  # the button, last to act: a check would end the flop
    assert ladder(tree, node)[0][0] >= FIRST_RAISE
    rng = np.random.default_rng(4)
    smallest = _column(tree, node, "r12")
    assert {translate(tree, node, (6, 6), RAISE, 8, rng) for _ in range(100)} == {smallest}
    # facing a bet, a min-raise below half pot is the smallest raise, never a call
    facing = tree.find("r6c/r12")
    assert translate(tree, facing, (6, 12), RAISE, 18, rng) == FIRST_RAISE


def test_bets_above_the_largest_size_are_the_largest() -> None:
    tree = _tree()
    node = tree.find("r10c/")  # abstract pot 20: all-in adds 190, 9.5 pots
    assert tree.fraction(node, tree.actions(node)[-1]) == 9.5
    rng = np.random.default_rng(5)
    # the real pot is 12: a bet to 190 is 15.3 pots, beyond every abstract size
    assert {translate(tree, node, (6, 6), RAISE, 190, rng) for _ in range(50)} == {
        _column(tree, node, "r200")}
    # without an all-in in the abstraction, the largest size (2 pots)
    no_shove = build_tree(HEADS_UP_NO_LIMIT, ActionAbstraction(all_in=False))
    n = no_shove.find("r10c/")
    assert translate(no_shove, n, (6, 6), RAISE, 190, rng) == _column(no_shove, n, "r50")


def test_all_ins_for_less_are_the_abstract_all_in() -> None:
    tree = _tree()
    rng = np.random.default_rng(6)
    # real: the button raised to 10, the big blind to 150 (read as r30 here); the button's
    # all-in to 200 adds 50, short of the 140 a full raise needs: an all-in for less
    node = tree.find("r10r30")
    state = HandState(GameConfig(variant="nolimit", blinds=(1, 2), stack=200), [200, 200],
                      button=1, holes=[(0, 1), (2, 3)], board=[10, 20, 30, 40, 50])
    state.raise_to(10)
    state.raise_to(150)
    low, high = state.legal_actions().raise_bounds
    assert (low, high) == (200, 200)  # all-in for less is the only raise left
    assert translate(tree, node, (10, 150), RAISE, 200, rng) == _column(tree, node, "r200")
    # with no all-in offered, the largest raise
    no_shove = build_tree(HEADS_UP_NO_LIMIT, ActionAbstraction(all_in=False))
    n = no_shove.find("r10r30")
    assert translate(no_shove, n, (10, 150), RAISE, 200, rng) == no_shove.actions(n)[-1]


def test_actions_the_node_lacks_become_a_call() -> None:
    tree = _tree()
    rng = np.random.default_rng(7)
    facing_all_in = tree.find("r10r200")
    assert translate(tree, facing_all_in, (10, 150), RAISE, 200, rng) == CALL
    opening = tree.find("r6c/")
    assert tree.child[opening, FOLD_ACTION] < 0
    assert translate(tree, opening, (8, 8), ActionKind.FOLD, None, rng) == CALL
    facing = tree.find("r6")
    assert translate(tree, facing, (6, 2), ActionKind.FOLD, None, rng) == FOLD_ACTION
    assert translate(tree, facing, (6, 2), ActionKind.CALL, None, rng) == CALL
    with pytest.raises(EquilibriumError, match="not a decision"):
        translate(tree, tree.find("r6f"), (6, 2), ActionKind.CALL, None, rng)
    with pytest.raises(EquilibriumError, match="needs its total"):
        translate(tree, facing, (6, 2), RAISE, None, rng)


def test_real_totals_keep_the_real_pot_and_bounds() -> None:
    tree = _tree()
    node = tree.find("r6")  # the big blind facing 6; abstract pot after the call 12
    raises = [a for a in tree.actions(node) if a >= FIRST_RAISE]
    # the real button raised to 8 instead: the real pot after the call is 16
    assert [real_total(tree, node, a, (8, 2), 14, 200) for a in raises] == [16, 24, 40, 200]
    # a minimum above the fraction's size wins, the stack caps it
    assert real_total(tree, node, raises[0], (8, 2), 20, 200) == 20
    assert real_total(tree, node, raises[2], (80, 2), 140, 200) == 200


def _random_action(state: HandState, rng: np.random.Generator) -> tuple[ActionKind, int]:
    """A random legal action of the engine, raises of any size from the minimum to all-in."""
    legal = state.legal_actions()
    u = rng.random()
    if legal.can_fold and u < 0.1:
        state.fold()
        return ActionKind.FOLD, 0
    if not legal.can_raise or u < 0.55:
        state.check_or_call()
        return ActionKind.CALL, 0
    low, high = legal.raise_bounds
    # sizes from a tenth of the pot to five pots, evenly on a log scale, and all-ins
    after_call = state.pot + legal.call_amount
    size = max(state.bets) + int(after_call * np.exp(rng.uniform(np.log(0.1), np.log(5.0))))
    amount = high if rng.random() < 0.1 else min(high, max(low, size))
    record = state.raise_to(amount)
    return ActionKind.RAISE, record.amount if record.amount is not None else amount


@pytest.mark.parametrize("seed", range(6))
def test_a_translated_real_hand_always_lands_on_a_node(seed: int) -> None:
    tree = _tree()
    rng = np.random.default_rng(seed)
    config = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)
    steps, rivers, ahead = 0, 0, 0
    for _ in range(150):
        state = HandState(config, [200, 200], button=1, holes=[(0, 1), (2, 3)],
                          board=[10, 20, 30, 40, 50])
        node = before = 0
        kind, column = ActionKind.CALL, CALL
        while not state.finished and tree.kind[node] == DECISION:
            # the abstract player and street are the real ones
            assert state.actor is not None and PLAYER[state.actor] == tree.player[node]
            assert int(state.street) == tree.round[node]
            rivers += int(state.street) == 3
            spent = (state.contributions[SEAT[0]], state.contributions[SEAT[1]])
            base = state.contributions[SEAT[0]] - state.bets[SEAT[0]]
            kind, amount = _random_action(state, rng)
            column = translate(tree, node, spent, kind, base + amount, rng)
            assert tree.child[node, column] >= 0, (tree.history[node], kind, amount)
            before, node = node, int(tree.child[node, column])
            steps += 1
            if tree.kind[node] == CHANCE:
                node = int(tree.child[node, CALL])
        if state.finished and kind is ActionKind.FOLD:
            # an abstract fold, or a fold to a bet the abstraction read as a check
            assert tree.kind[node] == FOLD or (column == CALL
                                               and tree.child[before, FOLD_ACTION] < 0)
        elif state.finished:
            assert tree.kind[node] == SHOWDOWN, tree.history[node]
        else:
            # the abstract hand ended first: only when it read a real raise as all-in
            assert tree.kind[node] == SHOWDOWN and tree.spent[node].max() == tree.game.stack
            ahead += 1
    assert steps > 300 and rivers > 10 and ahead > 0


"""The no-limit betting tree (agent/equilibrium/nolimit_tree.py) against the engine.

The engine (``simulator/core/state.py``) is the oracle: every abstract action at the nodes a
walk visits must be legal there, put in the chips the tree says, and end the round or the
hand where the tree does; the raise sizes are computed again from the engine's own pot and
legal bounds.
"""

from __future__ import annotations

import copy
import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.equilibrium.errors import EquilibriumError
from agent.equilibrium.nolimit_tree import (
    CALL,
    CHANCE,
    DECISION,
    DEFAULT_ABSTRACTION,
    FIRST_RAISE,
    FOLD,
    FOLD_ACTION,
    HEADS_UP_NO_LIMIT,
    HEADS_UP_NO_LIMIT_200,
    SHOWDOWN,
    ActionAbstraction,
    NoLimitGame,
    NoLimitTree,
    build_tree,
)
from simulator.core.actions import Action
from simulator.core.game import GameConfig
from simulator.core.state import HandState

BUTTON = 1
SEAT = (1, 0)
"""The engine seat of tree player p: player 0 is the button (seat 1 with button=1)."""
SMALL = ActionAbstraction(fractions=(0.5, 1.0), caps=(2, 2, 1, 1))
SHORT = NoLimitGame("20 bb", stack=40, full_bet=2, first=(0, 1, 1, 1), blinds=(1, 2))


@functools.cache
def _default(game: NoLimitGame) -> NoLimitTree:
    """The default abstraction's tree of ``game``, built once for the tests."""
    return build_tree(game, buckets=(169, 200, 200, 200))


def _state(game: NoLimitGame) -> HandState:
    config = GameConfig(variant="nolimit", blinds=game.blinds, stack=game.stack)
    holes = [(0, 1), (2, 3)]
    return HandState(config, [game.stack, game.stack], button=BUTTON, holes=holes,
                     board=[10, 20, 30, 40, 50])


def _expected_raises(tree: NoLimitTree, state: HandState, raises: int) -> list[int]:
    """The raise-to amounts the abstraction should offer, from the engine's pot and bounds."""
    legal = state.legal_actions()
    if not legal.can_raise:
        return []
    low, high = legal.raise_bounds
    top = max(state.bets)
    after_call = state.pot + legal.call_amount
    ab = tree.abstraction
    sizes = set()
    if raises < ab.caps[int(state.street)]:
        sizes = {min(high, max(low, top + int(np.floor(f * after_call + 0.5))))
                 for f in ab.fractions}
    if ab.all_in and (ab.all_in_past_cap or raises < ab.caps[int(state.street)]):
        sizes.add(high)
    return sorted(sizes)


def _check_decision(tree: NoLimitTree, node: int, state: HandState, raises: int) -> None:
    p = int(tree.player[node])
    assert state.actor == SEAT[p], tree.history[node]
    assert int(state.street) == int(tree.round[node])
    assert [state.contributions[SEAT[q]] for q in (0, 1)] == tree.spent[node].tolist()
    legal = state.legal_actions()
    assert legal.can_fold == (tree.child[node, FOLD_ACTION] >= 0)
    assert legal.call_amount == tree.to[node, CALL] - tree.spent[node, p]
    offered = [int(tree.to[node, a] - tree.base[node]) for a in tree.actions(node)
               if a >= FIRST_RAISE]
    assert offered == _expected_raises(tree, state, raises), tree.history[node]
    for amount in offered:
        assert legal.allows(Action.raise_to(amount)), (tree.history[node], amount, str(legal))


def _apply(tree: NoLimitTree, node: int, column: int, state: HandState) -> None:
    if column == FOLD_ACTION:
        state.fold()
    elif column == CALL:
        state.check_or_call()
    else:
        state.raise_to(int(tree.to[node, column] - tree.base[node]))


def _check_end(tree: NoLimitTree, node: int, state: HandState) -> None:
    stack = tree.game.stack
    spent = tree.spent[node]
    assert state.finished, tree.history[node]
    if tree.kind[node] == FOLD:
        # the engine hands the uncalled part of the last bet back: the folder's chips alone
        # are what the hand cost
        folder = int(tree.player[node])
        assert state.contributions[SEAT[folder]] == spent[folder]
        assert state.finishing_stacks[SEAT[folder]] == stack - spent[folder]
        assert state.finishing_stacks[SEAT[1 - folder]] == stack + spent[folder]
    else:
        assert [state.contributions[SEAT[q]] for q in (0, 1)] == spent.tolist()
        assert spent[0] == spent[1] and len(state.board_cards) == 5
        assert sum(state.finishing_stacks) == 2 * stack


def _walk(tree: NoLimitTree, rng: np.random.Generator) -> int:
    """One random path through tree and engine side by side; returns the decisions seen."""
    state = _state(tree.game)
    node, raises, seen = 0, 0, 0
    while True:
        kind = tree.kind[node]
        if kind == CHANCE:
            node, raises = int(tree.child[node, CALL]), 0
            continue
        if kind != DECISION:
            _check_end(tree, node, state)
            return seen
        _check_decision(tree, node, state, raises)
        seen += 1
        actions = tree.actions(node)
        # calls half the time, so that walks reach the river as often as they shove
        column = CALL if rng.random() < 0.5 else int(rng.choice(actions))
        _apply(tree, node, column, state)
        raises += column >= FIRST_RAISE
        node = int(tree.child[node, column])


@pytest.mark.parametrize("game", [HEADS_UP_NO_LIMIT, HEADS_UP_NO_LIMIT_200])
def test_every_action_on_random_paths_is_legal_in_the_engine(game: NoLimitGame) -> None:
    tree = _default(game)
    rng = np.random.default_rng(57)
    seen = sum(_walk(tree, rng) for _ in range(400))
    assert seen > 2000


def test_every_node_of_a_small_tree_matches_the_engine() -> None:
    tree = build_tree(SHORT, SMALL)
    visited = 0

    def visit(node: int, state: HandState, raises: int) -> None:
        nonlocal visited
        visited += 1
        kind = tree.kind[node]
        if kind == CHANCE:
            visit(int(tree.child[node, CALL]), state, 0)
            return
        if kind != DECISION:
            _check_end(tree, node, state)
            return
        _check_decision(tree, node, state, raises)
        for column in tree.actions(node):
            after = copy.deepcopy(state)
            _apply(tree, node, column, after)
            visit(int(tree.child[node, column]), after, raises + (column >= FIRST_RAISE))

    visit(0, _state(SHORT), 0)
    assert visited == tree.nodes


@settings(max_examples=40, deadline=None)
@given(fractions=st.sets(st.sampled_from([0.25, 0.33, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0]),
                         min_size=1, max_size=4),
       caps=st.tuples(*(st.integers(0, 3) for _ in range(4))), all_in=st.booleans(),
       past_cap=st.booleans(), big_blinds=st.integers(3, 40), seed=st.integers(0, 2**32 - 1))
def test_every_abstraction_offers_only_legal_actions(fractions: set[float],
                                                     caps: tuple[int, int, int, int],
                                                     all_in: bool, past_cap: bool,
                                                     big_blinds: int, seed: int) -> None:
    game = NoLimitGame("random", stack=2 * big_blinds, full_bet=2, first=(0, 1, 1, 1),
                       blinds=(1, 2))
    abstraction = ActionAbstraction(tuple(sorted(fractions)), caps, all_in, past_cap)
    tree = build_tree(game, abstraction)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        _walk(tree, rng)


@pytest.mark.parametrize("game", [HEADS_UP_NO_LIMIT, HEADS_UP_NO_LIMIT_200])
def test_terminal_chips_are_consistent(game: NoLimitGame) -> None:
    tree = _default(game)
    spent = tree.spent
    assert (spent >= 0).all() and (spent <= game.stack).all()
    shows = tree.kind == SHOWDOWN
    assert (spent[shows, 0] == spent[shows, 1]).all()
    folds = np.flatnonzero(tree.kind == FOLD)
    folder = tree.player[folds].astype(np.int64)
    # the folder had less in than the bet it gave up against
    assert (spent[folds, folder] < spent[folds, 1 - folder]).all()
    # a showdown before the river is an all-in, called
    early = shows & (tree.round < game.rounds - 1)
    assert early.any() and (spent[early, 0] == game.stack).all()
    # every decision's children belong to its round or (through a chance node) the next
    kids = tree.child[tree.kind == DECISION]
    assert ((kids >= 0).sum(axis=1) >= 2).all()  # always call and something else


def test_the_default_tree_has_its_measured_size() -> None:
    tree = _default(HEADS_UP_NO_LIMIT)
    assert tree.decisions_by_round() == (332, 3372, 16844, 58412)
    assert tree.rows == 332 * 169 + (3372 + 16844 + 58412) * 200
    assert tree.nodes == len(set(tree.history))  # histories are unique
    for n in (0, 1000, tree.nodes - 1):
        if tree.kind[n] != CHANCE:
            assert tree.find(tree.history[n]) == n


def test_sizes_are_clamped_and_deduplicated() -> None:
    tree = _default(HEADS_UP_NO_LIMIT)
    # the button's min-raise to 4 is also the half-pot raise: offered once
    assert [tree.describe(0, a) for a in tree.actions(0)] == ["f", "c", "r4", "r6", "r10",
                                                              "r200"]
    # facing a twice-pot re-raise to 150, every size reaches the stack: the one all-in
    deep = tree.find("r10r30r150")
    assert [tree.describe(deep, a) for a in tree.actions(deep)] == ["f", "c", "r200"]
    assert tree.is_all_in(deep, FIRST_RAISE)
    # past the cap only all-in is offered
    capped = tree.find("cc/r4r8r16r32")
    assert [tree.describe(capped, a) for a in tree.actions(capped)] == ["f", "c", "r200"]
    assert tree.fraction(tree.find("cc/"), FIRST_RAISE + 1) == 1.0


def test_bad_abstractions_are_refused() -> None:
    with pytest.raises(EquilibriumError, match="fractions"):
        ActionAbstraction(fractions=(1.0, 0.5))
    with pytest.raises(EquilibriumError, match="bucket counts"):
        build_tree(HEADS_UP_NO_LIMIT, buckets=(1, 2))
    with pytest.raises(EquilibriumError, match="no node"):
        build_tree(SHORT, SMALL).find("r7")
    assert DEFAULT_ABSTRACTION.width == 6

"""Pot-limit against pokerkit, both ways, on hypothesis-drawn hands and action sequences.

pokerkit's generic state with its pot-limit betting structure is the oracle (it has no
pot-limit Texas hold'em class; see ``pokerkit_state``). At every step the two legal sets must
be equal; the action taken is drawn from ours or from pokerkit's (so each engine replays the
other's choices); a raise one chip past the pot is refused by both; at the end the finishing
stacks are equal and no chip was made or lost. Short stacks force all-ins for less.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from simulator.core.actions import Action, LegalActions
from simulator.core.game import GameConfig
from simulator.core.state import HandState

pokerkit = pytest.importorskip("pokerkit")
from test_rules_pokerkit import (  # noqa: E402  (shared differential helpers)
    apply_pokerkit,
    deal_pending,
    limped_short_all_in,
    pokerkit_legal,
    pokerkit_state,
)

pytestmark = pytest.mark.filterwarnings("ignore:A card being dealt")


@st.composite
def tables(draw: Any) -> tuple[GameConfig, list[int], list[tuple[int, int]], list[int]]:
    n = draw(st.integers(2, 6))
    blinds = draw(st.sampled_from([(1, 2), (1, 2), (5, 10), (1, 2, 4)]))
    ante = draw(st.sampled_from([0, 0, 1, 3]))
    game = GameConfig(variant="potlimit", blinds=blinds, ante=ante, stack=400)
    # a third of the stacks short: all-ins for less, side pots, blinds posted short
    stacks = draw(st.lists(st.one_of(st.integers(1, 15), st.integers(16, 400), st.integers(
        16, 400)), min_size=n, max_size=n))
    cards = draw(st.permutations(range(52)))[:2 * n + 5]
    holes = [(cards[2 * i], cards[2 * i + 1]) for i in range(n)]
    return game, stacks, holes, cards[2 * n:]


def drawn_action(data: st.DataObject, legal: LegalActions) -> Action:
    kind = data.draw(st.sampled_from(["fold", "call", "min", "max", "any", "any"]))
    if kind == "fold" and legal.can_fold:
        return Action.fold()
    if kind in ("min", "max", "any") and legal.can_raise:
        low, high = legal.min_raise_to, legal.max_raise_to
        amount = {"min": low, "max": high}.get(kind) or data.draw(st.integers(low, high))
        return Action.raise_to(amount)
    return Action.call()


def refused_by_pokerkit(pk: pokerkit.State, action: Action) -> bool:
    try:
        apply_pokerkit(pk, action)
    except ValueError:
        return True
    return False


@settings(max_examples=400, deadline=None)
@given(table=tables(), data=st.data())
def test_potlimit_hands_match_pokerkit_both_ways(
        table: tuple[GameConfig, list[int], list[tuple[int, int]], list[int]],
        data: st.DataObject) -> None:
    game, stacks, holes, board = table
    n = len(stacks)
    ours = HandState(game, stacks, n - 1, holes, board)
    pk = pokerkit_state(game, stacks)
    steps = 0
    while True:
        deal_pending(pk, holes, board)
        if ours.finished:
            break
        assert pk.actor_index == ours.actor, ours.history
        legal, theirs = ours.legal_actions(), pokerkit_legal(pk)
        if legal != theirs and limped_short_all_in(pk, game):
            return  # the documented pre-flop difference (tests/test_rules_pokerkit.py)
        assert legal == theirs, (steps, ours.history)
        if legal.can_raise:
            over = Action.raise_to(legal.max_raise_to + 1)
            with pytest.raises(ValueError):
                ours.apply(over)
            assert refused_by_pokerkit(pk, over)
        source = legal if data.draw(st.booleans(), label="ours") else theirs
        action = drawn_action(data, source)
        ours.apply(action)
        apply_pokerkit(pk, action)
        steps += 1
    assert not pk.status
    assert list(ours.finishing_stacks) == list(pk.stacks)
    assert sum(ours.finishing_stacks) == sum(stacks)
    event(f"actions {min(steps // 4 * 4, 12)}+")


def test_pot_sized_raises_by_hand() -> None:
    """The rule's textbook numbers: blinds 1-2, the pot-sized open is to 7, the pot-sized
    re-raise of it to 23, and a short stack's limit is its all-in."""
    game = GameConfig(variant="potlimit", blinds=(1, 2), stack=100)
    s = HandState(game, [100, 100, 100], button=2, holes=[(0, 1), (2, 3), (4, 5)],
                  board=[10, 11, 12, 13, 14])
    assert (s.legal_actions().min_raise_to, s.legal_actions().max_raise_to) == (4, 7)
    s.raise_to(7)  # the button (first to act three-handed) pots it
    # small blind: call 6, then raise the pot 1 + 2 + 7 + 6 = 16: to 23
    assert (s.legal_actions().min_raise_to, s.legal_actions().max_raise_to) == (12, 23)
    short = HandState(game, [15, 100, 100], button=2, holes=[(0, 1), (2, 3), (4, 5)],
                      board=[10, 11, 12, 13, 14])
    short.raise_to(7)
    assert short.legal_actions().max_raise_to == 15  # all-in for less than the pot

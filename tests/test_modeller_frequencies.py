"""Action frequencies: Table B.2, the 20-observation blend, and counting in the right context."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from modeller_support import ModelBot, full_board

from agent.modeller.frequencies import RAISED_BACK, ActionFrequencies
from simulator import Action, ActionKind, GameConfig
from simulator.core.state import HandState
from simulator.play.match import play_match

B2 = {0: (0.0, 0.5, 0.5), 1: (0.5, 0.3, 0.2), 2: (0.7, 0.2, 0.1)}


@pytest.mark.parametrize("street", range(4))
def test_defaults_are_table_b2_in_every_context(street: int) -> None:
    f = ActionFrequencies()
    for context, row in B2.items():
        assert f.get(street, context) == pytest.approx(row)
    assert f.get(street, RAISED_BACK) == pytest.approx((0.1, 0.6, 0.3))
    assert ActionFrequencies(raised_back=(0.2, 0.5, 0.3)).get(street, RAISED_BACK) == (
        pytest.approx((0.2, 0.5, 0.3)))


def test_blend_below_twenty_observations_and_observed_from_then_on() -> None:
    rng = np.random.default_rng(3)
    kinds = [ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE]
    defaults = {**B2, RAISED_BACK: (0.1, 0.6, 0.3)}
    for context in (0, 1, 2, RAISED_BACK):
        f = ActionFrequencies()
        seen = Counter()
        for n in range(1, 31):
            kind = kinds[int(rng.integers(3))]
            f.record(2, context, kind)
            seen[kind] += 1
            observed = np.array([seen[k] for k in kinds]) / n
            if n < 20:
                want = (n * observed + (20 - n) * np.array(defaults[context])) / 20
            else:
                want = observed
            assert f.get(2, context) == pytest.approx(want)
            assert f.observations(2, context) == n
        assert f.get(1, context) == pytest.approx(defaults[context])  # other streets untouched


def test_the_modeller_counts_each_opponent_action_in_its_context() -> None:
    """Limit, deep stacks: an action's context is its call in bets, rounded up (the small
    blind's half bet is one bet), or raised back when the actor raised earlier in the round
    and faces more: an oracle independent of the tracker."""
    game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=1000)
    bots = [ModelBot(seed=i, mode="frequencies", raise_p=0.35) for i in range(4)]
    names = ("a", "b", "c", "d")
    results = list(play_match(game, bots, hands=120, seed=11, names=names))
    want = {name: np.zeros((4, 4, 3), dtype=np.int64) for name in names}
    raised_back = 0
    for r in results:
        h = r.history
        state = HandState(game, h.starting_stacks, h.button, h.holes, full_board(h),
                          hand_number=h.hand_number, dealt_in=h.dealt_in)
        for i, rec in enumerate(h.actions):
            to_call = max(state.bets) - state.bets[rec.seat]
            context = min(math.ceil(to_call / game.bet_size(state.street)), 2)
            if to_call and any(a.seat == rec.seat and a.street == rec.street
                               and a.kind is ActionKind.RAISE for a in h.actions[:i]):
                context = RAISED_BACK
                raised_back += 1
            want[names[rec.seat]][int(state.street), context,
                                  {ActionKind.FOLD: 0, ActionKind.CALL: 1,
                                   ActionKind.RAISE: 2}[rec.kind]] += 1
            state.apply(Action(rec.kind, rec.amount))
    for seat, bot in enumerate(bots):
        for name in names:
            if name == names[seat]:
                assert name not in bot.model.action_counts  # never a model of ourselves
            else:
                assert np.array_equal(bot.model.action_counts[name].counts, want[name])
    assert raised_back > 20  # the raised-back context was exercised


def test_kept_blends_follow_every_observation_and_equal_the_array_formula() -> None:
    # get() keeps each context's blend until that context's next observation; the blend is
    # computed in plain floats, which must give the floats of the numpy formula exactly.
    rng = np.random.default_rng(8)
    kinds = [ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE]
    for prior in (0, 5, 20):
        f = ActionFrequencies(prior=prior)
        for _ in range(200):
            street, context = int(rng.integers(4)), int(rng.integers(4))
            f.get(street, context)  # keep a blend, then make it stale
            f.record(street, context, kinds[int(rng.integers(3))])
            for s in range(4):
                for c in range(3):
                    seen = f.counts[s, c]
                    n = int(seen.sum())
                    if n == 0 and prior == 0:
                        assert all(math.isnan(x) for x in f.get(s, c))
                        continue
                    p = seen / n if n >= prior else (seen + (prior - n) * f.defaults[c]) / prior
                    assert f.get(s, c) == (float(p[0]), float(p[1]), float(p[2]))


def test_pooled_streets_teach_a_thin_context_and_every_kept_blend_follows() -> None:
    # with pool_streets, a thin post-flop context's default is shrunk toward the same
    # context's counts on the other post-flop streets; an observation on one street makes
    # the kept blends of the others stale too. Checked against the formula by brute force.
    rng = np.random.default_rng(9)
    kinds = [ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE]
    f = ActionFrequencies(prior=20, pool_streets=True)
    plain = ActionFrequencies(prior=20)
    for _ in range(300):
        street, context = int(rng.integers(4)), int(rng.integers(4))
        for s in range(4):
            f.get(s, context)  # keep every street's blend, then make them stale
        kind = kinds[int(rng.integers(3))]
        f.record(street, context, kind)
        plain.record(street, context, kind)
        for s in range(4):
            for c in range(4):
                seen, n = f.counts[s, c], int(f.counts[s, c].sum())
                default = f.defaults[c]
                if s > 0:
                    other = f.counts[1:, c].sum(axis=0) - seen
                    m = other.sum()
                    default = (other + 20 * default) / (m + 20) if m else default
                p = seen / n if n >= 20 else (seen + (20 - n) * default) / 20
                assert f.get(s, c) == pytest.approx(tuple(p), abs=1e-12)
                if s == 0:  # before the flop a blind is the bet faced: never pooled
                    assert f.get(s, c) == plain.get(s, c)


def test_a_player_who_calls_every_flop_bet_is_expected_to_call_the_turn() -> None:
    f = ActionFrequencies(prior=20, pool_streets=True)
    for _ in range(40):
        f.record(1, 1, ActionKind.CALL)
    fold, call, _ = f.get(2, 1)  # (40 calls + 20 x B.2) / 60
    assert (fold, call) == (pytest.approx(10 / 60), pytest.approx(46 / 60))
    assert ActionFrequencies(prior=20).get(2, 1) == pytest.approx(B2[1])

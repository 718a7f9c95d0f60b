"""Weight arrays: the factor test vector, the quantile, floors, the snapshot rule, and a
measured margin against a bot that raises only its top 10%."""

from __future__ import annotations

import numpy as np
import pytest
from modeller_support import preflop_values

from agent.modeller import ModellerParams, OpponentModeller
from agent.modeller.weights import (
    KIND_ROW,
    generic_triple,
    quantile_above,
    reweight_threshold,
    reweight_triple,
    threshold_factors,
)
from agent.strength.values import ValueLevels, board_values
from simulator import (
    Action,
    ActionKind,
    ActionRecord,
    ActionTaken,
    BaseBot,
    BoardDealt,
    BotContext,
    Event,
    GameConfig,
    HandStarted,
    HoleCardsDealt,
    Observation,
    Street,
)
from simulator.core.cards import HOLDING_INDEX, clashing_holdings, parse_cards
from simulator.play.match import play_match


def test_threshold_factors_design_vector() -> None:
    v = np.array([0.35, 0.45, 0.60, 0.75, 0.85])
    assert threshold_factors(v, 0.6, 0.2) == pytest.approx([0.01, 0.125, 0.5, 0.875, 1.0])


def test_quantile_above_matches_a_sorted_scan() -> None:
    rng = np.random.default_rng(1)
    values = rng.random(300)
    weights = rng.random(300) * (rng.random(300) < 0.7)
    order = np.argsort(-values)
    for f in (0.05, 0.1, 0.37, 0.5, 0.9, 1.0):
        mu = quantile_above(values, order, weights, f)
        above = weights[values > mu].sum()
        at_or_above = weights[values >= mu].sum()
        # mu is the first value (from the top) where the mass reaches f of the total
        assert above < f * weights.sum() <= at_or_above + 1e-12


def test_reweighting_floors_live_holdings_and_keeps_dead_ones_at_zero() -> None:
    rng = np.random.default_rng(2)
    values = rng.random(1326)
    order = np.argsort(-values)
    w = np.ones(1326)
    w[:100] = 0.0
    new = reweight_threshold(w, values, order, 0.2, 0.05)
    assert (new[:100] == 0).all() and (new[100:] >= 0.01).all() and new.max() == 1.0
    mu = quantile_above(values, order, w, 0.2)
    assert new[100:] == pytest.approx(np.maximum(0.01, threshold_factors(values, mu, 0.05))[100:])
    assert not new.flags.writeable
    # an action nearly everyone takes is skipped below the given percentile
    assert reweight_threshold(w, values, order, 0.99, 0.2, skip_below=0.05) is w


def test_generic_triple_is_a_distribution_ordered_by_value() -> None:
    values = np.linspace(0, 1, 1326)
    order = np.argsort(-values)
    t = generic_triple(values, order, np.ones(1326), (0.5, 0.3, 0.2), 0.05)
    assert np.allclose(t.sum(axis=0), 1) and (t >= 0).all()
    assert (np.diff(t[2]) >= 0).all() and (np.diff(t[0]) <= 0).all()
    # about the frequencies' mass raises and folds
    assert t[2].mean() == pytest.approx(0.2, abs=0.03)
    assert t[0].mean() == pytest.approx(0.5, abs=0.03)
    free = generic_triple(values, order, np.ones(1326), (0.0, 0.6, 0.4), 0.05)
    assert (free[0] == 0).all()
    w = reweight_triple(np.ones(1326), values, order, (0.5, 0.3, 0.2), ActionKind.RAISE, 0.05)
    assert w == pytest.approx(np.maximum(0.01, t[2]))


# --- the snapshot rule, through the modeller --------------------------------------------------

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200)


def started(mode: str = "full", reweighting: str = "threshold") -> OpponentModeller:
    m = OpponentModeller(ModellerParams(reweighting=reweighting), mode, preflop_values())
    m.start(BotContext(seat=0, names=("me", "villain"), game=LIMIT))
    m.observe(HandStarted(0, button=1, names=("me", "villain"), stacks=(200, 200),
                          dealt_in=(True, True), game=LIMIT))
    m.observe(HoleCardsDealt(0, tuple(parse_cards("7h2d"))))
    return m


def act(m: OpponentModeller, seat: int, street: Street, kind: ActionKind, amount: int | None,
        added: int) -> None:
    m.observe(ActionTaken(ActionRecord(seat, street, kind, amount, added)))


@pytest.mark.parametrize("reweighting", ["threshold", "triple", "passive_triple"])
def test_first_action_reweights_from_the_snapshot_and_a_raise_redoes_it(reweighting: str
                                                                       ) -> None:
    m = started(reweighting=reweighting)
    flop = parse_cards("Ks9s2d")
    act(m, 1, Street.PREFLOP, ActionKind.CALL, None, 1)  # villain (button) limps
    act(m, 0, Street.PREFLOP, ActionKind.CALL, None, 0)
    m.observe(BoardDealt(Street.FLOP, tuple(flop), tuple(flop)))
    snapshot = m.weights(1)
    dead = clashing_holdings(flop)  # the board rules holdings out, our cards do not
    assert (snapshot[dead] == 0).all() and (snapshot[~dead] > 0).all()
    bv = board_values(flop)
    values = np.nan_to_num(bv.ehs_prime)
    p = m.params

    def expected(kind: ActionKind, context: int) -> np.ndarray:
        freqs = m.frequencies(1, Street.FLOP, context)
        if reweighting == "triple" or (reweighting == "passive_triple"
                                       and kind is not ActionKind.RAISE):
            return reweight_triple(snapshot, values, bv.order, freqs, kind, 0.1,
                                   on_factor=p.floor_on == "factor")
        f = freqs[2] if kind is ActionKind.RAISE else freqs[1] + freqs[2]
        return reweight_threshold(snapshot, values, bv.order, f, p.sigma_postflop,
                                  on_factor=p.floor_on == "factor")

    act(m, 0, Street.FLOP, ActionKind.RAISE, 2, 2)  # we bet
    first = expected(ActionKind.CALL, 1)
    act(m, 1, Street.FLOP, ActionKind.CALL, None, 2)  # villain calls: re-weighted once
    assert np.array_equal(m.weights(1), first)
    act(m, 0, Street.FLOP, ActionKind.CALL, None, 0)  # (a check-behind that cannot happen
    # in a real hand is harmless here: only villain's actions re-weight villain)
    act(m, 0, Street.FLOP, ActionKind.RAISE, 4, 4)
    second = expected(ActionKind.RAISE, 1)
    act(m, 1, Street.FLOP, ActionKind.RAISE, 6, 4)  # a raise redoes it from the snapshot
    assert np.array_equal(m.weights(1), second)
    assert not np.array_equal(second, first)
    act(m, 0, Street.FLOP, ActionKind.RAISE, 8, 4)
    act(m, 1, Street.FLOP, ActionKind.CALL, None, 2)  # a later call changes nothing
    assert np.array_equal(m.weights(1), second)


def test_mode_off_keeps_uniform_weights_without_clashes() -> None:
    m = started(mode="off")
    act(m, 1, Street.PREFLOP, ActionKind.RAISE, 4, 3)
    assert (m.weights(1) == 1).all()  # nothing is known pre-flop; our cards rule nothing out
    assert m.frequencies(1, Street.PREFLOP, 1) == (0.5, 0.3, 0.2)


# --- it works: a bot that raises only its top 10% ---------------------------------------------


class TopRaiser(BaseBot):
    """Raises with the top 10% of holdings by the hand value of the street, else calls."""

    def __init__(self) -> None:
        self.pre = preflop_values()
        self.pre_cut = np.quantile(self.pre, 0.9)

    def raising_range(self, board: tuple[int, ...]) -> np.ndarray:
        if not board:
            return self.pre >= self.pre_cut
        v = board_values(board).ehs_prime
        live = ~np.isnan(v)
        return live & (np.nan_to_num(v, nan=-1) >= np.quantile(v[live], 0.9))

    def act(self, obs: Observation) -> Action:
        h = HOLDING_INDEX[obs.hole_cards[0], obs.hole_cards[1]]
        if obs.legal.can_raise and self.raising_range(obs.board)[h]:
            return Action.raise_to(obs.legal.min_raise_to)
        return Action.call()


class Watcher(BaseBot):
    """Calls everything and measures the weight mass on the raiser's real range after each of
    its raises (the first of a round, the one that re-weights)."""

    def __init__(self, raiser: TopRaiser) -> None:
        self.model = OpponentModeller(ModellerParams(), "frequencies", preflop_values())
        self.raiser = raiser
        self.shares: list[tuple[int, float, float]] = []

    def start(self, context: BotContext) -> None:
        self.model.start(context)

    def observe(self, event: Event) -> None:
        self.model.observe(event)
        if isinstance(event, HandStarted):
            self.board: tuple[int, ...] = ()
            self.raised: set[int] = set()
        elif isinstance(event, BoardDealt):
            self.board = event.board
        elif isinstance(event, HoleCardsDealt):
            self.dead = clashing_holdings(event.hole_cards)
        elif (isinstance(event, ActionTaken) and event.record.seat == 1
              and event.record.kind is ActionKind.RAISE
              and event.record.street not in self.raised):
            self.raised.add(event.record.street)
            w = self.model.weights(1)
            live = ~(self.dead | clashing_holdings(self.board))
            real = self.raiser.raising_range(self.board) & live
            self.shares.append((int(event.record.street), float(w[real].sum() / w.sum()),
                                real.sum() / live.sum()))

    def act(self, obs: Observation) -> Action:
        return Action.call()


def test_reweighting_concentrates_the_mass_on_the_real_raising_range() -> None:
    raiser = TopRaiser()
    watcher = Watcher(raiser)
    list(play_match(LIMIT, [watcher, raiser], hands=300, seed=7))
    late = [s for s in watcher.shares[len(watcher.shares) // 3:]]  # once frequencies settled
    assert len(late) > 40
    mass = np.array([m for _, m, _ in late])
    uniform = np.array([u for _, _, u in late])
    assert uniform.mean() < 0.13
    # Measured with this seed: 0.56 of the mass on a range whose uniform share is 0.11 (5x);
    # by street 5.7x pre-flop, 5.3x flop, 4.7x turn, 4.4x river.
    assert mass.mean() > 4 * uniform.mean()
    for street in range(4):
        rows = [(m, u) for s, m, u in late if s == street]
        assert len(rows) > 10
        assert np.mean([m for m, _ in rows]) > 3.5 * np.mean([u for _, u in rows])


def test_a_floored_factor_lets_every_action_count() -> None:
    """With the factor floored, a holding that two actions rule out weighs floor x floor of
    one they both fit (never 0); with the weight floored it stays at the floor."""
    values = np.linspace(0, 1, 1326)
    order = np.argsort(-values)
    w = np.ones(1326)
    w[0] = 0.0
    by_factor, by_weight = w, w
    for _ in range(2):  # two raises from the top 10%
        by_factor = reweight_threshold(by_factor, values, order, 0.1, 0.05, on_factor=True)
        by_weight = reweight_threshold(by_weight, values, order, 0.1, 0.05)
    assert by_factor[0] == by_weight[0] == 0.0
    assert by_factor[1] == pytest.approx(0.01 * 0.01) and by_weight[1] == 0.01
    # the holdings both actions fit keep their weight either way
    top = values > 0.99
    assert (by_factor[top] == by_weight[top]).all() and by_factor[top].min() > 0.5
    # from weights of 1 the two floors are the same
    once = reweight_threshold(w, values, order, 0.1, 0.05, on_factor=True)
    assert np.array_equal(once, reweight_threshold(w, values, order, 0.1, 0.05))
    t = reweight_triple(np.full(1326, 0.5), values, order, (0.5, 0.3, 0.2), ActionKind.CALL,
                        0.05, on_factor=True)
    chance = generic_triple(values, order, np.full(1326, 0.5), (0.5, 0.3, 0.2), 0.05)[1]
    assert t == pytest.approx(0.5 * np.maximum(0.01, chance))


@pytest.mark.parametrize("on_factor", [False, True])
@pytest.mark.parametrize("street", ["preflop", "flop", "turn", "river"])
def test_the_triple_by_levels_is_the_triple_of_each_holding(on_factor: bool, street: str
                                                           ) -> None:
    """Each distinct value's chance computed once (with the levels the modeller keeps, and
    with levels found by the function itself) gives, bit for bit, the floats of each
    holding's chance taken one by one (``generic_triple``) and floored in Python: every
    street, every action, folds or none, weights below, at and above the floor."""
    rng = np.random.default_rng(5)
    cards = {"flop": "3h4cJh", "turn": "3h4cJh3s", "river": "3h4cJh3s9d"}.get(street)
    if cards is None:
        values = preflop_values()
        order = np.argsort(-values, kind="stable")
        levels = ValueLevels.along(values, order)
        dead = np.zeros(1326, dtype=bool)
    else:
        bv = board_values(tuple(parse_cards(cards)))
        values, order, levels = bv.weighing, bv.order, bv.levels
        dead = clashing_holdings(tuple(parse_cards(cards)))
    assert (levels.levels[levels.level_of] == values).all()
    assert len(levels.levels) < 400 and len(set(levels.levels.tolist())) == len(levels.levels)
    spread = 80.0 if cards is None else 0.1  # income rates are x1000
    w = rng.random(1326)
    for share, weight in ((0.1, 0.0), (0.1, 0.01), (0.1, 0.004)):
        w[rng.random(1326) < share] = weight
    w[dead] = 0.0
    for freqs in [(0.5, 0.3, 0.2), (0.0, 0.7, 0.3), (0.2, 0.0, 0.8)]:
        chances = generic_triple(values, order, w, freqs, spread)
        for kind in (ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE):
            chance = chances[KIND_ROW[kind]].tolist()
            one_by_one = [0.0 if x <= 0 else x * max(0.01, c) if on_factor
                          else max(0.01, x * c) for x, c in zip(w.tolist(), chance, strict=True)]
            for given in (levels, None):
                got = reweight_triple(w, values, order, freqs, kind, spread, 0.01, on_factor,
                                      given)
                assert got.tolist() == one_by_one, (freqs, kind, given is None)

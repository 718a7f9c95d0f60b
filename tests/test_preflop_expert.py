"""The pre-flop expert: Loki's rules on the income-rate tables, in fixed spots and random ones."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agent.preflop.errors import PreflopError, PreflopParamsError
from agent.preflop.expert import PreflopExpert
from agent.preflop.income_rates import ir
from agent.preflop.params import (
    DEFAULT_PARAMS_FILE,
    STRATEGIES,
    PreflopParams,
    load_preflop_params,
)
from agent.preflop.situation import read_situation
from agent.strength.ranges import HAND_CLASSES, class_holdings
from simulator.core.actions import Action, ActionKind
from simulator.core.cards import holding_cards, parse_cards
from simulator.core.errors import HoldemError
from simulator.core.game import GameConfig
from simulator.core.observation import Observation
from simulator.core.state import HandState
from simulator.core.streets import Street
from simulator.play.baseline import RandomBot
from simulator.play.match import play_match
from simulator.play.protocol import BaseBot

LIMIT = GameConfig(variant="limit", blinds=(1, 2))
NOLIMIT = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)
RAW = yaml.safe_load(DEFAULT_PARAMS_FILE.read_text())


DEFAULTS = load_preflop_params(DEFAULT_PARAMS_FILE)


def params(**changes: object) -> PreflopParams:
    return dataclasses.replace(DEFAULTS, **changes)


def spot(game: GameConfig, seats: int, button: int, hero: int, hand: str,
         actions: list[str], stacks: list[int] | None = None) -> Observation:
    """Play ``actions`` ("f", "c", "r" for a minimum raise, "r12" to raise to 12) from the
    start of a hand, then return the observation of ``hero``, who must be the one to act."""
    cards = [c for c in range(52) if c not in parse_cards(hand)]
    holes = [tuple(cards[2 * i:2 * i + 2]) for i in range(seats)]
    holes[hero] = tuple(parse_cards(hand))
    state = HandState(game, stacks or [game.stack] * seats, button, holes, cards[-5:])
    for a in actions:
        if a == "f":
            state.fold()
        elif a == "c":
            state.check_or_call()
        else:
            state.raise_to(int(a[1:]) if len(a) > 1 else state.legal_actions().min_raise_to)
    assert state.actor == hero, f"seat {state.actor} is to act, not {hero}"
    return state.observation(hero)


def class_between(table: int, low: float, high: float) -> str:
    """A class whose income rate on ``table`` lies strictly inside (low, high)."""
    for name in HAND_CLASSES:
        if low < ir(name, table) < high:
            return name
    raise AssertionError(f"no class with IR{table} in ({low}, {high})")


def card_string(name: str) -> str:
    from simulator.core.cards import format_cards
    return format_cards(holding_cards(int(class_holdings(name)[0])))


# --- the worked example (Papp 1998 section 6.1) ------------------------


def test_worked_example() -> None:
    """Moderate, 4 players, the button, Ah 8h with IR 338: Make4 580, Make2 200, Make1 50."""
    obs = spot(LIMIT, 4, button=3, hero=3, hand="Ah8h", actions=["c"])  # under the gun limps
    d = PreflopExpert(params(tightness="moderate")).decide(obs, np.random.default_rng(0))
    assert d.ir == 338 and d.table == 4 and d.position == 0
    assert d.expected_players == pytest.approx(3.2)  # 1 + the limper + 0.6 * two blinds
    assert {k: d.thresholds[k] for k in ("make4", "make2", "make1")} == {
        "make4": 580, "make2": 200, "make1": 50}
    assert d.strategy == "make2"
    assert d.action.kind is ActionKind.RAISE and obs.legal.allows(d.action)


# --- fixed spots -----------------------------------------------------------------------------


@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
@pytest.mark.parametrize("tightness", ["tight", "moderate", "loose"])
@pytest.mark.parametrize("seats", [2, 3, 6, 10])
def test_aces_raise_from_every_seat(game: GameConfig, tightness: str, seats: int) -> None:
    expert = PreflopExpert(params(tightness=tightness))
    rng = np.random.default_rng(seats)
    button = seats - 1
    first = button if seats == 2 else (button + 3) % seats  # heads-up the button acts first
    order = [(first + i) % seats for i in range(seats)]
    for k, hero in enumerate(order):
        for before in ("f", "c", "r"):  # everyone before folds, limps, or one raises
            if before == "f" and k == seats - 1:
                continue  # folded round to the big blind: the hand is over
            actions = [before] * k if before != "r" else (["r"] + ["f"] * (k - 1) if k else [])
            obs = spot(game, seats, button, hero, "AsAh", actions)
            d = expert.decide(obs, rng)
            assert d.strategy == "make4", (hero, actions)
            assert d.action.kind is ActionKind.RAISE and obs.legal.allows(d.action)


@pytest.mark.parametrize("tightness", ["tight", "moderate", "loose"])
@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
def test_72o_folds_under_the_gun(tightness: str, game: GameConfig) -> None:
    expert = PreflopExpert(params(tightness=tightness))
    rng = np.random.default_rng(1)
    first = spot(game, 9, button=8, hero=2, hand="7c2d", actions=[])
    d = expert.decide(first, rng)
    assert d.strategy == "make0" and d.action.kind is ActionKind.FOLD
    assert d.position == 6 and d.table == 7  # 1 + 0.6 * 8 = 5.8 expected players
    # facing a raise after a limp (the hand's plan stays Make0; a new hand plans afresh)
    raised = spot(game, 9, button=8, hero=2, hand="7c2d", actions=["c", "r"] + ["f"] * 7)
    again = PreflopExpert(params(tightness=tightness)).decide(raised, rng)
    assert again.strategy == "make0" and again.action.kind is ActionKind.FOLD


def test_big_blind_checks_a_weak_hand_for_free() -> None:
    obs = spot(LIMIT, 3, button=2, hero=1, hand="7c2d", actions=["c", "c"])
    d = PreflopExpert(params()).decide(obs, np.random.default_rng(0))
    assert d.strategy == "make0" and d.action.kind is ActionKind.CALL  # a check, not a fold
    assert not obs.legal.can_fold


@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
def test_small_blind_call1_and_call2(game: GameConfig) -> None:
    p = params(tightness="moderate", randomization=0)
    lines = p.lines(4)
    expert = PreflopExpert(p)
    rng = np.random.default_rng(0)
    # 4 seats, button 3: the small blind is seat 0; seat 2 (UTG) acts, then the button.
    call1 = card_string(class_between(4, lines.call1.base + 5, lines.make1.base - 5))
    call2 = card_string(class_between(4, lines.call2.base + 5, lines.make2.base - 5))
    limped = spot(game, 4, 3, 0, call1, ["c", "c"])  # two limpers: 1 + 2 + 0.6 = 3.6
    d = expert.decide(limped, rng)
    assert d.strategy == "call1" and d.action.kind is ActionKind.CALL and d.table == 4
    assert set(d.thresholds) == {"call1", "make1", "call2", "make2", "make4"}
    raised = spot(game, 4, 3, 0, call1, ["c", "r"])
    d = PreflopExpert(p).decide(raised, rng)
    assert d.strategy == "call1" and d.action.kind is ActionKind.FOLD  # Call1 folds to two
    d = PreflopExpert(p).decide(spot(game, 4, 3, 0, call2, ["c", "r"]), rng)
    assert d.strategy == "call2" and d.action.kind is ActionKind.CALL  # Call2 calls a raise
    reraised = spot(game, 4, 3, 0, call2, ["r", "r"])
    d = PreflopExpert(p).decide(reraised, rng)
    assert d.strategy == "call2" and d.action.kind is ActionKind.FOLD  # ... but not three bets


def test_make1_calls_one_bet_and_folds_to_two_unless_already_in() -> None:
    p = params(tightness="moderate", randomization=0)
    lines = p.lines(4)
    hand = card_string(class_between(4, lines.make1.at(1) + 5, lines.call2.base - 5))
    # 5 seats, button 4: seat 2 (UTG) and seat 3 (cut-off, position 1) act before the blinds
    limp = spot(LIMIT, 5, 4, 3, hand, ["c"])  # 1 + 1 + 0.6 * 3 = 3.8 players: IR4
    expert = PreflopExpert(p)
    d = expert.decide(limp, np.random.default_rng(0))
    assert (d.strategy, d.position, d.action.kind) == ("make1", 1, ActionKind.CALL)
    cold = spot(LIMIT, 5, 4, 3, hand, ["r"])
    d = PreflopExpert(p).decide(cold, np.random.default_rng(0))
    assert d.strategy == "make1" and d.action.kind is ActionKind.FOLD
    # having limped, it calls the raise behind it (one more bet, and it is already in)
    back = spot(LIMIT, 5, 4, 3, hand, ["c", "c", "r", "f", "f", "c"])
    d = expert.decide(back, np.random.default_rng(0))  # the same hand: the plan is kept
    assert d.strategy == "make1" and d.action.kind is ActionKind.CALL
    three = spot(LIMIT, 5, 4, 3, hand, ["c", "c", "r", "r", "f", "f"])
    assert read_situation(three, 0.6).facing == 2
    assert expert.decide(three, np.random.default_rng(0)).action.kind is ActionKind.CALL


def test_make2_raises_once_then_calls_and_make4_caps() -> None:
    p = params(tightness="moderate", randomization=0)
    lines = p.lines(4)
    make2 = card_string(class_between(4, lines.make2.base + 5, lines.make4.base - 5))
    # heads-up is IR2; use 4 seats with a limper: the button is at position 0 on IR4
    d = PreflopExpert(p).decide(spot(LIMIT, 4, 3, 3, make2, ["c"]), np.random.default_rng(0))
    assert d.strategy == "make2" and d.action.kind is ActionKind.RAISE
    d = PreflopExpert(p).decide(spot(LIMIT, 4, 3, 3, make2, ["r"]), np.random.default_rng(0))
    assert d.strategy == "make2" and d.action.kind is ActionKind.CALL  # facing two bets
    capped = spot(LIMIT, 4, 3, 3, "AsAh", ["r"])
    d = PreflopExpert(p).decide(capped, np.random.default_rng(0))
    assert d.strategy == "make4" and d.action.kind is ActionKind.RAISE  # three bets
    at_cap = spot(LIMIT, 4, 3, 3, "AsAh", ["r", "c", "r", "f", "c"])  # 3 bets: Make4 makes 4
    assert PreflopExpert(p).decide(at_cap, np.random.default_rng(0)).action.amount == 8
    full = spot(LIMIT, 4, 3, 2, "AsAh", ["c", "r", "r", "r"])  # and calls at the cap
    assert not full.legal.can_raise
    assert PreflopExpert(p).decide(full, np.random.default_rng(0)).action.kind is ActionKind.CALL


# --- no-limit sizes --------------------------------------------------------------------------


def test_nolimit_open_and_reraise_sizes() -> None:
    p = params(tightness="moderate", randomization=0)
    nl = p.nolimit
    expert = PreflopExpert(p)
    open_ = expert.decide(spot(NOLIMIT, 6, 5, 2, "AsAh", []), np.random.default_rng(0))
    assert open_.action.amount == round(nl.open_bb * 2)  # 3 big blinds
    limped = spot(NOLIMIT, 6, 5, 4, "AsAh", ["c", "c"])
    d = PreflopExpert(p).decide(limped, np.random.default_rng(0))
    assert d.action.amount == round((nl.open_bb + 2 * nl.limper_bb) * 2)  # 3 bb + 1 per limper
    facing = spot(NOLIMIT, 6, 5, 4, "AsAh", ["r6", "f"])
    d = PreflopExpert(p).decide(facing, np.random.default_rng(0))
    assert d.action.amount == round(nl.reraise_factor * 6)  # 3x the bet faced
    # a re-raise that would commit more than a third of a short stack goes all-in
    short = spot(NOLIMIT, 6, 5, 4, "AsAh", ["r6", "f"], stacks=[200] * 4 + [50, 200])
    assert nl.reraise_factor * 6 > nl.allin_fraction * 50
    d = PreflopExpert(p).decide(short, np.random.default_rng(0))
    assert d.action.amount == short.legal.max_raise_to == 50
    # facing a fourth bet, Make4 (4 bets in no-limit) calls
    four = spot(NOLIMIT, 6, 5, 4, "AsAh", ["r6", "f", "r18", "f", "f", "f", "r54"])
    d = PreflopExpert(p).decide(four, np.random.default_rng(0))
    assert d.strategy == "make4" and d.action.kind is ActionKind.CALL


def test_nolimit_make2_does_not_call_off_its_stack() -> None:
    p = params(tightness="moderate", randomization=0)
    lines = p.lines(4)
    make2 = card_string(class_between(4, lines.make2.base + 5, lines.make4.base - 5))
    small = spot(NOLIMIT, 4, 3, 3, make2, ["r6"])
    assert PreflopExpert(p).decide(small, np.random.default_rng(0)).action.kind is ActionKind.CALL
    shove = spot(NOLIMIT, 4, 3, 3, make2, ["r200"])
    d = PreflopExpert(p).decide(shove, np.random.default_rng(0))
    assert d.strategy == "make2" and d.action.kind is ActionKind.FOLD


@st.composite
def random_spots(draw: st.DrawFn) -> tuple[Observation, str]:
    """A random pre-flop spot: seats, blinds, stacks, variant, earlier actions, hero's cards."""
    seats = draw(st.integers(2, 10))
    limit = draw(st.booleans())
    bb = draw(st.sampled_from([2, 4, 10]))
    game = (GameConfig(variant="limit", blinds=(bb // 2, bb), cap=draw(st.sampled_from([4, 3,
                                                                                     None])))
            if limit else GameConfig(variant="nolimit", blinds=(bb // 2, bb), stack=100 * bb))
    stacks = [draw(st.integers(bb + 1, 300 * bb)) for _ in range(seats)]
    button = draw(st.integers(0, seats - 1))
    deck = list(np.random.default_rng(draw(st.integers(0, 2**32 - 1))).permutation(52))
    holes = [(int(deck[2 * i]), int(deck[2 * i + 1])) for i in range(seats)]
    state = HandState(game, stacks, button, holes, [int(c) for c in deck[-5:]])
    for _ in range(draw(st.integers(0, 3 * seats))):
        if state.finished or state.street is not Street.PREFLOP:
            break
        legal = state.legal_actions()
        kind = draw(st.sampled_from(["f", "c", "r"]))
        if kind == "r" and legal.can_raise:
            state.raise_to(draw(st.integers(legal.min_raise_to, legal.max_raise_to)))
        elif kind == "f" and legal.can_fold:
            state.fold()
        else:
            state.check_or_call()
    assume(not state.finished and state.street is Street.PREFLOP)
    tightness = draw(st.sampled_from(["tight", "moderate", "loose"]))
    return state.observation(state.actor), tightness


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_spots(), st.integers(0, 2**32 - 1))
def test_every_decision_is_legal(case: tuple[Observation, str], seed: int) -> None:
    obs, tightness = case
    d = PreflopExpert(params(tightness=tightness)).decide(obs, np.random.default_rng(seed))
    assert obs.legal.allows(d.action), (str(d.action), str(obs.legal))
    assert d.strategy in STRATEGIES and d.table in (2, 4, 7)
    assert d.action.kind is not ActionKind.FOLD or obs.legal.call_amount > 0  # never fold free
    if d.strategy == "make0":
        assert d.action.kind is not ActionKind.RAISE
    situation = read_situation(obs, 0.6)
    assert d.position == situation.position >= 0
    assert 1 <= d.expected_players <= obs.num_seats
    if d.strategy.startswith("call"):
        assert situation.small_blind


# --- randomisation and the plan --------------------------------------------------------------


def test_randomisation_is_linear_near_a_threshold() -> None:
    """IR 338 (A8s on IR4) sits 25 below Make2 when the line is moved to 363: width 50 gives
    a 1 - 75/100 = 0.25 chance to reach Make2."""
    base = params(tightness="moderate", randomization=50)
    lines = dataclasses.replace(base.thresholds.moderate.ir4,
                                make2=dataclasses.replace(base.thresholds.moderate.ir4.make2,
                                                          base=363))
    tables = dataclasses.replace(base.thresholds.moderate, ir4=lines)
    p = dataclasses.replace(base, thresholds=dataclasses.replace(base.thresholds,
                                                                 moderate=tables))
    rng = np.random.default_rng(11)
    strategies = []
    for hand in range(2000):
        obs = dataclasses.replace(spot(LIMIT, 4, 3, 3, "Ah8h", ["c"]), hand_number=hand)
        strategies.append(PreflopExpert(p).decide(obs, rng).strategy)
    assert set(strategies) == {"make1", "make2"}
    assert strategies.count("make2") / 2000 == pytest.approx(0.25, abs=0.035)


def test_the_plan_is_kept_within_a_hand_and_renewed_for_the_next() -> None:
    expert = PreflopExpert(params(randomization=400))  # wide: the plan is often random
    first = spot(LIMIT, 4, 3, 3, "9h8h", ["c"])
    rng = np.random.default_rng(3)
    d1 = expert.decide(first, rng)
    d2 = expert.decide(first, rng)
    assert d1.plan is d2.plan
    plans = {expert.decide(dataclasses.replace(first, hand_number=h), rng).strategy
             for h in range(1, 60)}
    assert len(plans) >= 2


def test_decisions_replay_with_the_same_seed() -> None:
    obs = spot(NOLIMIT, 6, 5, 2, "Tc9c", [])
    runs = [[PreflopExpert(params(randomization=300)).decide(
        dataclasses.replace(obs, hand_number=h), rng).action for h in range(50)]
        for rng in (np.random.default_rng(5), np.random.default_rng(5))]
    assert runs[0] == runs[1]


def test_refuses_a_postflop_observation() -> None:
    game = LIMIT
    holes = [tuple(parse_cards("AsAh")), tuple(parse_cards("KsKh"))]
    state = HandState(game, [100, 100], 1, holes, parse_cards("2c3d4h5s7c"))
    state.check_or_call()
    state.check_or_call()
    with pytest.raises(PreflopError, match="pre-flop observation") as info:
        PreflopExpert(params()).decide(state.observation(state.actor), np.random.default_rng())
    assert isinstance(info.value, HoldemError)


# --- parameter files --------------------------------------------------------------------------


def test_the_shipped_file_has_papps_anchor_and_every_strategy() -> None:
    p = load_preflop_params(DEFAULT_PARAMS_FILE)
    anchor = p.thresholds.moderate.ir4
    assert (anchor.make4.base, anchor.make2.base, anchor.make1.base) == (580, 200, 50)
    assert p.probability_play == 0.6 and p.tightness == "loose"  # Papp: Loki plays loose
    for tightness in ("tight", "moderate", "loose"):
        for table in (2, 4, 7):
            lines = getattr(p.thresholds, tightness).table(table)
            bases = [getattr(lines, s).base for s in STRATEGIES[1:]]
            assert bases == sorted(bases), (tightness, table)  # passive to aggressive


def _with(path: tuple[str, ...], value: object) -> dict:
    data = yaml.safe_load(DEFAULT_PARAMS_FILE.read_text())
    node = data
    for key in path[:-1]:
        node = node[key]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


_DELETE = object()


@pytest.mark.parametrize(("path", "value", "message"), [
    (("tightnes",), "loose", "tightnes: unknown key"),
    (("thresholds", "loose", "ir4", "make9"), {"base": 1, "increment": 1},
     "thresholds.loose.ir4.make9: unknown key"),
    (("tightness",), "wild", "tightness: expected 'tight', 'moderate' or 'loose'"),
    (("tightness",), 3, "tightness"),
    (("probability_play",), "0.6", "probability_play: expected a valid number"),
    (("probability_play",), 1.5, "probability_play"),
    (("randomization",), 12.5, "randomization: expected a valid integer"),
    (("randomization",), True, "randomization"),
    (("thresholds", "tight", "ir2", "make2", "base"), 1.5,
     "thresholds.tight.ir2.make2.base: expected a valid integer"),
    (("nolimit", "max_commit", "make2"), _DELETE,
     "nolimit.max_commit.make2: expected a value, the key is missing"),
    (("groups", "ir4_from"), -1.0, "groups.ir4_from"),
])
def test_bad_parameters_are_refused(path: tuple[str, ...], value: object, message: str) -> None:
    with pytest.raises(PreflopParamsError, match=message.replace(".", r"\.")) as info:
        load_preflop_params(_with(path, value))
    assert isinstance(info.value, HoldemError) and isinstance(info.value, ValueError)


def test_bad_parameter_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PreflopParamsError, match="cannot read"):
        load_preflop_params(tmp_path / "missing.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("tightness: [loose\n")
    with pytest.raises(PreflopParamsError, match="not valid YAML"):
        load_preflop_params(broken)
    listed = tmp_path / "list.yaml"
    listed.write_text("- tightness\n")
    with pytest.raises(PreflopParamsError, match="expected a mapping"):
        load_preflop_params(listed)
    good = tmp_path / "good.yaml"
    good.write_text(yaml.safe_dump(_with(("tightness",), "tight")))
    assert load_preflop_params(good).tightness == "tight"
    assert load_preflop_params(RAW) == load_preflop_params(DEFAULT_PARAMS_FILE)


# --- in play ----------------------------------------------------------------------------------


class _PreflopBot(BaseBot):
    """The expert before the flop, a caller after it: enough to play whole matches."""

    def __init__(self, seed: int) -> None:
        self.expert = PreflopExpert(params(tightness="loose"))
        self.rng = np.random.default_rng(seed)
        self.strategies: list[str] = []

    def act(self, observation: Observation) -> Action:
        if observation.street is not Street.PREFLOP:
            return Action.call()
        decision = self.expert.decide(observation, self.rng)
        self.strategies.append(decision.strategy)
        return decision.action


@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
@pytest.mark.parametrize("seats", [2, 6, 10])
def test_whole_matches_without_an_illegal_action(game: GameConfig, seats: int) -> None:
    bots = [_PreflopBot(s) for s in range(seats - 1)] + [RandomBot(seed=99)]
    results = list(play_match(game, bots, hands=150, seed=seats, on_bot_error="stop"))
    assert len(results) == 150
    played = [s for b in bots[:-1] for s in b.strategies]
    assert {"make0", "make2", "make4"} <= set(played)  # the rules do play out, not one branch

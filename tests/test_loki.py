"""The ``loki`` rival (Loki-1): legal play at every table size, the fixed rules in hand-built
spots, the probability triples, its own weight arrays, and exact replay from a seed."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from agent.modeller.model import default_preflop_values
from agent.rivals.loki import Branch, LokiBot, LokiDecision, LokiParamsError, LokiRules, Round
from agent.strength.against import TableStrength
from simulator import (
    Action,
    ActionKind,
    ActionRecord,
    ActionTaken,
    BaseBot,
    BotContext,
    GameConfig,
    HandStarted,
    HoleCardsDealt,
    Observation,
    Street,
)
from simulator.core.cards import HOLDING_INDEX, parse_cards
from simulator.core.deal import Deal
from simulator.play.baseline import RandomBot
from simulator.play.match import play_hand, play_match
from simulator.play.registry import resolve

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200)
NOLIMIT = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)


# --- helpers: scripted hands ------------------------------------------------------------------


def scripted(obs: Observation, move: str) -> Action:
    """``r`` bets or raises the minimum (a call when raising is not legal), ``f`` folds (a
    check when free), anything else checks or calls."""
    if move == "r" and obs.legal.can_raise:
        return Action.raise_to(obs.legal.min_raise_to)
    if move == "f" and obs.legal.can_fold:
        return Action.fold()
    return Action.call()


class Script(BaseBot):
    """Plays ``moves`` in order, one per decision, then checks or calls."""

    def __init__(self, moves: str = "") -> None:
        self.moves = list(moves)

    def act(self, observation: Observation) -> Action:
        return scripted(observation, self.moves.pop(0) if self.moves else "c")


class Puppet(BaseBot):
    """Loki in a seat: its first decisions follow ``moves``, then Loki decides; every event
    reaches Loki. Keeps Loki's own decisions (observation, post-flop decision, action)."""

    def __init__(self, loki: LokiBot, moves: str = "") -> None:
        self.loki, self.moves = loki, list(moves)
        self.seen: list[tuple[Observation, LokiDecision | None, Action]] = []

    def start(self, context: BotContext) -> None:
        self.loki.start(context)

    def observe(self, event) -> None:
        self.loki.observe(event)

    def act(self, observation: Observation) -> Action:
        if self.moves:
            return scripted(observation, self.moves.pop(0))
        action, decision = self.loki.choose(observation)
        self.seen.append((observation, decision, action))
        return action

    def at(self, street: Street) -> list[tuple[Observation, LokiDecision, Action]]:
        return [s for s in self.seen if s[0].street is street]


def run(game: GameConfig, holes: list[str], board: str, button: int,
        bots: list[BaseBot]) -> None:
    """One hand from fixed cards through the match loop (so every event reaches the bots)."""
    deal = Deal(tuple(tuple(parse_cards(h)) for h in holes), tuple(parse_cards(board)))
    names = tuple(f"p{s}" for s in range(len(bots)))
    for s, bot in enumerate(bots):
        bot.start(BotContext(s, names, game.copy()))
    play_hand(game, bots, [game.stack] * len(bots), button, deal, 0, names)


def heads_up(hole: str, board: str, ours: str, theirs: str, seed: int = 1,
             game: GameConfig = LIMIT, **params) -> Puppet:
    """Heads-up, Loki on the button (seat 1: first to act pre-flop, last after the flop)
    against As Jd playing ``theirs``; Loki's first moves are ``ours``, then it decides."""
    loki = Puppet(LokiBot(seed=seed, **params), ours)
    run(game, ["AsJd", hole], board, 1, [Script(theirs), loki])
    return loki


def strength(hs: float, ppot: float) -> TableStrength:
    """A strength against one opponent with no negative potential."""
    return TableStrength((hs,), hs, ppot, 0.0, hs + (1 - hs) * ppot, hs + (1 - hs) * ppot)


# --- registration and parameters --------------------------------------------------------------


def test_loki_is_registered_and_seeded() -> None:
    spec = resolve("loki")
    assert spec.factory is LokiBot and spec.accepts_seed
    assert spec.factory.__doc__ and "Papp" in spec.factory.__doc__


@pytest.mark.parametrize("params", [
    {"make1": 0.9}, {"make2": 1.2}, {"spread": -0.1}, {"odds_spread": 0.7},
    {"lookahead": 3}, {"model": "full"}, {"tightness": "wild"}])
def test_bad_parameters_are_refused_by_name(params: dict) -> None:
    with pytest.raises(LokiParamsError, match=next(iter(params))):
        LokiBot(**params)


# --- legal play at every table size -----------------------------------------------------------


@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
@pytest.mark.parametrize("seats", [2, 3, 6, 10])
def test_plays_every_table_without_fault(seats: int, game: GameConfig) -> None:
    """Loki in two seats (one heads-up) against random bots, which bet every size and go
    all-in: no fault, no illegal action (the match stops on one), and a real mix of folds,
    calls and raises, after the flop too."""
    hands = {2: 150, 3: 80, 6: 40, 10: 25}[seats]
    lokis = [LokiBot(seed=1)] + ([LokiBot(seed=2)] if seats > 2 else [])
    bots = lokis + [RandomBot(fold=0.15, call=0.6, raise_=0.25, seed=10 + i)
                    for i in range(seats - len(lokis))]
    results = list(play_match(game, bots, hands, seed=seats, on_bot_error="stop"))
    assert len(results) == hands
    assert all(not r.faults and sum(r.net) == 0 for r in results)
    ours = [a for r in results for a in r.history.actions if a.seat < len(lokis)]
    assert {a.kind for a in ours} == {ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE}
    assert {a.kind for a in ours if a.street > Street.PREFLOP} >= {ActionKind.CALL,
                                                                     ActionKind.RAISE}


# --- the fixed rules in hand-built spots --------------------------------------------------------


def test_it_raises_a_made_nut_hand_on_every_street() -> None:
    """A royal flush on the flop: make2 bets when checked to, raises a bet, and only calls
    once two bets were made in the round (Papp: raise while fewer than 2 bets)."""
    loki = heads_up("AhKh", "QhJhTh2c3d", ours="c", theirs="crrrrrr")
    decisions = [d for _, d, _ in loki.seen if d is not None]
    assert len(decisions) >= 3
    for _, d, action in loki.seen:
        if d is None:
            continue
        assert d.rule == "make2" and d.strength.ehs_optimistic > 0.99
        if d.round.bets_made < 2:
            assert action.kind is ActionKind.RAISE and d.triple == (0.0, 0.0, 1.0)
        else:
            assert action == Action.call() and d.triple == (0.0, 1.0, 0.0)
    assert any(d.round.bets_made == 1 for d in decisions)  # it did raise a bet


def test_it_calls_a_flush_draw_on_pot_odds_and_folds_the_same_hand_without_the_draw() -> None:
    """Capped pre-flop, the opponent bets the flop: 2 to call into 18 (odds 0.1). 4h3h on
    Kh 9h 2c is far below make1 but its PPOT is about 0.2: a call by the pot-odds rule. 4c3d,
    with no draw, folds."""
    draw = heads_up("4h3h", "Kh9h2c5s8d", ours="rr", theirs="rrrrr")
    obs, d, action = draw.at(Street.FLOP)[0]
    assert obs.legal.call_amount == 2 and d.odds == pytest.approx(0.1)
    assert d.strength.ehs_optimistic < 0.45 and d.strength.ppot > 0.15
    assert d.rule == "pot odds" and action == Action.call() and d.triple == (0.0, 1.0, 0.0)
    dry = heads_up("4c3d", "Kh9h2c5s8d", ours="rr", theirs="rrrrr")
    obs, d, action = dry.at(Street.FLOP)[0]
    assert d.strength.ppot < 0.06 and d.rule == "fold" and action == Action.fold()


def test_it_semi_bluffs_a_big_draw_when_checked_to_and_keeps_betting() -> None:
    """An open-ended straight-flush draw after a capped pre-flop, checked to on the flop:
    EHS' below make1 but PPOT above Pot_Odds2, so it bets (semi-bluff). The opponent only
    calls, so it bets the turn and the busted river too (Papp 6.4: it goes on betting while
    no one bets or raises)."""
    loki = heads_up("7h6h", "9h8h2c3s4d", ours="rr", theirs="rcccccc")
    flop, turn, river = (loki.at(s)[0] for s in (Street.FLOP, Street.TURN, Street.RIVER))
    obs, d, action = flop
    assert obs.legal.call_amount == 0 and d.strength.ehs_optimistic < 0.45
    assert d.strength.ppot > d.odds2 + 0.05
    assert d.rule == "semi-bluff" and action == Action.raise_to(2)
    assert turn[1].rule == "semi-bluff" and turn[2].kind is ActionKind.RAISE
    obs, d, action = river
    assert d.strength.hs_n < 0.05 and d.strength.ppot == 0.0  # busted
    assert d.rule == "semi-bluff" and action == Action.raise_to(4)


def test_its_policy_reads_the_semi_bluff_from_its_own_bets() -> None:
    """The policy keeps no flag: the river row of the busted draw that semi-bluffed the flop
    and the turn bets for sure (each bet could only be a semi-bluff), and the same holding
    asked about at the river reached by checks checks for sure."""
    bluffed = heads_up("7h6h", "9h8h2c3s4d", ours="rr", theirs="rcccccc")
    checked = heads_up("7h6h", "9h8h2c3s4d", ours="rrcc", theirs="rcccccc")
    for puppet, kind in ((bluffed, ActionKind.RAISE), (checked, ActionKind.CALL)):
        obs, _, action = puppet.at(Street.RIVER)[0]
        row = puppet.loki.policy(obs, [tuple(obs.hole_cards)])
        assert action.kind is kind
        assert row.probability(action)[0] == pytest.approx(1.0)


def test_a_busted_draw_does_not_bet_the_river_without_a_semi_bluff_before() -> None:
    """The same river, reached by checking the flop and the turn: no semi-bluff to go on,
    nothing to beat: it checks."""
    loki = heads_up("7h6h", "9h8h2c3s4d", ours="rrcc", theirs="rcccccc")
    obs, d, action = loki.at(Street.RIVER)[0]
    assert d.rule == "check" and action == Action.call() and obs.legal.call_amount == 0


def test_it_folds_junk_to_a_bet_on_the_river() -> None:
    for hole in ("7c2d", "Qd7s", "5c4c"):
        loki = heads_up(hole, "Kh9h2c5s3d", ours="ccc", theirs="cccr")
        obs, d, action = loki.at(Street.RIVER)[0]
        assert obs.legal.call_amount == 4 and d.strength.hs_n < d.odds
        assert d.rule == "fold" and action == Action.fold() and d.triple == (1.0, 0.0, 0.0)


def test_the_river_calls_on_hand_strength_against_the_pot_odds() -> None:
    """Middle pair on a checked-down river facing a bet (4 into 8: odds 1/3): EHS' is below
    make1 but HS_n is above the odds, so it calls by the showdown-odds rule."""
    loki = heads_up("9c7d", "Kh9h2c5s3d", ours="ccc", theirs="cccr")
    obs, d, action = loki.at(Street.RIVER)[0]
    assert d.strength.ppot == 0.0 and d.odds < d.strength.hs_n < 0.45
    assert d.rule == "showdown odds" and action == Action.call()


def test_the_river_uses_hs_and_the_flop_and_turn_use_ppot() -> None:
    """The same strength facing the same odds: on the turn the call test reads PPOT (too
    small), on the river HS (enough)."""
    rules = LokiRules(spread=0.0, odds_spread=0.0)
    s = strength(0.4, 0.05)
    turn = rules.branches(Round(1, 1, False), s, Street.TURN, 0.3, 0.25)
    river = rules.branches(Round(1, 1, False), s, Street.RIVER, 0.3, 0.25)
    assert [b.rule for b in turn] == ["fold"] and [b.rule for b in river] == ["showdown odds"]
    drawing = strength(0.05, 0.35)
    assert [b.rule for b in rules.branches(Round(1, 1, False), drawing, Street.TURN, 0.3,
                                           0.25)] == ["pot odds"]


def test_make1_facing_two_bets_cold_leaves_the_call_to_the_odds() -> None:
    """make1 calls one bet, or two once it is in the pot this round; facing two bets cold it
    does not call, and the pot-odds rule decides (Papp 6.3, Pena)."""
    rules = LokiRules(spread=0.0, odds_spread=0.0)
    medium = strength(0.6, 0.05)
    assert [b.rule for b in rules.branches(Round(1, 1, False), medium, Street.FLOP, 0.2,
                                           0.2)] == ["make1"]
    assert [b.rule for b in rules.branches(Round(2, 2, False), medium, Street.FLOP, 0.2,
                                           0.2)] == ["fold"]
    assert [b.rule for b in rules.branches(Round(2, 2, True), medium, Street.FLOP, 0.2,
                                           0.2)] == ["make1"]
    drawing = TableStrength((0.4,), 0.4, 0.3, 0.0, 0.58, 0.58)
    assert [b.rule for b in rules.branches(Round(2, 2, False), drawing, Street.FLOP, 0.2,
                                           0.2)] == ["pot odds"]
    # make2 raises while fewer than two bets were made, then calls
    nuts = strength(0.95, 0.0)
    assert rules.triple(rules.branches(Round(1, 1, False), nuts, Street.FLOP, 0.2, 0.2)) == (
        0.0, 0.0, 1.0)
    assert rules.triple(rules.branches(Round(2, 1, True), nuts, Street.FLOP, 0.2, 0.2)) == (
        0.0, 1.0, 0.0)


# --- randomised near the thresholds -----------------------------------------------------------


def test_triples_mix_linearly_near_a_threshold_and_not_far_from_it() -> None:
    rules = LokiRules(spread=0.05, odds_spread=0.02)
    facing = Round(1, 1, False)
    for ehs, raise_share in ((0.70, 0.0), (0.80, 0.0), (0.83, 0.3), (0.85, 0.5),
                             (0.88, 0.8), (0.95, 1.0)):
        hs = ehs  # no potential: EHS' = HS
        fold, call, raise_ = rules.triple(rules.branches(facing, strength(hs, 0.0),
                                                         Street.FLOP, 0.2, 0.2))
        assert fold == 0.0 and raise_ == pytest.approx(raise_share)
        assert call == pytest.approx(1 - raise_share)
    # between fold and call near the pot odds
    fold, call, raise_ = rules.triple(rules.branches(facing, strength(0.0, 0.205),
                                                     Street.FLOP, 0.2, 0.2))
    assert (fold, call, raise_) == pytest.approx((0.375, 0.625, 0.0))
    for hs in np.linspace(0, 1, 41):
        for ppot in (0.0, 0.1, 0.3):
            for rnd in (Round(0, 0, False), Round(1, 1, False), Round(2, 2, False),
                        Round(3, 1, True)):
                branches = rules.branches(rnd, strength(float(hs), ppot), Street.TURN,
                                          0.25, 0.2)
                assert sum(b.probability for b in branches) == pytest.approx(1.0)
                assert all(isinstance(b, Branch) and b.probability > 0 for b in branches)


def test_it_draws_its_actions_with_the_triples_chances() -> None:
    """Near the make1 threshold (EHS' about 0.5 on a checked river) the bot bets about as
    often as its triple says, from its own generator."""
    loki = heads_up("9cTd", "Kh9h2c5s3d", ours="ccc", theirs="ccrc")
    obs, d, _ = loki.at(Street.RIVER)[0]
    fold, call, raise_ = d.triple
    assert 0.2 < raise_ < 0.8 and fold == 0.0
    bot = loki.loki
    draws = Counter(bot.decide(obs).action.kind for _ in range(600))
    assert draws[ActionKind.RAISE] / 600 == pytest.approx(raise_, abs=0.07)
    assert draws[ActionKind.RAISE] + draws[ActionKind.CALL] == 600


# --- no-limit ---------------------------------------------------------------------------------


def test_no_limit_bets_the_pot_where_limit_bets_one_bet() -> None:
    """The royal flush checked to on the flop bets the pot; facing a bet on the turn, it
    raises by the pot after calling (limit: one bet each time)."""
    loki = heads_up("AhKh", "QhJhTh2c3d", ours="c", theirs="cccr", game=NOLIMIT)
    obs, d, action = loki.at(Street.FLOP)[0]
    assert obs.pot == 4 and obs.legal.call_amount == 0
    assert d.rule == "make2" and action == Action.raise_to(4)
    obs, d, action = loki.at(Street.TURN)[0]
    assert (obs.pot, obs.legal.call_amount) == (14, 2) and d.rule == "make2"
    assert action == Action.raise_to(2 + 16)  # call 2, then the pot of 16


# --- its own weight arrays --------------------------------------------------------------------


def _mean_ir7(weights: np.ndarray) -> float:
    return float(np.average(default_preflop_values(), weights=weights))


def test_its_weight_arrays_concentrate_after_an_opponent_raises() -> None:
    """Pre-flop the raiser's weights move to strong holdings (Loki-1 re-weighting from the
    action frequencies); after the flop, its strength against the raiser falls well below
    the strength against a uniform range (the same bot with the model off)."""
    game = LIMIT
    bot = LokiBot(seed=1)
    bot.start(BotContext(1, ("p0", "p1"), game))
    bot.observe(HandStarted(0, button=1, names=("p0", "p1"), stacks=(200, 200),
                            dealt_in=(True, True), game=game))
    bot.observe(HoleCardsDealt(1, tuple(parse_cards("7c2d"))))
    before = np.array(bot.modeller.weights(0))
    bot.observe(ActionTaken(ActionRecord(1, Street.PREFLOP, ActionKind.CALL, 2, 1)))
    bot.observe(ActionTaken(ActionRecord(0, Street.PREFLOP, ActionKind.RAISE, 4, 2)))
    after = np.array(bot.modeller.weights(0))
    aces = HOLDING_INDEX[parse_cards("Ah")[0], parse_cards("As")[0]]
    trash = HOLDING_INDEX[parse_cards("8h")[0], parse_cards("3s")[0]]
    assert before[aces] == before[trash] == 1.0
    assert after[aces] == 1.0 and after[trash] <= 0.05
    assert _mean_ir7(after) > _mean_ir7(before) + 100
    # end to end: 7c2d facing a flop bet after the opponent raised pre-flop
    modelled = heads_up("7c2d", "Kh9h2c5s3d", ours="cc", theirs="rr")
    uniform = heads_up("7c2d", "Kh9h2c5s3d", ours="cc", theirs="rr", model="off")
    hs_model = modelled.at(Street.FLOP)[0][1].strength.hs_n
    hs_flat = uniform.at(Street.FLOP)[0][1].strength.hs_n
    assert hs_model < hs_flat - 0.2


def test_at_more_seats_its_strength_is_against_every_live_opponent() -> None:
    """Three callers in the pot: HS_n is the product of the HS against each."""
    bots: list[BaseBot] = [Script("cccc") for _ in range(4)]
    loki = Puppet(LokiBot(seed=3), "c")
    bots[3] = loki
    run(LIMIT, ["2c3c", "4d5d", "8s8d", "KsQh"], "Kh9h2d5s3d", 3, bots)
    obs, d, _ = loki.at(Street.FLOP)[0]
    assert len(d.strength.hs) == 3
    assert d.strength.hs_n == pytest.approx(float(np.prod(d.strength.hs)))


# --- replay -----------------------------------------------------------------------------------


def _match(seed: int) -> list:
    bots = [LokiBot(seed=seed), RandomBot(fold=0.2, call=0.5, raise_=0.3, seed=5)]
    return [(r.net, tuple(r.history.actions)) for r in
            play_match(LIMIT, bots, 60, seed=11, on_bot_error="stop")]


def test_it_is_deterministic_with_a_seed() -> None:
    first, again, other = _match(4), _match(4), _match(5)
    assert first == again
    assert first != other


def test_its_model_keeps_papps_three_contexts_only() -> None:
    """Loki-1 counts by bets to call: the agent's raised-back context is not Papp's."""
    from agent.heuristic.bot import HeuristicAgent
    from agent.modeller.tracker import RAISED_BACK

    game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=2000)
    loki, agent = LokiBot(seed=1), HeuristicAgent(seed=2)
    list(play_match(game, [loki, agent], 150, seed=4, names=("loki", "agent")))
    theirs = loki.modeller.action_counts["agent"].counts
    ours = agent.modeller.action_counts["loki"].counts
    assert theirs.sum() > 200 and not theirs[:, RAISED_BACK].any()
    assert ours[:, RAISED_BACK].sum() > 0  # the agent's own model does count it

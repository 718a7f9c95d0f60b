"""The rival panel: legal play at every table size, the equity kernel against brute force,
behaviour in fixed spots, the exploiter's adaptation, and exact replay from a seed."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from agent.rivals.exploiter import ExploiterBot
from agent.rivals.hand_values import class_equity, compute_class_equity, street_values
from agent.rivals.maniac import ManiacBot
from agent.rivals.mc import MonteCarloBot
from agent.rivals.rock import RockBot
from agent.rivals.tendencies import POSTFLOP, RAISED_BACK, Tendencies, read_moves
from agent.strength.equity import equity
from agent.strength.ranges import HAND_CLASSES, parse_range
from simulator import Action, ActionKind, BaseBot, BotContext, Observation, Street
from simulator.core.betting import Betting
from simulator.core.cards import HOLDING_INDEX, HOLDINGS, parse_cards
from simulator.core.game import GameConfig
from simulator.core.hand_ranks import evaluate
from simulator.core.state import HandState
from simulator.play.baseline import CallBot, RaiseBot, RandomBot
from simulator.play.match import play_match
from simulator.play.registry import resolve

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=200)
NOLIMIT = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)
RIVALS = {"mc": MonteCarloBot, "rock": RockBot, "maniac": ManiacBot, "exploiter": ExploiterBot}


# --- helpers ----------------------------------------------------------------------------------


def spot(game: GameConfig, holes: list[str], board: str, button: int,
         actions: list[Action]) -> Observation:
    """The observation of the player to act after ``actions`` from the deal."""
    state = HandState(game, [game.stack] * len(holes), button,
                      [tuple(parse_cards(h)) for h in holes], parse_cards(board))
    for action in actions:
        state.apply(action)
    return state.observation(state.actor)


def kinds(results, seat: int) -> Counter[ActionKind]:
    return Counter(r.kind for res in results for r in res.history.actions if r.seat == seat)


# --- registration -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RIVALS))
def test_each_rival_is_registered_and_seeded(name: str) -> None:
    spec = resolve(name)
    assert spec.factory is RIVALS[name]
    assert spec.accepts_seed
    assert spec.factory.__doc__ and len(spec.factory.__doc__.strip()) > 20


# --- legal play at every table size -----------------------------------------------------------


@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
@pytest.mark.parametrize("seats", [2, 3, 6, 10])
@pytest.mark.parametrize("name", sorted(RIVALS))
def test_plays_every_table_without_fault(name: str, seats: int, game: GameConfig) -> None:
    """The rival in two seats (one heads-up) against random bots, which bet every size and
    go all-in: no fault, no illegal action, and a real mix of folds, calls and raises."""
    hands = {2: 250, 3: 150, 6: 80, 10: 80}[seats]
    bots = [RIVALS[name](seed=1)]
    if seats > 2:
        bots.append(RIVALS[name](seed=2))
    bots += [RandomBot(fold=0.2, call=0.55, raise_=0.25, seed=10 + i)
             for i in range(seats - len(bots))]
    results = list(play_match(game, bots, hands, seed=seats, on_bot_error="stop"))
    assert len(results) == hands
    assert all(not r.faults and sum(r.net) == 0 for r in results)
    moves = kinds(results, 0) + kinds(results, 1 if seats > 2 else 0)
    assert moves[ActionKind.FOLD] and moves[ActionKind.CALL] and moves[ActionKind.RAISE]


def test_no_limit_bets_are_pot_sized() -> None:
    """Where limit bets one bet, the rivals bet the pot (raise-to = our bet + call + pot
    after the call), clamped to the stack."""
    obs = spot(NOLIMIT, ["AhAs", "7c2d"], "AdAc5h4c3d", button=0,
               actions=[Action.call(), Action.call(), Action.call()])  # BB checks the flop
    assert obs.pot == 4 and obs.seat == 0
    action = MonteCarloBot(seed=1).act(obs)
    assert action == Action.raise_to(4)
    facing = spot(NOLIMIT, ["AhAs", "7c2d"], "AdAc5h4c3d", button=0,
                  actions=[Action.call(), Action.call(), Action.raise_to(6)])
    assert facing.pot == 10 and facing.legal.call_amount == 6
    assert MonteCarloBot(seed=1).act(facing) == Action.raise_to(6 + 16)
    shove = spot(NOLIMIT, ["AhAs", "7c2d"], "AdAc5h4c3d", button=0,
                 actions=[Action.call(), Action.call(), Action.raise_to(150)])
    assert MonteCarloBot(seed=1).act(shove) == Action.raise_to(198)  # all-in, clamped


# --- the equity kernel ------------------------------------------------------------------------


def exact_equity(hole: str, board: str, ranges: list[np.ndarray]) -> float:
    """Brute force over every combination of opponent holdings (weighted) and runouts."""
    h, b = parse_cards(hole), parse_cards(board)
    known = set(h) | set(b)
    total = weight = 0.0
    options = [[(int(i), w[i]) for i in np.flatnonzero(w)] for w in ranges]
    for combo in itertools.product(*options):
        cards = [c for i, _ in combo for c in HOLDINGS[i]]
        if len(set(cards)) < len(cards) or known & set(cards):
            continue
        wt = float(np.prod([x for _, x in combo]))
        rest = [c for c in range(52) if c not in known and c not in cards]
        for runout in itertools.combinations(rest, 5 - len(b)):
            full = b + list(runout)
            mine = int(evaluate(np.array(h + full)))
            theirs = [int(evaluate(np.array([int(x) for x in HOLDINGS[i]] + full)))
                      for i, _ in combo]
            best = min(theirs + [mine])
            if mine == best:
                total += wt / (1 + theirs.count(best))
            weight += wt
    return total / weight


def test_equity_matches_brute_force_against_a_uniform_range_on_the_turn() -> None:
    exact = exact_equity("AdQc", "3h4cJh9s", [np.ones(1326)])
    mc = equity(parse_cards("AdQc"), parse_cards("3h4cJh9s"), [None], samples=40000, seed=3)
    assert abs(mc - exact) < 4 * np.sqrt(exact * (1 - exact) / 40000)


def test_equity_matches_brute_force_against_two_weighted_ranges_with_ties() -> None:
    """Two opponents, each from a weighted range that clashes with the other's and with our
    cards; straights tie ours, beat it and lose to it. Drawing the second opponent from what
    the first left, without weighting the deal, is off by about 7 standard errors here."""
    first = parse_range("T6o:2, AA, 65s:0.5")
    second = parse_range("JTs, T6o, KK")
    exact = exact_equity("Td6d", "9h8c7s2d", [first, second])
    mc = equity(parse_cards("Td6d"), parse_cards("9h8c7s2d"), [first, second], 40000, seed=5)
    assert 0.05 < exact < 0.95
    assert abs(mc - exact) < 4 * np.sqrt(exact * (1 - exact) / 40000)


def test_equity_pre_flop_anchors() -> None:
    aa = parse_cards("AhAd")
    assert abs(equity(aa, (), [None], 40000, seed=1) - 0.8520) < 0.008
    assert abs(equity(aa, (), [None, None], 40000, seed=1) - 0.7336) < 0.01


def test_class_equity_table_agrees_with_a_fresh_simulation_and_papps_anchors() -> None:
    table = class_equity()
    assert abs(table[HAND_CLASSES.index("32s")] - (1 - 0.279) / 2) < 0.004  # IR2 -279
    assert abs(table[HAND_CLASSES.index("32o")] - (1 - 0.351) / 2) < 0.004  # IR2 -351
    fresh = compute_class_equity(deals=4000, seed=99)  # an independent small simulation
    assert np.abs(fresh[:, 0] - table).max() < 1e-5  # exact against one (the file keeps 5 digits)
    shipped = np.stack([class_equity(k) for k in range(1, 10)], axis=1)
    assert np.max(np.abs(fresh[:, 1:] - shipped[:, 1:])) < 0.035
    assert min(np.corrcoef(fresh[:, k], shipped[:, k])[0, 1] for k in range(1, 9)) > 0.99
    # more opponents, less equity, for every class
    assert (np.diff(shipped, axis=1) < 0).all()


def test_post_flop_values_are_hand_strength_percentiles() -> None:
    v = street_values(tuple(parse_cards("3h4cJh")))
    assert abs(v[HOLDING_INDEX[parse_cards("Ad")[0], parse_cards("Qc")[0]]] - 0.585106) < 1e-6
    assert v[HOLDING_INDEX[parse_cards("3h")[0], parse_cards("2c")[0]]] == 0.0  # clashes


# --- mc in fixed spots ------------------------------------------------------------------------


def test_mc_folds_a_weak_hand_facing_a_big_bet_with_bad_odds() -> None:
    obs = spot(NOLIMIT, ["7c2d", "AsKh"], "AhKsQd9h3c", button=0,
               actions=[Action.call(), Action.call()] + [Action.call()] * 4
               + [Action.raise_to(100)])
    assert obs.seat == 0 and obs.legal.call_amount == 100  # pot odds 100 / 204
    assert MonteCarloBot(seed=1).act(obs) == Action.fold()


def test_mc_raises_the_nuts_and_calls_between_the_thresholds() -> None:
    for seats in (2, 6):
        holes = ["AhKh"] + ["2c3c", "4d5d", "6s7s", "8c9c", "2d3d"][:seats - 1]
        obs = spot(LIMIT, holes, "QhJhTh2s3s", button=seats - 1,
                   actions=[Action.call()] * seats)  # everyone limps; the flop, seat 0 first
        assert obs.seat == 0 and obs.street == Street.FLOP
        assert MonteCarloBot(seed=1).act(obs).kind is ActionKind.RAISE
    # middle pair facing one small bet heads-up: equity ~0.6, above the odds, below 0.75
    obs = spot(LIMIT, ["9c8d", "2h3h"], "9hKs4c", button=0,
               actions=[Action.call(), Action.call(), Action.raise_to(2)])
    bot = MonteCarloBot(seed=2)
    assert 0.5 < bot.equity(obs) < 0.75
    assert bot.act(obs) == Action.call()


def test_mc_pre_flop_uses_the_same_rule() -> None:
    raise_ = spot(LIMIT, ["AhAs", "7c2d"], "Ks9s5h4c3d", button=0, actions=[])
    assert MonteCarloBot(seed=1).act(raise_).kind is ActionKind.RAISE
    three_bet = spot(NOLIMIT, ["7c2d", "AhAs"], "Ks9s5h4c3d", button=0,
                     actions=[Action.raise_to(6), Action.raise_to(60)])
    assert MonteCarloBot(seed=1).act(three_bet) == Action.fold()


# --- styles -----------------------------------------------------------------------------------


def voluntary_share(results, seat: int) -> float:
    """The share of hands in which ``seat`` put chips in pre-flop by choice."""
    played = sum(1 for r in results if any(a.seat == seat and a.street == Street.PREFLOP
                                           and a.kind is not ActionKind.FOLD and a.added > 0
                                           for a in r.history.actions))
    return played / len(results)


def test_rock_is_tight_and_passive_and_maniac_loose_and_aggressive() -> None:
    out = {}
    for name, cls in (("rock", RockBot), ("maniac", ManiacBot)):
        results = list(play_match(LIMIT, [cls(seed=4), RaiseBot()], 400, seed=8))
        moves = kinds(results, 0)
        aggression = moves[ActionKind.RAISE] / (moves[ActionKind.RAISE] + moves[ActionKind.CALL])
        out[name] = (voluntary_share(results, 0), aggression)
    assert out["rock"][0] < 0.3 < 0.7 < out["maniac"][0]
    assert out["rock"][1] + 0.2 < out["maniac"][1]


def test_style_pre_flop_ranking() -> None:
    rock = RockBot(jitter=0.0, seed=1)
    aces = spot(LIMIT, ["7c2d", "AhAs"], "Ks9s5h4c3d", button=0, actions=[Action.raise_to(4)])
    junk = spot(LIMIT, ["7c2d", "AhAs"], "Ks9s5h4c3d", button=1, actions=[Action.raise_to(4)])
    assert aces.seat == 1 and junk.seat == 0
    assert rock.act(aces).kind is ActionKind.RAISE
    assert rock.act(junk) == Action.fold()
    maniac = ManiacBot(jitter=0.0, bluff=0.0, seed=1)
    assert maniac.preflop_chances(np.array([0.6])).tolist() == [[0.0, 0.0, 1.0]]


# --- the exploiter ----------------------------------------------------------------------------


class Folder(BaseBot):
    """Calls pre-flop, then checks and folds to any bet."""

    def act(self, observation: Observation) -> Action:
        if observation.street == Street.PREFLOP or not observation.legal.can_fold:
            return Action.call()
        return Action.fold()


class RiverBettor(BaseBot):
    """Checks to the river, calls every bet, and bets the river with a hand value above
    0.7 (``bluffs=False``) or above 0.85 and below 0.15 (``bluffs=True``): 30% either way."""

    def __init__(self, bluffs: bool) -> None:
        self.bluffs = bluffs

    def act(self, observation: Observation) -> Action:
        obs = observation
        if obs.street != Street.RIVER or obs.legal.call_amount or not obs.legal.can_raise:
            return Action.call()
        v = street_values(obs.board)[HOLDING_INDEX[obs.hole_cards[0], obs.hole_cards[1]]]
        bet = v > 0.85 or v < 0.15 if self.bluffs else v > 0.7
        return Action.raise_to(obs.legal.min_raise_to) if bet else Action.call()


def trained(opponent: BaseBot, name: str, hands: int, game: GameConfig = LIMIT,
            seed: int = 11) -> ExploiterBot:
    bot = ExploiterBot(seed=seed)
    list(play_match(game, [bot, opponent], hands, seed=seed, names=["exploiter", name]))
    return bot


def fresh(name: str, game: GameConfig = LIMIT) -> ExploiterBot:
    bot = ExploiterBot(seed=11)
    bot.start(BotContext(0, ("exploiter", name), game))
    return bot


def test_exploiter_bluffs_more_after_seeing_folds_to_bets() -> None:
    """River, checked to us with nothing, a pot-sized bet: at the prior the bluff is about
    break-even; against a player seen folding to most bets it is clearly right."""
    after = trained(Folder(), "folder", 150, NOLIMIT)
    t = after.tendencies("folder")
    assert t.fold_to_bet(POSTFLOP) > 0.8 > 0.5 == fresh("folder").tendencies(
        "folder").fold_to_bet(POSTFLOP)
    obs = spot(NOLIMIT, ["2h3h", "7c2d"], "AhKsQd9c8s", button=0,
               actions=[Action.call(), Action.call()] + [Action.call()] * 5)
    assert obs.seat == 0 and obs.legal.call_amount == 0
    before = fresh("folder", NOLIMIT).decide(obs)
    now = after.decide(obs)
    assert now.fold_chance > 0.8 and before.fold_chance < 0.6
    assert now.probability("raise") > 0.95 > before.probability("raise") + 0.3


def test_exploiter_calls_lighter_against_a_player_seen_bluffing() -> None:
    """Two opponents bet the river equally often; one with strong hands only, the other
    with the strongest and the weakest. Facing a river bet with a middling hand, the
    exploiter goes on against the bluffer and folds to the value bettor."""
    value = trained(RiverBettor(bluffs=False), "value", 250)
    bluff = trained(RiverBettor(bluffs=True), "bluffer", 250)
    assert (bluff.tendencies("bluffer").bluff_rate() > 0.25 > 0.1 >
        value.tendencies("value").bluff_rate())
    # BB (seat 1) bets the river into our middle pair; we are the button, seat 0
    board = "Kc9h5d2s3c"
    obs = spot(LIMIT, ["9c8d", "7h6h"], board, button=0,
               actions=[Action.call(), Action.call()] + [Action.call()] * 4
               + [Action.raise_to(4)])
    assert obs.seat == 0 and obs.street == Street.RIVER
    against_bluffer, against_value = bluff.decide(obs), value.decide(obs)
    assert against_bluffer.equity > 0.4 > 0.25 > against_value.equity
    assert against_bluffer.probability("fold") < 0.1
    assert against_value.probability("fold") > 0.9


class TightCaller(BaseBot):
    """Never bets; facing a bet after the flop, calls with the better half of hands."""

    def act(self, observation: Observation) -> Action:
        obs = observation
        if obs.street == Street.PREFLOP or not obs.legal.can_fold:
            return Action.call()
        v = street_values(obs.board)[HOLDING_INDEX[obs.hole_cards[0], obs.hole_cards[1]]]
        return Action.call() if v >= 0.5 else Action.fold()


def test_exploiter_value_bets_thinner_against_a_calling_station() -> None:
    """Checked to the river with a middling pair, first to act: against a player who calls
    every bet it bets for value; against one who calls only with the better half (and so
    beats a middling pair when it calls) it checks."""
    station = trained(CallBot(), "opp", 150)
    tight = trained(TightCaller(), "opp", 150)
    assert station.tendencies("opp").fold_to_bet(POSTFLOP) < 0.1
    assert tight.tendencies("opp").fold_to_bet(POSTFLOP) > 0.3
    # the opponent limps on the button, then checks behind on every street
    obs = spot(LIMIT, ["9c8d", "7h6h"], "Kc9h5d2s3c", button=1, actions=[Action.call()] * 6)
    assert obs.seat == 0 and obs.street == Street.RIVER and obs.legal.call_amount == 0
    against_station, against_tight = station.decide(obs), tight.decide(obs)
    assert abs(against_station.equity - against_tight.equity) < 0.05  # the same range...
    assert against_station.equity_called > against_tight.equity_called + 0.15  # ...callers
    assert against_station.probability("raise") > 0.9
    assert against_tight.probability("raise") < 0.2


def test_exploiter_folds_more_against_a_player_who_raises_only_strong_hands() -> None:
    """Second pair, we bet every street and get raised on the river: ``rock`` raises only
    strong hands, so we fold; ``maniac`` raises light, so we raise back."""
    rock = trained(RockBot(seed=5), "opp", 300)
    maniac = trained(ManiacBot(seed=5), "opp", 250)
    assert rock.tendencies("opp").aggression(POSTFLOP) + 0.2 < maniac.tendencies(
        "opp").aggression(POSTFLOP)
    obs = spot(LIMIT, ["Qc9d", "7h6h"], "Kc9h5d2s3c", button=1,
               actions=[Action.call(), Action.call(), Action.raise_to(2), Action.call(),
                        Action.raise_to(4), Action.call(), Action.raise_to(4),
                        Action.raise_to(8)])
    assert obs.seat == 0 and obs.street == Street.RIVER and obs.legal.call_amount == 4
    against_rock, against_maniac = rock.decide(obs), maniac.decide(obs)
    assert against_rock.equity < 0.2 < 0.8 < against_maniac.equity
    assert against_rock.probability("fold") > 0.8
    assert against_maniac.probability("fold") < 0.05


def test_read_moves_contexts() -> None:
    obs = spot(LIMIT, ["9c8d", "7h6h"], "Kc9h5d2s3c", button=0,
               actions=[Action.raise_to(4), Action.raise_to(6), Action.call(),
                        Action.raise_to(2), Action.raise_to(4), Action.raise_to(6)])
    steps = [(s.seat, s.facing, s.move) for s in read_moves(Betting.of(obs))]
    # pre-flop: the button raises the blind (1 bet), BB re-raises (2), button calls after
    # its own raise (raised back); flop: BB bets (free), button raises (1), BB raises back
    assert steps == [(0, 1, 2), (1, 2, 2), (0, RAISED_BACK, 1),
                     (1, 0, 2), (0, 1, 2), (1, RAISED_BACK, 2)]
    assert Tendencies().rates(POSTFLOP, RAISED_BACK)[0] < 0.2


def test_exploiter_memory_is_per_opponent_name_and_reset_clears_it() -> None:
    bot = trained(Folder(), "folder", 60)
    assert bot.tendencies("folder").moves.sum() > 100
    assert bot.tendencies("someone else").moves.sum() == 0
    bot.reset()
    assert bot.tendencies("folder").moves.sum() == 0


# --- exact replay -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(RIVALS))
def test_same_seed_same_play(name: str) -> None:
    def run(seed: int):
        bots = [RIVALS[name](seed=seed), RandomBot(seed=3), RIVALS[name](seed=seed + 1)]
        return [(r.net, r.history.actions)
                for r in play_match(NOLIMIT, bots, 40, seed=6, on_bot_error="stop")]

    assert run(1) == run(1)
    if name != "mc":  # mc draws nothing: each of its rows is one action for sure
        assert run(1) != run(2)


def test_a_policy_question_to_the_exploiter_writes_nothing_it_learns() -> None:
    """A read never writes: asking ``exploiter`` for its policy leaves what it knows and the
    game it plays as they were (only its memo of the last ranges read may change)."""
    game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)
    bot = ExploiterBot(seed=1)
    holes = [tuple(parse_cards("AhKd")), tuple(parse_cards("7c2s"))]
    state = HandState(game, [200, 200], 1, holes, parse_cards("Qs9h4d2c8s"))
    state.raise_to(4)
    before = {k: v for k, v in vars(bot).items() if k not in ("_read", "_tracked")}
    policy = bot.policy(state.observation(0), [holes[0]])
    after = {k: v for k, v in vars(bot).items() if k not in ("_read", "_tracked")}
    assert policy.probabilities.shape[0] == 1
    assert after.keys() == before.keys()
    assert all(after[k] is before[k] for k in before), [k for k in before
                                                         if after[k] is not before[k]]

"""The heuristic agent: fixed spots, legality at 2-10 seats, replay, parameters, traces."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from agent_support import pipeline
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.commands.explain import explain
from agent.heuristic.bot import HeuristicAgent
from agent.heuristic.params import AgentParamsError
from agent.modeller.storage import model_name
from agent.rivals.mc import MonteCarloBot
from simulator import (
    Action,
    BaseBot,
    BotContext,
    Event,
    GameConfig,
    HandStarted,
    Observation,
    Showdown,
    Street,
)
from simulator.arena.config import parse_config
from simulator.arena.tournament import run_tournament
from simulator.core.cards import parse_cards
from simulator.core.deal import Deal
from simulator.core.equity import equity
from simulator.play.baseline import CallBot, RaiseBot, RandomBot
from simulator.play.match import play_hand, play_match

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=400)
NOLIMIT = GameConfig(variant="nolimit", blinds=(1, 2), stack=200)


class Spy(BaseBot):
    """Wraps a bot and keeps every (observation, action) it made."""

    def __init__(self, bot: BaseBot) -> None:
        self.bot, self.seen = bot, []

    def start(self, context: BotContext) -> None:
        self.bot.start(context)

    def observe(self, event) -> None:
        self.bot.observe(event)

    def act(self, observation: Observation) -> Action:
        action = self.bot.act(observation)
        self.seen.append((observation, action))
        return action


class Script(BaseBot):
    """Calls everywhere except where told to bet: ``bets`` holds the streets it bets on."""

    def __init__(self, bets: tuple[int, ...] = ()) -> None:
        self.bets = bets

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        if observation.street in self.bets and legal.can_raise and not legal.call_amount:
            return Action.raise_to(legal.min_raise_to)
        return Action.call()


def deal_with(n: int, seat: int, hole: str, board: str, seed: int = 0) -> Deal:
    """A deal giving ``seat`` the ``hole`` cards on ``board``; the rest at random."""
    mine, cards = parse_cards(hole), parse_cards(board)
    rest = [c for c in np.random.default_rng(seed).permutation(52).tolist()
            if c not in mine and c not in cards]
    holes = []
    for s in range(n):
        holes.append(tuple(mine) if s == seat else (rest.pop(), rest.pop()))
    return Deal(tuple(holes), tuple(cards))


def one_hand(game: GameConfig, bots: list[BaseBot], deal: Deal, button: int,
             agent_seat: int, seed: int = 0) -> Spy:
    spy = Spy(bots[agent_seat])
    bots = [spy if s == agent_seat else b for s, b in enumerate(bots)]
    names = tuple(f"p{s}" for s in range(len(bots)))
    for s, b in enumerate(bots):
        if hasattr(b, "start"):
            b.start(BotContext(s, names, game.copy()))
    play_hand(game, bots, [game.stack] * len(bots), button, deal, 0, names)
    return spy


@pytest.mark.parametrize("button", range(6))
def test_it_raises_aces_preflop_from_every_seat(button: int) -> None:
    for game in (LIMIT, NOLIMIT):
        bots: list[BaseBot] = [CallBot() for _ in range(6)]
        bots[2] = pipeline(seed=button)
        spy = one_hand(game, bots, deal_with(6, 2, "AhAd", "2c7d9sJhKc"), button, 2)
        first = spy.seen[0]
        assert first[0].street is Street.PREFLOP and first[1].kind.value == "r", first


def test_it_folds_72o_under_the_gun_and_facing_a_raise() -> None:
    for seed in range(10):
        # 6-max, button 5: seat 2 is under the gun; seat 3 faces UTG's raise
        bots: list[BaseBot] = [CallBot() for _ in range(6)]
        bots[2] = pipeline(seed=seed)
        spy = one_hand(LIMIT, bots, deal_with(6, 2, "7c2d", "AhKhQs3s4d"), 5, 2)
        assert spy.seen[0][1] == Action.fold()
        bots = [CallBot() for _ in range(6)]
        bots[2], bots[3] = RaiseBot(), pipeline(seed=seed)
        spy = one_hand(LIMIT, bots, deal_with(6, 3, "7c2d", "AhKhQs3s4d"), 5, 3)
        obs, action = spy.seen[0]
        assert obs.legal.call_amount > 1 and action == Action.fold()


def _decisions(spy: Spy, street: Street) -> list[tuple[Observation, Action]]:
    return [(o, a) for o, a in spy.seen if o.street is street]


def test_it_bets_the_nuts_on_the_river_when_checked_to() -> None:
    bets = 0
    for seed in range(40):
        # heads-up: seat 1 is the button and acts last after the flop; a royal flush
        bots: list[BaseBot] = [Script(), pipeline(seed=seed)]
        spy = one_hand(LIMIT, bots, deal_with(2, 1, "AsKs", "QsJsTs2d7c", seed), 1, 1)
        river = [(o, a) for o, a in _decisions(spy, Street.RIVER) if o.legal.call_amount == 0]
        assert river, "the agent reached the river with nothing to call"
        bets += river[0][1].kind.value == "r"
    assert bets >= 38


def test_it_calls_a_flush_draw_getting_the_right_price() -> None:
    for seed in range(30):
        # seat 0 (big blind, first to act after the flop) bets the flop into the agent
        bots: list[BaseBot] = [Script(bets=(Street.FLOP,)), pipeline(seed=seed)]
        spy = one_hand(LIMIT, bots, deal_with(2, 1, "Ah5h", "Kh8h2c9s3d", seed), 1, 1)
        flop = [(o, a) for o, a in _decisions(spy, Street.FLOP) if o.legal.call_amount > 0]
        assert flop, "the agent did not face the flop bet"
        obs, action = flop[0]
        assert obs.legal.call_amount / (obs.pot + obs.legal.call_amount) < 0.3
        assert action != Action.fold()


@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
@pytest.mark.parametrize(("seats", "hands"), [(2, 500), (3, 400), (6, 250), (10, 120)])
def test_no_fault_and_no_illegal_action_at_any_table(game: GameConfig, seats: int,
                                                     hands: int) -> None:
    agents = max(1, seats // 2)
    bots = [pipeline(seed=s) for s in range(agents)]
    bots += [RandomBot(seed=100 + s) for s in range(seats - agents)]
    names = [f"s{i}" for i in range(seats)]
    results = list(play_match(game, bots, hands, seed=seats, names=names,
                              on_bot_error="stop"))
    assert len(results) == hands
    assert all(not r.faults for r in results)
    assert sum(sum(r.net) for r in results) == 0


class Watcher(RaiseBot):
    """Raises all in; notes, per hand, who was dealt in and whether it went to a showdown."""

    def __init__(self) -> None:
        super().__init__()
        self.hands: list[tuple[tuple[bool, ...], bool]] = []

    def observe(self, event: Event) -> None:
        if isinstance(event, HandStarted):
            self.hands.append((event.dealt_in, False))
        elif isinstance(event, Showdown):
            self.hands[-1] = (self.hands[-1][0], True)


@pytest.mark.parametrize("trace", [False, True])
def test_a_busted_agent_watches_the_showdowns_it_is_not_in(tmp_path: Path,
                                                           trace: bool) -> None:
    game = GameConfig(variant="nolimit", blinds=(1, 2), stack=12, reset_stacks=False)
    watcher = Watcher()
    bots: list[BaseBot] = [HeuristicAgent(seed=s, trace=trace) for s in range(4)]
    bots.append(watcher)
    names = [f"s{i}" for i in range(5)]
    results = list(play_match(game, bots, 40, seed=7, names=names, on_bot_error="stop",
                              directory=tmp_path))
    assert all(not r.faults for r in results)
    assert any(not all(dealt[:4]) and shown for dealt, shown in watcher.hands), (
        "no showdown was played with an agent sitting out: the test tests nothing")


def test_a_seed_replays_the_same_match() -> None:
    def match() -> list[tuple[int, ...]]:
        bots = [pipeline(seed=4), pipeline(seed=5), RandomBot(seed=6)]
        return [r.net for r in play_match(NOLIMIT, bots, 60, seed=9)]

    assert match() == match()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), seats=st.integers(2, 6),
       stacks=st.lists(st.integers(3, 400), min_size=6, max_size=6))
def test_no_limit_agent_never_offers_an_illegal_size(seed: int, seats: int,
                                                     stacks: list[int]) -> None:
    game = GameConfig(variant="nolimit", blinds=(1, 2), stack=400, reset_stacks=False)
    agent = Spy(pipeline(seed=seed))
    bots: list[BaseBot] = [agent] + [RandomBot(seed=seed + s) for s in range(1, seats)]
    rng = np.random.default_rng(seed)
    deal_cards = rng.permutation(52).tolist()
    deal = Deal(tuple((deal_cards[2 * s], deal_cards[2 * s + 1]) for s in range(seats)),
                tuple(deal_cards[2 * seats: 2 * seats + 5]))
    names = tuple(f"s{s}" for s in range(seats))
    agent.start(BotContext(0, names, game.copy()))
    play_hand(game, bots, stacks[:seats], int(rng.integers(seats)), deal, 0, names)
    assert all(obs.legal.allows(action) for obs, action in agent.seen)


def test_a_parameter_file_with_a_bad_key_or_value_is_refused(tmp_path: Path) -> None:
    bad_key = tmp_path / "bad_key.yaml"
    bad_key.write_text(yaml.safe_dump({"selector": {"temprature": 0.3}}))
    with pytest.raises(AgentParamsError, match="selector.temprature: unknown key"):
        HeuristicAgent(config=str(bad_key))
    with pytest.raises(AgentParamsError, match="evaluation.chain_threshold"):
        HeuristicAgent(**{"evaluation.chain_threshold": "many"})
    with pytest.raises(AgentParamsError, match="model"):
        HeuristicAgent(model="sometimes")


def _tiny_run(tmp_path: Path, **params) -> Path:
    out = tmp_path / "run"
    cfg = parse_config({"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
                        "seats": [{"name": "hero", "bot": "heuristic", "params": params},
                                  {"name": "villain", "bot": "random"}],
                        "hands": 40, "block_size": 20, "seed": 3, "duplicate": True,
                        "output": {"dir": str(out), "plots": False}})
    run_tournament(cfg, progress=False)
    return out


def test_the_model_is_saved_per_block_and_permutation_and_can_be_loaded(
        tmp_path: Path) -> None:
    out = _tiny_run(tmp_path)
    files = sorted(p.name for p in (out / "bots" / "hero").iterdir())
    assert files == sorted(model_name(b, p) for b in (0, 1) for p in (0, 1))
    again = HeuristicAgent(model_file=str(out / "bots" / "hero" / files[0]))
    game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)  # the run's
    again.start(BotContext(0, ("hero", "villain"), game))  # reads it without complaint


def test_traces_explain_a_hand(tmp_path: Path) -> None:
    out = _tiny_run(tmp_path, trace=True)
    traces = list((out / "bots" / "hero").glob("trace-b0-p0.jsonl"))
    assert traces
    records = [json.loads(line) for line in traces[0].read_text().splitlines()]
    decided = [r for r in records if r["kind"] == "decision" and r["candidates"]]
    assert decided and all(r["chosen"] in [c["action"] for c in r["candidates"]]
                           for r in decided)
    hand = decided[0]["hand"]
    text = explain(out, 0, 0, hand)
    assert f"hand {hand} (block 0, permutation 0): hero" in text
    assert "EHS" in text and "->" in text and "result" in text


def test_the_shipped_modeller_section_is_the_modellers_own_default() -> None:
    from agent.heuristic.params import load_agent_params
    from agent.modeller import ModellerParams

    shipped = load_agent_params().modeller_params()
    assert shipped == ModellerParams()


HEADS_UP = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=2000)


@pytest.mark.parametrize("hole", ["Tc6d", "Qc2d"])
def test_the_big_blind_defends_by_pot_odds_where_the_rules_fold(hole: str) -> None:
    # heads-up, the button raises: 2 to call into 6 buys a quarter of the pot
    for enabled, expected in ((True, Action.call()), (False, Action.fold())):
        agent = pipeline(seed=1, **{"defense.enabled": enabled})
        spy = one_hand(HEADS_UP, [RaiseBot(), agent], deal_with(2, 1, hole, "AhKhQs3s4d"),
                       0, 1)
        obs, action = spy.seen[0]
        assert (obs.legal.call_amount, obs.pot) == (2, 6)
        assert action == expected, (hole, enabled)


def test_the_defence_still_folds_trash() -> None:
    for seed in range(5):
        spy = one_hand(HEADS_UP, [RaiseBot(), pipeline(seed=seed)],
                       deal_with(2, 1, "7c2d", "AhKhQs3s4d"), 0, 1)
        assert spy.seen[0][1] == Action.fold()


@pytest.mark.parametrize(("hole", "raises"), [("Ac3d", True), ("Ac2d", False)])
def test_a_hand_ahead_of_the_range_raises_for_value_where_the_rules_call(hole: str,
                                                                         raises: bool) -> None:
    # the button acts first heads-up, against a range nothing has narrowed: A3o holds 0.558
    # of the pot against it and clears the bar of 0.55 (value_edge 1.1 over 2 players); A2o
    # holds 0.549 and does not. The rules only call either.
    assert (equity(parse_cards(hole), ()) >= 0.55) is raises
    for on in (False, True):
        agent = pipeline(seed=1, **{"defense.value_raise": on, "defense.value_edge": 1.1})
        spy = one_hand(HEADS_UP, [agent, CallBot()], deal_with(2, 0, hole, "2h3h4s8sJd"), 0, 0)
        expected = Action.raise_to(4) if on and raises else Action.call()
        assert spy.seen[0][1] == expected, (hole, on)


def test_a_value_raise_reads_the_range_the_modeller_narrowed() -> None:
    # A8o holds 0.6 against a random hand, but facing a raise the modeller reads the raiser's
    # range as its strongest fifth, against which A8o is behind: it calls and does not raise
    assert equity(parse_cards("Ac8d"), ()) > 0.55
    agent = pipeline(seed=1, **{"defense.value_raise": True, "defense.value_edge": 1.1})
    spy = one_hand(HEADS_UP, [RaiseBot(), agent], deal_with(2, 1, "Ac8d", "2h3h4s6s7h"), 0, 1)
    assert spy.seen[0][1] == Action.call()


class Folder(BaseBot):
    """Folds to any bet or raise, else checks: the player a steal is for."""

    def act(self, observation: Observation) -> Action:
        return Action.fold() if observation.legal.can_fold else Action.call()


def test_the_button_steals_only_from_a_player_it_has_seen_fold() -> None:
    # 7c2d is trash the rules do not raise. Against a player not yet seen a steal counts no
    # folds (Table B.2's default would have half the big blinds fold, and pay for a raise of
    # anything); once the modeller has seen Folder fold to its raises, 7c2d raises too
    deal = deal_with(2, 0, "7c2d", "2h3h4s8sJd")
    fresh = pipeline(seed=1, **{"defense.steal": True})
    assert one_hand(HEADS_UP, [fresh, Folder()], deal, 0, 0).seen[0][1] == Action.call()
    for on in (False, True):
        agent = pipeline(seed=1, **{"defense.steal": on})
        list(play_match(HEADS_UP, [agent, Folder()], 120, seed=3, names=["p0", "p1"]))
        assert agent.modeller.seen_fold(1, Street.PREFLOP, 1) > 0.5
        spy = one_hand(HEADS_UP, [agent, Folder()], deal, 0, 0)
        assert (spy.seen[0][1] == Action.raise_to(4)) is on, on


def test_the_button_does_not_steal_from_a_player_who_never_folds() -> None:
    # the modeller has seen CallBot call every raise: 7c2d is not worth one; aces still raise
    # (the rules do)
    agent = pipeline(seed=1, **{"defense.steal": True})
    list(play_match(HEADS_UP, [agent, CallBot()], 120, seed=3, names=["p0", "p1"]))
    assert agent.modeller.frequencies(1, Street.PREFLOP, 1)[0] < 0.05
    for hole, raises in (("7c2d", False), ("AcAd", True)):
        spy = one_hand(HEADS_UP, [agent, CallBot()], deal_with(2, 0, hole, "2h3h4s8sJd"), 0, 0)
        assert (spy.seen[0][1] == Action.raise_to(4)) is raises, hole


def test_explain_shows_the_pot_odds_defence(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cfg = parse_config({"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
                        "seats": [{"name": "hero", "bot": "heuristic",
                                   "params": {"trace": True}},
                                  {"name": "villain", "bot": "raise"}],
                        "hands": 30, "seed": 4, "output": {"dir": str(out), "plots": False}})
    run_tournament(cfg, progress=False)
    records = [json.loads(line) for line in
               (out / "bots" / "hero" / "trace-b0-p0.jsonl").read_text().splitlines()]
    defended = [r for r in records if (r.get("preflop") or {}).get("defense_equity")]
    assert defended, "the raiser never made the rules fold"
    text = explain(out, block=0, perm=0, hand=defended[0]["hand"], seat="hero")
    assert "pot-odds defence: equity" in text
    # the price beside the equity, and a verdict that follows from the two
    first = defended[0]
    pot, to_call = first["pot"], first["to_call"]
    needed = to_call / (pot + to_call) / 0.8  # the default realization share
    assert first["preflop"]["defense_price"] == pytest.approx(needed)
    assert first["preflop"]["defense_pays"] is (first["preflop"]["defense_equity"] >= needed)
    pays = "pays" if first["preflop"]["defense_pays"] else "does not pay"
    assert (f"; price {to_call / (pot + to_call):.3f} ({to_call} to call into {pot} + "
            f"{to_call}), equity needed {needed:.3f}: {pays} for the call") in text


def test_an_edited_parameter_file_is_noticed_on_resume(tmp_path: Path) -> None:
    from simulator.arena.results import ResultsError

    mine = tmp_path / "mine.yaml"
    mine.write_text("selector: {temperature: 0.15}\n")
    out = _tiny_run(tmp_path, config=str(mine))
    meta = json.loads((out / "run.json").read_text())
    assert meta["result_config"]["bot_identities"]["hero"]["selector"]["temperature"] == 0.15
    cfg = parse_config({"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
                        "seats": [{"name": "hero", "bot": "heuristic",
                                   "params": {"config": str(mine)}},
                                  {"name": "villain", "bot": "random"}],
                        "hands": 40, "block_size": 20, "seed": 3, "duplicate": True,
                        "output": {"dir": str(out), "plots": False}})
    run_tournament(cfg, resume=True, progress=False)  # unchanged: resumes (nothing to do)
    mine.write_text(mine.read_text().replace("temperature: 0.15", "temperature: 0.5"))
    with pytest.raises(ResultsError, match="temperature"):
        run_tournament(cfg, resume=True, progress=False)


class Bettor(BaseBot):
    """Bets whenever it may; facing a bet, folds unless it bet or raised in the round itself,
    and then always calls: raised back, it never folds."""

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        if not legal.call_amount:
            return Action.raise_to(legal.min_raise_to) if legal.can_raise else Action.call()
        mine = any(r.seat == observation.seat and r.street == observation.street
                   and r.kind.value == "r" for r in observation.history)
        return Action.call() if mine or observation.street is Street.PREFLOP else Action.fold()


class Asker(HeuristicAgent):
    """The agent, noting the fold rate it expects for a raise when the opponent has bet."""

    def act(self, observation: Observation) -> Action:
        if observation.street is not Street.PREFLOP and observation.legal.call_amount:
            opponent = observation.live_opponents[0]
            m = self.modeller
            context = m.context(opponent, after_our_raise=True)
            self.expected.append(m.frequencies(opponent, observation.street, context)[0])
        return super().act(observation)


def test_a_raise_is_priced_on_the_folds_of_players_raised_back() -> None:
    """The bettor folds every bet it faces cold but never a raise of its own bet; pooled,
    Papp's "one bet to call" would promise the agent's raises folds that never come."""
    agent = Asker(seed=3)
    agent.expected = []
    list(play_match(HEADS_UP, [agent, Bettor()], 300, seed=5, names=("agent", "bettor")))
    seat = 1
    freqs = agent.modeller.frequencies
    assert freqs(seat, Street.FLOP, 1)[0] > 0.9  # cold, it folds
    assert agent.expected and max(agent.expected[-20:]) < 0.05  # raised back, it never does


def test_trust_by_line_learns_apart_from_bets_and_from_the_rest() -> None:
    # mc bets only strong hands and checks or calls with the rest: its bets are where the
    # weights put them, its checks are not (Loki-1 keeps the strong holdings after a check),
    # so the trust after its bets ends higher. Without by_line one trust serves both
    for by_line in (True, False):
        agent = pipeline(seed=2, **{"trust.by_line": by_line})
        list(play_match(HEADS_UP, [agent, MonteCarloBot(seed=3)], 150, seed=4,
                        names=["p0", "p1"]))
        after_bets, after_rest = (agent.learners.trust.alpha("p1", line) for line in (True, False))
        if by_line:
            assert after_bets > after_rest + 0.2, (after_bets, after_rest)
        else:
            assert after_bets == after_rest == agent.learners.trust.alpha("p1") != 0.7


def test_a_decision_mixes_each_range_by_the_trust_of_its_last_action() -> None:
    agent = pipeline(seed=1, **{"trust.by_line": True})
    for _ in range(40):  # bets that the weights predicted, and checks that they did not
        agent.learners.trust.add("p0", p_weights=0.004, p_uniform=0.001, bet=True)
        agent.learners.trust.add("p0", p_weights=0.0001, p_uniform=0.001, bet=False)
    deal = deal_with(2, 1, "AsKd", "Qs9h5c2d7h")
    for bets, line in (((Street.RIVER,), True), ((), False)):
        spy = one_hand(LIMIT, [Script(bets), agent], deal, 1, 1)
        obs = _decisions(spy, Street.RIVER)[0][0]
        assert (obs.legal.call_amount > 0) is line
        rows = agent.rows(obs, np.array([0]))
        assert rows.views[0].trust == agent.learners.trust.alpha("p0", line), line

"""Sit-and-gos: the rules of a tournament hand, the dead button, places and prizes, tables,
the config's refusals and ``holdem sng`` end to end."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.arena.balancing import players, rebalance
from simulator.arena.dead_button import (
    Positions,
    first_positions,
    next_positions,
    waiting_seats,
)
from simulator.arena.freezeout import Freezeout, play_tournament
from simulator.arena.places import bust_places, prizes
from simulator.arena.sng_cli import check_entrants
from simulator.arena.sng_config import load_sng, parse_sng
from simulator.cli import main as holdem
from simulator.core.actions import Action
from simulator.core.cards import parse_cards
from simulator.core.errors import GameError
from simulator.core.events import Event, HandStarted
from simulator.core.game import GameConfig
from simulator.core.observation import Observation
from simulator.core.positions import table_order
from simulator.core.state import HandState
from simulator.interop.phh import dumps, loads_all, replay
from simulator.play.baseline import RandomBot
from simulator.play.protocol import BaseBot, BotContext

pokerkit = pytest.importorskip("pokerkit")
from test_rules_pokerkit import Setup, play_both  # noqa: E402  (shared differential helpers)

pytestmark = pytest.mark.filterwarnings("ignore:A card being dealt")

BASELINES: list[dict[str, Any]] = [
    {"name": "loose", "bot": "random", "params": {"fold": 0.1, "call": 0.7, "raise": 0.2}},
    {"name": "tight", "bot": "random", "params": {"fold": 0.6, "call": 0.35, "raise": 0.05}},
    {"name": "station", "bot": "call"},
    {"name": "raiser", "bot": "raise"},
    {"name": "wild", "bot": "random", "params": {"fold": 0.2, "call": 0.3, "raise": 0.5}},
    {"name": "mixed", "bot": "random"},
]


def _config(**edit: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "entrants": BASELINES[:4], "starting_stack": 300, "payouts": [70, 30],
        "tournaments": 4, "seed": 5,
        "schedule": [{"hands": 4, "blinds": [10, 20]}, {"hands": 4, "blinds": [20, 40]},
                     {"hands": 4, "blinds": [40, 80], "ante": 10}],
    }
    data.update(edit)
    return data


# --- the engine's rules in a tournament hand ----------------------------------------------------


def test_a_stack_short_of_the_blind_or_ante_posts_all_in_for_less() -> None:
    game = GameConfig(blinds=(10, 20), ante=5, stack=1500, reset_stacks=False)
    # seat 0 the small blind with 3 chips (all-in on the ante), seat 1 the big blind with 12
    s = HandState(game, [3, 12, 100, 100], 3, [(0, 1), (2, 3), (4, 5), (6, 7)],
                  [8, 9, 10, 11, 12])
    assert s.contributions == (3, 12, 5, 5)
    assert s.stacks == (0, 0, 95, 95)
    assert str(s.legal_actions()) == "fold, call 7, raise to 27..95"
    # a reset-stacks game still refuses stacks the forced bets put all-in
    with pytest.raises(GameError, match="game.stack: expected more chips than the forced"):
        GameConfig(blinds=(10, 20), ante=5, stack=25)


def test_heads_up_the_button_posts_the_small_blind_and_acts_first() -> None:
    game = GameConfig(blinds=(10, 20), stack=1500, reset_stacks=False)
    s = HandState(game, [0, 500, 0, 300], 3, [None, (0, 1), None, (2, 3)], [4, 5, 6, 7, 8])
    assert s.bets == (0, 20, 0, 10) and s.actor == 3


def test_the_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    # three split 80 chips (one folded its ante): 26 each, the 2 odd chips to the first
    # winner in table order from the button's left (seat 0, the small blind)
    game = GameConfig(blinds=(10, 20), ante=5, stack=1500, reset_stacks=False)
    board = parse_cards("AsKsQsJsTs")  # a royal flush on board: every hand ties
    holes: list[tuple[int, int] | None] = []
    for text in ("2c3d", "4c5d", "6c7d", "8c9d"):
        a, b = parse_cards(text)
        holes.append((a, b))
    s = HandState(game, [100] * 4, 3, holes, board)
    s.fold()  # seat 2 (under the gun)
    s.check_or_call()  # seat 3, the button
    s.check_or_call()  # the small blind
    s.check_or_call()  # the big blind
    while not s.finished:
        s.check_or_call()
    assert s.pot == 80 and s.finishing_stacks == (103, 101, 95, 101)


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 9), st.integers(0, 2**31), st.sampled_from([0, 5, 25]), st.booleans())
def test_tournament_hands_match_pokerkit(n: int, seed: int, ante: int, dead_sb: bool) -> None:
    """Tournament hands (stacks short of the blinds and antes, a dead small blind: the big
    blind alone posts) in both engines: every legal set and the finishing stacks agree."""
    rng = np.random.default_rng(seed)
    blinds = (20,) if dead_sb else (10, 20)
    game = GameConfig(blinds=blinds, ante=ante, stack=1500, reset_stacks=False)
    stacks = [int(rng.integers(1, 40)) if rng.random() < 0.4 else int(rng.integers(40, 600))
              for _ in range(n)]
    cards = rng.permutation(52)[: 2 * n + 5].tolist()
    setup = Setup(game, stacks, [(cards[2 * i], cards[2 * i + 1]) for i in range(n)],
                  cards[2 * n:])
    both = play_both(setup, rng)
    if both is not None:
        ours, pk, _ = both
        assert list(ours.finishing_stacks) == list(pk.stacks)


# --- the dead button ------------------------------------------------------------------------------


def test_the_big_blind_moves_one_player_every_hand_and_nobody_skips_it() -> None:
    live = [True] * 6
    p = first_positions(live)
    bbs = [p.big_blind]
    for bust in (None, 3, None, 5, 0, None):
        if bust is not None:
            live[bust] = False
        p = next_positions(p, live)
        bbs.append(p.big_blind)
    assert bbs == [1, 2, 4, 5, 0, 1, 2]  # seat 3 busted before its big blind: 4 has it
    # the small blind busted with its big blind's neighbour: dead button, small blind live
    p = next_positions(Positions(0, 1, 2), [True, False, True, True, True])
    assert (p.button, p.small_blind, p.big_blind) == (1, 2, 3)
    # the big blind busted: the small blind is dead, the next player posts the big blind
    p = next_positions(Positions(0, 1, 2), [True, True, False, True, True])
    assert (p.button, p.small_blind, p.big_blind) == (1, None, 3)
    after = next_positions(p, [True, True, False, True, True])  # the dead blind's seat moves on
    assert (after.button, after.small_blind, after.big_blind) == (2, 3, 4)


def test_a_player_moved_between_the_button_and_the_blinds_waits() -> None:
    assert waiting_seats(Positions(0, 3, 4), [True, True, True, True, True, True]) == (1, 2)
    assert waiting_seats(Positions(0, 0, 1), [True, True]) == ()


def test_a_dead_small_blind_hand_posts_the_big_blind_alone() -> None:
    config = parse_sng(_config())
    f = Freezeout(config, 0)
    f.chips = [300, 300, 0, 300]
    f.places[2] = 4.0
    table = f.tables[0]
    table.positions = Positions(0, 1, 2)
    f._play_table(0, table, 0)
    played = f._games[(0, True)]
    assert played.blinds == (20,) and table.positions.small_blind is None
    assert table.positions.button == 1 and table.positions.big_blind == 3
    assert sum(f.chips) == 900


# --- places and prizes ------------------------------------------------------------------------


def test_players_busting_in_one_hand_are_placed_by_their_starting_stacks() -> None:
    assert bust_places([4, 1, 2], {4: 50, 1: 80, 2: 50}, players_left_before=5) == {
        1: 3.0, 4: 4.5, 2: 4.5}
    paid = prizes({0: 1.0, 1: 2.0, 4: 3.0, 2: 4.5, 3: 4.5}, [0.5, 0.3, 0.2], pool=100.0)
    assert paid == {0: 50.0, 1: 30.0, 4: 20.0, 2: 0.0, 3: 0.0}
    # tied across the money: 2nd and 3rd share 30 + 20
    assert prizes({0: 1.0, 1: 2.5, 2: 2.5}, [0.5, 0.3, 0.2], 100.0) == {0: 50.0, 1: 25.0,
                                                                       2: 25.0}


# --- tables -----------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 6), st.lists(st.integers(0, 6), min_size=2, max_size=5),
       st.integers(0, 2**31))
def test_tables_never_differ_by_more_than_one_and_break_as_players_bust(
        size: int, counts: list[int], seed: int) -> None:
    rng = np.random.default_rng(seed)
    tables: list[list[int | None]] = []
    entrant = 0
    for c in counts:
        seats: list[int | None] = [None] * size
        for s in rng.permutation(size)[:min(c, size)]:
            seats[int(s)] = entrant
            entrant += 1
        tables.append(seats)
    if entrant < 2:
        return
    before = sorted(e for t in tables for e in t if e is not None)
    rebalance(tables, [int(rng.integers(size)) for _ in tables])
    open_ = [players(t) for t in tables if players(t)]
    assert sorted(e for t in tables for e in t if e is not None) == before
    assert max(open_) - min(open_) <= 1
    assert len(open_) == max(1, -(-entrant // size))


@dataclass(frozen=True)
class Decision:
    """What a :class:`SeatRecorder` saw at one of its decisions."""

    own: str  # its name, as the hand's names give it at the observation's seat
    context_seat: int
    seat: int  # the observation's
    context_names: tuple[str, ...]
    names: tuple[str, ...]  # the hand's (HandStarted)
    first_after_move: bool  # the first decision after a start with ``moved``


class SeatRecorder(BaseBot):
    """Plays at random and records, at each decision, the seat and names of its context
    beside the observation's seat and the hand's names."""

    log: ClassVar[list[Decision]] = []

    def __init__(self, seed: int | None = None) -> None:
        self.inner = RandomBot(seed=seed)
        self.context: BotContext | None = None
        self.names: tuple[str, ...] = ()
        self.fresh = False

    def start(self, context: BotContext) -> None:
        self.context, self.fresh = context, context.moved

    def observe(self, event: Event) -> None:
        if isinstance(event, HandStarted):
            self.names = event.names

    def act(self, observation: Observation) -> Action:
        assert self.context is not None
        SeatRecorder.log.append(Decision(self.names[observation.seat], self.context.seat,
                                         observation.seat, self.context.names, self.names,
                                         self.fresh))
        self.fresh = False
        return self.inner.act(observation)


def _moved_field(entrants: list[dict[str, Any]]) -> Any:
    return parse_sng(_config(entrants=entrants, table_size=4, payouts=[50, 30, 20],
                             starting_stack=200))


def test_a_moved_bot_is_started_again_with_its_new_seat_and_names() -> None:
    SeatRecorder.log.clear()
    config = _moved_field([{"name": f"b{i}", "bot": "test_sng:SeatRecorder"}
                           for i in range(8)])
    for t in range(3):
        assert play_tournament(config, t).faults == 0
    log = SeatRecorder.log
    seats: dict[str, set[int]] = {}
    for d in log:
        seats.setdefault(d.own, set()).add(d.seat)
    assert any(len(s) > 1 for s in seats.values())  # players moved to other seats
    for d in log:
        assert (d.context_seat, d.context_names[d.context_seat]) == (d.seat, d.own), d
    after = [d for d in log if d.first_after_move]
    assert len(after) >= 3
    for d in after:  # told the new table's names, as its first hand there has them
        assert d.context_names == d.names, d


def test_the_agent_plays_on_after_a_move_to_another_table() -> None:
    """The agent's modeller keeps its seat from ``start``: told a stale seat after a move,
    it found no hand it was dealt into and every decision was a fault (checked or folded)."""
    config = _moved_field([{"name": f"agent{i}", "bot": "heuristic"} for i in range(4)]
                          + [{"name": f"wild{i}", "bot": "random"} for i in range(4)])
    result = play_tournament(config, 0, keep_hands=True)
    tables: dict[str, set[int]] = {}
    for hand in result.hands:
        for name, dealt in zip(hand.history.names, hand.history.dealt_in, strict=True):
            if dealt:
                tables.setdefault(name, set()).add(hand.table)
    assert any(len(tables[f"agent{i}"]) > 1 for i in range(4))  # an agent was moved
    assert result.finished and result.faults == 0


def test_a_moved_agent_keeps_its_trace_and_learning_and_takes_its_new_seat(
        tmp_path: Path) -> None:
    from agent.heuristic.bot import HeuristicAgent

    game = GameConfig(blinds=(10, 20), stack=1500, reset_stacks=False)
    agent = HeuristicAgent(trace=True)
    agent.start(BotContext(1, ("a", "me", "b"), game, 3, 1, tmp_path))
    tracer, counts = agent._tracer, agent.modeller.action_counts
    agent.start(BotContext(2, ("c", "d", "me"), game, 3, 1, tmp_path, moved=True))
    assert agent._tracer is tracer and agent.modeller.action_counts is counts
    assert agent.context is not None and agent.context.seat == 2
    assert agent.modeller._context is not None and agent.modeller._context.names[2] == "me"
    agent.close()


def test_a_multi_table_field_plays_down_to_one_table_with_chips_conserved() -> None:
    entrants = [{"name": f"b{i}", "bot": "random"} for i in range(14)]
    config = parse_sng(_config(entrants=entrants, table_size=6, payouts=[50, 30, 20],
                               starting_stack=200))
    f = Freezeout(config, 1, keep_trace=True)
    assert [players(t.seats) for t in f.tables] == [5, 5, 4]  # never 6, 6, 2
    assert [e for t in f.tables for e in t.seats if e is not None] == list(range(14))
    assert [players(t.seats) for t in Freezeout(config, 1, 3).tables] == [5, 5, 4]
    result = f.play()
    assert result.finished and sum(result.places) == pytest.approx(14 * 15 / 2)
    assert all(sum(chips) == 14 * 200 for chips in result.trace)
    assert sum(result.prizes) == pytest.approx(14 * 100.0)
    assert sorted(p for p in result.places if float(p).is_integer())[0] == 1.0


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 7), st.integers(0, 10_000))
def test_chips_are_conserved_and_every_place_is_given(n: int, tournament: int) -> None:
    config = parse_sng(_config(entrants=BASELINES[:n] if n <= 6 else
                               [*BASELINES, {"name": "extra", "bot": "call"}],
                               payouts=[100]))
    result = play_tournament(config, tournament, keep_trace=True)
    assert all(sum(chips) == n * 300 for chips in result.trace)
    assert sorted(result.places)[0] == 1.0 and sum(result.places) == pytest.approx(
        n * (n + 1) / 2)
    assert sum(result.prizes) == pytest.approx(n * 100.0)


def test_a_duplicate_rotation_replays_the_cards_per_seat() -> None:
    config = parse_sng(_config(duplicate=True))
    a = play_tournament(config, 2, 0, keep_hands=True)
    b = play_tournament(config, 2, 1, keep_hands=True)
    first_a, first_b = a.hands[0].history, b.hands[0].history
    assert first_a.holes == first_b.holes  # the same cards per seat ...
    assert first_b.names == (first_a.names[-1], *first_a.names[:-1])  # ... players moved on


# --- the config's refusals and the command ------------------------------------------------------


@pytest.mark.parametrize("edit, message", [
    ({"schedule": []}, "schedule: expected at least one level"),
    ({"schedule": [{"hands": 5, "blinds": [20, 40]}, {"hands": 5, "blinds": [10, 20]}]},
     "schedule: expected every level to rise over the one before"),
    ({"schedule": [{"hands": 5, "blinds": [10, 20]}, {"hands": 5, "blinds": [10, 20]}]},
     "schedule: expected every level to rise"),
    ({"duplicate": True, "tournaments": 6},
     "tournaments: expected a multiple of the 4 seat rotations"),
    ({"payouts": [60, 30]}, "payouts: expected percentages summing to 100, got 90"),
    ({"payouts": [40, 30, 20, 5, 5]}, "payouts: expected at most 4 places paid"),
    ({"starting_stack": 20}, "starting_stack: expected more chips than the forced bets"),
    ({"schedule": [{"hands": 5, "blinds": [10, 20], "ante": -1}]},
     "schedule[0].ante: expected >= 0, got -1"),
    ({"entrants": [{"name": "a", "bot": "nosuchbot"}, {"name": "b", "bot": "call"}]},
     "unknown bot 'nosuchbot'"),
])
def test_bad_input_is_one_line_naming_the_key_and_nothing_is_written(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], edit: dict[str, Any],
        message: str) -> None:
    out = tmp_path / "out"
    data = _config(output={"dir": str(out)}, **edit)
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps(data))
    assert holdem(["sng", str(path)]) == 2
    err = capfd.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert not out.exists()


def test_holdem_sng_writes_results_and_resumes(tmp_path: Path,
                                               capfd: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    data = _config(output={"dir": str(out), "hand_histories": True}, duplicate=True,
                   tournaments=8, workers=2)
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps(data))
    assert holdem(["sng", str(path), "--quiet"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["tournaments"] == 8 and summary["units"] == 2
    for bot in summary["bots"].values():
        assert sum(p["mean"] for p in bot["places"]) == pytest.approx(1.0)
        low, high = bot["roi"]["ci95"]
        assert low <= bot["roi"]["mean"] <= high
    assert set(summary["duplicate_variance_reduction"]) == {str(e["name"]) for e in BASELINES[:4]}
    assert (out / "places.png").stat().st_size and (out / "stacks.png").stat().st_size
    hands = loads_all((out / "hands.phhs").read_text())
    assert len(hands) == summary["hands"]
    assert all(list(replay(h).finishing_stacks) == h.finishing_stacks for h in hands)
    assert {h.extra["_level"] for h in hands} <= {1, 2, 3}
    # a second run refuses; --resume with nothing left keeps the same figures
    assert holdem(["sng", str(path), "--quiet"]) == 2
    assert "--resume continues it" in capfd.readouterr().err
    rows = (out / "tournaments.jsonl").read_text().splitlines()
    (out / "tournaments.jsonl").write_text("\n".join(rows[:5]) + "\n")
    assert holdem(["sng", str(path), "--quiet", "--resume"]) == 0
    again = json.loads((out / "summary.json").read_text())
    assert again["bots"] == summary["bots"] and again["played_this_session"] == 3
    assert len(loads_all((out / "hands.phhs").read_text())) == summary["hands"]


def test_set_and_tournaments_override_the_file_and_resume_needs_the_same(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps(_config(output={"dir": str(out)}, tournaments=40)))
    sets = ["--set", "seed=8", "--set", "entrants.1.params.fold=0.3", "--set",
            "schedule.2.ante=20", "--set", "output.plots=false"]
    assert holdem(["sng", str(path), "--quiet", "--tournaments", "3", *sets]) == 0
    summary = json.loads((out / "summary.json").read_text())
    played = json.loads((out / "sng.json").read_text())
    assert summary["tournaments"] == 3 and played["seed"] == 8
    assert played["entrants"][1]["params"]["fold"] == 0.3 and played["schedule"][2]["ante"] == 20
    assert not (out / "places.png").exists()
    # the same tournaments as a file that says so
    same = tmp_path / "same.yaml"
    data = _config(output={"dir": str(tmp_path / "same"), "plots": False}, tournaments=3,
                   seed=8)
    data["entrants"][1] = {**data["entrants"][1], "params": {
        **data["entrants"][1]["params"], "fold": 0.3}}
    data["schedule"][2] = {**data["schedule"][2], "ante": 20}
    same.write_text(json.dumps(data))
    assert holdem(["sng", str(same), "--quiet"]) == 0
    assert json.loads((tmp_path / "same" / "summary.json").read_text())["bots"] == (
        summary["bots"])
    capfd.readouterr()
    # --resume with other overrides is refused naming the key; with the same it plays more
    assert holdem(["sng", str(path), "--quiet", "--resume", "--tournaments", "4",
                   *sets[:-4]]) == 2
    err = capfd.readouterr().err
    assert "schedule.2.ante: was " in err and err.count("\n") == 1, err
    assert holdem(["sng", str(path), "--quiet", "--resume", "--tournaments", "4", *sets]) == 0
    assert json.loads((out / "summary.json").read_text())["tournaments"] == 4


@pytest.mark.parametrize("options, message", [
    (["--set", "tournaments=0"], "c.yaml (with --set): tournaments: expected greater than 0"),
    (["--tournaments", "-1"], "c.yaml (with --set): tournaments: expected greater than 0"),
    (["--set", "sede=2"], "sede: unknown key (did you mean 'seed'?)"),
    (["--set", "payouts=[60, 30]"], "payouts: expected percentages summing to 100, got 90"),
    (["--set", "schedule.0.ante=-1"], "schedule[0].ante: expected >= 0, got -1"),
    (["--set", "schedule.5.hands=3"], "--set schedule.5.hands: '5': expected an item number"),
    (["--set", "seed.x=1"], "--set seed.x: seed holds int, not keys"),
    (["--set", "x"], "--set: expected KEY=VALUE, got 'x'"),
    (["--tournaments", "4", "--set", "tournaments=4"], "--tournaments: given twice"),
    (["--set", "entrants.0.bot=nosuch"], "unknown bot 'nosuch'"),
])
def test_bad_overrides_are_one_line_and_nothing_is_written(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], options: list[str],
        message: str) -> None:
    out = tmp_path / "out"
    path = tmp_path / "c.yaml"
    path.write_text(json.dumps(_config(output={"dir": str(out)})))
    assert holdem(["sng", str(path), *options]) == 2
    err = capfd.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert not out.exists()


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parents[1] / "configs" /
                                         "sng").glob("*.yaml")), ids=lambda p: p.name)
def test_the_shipped_sit_and_go_configs_are_valid(path: Path) -> None:
    config = load_sng(path)
    check_entrants(config)
    levels = config.schedule
    assert config.starting_stack == 1500 and config.payouts == [65, 35]
    assert [lv.blinds for lv in levels[:3]] == [[10, 20], [20, 40], [40, 80]]
    assert all(lv.hands == 10 for lv in levels) and levels[2].ante == 0 < levels[3].ante


def test_every_hand_of_a_tournament_replays_in_pokerkit_and_here() -> None:
    """PHH of tournament hands (short stacks posting all-in for less, antes, dead small
    blinds written as one blind) reads in pokerkit to the same finishing stacks."""
    config = parse_sng(_config(entrants=BASELINES, starting_stack=400))
    dead = 0
    for t in range(6):
        for hand in play_tournament(config, t, keep_hands=True).hands:
            history = hand.history
            dead += len(history.game.blinds) == 1
            *_, state = iter(pokerkit.HandHistory.loads(dumps(history)))
            assert not state.status
            order = table_order(history.dealt_in, history.button)  # PHH's p1..pN
            expected = [history.finishing_stacks[s] for s in order]
            assert list(state.stacks) == expected
            assert list(replay(loads_all(dumps(history))[0]).finishing_stacks) == expected
    assert dead > 0  # the dead small blind was played and written

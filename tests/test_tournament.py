"""Tournaments: duplicate cancels exactly, results never depend on workers, faults, resume."""

import json
from pathlib import Path

import numpy as np
import pytest

from simulator.arena.config import ConfigError, parse_config
from simulator.arena.results import load_hands
from simulator.arena.stats import regression_coefficient
from simulator.arena.tournament import (
    BlockSeeds,
    TournamentError,
    first_button,
    permutations,
    play_block,
    run_tournament,
)
from simulator.core.actions import Action
from simulator.core.seeds import deck_stream
from simulator.interop import phh
from simulator.play.baseline import CallBot, RaiseBot, RandomBot
from simulator.play.match import play_match
from simulator.play.protocol import BaseBot

AA = {48, 49, 50, 51}


class AcesBreakBot(BaseBot):
    """Calls, but raises an exception (or returns garbage) when dealt two aces."""

    def __init__(self, garbage: bool = False) -> None:
        self.garbage = garbage

    def act(self, observation):  # noqa: ANN001, ANN201
        if set(observation.hole_cards) <= AA:
            if self.garbage:
                return "all in!"
            raise RuntimeError("aces make me nervous")
        return Action.call()


class AcesHangBot(BaseBot):
    """Calls, but thinks forever when dealt two aces."""

    def act(self, observation):  # noqa: ANN001, ANN201
        while set(observation.hole_cards) <= AA:
            pass
        return Action.call()


def _config(tmp_path: Path, **extra: object) -> dict:
    data = {"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
            "seats": [{"name": "r", "bot": "random", "params": {"fold": 0.2, "call": 0.5,
                                                                 "raise": 0.3}},
                      {"name": "c", "bot": "call"}, {"name": "x", "bot": "raise"}],
            "hands": 120, "seed": 5, "block_size": 40, "luck_samples": 50,
            "output": {"dir": str(tmp_path / "out"), "plots": False}}
    data.update(extra)
    return data


def test_permutation_sets_follow_the_design() -> None:
    assert permutations(2, True) == [(0, 1), (1, 0)]
    assert sorted(permutations(3, True)) == sorted(
        [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)])
    rotations = permutations(6, True)
    assert len(rotations) == 6 and len(set(rotations)) == 6
    # every player sits in every seat exactly once
    assert all(sorted(r[s] for r in rotations) == list(range(6)) for s in range(6))
    assert BlockSeeds(1).match(2) != BlockSeeds(2).match(1)


@pytest.mark.parametrize("bot", ["call", "raise", "simulator.play.baseline:RaiseBot"])
def test_duplicate_heads_up_between_copies_of_a_deterministic_bot_is_zero_per_block(
        tmp_path: Path, bot: str) -> None:
    cfg = parse_config(_config(tmp_path, seats=[{"name": "a", "bot": bot},
                                                {"name": "b", "bot": bot}],
                               duplicate=True, hands=90, block_size=30))
    summary = run_tournament(cfg, inline=True)
    blocks = [json.loads(x) for x in (tmp_path / "out" / "blocks.jsonl").read_text().split()]
    assert len(blocks) == 3
    for b in blocks:
        assert b["players"]["a"]["net"] == 0 and b["players"]["b"]["net"] == 0
        assert b["players"]["a"]["hands"] == 60  # twice the deals
    assert summary.players["a"]["mean"] == 0.0 and summary.players["a"]["hands"] == 180
    # not a vacuous zero: single hands do move chips
    assert np.abs(load_hands(tmp_path / "out").net).sum() > 0


def test_a_block_replays_the_same_cards_and_choices(tmp_path: Path) -> None:
    cfg = parse_config(_config(tmp_path, duplicate=True))
    a, b = play_block(cfg, 1), play_block(cfg, 1)
    assert a.error is None and a.record.rows == 6 * 40
    assert np.array_equal(a.record.net, b.record.net)
    assert np.array_equal(a.record.luck, b.record.luck)
    other = play_block(cfg, 2)
    assert not np.array_equal(a.record.net, other.record.net)
    # luck corrections cancel over the players of every hand
    assert np.allclose(a.record.luck.sum(axis=1), 0.0)
    assert np.array_equal(a.record.net.sum(axis=1), np.zeros(a.record.rows))


def test_duplicate_rotations_give_each_player_each_seat(tmp_path: Path) -> None:
    cfg = parse_config(_config(tmp_path, duplicate=True))
    rec = play_block(cfg, 0).record
    for p in range(3):
        seats = {int(rec.seat[rec.perm == k][0, p]) for k in range(6)}
        assert seats == {0, 1, 2}


@pytest.mark.parametrize("duplicate", [False, True])
def test_inline_one_and_two_workers_write_identical_files(tmp_path: Path,
                                                           duplicate: bool) -> None:
    output = {"plots": False, "hand_histories": True}
    runs = {}
    for label, workers, inline in (("inline", 1, True), ("1", 1, False), ("2", 2, False)):
        out = tmp_path / label / "out"
        runs[label] = run_tournament(parse_config(_config(
            tmp_path / label, duplicate=duplicate, workers=workers,
            output={**output, "dir": str(out)})), inline=inline)
    for name in ("summary.json", "hands.csv", "blocks.jsonl", "hands.phhs"):
        texts = {(tmp_path / label / "out" / name).read_bytes() for label in runs}
        assert len(texts) == 1, name
    assert runs["inline"].data == runs["2"].data and runs["2"].blocks == 3
    assert runs["1"].players["r"]["hands"] == 120 * (6 if duplicate else 1)


def test_summary_core_keys_and_units(tmp_path: Path) -> None:
    summary = run_tournament(parse_config(_config(tmp_path, duplicate=True)), inline=True)
    data = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert data == summary.data
    assert (data["unit"], data["deals"], data["blocks"]) == ("small_bets", 120, 3)
    assert data["seed"] == 5 and data["version"] and data["config"]["hands"] == 120
    for stats in data["players"].values():
        assert {"hands", "mean", "stderr", "ci95", "luck_adjusted", "positions"} <= set(stats)
        assert stats["ci95"][0] < stats["mean"] < stats["ci95"][1]
        assert set(stats["positions"]) == {"SB", "BB", "BTN"}
        assert sum(p["hands"] for p in stats["positions"].values()) == stats["hands"]
    # the means are the chips in hands.csv over the small bet
    table = load_hands(tmp_path / "out")
    assert data["players"]["c"]["mean"] == pytest.approx(table.net[:, 1].sum() / 2 / 720)
    # luck-adjusted: each block's luck times the coefficient fitted on the other blocks
    net, luck = (np.array([x[table.block == b, 1].sum() / 2 for b in range(3)])
                 for x in (table.net, table.luck))
    hands = np.full(3, 240)
    adjusted = sum(net[b] - luck[b] * regression_coefficient(
        np.delete(net, b), np.delete(luck, b), np.delete(hands, b)) for b in range(3)) / 720
    assert data["players"]["c"]["luck_adjusted"]["mean"] == pytest.approx(adjusted)


def test_carry_over_stacks_end_blocks_when_one_player_is_left(tmp_path: Path) -> None:
    data = _config(tmp_path, hands=600, block_size=300,
                   seats=[{"name": "c", "bot": "call"}, {"name": "d", "bot": "call"},
                          {"name": "x", "bot": "raise"}])
    data["game"] = {"variant": "nolimit", "blinds": [1, 2], "stack": 40, "reset_stacks": False}
    summary = run_tournament(parse_config(data), inline=True)
    table = load_hands(tmp_path / "out")
    assert summary.deals == len(table.hand) < 600  # 20-bb stacks with a min-raiser bust quickly
    ended = [b for b in (0, 1) if (table.block == b).sum() < 300]
    assert summary.data["early_end_blocks"] == ended != []
    assert (table.seat == -1).any()  # busted players sit out
    for b in (0, 1):
        assert table.net[table.block == b].sum() == 0
        # each block starts again from the starting stacks: everyone is dealt in at hand 0
        assert (table.seat[(table.block == b) & (table.hand == 0)] >= 0).all()


def test_a_bot_fault_under_stop_fails_and_keeps_finished_blocks(tmp_path: Path) -> None:
    seats = [{"name": "nervous", "bot": "test_tournament:AcesBreakBot"},
             {"name": "c", "bot": "call"}]
    folded = run_tournament(parse_config(_config(tmp_path / "fold", seats=seats,
                                                 on_bot_error="fold", hands=400)), inline=True)
    assert folded.data["faults"] > 0 and folded.players["nervous"]["faults"] > 0
    blocks = [json.loads(x) for x in
              (tmp_path / "fold" / "out" / "blocks.jsonl").read_text().split("\n") if x]
    first_bad = min(b["block"] for b in blocks if b["faults"])
    fault = next(b for b in blocks if b["faults"])["faults"][0]
    assert set(fault) == {"hand", "seat", "name", "message", "block", "perm"}
    assert fault["name"] == "nervous" and "aces make me nervous" in fault["message"]
    with pytest.raises(TournamentError, match="nervous.*aces make me nervous"):
        run_tournament(parse_config(_config(tmp_path / "stop", seats=seats, hands=400)),
                       inline=True)
    out = tmp_path / "stop" / "out"
    kept = [json.loads(x)["block"] for x in (out / "blocks.jsonl").read_text().split("\n") if x]
    assert kept == list(range(first_bad))
    assert not (out / "summary.json").exists()


def test_garbage_actions_are_faults_too(tmp_path: Path) -> None:
    seats = [{"name": "g", "bot": "test_tournament:AcesBreakBot", "params": {"garbage": True}},
             {"name": "c", "bot": "call"}]
    summary = run_tournament(parse_config(_config(tmp_path, seats=seats, on_bot_error="fold",
                                                  hands=400)), inline=True)
    assert summary.players["g"]["faults"] > 0 and summary.players["c"]["faults"] == 0


def test_a_hung_bot_is_cut_off_at_bot_timeout_in_worker_processes(tmp_path: Path) -> None:
    seats = [{"name": "h", "bot": "test_tournament:AcesHangBot"}, {"name": "c", "bot": "call"}]
    summary = run_tournament(parse_config(_config(tmp_path, seats=seats, on_bot_error="fold",
                                                  bot_timeout=0.2, hands=400, workers=2)))
    assert summary.players["h"]["faults"] > 0 and summary.players["c"]["faults"] == 0
    blocks = [json.loads(x) for x in (tmp_path / "out" / "blocks.jsonl").read_text().split("\n")
              if x]
    assert any("no answer within 0.2s" in f["message"] for b in blocks for f in b["faults"])


def test_bad_bots_are_refused_before_any_work(tmp_path: Path) -> None:
    for seat, message in [({"name": "z", "bot": "nosuch"}, r"seats\[0\] \(z\): unknown bot"),
                          ({"name": "z", "bot": "call", "params": {"x": 1}}, "bad params")]:
        with pytest.raises(ConfigError, match=message):
            run_tournament(parse_config(_config(tmp_path, seats=[seat, {"name": "c",
                                                                        "bot": "call"}])))
        assert not (tmp_path / "out").exists()


def test_local_and_ray_backends_write_identical_summaries(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    local = run_tournament(parse_config(_config(tmp_path / "l", duplicate=True)))
    ray_run = run_tournament(parse_config(_config(tmp_path / "r", duplicate=True,
                                                  backend="ray", workers=2)))
    assert local.data == ray_run.data
    assert ((tmp_path / "l" / "out" / "summary.json").read_text() ==
        (tmp_path / "r" / "out" / "summary.json").read_text())


def test_hand_histories_hold_every_hand_and_survive_resume(tmp_path: Path) -> None:
    data = _config(tmp_path, duplicate=True, hands=80, block_size=40,
                   output={"dir": str(tmp_path / "out"), "plots": False,
                           "hand_histories": True})
    run_tournament(parse_config(data), inline=True)
    path = tmp_path / "out" / "hands.phhs"
    hands = phh.loads_all(path.read_text())
    table = load_hands(tmp_path / "out")
    assert len(hands) == len(table.hand) == 2 * 6 * 40
    whole = path.read_text()
    # an interrupted second block: its line in blocks.jsonl is gone, its hands half written
    lines = (tmp_path / "out" / "blocks.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "out" / "blocks.jsonl").write_text(lines[0])
    path.write_text(whole[: len(whole) * 3 // 4])
    run_tournament(parse_config(data), resume=True, inline=True)
    assert path.read_text() == whole


def test_no_two_random_streams_of_a_run_start_from_the_same_state(tmp_path: Path) -> None:
    """A regression: once the deck of hand 0 was the stream of player 0's bot."""
    cfg = parse_config(_config(tmp_path, duplicate=True, hands=60, block_size=20))
    seeds = BlockSeeds(cfg.seed)
    first: dict[object, tuple] = {}

    def add(label: tuple, generator: np.random.Generator) -> None:
        state = generator.bit_generator.state["state"]["state"]
        assert state not in first, f"{label} starts where {first[state]} does"
        first[state] = label

    n = len(cfg.seats)
    for b in range(cfg.num_blocks):
        for h in range(cfg.block_deals(b)):
            add(("deck", b, h), deck_stream(seeds.match(b), h))
        for p, _ in enumerate(permutations(n, True)):
            for j in range(n):  # a bot seeds its generator with its seed, as RandomBot does
                add(("bot", b, p, j), np.random.default_rng(seeds.bot(b, p, j)))
            for h in range(cfg.block_deals(b)):
                add(("luck", b, p, h), seeds.luck(b, p, h))
    assert len(first) == 3 * 20 + 3 * 6 * (3 + 20)


def test_play_block_draws_from_the_documented_streams(tmp_path: Path) -> None:
    cfg = parse_config(_config(tmp_path, hands=40, block_size=20))
    seeds = BlockSeeds(cfg.seed)
    record = play_block(cfg, 1).record
    bots = [RandomBot(fold=0.2, call=0.5, raise_=0.3, seed=seeds.bot(1, 0, 0)), CallBot(),
            RaiseBot()]
    results = list(play_match(cfg.game_config(), bots, 20, seeds.match(1),
                              first_button=first_button(cfg, 1)))
    assert record.net.tolist() == [list(r.net) for r in results]
    assert record.button.tolist() == [r.button for r in results]


def test_positions_are_balanced_over_a_run_with_reset_stacks(tmp_path: Path) -> None:
    """Six seats, blocks of 100 deals (not a multiple of 6), a short last block."""
    seats = [{"name": f"p{i}", "bot": "call"} for i in range(6)]
    data = _config(tmp_path, seats=seats, hands=310, block_size=100, luck=False)
    run_tournament(parse_config(data), inline=True)
    table = load_hands(tmp_path / "out")
    position = (table.seat - table.button[:, None] - 1) % 6  # 0 small blind ... 5 button
    counts = np.array([[np.sum(position[:, p] == k) for k in range(6)] for p in range(6)])
    assert counts.sum() == 6 * 310
    assert (counts.max(axis=0) - counts.min(axis=0) <= 1).all(), counts
    # the blocks continue the button: block b starts where b * 100 hands moved it
    starts = [int(table.button[(table.block == b) & (table.hand == 0)][0]) for b in range(4)]
    assert starts == [(5 + 100 * b) % 6 for b in range(4)]

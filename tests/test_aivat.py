"""AIVAT: its action corrections have expectation exactly zero (every branch of a small game
enumerated), the AIVAT mean agrees with the raw mean over many seeds, its interval covers as
the raw one does, and the failures are clear (a value function that raises, act and policy
that disagree, a seat without a policy)."""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from simulator.arena.aivat import AivatRecorder
from simulator.arena.config import parse_config
from simulator.arena.stats import t975
from simulator.arena.summary import summarise
from simulator.arena.tournament import TournamentError, play_block, run_tournament
from simulator.core.actions import Action
from simulator.core.cards import parse_cards
from simulator.core.game import GameConfig
from simulator.core.state import HandState
from simulator.play.baseline import RandomBot
from simulator.play.protocol import Bot, RaiseRange
from tests.policy_bots import DirectAsker, ThresholdBot

# --- exact: every branch of a small game ----------------------------------------------------


def _walk(state: HandState, prob: float, recorder: AivatRecorder, asker: DirectAsker,
          bots: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """``(E[net], E[corrections])`` over every branch of both bots' policies from ``state``
    (each size of a raise range a branch of its own), the recorder's own code adding up the
    corrections along each path."""
    if state.finished:
        net = np.array(state.finishing_stacks, dtype=float) - np.array(state.starting_stacks)
        return prob * net, prob * recorder._terms
    seat = state.actor
    assert seat is not None
    recorder.before(seat, state, asker)  # type: ignore[arg-type]
    pending, terms = recorder._pending, recorder._terms.copy()
    assert pending is not None
    hole = state.holes[seat]
    assert hole is not None
    policy = bots[seat].policy(state.observation(seat), [hole])
    net = np.zeros(state.num_seats)
    corrections = np.zeros(state.num_seats)
    for entry, p in zip(policy.actions, policy.probabilities[0], strict=True):
        if p == 0:
            continue
        sizes: list[int | None] = list(range(entry.low, entry.high + 1)) \
            if isinstance(entry, RaiseRange) else [None]
        for size in sizes:
            action = Action.raise_to(size) if size is not None else entry
            assert isinstance(action, Action)
            share = p / len(sizes)
            child = copy.deepcopy(state)
            child.apply(action)
            recorder._pending, recorder._terms = pending, terms.copy()
            recorder.after(seat, child, child.history[-1], False, asker)  # type: ignore[arg-type]
            n, c = _walk(child, prob * share, recorder, asker, bots)
            net += n
            corrections += c
    return net, corrections


@pytest.mark.parametrize(("game", "bots"), [
    (GameConfig(variant="nolimit", blinds=(1, 2), stack=7),
     [RandomBot(fold=0.2, call=0.5, raise_=0.3), RandomBot(fold=0.3, call=0.3, raise_=0.4)]),
    (GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=40, cap=2),
     [ThresholdBot(call_at=0.45, bet_at=0.55, spread=0.3),
      ThresholdBot(call_at=0.5, bet_at=0.6, spread=0.4)]),
], ids=["nolimit-raise-ranges", "limit-threshold-bots"])
def test_corrections_have_expectation_exactly_zero(game: GameConfig, bots: list[Bot]) -> None:
    """Fixed cards, every branch of both bots' policies enumerated: the expected correction
    of each seat is 0 to rounding, so the AIVAT estimate's expectation is the raw one's
    exactly; and the corrections are not zero everywhere (they do something)."""
    asker = DirectAsker(bots)
    for holes, board in [(("AhKd", "7c7d"), "Kh9d5c2s7h"), (("QsJs", "Ac2d"), "Ts9s3c4d8h")]:
        cards = [parse_cards(h) for h in holes]
        state = HandState(game, [game.stack] * 2, button=1,
                          holes=[(c[0], c[1]) for c in cards], board=parse_cards(board))
        recorder = AivatRecorder(2)
        net, corrections = _walk(state, 1.0, recorder, asker, bots)
        assert corrections == pytest.approx(np.zeros(2), abs=1e-9)
        assert abs(net[0]) > 0.1  # a real game: the seats' results differ
        # a single path's corrections are not zero: the estimator changes the figures
        seat = state.actor
        assert seat is not None
        first = bots[seat].policy(state.observation(seat), [state.holes[seat]])  # type: ignore[attr-defined]
        moved = []
        for entry in first.actions:
            probe, child = AivatRecorder(2), copy.deepcopy(state)
            probe.before(seat, child, asker)  # type: ignore[arg-type]
            child.apply(Action.raise_to(entry.low) if isinstance(entry, RaiseRange) else entry)
            probe.after(seat, child, child.history[-1], False, asker)  # type: ignore[arg-type]
            moved.append(np.abs(probe.take()).sum() > 0)
        assert any(moved)


# --- statistical: many seeds ----------------------------------------------------------------


def _pair(seed: int, blocks: int, deals: int, seats: list[dict[str, Any]],
          duplicate: bool = False) -> tuple[Any, Any]:
    config = parse_config({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2, "stack": 2000},
        "seats": seats, "hands": blocks * deals, "block_size": deals, "seed": seed,
        "duplicate": duplicate, "luck_samples": 40, "output": {"dir": "unused"}})
    lines = []
    for b in range(blocks):
        record = play_block(config, b).record
        assert record is not None
        lines.append(record.totals(config.names, len(seats)))
    summary = summarise(lines, config.names, unit="small_bets", unit_chips=2, big_blind=2)
    return summary.player(seats[0]["name"]), summary


RANDOM_VS_CALL: list[dict[str, Any]] = [{"name": "r", "bot": "random",
                   "params": {"fold": 0.15, "call": 0.5, "raise": 0.35}},
                  {"name": "c", "bot": "call"}]
TWINS: list[dict[str, Any]] = [
    {"name": n, "bot": "random", "params": {"fold": 0.15, "call": 0.5, "raise": 0.35}}
    for n in "ab"]


def _agreement(reps: int) -> None:
    diffs = []
    for seed in range(reps):
        player, _ = _pair(seed, 4, 10, RANDOM_VS_CALL)
        assert player.aivat is not None and player.aivat.policy
        diffs.append(player.aivat.stat.mean - player.raw.mean)
    d = np.array(diffs)
    half = t975(reps - 1) * d.std(ddof=1) / math.sqrt(reps)
    assert abs(d.mean()) <= half, (d.mean(), half)
    assert d.std() > 0  # AIVAT changes the figures


def test_aivat_mean_agrees_with_the_raw_mean() -> None:
    """``random`` against ``call`` over 40 seeds of 40 deals: the paired difference of the
    AIVAT and raw means has a 95% interval that covers 0 (the slow test: 400 seeds)."""
    _agreement(40)


@pytest.mark.slow
def test_aivat_mean_agrees_with_the_raw_mean_thoroughly() -> None:
    _agreement(400)


def _coverage(reps: int, blocks: int, deals: int) -> tuple[float, float, float]:
    raw_in = aivat_in = factor = 0.0
    for seed in range(reps):
        player, _ = _pair(1000 + seed, blocks, deals, TWINS)
        assert player.aivat is not None and player.aivat.stat.ci95 is not None
        low, high = player.raw.ci95 or (0.0, 0.0)
        raw_in += low <= 0 <= high
        low, high = player.aivat.stat.ci95
        aivat_in += low <= 0 <= high
        factor += (player.aivat.variance_reduction or 0.0) / reps
    return raw_in / reps, aivat_in / reps, factor


def test_aivat_intervals_cover_zero_between_twins() -> None:
    """Two copies of one bot (true difference 0), matches of 8 blocks of 10 deals: the
    AIVAT interval covers 0 about as often as the raw one (30 matches: a loose band; the slow test
    plays 400 matches and holds both to 0.92-0.98)."""
    raw, aivat, factor = _coverage(30, 8, 10)
    assert 0.85 <= raw <= 1.0 and 0.85 <= aivat <= 1.0
    assert factor > 1.2  # and it narrows the interval


@pytest.mark.slow
def test_aivat_intervals_cover_zero_between_twins_thoroughly() -> None:
    raw, aivat, factor = _coverage(400, 8, 10)
    assert 0.92 <= raw <= 0.98 and 0.92 <= aivat <= 0.98, (raw, aivat)
    assert factor > 1.2


# --- runs and failures ----------------------------------------------------------------------


def _config(tmp_path: Path, seats: list[dict[str, Any]], **extra: Any) -> Any:
    return parse_config({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2, "stack": 2000},
        "seats": seats, "hands": 30, "block_size": 10, "seed": 4, "workers": 1,
        "luck_samples": 40, "output": {"dir": str(tmp_path / "out"), "plots": False},
        **extra})


def test_multi_seat_duplicate_run_with_a_seat_without_policy(tmp_path: Path) -> None:
    """Three seats, duplicate (six seatings), one bot without a policy: every player has AIVAT
    figures, the bot without one is flagged and the table says so; the corrections are
    zero-sum across the players, block by block."""
    seats = [{"name": "r", "bot": "random"}, {"name": "c", "bot": "call"},
             {"name": "q", "bot": "tests.policy_bots:NoPolicyBot"}]
    summary = run_tournament(_config(tmp_path, seats, duplicate=True), progress=False,
                             inline=True)
    players = summary.players
    assert {n: players[n]["aivat"]["policy"] for n in "rcq"} == {"r": True, "c": True,
                                                                 "q": False}
    assert "q states no policy" in summary.table()
    lines = [line for line in (tmp_path / "out" / "blocks.jsonl").read_text().splitlines()]
    import json

    for line in lines:
        block = json.loads(line)
        assert sum(p["aivat"] for p in block["players"].values()) == pytest.approx(0, abs=1e-6)
        assert any(abs(p["aivat"]) > 0 for p in block["players"].values())


def test_aivat_off_and_luck_off_measure_nothing(tmp_path: Path) -> None:
    for extra in ({"aivat": "off"}, {"luck": False}):
        summary = run_tournament(_config(tmp_path, RANDOM_VS_CALL, **extra), progress=False,
                                 inline=True, force=True)
        assert "aivat" not in summary.players["r"]


def test_a_value_function_that_raises_stops_the_run_with_a_clear_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from simulator.arena import values

    def broken(self: Any, contributions: Any, active: Any) -> list[float]:
        raise ArithmeticError("no value here")

    monkeypatch.setattr(values.HandValues, "value_list", broken)  # what AIVAT asks
    with pytest.raises(TournamentError, match="AIVAT: the value function failed at hand 0, "
                                              "seat .'s preflop decision.*no value here"):
        run_tournament(_config(tmp_path, RANDOM_VS_CALL), progress=False, inline=True)


def test_act_that_disagrees_with_its_policy_is_a_fault(tmp_path: Path) -> None:
    seats = [{"name": "liar", "bot": "tests.policy_bots:LiarBot"}, {"name": "c", "bot": "call"}]
    with pytest.raises(TournamentError, match="bot 'liar'.*probability 0 \\(at hand [0-9]+, "
                                              "seat [01]'s [a-z]+ decision after '"):
        run_tournament(_config(tmp_path, seats), progress=False, inline=True)

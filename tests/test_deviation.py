"""The switch from the equilibrium to exploiting play (``agent.heuristic.deviation``), and the
agent that
uses it (``equilibrium.play``)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from policy_support import at_decision, live_holdings, recorded_decisions

from agent.heuristic.bot import HeuristicAgent
from agent.heuristic.deviation import (
    Decided,
    Opponent,
    Portfolio,
    PortfolioParams,
    Reference,
    ReferenceFileError,
    decisions,
    log_evidence,
    losing,
)
from agent.heuristic.traces import DecisionRecord, parse_record
from agent.rivals.cfr import CfrBot
from simulator import GameConfig
from simulator.arena.config import parse_config
from simulator.arena.tournament import run_tournament
from simulator.cli import main as holdem
from simulator.core.actions import ActionKind, ActionRecord
from simulator.core.betting import Betting, Move
from simulator.core.streets import Street
from simulator.play.baseline import CallBot

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=400)
PARAMS = PortfolioParams(play=True, threshold=math.log(20), concentration=3.0,
                         revert_hands=50, revert_z=2.0)
F, C, R = ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE


def moves(*actions: tuple[int, Street, ActionKind]) -> tuple[Move, ...]:
    """The betting record of a heads-up limit hand (seat 1 on the button) after ``actions``,
    each with its real raise-to amount and chips."""
    betting = Betting.start(LIMIT, button=1, stacks=(400, 400))
    for seat, street, kind in actions:
        betting = betting.deal(street)
        rnd = betting.current
        size = LIMIT.bet_size(street)
        top = rnd.top + size if kind is R else rnd.top
        added = 0 if kind is F else top - rnd.bets[seat]
        betting = betting.apply(ActionRecord(seat, street, kind, top if kind is R else None,
                                             added))
    return betting.moves


def test_keys_follow_the_betting() -> None:
    """Button (seat 1) raises, the big blind re-raises, the button calls; on the flop the big
    blind checks, the button bets and the big blind folds."""
    hand = moves((1, Street.PREFLOP, R), (0, Street.PREFLOP, R), (1, Street.PREFLOP, C),
                 (0, Street.FLOP, C), (1, Street.FLOP, R), (0, Street.FLOP, F))
    assert decisions(hand, button=1) == [
        Decided(1, (0, True, True, 1), 2), Decided(0, (0, False, True, 2), 2),
        Decided(1, (0, True, True, 3), 1), Decided(0, (1, False, False, 0), 1),
        Decided(1, (1, True, False, 0), 2), Decided(0, (1, False, True, 1), 0)]


def polya(sequence: list[int], p: tuple[float, ...], concentration: float) -> float:
    """The log probability of a sequence of columns under the Dirichlet mixture, one
    predictive draw at a time (an urn), less its log probability under ``p``."""
    seen = [0.0] * len(p)
    total = 0.0
    for i, column in enumerate(sequence):
        total += math.log((concentration * p[column] + seen[column]) / (concentration + i))
        total -= math.log(p[column])
        seen[column] += 1
    return total


def test_the_evidence_is_the_urns_bayes_factor() -> None:
    rng = np.random.default_rng(3)
    for _ in range(50):
        p = tuple(rng.dirichlet([1.0, 1.0, 1.0]))
        sequence = list(rng.choice(3, size=int(rng.integers(1, 60)), p=rng.dirichlet([1, 1, 1])))
        counts = {(1, True, True, 1): np.bincount(sequence, minlength=3).astype(float)}
        got = log_evidence(counts, Reference({(1, True, True, 1): p}), 2.5)
        assert got == pytest.approx(polya(sequence, p, 2.5), abs=1e-9)


def test_unknown_keys_and_columns_the_reference_never_takes_say_nothing() -> None:
    ref = Reference({(1, False, False, 0): (0.0, 0.6, 0.4)})
    counts = {(2, True, True, 1): np.array([5.0, 0.0, 0.0]),
              (1, False, False, 0): np.array([4.0, 0.0, 0.0])}
    assert log_evidence(counts, ref, 3.0) == 0.0


def simulated_crossing(reference: Reference, play: dict, decisions_n: int, seed: int) -> int | None:
    """An opponent drawing its columns from ``play`` at keys visited as in the reference:
    the decision at which the evidence first passes the threshold (None if never)."""
    rng = np.random.default_rng(seed)
    keys = list(reference.probabilities)
    counts: dict = {}
    for n in range(1, decisions_n + 1):
        key = keys[int(rng.integers(len(keys)))]
        column = int(rng.choice(3, p=play.get(key, reference.probabilities[key])))
        counts.setdefault(key, np.zeros(3))[column] += 1
        if log_evidence(counts, reference, PARAMS.concentration) >= PARAMS.threshold:
            return n
    return None


def test_the_equilibrium_itself_rarely_passes_and_a_caller_soon_does() -> None:
    """Under the reference the factor is a martingale, so it passes 20 for at most about one
    in 20 such players over any time; a player who always checks or calls is found within
    a few tens of its decisions."""
    reference = Reference.load()
    crossed = [simulated_crossing(reference, {}, 300, seed) for seed in range(200)]
    assert sum(c is not None for c in crossed) <= 16  # 5% of 200, and a margin for noise
    caller = {key: (0.0, 1.0, 0.0) for key in reference.probabilities}
    found = [simulated_crossing(reference, caller, 300, seed) for seed in range(20)]
    assert all(f is not None and f <= 60 for f in found)


def test_the_portfolio_switches_and_reverts_a_losing_run() -> None:
    reference = Reference.load()
    limp_check = moves((1, Street.PREFLOP, C), (0, Street.PREFLOP, C), (0, Street.FLOP, C),
                       (1, Street.FLOP, C))
    portfolio = Portfolio(reference, PARAMS, seat=0)
    hands = 0
    while portfolio.mode("limper") == "equilibrium":
        portfolio.learn("limper", 1, "equilibrium", limp_check, 1, 0.0)
        hands += 1
        assert hands < 40
    assert portfolio.mode("other") == "equilibrium"
    rng = np.random.default_rng(0)
    for _ in range(PARAMS.revert_hands - 1):
        portfolio.learn("limper", 1, "exploit", limp_check, 1, float(rng.normal(-3.0, 4.0)))
    assert portfolio.mode("limper") == "exploit"  # not before revert_hands hands
    portfolio.learn("limper", 1, "exploit", limp_check, 1, -3.0)
    assert portfolio.mode("limper") == "equilibrium" and portfolio.opponents["limper"].settled
    portfolio.learn("limper", 1, "equilibrium", limp_check, 1, 0.0)
    assert portfolio.mode("limper") == "equilibrium"  # settled: learns no more
    winner = Portfolio(reference, PARAMS, seat=0)
    winner.opponents["w"] = Opponent(mode="exploit")
    for _ in range(3 * PARAMS.revert_hands):
        winner.learn("w", 1, "exploit", limp_check, 1, float(rng.normal(0.5, 4.0)))
    assert winner.mode("w") == "exploit"


def test_losing_is_the_mean_plus_z_standard_errors() -> None:
    rng = np.random.default_rng(1)
    for _ in range(30):
        x = rng.normal(rng.normal(0, 1), 3.0, size=int(rng.integers(2, 100)))
        z = float(rng.uniform(0, 3))
        expected = x.mean() + z * x.std(ddof=1) / math.sqrt(len(x)) < 0
        assert losing(len(x), float(x.sum()), float((x * x).sum()), z) == expected


def test_a_bad_reference_file_is_refused_naming_it(tmp_path: Path) -> None:
    for text in ["{", '{"counts": [[0, true, true, 1, [1, 2]]]}',
                 '{"counts": [[0, true, true, 1, [0, 0, 0]]]}', '{"rows": []}']:
        path = tmp_path / "ref.json"
        path.write_text(text)
        with pytest.raises(ReferenceFileError, match="ref.json"):
            Reference.load(path)
    big = tmp_path / "big.json"
    big.write_text(" " * (2 << 20))
    with pytest.raises(ReferenceFileError, match="bytes"):
        Reference.load(big)


def player(seed: int) -> HeuristicAgent:
    return HeuristicAgent(seed=seed, **{"equilibrium.play": True})


def test_the_agent_plays_the_equilibrium_until_the_caller_shows_itself() -> None:
    """Its rows are the cfr bot's while in the equilibrium, and the default agent's (told the
    same events) once the caller is found out."""
    rec = recorded_decisions(player, [CallBot()], LIMIT, 40, seed=4)
    cfr = CfrBot()
    modes = []
    for i in range(0, len(rec.decisions), 3):
        bot, obs = at_decision(player, rec, i)
        assert bot.equilibrium is not None
        holdings = live_holdings(obs)
        got = bot.policy(obs, holdings)
        if bot.equilibrium.playing:
            want = cfr.policy(obs, holdings)
        else:
            want = at_decision(lambda s: HeuristicAgent(seed=s), rec, i)[0].policy(obs, holdings)
        assert got.actions == want.actions
        np.testing.assert_array_equal(got.probabilities, want.probabilities)
        modes.append(bot.equilibrium.portfolio.now)
    assert modes[0] == "equilibrium" and modes[-1] == "exploit"


def test_a_frozen_agent_stays_in_the_equilibrium() -> None:
    """freeze(): nothing learned, so even a caller is never found out."""
    def frozen(seed: int) -> HeuristicAgent:
        bot = player(seed)
        bot.freeze()
        return bot

    rec = recorded_decisions(frozen, [CallBot()], LIMIT, 40, seed=4)
    assert rec.bot.equilibrium is not None
    assert rec.bot.equilibrium.playing and not rec.bot.equilibrium.portfolio.opponents


def test_other_games_never_use_it() -> None:
    for game in [GameConfig(variant="nolimit", blinds=(1, 2), stack=200),
                 GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=400, cap=3)]:
        rec = recorded_decisions(player, [CallBot()], game, 2, seed=1)
        assert rec.bot.equilibrium is None


def test_a_traced_run_explains_the_equilibrium_and_then_the_pipeline(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    config = parse_config({"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
                           "seats": [{"name": "hero", "bot": "heuristic",
                                      "params": {"trace": True}},
                                     {"name": "villain", "bot": "call"}],
                           "hands": 40, "block_size": 40, "seed": 3, "luck": False,
                           "output": {"dir": str(out), "plots": False}})
    run_tournament(config, progress=False, inline=True)
    lines = (out / "bots" / "hero" / "trace-b0-p0.jsonl").read_text().splitlines()
    records = [parse_record(line) for line in lines]
    # a pipeline decision's line is as it was before the mode: no equilibrium key at all
    decided = [line for line in lines if '"kind":"decision"' in line]
    assert '"equilibrium"' in decided[0] and '"equilibrium"' not in decided[-1]
    chosen = [r for r in records if isinstance(r, DecisionRecord)]
    first, last = chosen[0], chosen[-1]
    assert first.equilibrium is not None and first.preflop is None
    assert sum(first.equilibrium.values()) == pytest.approx(1.0)
    assert first.chosen in first.equilibrium and first.equilibrium[first.chosen] > 0
    assert last.equilibrium is None and (last.preflop or last.strength) is not None
    for hand, shown in [(first.hand, "the equilibrium (no deviation seen yet)"),
                        (last.hand, "->")]:
        assert holdem(["explain", str(out), "--block", "0", "--hand", str(hand)]) == 0
        text = capsys.readouterr().out
        assert shown in text
        assert ("the equilibrium" in text) == (hand == first.hand)

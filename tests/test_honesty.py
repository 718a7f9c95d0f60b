"""The honesty test of a seat's actions against its stated policy. Its
increments have mean exactly zero under an honest draw (every action of random rows
enumerated), honest sequences are flagged no more often than the stated false-alarm rate, a
bot that states uniform rows but always plays its last legal action is flagged within a few
dozen decisions, and a run that flags one says so and falls back to the chance-corrected
figure; the sums of a duplicate run's seatings and blocks add up whatever the workers."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from simulator.arena import honesty
from simulator.arena.config import parse_config
from simulator.arena.tournament import run_tournament
from simulator.core.actions import Action
from simulator.play.protocol import PolicyEntry, RaiseRange


def _random_row(rng: np.random.Generator) -> tuple[list[PolicyEntry], list[float]]:
    """Some of fold, call, a raise and a raise range, in a shuffled order, with random
    probabilities (some of them zero)."""
    pool: list[PolicyEntry] = [Action.fold(), Action.call(), Action.raise_to(4),
                               RaiseRange(6, 9)]
    chosen = [pool[i] for i in rng.permutation(4)[: rng.integers(1, 5)]]
    p = rng.dirichlet(np.ones(len(chosen))) * (rng.random(len(chosen)) > 0.2)
    if p.sum() == 0:
        p[0] = 1.0
    return chosen, (p / p.sum()).tolist()


def _outcomes(actions: list[PolicyEntry], row: list[float]) -> list[tuple[Action, float]]:
    """Every action the row can play, with its probability."""
    out = []
    for entry, p in zip(actions, row, strict=True):
        if p > 0 and isinstance(entry, RaiseRange):
            out += [(Action.raise_to(a), p / entry.sizes) for a in range(entry.low,
                                                                         entry.high + 1)]
        elif p > 0:
            assert isinstance(entry, Action)
            out.append((entry, p))
    return out


def test_every_increment_has_mean_zero_under_an_honest_draw() -> None:
    rng = np.random.default_rng(53)
    for _ in range(300):
        actions, row = _random_row(rng)
        mean = np.zeros(4)
        for action, p in _outcomes(actions, row):
            d = np.array(honesty.increments(actions, row, action))
            assert np.all(np.abs(d) <= 1.0)
            mean += p * d
        assert mean == pytest.approx(np.zeros(4), abs=1e-12), (actions, row)


class _Rows:
    """Random rows (see :func:`_random_row`), each with every action it can play: its
    probability and the log-wealth terms it adds (the module's own code), so that many seats
    are simulated at array speed."""

    def __init__(self, rng: np.random.Generator, count: int = 64) -> None:
        self.rows = []
        for _ in range(count):
            actions, row = _random_row(rng)
            outcomes = sorted(_outcomes(actions, row),  # fold, call, raises by size
                              key=lambda o: (o[0].kind.value != "f", o[0].amount or 0))
            terms = np.array([honesty.log_wealth(honesty.increments(actions, row, a))
                              for a, _ in outcomes])
            self.rows.append((np.cumsum([p for _, p in outcomes]), terms))

    def sums(self, rng: np.random.Generator, seats: int, decisions: int, lie: bool
             ) -> np.ndarray:
        """Each seat's sums over ``decisions`` random rows, drawn honestly or (``lie``)
        always at the row's most aggressive action."""
        out = np.zeros((seats, honesty.TESTS))
        picks = rng.integers(0, len(self.rows), size=(seats, decisions))
        draws = rng.random((seats, decisions))
        for i, (cumulative, terms) in enumerate(self.rows):
            at = picks == i
            taken = (np.full(int(at.sum()), len(terms) - 1) if lie else
                     np.minimum(np.searchsorted(cumulative, draws[at], side="right"),
                                len(terms) - 1))
            np.add.at(out, np.nonzero(at)[0], terms[taken])
        return out


@pytest.mark.parametrize("false_alarm", [0.2, 0.05])
def test_honest_seats_are_flagged_at_most_at_the_stated_rate(false_alarm: float) -> None:
    """4,000 honest seats of 1,000 decisions each, at a false-alarm rate loose enough to
    count: the share flagged is within the rate (with three standard errors of slack), as
    Ville's inequality says, and above zero (the statistic moves). At the real rate (1 in
    1,000, for two seats) none is."""
    rng = np.random.default_rng(7)
    seats = 4000
    sums = _Rows(rng).sums(rng, seats, 1000, lie=False)
    evidence = np.array([honesty.log_evidence(s) for s in sums])
    rate = float((evidence >= honesty.threshold(1, false_alarm)).mean())
    assert 0 < rate <= false_alarm + 3 * math.sqrt(false_alarm * (1 - false_alarm) / seats)
    assert not (evidence >= honesty.threshold(2)).any()


def test_a_seat_that_always_plays_its_most_aggressive_action_is_flagged_soon() -> None:
    """Uniform rows over fold, call and a raise, always played at the raise (the issue's
    liar): flagged from the 39th decision on, in a two-seat run. Random rows (many of one
    action, where a lie shows nothing): every liar flagged within 200 decisions; the same
    rows drawn honestly, none."""
    uniform = [Action.fold(), Action.call(), Action.raise_to(4)]
    terms = honesty.log_wealth(honesty.increments(uniform, [1 / 3] * 3, uniform[-1]))
    first = next(n for n in range(1, 1000)
                 if honesty.flagged(np.multiply(terms, n), tests=2))
    assert first == 39
    rng = np.random.default_rng(11)
    rows = _Rows(rng)
    assert all(honesty.flagged(s, tests=2) for s in rows.sums(rng, 200, 200, lie=True))
    assert not any(honesty.flagged(s, tests=2) for s in rows.sums(rng, 200, 200, lie=False))


def _run(tmp_path: Path, seats: list[dict[str, Any]], inline: bool = True, **extra: Any
         ) -> Any:
    data = {"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2, "stack": 2000},
            "seats": seats, "hands": 60, "block_size": 20, "seed": 5, "workers": 1,
            "luck_samples": 20, "output": {"dir": str(tmp_path / "out"), "plots": False},
            **extra}
    return run_tournament(parse_config(data), progress=False, inline=inline, force=True)


LIAR = {"name": "liar", "bot": "tests.policy_bots:UniformLastBot"}
RANDOM = {"name": "r", "bot": "random"}


def test_a_run_flags_the_liar_and_falls_back_to_the_chance_corrected_figure(
        tmp_path: Path) -> None:
    summary = _run(tmp_path, [LIAR, RANDOM])
    liar, other = summary.players["liar"]["aivat"], summary.players["r"]["aivat"]
    assert liar["honesty"]["flagged"] and not other["honesty"]["flagged"]
    assert liar["honesty"]["threshold"] == pytest.approx(math.log(2 / honesty.FALSE_ALARM))
    for figures in (liar, other):  # the fallback, for both seats
        assert figures["estimator"] == "chance"
        assert figures["mean"] == figures["chance"]["mean"]
    table = summary.table()
    assert "liar's actions disagree with its stated policy" in table and "AIVAT*" in table
    saved = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert saved["players"]["liar"]["aivat"]["estimator"] == "chance"
    from simulator.arena.plots import winrate_figure

    fig = winrate_figure(summary.record)  # pyplot's registry never holds it: nothing to close
    box = fig.axes[0].get_legend()
    assert box is not None
    legend = [t.get_text() for t in box.get_texts()]
    assert "AIVAT* (chance-corrected: a policy test failed)" in legend


def test_an_honest_run_keeps_aivat(tmp_path: Path) -> None:
    summary = _run(tmp_path, [RANDOM, {"name": "r2", "bot": "random"}])
    for name in ("r", "r2"):
        figures = summary.players[name]["aivat"]
        assert figures["estimator"] == "aivat" and not figures["honesty"]["flagged"]
        assert figures["mean"] != figures["chance"]["mean"]
    assert "disagree" not in summary.table()


def test_the_sums_add_over_seatings_blocks_and_workers(tmp_path: Path) -> None:
    """A duplicate run's sums per player are the sum of its blocks' (each the sum of both
    seatings'), and the same with two workers."""
    one = _run(tmp_path, [LIAR, RANDOM], hands=40)
    lines = [json.loads(x) for x in (tmp_path / "out" / "blocks.jsonl").read_text().split()]
    sums = np.sum([line["players"]["liar"]["honesty"] for line in lines], axis=0)
    assert one.players["liar"]["aivat"]["honesty"]["log_evidence"] == pytest.approx(
        honesty.log_evidence(sums))
    two = _run(tmp_path, [LIAR, RANDOM], inline=False, hands=40, workers=2)
    assert two.players["liar"]["aivat"]["honesty"] == one.players["liar"]["aivat"]["honesty"]


@pytest.mark.parametrize("sums", [[0.0] * 3, ["x"] * honesty.TESTS, [math.inf] * honesty.TESTS,
                                  "none"])
def test_a_corrupt_honesty_line_is_refused_naming_it(sums: object) -> None:
    from simulator.arena.summary import SummaryError, parse_block

    line = {"block": 2, "deals": 1, "players": {"a": {
        "hands": 1, "net": 0, "luck": 0.0, "positions": {}, "aivat": 0.0, "policy": True,
        "honesty": sums}}}
    with pytest.raises(SummaryError, match=f"^block 2: players.a.honesty: expected a list of "
                                           f"{honesty.TESTS} finite numbers"):
        parse_block(line, ["a"])


def test_the_watch_says_it_once_as_the_run_goes() -> None:
    """Block by block: a line the first time a player's summed evidence reaches the
    threshold for the players with a policy, none for a player without one, none again."""
    uniform = [Action.fold(), Action.call(), Action.raise_to(4)]
    lie = np.array(honesty.log_wealth(honesty.increments(uniform, [1 / 3] * 3, uniform[-1])))
    watch = honesty.Watch(["liar", "r", "quiet"])
    block = np.zeros((3, honesty.TESTS))
    block[0] = 25 * lie  # 25 lies a block: 50 reach the threshold of two seats, 25 do not
    block[2] = 100 * lie  # a seat without a policy is never tested
    policies = (True, True, False)
    assert watch.add(0, block, policies) == []
    lines = watch.add(1, block, policies)
    assert len(lines) == 1 and lines[0].startswith("note: after block 1, liar's actions")
    assert watch.add(2, block, policies) == []
    assert watch.add(3, None, policies) == []

"""``holdem league``: every pair of a panel, a crosstable with intervals, and resume."""

import csv
import json
import math
import os
from pathlib import Path

import pytest
import yaml

from simulator.arena.league import run_league
from simulator.arena.stats import t975
from simulator.cli import main as holdem


def main(argv: list[str]) -> int:
    """``holdem league``, as the command reports it (message and exit code)."""
    return holdem(["league", *argv])


def _config(tmp_path: Path, **extra) -> Path:
    data = {"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
            "bots": [{"name": "wild", "bot": "random"}, {"name": "station", "bot": "call"},
                     {"name": "raiser", "bot": "raise"}],
            "hands": 60, "block_size": 20, "seed": 5, "duplicate": True,
            "output": {"dir": str(tmp_path / "league"), "plots": False}, **extra}
    path = tmp_path / "league.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _rows(out: Path) -> list[dict[str, str]]:
    with open(out / "crosstable.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_every_pair_plays_and_the_crosstable_is_antisymmetric(tmp_path: Path) -> None:
    cells = run_league(_config(tmp_path), quiet=True)
    out = tmp_path / "league"
    assert sorted(str(p.relative_to(out / "pairs")) for p in (out / "pairs").glob("*/*")) == [
        "station/vs-raiser", "wild/vs-raiser", "wild/vs-station"]
    assert len(cells) == 6
    by = {(c.row, c.column): c for c in cells}
    for (a, b), cell in by.items():
        assert cell.mean == pytest.approx(-by[(b, a)].mean)  # heads-up: chips change hands
        assert cell.ci95 is not None and cell.ci95[0] <= cell.mean <= cell.ci95[1]
    rows = _rows(out)
    assert len(rows) == 9 and {r["column"] for r in rows if r["row"] == "wild"} == {
        "station", "raiser", "(mean)"}
    mean = next(r for r in rows if r["row"] == "station" and r["column"] == "(mean)")
    assert float(mean["mean"]) == pytest.approx(
        (by[("station", "wild")].mean + by[("station", "raiser")].mean) / 2, abs=1e-6)
    assert (out / "crosstable.png").stat().st_size > 0


def test_resume_gives_the_same_table_and_a_second_fresh_run_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path)
    assert main([str(config), "--quiet"]) == 0
    first = (tmp_path / "league" / "crosstable.csv").read_text()
    assert main([str(config), "--quiet"]) == 2
    assert "already holds results" in capsys.readouterr().err
    assert main([str(config), "--quiet", "--resume"]) == 0
    assert (tmp_path / "league" / "crosstable.csv").read_text() == first


@pytest.mark.parametrize(("extra", "message"), [
    ({"bots": [{"name": "solo", "bot": "call"}]}, "bots: expected a list of at least 2"),
    ({"seats": []}, "seats: unknown key in a league"),
    ({"bots": [{"name": "a", "bot": "call"}, {"name": "b", "bot": "nonesuch"}]}, "nonesuch"),
])
def test_bad_league_configs_exit_two_naming_the_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: dict, message: str) -> None:
    assert main([str(_config(tmp_path, **extra)), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "league" / "pairs").exists()  # refused before any pair played


def test_a_bots_mean_uses_t_at_the_welch_satterthwaite_degrees_of_freedom() -> None:
    from scipy.special import stdtrit

    from simulator.arena.league import Cell, overall

    # two opponents, 2 blocks each (1 degree of freedom apiece), equal standard errors:
    # Welch-Satterthwaite gives (2 v)^2 / (2 v^2 / 1) = 2 degrees of freedom, not infinity
    cells = [Cell("a", b, m, 0.1, None, 100, 1) for b, m in (("b", 1.0), ("c", 2.0))]
    mean = overall(cells, "a")
    assert mean.mean == pytest.approx(1.5) and mean.df == pytest.approx(2.0)
    half = float(stdtrit(2, 0.975)) * math.sqrt(0.02) / 2
    assert mean.ci95 == pytest.approx((1.5 - half, 1.5 + half))
    assert half > 1.96 * math.sqrt(0.02) / 2 * 2  # t(2) = 4.30, over twice the normal's


def test_memoryless_pairs_play_short_blocks_and_cells_use_aivat(tmp_path: Path) -> None:
    """With short_block_size, a pair of bots that do not learn plays its deals in short
    blocks, a pair with a learner (learns: true) in block_size; cells are AIVAT figures,
    'aivat' where both bots state a policy, 'aivat-chance' where one does not ('mute')."""
    from simulator.arena.league import pair_configs

    data = {"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
            "bots": [{"name": "wild", "bot": "random"}, {"name": "station", "bot": "call"},
                     {"name": "mute", "bot": "tests.policy_bots:NoPolicyBot",
                      "learns": True}],
            "hands": 20, "block_size": 10, "short_block_size": 5, "seed": 5,
            "duplicate": True, "output": {"dir": str(tmp_path / "league"), "plots": False}}
    sizes = {tuple(c.names): c.block_size for c in pair_configs(data, "league")}
    assert sizes[("wild", "station")] == 5 and sizes[("wild", "mute")] == 10
    path = tmp_path / "league.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    cells = {(c.row, c.column): c for c in run_league(path, quiet=True)}
    assert cells[("wild", "station")].estimator == "aivat"
    assert cells[("wild", "station")].df == 3  # 4 blocks of 5 deals
    assert cells[("wild", "mute")].df == 1
    assert cells[("mute", "wild")].estimator == "aivat-chance"
    rows = _rows(tmp_path / "league")
    assert {r["estimator"] for r in rows} == {"aivat", "aivat-chance", "mean"}


@pytest.mark.parametrize(("extra", "message"), [
    ({"short_block_size": 0}, "short_block_size: expected a positive number"),
    ({"bots": [{"name": "a", "bot": "call", "learns": "yes"}, {"name": "b", "bot": "call"}]},
     "learns: expected true or false"),
])
def test_bad_block_structure_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        extra: dict, message: str) -> None:
    assert main([str(_config(tmp_path, **extra)), "--quiet"]) == 2
    assert message in capsys.readouterr().err


def _league_blocks() -> tuple[int, int]:
    """Blocks per pair in the default league: with a learner, and without."""
    data = yaml.safe_load((Path(__file__).resolve().parents[1] / "configs" / "league.yaml")
                          .read_text(encoding="utf-8"))
    hands = data["hands"]
    return (-(-hands // data["block_size"]),
            -(-hands // data.get("short_block_size", data["block_size"])))


def _league_coverage(reps: int, deals: int) -> dict[int, float]:
    """Coverage of 0 by the AIVAT interval of twins (two copies of one random bot, duplicate,
    both with policies), at each of the default league's block counts (short blocks of
    ``deals`` deals: the count of blocks, not their length, sets the interval's degrees of
    freedom)."""
    from simulator.arena.config import parse_config
    from simulator.arena.summary import summarise
    from simulator.arena.tournament import play_block

    out = {}
    for blocks in sorted(set(_league_blocks())):
        covered = 0
        for seed in range(reps):
            config = parse_config({
                "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2, "stack": 2000},
                "seats": [{"name": n, "bot": "random",
                           "params": {"fold": 0.15, "call": 0.5, "raise": 0.35}} for n in "ab"],
                "hands": deals * blocks, "block_size": deals, "seed": 7000 + seed,
                "duplicate": True, "luck_samples": 40, "output": {"dir": "unused"}})
            lines = []
            for b in range(blocks):
                record = play_block(config, b).record
                assert record is not None
                lines.append(record.totals(config.names, 2))
            aivat = summarise(lines, config.names, unit="small_bets", unit_chips=2,
                              big_blind=2).player("a").aivat
            assert aivat is not None and aivat.stat.ci95 is not None
            covered += aivat.stat.ci95[0] <= 0 <= aivat.stat.ci95[1]
        out[blocks] = covered / reps
    return out


def test_league_intervals_cover_at_the_leagues_block_structure() -> None:
    """A small sample in CI (12 twin leagues per block count: it catches an interval that is
    far too narrow); the slow test plays 300."""
    for blocks, coverage in _league_coverage(12, 4).items():
        assert 0.75 <= coverage <= 1.0, (blocks, coverage)


@pytest.mark.slow
def test_league_intervals_cover_at_the_leagues_block_structure_thoroughly() -> None:
    for blocks, coverage in _league_coverage(300, 10).items():
        assert 0.92 <= coverage <= 0.98, (blocks, coverage)


def test_the_pairs_play_in_the_same_workers(tmp_path: Path) -> None:
    """The league starts its workers once: every pair's blocks play in them."""
    config = _config(tmp_path, hands=40, block_size=20, workers=2, bots=[
        {"name": "diary", "bot": "hostile_bots:ProcessDiaryBot"},
        {"name": "station", "bot": "call"}, {"name": "raiser", "bot": "raise"}])
    run_league(config, quiet=True)
    pairs = tmp_path / "league" / "pairs" / "diary"
    pids = {pair.name: {int(p.read_text()) for p in (pair / "bots" / "diary").glob("pid-*")}
            for pair in pairs.glob("vs-*")}
    assert sorted(pids) == ["vs-raiser", "vs-station"]
    assert pids["vs-raiser"] == pids["vs-station"]
    assert 1 <= len(pids["vs-station"]) <= 2 and os.getpid() not in pids["vs-station"]


def test_a_wide_cell_plays_a_second_stage_with_steins_interval(tmp_path: Path) -> None:
    """With target_half_width, a pair whose interval is wider plays more blocks, in a run of
    its own under second-stage/, up to max_hands; its cell is the mean of both stages with
    the first stage's spread and t (Stein), and a resumed league gives the same table."""
    config = _config(tmp_path, hands=40, block_size=10, target_half_width=0.01,
                     max_hands=70, bots=[{"name": "wild", "bot": "random"},
                                         {"name": "raiser", "bot": "raise"}])
    cells = {(c.row, c.column): c for c in run_league(config, quiet=True)}
    out = tmp_path / "league"
    first = json.loads((out / "pairs" / "wild" / "vs-raiser" / "summary.json").read_text())
    second = json.loads((out / "second-stage" / "wild" / "vs-raiser" / "summary.json")
                        .read_text())
    assert (first["blocks"], second["blocks"]) == (4, 3)  # the cap: 70 deals, 7 blocks
    run = json.loads((out / "second-stage" / "wild" / "vs-raiser" / "run.json").read_text())
    assert run["seed"] != 5  # fresh deals, not the first stage's again
    cell = cells[("wild", "raiser")]
    stage = [s["players"]["wild"]["aivat"] for s in (first, second)]
    hands = [s["players"]["wild"]["hands"] for s in (first, second)]
    assert cell.hands == sum(hands) == 140 and cell.blocks == 7 and cell.df == 3
    assert cell.mean == pytest.approx((stage[0]["mean"] * hands[0] + stage[1]["mean"]
                                       * hands[1]) / sum(hands))
    assert cell.stderr == pytest.approx(stage[0]["stderr"] * math.sqrt(4 / 7))
    half = t975(3) * cell.stderr
    assert cell.ci95 == pytest.approx((cell.mean - half, cell.mean + half))
    assert cells[("raiser", "wild")].mean == pytest.approx(-cell.mean)
    row = next(r for r in _rows(out) if r["row"] == "wild" and r["column"] == "raiser")
    assert (row["blocks"], row["df"], row["hands"]) == ("7", "3", "140")
    table = (out / "crosstable.csv").read_text()
    assert main([str(config), "--quiet", "--resume"]) == 0
    assert (out / "crosstable.csv").read_text() == table


def test_a_cell_within_the_target_plays_no_second_stage(tmp_path: Path) -> None:
    config = _config(tmp_path, hands=40, block_size=10, target_half_width=1000.0,
                     bots=[{"name": "station", "bot": "call"},
                           {"name": "raiser", "bot": "raise"}])
    cells = run_league(config, quiet=True)
    assert not (tmp_path / "league" / "second-stage").exists()
    assert {c.blocks for c in cells if c.column != "(mean)"} == {4}


@pytest.mark.parametrize(("extra", "message"), [
    ({"target_half_width": 0}, "target_half_width: expected a positive number"),
    ({"target_half_width": "narrow"}, "target_half_width: expected a positive number"),
    ({"target_half_width": 1.0e-200}, "target_half_width: expected a positive number, at "
                                      "least 1e-06"),
    ({"target_half_width": 5e-324}, "target_half_width: expected a positive number, at "
                                    "least 1e-06"),
    ({"target_half_width": 0.1, "max_hands": 10**12}, "max_hands: expected a whole number"),
    ({"target_half_width": 0.1, "max_hands": 10}, "max_hands: expected a whole number"),
    ({"max_hands": 100}, "max_hands: only with target_half_width"),
])
def test_bad_precision_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  extra: dict, message: str) -> None:
    assert main([str(_config(tmp_path, **extra)), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "league" / "pairs").exists()

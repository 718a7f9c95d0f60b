"""``holdem league``: every pair of a panel, a crosstable with intervals, and resume."""

import csv
import math
from pathlib import Path

import pytest
import yaml

from simulator.arena.league import main, run_league


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
    assert message in capsys.readouterr().err
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

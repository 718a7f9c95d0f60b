"""Plots: valid PNGs, drawn from the same per-hand results that summary.json summarises."""

import csv
import json
from pathlib import Path

import matplotlib.image as mpimg
import pytest

from simulator.arena.config import parse_config
from simulator.arena.plots import draw, main, plot_data
from simulator.arena.tournament import run_tournament

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("plots") / "out"
    run_tournament(parse_config({
        "game": {"variant": "nolimit", "blinds": [1, 2], "stack": 200},
        "seats": [{"name": "r", "bot": "random"}, {"name": "c", "bot": "call"},
                  {"name": "x", "bot": "raise"}],
        "hands": 90, "seed": 3, "block_size": 30, "duplicate": True, "luck_samples": 50,
        "output": {"dir": str(out)}}))
    return out


def test_a_run_draws_valid_pngs(run_dir: Path) -> None:
    for name in ("cumulative.png", "winrates.png"):
        path = run_dir / name
        assert path.read_bytes()[:8] == PNG_MAGIC
        image = mpimg.imread(path)
        assert image.shape[0] > 300 and image.shape[1] > 400
        assert image.std() > 0.01  # not a blank canvas


def test_plotted_end_points_are_the_summary_totals(run_dir: Path) -> None:
    """Recompute every player's final cumulative winnings from hands.csv with csv alone."""
    summary = json.loads((run_dir / "summary.json").read_text())
    with open(run_dir / "hands.csv") as f:
        rows = list(csv.DictReader(f))
    curves, plotted_summary = plot_data(run_dir)
    assert plotted_summary["players"] == summary["players"]
    for curve in curves:
        played = [r for r in rows if int(r[f"seat:{curve.name}"]) >= 0]
        total_bb = sum(int(r[f"net:{curve.name}"]) for r in played) / 2
        stats = summary["players"][curve.name]
        assert curve.hands[-1] == len(played) == stats["hands"] == 6 * 90
        assert curve.cumulative[-1] == pytest.approx(total_bb)
        assert curve.cumulative[-1] == pytest.approx(stats["mean"] * stats["hands"])
        assert curve.band[-1] == pytest.approx(1.959964 * stats["stderr"] * stats["hands"])


def test_holdem_plot_redraws_and_refuses_a_dir_without_results(
        run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (run_dir / "winrates.png").unlink()
    assert main([str(run_dir)]) == 0
    assert (run_dir / "winrates.png").read_bytes()[:8] == PNG_MAGIC
    assert "winrates.png" in capsys.readouterr().out
    assert main([str(tmp_path)]) == 2
    assert "holds no run results" in capsys.readouterr().err
    assert [p.name for p in draw(run_dir)] == ["cumulative.png", "winrates.png"]

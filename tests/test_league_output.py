"""What ``holdem league`` prints: every cell, each bot's mean row, and the unit."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import yaml

from simulator.arena.league import main


def test_the_terminal_shows_each_bots_mean_and_the_unit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "league.yaml"
    config.write_text(yaml.safe_dump({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
        "bots": [{"name": "wild", "bot": "random"}, {"name": "station", "bot": "call"},
                 {"name": "raiser", "bot": "raise"}],
        "hands": 40, "block_size": 20, "seed": 5,
        "output": {"dir": str(tmp_path / "league"), "plots": False}}))
    assert main([str(config)]) == 0
    text = capsys.readouterr().out
    assert "small_bets per hand" in text
    with open(tmp_path / "league" / "crosstable.csv", encoding="utf-8") as f:
        means = [r for r in csv.DictReader(f) if r["column"] == "(mean)"]
    assert len(means) == 3
    for row in means:
        line = next(ln for ln in text.splitlines()
                    if ln.startswith(row["row"]) and "(mean)" in ln)
        assert float(line.split()[3]) == pytest.approx(float(row["mean"]), abs=1e-4)


def _league(tmp_path: Path, bots: list[dict[str, str]], **extra: object) -> Path:
    config = tmp_path / "league.yaml"
    config.write_text(yaml.safe_dump({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2}, "bots": bots,
        "hands": 40, "block_size": 10, "seed": 5, "luck_samples": 20,
        "output": {"dir": str(tmp_path / "league"), "plots": False}, **extra}))
    return config


def _csv(tmp_path: Path) -> list[dict[str, str]]:
    with open(tmp_path / "league" / "crosstable.csv", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_cells_that_stop_at_max_hands_above_the_target_are_marked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A target no pair can reach within max_hands: every pair cell says so in the console
    (a ``*`` and a note), the CSV's note column and the plot's squares, and each bot's mean
    over such cells is marked too."""
    from simulator.arena.league import plot_texts, run_league

    config = _league(tmp_path, [{"name": "wild", "bot": "random"},
                                {"name": "raiser", "bot": "raise"}],
                     target_half_width=0.001, max_hands=60)
    assert main([str(config)]) == 0
    text = capsys.readouterr().out
    assert "* wild vs raiser: max_hands reached: +-" in text
    assert "wider than the target +-0.001" in text
    rows = {(r["row"], r["column"]): r for r in _csv(tmp_path)}
    assert rows["wild", "raiser"]["note"].startswith("max_hands reached")
    assert rows["wild", "(mean)"]["note"] == "the mean of marked cells: vs raiser"
    cells = run_league(config, quiet=True, resume=True)
    texts = plot_texts(cells, ["wild", "raiser"])[0]
    assert texts[1].endswith(" *") and texts[2].endswith(" *")  # the cell and its row's mean
    wide = _league(tmp_path, [{"name": "wild", "bot": "random"},
                              {"name": "raiser", "bot": "raise"}], target_half_width=100.0)
    assert all(c.note == "" for c in run_league(wide, quiet=True, force=True))


def test_a_bot_that_lies_about_its_policy_gets_chance_corrected_cells(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _league(tmp_path, [{"name": "liar", "bot": "tests.policy_bots:UniformLastBot"},
                                {"name": "wild", "bot": "random"},
                                {"name": "other", "bot": "random"}])
    assert main([str(config)]) == 0
    text = capsys.readouterr().out
    rows = {(r["row"], r["column"]): r for r in _csv(tmp_path)}
    for pair in (("liar", "wild"), ("wild", "liar"), ("liar", "other")):
        assert rows[pair]["estimator"] == "chance"
        assert rows[pair]["note"].startswith("policy test failed: liar")
    assert rows["wild", "other"]["estimator"] == "aivat" and rows["wild", "other"]["note"] == ""
    assert "* liar vs wild: policy test failed: liar" in text
    summary = json.loads((tmp_path / "league" / "pairs" / "liar" / "vs-wild" /
                          "summary.json").read_text())
    chance = summary["players"]["liar"]["aivat"]["chance"]
    assert float(rows["liar", "wild"]["mean"]) == pytest.approx(chance["mean"], abs=1e-6)


def test_progress_names_the_pair_of_all_and_the_time_left(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _league(tmp_path, [{"name": "a", "bot": "random"}, {"name": "b", "bot": "call"},
                                {"name": "c", "bot": "raise"}], hands=20)
    assert main([str(config)]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("league: pair")]
    assert [ln.split(":")[1] for ln in lines] == [" pair 1 of 3", " pair 2 of 3",
                                                  " pair 3 of 3"]
    assert "left)" not in lines[0] and all(ln.endswith(" left)") for ln in lines[1:])

"""What ``holdem league`` prints: every cell, each bot's mean row, and the unit."""

from __future__ import annotations

import csv
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

"""``--set KEY=VALUE`` and ``--hands N`` on ``holdem run``, ``league`` and ``exploit``: the
file's keys changed as if it said them, validated like it, read by the bounded YAML reader;
``--resume`` refuses overrides that differ from the run's."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from simulator.arena.overrides import OverrideError, apply_sets, parse_sets
from simulator.cli import main as holdem

GAME = {"variant": "limit", "blinds": [1, 2], "small_bet": 2}


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def _run_config(tmp_path: Path) -> Path:
    return _write(tmp_path, {"game": GAME, "hands": 400, "seed": 1,
                             "seats": [{"name": "a", "bot": "call"}, {"name": "b", "bot": "raise"}],
                             "output": {"dir": str(tmp_path / "out"), "plots": False}})


def _summary(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return data


def test_run_plays_the_overridden_hands_and_blocks(tmp_path: Path) -> None:
    config = _run_config(tmp_path)
    assert holdem(["run", str(config), "--hands", "40", "--set", "block_size=10",
                   "--set", "seats.1.bot=call", "--quiet"]) == 0
    summary = _summary(tmp_path / "out")
    assert (summary["deals"], summary["blocks"]) == (40, 4)
    assert [s["bot"] for s in summary["config"]["seats"]] == ["call", "call"]


def test_resume_needs_the_same_overrides(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    config = _run_config(tmp_path)
    assert holdem(["run", str(config), "--hands", "40", "--set", "block_size=10",
                   "--quiet"]) == 0
    assert holdem(["run", str(config), "--resume", "--hands", "40", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "cannot resume" in err and "block_size: was 10, now 200" in err
    assert holdem(["run", str(config), "--resume", "--set", "block_size=10", "--hands", "40",
                   "--quiet"]) == 0
    assert _summary(tmp_path / "out")["deals"] == 40


@pytest.mark.parametrize(("sets", "message"), [
    (["--set", "hands=0"], "c.yaml (with --set): hands: expected greater than 0, got 0"),
    (["--set", "sede=2"], "sede: unknown key (did you mean 'seed'?)"),
    (["--set", "game.variant=omaha"], "game.variant: expected 'limit', 'nolimit' or 'potlimit'"),
    (["--set", "hands"], "--set: expected KEY=VALUE, got 'hands'"),
    (["--set", "hands.x=1"], "--set hands.x: hands holds int, not keys"),
    (["--set", "seats.2.bot=call"], "--set seats.2.bot: '2': expected an item number"),
    (["--set", "game={variant: limit, variant: nolimit}"],
     "--set game: duplicate key 'variant' at lines 1 and 1"),
    (["--set", "x=&a [*a]"], "--set x: the node at line 1 holds an alias of itself"),
    (["--hands", "40", "--set", "hands=40"], "--hands: given twice"),
    (["--set", "seed=1", "--set", "seed=2"], "--set seed: given twice"),
])
def test_a_bad_override_is_one_line_naming_it_before_any_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], sets: list[str],
        message: str) -> None:
    config = _run_config(tmp_path)
    assert holdem(["run", str(config), "--quiet", *sets]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert not (tmp_path / "out").exists()


def test_league_plays_every_pair_with_the_overrides(tmp_path: Path) -> None:
    config = _write(tmp_path, {
        "game": GAME, "hands": 400, "seed": 1, "block_size": 200,
        "bots": [{"name": "a", "bot": "call"}, {"name": "b", "bot": "raise"},
                 {"name": "c", "bot": "random"}],
        "output": {"dir": str(tmp_path / "league"), "plots": False}})
    assert holdem(["league", str(config), "--hands", "20", "--set", "block_size=10",
                   "--set", "bots.2.bot=call", "--quiet"]) == 0
    with open(tmp_path / "league" / "crosstable.csv", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["column"] != "(mean)"]
    assert len(rows) == 6 and {(r["hands"], r["blocks"]) for r in rows} == {("20", "2")}
    seats = _summary(tmp_path / "league" / "pairs" / "a" / "vs-c")["config"]["seats"]
    assert [s["bot"] for s in seats] == ["call", "call"]


def test_league_and_exploit_refuse_a_bad_override_naming_the_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league = _write(tmp_path, {"game": GAME, "hands": 20, "seed": 1,
                               "bots": [{"name": "a", "bot": "call"},
                                        {"name": "b", "bot": "call"}],
                               "output": {"dir": str(tmp_path / "league")}})
    assert holdem(["league", str(league), "--set", "target_half_width=1e-300"]) == 2
    assert "(with --set): target_half_width: expected a positive number" in (
        capsys.readouterr().err)
    exploit = _write(tmp_path, {"game": GAME, "hands": 20, "seed": 1,
                                "bot": {"name": "a", "bot": "call"},
                                "output": {"dir": str(tmp_path / "exploit")}})
    assert holdem(["exploit", str(exploit), "--set", "lbr.from_street=flopp"]) == 2
    assert "lbr.from_street: expected 'preflop', 'flop', 'turn' or 'river'" in (
        capsys.readouterr().err)
    assert not (tmp_path / "league").exists() and not (tmp_path / "exploit").exists()


def test_exploit_plays_the_overridden_hands(tmp_path: Path) -> None:
    config = _write(tmp_path, {"game": {**GAME, "stack": 2000}, "hands": 400, "seed": 3,
                               "block_size": 200, "bot": {"name": "a", "bot": "call"},
                               "output": {"dir": str(tmp_path / "out"), "plots": False}})
    assert holdem(["exploit", str(config), "--hands", "20", "--set", "block_size=10",
                   "--set", "learning=adaptive", "--quiet"]) == 0
    assert not (tmp_path / "out" / "frozen").exists()
    summary = _summary(tmp_path / "out" / "adaptive")
    assert (summary["deals"], summary["blocks"]) == (20, 2)


def test_sets_are_written_over_a_copy() -> None:
    data = {"game": {"variant": "limit"}, "output": None}
    out = apply_sets(data, parse_sets(["game.blinds=[1, 2]", "output.dir=~/x"]))
    assert out == {"game": {"variant": "limit", "blinds": [1, 2]}, "output": {"dir": "~/x"}}
    assert data == {"game": {"variant": "limit"}, "output": None}
    with pytest.raises(OverrideError, match="expected KEY=VALUE"):
        parse_sets(["game..variant=limit"])

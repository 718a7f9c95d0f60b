"""``holdem explain --seat`` for a seat that the heuristic agent did not play."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.arena.config import parse_config
from simulator.arena.tournament import run_tournament
from simulator.cli import main as holdem


@pytest.fixture(scope="module")
def traced_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("explain") / "run"
    run_tournament(parse_config({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
        "seats": [{"name": "hero", "bot": "heuristic", "params": {"trace": True}},
                  {"name": "villain", "bot": "random"}],
        "hands": 10, "block_size": 10, "seed": 3,
        "output": {"dir": str(out), "plots": False}}), inline=True, progress=False)
    return out


def test_a_seat_of_another_bot_is_named_as_such(traced_run: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    args = ["explain", str(traced_run), "--block", "0", "--hand", "1"]
    assert holdem([*args, "--seat", "villain"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("holdem explain: seat 'villain' is played by 'random', not the heuristic "
                   "agent: only the heuristic agent writes decision traces")
    assert holdem([*args, "--seat", "hero"]) == 0
    assert "hero in seat" in capsys.readouterr().out

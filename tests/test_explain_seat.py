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


def test_a_block_or_permutation_the_run_lacks_is_named_as_such(
        traced_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Not "no decision traces ... run the agent with trace: true": the agent traced."""
    assert holdem(["explain", str(traced_run), "--block", "5", "--hand", "1"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"holdem explain: block 5 does not exist: {str(traced_run)!r} holds 1 finished "
        f"block(s), block 0")
    assert holdem(["explain", str(traced_run), "--block", "0", "--perm", "1", "--hand",
                   "1"]) == 2
    assert capsys.readouterr().err.strip() == (
        "holdem explain: permutation 1 of block 0 does not exist: its traces are of "
        "permutation(s) 0")


def test_the_e_table_has_a_legend(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                  ) -> None:
    """Every E table's columns are spelt out below the hand; a hand without one has none.
    (A raiser shows the agent a deviation from the equilibrium at once, so it prices its
    candidates.)"""
    out = tmp_path / "run"
    run_tournament(parse_config({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
        "seats": [{"name": "hero", "bot": "heuristic", "params": {"trace": True}},
                  {"name": "villain", "bot": "raise"}],
        "hands": 12, "seed": 4, "output": {"dir": str(out), "plots": False}}),
        inline=True, progress=False)
    texts = {}
    for hand in range(12):
        assert holdem(["explain", str(out), "--block", "0", "--hand", str(hand)]) == 0
        texts[hand] = capsys.readouterr().out
    tables = [h for h, text in texts.items() if "\n    action " in text]
    assert tables, "no hand priced its candidates"
    text = " ".join(texts[tables[0]].split())
    assert "E = (Pw*ESw - EBw) + Pvf*(ESvf - EBvf) - Phf*EBhf" in text
    for column in ("Pw: P(showdown and we win)", "ESw: the pot at a showdown", "Pvf:",
                   "ESvf, EBvf:", "Phf: P(we fold later)", "EBhf:", "chance:"):
        assert column in text
    assert all("Pw: P(showdown" not in t for h, t in texts.items() if h not in tables)

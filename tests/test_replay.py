"""``holdem replay``: per-hand stacks and verdicts, JSON lines, exit codes 0/1/2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli import main as holdem
from simulator.core.game import GameConfig
from simulator.interop.phh import dumps_all
from simulator.play.baseline import RandomBot
from simulator.play.match import play_match

HAND = ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
        'starting_stacks = [100, 100]\n'
        'actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 cbr 100", "p1 cc", '
        '"p1 sm AcAd", "p2 sm KcKd", "d db 2s3s9d", "d db Th", "d db Jh"]\n'
        'finishing_stacks = [200, 0]\n')


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def run(argv: list[str], capsys) -> tuple[int, list[str], str]:
    code = holdem(["replay", *argv])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_matching_phhs_exits_zero(tmp_path: Path, capsys) -> None:
    game = GameConfig(variant="limit", blinds=(1, 2), small_bet=2, stack=50)
    bots = [RandomBot(seed=i) for i in range(3)]
    results = list(play_match(game, bots, 25, seed=4))
    path = write(tmp_path, "hands.phhs", dumps_all(r.history for r in results))
    code, lines, _ = run([str(path), "--json"], capsys)
    assert code == 0 and len(lines) == 25
    rows = [json.loads(line) for line in lines]
    assert rows[3]["hand"] == {"file": str(path), "index": 3}
    assert all(row["match"] is True for row in rows)
    assert sum(rows[0]["finishing_stacks"]) == 150


def test_disagreeing_and_illegal_hands_exit_one(tmp_path: Path, capsys) -> None:
    wrong = write(tmp_path, "wrong.phh", HAND.replace("[200, 0]", "[0, 200]"))
    illegal = write(tmp_path, "illegal.phh", HAND.replace("p2 cbr 100", "p2 cbr 3"))
    code, lines, _ = run([str(wrong), str(illegal), "--json"], capsys)
    assert code == 1
    first, second = (json.loads(line) for line in lines)
    assert first["finishing_stacks"] == [200, 0] and first["match"] is False
    assert second["finishing_stacks"] is None and "illegal action" in second["error"]


def test_text_output_and_missing_finishing_stacks(tmp_path: Path, capsys) -> None:
    ok = write(tmp_path, "ok.phh", HAND)
    bare = write(tmp_path, "bare.phh", HAND.replace("finishing_stacks = [200, 0]\n", ""))
    code, lines, _ = run([str(ok), str(bare)], capsys)
    assert code == 0
    assert lines[0].endswith("[200, 0] match")
    assert "no finishing_stacks" in lines[1]


@pytest.mark.parametrize("text, problem", [
    ("variant = [", "not TOML"),
    ('variant = "PLO"\nstarting_stacks = [1, 2]\nactions = []\n', "unsupported variant"),
])
def test_unreadable_or_unsupported_input_exits_two(tmp_path: Path, capsys, text: str,
                                                   problem: str) -> None:
    good = write(tmp_path, "good.phh", HAND)
    bad = write(tmp_path, "bad.phh", text)
    code, lines, err = run([str(good), str(bad)], capsys)
    assert code == 2 and lines == []  # refused before any work
    assert str(bad) in err and problem in err and len(err.strip().splitlines()) == 1


def test_missing_file_exits_two(tmp_path: Path, capsys) -> None:
    code, _, err = run([str(tmp_path / "nope.phh")], capsys)
    assert code == 2 and "nope.phh" in err and "cannot read" in err

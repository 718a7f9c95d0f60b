"""`holdem run`: exit codes, one-line messages, nothing overwritten, kill and --resume."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from simulator.cli import main as holdem

ROOT = Path(__file__).resolve().parents[1]


def _write(tmp_path: Path, name: str = "c.yaml", **extra: object) -> Path:
    data = {"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
            "seats": [{"name": "r", "bot": "random"}, {"name": "c", "bot": "call"}],
            "hands": 60, "seed": 9, "block_size": 20, "duplicate": True,
            "output": {"dir": str(tmp_path / "out"), "plots": False}}
    data.update(extra)
    path = tmp_path / name
    tmp_path.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data))
    return path


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0, err
    return err


@pytest.mark.parametrize("edit, message", [
    ({"hands": -5}, "hands: expected greater than 0, got -5"),
    ({"seats": [{"name": "r", "bot": "nosuch"}, {"name": "c", "bot": "call"}]},
     "seats[0] (r): unknown bot 'nosuch'"),
    ({"seats": [{"name": "r", "bot": "random", "params": {"bluff": 1}},
                {"name": "c", "bot": "call"}]},
     "seats[0] (r): bot 'random' with params {'bluff': 1}: constructor: raised TypeError"),
    ({"colour": "red"}, "colour: unknown key"),
    ({"game": {"variant": "limit", "reset_stacks": False}},
     "duplicate: true needs game.reset_stacks: true"),
])
def test_bad_configs_exit_2_with_one_line_and_write_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: dict, message: str) -> None:
    assert holdem(["run", str(_write(tmp_path, **edit))]) == 2
    assert message in _one_line_error(capsys)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv, message", [
    (["run"], "the following arguments are required: config"),
    (["run", "x.yaml", "--bogus"], "unrecognized arguments: --bogus"),
    (["run", "x.yaml", "--resume", "--force"], "not allowed with argument"),
])
def test_bad_arguments_exit_2(argv: list[str], message: str,
                              capsys: pytest.CaptureFixture[str]) -> None:
    assert holdem(argv) == 2
    assert message in capsys.readouterr().err


def test_unreadable_and_invalid_files_exit_2(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert holdem(["run", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot read" in _one_line_error(capsys)
    bad = tmp_path / "bad.yaml"
    bad.write_text("seats: [\n")
    assert holdem(["run", str(bad)]) == 2
    assert "not valid YAML" in _one_line_error(capsys)
    assert holdem(["run", str(_write(tmp_path)), "--workers", "0"]) == 2
    assert "--workers: expected greater than or equal to 1, got 0" in _one_line_error(capsys)


def test_results_are_never_overwritten_silently(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    config = _write(tmp_path)
    assert holdem(["run", str(config), "--quiet"]) == 0
    summary = (tmp_path / "out" / "summary.json").read_text()
    assert holdem(["run", str(config)]) == 2
    assert "already holds results" in _one_line_error(capsys)
    assert (tmp_path / "out" / "summary.json").read_text() == summary
    # a changed config cannot resume this run
    assert holdem(["run", str(_write(tmp_path, "d.yaml", seed=10)), "--resume"]) == 2
    assert "config differs from the run there (seed: was 9, now 10)" in _one_line_error(capsys)
    assert holdem(["run", str(config), "--resume", "--quiet"]) == 0  # nothing left to play
    assert (tmp_path / "out" / "summary.json").read_text() == summary
    assert holdem(["run", str(config), "--force", "--quiet"]) == 0
    assert (tmp_path / "out" / "summary.json").read_text() == summary


def test_run_prints_an_80_column_table_and_names_every_file_it_wrote(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _write(tmp_path, seats=[{"name": "a_long_seat_name", "bot": "random"},
                                     {"name": "c", "bot": "call"}],
                    output={"dir": str(tmp_path / "out"), "plots": True,
                            "hand_histories": True})
    assert holdem(["run", str(config)]) == 0
    out = capsys.readouterr().out
    assert "bb/100" in out and "luck-adjusted" in out
    assert max(len(line) for line in out.splitlines()) <= 80, out
    data = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert f"{data['players']['c']['mean']:+.3f}" in out
    written = out[out.index("wrote in "):]
    for name in ("summary.json", "hands.csv", "hands.phhs", "cumulative.png", "winrates.png"):
        assert name in written and (tmp_path / "out" / name).is_file()


def test_kill_part_way_then_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    extra = {"hands": 3000, "block_size": 50, "duplicate": False}
    whole = _write(tmp_path / "whole", **{**extra, "output": {
        "dir": str(tmp_path / "whole" / "out"), "plots": False}})
    cut = _write(tmp_path / "cut", **{**extra, "output": {
        "dir": str(tmp_path / "cut" / "out"), "plots": False}})
    assert holdem(["run", str(whole), "--quiet"]) == 0
    env = {**os.environ, "CI": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "simulator.cli", "run", str(cut)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    blocks = tmp_path / "cut" / "out" / "blocks.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if blocks.exists() and blocks.read_text().count("\n") >= 3:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    finished = blocks.read_text().count("\n")
    assert 3 <= finished < 60, "the run was not cut part-way"
    assert not (tmp_path / "cut" / "out" / "summary.json").exists()
    assert holdem(["run", str(cut), "--resume", "--quiet"]) == 0
    a = json.loads((tmp_path / "whole" / "out" / "summary.json").read_text())
    b = json.loads((tmp_path / "cut" / "out" / "summary.json").read_text())
    assert a == b and a["deals"] == 3000

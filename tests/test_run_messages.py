"""What a newcomer reads when a run goes wrong: every config problem at once, a near miss
named, a bot's traceback kept, and advice in the caller's own terms."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from simulator.arena.config import ConfigError, load_config, parse_config
from simulator.arena.results import ResultsError
from simulator.arena.tournament import TournamentError, run_tournament
from simulator.cli import main as holdem

ROOT = Path(__file__).resolve().parents[1]
GAME = {"variant": "limit", "blinds": [1, 2], "small_bet": 2}


def _config(tmp_path: Path, **extra: object) -> dict:
    data = {"game": GAME, "seats": [{"name": "r", "bot": "random"}, {"name": "c", "bot": "call"}],
            "hands": 20, "seed": 3, "block_size": 10,
            "output": {"dir": str(tmp_path / "out"), "plots": False}}
    data.update(extra)
    return data


def test_config_errors_list_every_problem_and_name_the_near_miss() -> None:
    data = {"game": {**GAME, "blids": [1, 2]}, "seats": [{"name": "a", "bot": "call"}] * 2,
            "hands": "many", "sede": 3}
    with pytest.raises(ConfigError) as info:
        parse_config(data, "run.yaml")
    text = str(info.value)
    lines = text.splitlines()  # a line a problem, each naming the file
    assert "more)" not in text and len(lines) == 3
    assert all(line.startswith("run.yaml: ") for line in lines)
    assert "sede: unknown key (did you mean 'seed'?)" in text
    assert "game.blids: unknown key (did you mean 'blinds'?)" in text
    assert "hands: expected" in text
    assert "seed: expected a value" not in text  # the near miss explains it


def test_a_key_typo_and_a_bot_typo_are_said_together_a_line_each(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.yaml"
    data = _config(tmp_path, seats=[{"name": "me", "bot": "call"},
                                    {"name": "agent", "bot": "heuristc"}], sede=1)
    path.write_text(yaml.safe_dump(data))
    assert holdem(["run", str(path), "--quiet"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert lines[0] == f"holdem run: {path}: sede: unknown key (did you mean 'seed'?)"
    assert lines[1].startswith(f"{path}: seats[1] (agent): unknown bot 'heuristc'")
    assert lines[1].endswith("did you mean 'heuristic'?")
    assert not (tmp_path / "out").exists()


def test_every_seat_with_a_bad_bot_is_said_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.yaml"
    seats = [{"name": "a", "bot": "nosuch"}, {"name": "b", "bot": "call"},
             {"name": "c", "bot": "random", "params": {"fold": "lots"}}]
    path.write_text(yaml.safe_dump(_config(tmp_path, seats=seats)))
    assert holdem(["run", str(path), "--quiet"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("holdem run: seats[0] (a): unknown bot 'nosuch'")
    assert lines[1].startswith("seats[2] (c): ")


def test_every_bot_of_a_league_panel_with_a_problem_is_said_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "league.yaml"
    data = _config(tmp_path, bots=[{"name": "a", "bot": "nosuch"}, {"name": "b", "bot": "call"},
                                   {"name": "c", "bot": "calll"}])
    del data["seats"]
    path.write_text(yaml.safe_dump(data))
    assert holdem(["league", str(path), "--quiet"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("holdem league: bots: a: unknown bot 'nosuch'")
    assert lines[1].startswith("bots: c: unknown bot 'calll'")
    assert lines[1].endswith("did you mean 'call'?")


def test_an_exploit_configs_key_typo_and_bot_typo_are_said_together(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "exploit.yaml"
    path.write_text(yaml.safe_dump({"game": GAME, "bot": {"name": "a", "bot": "heuristc"},
                                    "hands": 20, "sede": 1}))
    assert holdem(["exploit", str(path), "--quiet"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert lines[0] == f"holdem exploit: {path}: sede: unknown key (did you mean 'seed'?)"
    assert lines[1].startswith(f"{path}: bot: unknown bot 'heuristc'")


def test_run_on_a_league_config_points_to_league(capsys: pytest.CaptureFixture[str]) -> None:
    assert holdem(["run", str(ROOT / "configs" / "league.yaml")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "a league config" in err and "holdem league" in err
    with pytest.raises(ConfigError, match="run_league"):
        load_config(ROOT / "configs" / "league.yaml")


def test_advice_names_keywords_in_python_and_flags_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _config(tmp_path)
    run_tournament(parse_config(data), inline=True, progress=False)
    with pytest.raises(ResultsError) as info:
        run_tournament(parse_config(data), inline=True, progress=False)
    assert "resume=True" in str(info.value) and "force=True" in str(info.value)
    assert "--" not in str(info.value)
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(data))
    assert holdem(["run", str(tmp_path / "c.yaml"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "--resume" in err and "--force" in err and "=True" not in err


class Broken:
    def act(self, observation: object) -> object:
        return self.decide(observation)

    def decide(self, observation: object) -> object:
        raise ValueError("no idea")


@pytest.mark.parametrize("inline", [True, False])
def test_a_bots_traceback_goes_to_the_bot_log(tmp_path: Path, inline: bool) -> None:
    data = _config(tmp_path, seats=[{"name": "b", "bot": f"{__name__}:Broken"},
                                    {"name": "c", "bot": "call"}])
    with pytest.raises(TournamentError) as info:
        run_tournament(parse_config(data), inline=inline, progress=False)
    log = tmp_path / "out" / "bots.log"
    assert f"traceback in {log}" in str(info.value)
    assert "raised ValueError: no idea" in str(info.value)
    text = log.read_text()
    assert "Traceback (most recent call last)" in text
    assert 'test_run_messages.py", line' in text and "in decide" in text

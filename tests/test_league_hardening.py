"""The league against a hostile panel: pair dirs that never collide, one league per output
dir, and each bot checked once, with progress shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from simulator.arena import league as league_module
from simulator.arena import tournament as tournament_module
from simulator.arena.league import cells_of, pair_configs
from simulator.arena.outdir import DirLock
from simulator.arena.tournament import run_tournament
from simulator.cli import main as holdem


def main(argv: list[str]) -> int:
    """``holdem league``, as the command reports it (message and exit code)."""
    return holdem(["league", *argv])


def _data(tmp_path: Path, names: list[str], **extra: Any) -> dict[str, Any]:
    return {"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
            "bots": [{"name": n, "bot": "call"} for n in names],
            "hands": 4, "block_size": 2, "seed": 5, "luck": False,
            "output": {"dir": str(tmp_path / "league"), "plots": False}, **extra}


def _config(tmp_path: Path, names: list[str], **extra: Any) -> Path:
    path = tmp_path / "league.yaml"
    path.write_text(yaml.safe_dump(_data(tmp_path, names, **extra)), encoding="utf-8")
    return path


def test_pair_dirs_are_unique_whatever_the_names(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def inline(config: Any, **kwargs: Any) -> Any:  # the pairs in this process: quicker
        return run_tournament(config, **kwargs, inline=True)

    monkeypatch.setattr(tournament_module, "run_tournament", inline)
    names = ["a", "b-vs-c", "a-vs-b", "c"]
    configs = pair_configs(_data(tmp_path, names), "league.yaml")
    dirs = {c.output.dir for c in configs}
    assert len(configs) == 6 and len(dirs) == 6
    assert main([str(_config(tmp_path, names)), "--quiet"]) == 0
    for config in configs:  # each pair's results in its own dir, with its own players
        run = yaml.safe_load((Path(config.output.dir) / "run.json").read_text())
        assert run["names"] == list(config.names)


def test_names_that_only_differ_by_case_are_refused(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(_config(tmp_path, ["Ann", "bob", "ann"])), "--quiet"]) == 2
    assert "unique names (ignoring case), repeated: Ann, ann" in capsys.readouterr().err
    assert not (tmp_path / "league" / "pairs").exists()


def test_a_league_holds_a_lock_on_its_dir(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    config = _config(tmp_path, ["a", "b"])
    (tmp_path / "league").mkdir()
    with DirLock.acquire(tmp_path / "league"):  # another league at work in the same dir
        assert main([str(config), "--force", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "in use by another run" in err and err.count("\n") == 1
    assert not (tmp_path / "league" / "pairs").exists()
    assert main([str(config), "--force", "--quiet"]) == 0  # the lock is gone with its holder


def test_each_bot_is_checked_once_and_the_check_shows_progress(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    builds: list[str] = []
    trial = tournament_module._trial_build

    def counted(spec: Any, params: Any, name: str, timeout: float | None) -> str | None:
        builds.append(name)
        return trial(spec, params, name, timeout)

    def play(configs: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        print("league: the pairs play")
        cells = []
        for config in configs:  # and are not checked again
            summary = run_tournament(config, progress=False, checked=True, inline=True)
            cells += cells_of(summary.players, *config.names, summary.blocks)
        return cells

    monkeypatch.setattr(tournament_module, "_trial_build", counted)
    monkeypatch.setattr(league_module, "_play_pairs", play)
    names = ["a", "b", "c", "d"]
    assert main([str(_config(tmp_path, names))]) == 0
    assert sorted(builds) == names  # not once per pair and seat (24 builds)
    out = capsys.readouterr().out.splitlines()
    checking = [line for line in out if line.startswith("league: checking bot")]
    assert checking == [f"league: checking bot {k}/4: {n}" for k, n in enumerate(names, 1)]
    assert out[:5] == [*checking, "league: the pairs play"]

"""The files bots write and the files we read: never through a planted symlink, never a FIFO
or a device, never without a size bound; ``--force`` starts the bots' dir afresh."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml
from acpc_support import TINY

from agent.heuristic.bot import HeuristicAgent
from agent.heuristic.traces import trace_name
from agent.modeller.storage import model_name
from simulator.cli import main as holdem
from simulator.core.files import FileRefused
from simulator.core.game import GameConfig
from simulator.interop.acpc.program import AcpcProgram
from simulator.play.protocol import BotContext

LIMIT = GameConfig(variant="limit", blinds=(1, 2), small_bet=2)


def _config(tmp_path: Path, **extra: object) -> Path:
    data = {"game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
            "seats": [{"name": "hero", "bot": "heuristic", "params": {"trace": True}},
                      {"name": "villain", "bot": "call"}],
            "hands": 20, "block_size": 20, "seed": 3, "luck": False,
            "output": {"dir": str(tmp_path / "out"), "plots": False}}
    data.update(extra)
    path = tmp_path / "cfg.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_force_starts_the_bots_dir_afresh_and_planted_links_are_never_written_through(
        tmp_path: Path) -> None:
    config = _config(tmp_path)
    assert holdem(["run", str(config), "--quiet"]) == 0
    hero = tmp_path / "out" / "bots" / "hero"
    assert (hero / trace_name(0, 0)).is_file() and (hero / model_name(0, 0)).is_file()
    stale = hero / "left-by-an-earlier-run.txt"
    stale.write_text("old")
    victims = {name: tmp_path / f"victim-{i}" for i, name in enumerate(
        (trace_name(0, 0), model_name(0, 0), model_name(0, 0) + ".tmp"))}
    for name, victim in victims.items():
        (hero / name).unlink(missing_ok=True)
        (hero / name).symlink_to(victim)
    assert holdem(["run", str(config), "--force", "--quiet"]) == 0
    assert not any(v.exists() for v in victims.values())
    assert not stale.exists()
    assert not any(p.is_symlink() for p in hero.iterdir())
    assert (hero / trace_name(0, 0)).stat().st_size > 0


def test_open_file_takes_plain_names_in_the_bots_dir_and_never_follows_a_link(
        tmp_path: Path) -> None:
    context = BotContext(0, ("a", "b"), LIMIT, directory=tmp_path)
    with context.open_file("x.txt", "w") as f:
        f.write("one")
    with context.open_file("x.txt", "a") as f:
        f.write("two")
    with context.open_file("x.txt", "r") as f:
        assert f.read() == "onetwo"
    for bad in ("../x.txt", "sub/x.txt", "..", ".", ""):
        with pytest.raises(FileRefused, match="plain file name"):
            context.open_file(bad, "w")
    victim = tmp_path.parent / f"{tmp_path.name}-victim"
    (tmp_path / "link").symlink_to(victim)
    for mode in ("w", "a", "wb", "ab", "r"):
        with pytest.raises(FileRefused, match="symlink"):
            context.open_file("link", mode)
    assert not victim.exists()
    with pytest.raises(ValueError, match="mode"):
        context.open_file("x.txt", "r+")
    no_dir = BotContext(0, ("a", "b"), LIMIT)
    with pytest.raises(Exception, match="no directory"):
        no_dir.open_file("x.txt", "w")


def test_the_agent_writes_its_trace_and_model_only_through_open_file(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / trace_name(0, 0)).symlink_to(victim)
    agent = HeuristicAgent(trace=True)
    with pytest.raises(FileRefused, match="symlink"):
        agent.start(BotContext(0, ("hero", "villain"), LIMIT, directory=bots))
    (bots / trace_name(0, 0)).unlink()
    (bots / model_name(0, 0)).symlink_to(victim)
    agent = HeuristicAgent(save_model="always")
    agent.start(BotContext(0, ("hero", "villain"), LIMIT, directory=bots))
    with pytest.raises(FileRefused, match="symlink"):
        agent.close()
    assert not victim.exists()


@pytest.mark.parametrize("name", ["stderr-block0-perm0.log", "match.game",
                                  f".match.game.{os.getpid()}"])
def test_a_program_seat_never_writes_through_a_planted_link(tmp_path: Path, name: str) -> None:
    victim = tmp_path / "victim"
    victim.write_text("mine\n")
    seat = tmp_path / "bots" / "tiny"
    seat.mkdir(parents=True)
    (seat / name).symlink_to(victim)
    program = AcpcProgram([sys.executable, str(TINY), "{game}", "{host}", "{port}"],
                          startup_timeout=30)
    try:
        program.start(BotContext(0, ("tiny", "other"), LIMIT, directory=seat))
    except FileRefused:
        pass
    finally:
        program.close()
    assert victim.read_text() == "mine\n"

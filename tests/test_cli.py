import json
import subprocess
import sys
from importlib.metadata import EntryPoint

import pytest

from simulator import cli
from simulator.core.errors import HoldemError


def holdem(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simulator.cli", *args],
                          capture_output=True, text=True, timeout=120)


def test_commands_come_from_the_entry_point_group() -> None:
    names = set(cli.commands())
    assert {"run", "plot", "replay", "bots", "ehs"} <= names
    assert cli.commands()["ehs"].value.startswith("agent.")  # registered by the agent itself


def test_help_lists_every_subcommand_with_its_summary_and_exits_zero() -> None:
    done = holdem("--help")
    assert done.returncode == 0
    for name in cli.commands():
        assert f"  {name} " in done.stdout
    assert "play a match or tournament from a YAML config" in done.stdout


def test_no_command_is_a_usage_error() -> None:
    done = holdem()
    assert done.returncode == 2 and "usage: holdem" in done.stdout


def test_unknown_command_is_named_and_exits_two() -> None:
    done = holdem("fly")
    assert done.returncode == 2
    assert "unknown command 'fly'" in done.stderr


def _fake_commands(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    ep = EntryPoint(name="probe", value=value, group=cli.GROUP)
    monkeypatch.setattr(cli, "commands", lambda: {"probe": ep})


def test_a_command_that_cannot_load_is_named_and_exits_two(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _fake_commands(monkeypatch, "no_such_module_anywhere:main")
    assert cli.main(["probe"]) == 2
    err = capsys.readouterr().err
    assert "'probe'" in err and "no_such_module_anywhere" in err


def _raises_holdem_error(argv: list[str]) -> int:
    raise HoldemError("the input is wrong in this precise way")


def test_every_holdem_error_becomes_one_line_and_exit_two(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _fake_commands(monkeypatch, f"{__name__}:_raises_holdem_error")
    assert cli.main(["probe"]) == 2
    assert capsys.readouterr().err == "holdem probe: the input is wrong in this precise way\n"


def test_bots_lists_every_registered_bot_with_its_parameters() -> None:
    done = holdem("bots", "--json")
    assert done.returncode == 0, done.stderr
    entries = {e["name"]: e for e in map(json.loads, done.stdout.splitlines())}
    assert {"random", "call", "raise"} <= set(entries)
    assert entries["random"]["path"] == "simulator.play.baseline:RandomBot"
    assert set(entries["random"]["params"]) == {"fold", "call", "raise"}
    assert entries["call"]["params"] == {}
    text = holdem("bots").stdout
    assert "random" in text and "params: fold=" in text

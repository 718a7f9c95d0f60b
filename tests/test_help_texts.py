"""What ``--help`` and ``holdem bots`` show a newcomer: plain text, every option explained."""

from __future__ import annotations

import argparse
import json

import pytest

from simulator.cli import commands, usage
from simulator.play import bots_cli

MARKUP = ("``", ":func:", ":class:", ":mod:", ":data:", ":meth:")


class _Stop(BaseException):
    """Ends a command once its parser is built, before it does anything."""


def _parsers(name: str, monkeypatch: pytest.MonkeyPatch) -> list[argparse.ArgumentParser]:
    """The parser a command builds, and its sub-commands' parsers."""
    seen: list[argparse.ArgumentParser] = []

    def record(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        seen.append(self)
        raise _Stop

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", record)
    with pytest.raises(_Stop):
        commands()[name].load()(["--help"])
    out = list(seen)
    for parser in seen:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                out += list(action.choices.values())
    return out


@pytest.mark.parametrize("name", sorted(commands()))
def test_every_option_has_a_plain_help_line(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for parser in _parsers(name, monkeypatch):
        text = parser.format_help()
        assert not [m for m in MARKUP if m in text], f"{parser.prog}:\n{text}"
        missing = [a.option_strings or a.dest for a in parser._actions
                   if not a.help and not isinstance(a, argparse._HelpAction)]
        assert not missing, f"{parser.prog}: no help for {missing}"


def test_the_command_list_is_plain() -> None:
    text = usage()
    assert not [m for m in MARKUP if m in text], text


def test_bots_lists_parameters_as_a_config_spells_them(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    assert bots_cli.main(["--json"]) == 0
    entries = {e["name"]: e for e in map(json.loads, capsys.readouterr().out.splitlines())}
    assert set(entries["random"]["params"]) == {"fold", "call", "raise"}
    assert entries["random"]["params"]["raise"] == pytest.approx(1 / 3)
    assert bots_cli.main([]) == 0
    text = capsys.readouterr().out
    assert "raise_=" not in text and "raise=0.3333" in text
    assert not [m for m in MARKUP if m in text], text


@pytest.mark.parametrize("name", ["run", "league", "exploit"])
def test_commands_that_take_a_config_say_it_runs_code(name: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A config names bots whose modules run at import: the help says so, in plain words."""
    text = " ".join(_parsers(name, monkeypatch)[0].format_help().split())
    assert "A config names code that runs with your rights" in text
    assert "'module:Class' bot's module is imported" in text
    assert "Read a config from elsewhere, and the modules it names, before you run it." in text


def test_bots_lists_the_agents_documented_parameters(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    """Not ``config=None`` alone: the agent takes dotted overrides its signature hides."""
    assert bots_cli.main(["--json"]) == 0
    entries = {e["name"]: e for e in map(json.loads, capsys.readouterr().out.splitlines())}
    params = entries["heuristic"]["params"]
    assert params["config"] is None and params["trace"] is False
    assert params["selector.temperature"] == pytest.approx(0.04)
    assert params["defense.realization"] == pytest.approx(0.8)
    assert "preflop.tightness" in params and "modeller.min_matches" in params
    assert bots_cli.main([]) == 0
    text = capsys.readouterr().out
    block = text.split("\nheuristic ", 1)[1].split("\nloki ", 1)[0]
    assert "trace=False" in block and "selector.temperature=0.04" in block
    assert max(len(line) for line in block.splitlines()[1:]) <= 100

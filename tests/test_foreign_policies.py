"""A policy whose actions are not ``Action`` values (strings, lists,
numbers, an Action of a string kind, a raise range of float bounds) is its bot's fault, under
``on_bot_error`` like any other, wherever a policy is read: AIVAT's questions (``policy`` and
``step_with_policy``), LBR's (``holdem exploit``) and a check of its own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from simulator.arena.config import parse_config
from simulator.arena.tournament import TournamentError, run_tournament
from simulator.cli import main as holdem
from simulator.core.actions import Action, LegalActions
from simulator.play.protocol import Policy, PolicyError


def exploit_main(argv: list[str]) -> int:
    """``holdem exploit``, as the command reports it (message and exit code)."""
    return holdem(["exploit", *argv])

LIMIT = {"variant": "limit", "blinds": [1, 2], "small_bet": 2, "stack": 2000}
SHAPES = ["string", "list", "number", "kind", "range"]


def _run_config(tmp_path: Path, bot: dict[str, Any], on_bot_error: str) -> Any:
    return parse_config({
        "game": LIMIT, "seats": [bot, {"name": "c", "bot": "call"}], "hands": 20,
        "block_size": 10, "seed": 4, "workers": 1, "luck_samples": 20,
        "on_bot_error": on_bot_error, "output": {"dir": str(tmp_path / "out"), "plots": False}})


@pytest.mark.parametrize("step", [False, True])
@pytest.mark.parametrize("shape", SHAPES)
def test_aivat_questions_count_a_foreign_policy_as_the_bots_fault(
        tmp_path: Path, shape: str, step: bool) -> None:
    bot = {"name": "odd", "bot": "hostile_bots:ForeignPolicyBot",
           "params": {"shape": shape, "step": step}}
    summary = run_tournament(_run_config(tmp_path, bot, "fold"), progress=False, inline=True)
    assert summary.players["odd"]["faults"] > 0 and summary.players["c"]["faults"] == 0
    block = json.loads((tmp_path / "out" / "blocks.jsonl").read_text().splitlines()[0])
    message = block["faults"][0]["message"]
    assert "policy: " in message and ("not an Action" in message or "raise range" in message
                                      or "not an ActionKind" in message), message
    with pytest.raises(TournamentError, match="bot 'odd'.*policy"):
        run_tournament(_run_config(tmp_path, bot, "stop"), progress=False, inline=True,
                       force=True)


@pytest.mark.parametrize("shape", ["string", "list"])
def test_exploit_counts_a_foreign_policy_as_the_bots_fault(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], shape: str) -> None:
    data = {"game": LIMIT, "bot": {"name": "odd", "bot": "hostile_bots:ForeignPolicyBot",
                                   "params": {"shape": shape}},
            "hands": 20, "block_size": 10, "seed": 3, "workers": 1, "on_bot_error": "fold",
            "output": {"dir": str(tmp_path / "out"), "plots": False}}
    path = tmp_path / "exploit.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    code = exploit_main([str(path), "--quiet"])
    _, err = capsys.readouterr()
    assert code == 0, err
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["runs"]["adaptive"]["faults"] > 0


@pytest.mark.parametrize(("entries", "probabilities", "message"), [
    (("call",), [[1.0]], "an entry 'call' (str), not an Action"),
    ((["c"],), [[1.0]], "an entry ['c'] (list), not an Action"),
    ((Action.call(), None), [[0.5, 0.5]], "an entry None (NoneType)"),
    ((Action.call(),), None, "probabilities are not an array"),
    ([Action.call()], [[1.0]], "actions are a list, not a tuple"),
])
def test_check_refuses_parts_of_the_wrong_type(entries: Any, probabilities: Any,
                                               message: str) -> None:
    policy = Policy((Action.call(),), np.ones((1, 1)))
    object.__setattr__(policy, "actions", entries)  # as a bot may, past the constructor
    if probabilities is not None:
        object.__setattr__(policy, "probabilities", np.array(probabilities))
    else:
        object.__setattr__(policy, "probabilities", [[1.0]])
    with pytest.raises(PolicyError, match="^policy: ") as info:
        policy.check(LegalActions(True, 2, 4, 4))
    assert message in str(info.value)

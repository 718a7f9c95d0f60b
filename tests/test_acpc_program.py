"""External programs as tournament seats (``bot: acpc-program``): a fresh process per block
and permutation, speaking ACPC to our dealer on a free 127.0.0.1 port, its output logged in
the run's dir; a crash or a hang is a fault under ``on_bot_error``/``bot_timeout``; a game an
ACPC program cannot be told is refused before any work."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from acpc_support import TINY

from simulator.arena.config import ConfigError, parse_config
from simulator.arena.tournament import TournamentError, run_tournament
from simulator.cli import main as holdem
from simulator.core.game import GameConfig
from simulator.interop.acpc.program import AcpcProgram
from simulator.play.match import play_match
from simulator.play.protocol import BotContext


def run_main(argv: list[str]) -> int:
    """``holdem run``, as the command reports it (message and exit code)."""
    return holdem(["run", *argv])

LIMIT = {"variant": "limit", "blinds": [5, 10], "small_bet": 10, "stack": 1000}


def _program(*extra: str) -> dict:
    return {"name": "tiny", "bot": "acpc-program",
            "params": {"command": [sys.executable, str(TINY), "{game}", "{host}", "{port}",
                                   *extra], "startup_timeout": 30}}


def _config(tmp_path: Path, program: dict, **extra: object) -> dict:
    data = {"game": LIMIT, "seats": [program, {"name": "caller", "bot": "call"}],
            "hands": 40, "seed": 2, "block_size": 20, "duplicate": True, "luck": False,
            "output": {"dir": str(tmp_path / "out"), "plots": False}}
    data.update(extra)
    return data


def test_a_tournament_seat_played_by_an_external_program(tmp_path: Path) -> None:
    config = parse_config(_config(tmp_path, _program("--seed", "3")))
    summary = run_tournament(config, progress=False)
    # 2 blocks x 2 permutations, each a fresh process that played its 20 hands to the end
    assert summary.deals == 40 and summary.players["tiny"]["hands"] == 80
    assert summary.data["faults"] == 0
    logs = sorted((tmp_path / "out" / "bots" / "tiny").glob("stderr-*.log"))
    assert [p.name for p in logs] == [f"stderr-block{b}-perm{p}.log" for b in (0, 1)
                                      for p in (0, 1)]
    # the program's output: its view of every hand, from its position each hand
    for log in logs:
        lines = log.read_text().splitlines()
        assert len(lines) == 21 and lines[-1] == "hands 20"
    game = (tmp_path / "out" / "bots" / "tiny" / "match.game").read_text()
    assert "limit" in game and "stack = 1000 1000" in game
    # duplicate: the program's result and the caller's cancel over both seats' cards
    assert summary.players["tiny"]["mean"] == pytest.approx(-summary.players["caller"]["mean"])


@pytest.mark.parametrize("fault, timeout", [("crash", None), ("hang", 0.5),
                                            ("disconnect", None)])
def test_a_program_that_fails_is_a_fault_and_its_seat_folds(tmp_path: Path, fault: str,
                                                            timeout: float | None) -> None:
    extra: dict = {"on_bot_error": "fold", "hands": 20, "duplicate": False}
    if timeout is not None:
        extra["bot_timeout"] = timeout
    program = _program("--fault", fault, "--fault-hand", "4")
    if fault == "hang":
        program["params"]["timeout"] = None  # the match's bot_timeout catches it
    start = time.monotonic()
    summary = run_tournament(parse_config(_config(tmp_path, program, **extra)), progress=False)
    assert time.monotonic() - start < 60
    assert summary.deals == 20
    faults = summary.players["tiny"]["faults"]
    assert faults >= 1
    blocks = [json.loads(line) for line in
              (tmp_path / "out" / "blocks.jsonl").read_text().splitlines()]
    records = [f for b in blocks for f in b["faults"]]
    assert len(records) == faults and all(f["name"] == "tiny" for f in records)
    first = records[0]
    assert first["hand"] in (4, 5, 6), first
    assert ("gave no answer" in first["message"] if fault == "hang"
            else "disconnected" in first["message"])
    # every later decision of the block fails at once ("no longer acts"), no more waiting
    assert all("no longer acts" in f["message"] for f in records[1:])


def test_a_program_that_fails_stops_the_run_under_stop(tmp_path: Path) -> None:
    config = parse_config(_config(tmp_path, _program("--fault", "crash", "--fault-hand", "2"),
                                  duplicate=False))
    with pytest.raises(TournamentError, match="disconnected"):
        run_tournament(config, progress=False)


def test_configs_an_acpc_program_cannot_play_are_refused_with_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    carried = _config(tmp_path, _program(), game={**LIMIT, "reset_stacks": False},
                      duplicate=False)
    with pytest.raises(ConfigError, match=r"seats\[0\] \(tiny\): reset_stacks"):
        run_tournament(parse_config(carried), progress=False)
    path = tmp_path / "carried.yaml"
    import yaml

    path.write_text(yaml.safe_dump(carried))
    assert run_main([str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "reset_stacks" in err[0]
    assert not (tmp_path / "out").exists()
    antes = _config(tmp_path, _program(), game={**LIMIT, "ante": 1})
    with pytest.raises(ConfigError, match="ante"):
        run_tournament(parse_config(antes), progress=False)
    potlimit = _config(tmp_path, _program(), game={"variant": "potlimit", "blinds": [5, 10],
                                                   "stack": 1000})
    path.write_text(yaml.safe_dump(potlimit))
    assert run_main([str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "seats[0] (tiny): variant: ACPC games are limit or nolimit" in (
        err[0]), err
    no_port = _config(tmp_path, {"name": "tiny", "bot": "acpc-program",
                                 "params": {"command": ["prog", "{host}"]}})
    with pytest.raises(ConfigError, match="port"):
        run_tournament(parse_config(no_port), progress=False)


def test_a_program_that_cannot_start_or_never_connects_is_a_fault(tmp_path: Path) -> None:
    game = GameConfig(variant="limit", blinds=(5, 10), small_bet=10, stack=1000)
    for command, problem in ([[str(tmp_path / "missing"), "{port}"], "cannot start"],
                             [[sys.executable, "-c", "import sys; sys.exit(5)", "{port}"],
                              "exited with status 5"],
                             [[sys.executable, "-c", "import time; time.sleep(30)", "{port}"],
                              "did not connect within 1.0s"]):
        bot = AcpcProgram(command, startup_timeout=1.0)
        results = list(play_match(game, [bot, _Caller()], 3, seed=1, on_bot_error="fold",
                                  directory=tmp_path))
        faults = [f.message for r in results for f in r.faults]
        assert problem in faults[0] and len(faults) >= 2, faults
        assert bot.process is None  # ended


def test_the_program_gets_the_seat_the_arena_gives_it(tmp_path: Path) -> None:
    """Started by hand: start() connects, close() ends the process."""
    game = GameConfig(variant="nolimit", blinds=(50, 100), stack=20000)
    bot = AcpcProgram([sys.executable, str(TINY), "{game}", "{host}", "{port}"])
    bot.start(BotContext(1, ("a", "b", "c"), game, 3, 1, tmp_path))
    try:
        assert bot.process is not None and bot.process.poll() is None
        assert (tmp_path / "stderr-block3-perm1.log").exists()
        assert "numPlayers = 3" in (tmp_path / "match.game").read_text()
    finally:
        bot.close()
    assert bot.process is None


class _Caller:
    def act(self, observation):  # noqa: ANN001, ANN201
        from simulator.core.actions import Action

        return Action.call()

"""Settings files (run and league configs, agent parameter files and their sections, ACPC
``.game`` files, a seat's ``--params``) are read within bounds: a regular file of a few
megabytes at most, so ``/dev/zero``, a FIFO or a huge file is one line and exit 2, never a
hang or a ``MemoryError``. Dealer logs and hand histories are read as regular files too."""

from __future__ import annotations

import functools
import io
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from simulator.arena.acpc_cli import main as acpc
from simulator.cli import main as holdem
from simulator.core.validation import MAX_SETTINGS_BYTES
from simulator.interop.acpc.gamedef import SHIPPED

LIMIT = SHIPPED / "holdem.limit.2p.reverse_blinds.game"


def _bad_file(tmp_path: Path, kind: str) -> Path:
    if kind == "dev-zero":
        return Path("/dev/zero")
    if kind == "fifo":
        os.mkfifo(tmp_path / "fifo.yaml")
        return tmp_path / "fifo.yaml"
    path = tmp_path / "huge.yaml"
    path.write_text("# padding\n" * (MAX_SETTINGS_BYTES // 10 + 1))
    return path


def _in_time(call: Callable[[], int]) -> int:
    """The call's result, or fail if it blocks (a FIFO opened without a writer)."""
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(call()), daemon=True)
    thread.start()
    thread.join(30)
    assert result, "blocked"
    return result[0]


KINDS = ["dev-zero", "fifo", "huge"]
PROBLEM = {"dev-zero": "not a regular file", "fifo": "not a regular file", "huge": "more than"}


@pytest.mark.parametrize("kind", KINDS)
def test_a_run_config_that_is_not_a_settings_file_is_one_line(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], kind: str) -> None:
    path = _bad_file(tmp_path, kind)
    assert _in_time(lambda: holdem(["run", str(path)])) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and PROBLEM[kind] in err and str(path) in err


@pytest.mark.parametrize("kind", KINDS)
def test_an_agent_parameter_file_that_is_not_a_settings_file_is_one_line(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], kind: str) -> None:
    bad = _bad_file(tmp_path, kind)
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({
        "seats": [{"name": "hero", "bot": "heuristic", "params": {"config": str(bad)}},
                  {"name": "villain", "bot": "call"}],
        "hands": 2, "seed": 1, "output": {"dir": str(tmp_path / "out"), "plots": False}}))
    assert _in_time(lambda: holdem(["run", str(config), "--quiet"])) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and PROBLEM[kind] in err, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("kind", KINDS)
def test_acpc_game_and_params_files_are_read_within_bounds(tmp_path: Path, kind: str) -> None:
    bad = _bad_file(tmp_path, kind)
    for args in (["game", str(bad)],
                 ["dealer", str(LIMIT), "--hands", "1", "--seed", "1", "--seat", "a=call",
                  "--seat", "b=call", "--params", f"a={bad}"]):
        out, err = io.StringIO(), io.StringIO()
        assert _in_time(functools.partial(acpc, args, out, err)) == 2
        assert PROBLEM[kind] in err.getvalue() and err.getvalue().count("\n") == 1


@pytest.mark.parametrize("kind", ["dev-zero", "fifo"])
def test_a_log_or_a_history_that_is_not_a_regular_file_is_one_line(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], kind: str) -> None:
    bad = _bad_file(tmp_path, kind)
    out, err = io.StringIO(), io.StringIO()
    assert _in_time(functools.partial(acpc, ["log2phh", str(bad), "--game", str(LIMIT)],
                                      out, err)) == 2
    assert "not a regular file" in err.getvalue() and err.getvalue().count("\n") == 1
    assert _in_time(lambda: holdem(["replay", str(bad)])) == 2
    assert "not a regular file" in capfd.readouterr().err

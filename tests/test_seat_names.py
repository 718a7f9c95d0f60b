"""One seat-name rule everywhere: run configs, league panels, the ACPC dealer's seats and the
client's name. A name is a directory, a CSV column and an ACPC log field, so it must be safe in
all three."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from simulator.arena.acpc_cli import main as acpc
from simulator.arena.config import ConfigError, parse_config
from simulator.core.names import RULE, seat_name_problem
from simulator.interop.acpc.gamedef import SHIPPED

LIMIT = SHIPPED / "holdem.limit.2p.reverse_blinds.game"
BAD = ["..", ".", "...", "a/b", "a\nb", "a,b", "a b", "a|b", "a:b", "", "x" * 41, "é"]


def _run(name: str, out: Path) -> dict:
    return {"seats": [{"name": name, "bot": "call"}, {"name": "b", "bot": "call"}],
            "hands": 2, "seed": 1, "output": {"dir": str(out)}}


@pytest.mark.parametrize("name", BAD)
def test_a_run_config_refuses_unsafe_seat_names(tmp_path: Path, name: str) -> None:
    with pytest.raises(ConfigError, match=r"seats\[0\]\.name: expected 1-40 letters"):
        parse_config(_run(name, tmp_path / "out"))
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("name", BAD)
def test_the_dealer_refuses_the_same_names_before_listening(name: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = acpc(["dealer", str(LIMIT), "--hands", "2", "--seed", "1", "--seat", f"{name}=call",
                 "--seat", "b=call"], out, err)
    assert code == 2 and out.getvalue() == ""
    if name:  # an empty name is "expected NAME=BOT"
        assert f"--seat: expected {RULE}, got {name!r}" in err.getvalue()
    assert err.getvalue().count("\n") == 1


def test_the_client_name_follows_the_rule(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = acpc(["connect", "127.0.0.1", "1", "--game", str(LIMIT), "--name", "a,b"], out, err)
    assert code == 2 and f"--name: expected {RULE}" in err.getvalue()


def test_dealer_seat_names_differ_ignoring_case() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert acpc(["dealer", str(LIMIT), "--hands", "2", "--seed", "1", "--seat", "a=call",
                 "--seat", "A=call"], out, err) == 2
    assert "repeated: A, a" in err.getvalue()


@pytest.mark.parametrize("name", ["hero", "a.b", "x-2", "A_b+c", "..a", "x" * 40])
def test_ordinary_names_pass(name: str) -> None:
    assert seat_name_problem(name) is None

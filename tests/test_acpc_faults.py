"""Fault injection at our dealer: a client that sends garbage, echoes the wrong state, times
out, disconnects or crashes mid-hand, or sends an illegal action. The dealer reports it, exits
1 and keeps the hands finished before it (the log without a SCORE line, the per-hand results,
summary.json marked incomplete). Every test ends by itself within a bounded time."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from acpc_support import finish, run_dealer, tiny

from simulator.interop.acpc.gamedef import SHIPPED

LIMIT = SHIPPED / "holdem.limit.2p.reverse_blinds.game"
NOLIMIT = SHIPPED / "holdem.nolimit.2p.reverse_blinds.game"
FAULT_HAND = 6


def _dealer(game: Path, out_dir: Path, *extra: str) -> tuple:
    return run_dealer([str(game), "--hands", "40", "--seed", "9", "--seat", "them=acpc",
                       "--seat", "us=random", "--output", str(out_dir), "--no-luck",
                       "--connect-timeout", "20", *extra])


def _kept(out_dir: Path) -> tuple[list[str], dict]:
    log = (out_dir / "acpc.log").read_text().splitlines()
    summary = json.loads((out_dir / "summary.json").read_text())
    rows = (out_dir / "hands.csv").read_text().splitlines()[1:]
    hands = [line for line in log if line.startswith("STATE:")]
    assert len(rows) == len(hands) == summary["deals"]
    return log, summary


@pytest.mark.parametrize("game, fault, message", [
    (LIMIT, "garbage", "does not echo the state sent"),
    (NOLIMIT, "echo", "does not echo the state sent"),
    (LIMIT, "hang", "no reply within 1.0s"),
    (NOLIMIT, "disconnect", "disconnected"),
    (LIMIT, "crash", "disconnected"),
    (NOLIMIT, "illegal", "illegal action"),
])
def test_a_faulty_client_ends_the_match_with_exit_1_keeping_finished_hands(
        tmp_path: Path, game: Path, fault: str, message: str) -> None:
    thread, out, err, ports = _dealer(game, tmp_path, "--timeout", "1")
    start = time.monotonic()
    client = tiny(game, ports[0], "--fault", fault, "--fault-hand", str(FAULT_HAND))
    status, _ = finish(thread, client)
    assert time.monotonic() - start < 30
    assert status == 1
    lines = err.getvalue().strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "them" in lines[0], lines
    log, summary = _kept(tmp_path)
    # the hands before the fault are kept; a fault hits the first decision from FAULT_HAND on
    assert FAULT_HAND <= len(log) < 40 and not summary["complete"]
    assert not any(line.startswith("SCORE") for line in log)
    assert "SCORE" not in out.getvalue()


def test_illegal_actions_become_calls_when_asked(tmp_path: Path) -> None:
    thread, out, err, ports = _dealer(LIMIT, tmp_path, "--illegal", "call")
    client = tiny(LIMIT, ports[0], "--fault", "illegal", "--fault-hand", str(FAULT_HAND))
    status, _ = finish(thread, client)
    assert status == 0, err.getvalue()
    log, summary = _kept(tmp_path)
    assert len(log) == 41 and log[-1].startswith("SCORE:") and summary["complete"]


def test_a_bad_version_line_is_dropped_and_the_real_client_plays(tmp_path: Path) -> None:
    thread, out, err, ports = _dealer(LIMIT, tmp_path)
    with socket.create_connection(("127.0.0.1", ports[0]), timeout=10) as sock:
        sock.sendall(b"HELLO DEALER\r\n")
        assert sock.recv(100) == b""  # dropped
        status, _ = finish(thread, tiny(LIMIT, ports[0]))
    assert status == 0 and "expected a version line" in err.getvalue()
    log, summary = _kept(tmp_path)
    assert summary["deals"] == 40


def test_nobody_connecting_ends_the_match_after_the_connect_timeout(tmp_path: Path) -> None:
    start = time.monotonic()
    thread, out, err, ports = run_dealer([str(LIMIT), "--hands", "5", "--seed", "1", "--seat",
                                          "a=acpc", "--seat", "b=acpc", "--connect-timeout",
                                          "0.5"])
    status, _ = finish(thread)
    assert status == 1 and "nobody connected" in err.getvalue()
    assert time.monotonic() - start < 20 and len(ports) == 2


def test_fixed_ports_and_the_host_are_used(tmp_path: Path) -> None:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    thread, out, err, ports = run_dealer([str(LIMIT), "--hands", "20", "--seed", "1", "--seat",
                                          "a=acpc", "--seat", "b=call", "--ports", str(port),
                                          "--host", "127.0.0.1", "--connect-timeout", "20"])
    assert ports == [port]
    status, outputs = finish(thread, tiny(LIMIT, port))
    assert status == 0 and outputs[0].splitlines()[-1] == "hands 20"


@pytest.mark.parametrize("args, problem", [
    (["--seat", "a=acpc"], "the game has 2 players"),
    (["--seat", "a=acpc", "--seat", "a=call"], "unique"),
    (["--seat", "a=acpc", "--seat", "b"], "NAME=BOT"),
    (["--seat", "a=acpc", "--seat", "b=no_such_bot"], "no_such_bot"),
    (["--seat", "a=acpc", "--seat", "b=call", "--ports", "1,2"], "--ports"),
    (["--seat", "a=acpc", "--seat", "b=call", "--params", "c=x.yaml"], "--params"),
    (["--seat", "a=acpc", "--seat", "b=call", "--phh"], "--phh"),
])
def test_bad_dealer_arguments_exit_2_before_listening(args: list[str], problem: str) -> None:
    import io

    from simulator.arena.acpc_cli import main

    out, err = io.StringIO(), io.StringIO()
    assert main(["dealer", str(LIMIT), "--hands", "5", "--seed", "1", *args], out, err) == 2
    assert out.getvalue() == "" and problem in err.getvalue()
    assert len(err.getvalue().strip().splitlines()) == 1

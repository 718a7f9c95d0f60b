"""The ACPC commands against hostile peers and users: every wait bounded (the handshake, a
trickled line, a silent dealer), durations finite and positive, Ctrl-C and SIGTERM ending as
``holdem run`` does, and output paths and ports checked before anything is connected or
written. Every test ends by itself within a bounded time."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml
from acpc_support import TINY, finish, run_dealer, tiny

from simulator.arena.acpc_cli import main as acpc
from simulator.cli import main as holdem
from simulator.interop.acpc.connection import LineConnection, listen
from simulator.interop.acpc.gamedef import SHIPPED
from simulator.interop.acpc.protocol import ProtocolError


def run_main(argv: list[str]) -> int:
    """``holdem run``, as the command reports it (message and exit code)."""
    return holdem(["run", *argv])

LIMIT = SHIPPED / "holdem.limit.2p.reverse_blinds.game"
ROOT = Path(__file__).resolve().parents[1]
BAD_SECONDS = ["nan", "inf", "-inf", "1e308", "-1", "0", "abc"]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent),
                                                         str(ROOT)])}


@contextmanager
def _server(script: bytes = b"") -> Iterator[tuple[int, threading.Event]]:
    """A dealer stand-in: accepts one connection (then sets the event), sends ``script`` and
    then says nothing."""
    listener = listen("127.0.0.1", 0)
    done, connected = threading.Event(), threading.Event()

    def serve() -> None:
        listener.settimeout(60)
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        with conn:
            conn.sendall(script)
            connected.set()
            done.wait(60)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1], connected
    finally:
        done.set()
        listener.close()
        thread.join(5)


def _pair() -> tuple[LineConnection, socket.socket]:
    listener = listen("127.0.0.1", 0)
    writer = socket.create_connection(listener.getsockname(), timeout=5)
    sock, _ = listener.accept()
    listener.close()
    return LineConnection(sock, "peer"), writer


def _trickle(sock: socket.socket, data: bytes, every: float) -> threading.Thread:
    def send() -> None:
        for byte in data:
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                return
            time.sleep(every)

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread


# --- the handshake and every read are bounded ---------------------------------------------


def test_a_silent_connection_never_blocks_the_real_client(tmp_path: Path) -> None:
    thread, out, err, ports = run_dealer([str(LIMIT), "--hands", "20", "--seed", "1", "--seat",
                                          "them=acpc", "--seat", "us=call", "--timeout", "3",
                                          "--output", str(tmp_path / "out"), "--no-luck"])
    silent = socket.create_connection(("127.0.0.1", ports[0]), timeout=10)
    try:
        time.sleep(0.2)  # the silent one is first in line
        start = time.monotonic()
        status, outputs = finish(thread, tiny(LIMIT, ports[0]))
        assert status == 0, err.getvalue()
        assert outputs[0].splitlines()[-1] == "hands 20"
        assert time.monotonic() - start < 30
    finally:
        silent.close()


def test_the_handshake_has_a_default_timeout() -> None:
    thread, out, err, ports = run_dealer([str(LIMIT), "--hands", "2", "--seed", "1", "--seat",
                                          "them=acpc", "--seat", "us=call",
                                          "--connect-timeout", "40"])
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", ports[0]), timeout=30) as silent:
        assert silent.recv(10) == b""  # dropped by the dealer, not by our timeout
    assert time.monotonic() - start < 20
    assert "no version line within 10.0s" in err.getvalue()
    status, _ = finish(thread, tiny(LIMIT, ports[0]))
    assert status == 0


def test_a_timeout_bounds_the_whole_line_not_each_byte() -> None:
    conn, writer = _pair()
    try:
        _trickle(writer, b"VERSION:2.0.0\r\n", every=0.2)  # 3 s for the whole line
        start = time.monotonic()
        with pytest.raises(ProtocolError, match="no reply within 1.0s"):
            conn.read(1.0)
        assert time.monotonic() - start < 2.0
    finally:
        writer.close()
        conn.close()


def test_a_trickled_version_line_holds_the_dealer_no_longer_than_its_timeouts() -> None:
    thread, out, err, ports = run_dealer([str(LIMIT), "--hands", "2", "--seed", "1", "--seat",
                                          "them=acpc", "--seat", "us=call", "--timeout", "1",
                                          "--connect-timeout", "3"])
    start = time.monotonic()
    writer = socket.create_connection(("127.0.0.1", ports[0]), timeout=10)
    try:
        _trickle(writer, b"VERSION:2.0.0\r\n", every=1.0)
        status, _ = finish(thread)
    finally:
        writer.close()
    assert status == 1 and "nobody connected" in err.getvalue()
    assert time.monotonic() - start < 8


@pytest.mark.parametrize("script", [b"", b"MATCHSTATE:0:0::AsKs|"])  # silent; a line never ends
def test_connect_gives_up_on_a_dealer_that_sends_no_whole_line(script: bytes) -> None:
    out, err = io.StringIO(), io.StringIO()
    with _server(script) as (port, _):
        start = time.monotonic()
        code = acpc(["connect", "127.0.0.1", str(port), "--game", str(LIMIT), "--timeout", "1"],
                    out, err)
    assert code == 1 and "no reply within 1.0s" in err.getvalue()
    assert out.getvalue().startswith("0 hands")
    assert time.monotonic() - start < 10


def test_connect_waits_a_bounded_time_by_default() -> None:
    from simulator.arena.acpc_cli import CLIENT_TIMEOUT, _durations, _parser

    args = _parser().parse_args(["connect", "127.0.0.1", "1", "--game", str(LIMIT)])
    _durations(args, connect_timeout=False, timeout=True)
    assert args.timeout == CLIENT_TIMEOUT and 0 < CLIENT_TIMEOUT < 3600


# --- durations ---------------------------------------------------------------------------------


@pytest.mark.parametrize("value", BAD_SECONDS)
@pytest.mark.parametrize("command, option", [("dealer", "--timeout"),
                                             ("dealer", "--connect-timeout"),
                                             ("connect", "--timeout"),
                                             ("connect", "--connect-timeout")])
def test_every_duration_on_the_command_line_is_finite_and_positive(
        command: str, option: str, value: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    args = (["dealer", str(LIMIT), "--hands", "2", "--seed", "1", "--seat", "a=acpc", "--seat",
             "b=call"] if command == "dealer" else
            ["connect", "127.0.0.1", "1", "--game", str(LIMIT)])
    assert acpc([*args, f"{option}={value}"], out, err) == 2
    assert out.getvalue() == ""
    assert err.getvalue().count("\n") == 1 and f"{option}: expected seconds > 0" in err.getvalue()


def _program(params: dict) -> dict:
    return {"name": "prog", "bot": "acpc-program",
            "params": {"command": [sys.executable, str(TINY), "{game}", "{host}", "{port}"],
                       **params}}


@pytest.mark.parametrize("where, value", [
    ("bot_timeout", ".inf"), ("bot_timeout", ".nan"), ("bot_timeout", "1.0e+308"),
    ("startup_timeout", ".nan"), ("startup_timeout", ".inf"), ("startup_timeout", "-1"),
    ("timeout", ".nan"), ("timeout", ".inf"),
])
def test_every_duration_in_a_config_is_finite_and_positive(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], where: str, value: str) -> None:
    data = {"game": {"variant": "limit", "blinds": [5, 10], "small_bet": 10, "stack": 1000},
            "seats": [_program({}), {"name": "caller", "bot": "call"}], "hands": 4, "seed": 1,
            "bot_timeout": 5.0, "luck": False,
            "output": {"dir": str(tmp_path / "out"), "plots": False}}
    text = yaml.safe_dump(data)
    if where == "bot_timeout":
        text = text.replace("bot_timeout: 5.0", f"bot_timeout: {value}")
    else:
        text = text.replace("    - '{port}'\n", f"    - '{{port}}'\n    {where}: {value}\n")
    (tmp_path / "c.yaml").write_text(text)
    assert f"{where}: {value}" in text
    start = time.monotonic()
    assert run_main([str(tmp_path / "c.yaml"), "--quiet"]) == 2
    err = capfd.readouterr().err
    assert where in err and err.count("\n") == 1, err
    assert not (tmp_path / "out").exists() and time.monotonic() - start < 30


# --- interrupts ---------------------------------------------------------------------------------


def _sigint_default() -> None:
    """In the child: SIGINT as a user's Ctrl-C, even when the test runner was started with it
    ignored (a background job of a shell without job control), which children inherit."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _dealer_process(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "simulator.cli", "acpc", "dealer", str(LIMIT), "--hands", "500",
         "--seed", "1", "--seat", "them=acpc", "--seat", "us=call", "--no-luck",
         "--output", str(tmp_path / "out"), "--quiet", *extra],
        cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=_sigint_default)
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline().split()[0])


def _wait_for_hands(log: Path, count: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if log.exists() and log.read_text().count("\n") >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"no {count} hands in {log}")


@pytest.mark.parametrize("sig, said", [(signal.SIGINT, "interrupted"),
                                       (signal.SIGTERM, "terminated (SIGTERM)")])
def test_an_interrupted_dealer_keeps_its_hands_and_says_so(tmp_path: Path, sig: int,
                                                           said: str) -> None:
    proc, port = _dealer_process(tmp_path, "--timeout", "60")
    client = tiny(LIMIT, port, "--fault", "hang", "--fault-hand", "6")
    try:
        _wait_for_hands(tmp_path / "out" / "acpc.log", 5)
        time.sleep(0.3)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        client.kill()
        client.communicate()
    assert proc.returncode == 1
    assert err.count("\n") == 1 and said in err and "after 6 finished hands" in err, err
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    rows = (tmp_path / "out" / "hands.csv").read_text().splitlines()[1:]
    assert summary["deals"] == len(rows) == 6 and summary["complete"] is False


def test_a_dealer_interrupted_while_waiting_writes_an_empty_summary(tmp_path: Path) -> None:
    proc, _ = _dealer_process(tmp_path)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1 and err.count("\n") == 1 and "interrupted" in err, err
    assert "Traceback" not in err
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["deals"] == 0


@pytest.mark.parametrize("sig, said", [(signal.SIGINT, "interrupted"),
                                       (signal.SIGTERM, "terminated (SIGTERM)")])
def test_an_interrupted_client_says_so_and_exits_non_zero(sig: int, said: str) -> None:
    with _server(b"# hello\r\n") as (port, connected):
        proc = subprocess.Popen(
            [sys.executable, "-m", "simulator.cli", "acpc", "connect", "127.0.0.1", str(port),
             "--game", str(LIMIT), "--timeout", "none"],
            cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=_sigint_default)
        assert connected.wait(60)
        time.sleep(0.3)  # waiting for the dealer's first line
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 1 and out.startswith("0 hands")
    assert err.strip() == f"holdem acpc connect: {said}"


# --- output paths and ports before any work ----------------------------------------------------


@pytest.mark.parametrize("kind", ["dir", "missing parent", "symlink"])
def test_connect_checks_its_phh_path_before_connecting(tmp_path: Path, kind: str) -> None:
    target = {"dir": tmp_path, "missing parent": tmp_path / "nowhere" / "x.phhs",
              "symlink": tmp_path / "link.phhs"}[kind]
    if kind == "symlink":
        target.symlink_to(tmp_path / "victim")
    listener = listen("127.0.0.1", 0)
    try:
        out, err = io.StringIO(), io.StringIO()
        code = acpc(["connect", "127.0.0.1", str(listener.getsockname()[1]), "--game",
                     str(LIMIT), "--phh", str(target)], out, err)
        listener.settimeout(0.3)
        with pytest.raises(TimeoutError):
            listener.accept()  # nobody connected
    finally:
        listener.close()
    assert code == 2 and "--phh" in err.getvalue() and err.getvalue().count("\n") == 1
    assert not (tmp_path / "victim").exists()


def test_a_port_in_use_is_refused_before_the_output_dir_and_the_rerun_works(
        tmp_path: Path) -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    out_dir = tmp_path / "out"
    args = [str(LIMIT), "--hands", "10", "--seed", "1", "--seat", "them=acpc", "--seat",
            "us=call", "--ports", str(port), "--output", str(out_dir), "--no-luck"]
    out, err = io.StringIO(), io.StringIO()
    try:
        assert acpc(["dealer", *args], out, err) == 2
    finally:
        busy.close()
    assert f"127.0.0.1:{port}" in err.getvalue() and err.getvalue().count("\n") == 1
    assert not out_dir.exists()
    thread, out, err, ports = run_dealer([*args, "--connect-timeout", "30"])
    status, _ = finish(thread, tiny(LIMIT, ports[0]))
    assert status == 0, err.getvalue()

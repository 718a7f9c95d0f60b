"""What ``holdem acpc`` tells a person: labelled ports, a closed port before any result, the
file ``log2phh`` wrote, and a dealer's output dir that ``holdem plot`` can draw."""

from __future__ import annotations

import io
import socket
from pathlib import Path

from acpc_support import finish, run_dealer

from simulator.arena.acpc_cli import main
from simulator.arena.plots import main as plot

GAME = "holdem.limit.2p.reverse_blinds"


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(args), out, err)
    return status, out.getvalue(), err.getvalue()


def test_the_dealer_labels_the_port_it_prints() -> None:
    thread, out, err, ports = run_dealer([GAME, "--hands", "2", "--seed", "1", "--seat",
                                          "theirs=acpc", "--seat", "ours=call",
                                          "--connect-timeout", "0.5"])
    assert finish(thread)[0] == 1  # nobody came
    first, label = out.getvalue().splitlines()[:2]
    assert first == str(ports[0])  # bare, as the reference dealer prints it, for tools
    assert label == f"waiting for ACPC clients on port {ports[0]} (seat 'theirs') at 127.0.0.1"
    assert len(err.getvalue().strip().splitlines()) == 1  # the failure, in one line


def test_connect_to_a_closed_port_says_so_and_prints_no_result() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free once closed: nobody listens there
    status, out, err = _run("connect", "127.0.0.1", str(port), "--game", GAME)
    assert status == 1 and out == ""
    assert (err.strip() == f"holdem acpc connect: cannot connect to 127.0.0.1:{port}: "
                          f"Connection refused")


def test_a_dealers_dir_plots_and_its_log_converts(tmp_path: Path) -> None:
    out_dir = tmp_path / "match"
    status, _, err = _run("dealer", GAME, "--hands", "60", "--seed", "2", "--seat", "a=call",
                          "--seat", "b=random", "--output", str(out_dir), "--quiet")
    assert status == 0, err
    assert plot([str(out_dir)]) == 0
    assert (out_dir / "cumulative.png").is_file() and (out_dir / "winrates.png").is_file()
    phhs = tmp_path / "match.phhs"
    status, out, err = _run("log2phh", str(out_dir / "acpc.log"), "--game", GAME,
                            "--output", str(phhs))
    assert status == 0, err
    assert out.strip() == f"wrote 60 hands to {phhs}" and phhs.stat().st_size > 0

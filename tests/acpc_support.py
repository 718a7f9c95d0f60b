"""Helpers of the ACPC tests: our dealer's command in a thread, the tiny client as a process."""

from __future__ import annotations

import io
import subprocess
import sys
import threading
from pathlib import Path

from simulator.arena.acpc_cli import main

TINY = Path(__file__).with_name("acpc_tiny_client.py")


class _Lines(io.StringIO):
    """Captures output and lets another thread wait for the first line."""

    def __init__(self) -> None:
        super().__init__()
        self.first = threading.Event()

    def write(self, text: str) -> int:
        written = super().write(text)
        if "\n" in self.getvalue():
            self.first.set()
        return written


def run_dealer(args: list[str]) -> tuple[threading.Thread, _Lines, _Lines, list[int]]:
    """``holdem acpc dealer ARGS`` in a thread; returns once it prints its ports."""
    out, err, status = _Lines(), _Lines(), []
    thread = threading.Thread(target=lambda: status.append(main(["dealer", *args], out, err)),
                              daemon=True)
    thread.start()
    assert out.first.wait(30), err.getvalue()
    thread.status = status  # type: ignore[attr-defined]
    ports = [int(p) for p in out.getvalue().splitlines()[0].split()]
    return thread, out, err, ports


def tiny(game: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(TINY), str(game), "127.0.0.1", str(port),
                             *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(thread: threading.Thread, *clients: subprocess.Popen[str]) -> tuple[int, list[str]]:
    """The dealer's exit status and each client's standard output; a client still running
    once the dealer is done (one that hangs on purpose) is killed."""
    thread.join(timeout=90)
    assert not thread.is_alive()
    outputs = []
    for client in clients:
        try:
            outputs.append(client.communicate(timeout=3)[0])
        except subprocess.TimeoutExpired:
            client.kill()
            outputs.append(client.communicate()[0])
    return thread.status[0], outputs  # type: ignore[attr-defined]

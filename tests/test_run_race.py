"""Two ``holdem run``\\s into one output dir, released at the same instant by a barrier:
exactly one plays, the other is refused with one line and exit 2, and the results the first
writes are whole (the same bytes as the same config played alone).

The barrier is a lock on a gate file: each racer imports everything, says it is ready and
waits for a shared lock the test holds exclusively; the test lets go once both wait, so the
kernel wakes both together and both reach the run's own lock at once.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

from simulator.arena.config import load_config
from simulator.arena.outdir import LOCK_FILE, PID_WAIT, DirLock, OutputDirError
from simulator.arena.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[1]
RACER = """
import fcntl, sys
from pathlib import Path
import simulator.arena.tournament  # the slow imports come before the barrier
from simulator.cli import main
gate, ready = sys.argv[1], Path(sys.argv[2])
with open(gate) as f:
    ready.touch()
    fcntl.flock(f, fcntl.LOCK_SH)  # blocks until the test releases its exclusive lock
    fcntl.flock(f, fcntl.LOCK_UN)
sys.exit(main(sys.argv[3:]))
"""


def _config(tmp_path: Path, out: Path) -> Path:
    path = tmp_path / "race.yaml"
    path.write_text(yaml.safe_dump({
        "game": {"variant": "limit", "blinds": [1, 2], "small_bet": 2},
        "seats": [{"name": "r", "bot": "random"}, {"name": "c", "bot": "call"}],
        "hands": 80, "seed": 4, "block_size": 40, "workers": 1,
        "output": {"dir": str(out), "plots": False}}))
    return path


def _race(tmp_path: Path, config: Path) -> list[tuple[int, int, str]]:
    """Start two racers on ``config`` behind the gate, open it once both wait there, and
    return each one's (pid, exit code, stderr)."""
    gate = tmp_path / "gate"
    gate.touch()
    env = {**os.environ, "CI": "1", "PYTHONPATH": str(ROOT)}
    with open(gate) as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        procs = [subprocess.Popen(
            [sys.executable, "-c", RACER, str(gate), str(tmp_path / f"ready{i}"), "run",
             str(config), "--quiet"],
            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True) for i in range(2)]
        deadline = time.monotonic() + 60
        while not all((tmp_path / f"ready{i}").exists() for i in range(2)):
            assert time.monotonic() < deadline and all(p.poll() is None for p in procs)
            time.sleep(0.01)
        time.sleep(0.2)  # from "ready" to waiting on the gate
        assert all(p.poll() is None for p in procs) and not (tmp_path / "out").exists()
        fcntl.flock(held, fcntl.LOCK_UN)
    outcomes = []
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        outcomes.append((proc.pid, proc.returncode, err))
    return outcomes


def test_two_runs_started_at_once_into_one_dir_play_once(tmp_path: Path) -> None:
    out = tmp_path / "out"
    config = _config(tmp_path, out)
    outcomes = _race(tmp_path, config)
    assert sorted(code for _, code, _ in outcomes) == [0, 2], outcomes
    (winner, _, won_err), = [o for o in outcomes if o[1] == 0]
    (_, _, lost_err), = [o for o in outcomes if o[1] == 2]
    assert won_err == ""
    assert lost_err.count("\n") == 1, lost_err
    assert lost_err.startswith(f"holdem run: output dir {str(out)!r} is in use by another run "
                               f"(pid {winner});"), lost_err
    alone = tmp_path / "alone"
    run_tournament(load_config(config).with_overrides(output_dir=str(alone)), inline=True)
    for name in ("hands.csv", "blocks.jsonl"):
        assert (out / name).read_bytes() == (alone / name).read_bytes(), name
    summaries = [json.loads((d / "summary.json").read_text()) for d in (out, alone)]
    assert summaries[0]["players"] == summaries[1]["players"]
    assert summaries[0]["deals"] == 80


def test_a_run_that_finds_the_lock_just_taken_waits_for_the_holders_pid(tmp_path: Path
                                                                       ) -> None:
    """The holder locks, then writes its pid: a run refused in between names that pid, not
    "unknown" (6 races in 40 said "pid unknown" before it waited)."""
    with open(tmp_path / LOCK_FILE, "w") as holder:
        fcntl.flock(holder, fcntl.LOCK_EX)  # locked, its pid not yet written

        def say_pid() -> None:
            holder.write("4242\n")
            holder.flush()

        says_pid = threading.Timer(0.2, say_pid)
        says_pid.start()
        try:
            with pytest.raises(OutputDirError, match=r"in use by another run \(pid 4242\)"):
                DirLock.acquire(tmp_path)
        finally:
            says_pid.join()


def test_a_released_lock_keeps_no_pid_to_be_taken_for_the_next_holders(tmp_path: Path
                                                                       ) -> None:
    with DirLock.acquire(tmp_path):
        assert (tmp_path / LOCK_FILE).read_text() == f"{os.getpid()}\n"
    assert (tmp_path / LOCK_FILE).read_text() == ""
    with open(tmp_path / LOCK_FILE, "w") as holder:  # a holder that never says its pid
        fcntl.flock(holder, fcntl.LOCK_EX)
        started = time.monotonic()
        with pytest.raises(OutputDirError, match=r"in use by another run \(pid unknown\)"):
            DirLock.acquire(tmp_path)
        assert PID_WAIT <= time.monotonic() - started < PID_WAIT + 2

"""External program seats end with everything they started: each program runs in a process
group of its own, and ending the seat, the worker or the run ends the whole group. The
program here is a wrapper script that forks two ``sleep``s before it runs the real client."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from acpc_support import TINY

from simulator.arena.config import parse_config
from simulator.arena.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[1]
WRAPPER = """#!/bin/sh
pids=$1
shift
echo $$ >> "$pids"
sleep 1000 &
echo $! >> "$pids"
sleep 1000 &
echo $! >> "$pids"
exec "$@"
"""

pytestmark = pytest.mark.skipif(not Path("/proc").exists() or sys.platform != "linux",
                                reason="reads /proc")


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _pids(path: Path) -> list[int]:
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _survivors(path: Path, seconds: float = 5.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while True:
        alive = [p for p in _pids(path) if _alive(p)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


def _config(tmp_path: Path, **extra: object) -> dict:
    wrapper = tmp_path / "wrapper.sh"
    wrapper.write_text(WRAPPER)
    command = ["/bin/sh", str(wrapper), str(tmp_path / "pids"), sys.executable, str(TINY),
               "{game}", "{host}", "{port}"]
    data = {"game": {"variant": "limit", "blinds": [5, 10], "small_bet": 10, "stack": 1000},
            "seats": [{"name": "wrapped", "bot": "acpc-program",
                       "params": {"command": command, "startup_timeout": 30}},
                      {"name": "caller", "bot": "call"}],
            "hands": 20, "block_size": 10, "seed": 2, "luck": False,
            "output": {"dir": str(tmp_path / "out"), "plots": False}}
    data.update(extra)
    return data


def _kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def test_nothing_a_program_started_outlives_the_run(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    try:
        summary = run_tournament(parse_config(_config(tmp_path)), progress=False)
        assert summary.deals == 20
        assert len(_pids(pids)) == 6  # 2 blocks: the program and its 2 sleeps each
        assert _survivors(pids) == []
    finally:
        _kill(_pids(pids))


def test_sigterm_on_the_run_ends_the_program_and_its_children(tmp_path: Path) -> None:
    data = _config(tmp_path, hands=2000, block_size=1000)
    data["seats"][0]["params"]["command"] += ["--fault", "hang", "--fault-hand", "5"]
    data["seats"][0]["params"]["timeout"] = None  # hangs until the run is ended
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump(data))
    pids = tmp_path / "pids"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), str(ROOT)])}
    proc = subprocess.Popen([sys.executable, "-m", "simulator.cli", "run", str(config),
                             "--quiet"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(_pids(pids)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_pids(pids)) == 3
        time.sleep(1.0)  # the program is playing, then hangs
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 1 and "terminated (SIGTERM)" in err
        assert _survivors(pids) == []
    finally:
        proc.kill()
        _kill(_pids(pids))

"""A script that calls ``run_tournament`` at its top level, without the ``__main__`` guard.

Spawned workers import the script again; one worker plays in-process, as written, and more
are refused at once with one line naming the guard, never with a worker's traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulator.arena.mainguard import GUARD, unguarded_call

CONFIG = """\
from simulator.arena.config import parse_config
from simulator.arena.tournament import run_tournament

config = parse_config({{
    "game": {{"variant": "limit", "blinds": [1, 2], "small_bet": 2}},
    "seats": [{{"name": "r", "bot": "random"}}, {{"name": "c", "bot": "call"}}],
    "hands": 40, "block_size": 10, "seed": 4, "workers": {workers},
    "output": {{"dir": "out", "plots": False}}}})
"""


def _script(tmp_path: Path, workers: int, body: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "script.py").write_text(CONFIG.format(workers=workers) + body)
    return subprocess.run([sys.executable, "script.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)


def test_one_worker_plays_in_process_as_written(tmp_path: Path) -> None:
    done = _script(tmp_path, 1, "summary = run_tournament(config, progress=False)\n"
                                "print(summary.deals)\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["40"]  # once: no worker ran the script again
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["deals"] == 40


def test_more_workers_are_refused_at_once_naming_the_guard(tmp_path: Path) -> None:
    start = time.monotonic()
    done = _script(tmp_path, 2, "run_tournament(config, progress=False)\n")
    assert time.monotonic() - start < 60
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("simulator.arena.config.ConfigError: run_tournament() is called at "
                           "the top level of the script") and GUARD in last
    assert "inline=True" in last and "--" not in last  # keywords, not command-line flags
    assert done.stderr.count("Traceback") == 1  # the script's own, no worker's
    assert not (tmp_path / "out").exists()


def test_the_guarded_script_uses_its_workers(tmp_path: Path) -> None:
    done = _script(tmp_path, 2, f"{GUARD}\n    print(run_tournament(config, progress=False)"
                                f".deals)\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["40"]


def test_a_worker_that_meets_the_call_leaves_and_the_parent_says_why(tmp_path: Path) -> None:
    """Code the parent cannot read (run by exec) hides the call from it: the net catches it
    in the worker, which leaves without a word."""
    (tmp_path / "inner.txt").write_text("run_tournament(config, progress=False)\n")
    done = _script(tmp_path, 2, "exec(compile(open('inner.txt').read(), '<inner>', 'exec'))\n")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith(
        "simulator.arena.config.ConfigError: run_tournament() is called at the top level")
    assert done.stderr.count("Traceback") == 1


@pytest.mark.parametrize(("source", "unguarded"), [
    ("probe()\n", True),
    (f"{GUARD}\n    probe()\n", False),
    ("if '__main__' == __name__:\n    probe()\n", False),
    ("def main():\n    probe()\nmain()\n", True),
    (f"def main():\n    probe()\n{GUARD}\n    main()\n", False),
])
def test_the_guard_is_read_from_the_script(tmp_path: Path, source: str, unguarded: bool
                                           ) -> None:
    path = tmp_path / "probe_script.py"
    path.write_text(source)
    found: list[bool] = []

    def probe() -> None:
        found.append(unguarded_call(sys._getframe(1)))

    code = compile(source, str(path), "exec")
    exec(code, {"__name__": "__main__", "probe": probe})
    assert found == [unguarded]


def test_a_script_edited_while_it_runs_is_judged_by_the_lines_it_started_from(
        tmp_path: Path) -> None:
    """A long experiment's script edited between two of its runs: the frame's line numbers
    are those of the source it started from, so the guard is read from that source too."""
    path = tmp_path / "edited_script.py"
    source = f"{GUARD}\n    probe()\n    probe()\n"
    path.write_text(source)
    found: list[bool] = []

    def probe() -> None:
        found.append(unguarded_call(sys._getframe(1)))
        path.write_text("# a comment\n" * 40 + source)  # the guard now starts at line 41

    exec(compile(source, str(path), "exec"), {"__name__": "__main__", "probe": probe})
    assert found == [False, False]

"""The built wheel, installed into a fresh virtual environment, runs from any directory.

An editable install finds its files in the checkout, so it hides a file that the wheel does
not ship (as the agent's parameter files once were not). This test builds the wheel as a
user's ``pip install .`` would (``pip wheel --no-build-isolation``, from a copy of the files
the wheel is made of), installs it into a new virtual environment and plays from a folder
outside the repo: a short tournament with ``heuristic`` and ``loki`` seats, one
``holdem play`` hand typed on stdin, ``holdem ehs``, and a packaged ACPC game definition.

How the dependencies get there, with no download on each run: the new environment has no
site-packages of its own but what pip installs into it, from a wheelhouse,
``<this venv>/wheelhouse`` (``make setup`` fills it from pip's local cache), with
``--no-index``. So a dependency that ``pyproject.toml`` does not declare is missing, as it
would be for a user, and the test fails. If the wheelhouse lacks a declared dependency (it
was made before that dependency was added), it is filled once through pip's usual sources
and reused from then on.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WHEELHOUSE = Path(sys.prefix) / "wheelhouse"
SHIPPED = ("pyproject.toml", "README.md", "agent", "simulator")

pytestmark = pytest.mark.slow

CONFIG = """\
game: {variant: limit, blinds: [1, 2], small_bet: 2}
seats:
  - {name: hero, bot: heuristic}
  - {name: rival, bot: loki}
hands: 40
block_size: 20
seed: 5
duplicate: true
output: {dir: out, plots: true}
"""


def _pip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                          capture_output=True, text=True)


def _build_wheel(work: Path) -> Path:
    source = work / "source"
    for name in SHIPPED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            source.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    built = _pip("wheel", "-q", "--no-build-isolation", "--no-deps", "-w", str(work / "dist"),
                 str(source))
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "dist").glob("holdem_heuristic-*.whl")
    return wheel


def _install(python: Path, wheel: Path) -> subprocess.CompletedProcess[str]:
    return _pip("--python", str(python), "install", "-q", "--no-index", "--find-links",
                str(WHEELHOUSE), str(wheel))


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh virtual environment holding only the wheel and its
    declared dependencies."""
    work = tmp_path_factory.mktemp("wheel")
    wheel = _build_wheel(work)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(work / "venv")],
                   check=True)
    python = work / "venv" / "bin" / "python"
    done = _install(python, wheel)
    if done.returncode != 0:  # a dependency the wheelhouse does not have yet: fetch it once
        filled = _pip("wheel", "-q", "-w", str(WHEELHOUSE), str(wheel))
        assert filled.returncode == 0, filled.stderr
        for stale in WHEELHOUSE.glob("holdem_heuristic-*.whl"):
            stale.unlink()
        done = _install(python, wheel)
    assert done.returncode == 0, done.stderr
    return python.parent


def _run(bin_dir: Path, cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run([str(bin_dir / args[0]), *args[1:]], cwd=cwd, env=env, input=stdin,
                          capture_output=True, text=True, timeout=600)


def test_the_wheel_plays_from_outside_the_repo(installed: Path, tmp_path: Path) -> None:
    where = _run(installed, tmp_path, "python", "-c",
                 "import agent, simulator; print(agent.__file__); print(simulator.__file__)")
    assert where.returncode == 0, where.stderr
    for line in where.stdout.split():
        assert Path(line).is_relative_to(installed.parent), line  # not the checkout

    (tmp_path / "match.yaml").write_text(CONFIG)
    run = _run(installed, tmp_path, "holdem", "run", "match.yaml", "--quiet")
    assert run.returncode == 0, run.stderr
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert set(summary["players"]) == {"hero", "rival"}
    assert (tmp_path / "out" / "cumulative.png").is_file()

    # the browser's pages and scripts ship: the offline report inlines them
    report = _run(installed, tmp_path, "holdem", "report", "out")
    assert report.returncode == 0, report.stderr
    page = (tmp_path / "out" / "report.html").read_text()
    assert "<script src" not in page and "hero" in page and "function" in page

    play = _run(installed, tmp_path, "holdem", "play", "--hands", "1", "--seed", "3",
                "--opponent", "loki", stdin="c\n" * 12)
    assert play.returncode == 0, play.stderr
    assert "you played 1 hand(s)" in play.stdout

    ehs = _run(installed, tmp_path, "holdem", "ehs", "AdQc", "3h4cJh", "--json")
    assert ehs.returncode == 0, ehs.stderr
    assert 0.0 <= json.loads(ehs.stdout)["ehs"] <= 1.0

    game = _run(installed, tmp_path, "holdem", "acpc", "game", "holdem.limit.2p.reverse_blinds")
    assert game.returncode == 0, game.stderr
    assert game.stdout.startswith("2 players: GameConfig(variant='limit'")

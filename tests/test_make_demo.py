"""``make demo`` on a fresh clone prints no setuptools banner: the Makefile's own commands
(read with ``make -n``) set up a new environment, and its editable install says nothing.

Slow (a new virtual environment and a pip upgrade through pip's usual sources), so it runs
with ``--runslow``. The package's dependencies are left out (``--no-deps``): the banner comes
from building the editable wheel, whatever is installed beside it.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("pyproject.toml", "README.md", "Makefile", "agent", "simulator")

pytestmark = pytest.mark.slow


def _setup_commands(venv: Path) -> list[list[str]]:
    """The commands ``make setup-base`` would run for ``venv``, as argument lists."""
    printed = subprocess.run(["make", "-n", "-s", "setup-base", f"VENV={venv}"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    return [shlex.split(line) for line in printed.splitlines() if line.strip()]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_the_editable_install_of_make_demo_prints_nothing(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in SHIPPED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, clone / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / name, clone / name)
    commands = _setup_commands(tmp_path / "venv")
    editable = [c for c in commands if "install" in c and "-e" in c]
    assert len(editable) == 1, commands
    for command in commands:
        if command[0] == "touch":
            continue
        if command is editable[0]:
            command = [*command, "--no-deps"]
        done = subprocess.run(command, cwd=clone, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, (command, done.stderr[-2000:])
        if command[:len(editable[0])] == editable[0]:
            assert done.stdout == "" and done.stderr == "", done.stderr[-2000:]

import subprocess
import sys

from simulator import cli


def holdem(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simulator.cli", *args],
                          capture_output=True, text=True, timeout=120)


def test_help_lists_every_subcommand_and_exits_zero() -> None:
    done = holdem("--help")
    assert done.returncode == 0
    for name in cli.SUBCOMMANDS:
        assert f"  {name} " in done.stdout


def test_no_command_is_a_usage_error() -> None:
    done = holdem()
    assert done.returncode == 2 and "usage: holdem" in done.stdout


def test_unknown_command_is_named_and_exits_two() -> None:
    done = holdem("fly")
    assert done.returncode == 2
    assert "unknown command 'fly'" in done.stderr

"""The example configs a newcomer copies: today's bot life and module paths, and output dirs
that do not collide."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from simulator import BaseBot
from simulator.arena.config import load_config

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
OLD_PATHS = ("simulator.bots:", "simulator.bot:", "simulator.match:", "agent.hand_evaluator:")


def _runs() -> list[Path]:
    return sorted(p for p in CONFIGS.rglob("*.yaml")
                  if "seats" in (yaml.safe_load(p.read_text()) or {}))


def test_no_two_example_runs_write_to_the_same_dir() -> None:
    dirs: dict[str, Path] = {}
    for path in _runs():
        out = load_config(path).output.dir
        assert out not in dirs, f"{path.name} and {dirs[out].name} both write {out}"
        dirs[out] = path
    demo = load_config(CONFIGS / "demo.yaml").output.dir
    others = [Path(out).name for out, path in dirs.items() if path.name != "demo.yaml"]
    assert not [name for name in others if "demo" in name], (demo, others)


def test_the_examples_use_todays_module_paths() -> None:
    for path in CONFIGS.rglob("*.yaml"):
        text = path.read_text()
        assert not [old for old in OLD_PATHS if old in text], path.name


def test_the_plugin_example_describes_todays_bot_life() -> None:
    text = (CONFIGS / "plugin_bot.yaml").read_text()
    comments = " ".join(line for line in text.splitlines() if line.lstrip().startswith("#"))
    called = set(re.findall(r"\b([a-z_]+)\(", comments))
    assert {"start", "act", "observe", "close"} <= called
    assert not {name for name in called if not hasattr(BaseBot, name)}, called

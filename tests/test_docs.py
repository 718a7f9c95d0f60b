"""The docs: a README a newcomer reads in five minutes, whose bot runs as written, and no
reference to anything outside the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml

from simulator.arena.config import load_config, parse_config
from simulator.arena.stats import MIN_FIT_BLOCKS
from simulator.arena.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTIONS = ["Two commands", "A short tour", "Write your own bot", "How strong the agent is",
            "Layout", "Read more"]
OUTSIDE = re.compile(r"DESIGN\.md|ACPC\.md|\bshared/|\b[Ii]ssues? \d|(?<![\w&])#\d+\b")


def _tracked() -> list[Path]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    return [ROOT / n for n in names if Path(n).suffix in (".py", ".md", ".yaml", ".toml", "")]


def test_the_readme_is_an_entrance() -> None:
    assert len(README.splitlines()) <= 200
    headings = re.findall(r"(?m)^## (.+)$", README)
    assert headings == SECTIONS
    assert "make demo" in README and "make test" in README
    assert ". .venv/bin/activate" in README  # where `holdem` comes from


def test_the_readmes_bot_plays_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    code = re.search(r"```python\n(.*?)```", README, re.S)
    config = re.search(r"```yaml\n(.*?)```", README, re.S)
    assert code and config and "class PairBot" in code.group(1)
    (tmp_path / "my_bots.py").write_text(code.group(1))
    monkeypatch.syspath_prepend(str(tmp_path))
    data = yaml.safe_load(config.group(1))
    data.update(hands=20, output={"dir": str(tmp_path / "out"), "plots": False})
    summary = run_tournament(parse_config(data), inline=True, progress=False)
    assert set(summary.players) == {"me", "agent"} and summary.deals == 20
    assert (tmp_path / "out" / "bots" / "agent").is_dir()  # the traces of trace: true


def test_the_readmes_config_fits_its_luck_and_its_in_process_line_runs_after_holdem_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = re.search(r"```python\n(.*?)```", README, re.S)
    config = re.search(r"```yaml\n(.*?)```", README, re.S)
    line = re.search(r"`(run_tournament\(load_config\(\"mine\.yaml\"\).*?\))`", README, re.S)
    assert code and config and line
    data = yaml.safe_load(config.group(1))
    assert parse_config(data).num_blocks > MIN_FIT_BLOCKS  # the luck fit and t's df
    (tmp_path / "my_bots.py").write_text(code.group(1))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    data.update(hands=20, output={"dir": "out", "plots": False})
    (tmp_path / "mine.yaml").write_text(yaml.safe_dump(data))
    run_tournament(load_config("mine.yaml"), progress=False)  # as `holdem run mine.yaml`
    summary = eval(line.group(1), {"run_tournament": run_tournament,  # noqa: S307
                                   "load_config": load_config})
    assert summary.deals == 20


def test_nothing_refers_outside_the_repository() -> None:
    found = []
    for path in _tracked():
        if not path.is_file() or path == Path(__file__):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: "
                  f"{m.group(0)}" for m in OUTSIDE.finditer(text)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("doc", ["README.md", "CHANGELOG.md", "simulator/README.md",
                                 "agent/README.md", "experiments/README.md",
                                 "experiments/NOTEBOOK.md"])
def test_the_docs_link_to_files_that_exist(doc: str) -> None:
    path = ROOT / doc
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8")):
        resolved = (path.parent / target).resolve()
        assert resolved.is_relative_to(ROOT) and resolved.exists(), f"{doc}: {target}"

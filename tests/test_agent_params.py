"""The agent's parameter files: packaged defaults, a user's file merged over them, sections."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from agent.heuristic.params import DEFAULT_FILE, AgentParamsError, load_agent_params
from agent.preflop.params import (
    DEFAULT_PARAMS_FILE,
    default_preflop_params,
    load_preflop_params,
)
from simulator.core import validation
from simulator.core.packaged import packaged_file

EXAMPLES = Path(__file__).resolve().parents[1] / "configs" / "agents"


def _leaves(data: Any, prefix: str = "") -> dict[str, Any]:
    if not isinstance(data, dict):
        return {prefix: data}
    out: dict[str, Any] = {}
    for key, value in data.items():
        out.update(_leaves(value, f"{prefix}.{key}" if prefix else str(key)))
    return out


def test_the_defaults_ship_inside_the_packages() -> None:
    root = Path(__file__).resolve().parents[1]
    for path in (DEFAULT_FILE, DEFAULT_PARAMS_FILE):
        assert path.is_file()
        assert root / "configs" not in path.parents
    assert DEFAULT_PARAMS_FILE == packaged_file("agent.preflop", "data", "preflop.yaml")


def test_a_users_file_names_only_what_it_changes(tmp_path: Path) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("selector: {temperature: 0.5}\npreflop: {tightness: tight}\n")
    p, d = load_agent_params(mine), load_agent_params()
    assert (p.selector.temperature, p.preflop["tightness"]) == (0.5, "tight")
    assert p.selector.method == d.selector.method  # its sibling keeps the default
    assert p.preflop["thresholds"] == d.preflop["thresholds"]
    assert p.evaluation == d.evaluation


def test_a_section_file_is_found_beside_its_file_then_in_the_package(tmp_path: Path) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("preflop: preflop.yaml\n")
    assert load_agent_params(mine).preflop == load_agent_params().preflop  # the packaged one
    (tmp_path / "preflop.yaml").write_text("tightness: moderate\n")
    assert load_agent_params(mine).preflop["tightness"] == "moderate"  # the one beside it
    mine.write_text("preflop: nowhere.yaml\n")
    with pytest.raises(AgentParamsError, match="preflop: .*nowhere.yaml: cannot read"):
        load_agent_params(mine)


def test_a_bad_path_or_a_misspelt_key_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(AgentParamsError, match="missing.yaml: cannot read") as info:
        load_agent_params(tmp_path / "missing.yaml")
    assert "\n" not in str(info.value)
    (tmp_path / "typo.yaml").write_text("selector: {temprature: 0.5}\n")
    with pytest.raises(AgentParamsError, match="selector.temprature: unknown key"):
        load_agent_params(tmp_path / "typo.yaml")
    (tmp_path / "list.yaml").write_text("- 1\n")
    with pytest.raises(AgentParamsError, match="expected a mapping of parameters, got list"):
        load_agent_params(tmp_path / "list.yaml")


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_the_examples_load_and_copy_no_default(example: Path) -> None:
    """An example that repeated a default would silently pin it when the default moves."""
    data = yaml.safe_load(example.read_text())
    defaults = yaml.safe_load(DEFAULT_FILE.read_text())
    defaults["preflop"] = yaml.safe_load(DEFAULT_PARAMS_FILE.read_text())
    if "tightness" in data:  # a pre-flop section file
        data = {"preflop": data}
    else:
        load_agent_params(example)
    copied = {key for key, value in _leaves(data).items()
              if key in _leaves(defaults) and _leaves(defaults)[key] == value}
    assert not copied, f"{example.name} repeats the defaults of {sorted(copied)}"


def test_the_defaults_are_parsed_once_and_never_shared() -> None:
    """Every agent reads the packaged defaults from one parse per process; what one caller
    overrides never reaches the next."""
    tuned = load_agent_params(None, {"selector.temperature": 0.5, "modeller.min_matches": 3})
    plain = load_agent_params()
    assert tuned.selector.temperature == 0.5 and tuned.modeller["min_matches"] == 3
    assert plain.selector.temperature == yaml.safe_load(
        DEFAULT_FILE.read_text())["selector"]["temperature"] != 0.5
    assert plain.modeller["min_matches"] != 3
    assert plain == load_agent_params()


def test_the_packaged_files_are_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent's defaults, their pre-flop section and `loki`'s pre-flop parameters (the
    same file) come from one parse of each file, however often they are asked for."""
    parsed: list[str] = []
    read = validation.read_yaml

    def counted(path: Path) -> Any:
        parsed.append(str(path))
        return read(path)

    monkeypatch.setattr(validation, "read_yaml", counted)
    validation._parsed_once.cache_clear()
    for _ in range(3):
        load_agent_params()
        assert default_preflop_params() == load_preflop_params(DEFAULT_PARAMS_FILE)
    assert sorted(parsed) == sorted([str(DEFAULT_FILE), str(DEFAULT_PARAMS_FILE)])

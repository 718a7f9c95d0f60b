"""The agent's parameters: one YAML file under ``configs/agents/``, with single overrides.

Every number the agent uses comes from its parameter file; ``configs/agents/default.yaml`` is
the shipped default and the only place defaults are written for the sections it holds. A seat
names another file and overrides single parameters by dotted keys inside its ``params``::

    - {name: hero, bot: heuristic,
       params: {config: configs/agents/tight.yaml, selector.temperature: 0.5}}

Unknown keys and values of the wrong type are refused before play with a message naming the
key (the same rules as match configs). The resolved parameters (file contents and overrides
together) are what :func:`identity` returns, so a run's identity notices an edited file.

>>> p = load_agent_params(None, {"selector.temperature": 0.5})
>>> p.selector.temperature, p.model
(0.5, 'full')
>>> load_agent_params(None, {"selector.temprature": 0.5})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
agent.params.AgentParamsError: ...default.yaml (with overrides): selector.temprature: unknown key
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from agent.defense import DefenseParams
from agent.evaluation import EvaluationParams
from agent.modeller import ModellerParams
from agent.preflop.params import PreflopParams, load_preflop_params
from agent.selector import SelectorParams
from agent.trust import TrustParams
from simulator import HoldemError
from simulator.arena.validation import ValidationInputError, read_yaml, validation_message

AGENT_CONFIGS = Path(__file__).resolve().parents[1] / "configs" / "agents"
DEFAULT_FILE = AGENT_CONFIGS / "default.yaml"


class AgentParamsError(HoldemError, ValueError):
    """A parameter file or override the agent cannot use; the message names the key."""


class AgentParams(BaseModel):
    """Everything the heuristic agent reads; see ``configs/agents/default.yaml``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    model: Literal["off", "frequencies", "full"]
    model_file: str | None
    save_model: Literal["changed", "always", "never"]
    trace: bool
    lookahead: Literal[1, 2]
    evaluation: EvaluationParams
    selector: SelectorParams
    trust: TrustParams
    defense: DefenseParams
    modeller: dict[str, Any]
    preflop: dict[str, Any]

    def modeller_params(self) -> ModellerParams:
        return ModellerParams.from_dict(self.modeller)

    def preflop_params(self) -> PreflopParams:
        return load_preflop_params(self.preflop)


def _set(data: dict[str, Any], dotted: str, value: Any) -> None:
    """Set ``a.b.c`` inside nested mappings; a missing or scalar parent is an unknown key."""
    *parents, leaf = dotted.split(".")
    node = data
    for i, key in enumerate(parents):
        child = node.get(key)
        if not isinstance(child, dict):
            raise AgentParamsError(f"override {dotted!r}: unknown key "
                                   f"{'.'.join(parents[: i + 1])!r}")
        node = child
    node[leaf] = value


def _section(value: Any, base: Path, key: str) -> Any:
    """A section given as a file name is read in place: relative to the parameter file, or
    else to ``configs/agents/`` (so a copied file still finds the shipped sections)."""
    if isinstance(value, str):
        path = Path(value).expanduser()
        if not path.is_absolute():
            path = base / path if (base / path).exists() else AGENT_CONFIGS / path
        try:
            return read_yaml(path)
        except ValidationInputError as exc:
            raise AgentParamsError(f"{key}: {exc}") from None
    return value


def load_agent_params(config: str | Path | None = None,
                      overrides: Mapping[str, Any] | None = None) -> AgentParams:
    """The parameters of ``config`` (default: the shipped default file) with ``overrides``
    (dotted keys) applied; ``AgentParamsError`` names the first bad key."""
    path = Path(config).expanduser() if config is not None else DEFAULT_FILE
    try:
        data = read_yaml(path)
    except ValidationInputError as exc:
        raise AgentParamsError(str(exc)) from None
    if not isinstance(data, dict):
        raise AgentParamsError(f"{path}: expected a mapping of parameters, got "
                               f"{type(data).__name__}")
    data = copy.deepcopy(data)
    for key in ("modeller", "preflop"):
        if key in data:
            data[key] = _section(data[key], path.parent, key)
    for key, value in (overrides or {}).items():
        _set(data, key, value)
    source = f"{path}" + (" (with overrides)" if overrides else "")
    try:
        params = AgentParams.model_validate(data)
    except ValidationError as exc:
        raise AgentParamsError(validation_message(exc, source)) from None
    try:  # the sections the modeller and the expert validate themselves, checked now too
        params.modeller_params()
        params.preflop_params()
    except HoldemError as exc:
        raise AgentParamsError(f"{source}: {exc}") from None
    return params


def identity(params: AgentParams) -> dict[str, Any]:
    """The resolved parameters as plain data: part of a run's identity."""
    return params.model_dump(mode="json")

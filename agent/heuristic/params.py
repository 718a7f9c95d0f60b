"""The agent's parameters: the packaged defaults, a user's file over them, single overrides.

Every number the agent uses has its default in ``agent/heuristic/data/default.yaml``, shipped inside
the package (the pre-flop expert's in ``agent/preflop/data/preflop.yaml``); no default is
written anywhere else. A seat names its own file by path and overrides single parameters by
dotted keys inside its ``params``::

    - {name: hero, bot: heuristic,
       params: {config: configs/agents/tight.yaml, selector.temperature: 0.5}}

A user's file names only what it changes: it is merged over the defaults, key by key, so it
never copies them and the two cannot drift. A section given as a file name (``preflop:
tight_preflop.yaml``) is read next to the file that names it, else from the packaged data,
and is merged over that section's defaults the same way.

Unknown keys and values of the wrong type are refused before play with a message naming the
key (the same rules as match configs). The resolved parameters (file contents and overrides
together) are what :func:`identity` returns, so a run's identity notices an edited file.

>>> p = load_agent_params(None, {"selector.temperature": 0.5})
>>> p.selector.temperature, p.model
(0.5, 'full')
>>> load_agent_params(None, {"selector.temprature": 0.5})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
agent.heuristic.params.AgentParamsError: ...(with overrides): selector.temprature: unknown key...
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from agent.heuristic.calibration import CalibrationParams
from agent.heuristic.defense import DefenseParams
from agent.heuristic.deviation import PortfolioParams
from agent.heuristic.evaluation_params import EvaluationParams
from agent.heuristic.fold_cap import FoldCapParams
from agent.heuristic.selector import SelectorParams
from agent.heuristic.tournament.params import TournamentParams
from agent.heuristic.trust import TrustParams
from agent.modeller import ModellerParams
from agent.preflop.params import PreflopParams, load_preflop_params
from simulator import HoldemError
from simulator.core.packaged import packaged_file
from simulator.core.validation import (
    ValidationInputError,
    read_packaged_yaml,
    read_yaml,
    validation_message,
)

DEFAULT_FILE = packaged_file("agent.heuristic", "data", "default.yaml")
SECTIONS = {"modeller": packaged_file("agent.heuristic", "data"),
            "preflop": packaged_file("agent.preflop", "data")}
"""Where a section file named without a folder is found when it is not beside its file."""


class AgentParamsError(HoldemError, ValueError):
    """A parameter file or override the agent cannot use; the message names the key."""


class AgentParams(BaseModel):
    """Everything the heuristic agent reads; see ``agent/heuristic/data/default.yaml``."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    model: Literal["off", "frequencies", "full"]
    model_file: str | None
    save_model: Literal["changed", "always", "never"]
    trace: bool
    lookahead: Literal[1, 2]
    evaluation: EvaluationParams
    selector: SelectorParams
    fold_cap: FoldCapParams
    equilibrium: PortfolioParams
    trust: TrustParams
    calibration: CalibrationParams
    defense: DefenseParams
    tournament: TournamentParams
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


def _read(path: Path, what: str) -> dict[str, Any]:
    packaged = path == DEFAULT_FILE or path.parent in SECTIONS.values()
    try:
        data = read_packaged_yaml(path) if packaged else read_yaml(path)
    except ValidationInputError as exc:
        raise AgentParamsError(f"{what}{exc}") from None
    if not isinstance(data, dict):
        raise AgentParamsError(f"{what}{path}: expected a mapping of parameters, got "
                               f"{type(data).__name__}")
    return data


def _section(value: Any, base: Path, key: str) -> Any:
    """A section given as a file name, read: beside the parameter file first, else from the
    packaged data (so a copied file still finds the shipped sections)."""
    if not isinstance(value, str):
        return value
    path = Path(value).expanduser()
    if not path.is_absolute():
        path = base / path if (base / path).exists() else SECTIONS[key] / path
    return _read(path, f"{key}: ")


def _merged(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``over`` on top of ``base``, mappings merged key by key and anything else replaced."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _resolved(path: Path) -> dict[str, Any]:
    """A parameter file with its section files read in place."""
    data = _read(path, "")
    for key in SECTIONS:
        if key in data:
            data[key] = _section(data[key], path.parent, key)
    return data


def load_agent_params(config: str | Path | None = None,
                      overrides: Mapping[str, Any] | None = None) -> AgentParams:
    """The packaged defaults, with ``config`` (a user's file: only what it changes) merged
    over them and ``overrides`` (dotted keys) applied; ``AgentParamsError`` names the first
    bad key."""
    data = _resolved(DEFAULT_FILE)
    path = DEFAULT_FILE
    if config is not None:
        path = Path(config).expanduser()
        data = _merged(data, _resolved(path))
    for key, value in (overrides or {}).items():
        _set(data, key, value)
    source = f"{path}" + (" (with overrides)" if overrides else "")
    try:
        params = AgentParams.model_validate(data)
    except ValidationError as exc:
        raise AgentParamsError(validation_message(exc, source, AgentParams)) from None
    try:  # the sections the modeller and the expert validate themselves, checked now too
        params.modeller_params()
        params.preflop_params()
    except HoldemError as exc:
        raise AgentParamsError(f"{source}: {exc}") from None
    return params


def documented_params(depth: int = 2) -> dict[str, Any]:
    """Every parameter a seat's ``params`` may set, by the dotted key that sets it, with its
    packaged default: sections are opened ``depth`` levels deep (deeper mappings are one
    entry, set whole or by a longer dotted key).

    >>> listed = documented_params()
    >>> listed["config"], listed["trace"], listed["selector.temperature"]
    (None, False, 0.04)
    >>> sorted(listed["preflop.groups"])
    ['ir4_from', 'ir7_from']
    """
    out: dict[str, Any] = {"config": None}

    def walk(node: dict[str, Any], prefix: str, level: int) -> None:
        for key, value in node.items():
            if isinstance(value, dict) and level < depth:
                walk(value, f"{prefix}{key}.", level + 1)
            else:
                out[prefix + key] = value

    walk(load_agent_params().model_dump(mode="json"), "", 1)
    return out


def identity(params: AgentParams) -> dict[str, Any]:
    """The resolved parameters as plain data: part of a run's identity."""
    return params.model_dump(mode="json")


def seat_params(params: dict[str, Any]) -> AgentParams:
    """A seat's ``params`` resolved: its ``config`` file under its dotted overrides (its
    ``seed`` is the bot's, not a parameter)."""
    overrides = {k: v for k, v in params.items() if k not in ("config", "seed")}
    return load_agent_params(params.get("config"), overrides)

"""Reading YAML parameter files and turning pydantic's errors into lines naming the key.

Every typed settings file of the project (tournament configs, agent parameters) is read with
:func:`read_yaml` and validated by a pydantic model; :func:`validation_message` says which key
is wrong and what was expected, so a typo never silently falls back to a default.

>>> from pydantic import BaseModel, ConfigDict, ValidationError
>>> class Selector(BaseModel):
...     model_config = ConfigDict(extra="forbid", strict=True)
...     temperature: float = 0.1
>>> try:
...     Selector.model_validate({"temprature": 0.5})
... except ValidationError as exc:
...     print(validation_message(exc, "agent.yaml"))
agent.yaml: temprature: unknown key
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

import yaml
from pydantic import ValidationError

from simulator.core.errors import HoldemError
from simulator.core.files import FileRefused, read_regular
from simulator.core.yaml_loader import YamlRefused, load_yaml

MAX_SETTINGS_BYTES = 4 << 20  # a settings file is a few kilobytes
KEY = "@"
"""Marks a model-level message that starts with the key it is about, to join to the path."""


class ValidationInputError(HoldemError, ValueError):
    """A settings file that cannot be read as YAML."""


def error_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part not in ("function-after", "function-before") and not part.startswith(
                ("literal[", "function-")):
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def describe_error(err: Mapping[str, Any]) -> str:
    """``path: what was expected, got what`` for one pydantic error."""
    path = error_path(err["loc"])
    kind, msg, value, ctx = err["type"], err["msg"], err.get("input"), err.get("ctx") or {}
    if kind == "missing":
        return f"{path}: expected a value, the key is missing"
    if kind in ("extra_forbidden", "unexpected_keyword_argument"):  # the latter: dataclasses
        return f"{path}: unknown key"
    if kind == "value_error":
        text = msg.removeprefix("Value error, ")
        if text.startswith(KEY):  # a model-level check naming its own key
            key, _, rest = text[len(KEY):].partition(": ")
            path = key if path == "(top level)" else f"{path}.{key}"
            text = rest
        return f"{path}: {text}"
    if kind in ("too_short", "too_long"):
        bound = "at least" if kind == "too_short" else "at most"
        limit = ctx.get("min_length", ctx.get("max_length"))
        return f"{path}: expected {bound} {limit} items, got {ctx.get('actual_length')}"
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return f"{path}: expected {msg.removeprefix('Input should be ').rstrip('.')}, got {shown}"


def validation_message(exc: ValidationError, source: str, model: Any = None) -> str:
    """``source: problem``, a line for each error, each naming its key (so a user sees
    every problem of a file at once).

    An unknown key that nearly spells a key of ``model`` (the validated class, where given)
    or a key missing beside it says which; that key's own "missing" goes, the typo explains it:

    >>> from pydantic import BaseModel, ConfigDict, ValidationError
    >>> class Run(BaseModel):
    ...     model_config = ConfigDict(extra="forbid")
    ...     seed: int
    ...     workers: int = 1
    >>> try:
    ...     Run.model_validate({"sede": 1, "worker": 2})
    ... except ValidationError as exc:
    ...     print(validation_message(exc, "run.yaml", Run))
    run.yaml: sede: unknown key (did you mean 'seed'?)
    run.yaml: worker: unknown key (did you mean 'workers'?)
    """
    errors = exc.errors()
    missing = {err["loc"] for err in errors if err["type"] == "missing"}
    explained: set[tuple[int | str, ...]] = set()
    problems = []
    for err in errors:
        text = describe_error(dict(err))
        guess = _near_miss(err, missing, model)
        if guess is not None:
            explained.add(guess)
            text += f" (did you mean {str(guess[-1])!r}?)"
        problems.append((err["loc"], text))
    return "\n".join(f"{source}: {text}" for loc, text in problems
                     if loc not in explained or loc not in missing)


def _near_miss(err: Any, missing: set[tuple[int | str, ...]], model: Any
               ) -> tuple[int | str, ...] | None:
    """The key that an unknown key nearly spells: a missing one beside it, else one of the
    model's keys at that place."""
    if err["type"] not in ("extra_forbidden", "unexpected_keyword_argument"):
        return None
    *parent, key = err["loc"]
    for keys in ({str(loc[-1]) for loc in missing if list(loc[:-1]) == parent},
                 _keys_at(model, parent) - {str(key)}):
        close = difflib.get_close_matches(str(key), sorted(keys), n=1, cutoff=0.6)
        if close:
            return (*parent, close[0])
    return None


def _fields(kind: Any) -> dict[str, Any]:
    """Field name -> annotation of a pydantic model or pydantic dataclass; {} otherwise."""
    fields = getattr(kind, "__pydantic_fields__", None)
    if not isinstance(kind, type) or not isinstance(fields, dict):
        return {}
    return {name: info.annotation for name, info in fields.items()}


def _inner(kind: Any, part: int | str) -> Any:
    """The type at ``part`` inside ``kind``: a field's, or a sequence's or mapping's item."""
    while get_origin(kind) is Annotated:
        kind = get_args(kind)[0]
    options = [a for a in get_args(kind) if a is not type(None)] or [kind]
    for option in (options if isinstance(kind, UnionType) or get_origin(kind) is Union
            else [kind]):
        if isinstance(part, str) and part in _fields(option):
            return _fields(option)[part]
        if isinstance(part, int) and get_args(option):
            return get_args(option)[0]
    return None


def _keys_at(model: Any, path: list[int | str]) -> set[str]:
    kind = model
    for part in path:
        kind = _inner(kind, part)
    return set(_fields(kind))


def read_yaml(path: str | Path) -> Any:
    """The data of a YAML file; ``ValidationInputError`` names the file and the problem. Only
    a regular file of at most :data:`MAX_SETTINGS_BYTES` is read (``/dev/zero`` or a FIFO
    would never end)."""
    path = Path(path)
    try:
        text = read_regular(path, MAX_SETTINGS_BYTES).decode("utf-8")
    except FileRefused as exc:
        raise ValidationInputError(str(exc)) from None
    except OSError as exc:
        raise ValidationInputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ValidationInputError(f"{path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} "
                                   f"at offset {exc.start})") from None
    return yaml_data(text, str(path))


def yaml_data(text: str, source: str) -> Any:
    """The data of YAML ``text`` through the project's bounded loader
    (:mod:`simulator.core.yaml_loader`: aliases bounded, no key twice);
    ``ValidationInputError`` starts with ``source``."""
    try:
        return load_yaml(text)
    except RecursionError:
        raise ValidationInputError(f"{source}: nested too deeply to be a settings file") from None
    except YamlRefused as exc:
        raise ValidationInputError(f"{source}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ValidationInputError(f"{source}: not valid YAML{where}: {problem}") from None


def read_packaged_yaml(path: Path) -> Any:
    """:func:`read_yaml` of a data file shipped in a package: parsed once per process (a
    package's files do not change under the program running it, and a parse costs more
    than building a bot), a fresh copy on every call."""
    return copy.deepcopy(_parsed_once(Path(path)))


@lru_cache(maxsize=16)
def _parsed_once(path: Path) -> Any:
    return read_yaml(path)

"""``--set KEY=VALUE`` and ``--hands N``: a config's keys changed from the command line.

``holdem run``, ``league``, ``exploit`` and ``sng`` take them (``sng`` counts tournaments:
``--tournaments N``), so a config need not be copied to be shrunk. The value is read as YAML
by the project's one bounded reader (``4`` is a number, ``nolimit`` a word, ``[1, 2]`` a
list), and the key is dotted for a nested one (``game.variant``) or a list's item
(``seats.0.params.fold``). Each is written into the file's data before it is validated, so
a bad key or value is refused as the file's would be, naming the key. ``--resume`` compares
the settings with the run it continues, so it needs the same overrides as that run; a
different ``--set`` is refused, naming the key that differs.

>>> sets = parse_sets(["hands=40", "game.variant=nolimit", "seats.1.params.fold=0.5"])
>>> sets
{'hands': 40, 'game.variant': 'nolimit', 'seats.1.params.fold': 0.5}
>>> data = {"hands": 400, "seats": [{"name": "a"}, {"name": "b", "params": {}}]}
>>> apply_sets(data, sets)
{'hands': 40, 'seats': [{'name': 'a'}, {'name': 'b', 'params': {'fold': 0.5}}], \
'game': {'variant': 'nolimit'}}
>>> parse_sets(["hands"])
Traceback (most recent call last):
...
simulator.arena.overrides.OverrideError: --set: expected KEY=VALUE, got 'hands'
"""

from __future__ import annotations

import argparse
import copy
from collections.abc import Mapping, Sequence
from typing import Any

from simulator.core.errors import HoldemError
from simulator.core.validation import ValidationInputError, yaml_data

SET_HELP = ("override a config key, as if the file said it: KEY is dotted for a nested key "
            "or a list's item (game.variant=nolimit, seats.0.params.fold=0.2), VALUE is "
            "read as YAML; repeatable; --resume needs the same overrides as the run")


class OverrideError(HoldemError, ValueError):
    """A ``--set`` that is not ``KEY=VALUE``, or whose key cannot be set in the config."""


def add_options(parser: argparse.ArgumentParser, count: str = "hands",
                what: str = "deals to play") -> None:
    """``--set`` and ``--hands`` (or the command's own count: ``--tournaments``) on a
    command's parser, with the same words everywhere."""
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        dest="sets", help=SET_HELP)
    parser.add_argument(f"--{count}", type=int, metavar="N", dest="count",
                        help=f"override {count} ({what}): --set {count}=N")


def options_sets(args: argparse.Namespace, count: str = "hands") -> dict[str, Any]:
    """The overrides a command's ``--set`` and ``--hands`` (``count``) options ask for."""
    sets = parse_sets(args.sets)
    if args.count is not None:
        if count in sets:
            raise OverrideError(f"--{count}: given twice, also as --set {count}=...")
        sets[count] = args.count
    return sets


def described(source: str, sets: Mapping[str, Any] | None) -> str:
    """A config's name in its messages: ``c.yaml (with --set)`` when it was overridden."""
    return f"{source} (with --set)" if sets else source


def parse_sets(items: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` strings as dotted key -> value read as YAML; ``OverrideError`` names the
    option for one that is not ``KEY=VALUE`` or whose value is not YAML."""
    out: dict[str, Any] = {}
    for item in items:
        key, equals, text = item.partition("=")
        key = key.strip()
        if not equals or not key or any(not part for part in key.split(".")):
            raise OverrideError(f"--set: expected KEY=VALUE, got {item!r}")
        if key in out:
            raise OverrideError(f"--set {key}: given twice")
        try:
            out[key] = yaml_data(text, f"--set {key}")
        except ValidationInputError as exc:
            raise OverrideError(str(exc)) from None
    return out


def apply_sets(data: Any, sets: Mapping[str, Any] | None) -> Any:
    """A copy of a config's data with each dotted key set (missing mappings made on the
    way); ``OverrideError`` when a key passes through something that is not a mapping or a
    list, or names a list item that is not there."""
    if not sets:
        return data
    if not isinstance(data, dict):
        return data  # the config's own check says what the file should have been
    out = copy.deepcopy(data)
    for dotted, value in sets.items():
        *parents, leaf = dotted.split(".")
        node: Any = out
        for i, part in enumerate(parents):
            node = _child(node, part, dotted, ".".join(parents[:i]))
        _put(node, leaf, value, dotted, ".".join(parents))
    return out


def _not_keys(node: Any, dotted: str, above: str) -> OverrideError:
    return OverrideError(f"--set {dotted}: {above} holds {type(node).__name__}, not keys")


def _child(node: Any, part: str, dotted: str, above: str) -> Any:
    if isinstance(node, dict):
        child = node.setdefault(part, {})
        if child is None:  # "output:" with nothing under it
            child = node[part] = {}
        return child
    if isinstance(node, list):
        return node[_index(node, part, dotted)]
    raise _not_keys(node, dotted, above)


def _put(node: Any, leaf: str, value: Any, dotted: str, above: str) -> None:
    if isinstance(node, dict):
        node[leaf] = value
    elif isinstance(node, list):
        node[_index(node, leaf, dotted)] = value
    else:
        raise _not_keys(node, dotted, above)


def _index(items: list[Any], part: str, dotted: str) -> int:
    if not part.isdigit() or int(part) >= len(items):
        raise OverrideError(f"--set {dotted}: {part!r}: expected an item number of the list, "
                          f"0 to {len(items) - 1}")
    return int(part)

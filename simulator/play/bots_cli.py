"""``holdem bots``: list the registered bots and the parameters each one takes.

Bots are the ``holdem.bots`` entry points of every installed package; a config names one by
its short name, or any class by ``module:Class``. ``--json`` prints one object per bot. A bot
class that takes more than its signature shows (the agent's dotted ``**overrides``) lists
them through a classmethod ``documented_params()`` (name -> default).
"""

from __future__ import annotations

import argparse
import inspect
import json
import keyword
import sys
import textwrap
from typing import Any

from simulator.core.helptext import summary
from simulator.play.registry import BotSpecError, registered, resolve


def describe(name: str) -> dict[str, Any]:
    """A bot's path, the first paragraph of its docstring and its parameters with defaults."""
    out: dict[str, Any] = {"name": name, "path": registered()[name]}
    try:
        spec = resolve(name)
    except BotSpecError as exc:
        out["error"] = str(exc)
        return out
    out["doc"] = summary(inspect.getdoc(spec.factory))
    documented = getattr(spec.factory, "documented_params", None)
    if callable(documented):  # parameters the signature hides (``**overrides``)
        out["params"] = dict(documented())
        return out
    params = {}
    try:
        signature = inspect.signature(spec.factory)
    except (TypeError, ValueError):
        signature = None
    for param in (signature.parameters.values() if signature else ()):
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or param.name == "seed":
            continue
        default = param.default
        params[config_name(param.name)] = None if default is param.empty else (
            default if isinstance(default, (int, float, str, bool, type(None)))
            else repr(default))
    out["params"] = params
    return out


def config_name(name: str) -> str:
    """A parameter as a config spells it: ``raise_`` (a keyword's stand-in) is ``raise``."""
    stem = name.removesuffix("_")
    return stem if name.endswith("_") and keyword.iskeyword(stem) else name


def _shown(value: Any) -> str:
    if isinstance(value, dict):  # a section of its own: --json has it whole
        return "{...}"
    return f"{value:.4g}" if isinstance(value, float) else repr(value)


def _line(entry: dict[str, Any]) -> str:
    if "error" in entry:
        return f"{entry['name']:<12} {entry['path']}\n{'':<13}cannot load: {entry['error']}"
    params = (", ".join(f"{k}={_shown(v)}" for k, v in entry["params"].items())
              or "(no parameters)")
    listed = textwrap.fill(f"{entry['path']}  params: {params}", 100, initial_indent=" " * 13,
                           subsequent_indent=" " * 15, break_on_hyphens=False,
                           break_long_words=False)
    return f"{entry['name']:<12} {entry['doc']}\n{listed}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="holdem bots", description=summary(__doc__))
    parser.add_argument("--json", action="store_true", help="one JSON object per bot")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    for name in sorted(registered()):
        entry = describe(name)
        print(json.dumps(entry) if args.json else _line(entry))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

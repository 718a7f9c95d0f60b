"""Docstrings shown as help: the reStructuredText markup that reads well in the source is
dropped, so a terminal shows ``holdem run`` as holdem run.

>>> plain("``holdem run``: see :func:`~simulator.arena.tournament.run_tournament` and `x`")
'holdem run: see simulator.arena.tournament.run_tournament and x'
>>> summary('''``holdem bots``: list the bots.
...
... More.''')
'holdem bots: list the bots.'
"""

from __future__ import annotations

import re

TRUST_NOTE = (
    "A config names code that runs with your rights: a 'module:Class' bot's module is imported "
    "(its code runs at import, found first in the folder holdem runs in), and acpc-program "
    "starts the command it is given. Read a config from elsewhere, and the modules it names, "
    "before you run it.")
"""The epilog of every command that takes a config naming bots (run, league, exploit)."""

_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
_QUOTED = re.compile(r"``(.+?)``|`([^`]+)`")


def plain(text: str) -> str:
    """``text`` without roles (:func:`x`), double backquotes or single ones."""
    text = _ROLE.sub(r"\1", text)
    return _QUOTED.sub(lambda m: m.group(1) or m.group(2), text)


def summary(doc: str | None) -> str:
    """The first paragraph of a docstring as one plain line."""
    first = (doc or "").strip().split("\n\n")[0]
    return plain(" ".join(first.split()))

"""Seat names: one rule everywhere a player is named (run configs, league panels, the ACPC
dealer's ``--seat`` and client's ``--name``).

A seat name becomes a directory (``<output>/bots/<name>/``), a column of ``hands.csv``
(``net:<name>``) and a field of ACPC log lines (``name1|name2``), so it must be safe in all of
them: 1 to 40 letters, digits or ``_.+-`` (no spaces, separators, commas, colons, pipes or
newlines), and not only dots (``.`` and ``..`` are not directories of their own). Names of one
match must differ even ignoring case, so that their directories differ on every file system.

>>> seat_name_problem("hero-2"), seat_name_problem("..")
(None, "expected 1-40 letters, digits or _.+- (no spaces), not only dots, got '..'")
>>> names_problem(["hero", "Hero", "villain"])
'expected unique names (ignoring case), repeated: Hero, hero'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from simulator.core.errors import HoldemError

MAX_LENGTH = 40
_NAME = re.compile(rf"[A-Za-z0-9_.+-]{{1,{MAX_LENGTH}}}")
RULE = f"1-{MAX_LENGTH} letters, digits or _.+- (no spaces), not only dots"


class SeatNameError(HoldemError, ValueError):
    """A seat name that breaks the rule; the message names the name and the rule."""


def seat_name_problem(name: object) -> str | None:
    """What is wrong with ``name`` as a seat name, or None."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or set(name) == {"."}:
        return f"expected {RULE}, got {name!r}"
    return None


def names_problem(names: Sequence[str]) -> str | None:
    """What is wrong with the names of one match taken together (repeats), or None."""
    seen: dict[str, list[str]] = {}
    for name in names:
        seen.setdefault(name.casefold(), []).append(name)
    repeated = sorted({n for group in seen.values() if len(group) > 1 for n in group})
    if repeated:
        return f"expected unique names (ignoring case), repeated: {', '.join(repeated)}"
    return None


def check_seat_name(name: object, what: str) -> str:
    """``name`` if it follows the rule, else :class:`SeatNameError` starting with ``what``."""
    problem = seat_name_problem(name)
    if problem is not None:
        raise SeatNameError(f"{what}: {problem}")
    assert isinstance(name, str)
    return name

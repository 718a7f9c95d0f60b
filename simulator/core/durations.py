"""Durations in seconds, as configs and command lines give them: finite, positive, bounded.

A timeout of NaN never comes (``now > deadline`` is never true), an infinite one overflows
the system's timers, and so does ``1e308``; each is refused where it is read, naming the key or
the option. :data:`MAX_SECONDS` (about 11 days) is far beyond any wait a match needs.

>>> check_duration(2, "bot_timeout"), parse_seconds("1.5", "--timeout")
(2.0, 1.5)
>>> parse_seconds("none", "--timeout", allow_none=True) is None
True
>>> check_duration(float("nan"), "startup")
Traceback (most recent call last):
...
simulator.core.durations.DurationError: startup: expected seconds > 0 and <= 1000000, got nan
"""

from __future__ import annotations

import math

from simulator.core.errors import HoldemError

MAX_SECONDS = 1_000_000.0


class DurationError(HoldemError, ValueError):
    """A duration that is not a finite number of seconds in (0, MAX_SECONDS]."""


def _refuse(what: str, value: object, allow_none: bool = False) -> DurationError:
    return DurationError(f"{what}: expected seconds > 0 and <= {MAX_SECONDS:.0f}"
                         f"{' or none' if allow_none else ''}, got {value}")


def check_duration(value: object, what: str) -> float:
    """``value`` as float seconds, or :class:`DurationError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _refuse(what, repr(value))
    seconds = float(value)
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_SECONDS):
        raise _refuse(what, value)
    return seconds


def parse_seconds(text: str, what: str, allow_none: bool = False) -> float | None:
    """Seconds from a command line; ``none`` means no limit where ``allow_none``."""
    if allow_none and text.strip().lower() == "none":
        return None
    try:
        value = float(text)
    except ValueError:
        raise _refuse(what, repr(text), allow_none) from None
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise _refuse(what, text, allow_none)
    return value

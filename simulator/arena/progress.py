"""A progress bar with hands/s and ETA on a terminal; silent in CI or when output is piped.

>>> bar = Progress(total=10, enabled=False)
>>> bar.update(4); bar.close(); bar.done
4
"""

from __future__ import annotations

import os
import sys
from typing import TextIO


def wanted(stream: TextIO | None = None) -> bool:
    """True on an interactive terminal outside CI."""
    stream = sys.stderr if stream is None else stream
    if os.environ.get("CI"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Progress:
    """Counts hands; draws a tqdm bar only when ``enabled``."""

    def __init__(self, total: int, *, enabled: bool, initial: int = 0,
                 desc: str = "hands", unit: str = "hand") -> None:
        self.done = initial
        self._bar = None
        if enabled:
            from tqdm import tqdm  # only on a terminal: no import cost in workers and CI

            self._bar = tqdm(total=total, initial=initial, unit=unit, unit_scale=True,
                             desc=desc, dynamic_ncols=True, smoothing=0.1)

    def update(self, hands: int) -> None:
        self.done += hands
        if self._bar is not None:
            self._bar.update(hands)

    def note(self, text: str) -> None:
        """A line above the bar (nothing when there is no bar: the run's end says it)."""
        if self._bar is not None:
            self._bar.write(text)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

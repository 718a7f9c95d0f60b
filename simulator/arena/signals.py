"""SIGTERM ends a command the way Ctrl-C does: it raises in the main thread, and the command
keeps what finished, prints one line and exits non-zero (``holdem run``, ``holdem acpc
dealer`` and ``holdem acpc connect`` alike).

>>> with sigterm_raises():
...     pass
>>> interrupt_name(Terminated()), interrupt_name(KeyboardInterrupt())
('terminated (SIGTERM)', 'interrupted')
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


class Terminated(BaseException):
    """Raised in the main thread by SIGTERM while a command is under way."""


@contextlib.contextmanager
def sigterm_raises() -> Iterator[None]:
    """While inside, SIGTERM raises :class:`Terminated` (in the main thread only: signals
    reach no other)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def interrupt_name(exc: BaseException) -> str:
    """How an interrupt is named in the command's last line."""
    return "terminated (SIGTERM)" if isinstance(exc, Terminated) else "interrupted"

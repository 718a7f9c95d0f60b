"""Interrupting a bot call that overstays its time, in any thread.

In the main thread a real-time timer (``SIGALRM``) interrupts the call: two system calls, the
cheapest way. Signals reach only the main thread, so a call made from another one (a web
server steps hands from worker threads) is watched by one watchdog thread instead, which
raises the interrupt inside the late thread (``PyThreadState_SetAsyncExc``). Either way the
interrupt is :class:`Overtime`, a ``BaseException`` so that a bot's own ``except Exception``
cannot swallow it, and either way it lands between two bytecodes: a bot stuck in compiled
code is caught when it returns, and one that never returns is ended from outside (the arena
runs blocks in worker processes and ends a worker whose bot overstays).

>>> import threading, time
>>> def slow() -> str:
...     try:
...         with deadline(0.05):
...             while True:
...                 time.sleep(0.001)
...     except Overtime:
...         return "interrupted"
>>> answers = []
>>> t = threading.Thread(target=lambda: answers.append(slow())); t.start(); t.join(5)
>>> answers, slow()
(['interrupted'], 'interrupted')
"""

from __future__ import annotations

import ctypes
import heapq
import itertools
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Overtime", "deadline"]


class Overtime(BaseException):
    """Raised inside a call that runs past its deadline."""


def _raise_overtime(signum: int, frame: object) -> None:
    raise Overtime


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Interrupt the block with :class:`Overtime` after ``seconds`` (None or 0: never)."""
    if seconds is None or seconds <= 0:
        yield
    elif threading.current_thread() is threading.main_thread():
        if not hasattr(signal, "setitimer"):
            yield
            return
        previous = signal.signal(signal.SIGALRM, _raise_overtime)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    else:
        with _WATCHDOG.watching(seconds):
            yield


def _async_raise(thread_id: int, exc: type[BaseException] | None) -> None:
    """Make ``exc`` pending in the thread (None: clear what is pending there)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id),
                                               ctypes.py_object(exc) if exc else None)


class _Watchdog:
    """One thread for the whole process that interrupts late calls of other threads.

    A call registers its deadline and unregisters on the way out; both under one lock, and
    the watchdog fires only at a call still registered. A fired interrupt that has not yet
    been raised when the call ends is cleared as it unregisters, so it can never surface
    after the block, outside the caller's ``except Overtime``.
    """

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._heap: list[tuple[float, int]] = []
        self._calls: dict[int, tuple[int, bool]] = {}  # token -> (thread id, fired)
        self._tokens = itertools.count()
        self._thread: threading.Thread | None = None

    @contextmanager
    def watching(self, seconds: float) -> Iterator[None]:
        token = next(self._tokens)
        with self._lock:
            self._calls[token] = (threading.get_ident(), False)
            heapq.heappush(self._heap, (time.monotonic() + seconds, token))
            self._ensure_thread()
            self._lock.notify()
        try:
            yield
        finally:
            with self._lock:
                thread_id, fired = self._calls.pop(token)
                if fired:
                    _async_raise(thread_id, None)

    def _ensure_thread(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._watch, name="bot-deadline",
                                            daemon=True)
            self._thread.start()

    def _watch(self) -> None:
        with self._lock:
            while True:
                while self._heap and self._heap[0][1] not in self._calls:
                    heapq.heappop(self._heap)  # a call that ended in time
                if not self._heap:
                    self._lock.wait()
                    continue
                due, token = self._heap[0]
                wait = due - time.monotonic()
                if wait > 0:
                    self._lock.wait(wait)
                    continue
                heapq.heappop(self._heap)
                thread_id, _ = self._calls[token]
                self._calls[token] = (thread_id, True)
                _async_raise(thread_id, Overtime)


_WATCHDOG = _Watchdog()

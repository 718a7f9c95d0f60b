"""External programs in process groups of their own, ended as whole groups.

A program we start may start others (a wrapper script runs the real bot, which may fork):
ending the program alone leaves them running, reparented to init. So each program starts in
a session of its own (its own process group, out of our terminal's reach too), and ending it
ends the group. Every group still running is kept here, so that a worker told to end
(SIGTERM from the run that owns it) ends its programs' groups before it exits.

>>> import sys
>>> group = Group.start([sys.executable, "-c", "import time; time.sleep(60)"])
>>> group.end(grace=0.1)
>>> group.process.poll() is not None and not running()
True
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import IO, Any

_RUNNING: dict[int, Group] = {}  # group id -> group


@dataclass
class Group:
    """One program started as the leader of a process group of its own."""

    process: subprocess.Popen[bytes]

    @classmethod
    def start(cls, argv: list[str], output: IO[Any] | None = None) -> Group:
        """Start ``argv`` (no shell) in a new session, stdin from /dev/null, its output to
        ``output`` (None: ours); OSError if it cannot start."""
        process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=output,
                                   stderr=output, start_new_session=True)
        group = cls(process)
        _RUNNING[process.pid] = group
        return group

    def end(self, grace: float) -> None:
        """Give the leader ``grace`` seconds to exit (it had its EOF), then SIGTERM the group
        and as long again, then SIGKILL whatever is left of the group."""
        for signum in (signal.SIGTERM, signal.SIGKILL):
            if self._wait(grace):
                break
            self._signal(signum)
        self._wait(5.0)
        self._signal(signal.SIGKILL)  # members that outlive their leader (a wrapper's forks)
        _RUNNING.pop(self.process.pid, None)

    def _wait(self, seconds: float) -> bool:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=seconds)
            return True
        return False

    def _signal(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signum)


def running() -> list[Group]:
    """The groups started and not yet ended, in this process."""
    return list(_RUNNING.values())


def end_all() -> None:
    """SIGKILL every group still running, at once (the process is about to exit)."""
    for group in running():
        group._signal(signal.SIGKILL)
        _RUNNING.pop(group.process.pid, None)
    deadline = time.monotonic() + 1.0
    for group in running():
        group._wait(max(deadline - time.monotonic(), 0.0))

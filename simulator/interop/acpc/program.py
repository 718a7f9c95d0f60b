"""An external program in a seat of our matches and tournaments, over the ACPC protocol.

Registered as the bot ``acpc-program``::

    seats:
      - name: theirs
        bot: acpc-program
        params: {command: [./their_bot, "{game}", "{host}", "{port}"]}

In ``start`` the seat listens on 127.0.0.1 on a free port (the system picks it, so parallel
workers never share one), launches ``command`` with ``{host}``, ``{port}`` and ``{game}`` (the
path of an ACPC ``.game`` file of the match) replaced, accepts the program's connection and
reads its version line, all within ``startup_timeout`` seconds. It then plays the seat as the
reference dealer would (:class:`~simulator.interop.acpc.seat.AcpcSeat`). The program's
standard output and error go to ``stderr-block<B>-perm<P>.log`` in the seat's directory
(``<output>/bots/<name>/`` in a tournament). The program runs in a process group of its own
(:mod:`simulator.interop.process_groups`), and ``close`` ends the whole group, so nothing it
started outlives the seat. The arena builds fresh bots for every block and permutation, so
each gets a fresh process.

A crash or a hang shows as an exception or an overrun inside ``act``, which the match loop
turns into a fault under ``on_bot_error`` and ``bot_timeout``: under ``fold`` the seat folds
(or checks) each later decision of the block, each counted as a fault. The program is ended
as soon as it fails.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from simulator.core.durations import check_duration
from simulator.core.game import GameConfig
from simulator.interop.acpc.connection import LineConnection, handshake, listen
from simulator.interop.acpc.gamedef import check_expressible, format_gamedef, gamedef_for
from simulator.interop.acpc.protocol import ProtocolError
from simulator.interop.acpc.seat import AcpcSeat, Illegal
from simulator.interop.process_groups import Group
from simulator.play.protocol import BotContext

HOST = "127.0.0.1"
PLACEHOLDERS = ("{host}", "{port}", "{game}")
CLOSE_GRACE = 1.0  # seconds for a program to exit on its EOF after a match
FAILED_GRACE = 0.1  # after its failure: the match is waiting


class AcpcProgram(AcpcSeat):
    """A program started for this seat; see the module docstring.

    ``command`` is the argument list (no shell); ``timeout`` seconds per action (None: no
    limit but the match's ``bot_timeout``).
    """

    def __init__(self, command: list[str], startup_timeout: float = 10.0,
                 timeout: float | None = 10.0, illegal: Illegal = "error") -> None:
        if (not isinstance(command, list) or not command
                or not all(isinstance(a, str) for a in command)):
            raise ValueError(f"command: expected a non-empty list of strings, got {command!r}")
        if not any("{port}" in a for a in command):
            raise ValueError(f"command: expected a '{{port}}' placeholder for the port to "
                             f"connect to, got {command!r}")
        startup = check_duration(startup_timeout, "startup_timeout")
        if timeout is not None:
            timeout = check_duration(timeout, "timeout")
        super().__init__(None, timeout=timeout, illegal=illegal)
        self.command, self.startup_timeout = list(command), startup
        self.group: Group | None = None
        self.log_path: Path | None = None
        self._temp: tempfile.TemporaryDirectory[str] | None = None

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The program's process while it runs (the leader of its group)."""
        return self.group.process if self.group is not None else None

    @classmethod
    def check_game(cls, game: GameConfig) -> None:
        """Refuse, before any work, a game an ACPC program cannot be told (carried-over
        stacks, antes, limit stacks that can run out)."""
        check_expressible(game)

    def start(self, context: BotContext) -> None:
        listener = None
        try:
            super().start(context)
            deadline = time.monotonic() + self.startup_timeout
            listener = listen(HOST, 0)
            self.group = self._launch(context, listener.getsockname()[1])
            self.connection = self._accept(listener, deadline)
            handshake(self.connection, max(deadline - time.monotonic(), 0.001))
        except BaseException as exc:
            self._fail(f"start(): {exc}")
            raise
        finally:
            if listener is not None:
                listener.close()

    def _launch(self, context: BotContext, port: int) -> Group:
        """Start the program with the placeholders filled, its output to the seat's log."""
        if context.directory is None:
            self._temp = tempfile.TemporaryDirectory(prefix="acpc-program-")
            context = replace(context, directory=Path(self._temp.name))
            log_name = None  # without a directory of its own the program writes where we do
        else:
            log_name = f"stderr-block{context.block}-perm{context.permutation}.log"
            self.log_path = context.directory / log_name
        game_file = _write_game(context, format_gamedef(gamedef_for(self.game, self.players)))
        argv = [_fill(a, str(port), str(game_file)) for a in self.command]
        log: IO[Any] | None = None
        if log_name is not None:
            log = context.open_file(log_name, "ab")  # the child holds its own copy
        try:
            return Group.start(argv, log)
        except OSError as exc:
            raise ProtocolError(f"cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        finally:
            if log is not None:
                log.close()

    def _accept(self, listener: Any, deadline: float) -> LineConnection:
        """The program's connection; fails early if the program exits without connecting."""
        listener.settimeout(0.05)
        while True:
            try:
                sock, _ = listener.accept()
                return LineConnection(sock, f"program {self.command[0]!r}")
            except TimeoutError:
                pass
            assert self.group is not None
            status = self.group.process.poll()
            if status is not None:
                raise ProtocolError(f"program {self.command[0]!r} exited with status {status} "
                                    f"before connecting{self._see_log()}")
            if time.monotonic() > deadline:
                raise ProtocolError(f"program {self.command[0]!r} did not connect within "
                                    f"{self.startup_timeout}s{self._see_log()}")

    def _see_log(self) -> str:
        return f" (see {self.log_path})" if self.log_path is not None else ""

    def _fail(self, problem: str) -> None:
        first = self.failure is None
        super()._fail(problem)
        if first:
            self._stop()

    def close(self) -> None:
        super().close()
        self._stop()

    def _stop(self) -> None:
        """End the program and every process it started: it had its EOF; after a run, a
        moment to exit before its group is terminated, then killed; after a failure, no
        moment (the match is waiting)."""
        if self.connection is not None:
            self.connection.close()
        group, self.group = self.group, None
        if group is not None:
            group.end(grace=FAILED_GRACE if self.failure is not None else CLOSE_GRACE)
        if self._temp is not None:
            self._temp.cleanup()
            self._temp = None


def _fill(arg: str, port: str, game_file: str) -> str:
    return arg.replace("{host}", HOST).replace("{port}", port).replace("{game}", game_file)


def _write_game(context: BotContext, text: str) -> Path:
    """The match's ``.game`` file in the seat's directory, written atomically (parallel
    workers may write the same) and never through a symlink."""
    assert context.directory is not None
    context.directory.mkdir(parents=True, exist_ok=True)
    tmp = f".match.game.{os.getpid()}"
    (context.directory / tmp).unlink(missing_ok=True)  # a stale or planted file: gone
    with context.open_file(tmp, "x") as f:
        f.write(text)
    path = context.directory / "match.game"
    os.replace(context.directory / tmp, path)  # replaces a planted link, never follows it
    return path

"""Lines over TCP as the ACPC protocol has them, with a timeout on every wait.

The dealer ends its lines with ``\\r\\n``; a bot may end its own with ``\\n`` or ``\\r\\n``;
lines starting with ``#`` or ``;`` are comments; a line holds at most 4096 bytes. A bot's
first line is its version (``VERSION:2.0.0``). Small request-reply lines would wait on
Nagle's algorithm, so every connection sets ``TCP_NODELAY``.

>>> listener = listen("127.0.0.1", 0)
>>> client = connect("127.0.0.1", listener.getsockname()[1], timeout=5)
>>> server = accept(listener, timeout=5)
>>> handshake(server, timeout=5)
'VERSION:2.0.0'
>>> server.send("MATCHSTATE:0:0::5d5c|")
>>> client.read(timeout=5)
'MATCHSTATE:0:0::5d5c|'
>>> client.close(); server.read(timeout=5) is None  # the peer closed: EOF
True
>>> server.close(); listener.close()
"""

from __future__ import annotations

import selectors
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from simulator.interop.acpc.protocol import (
    MAX_LINE,
    VERSION,
    ProtocolError,
    is_comment,
    is_version,
)


class LineConnection:
    """One peer: ``send`` a line, ``read`` the next non-comment line (None at EOF)."""

    def __init__(self, sock: socket.socket, peer: str = "peer") -> None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock, self.peer = sock, peer
        self._buffer = bytearray()
        self._eof = False
        self.closed = False

    def send(self, line: str) -> None:
        self.send_all([line])

    def send_all(self, lines: list[str]) -> None:
        """Send lines in one write: a peer woken once per batch, not once per line."""
        try:
            self.sock.sendall("".join(f"{line}\r\n" for line in lines).encode("ascii"))
        except OSError as exc:
            raise ProtocolError(f"{self.peer}: disconnected ({exc.strerror or exc})") from None

    def read(self, timeout: float | None) -> str | None:
        """The next line without its line end, or None when the peer closed the connection.

        Raises :class:`ProtocolError` when no whole line came within ``timeout`` seconds
        (None: wait; the bound is on the whole line, so a peer trickling bytes gains nothing),
        for a line over 4096 bytes, or for one that is not ASCII text.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            line = self._take_line()
            if line is not None:
                if is_comment(line):
                    continue
                return line
            if self._eof:
                if self._buffer:
                    raise ProtocolError(f"{self.peer}: disconnected in the middle of a line")
                return None
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise ProtocolError(f"{self.peer}: no reply within {timeout}s")
            self._receive(left, timeout)

    def poll(self) -> str | None:
        """What has arrived, without waiting: the next whole non-comment line, or None.

        For a connection the selector found readable; EOF before a line is a
        :class:`ProtocolError`, as are the bad lines :meth:`read` refuses.
        """
        self._receive(0.0, 0.0)
        while (line := self._take_line()) is not None:
            if not is_comment(line):
                return line
        if self._eof:
            raise ProtocolError(f"{self.peer}: closed the connection before a whole line")
        return None

    def _receive(self, left: float | None, timeout: float | None) -> None:
        """One ``recv`` into the buffer, waiting at most ``left`` seconds (0: not at all)."""
        self.sock.settimeout(left)
        try:
            chunk = self.sock.recv(MAX_LINE + 1)
        except (TimeoutError, BlockingIOError):
            if left == 0:
                return
            raise ProtocolError(f"{self.peer}: no reply within {timeout}s") from None
        except OSError as exc:
            raise ProtocolError(f"{self.peer}: disconnected ({exc.strerror or exc})") from None
        if not chunk:
            self._eof = True
        self._buffer += chunk

    def _take_line(self) -> str | None:
        """The buffer's first whole line, decoded, or None while none is whole."""
        end = self._buffer.find(b"\n")
        if end < 0:
            if len(self._buffer) > MAX_LINE:
                raise ProtocolError(f"{self.peer}: a line longer than {MAX_LINE} bytes")
            return None
        if end > MAX_LINE:
            raise ProtocolError(f"{self.peer}: a line longer than {MAX_LINE} bytes")
        raw = bytes(self._buffer[:end + 1])
        del self._buffer[:end + 1]
        try:
            return raw.decode("ascii").rstrip("\r\n")
        except UnicodeDecodeError:
            raise ProtocolError(f"{self.peer}: a line that is not ASCII text: "
                                f"{raw[:60]!r}") from None

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for close in (lambda: self.sock.shutdown(socket.SHUT_RDWR), self.sock.close):
            try:
                close()
            except OSError:
                pass


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free port the system picks)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ProtocolError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(1)
    return sock


def accept(listener: socket.socket, timeout: float | None, peer: str = "peer") -> LineConnection:
    """The next connection on ``listener`` (ProtocolError after ``timeout`` seconds)."""
    listener.settimeout(timeout)
    try:
        sock, _ = listener.accept()
    except TimeoutError:
        port = listener.getsockname()[1]
        raise ProtocolError(f"{peer}: nobody connected to port {port} within {timeout}s") from None
    return LineConnection(sock, peer)


@dataclass
class _Pending:
    conn: LineConnection
    seat: int
    deadline: float | None


def accept_seats(listeners: Sequence[socket.socket], peers: Sequence[str], *,
                 connect_timeout: float | None, handshake_timeout: float | None,
                 warn: Callable[[str], None] | None = None) -> list[LineConnection]:
    """One client per listener, each the first connection there to send its version line.

    Connections are served together, so none blocks another: one that says nothing within
    ``handshake_timeout`` seconds, closes, or sends something else is dropped (``warn`` is
    told) and its port goes on listening. ``connect_timeout`` bounds the whole wait (None:
    wait); when it runs out, ProtocolError names the first seat still empty. Each listener
    is closed once its seat is taken.
    """
    selector = selectors.DefaultSelector()
    seats: list[LineConnection | None] = [None] * len(listeners)
    pending: list[_Pending] = []
    end = None if connect_timeout is None else time.monotonic() + connect_timeout
    try:
        for seat, listener in enumerate(listeners):
            listener.setblocking(False)
            selector.register(listener, selectors.EVENT_READ, seat)
        while None in seats:
            now = time.monotonic()
            for p in [p for p in pending if p.deadline is not None and p.deadline <= now]:
                _drop(selector, pending, p, warn, f"no version line within "
                                                  f"{handshake_timeout}s")
            if end is not None and now >= end:
                seat = seats.index(None)
                port = listeners[seat].getsockname()[1]
                raise ProtocolError(f"{peers[seat]}: nobody connected to port {port} and sent "
                                    f"its version within {connect_timeout}s")
            waits = [t - now for t in [end, *(p.deadline for p in pending)] if t is not None]
            for key, _ in selector.select(max(min(waits), 0.0) if waits else None):
                if isinstance(key.data, int):
                    pending += _accepted(selector, key.fileobj, key.data, peers,  # type: ignore[arg-type]
                                         handshake_timeout)
                else:
                    _version(selector, pending, key.data, seats, listeners, warn)
        return [conn for conn in seats if conn is not None]
    except BaseException:
        for conn in seats:
            if conn is not None:
                conn.close()
        raise
    finally:
        for p in pending:
            p.conn.close()
        selector.close()


def _accepted(selector: selectors.BaseSelector, listener: socket.socket, seat: int,
              peers: Sequence[str], timeout: float | None) -> list[_Pending]:
    try:
        sock, _ = listener.accept()
    except (BlockingIOError, InterruptedError):
        return []
    sock.setblocking(True)
    p = _Pending(LineConnection(sock, peers[seat]), seat,
                 None if timeout is None else time.monotonic() + timeout)
    selector.register(sock, selectors.EVENT_READ, p)
    return [p]


def _version(selector: selectors.BaseSelector, pending: list[_Pending], p: _Pending,
             seats: list[LineConnection | None], listeners: Sequence[socket.socket],
             warn: Callable[[str], None] | None) -> None:
    """A pending connection has something to say: its version line takes the seat."""
    try:
        line = p.conn.poll()
    except ProtocolError as exc:
        _drop(selector, pending, p, warn, str(exc).removeprefix(f"{p.conn.peer}: "))
        return
    if line is None:
        return
    if not is_version(line):
        _drop(selector, pending, p, warn, f"expected a version line like {VERSION!r}, got "
                                          f"{line[:80]!r}")
        return
    selector.unregister(p.conn.sock)
    pending.remove(p)
    if seats[p.seat] is not None:  # taken meanwhile
        p.conn.close()
        return
    seats[p.seat] = p.conn
    selector.unregister(listeners[p.seat])
    listeners[p.seat].close()


def _drop(selector: selectors.BaseSelector, pending: list[_Pending], p: _Pending,
          warn: Callable[[str], None] | None, why: str) -> None:
    selector.unregister(p.conn.sock)
    pending.remove(p)
    if warn is not None:
        warn(f"{p.conn.peer}: a connection dropped: {why}")
    p.conn.close()


def handshake(conn: LineConnection, timeout: float | None) -> str:
    """Read the bot's version line; ProtocolError unless it is ``VERSION:a.b.c``."""
    line = conn.read(timeout)
    if line is None:
        raise ProtocolError(f"{conn.peer}: closed the connection before sending its version")
    if not is_version(line):
        raise ProtocolError(f"{conn.peer}: expected a version line like {VERSION!r}, got "
                            f"{line[:80]!r}")
    return line


def connect(host: str, port: int, timeout: float | None = 10.0,
            peer: str = "dealer") -> LineConnection:
    """Connect to a dealer and send our version line."""
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        raise ProtocolError(f"cannot connect to {host}:{port}: {exc.strerror or exc}") from None
    conn = LineConnection(sock, peer)
    conn.send(VERSION)
    return conn

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

import socket
import time

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
        self._reader = sock.makefile("rb")
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

        Raises :class:`ProtocolError` after ``timeout`` seconds without a line (None: wait),
        for a line over 4096 bytes, or for one that is not ASCII text.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            self.sock.settimeout(left)
            try:
                raw = self._reader.readline(MAX_LINE + 1)
            except TimeoutError:
                raise ProtocolError(f"{self.peer}: no reply within {timeout}s") from None
            except OSError as exc:
                raise ProtocolError(f"{self.peer}: disconnected ({exc.strerror or exc})") from None
            if not raw:
                return None
            if not raw.endswith(b"\n"):
                if len(raw) > MAX_LINE:
                    raise ProtocolError(f"{self.peer}: a line longer than {MAX_LINE} bytes")
                raise ProtocolError(f"{self.peer}: disconnected in the middle of a line")
            try:
                line = raw.decode("ascii").rstrip("\r\n")
            except UnicodeDecodeError:
                raise ProtocolError(f"{self.peer}: a line that is not ASCII text: "
                                    f"{raw[:60]!r}") from None
            if not is_comment(line):
                return line

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for close in (self._reader.close, lambda: self.sock.shutdown(socket.SHUT_RDWR),
                      self.sock.close):
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

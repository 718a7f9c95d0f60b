"""A dealer with our engine: ACPC programs connect to their seats' ports, our bots play inline.

The match is our own match loop (:func:`~simulator.play.match.play_match`): seat ``s`` is
ACPC seat ``s``, hand 0's button is the last seat and it moves one seat a hand, so seat ``s``
holds position ``(s - hand) % N`` as at the reference dealer. A seat without a bot waits for
an ACPC client and is played by an :class:`~simulator.interop.acpc.seat.AcpcSeat`, which
sends that seat's MATCHSTATE lines and reads its replies. Every failure of a seat (a timeout,
a disconnect, a malformed reply, an illegal action unless ``illegal="call"``) stops the match
with a :class:`~simulator.play.match.BotError`; the hands finished before it have been
yielded already. Ports are bound on ``host`` (default 127.0.0.1 only, where the reference
dealer listens on every interface).
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator, Sequence

from simulator.core.game import GameConfig
from simulator.core.records import HandResult
from simulator.interop.acpc.connection import accept_seats, listen
from simulator.interop.acpc.gamedef import gamedef_for
from simulator.interop.acpc.seat import AcpcSeat, Illegal
from simulator.play.match import play_match
from simulator.play.protocol import Bot

DEFAULT_HOST = "127.0.0.1"
DEFAULT_TIMEOUT = 10.0  # seconds per action, as the issue asks


def open_ports(host: str, ports: Sequence[int] | None, count: int) -> list[socket.socket]:
    """Listening sockets for ``count`` client seats on ``host`` (``ports`` in seat order, or
    free ports the system picks); ProtocolError naming a port already in use, with every
    socket opened so far closed."""
    if ports is not None and len(ports) != count:
        raise ValueError(f"expected {count} ports (one per ACPC seat), got {len(ports)}")
    listeners: list[socket.socket] = []
    try:
        for k in range(count):
            listeners.append(listen(host, 0 if ports is None else ports[k]))
    except BaseException:
        for sock in listeners:
            sock.close()
        raise
    return listeners


def host_match(game: GameConfig, names: Sequence[str], bots: Sequence[Bot | None], *, hands: int,
         seed: int, host: str = DEFAULT_HOST, ports: Sequence[int] | None = None,
         listeners: Sequence[socket.socket] | None = None,
         timeout: float | None = DEFAULT_TIMEOUT, connect_timeout: float | None = None,
         illegal: Illegal = "error",
         on_listening: Callable[[list[int]], None] | None = None,
         warn: Callable[[str], None] | None = None) -> Iterator[HandResult]:
    """Host a match of ``hands`` hands; None in ``bots`` is a seat for an ACPC client.

    ``listeners`` are the client seats' sockets from :func:`open_ports` (opened before
    anything else is done, so a port in use is found first); without them, ``ports`` fixes
    the ports, in seat order (default: free ports the system picks). ``on_listening(ports)``
    is told them before any client is awaited. ``timeout`` is seconds per action of every
    seat and for a client's version line (None: no limit); ``connect_timeout`` bounds the
    wait for every client to connect and send it (None: wait). A connection that says
    nothing or something else is dropped (``warn`` is told), never blocking the seat.
    """
    gamedef_for(game, len(bots))  # refuses, naming the key, a game ACPC cannot state
    remote = [s for s, b in enumerate(bots) if b is None]
    if listeners is None:
        listeners = open_ports(host, ports, len(remote))
    elif len(listeners) != len(remote):
        raise ValueError(f"expected {len(remote)} listeners (one per ACPC seat), got "
                         f"{len(listeners)}")
    seats: list[AcpcSeat] = []
    try:
        if on_listening is not None:
            on_listening([sock.getsockname()[1] for sock in listeners])
        conns = accept_seats(listeners, [f"seat {s} ({names[s]})" for s in remote],
                             connect_timeout=connect_timeout, handshake_timeout=timeout,
                             warn=warn)
        players: list[Bot | None] = list(bots)
        for seat, conn in zip(remote, conns, strict=True):
            seats.append(AcpcSeat(conn, timeout=timeout, illegal=illegal))
            players[seat] = seats[-1]
        # a reply that overstays is the seat's own error; the loop's timer is a backstop
        backstop = None if timeout is None else timeout + 1.0
        yield from play_match(game, players, hands, seed, names=names,  # type: ignore[arg-type]
                              on_bot_error="stop", bot_timeout=backstop)
    finally:
        for sock in listeners:
            sock.close()
        for seat_bot in seats:
            seat_bot.close()

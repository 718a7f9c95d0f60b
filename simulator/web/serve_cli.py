"""``holdem serve``: a local web app to play the bots, replay hands and read reports.

    holdem serve [DIR ...] [--port N] [--host HOST] [--sessions DIR]

Serves the runs, leagues, exploit runs and play sessions under each DIR (default: results/)
and prints the address to open, with the per-start token that the play page needs. It binds
to 127.0.0.1 unless --host says otherwise (it has no log-in: on another host anyone who can
reach the port and learns the token can play). Needs the web extra: pip install '.[web]'.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simulator.core.errors import HoldemError
from simulator.core.helptext import summary
from simulator.web.tables import default_sessions


class WebMissing(HoldemError, ImportError):
    """The web extra is not installed."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="holdem serve", description=summary(__doc__ or ""))
    p.add_argument("dirs", nargs="*", type=Path, help="results directories (default results/)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only; "
                        "the pages have no log-in)")
    p.add_argument("--port", type=int, default=8765, help="the port (default 8765)")
    p.add_argument("--sessions", type=Path, default=None,
                   help="where play sessions are written (default results/sessions)")
    p.add_argument("--idle", type=float, default=30.0,
                   help="seconds after which a game whose tab went away ends")
    return p


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        import uvicorn

        from simulator.web.app import WebApp
    except ImportError as exc:
        raise WebMissing(f"holdem serve needs the web extra: pip install '.[web]' ({exc})"
                         ) from None
    dirs = args.dirs or [Path("results")]
    for d in dirs:
        if not d.is_dir():
            raise HoldemError(f"{d}: not a directory")
    if not 0 < args.port < 65536:
        raise HoldemError(f"--port: expected 1..65535, got {args.port}")
    web = WebApp(dirs, args.sessions or default_sessions(), idle_seconds=args.idle)
    if args.host != "127.0.0.1":
        print(f"warning: serving on {args.host}, beyond this machine: the app has no log-in; "
              f"anyone who has the address below can play", file=sys.stderr)
    shown = args.host if ":" not in args.host else f"[{args.host}]"
    print(f"holdem serve: open http://{shown}:{args.port}/?token={web.token}", flush=True)
    uvicorn.run(web.asgi(), host=args.host, port=args.port, log_level="warning")
    return 0

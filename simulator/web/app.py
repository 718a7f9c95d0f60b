"""The web app of ``holdem serve``: pages, their JSON, and the guards every request passes.

* Every response carries a Content-Security-Policy that allows only the app's own origin
  (no inline script, nothing fetched from elsewhere).
* A request body over :data:`MAX_BODY` bytes is refused (413) before it is read whole.
* The pages and calls that start or play games need the per-start token of the printed
  address (403 without it); the read-only pages serve only files under the given
  directories (:mod:`simulator.web.paths`: anything else is 404).
* Every bad input is one message as ``{"error": ...}`` with a 4xx status, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from simulator.core.errors import HoldemError
from simulator.play.registry import registered
from simulator.play.trace_files import trace_file
from simulator.web.paths import NotFound, Roots, kind_of
from simulator.web.replays import (
    HISTORY_FILE,
    TraceLocator,
    hand_list,
    read_hands,
    replay_view,
)
from simulator.web.reports import report_of
from simulator.web.tables import BadRequest, Conflict, Tables, parse_request

MAX_BODY = 64 * 1024
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
STATIC = ("app.css", "common.js", "chart.js", "index.js", "play.js", "replay.js",
          "report.js", "reasoning.js")
PAGES = ("index", "play", "replay", "report")


def static_text(name: str) -> str:
    return (files("simulator.web") / "static" / name).read_text(encoding="utf-8")


class Guards:
    """The ASGI layer of the security headers and the body limit."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await _too_large(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise BadRequest(f"request body over {MAX_BODY} bytes")
            return message

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"content-security-policy", CSP.encode()),
                            (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"),
                            (b"cache-control", b"no-store")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, counted, headed)


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    response = JSONResponse({"error": f"request body over {MAX_BODY} bytes"}, 413,
                            headers={"content-security-policy": CSP})
    await response(scope, receive, send)


Handler = Callable[[Request], Awaitable[Response]]


def _answers(handler: Handler) -> Handler:
    """Bad input as one message and a 4xx status."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except NotFound as exc:
            return JSONResponse({"error": str(exc)}, 404)
        except Conflict as exc:
            return JSONResponse({"error": str(exc)}, 409)
        except LookupError:
            return JSONResponse({"error": "no such game: it has ended (its tab was closed "
                                          "or it sat idle)"}, 404)
        except HoldemError as exc:
            return JSONResponse({"error": str(exc)}, 400)

    return wrapped


class WebApp:
    """The state of one server: its roots, its token, its games."""

    def __init__(self, dirs: list[Path], sessions: Path, *, token: str | None = None,
                 idle_seconds: float = 30.0) -> None:
        sessions.mkdir(parents=True, exist_ok=True)
        self.roots = Roots([*dirs, sessions])
        self.token = token or secrets.token_urlsafe(16)
        self.tables = Tables(sessions, idle_seconds)
        self.pages = {name: static_text(f"{name}.html") for name in PAGES}

    def check_token(self, request: Request) -> None:
        given = request.headers.get("x-holdem-token") or request.query_params.get("token", "")
        if not secrets.compare_digest(given.encode(), self.token.encode()):
            raise _Forbidden

    # --- pages ------------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        name = request.url.path.strip("/") or "index"
        if name == "play":
            try:
                self.check_token(request)
            except _Forbidden:
                return Response("This page needs the address holdem serve printed (with its "
                                "token).", 403, media_type="text/plain")
        return Response(self.pages[name], media_type="text/html")

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not found", 404, media_type="text/plain")
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return Response(static_text(name), media_type=kind)

    # --- reading ----------------------------------------------------------------------------

    async def listing(self, request: Request) -> Response:
        found = await anyio.to_thread.run_sync(self.roots.found)
        return JSONResponse({"found": [{"ref": f.ref, "kind": f.kind} for f in found],
                             "roots": [str(d) for d in self.roots.dirs],
                             "bots": sorted(registered())})

    async def report(self, request: Request) -> Response:
        ref = request.query_params.get("ref", "")
        path = self.roots.resolve(ref)
        kind = kind_of(path) if path.is_dir() else None
        if kind is None:
            raise NotFound(f"{ref}: not a results directory")
        data = await anyio.to_thread.run_sync(lambda: report_of(path, kind, ref))
        return JSONResponse(data)

    def _history(self, ref: str) -> Path:
        path = self.roots.resolve(ref)
        if path.is_dir():
            path = self.roots.resolve(f"{ref.rstrip('/')}/{HISTORY_FILE}")
        return path

    async def hands(self, request: Request) -> Response:
        ref = request.query_params.get("ref", "")
        try:
            path = self._history(ref)
        except NotFound:
            return JSONResponse({"error": f"{ref}: no hand histories here. A run writes them "
                                          f"with output.hand_histories: true (leagues and "
                                          f"exploit runs too); play sessions always do."}, 404)
        hands = await anyio.to_thread.run_sync(read_hands, path)
        return JSONResponse({"ref": ref, "hands": hand_list(hands)})

    async def hand(self, request: Request) -> Response:
        ref = request.query_params.get("ref", "")
        index_text = request.query_params.get("index", "")
        if not index_text.isdigit():
            raise BadRequest("index: expected a hand number")
        history = self._history(ref)
        hands = await anyio.to_thread.run_sync(read_hands, history)
        index = int(index_text)
        if index >= len(hands):
            raise NotFound(f"{ref}: no hand {index} (it has {len(hands)})")
        locate = self._trace_locator(history)
        view = await anyio.to_thread.run_sync(lambda: replay_view(hands[index], index, locate))
        return JSONResponse(view)

    def _trace_locator(self, history: Path) -> TraceLocator:
        """Where the bots of the run holding ``history`` wrote their traces: found through
        the same checks as any served path, so a player's name cannot lead out."""
        index = next((i for i, d in enumerate(self.roots.dirs) if history.is_relative_to(d)),
                     None)
        folder = self.roots.ref(index, history.parent) if index is not None else None

        def locate(name: str, block: int, perm: int) -> Path | None:
            if folder is None:
                return None
            try:
                return trace_file(self.roots.resolve(f"{folder}/bots/{name}"), block, perm)
            except NotFound:
                return None
        return locate

    # --- games ------------------------------------------------------------------------------

    async def new_game(self, request: Request) -> Response:
        self.check_token(request)
        data = await _body(request)
        table_request = parse_request(data)
        ident = await anyio.to_thread.run_sync(self.tables.open, table_request)
        return JSONResponse({"id": ident}, 201)

    async def game(self, request: Request) -> Response:
        self.check_token(request)
        ident, verb = request.path_params["ident"], request.path_params["verb"]
        if verb == "close":
            closed = await anyio.to_thread.run_sync(self.tables.close, ident)
            return JSONResponse({"closed": closed})
        data = await _body(request) if verb == "act" else None
        table, lock = self.tables.get(ident)

        def run() -> dict[str, Any]:
            with lock:
                extra: dict[str, Any] = {}
                if verb == "step":
                    stepped = table.step()
                    if stepped is not None:
                        extra = {"returned_at": stepped.returned_at,
                                 "bot_seconds": stepped.after_return}
                elif verb == "act":
                    table.act(data)
                elif verb == "deal":
                    table.deal()
                elif verb == "hint":
                    return table.hint()
                elif verb != "view":
                    raise NotFound(f"no such call {verb!r}")
                return table.view() | extra

        return JSONResponse(await anyio.to_thread.run_sync(run))

    # --- the app ----------------------------------------------------------------------------

    def asgi(self) -> ASGIApp:
        routes = [Route(f"/{'' if p == 'index' else p}", _answers(self.page)) for p in PAGES]
        routes += [
            Route("/static/{name}", _answers(self.static)),
            Route("/api/list", _answers(self.listing)),
            Route("/api/report", _answers(self.report)),
            Route("/api/hands", _answers(self.hands)),
            Route("/api/hand", _answers(self.hand)),
            Route("/api/games", _forbidding(_answers(self.new_game)), methods=["POST"]),
            Route("/api/games/{ident}/{verb}", _forbidding(_answers(self.game)),
                  methods=["POST"]),
        ]
        return Guards(Starlette(routes=routes, lifespan=self._lifespan))

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(self._reaper())
        try:
            yield
        finally:
            task.cancel()
            await anyio.to_thread.run_sync(self.tables.close_all)

    async def _reaper(self) -> None:
        """Ends games whose tab went away: every second, those idle past the limit."""
        while True:
            await asyncio.sleep(1.0)
            await anyio.to_thread.run_sync(self.tables.reap)


class _Forbidden(Exception):
    pass


def _forbidding(handler: Handler) -> Handler:
    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except _Forbidden:
            return JSONResponse({"error": "this call needs the token of the address holdem "
                                          "serve printed"}, 403)

    return wrapped


async def _body(request: Request) -> Any:
    raw = await request.body()
    if not raw:
        return {}
    try:
        return json.loads(raw)
    except ValueError:
        raise BadRequest("the request body is not JSON") from None

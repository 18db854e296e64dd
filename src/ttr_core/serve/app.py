"""The Starlette app of ``ttr serve`` (needs the ``serve`` extra).

=======  ===========================  ==========================================
GET      /                            the start page: pick a map, players, bots
POST     /api/games                   ``{"map", "players", "bots"}`` → ``{"game": id}``
GET      /game/{id}                   the game page (a reload resumes the game)
GET      /api/games/{id}              the person's status (their seat's view only;
                                      ``?board=0``: without the picture)
POST     /api/games/{id}/moves        ``{"ply", "action"}``: the person's move
GET      /api/games/{id}/record       the record (JSON Lines), once the game is over
POST     /api/games/{id}/replay       a replay of the finished game → ``{"replay": id}``
POST     /api/replays                 a replay of an uploaded record (the body)
GET      /replay/{id}                 the replay page
GET      /api/replays/{id}?step=N     step N of a replay: its picture and line
=======  ===========================  ==========================================

A server on localhost is reachable by every web page its user opens, so
before any route runs (docs/serve.md, "Security"):

- the ``Host`` header must name an address on the allow-list (by default the
  loopback names at the port served): a DNS-rebinding domain gets a 403;
- an ``Origin`` must be the server's own, and ``Sec-Fetch-Site`` (when sent)
  ``same-origin`` or ``none``: a request from another site gets a 403;
- a POST must say its body is ``application/json`` (the record upload:
  ``application/x-ndjson``), body or not: the types another page can send
  without asking first get a 415;
- a request about a game must carry the game's seat cookie (``ttr_seat``,
  ``HttpOnly; SameSite=Strict``, its path the game's API), set when the game
  is made: without it the answer is that of a game that does not exist.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

import ttr_core
from ttr_core.agents import agent_names
from ttr_core.serve.games import Game, GameStore, ServeError

__all__ = ["LOOPBACK_HOSTS", "MAX_BODY", "SEAT_COOKIE", "create_app"]

#: The ``Host`` names answered by default: the loopback names, at the port the
#: server listens on.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
#: The cookie holding a game's seat token; one per game, its path the game's API.
SEAT_COOKIE = "ttr_seat"
#: How long a browser keeps a seat cookie (seconds): a game outlives a browser
#: restart as long as the server runs.
SEAT_COOKIE_AGE = 30 * 24 * 3600

#: The largest request body read (bytes): a move is about 100, a record upload
#: at most games.MAX_RECORD characters.
MAX_BODY = 4 * 1024 * 1024

_STATIC = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
#: Scripts and styles of the app's own only; the board is inline SVG.
_SECURITY = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; frame-ancestors 'none'"
    ),
    # Another page may not embed an answer (a <script src> of the API) even
    # where a browser sends no Sec-Fetch-Site; game ids travel in no Referer.
    "Cross-Origin-Resource-Policy": "same-origin",
    "Referrer-Policy": "no-referrer",
}
#: The body types of the POST routes: none of them a type a page of another
#: site may send without a CORS preflight (which this server never grants).
_JSON = "application/json"
_JSON_LINES = "application/x-ndjson"
#: Sec-Fetch-Site values of the page's own requests and of an address typed.
_OWN_SITE = frozenset({"same-origin", "none"})
#: The longest Host or Origin read; a longer one is refused unread.
_MAX_HOST = 300

Handler = Callable[[Request], Awaitable[Response]]


def create_app(
    store: GameStore | None = None,
    *,
    allowed_hosts: Sequence[str] = LOOPBACK_HOSTS,
    **defaults: Any,
) -> Starlette:
    """The app serving ``store`` (a new :class:`GameStore` made with
    ``defaults`` when none is given).

    ``allowed_hosts`` are the addresses a request's ``Host`` may name, each
    ``name`` (at the port the server listens on, as the ASGI server reports
    it; any port where it reports none) or ``name:port`` (that port: a
    tunnel's or a forwarded port); an IPv6 address in brackets or bare. The
    default is the loopback names; anything else is refused with a 403, which
    defeats DNS rebinding. Raises :class:`ttr_core.ArgumentError` for an entry
    that is no host name.
    """
    hosts = _allow_list(allowed_hosts)
    games = store if store is not None else GameStore(**defaults)

    def guarded(call: Handler, body_type: str | None) -> Handler:
        async def answer(request: Request) -> Response:
            try:
                if body_type is not None:
                    _check_type(request, body_type)
                response = await call(request)
            except ServeError as exc:
                response = _error(exc.status, exc.code, exc.message)
            except ttr_core.IllegalAction as exc:
                # A stale (repeated) move, a move in another seat's name, a
                # move the rules refuse: all conflict with the game as it is.
                response = _error(409, "illegal_action", exc.message, reason=str(exc.reason))
            except ttr_core.DataError as exc:
                response = _error(400, "bad_data", str(exc), path=exc.path)
            except ttr_core.TtrError as exc:
                response = _error(400, "bad_request", str(exc))
            response.headers.update(_SECURITY)
            return response

        return answer

    async def page(request: Request) -> Response:
        return Response(_page(), media_type="text/html; charset=utf-8")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            raise ServeError(404, "not_found", "no such file")
        return Response(_resource(name), media_type=_STATIC[name])

    async def options(request: Request) -> Response:
        return JSONResponse(
            {
                "maps": list(ttr_core.available_maps()),
                "bots": list(agent_names()),
                "map": games.map,
                "players": games.players,
                "bot": games.bots[0],
                "default_bots": list(games.bots),
            }
        )

    def seated(request: Request) -> Game:
        # Every request about a game, reads included: its status is the
        # person's hand and tickets.
        return games.seated(request.path_params["id"], _seat_tokens(request))

    async def create(request: Request) -> Response:
        body = await _json(request)
        game = await run_in_threadpool(games.create, body)
        response = JSONResponse({"game": game.id, "url": f"/game/{game.id}"}, status_code=201)
        # The page's fetches send it (same origin); another site's requests
        # never carry it (SameSite=Strict), nor may script read it (HttpOnly).
        # No Secure: ttr serve speaks plain http on localhost.
        response.set_cookie(
            SEAT_COOKIE,
            game.token,
            max_age=SEAT_COOKIE_AGE,
            path=f"/api/games/{game.id}",
            httponly=True,
            samesite="strict",
        )
        return response

    async def status(request: Request) -> Response:
        game = seated(request)
        answer = await run_in_threadpool(lambda: games.status(game.id, board=_board(request)))
        return JSONResponse(answer)

    async def move(request: Request) -> Response:
        game = seated(request)
        body = await _json(request)
        answer = await run_in_threadpool(lambda: games.move(game.id, body, board=_board(request)))
        return JSONResponse(answer)

    async def record(request: Request) -> Response:
        game = seated(request)
        text, name = await run_in_threadpool(games.record, game.id)
        return PlainTextResponse(
            text,
            media_type="application/x-ndjson; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def replay_game(request: Request) -> Response:
        game = seated(request)
        found = await run_in_threadpool(games.replay_of_game, game.id)
        return JSONResponse({"replay": found.id, "url": f"/replay/{found.id}"}, status_code=201)

    async def replay_upload(request: Request) -> Response:
        raw = await _body(request)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ServeError(400, "bad_data", "a record is UTF-8 text") from exc
        found = await run_in_threadpool(games.replay_upload, text)
        return JSONResponse({"replay": found.id, "url": f"/replay/{found.id}"}, status_code=201)

    async def replay_step(request: Request) -> Response:
        step = request.query_params.get("step", "0")
        if not step.isdigit() or len(step) > 6:
            raise ServeError(400, "bad_step", "step must be a small integer")
        answer = await run_in_threadpool(games.replay_step, request.path_params["id"], int(step))
        return JSONResponse(answer)

    # A POST route names its body type: checked even when there is no body.
    routes: Sequence[tuple[str, Handler, str, str | None]] = [
        ("/", page, "GET", None),
        ("/game/{id}", page, "GET", None),
        ("/replay/{id}", page, "GET", None),
        ("/static/{name}", static, "GET", None),
        ("/api/options", options, "GET", None),
        ("/api/games", create, "POST", _JSON),
        ("/api/games/{id}", status, "GET", None),
        ("/api/games/{id}/moves", move, "POST", _JSON),
        ("/api/games/{id}/record", record, "GET", None),
        ("/api/games/{id}/replay", replay_game, "POST", _JSON),
        ("/api/replays", replay_upload, "POST", _JSON_LINES),
        ("/api/replays/{id}", replay_step, "GET", None),
    ]
    app = Starlette(
        routes=[
            Route(path, guarded(call, body_type), methods=[method])
            for path, call, method, body_type in routes
        ],
        # Outside the routes: every path is guarded, unknown ones included.
        middleware=[Middleware(_SameSiteOnly, hosts=hosts)],
    )
    app.state.games = games
    app.state.allowed_hosts = tuple(
        name if port is None else f"{name}:{port}" for name, port in hosts
    )
    return app


# ---------------------------------------------------------------------------
# Requests from other sites


class _SameSiteOnly:
    """ASGI middleware refusing, before any route, a request another site made
    or aimed here: a ``Host`` not on the allow-list (DNS rebinding), an
    ``Origin`` not the server's own, a ``Sec-Fetch-Site`` other than
    ``same-origin`` or ``none``. A 403 with a JSON error that echoes nothing."""

    def __init__(self, app: ASGIApp, hosts: tuple[tuple[str, int | None], ...]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = _foreign(scope, self.hosts)
            if refusal is not None:
                response = _error(403, *refusal)
                response.headers.update(_SECURITY)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _foreign(scope: Scope, hosts: tuple[tuple[str, int | None], ...]) -> tuple[str, str] | None:
    """Why the request of ``scope`` is refused (an error code and message), or
    ``None`` if it is the server's own site's."""
    headers = Headers(scope=scope)
    secure = scope.get("scheme") == "https"
    server = scope.get("server")
    served = server[1] if server and isinstance(server[1], int) else None
    named = headers.getlist("host")
    host = _split_host(named[0], default=443 if secure else 80) if len(named) == 1 else None
    if host is None or not _listed(host, hosts, served):
        # A page of a domain resolved to 127.0.0.1 (DNS rebinding) reaches
        # this server with its own name here, and could read the answers.
        return (
            "unknown_host",
            "this server answers only at its own address (ttr serve --allow-host adds one)",
        )
    sites = headers.getlist("sec-fetch-site")
    origins = headers.getlist("origin")
    if (
        any(site not in _OWN_SITE for site in sites)
        or len(origins) > 1
        or (origins and _origin(origins[0], secure) != host)
    ):
        # A browser says where a request comes from; a page of another site
        # (same-site too: another port of localhost) may not use this one.
        return (
            "cross_site",
            "requests from other web sites are refused: open this server's address itself",
        )
    return None


def _listed(
    host: tuple[str, int], hosts: tuple[tuple[str, int | None], ...], served: int | None
) -> bool:
    """Whether ``host`` is on the allow-list: a name listed without a port at the
    port ``served`` (any, if the server does not say), or a listed ``name:port``."""
    for name, port in hosts:
        wanted = port if port is not None else served
        if host[0] == name and (wanted is None or host[1] == wanted):
            return True
    return False


def _origin(origin: str, secure: bool) -> tuple[str, int] | None:
    """The host and port of an ``Origin`` of this server's scheme, else ``None``
    (``null``: a sandboxed frame, a file)."""
    scheme = "https://" if secure else "http://"
    if not origin.startswith(scheme):
        return None
    return _split_host(origin[len(scheme) :], default=443 if secure else 80)


def _split_host(text: str, *, default: int) -> tuple[str, int] | None:
    """``name[:port]`` as ``(name, port)`` (lower case; ``default`` without a
    port), or ``None`` if malformed."""
    split = _host_and_port(text)
    if split is None:
        return None
    name, port = split
    return name, port if port is not None else default


def _host_and_port(text: str) -> tuple[str, int | None] | None:
    if not 0 < len(text) <= _MAX_HOST or not text.isascii():
        return None
    text = text.lower()
    if text.startswith("["):  # an IPv6 address
        name, bracket, rest = text.partition("]")
        name += bracket
        if not bracket or not _chars(name[1:-1], "0123456789abcdef:."):
            return None
    else:
        name = text.partition(":")[0]
        rest = text[len(name) :]
        if not _chars(name, "abcdefghijklmnopqrstuvwxyz0123456789.-_"):
            return None
    if not rest:
        return name, None
    port = rest[1:]
    if rest[0] != ":" or not port.isdigit() or len(port) > 5 or int(port) > 65535:
        return None
    return name, int(port)


def _chars(text: str, allowed: str) -> bool:
    return bool(text) and all(char in allowed for char in text)


def _allow_list(entries: Sequence[str]) -> tuple[tuple[str, int | None], ...]:
    if isinstance(entries, str) or not entries:
        raise ttr_core.ArgumentError(
            "allowed_hosts must be a non-empty list of host names, e.g. ['127.0.0.1']"
        )
    hosts = []
    for entry in entries:
        if not isinstance(entry, str):
            raise ttr_core.ArgumentError("allowed_hosts must hold strings")
        # A bare IPv6 address ("::1"), as --host takes it, is put in brackets.
        text = f"[{entry}]" if entry.count(":") > 1 and not entry.startswith("[") else entry
        split = _host_and_port(text)
        if split is None:
            raise ttr_core.ArgumentError(
                f"allowed_hosts: {entry[:80]!r} is not a host name or host:port"
            )
        if split not in hosts:
            hosts.append(split)
    return tuple(hosts)


def _check_type(request: Request, body_type: str) -> None:
    """Refuse a POST whose body is not said to be ``body_type``: a form or a
    "simple" fetch of another page can send only text/plain, form data or
    multipart without asking first (a defense besides the Origin check, for
    browsers that send no Origin)."""
    sent = request.headers.get("content-type", "")
    if sent.partition(";")[0].strip().lower() != body_type:
        raise ServeError(415, "unsupported_media_type", f"send the body as {body_type}")


def _seat_tokens(request: Request) -> list[str]:
    """The values of every seat cookie the request carries (a browser sends the
    one of the game's path; duplicates are all tried, a few at most)."""
    tokens = []
    for header in request.headers.getlist("cookie"):
        for part in header.split(";"):
            name, equals, value = part.strip().partition("=")
            if equals and name == SEAT_COOKIE and value:
                tokens.append(value)
    return tokens


def _board(request: Request) -> bool:
    # ?board=0: a client that draws the board itself needs no picture.
    return request.query_params.get("board") != "0"


def _error(status: int, code: str, message: str, **more: Any) -> JSONResponse:
    return JSONResponse({"error": code, "message": message, **more}, status_code=status)


async def _body(request: Request) -> bytes:
    """The request body, its size bounded while it is read."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise ServeError(413, "too_large", f"a request body is at most {MAX_BODY} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ServeError(413, "too_large", f"a request body is at most {MAX_BODY} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json(request: Request) -> Any:
    raw = await _body(request)
    if not raw:
        return None
    try:
        # The library's strict reader: no key twice, no NaN, bounded depth.
        return ttr_core.read_json(raw)
    except ttr_core.DataError as exc:
        raise ServeError(400, "bad_json", f"the body is not valid JSON: {exc}") from None


def _resource(name: str) -> bytes:
    return resources.files("ttr_core.serve").joinpath("static", name).read_bytes()


def _page() -> bytes:
    return _resource("page.html")

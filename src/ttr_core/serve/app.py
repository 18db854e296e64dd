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
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

import ttr_core
from ttr_core.agents import agent_names

from .games import GameStore, ServeError

__all__ = ["MAX_BODY", "create_app"]

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
}

Handler = Callable[[Request], Awaitable[Response]]


def create_app(store: GameStore | None = None, **defaults: Any) -> Starlette:
    """The app serving ``store`` (a new :class:`GameStore` made with
    ``defaults`` when none is given)."""
    games = store if store is not None else GameStore(**defaults)

    def guarded(call: Handler) -> Handler:
        async def answer(request: Request) -> Response:
            try:
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

    async def create(request: Request) -> Response:
        body = await _json(request)
        game = await run_in_threadpool(games.create, body)
        return JSONResponse({"game": game.id, "url": f"/game/{game.id}"}, status_code=201)

    async def status(request: Request) -> Response:
        answer = await run_in_threadpool(
            lambda: games.status(request.path_params["id"], board=_board(request))
        )
        return JSONResponse(answer)

    async def move(request: Request) -> Response:
        body = await _json(request)
        answer = await run_in_threadpool(
            lambda: games.move(request.path_params["id"], body, board=_board(request))
        )
        return JSONResponse(answer)

    async def record(request: Request) -> Response:
        text, name = await run_in_threadpool(games.record, request.path_params["id"])
        return PlainTextResponse(
            text,
            media_type="application/x-ndjson; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def replay_game(request: Request) -> Response:
        found = await run_in_threadpool(games.replay_of_game, request.path_params["id"])
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

    routes: Sequence[tuple[str, Handler, list[str]]] = [
        ("/", page, ["GET"]),
        ("/game/{id}", page, ["GET"]),
        ("/replay/{id}", page, ["GET"]),
        ("/static/{name}", static, ["GET"]),
        ("/api/options", options, ["GET"]),
        ("/api/games", create, ["POST"]),
        ("/api/games/{id}", status, ["GET"]),
        ("/api/games/{id}/moves", move, ["POST"]),
        ("/api/games/{id}/record", record, ["GET"]),
        ("/api/games/{id}/replay", replay_game, ["POST"]),
        ("/api/replays", replay_upload, ["POST"]),
        ("/api/replays/{id}", replay_step, ["GET"]),
    ]
    app = Starlette(
        routes=[Route(path, guarded(call), methods=methods) for path, call, methods in routes]
    )
    app.state.games = games
    return app


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
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # bad UTF-8 or JSON, too deep
        raise ServeError(400, "bad_json", "the body is not valid JSON") from exc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _resource(name: str) -> bytes:
    return resources.files("ttr_core.serve").joinpath("static", name).read_bytes()


def _page() -> bytes:
    return _resource("page.html")

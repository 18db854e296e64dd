"""A small multi-game HTTP JSON server on ttr-core's public API (docs/server.md).

Standard library only. Run it with ``python ttr_server.py --db games.sqlite``;
``tests/test_server_example.py`` plays whole games through it.

Every request and response body is JSON. A seat proves who it is with the
secret token issued when the game was created (``Authorization: Bearer
TOKEN``): the seat comes from the token, never from the request body.

=======  ==========================  =============================================
POST     /games                      ``{"map", "players"}`` → game id and tokens
GET      /games/{id}                 the seat's view, its legal moves, the ply
POST     /games/{id}/moves           ``{"ply", "action"}``: make a move
POST     /games/{id}/resign          resign: the game ends, this seat loses
GET      /games/{id}/events?since=N  the seat's event lines from the N-th on
GET      /games/{id}/board           the map, for drawing it (no token needed)
GET      /games/{id}/record          the game record, once the game is over
=======  ==========================  =============================================
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import ttr_core

#: Largest request body read (bytes): a move is about 100.
MAX_BODY = 64 * 1024

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    tokens TEXT NOT NULL,   -- JSON list: the SHA-256 of each seat's token
    trailer TEXT NOT NULL   -- the record's integrity line, replaced each move
);
CREATE TABLE IF NOT EXISTS record_lines (
    game TEXT NOT NULL, n INTEGER NOT NULL, line TEXT NOT NULL,
    PRIMARY KEY (game, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
    game TEXT NOT NULL, seat INTEGER NOT NULL, n INTEGER NOT NULL, line TEXT NOT NULL,
    PRIMARY KEY (game, seat, n)
) WITHOUT ROWID;
"""


class HttpError(Exception):
    """A request refused: the status and the JSON body to send."""

    def __init__(self, status: HTTPStatus, error: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"error": error, "message": message, **extra}


def _refusal(exc: ttr_core.TtrError) -> HttpError:
    """The HTTP answer to an error of the library: its own message, never a traceback."""
    if isinstance(exc, ttr_core.IllegalAction):
        # A stale (repeated) move, a move in another seat's name, a move the
        # rules refuse: all conflict with the game as it stands.
        return HttpError(HTTPStatus.CONFLICT, "illegal_action", exc.message, reason=exc.reason)
    if isinstance(exc, ttr_core.DataError):
        return HttpError(HTTPStatus.BAD_REQUEST, "bad_data", str(exc), path=exc.path)
    return HttpError(HTTPStatus.BAD_REQUEST, "bad_request", str(exc))


def _digest(token: str) -> str:
    # Only digests are stored: a copy of the database does not let anyone play.
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class Game:
    """One game in memory: its state, its record and each seat's event lines.

    ``lock`` serializes the game's moves.
    """

    id: str
    state: ttr_core.GameState
    record: ttr_core.RecordLines
    tokens: tuple[str, ...]
    events: list[list[str]]
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: Set when a write failed: the game is reloaded from the database.
    stale: bool = False


class GameServer:
    """The games and their storage, without HTTP: one SQLite file holds them all.

    Games are loaded on first use, so a new ``GameServer`` on the same file
    (a restart) goes on with every game where it was left. ``key`` (bytes
    kept apart from the database) makes each record's integrity line an
    HMAC: a record changed in the database is refused, not played.
    """

    def __init__(self, path: str, key: bytes | None = None) -> None:
        self._key = key
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        # Lock order: a game's lock, then _games_lock, then _db_lock.
        self._db_lock = threading.Lock()
        self._games: dict[str, Game] = {}
        self._games_lock = threading.Lock()

    def close(self) -> None:
        """Close the database (every move is stored already)."""
        with self._db_lock:
            self._db.close()

    # -- storage --------------------------------------------------------------

    def _write(self, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> None:
        """Run ``statements`` in one transaction: all are stored or none."""
        with self._db_lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self._db.execute(sql, args)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _store(self, game: Game, line: str, events: Sequence[str]) -> None:
        """Store one record line (an action or the ending) and its event lines:
        a few rows whatever the game's length, and the trailer row replaced."""
        count = len(game.events[0])
        statements = [
            # record.index: the row key of the line append() or end() just returned.
            ("INSERT INTO record_lines VALUES (?, ?, ?)", (game.id, game.record.index, line)),
            ("UPDATE games SET trailer = ? WHERE id = ?", (game.record.trailer, game.id)),
        ]
        statements += [
            ("INSERT INTO events VALUES (?, ?, ?, ?)", (game.id, seat, count, text))
            for seat, text in enumerate(events)
        ]
        self._write(statements)

    def _load(self, game_id: str) -> Game | None:
        """The game as stored: its record read back and every action replayed."""
        with self._db_lock:
            row = self._db.execute(
                "SELECT tokens, trailer FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                return None
            lines = [
                line
                for (line,) in self._db.execute(
                    "SELECT line FROM record_lines WHERE game = ? ORDER BY n", (game_id,)
                )
            ]
            stored = self._db.execute(
                "SELECT seat, line FROM events WHERE game = ? ORDER BY seat, n", (game_id,)
            ).fetchall()
        tokens, trailer = json.loads(row[0]), row[1]
        text = "".join(line + "\n" for line in [*lines, trailer])
        # resume checks the integrity line; restore checks every action.
        record = ttr_core.RecordLines.resume(text, key=self._key)
        state = ttr_core.restore(ttr_core.from_jsonl(text, key=self._key))
        events: list[list[str]] = [[] for _ in range(state.num_players)]
        for seat, line in stored:
            events[seat].append(line)
        return Game(game_id, state, record, tuple(tokens), events)

    def _game(self, game_id: str) -> Game:
        with self._games_lock:
            game = self._games.get(game_id)
            if game is None:
                try:
                    game = self._load(game_id)
                except ttr_core.TtrError as exc:  # changed behind the server's back
                    raise HttpError(
                        HTTPStatus.INTERNAL_SERVER_ERROR,
                        "damaged_game",
                        "the stored game cannot be read",
                    ) from exc
                if game is None:
                    raise HttpError(HTTPStatus.NOT_FOUND, "unknown_game", "no such game")
                self._games[game_id] = game
            return game

    # -- the API --------------------------------------------------------------

    def create(self, body: Any) -> dict[str, Any]:
        """A new game: ``{"map": name, "players": n}``. Answers the game id and
        one secret token per seat, to hand to each player."""
        if not isinstance(body, dict) or set(body) != {"map", "players"}:
            raise HttpError(
                HTTPStatus.BAD_REQUEST, "bad_request", 'expected {"map": ..., "players": ...}'
            )
        # files=False: a client's map name is never a file (UnknownMapError);
        # no seed: a fresh secret one.
        state = ttr_core.new_game(body["map"], body["players"], files=False)
        game_id = secrets.token_urlsafe(12)
        tokens = [secrets.token_urlsafe(32) for _ in range(state.num_players)]
        record = ttr_core.RecordLines(state, key=self._key)
        digests = [_digest(token) for token in tokens]
        self._write(
            [
                (
                    "INSERT INTO games VALUES (?, ?, ?)",
                    (game_id, json.dumps(digests), record.trailer),
                ),
                ("INSERT INTO record_lines VALUES (?, 0, ?)", (game_id, record.header)),
            ]
        )
        return {"game": game_id, "tokens": tokens}

    def authorize(self, game_id: str, token: str | None) -> tuple[Game, int]:
        """The game and the seat whose token ``token`` is."""
        game = self._game(game_id)
        if token is not None:
            digest = _digest(token)
            for seat, known in enumerate(game.tokens):
                if hmac.compare_digest(digest, known):
                    return game, seat
        raise HttpError(
            HTTPStatus.UNAUTHORIZED, "bad_token", "a seat's token is needed: Authorization: Bearer"
        )

    def status(self, game: Game, seat: int) -> dict[str, Any]:
        """What ``seat`` may know now (``seat_status``: its view, its own legal
        moves and their ids, the score sheets it may see, the final scores at
        the end) and how many event lines it has."""
        status = ttr_core.seat_status(game.state, seat)
        extra = {"game": game.id, "over": status.is_over, "events": len(game.events[seat])}
        return {**ttr_core.to_data(status), **extra}

    def move(self, game: Game, seat: int, body: Any) -> dict[str, Any]:
        """Apply ``{"ply": n, "action": {...}}`` for ``seat``; answer its status."""
        if not isinstance(body, dict) or set(body) != {"ply", "action"}:
            raise HttpError(
                HTTPStatus.BAD_REQUEST, "bad_request", 'expected {"ply": ..., "action": ...}'
            )
        ply = body["ply"]
        if type(ply) is not int:
            raise HttpError(HTTPStatus.BAD_REQUEST, "bad_request", "ply must be an integer")
        action: ttr_core.Action = ttr_core.from_data(body["action"], ttr_core.Action)
        before = game.state
        # seat: an action in another seat's name is refused (wrong_seat);
        # expect_ply: a retried or outdated move is refused (stale_move).
        after = ttr_core.apply(before, action, seat=seat, expect_ply=ply)
        events = [
            ttr_core.describe(before, action, seat=viewer) for viewer in range(before.num_players)
        ]
        self._commit(game, after, game.record.append(action), events)
        return self.status(game, seat)

    def resign(self, game: Game, seat: int) -> dict[str, Any]:
        """End the game: ``seat`` resigns and loses. Answers its status."""
        ended = ttr_core.end_game(game.state, "resignation", seat)
        line = game.record.end(ended)
        events = [ttr_core.describe_ending(ended)] * ended.num_players
        self._commit(game, ended, line, events)
        return self.status(game, seat)

    def _commit(
        self, game: Game, state: ttr_core.GameState, line: str, events: Sequence[str]
    ) -> None:
        """Store the record line, then make ``state`` the game's. If storing
        fails, the game in memory (its record already extended) is dropped:
        the next request reloads it as stored."""
        try:
            self._store(game, line, events)
        except BaseException:
            game.stale = True
            with self._games_lock:
                self._games.pop(game.id, None)
            raise
        game.state = state
        for seat, text in enumerate(events):
            game.events[seat].append(text)

    def events(self, game: Game, seat: int, since: int) -> dict[str, Any]:
        """``seat``'s event lines from the ``since``-th on (each told as it may know it)."""
        lines = game.events[seat]
        return {"events": lines[since:], "next": len(lines)}

    def record(self, game: Game) -> dict[str, Any]:
        """The game record, as JSON Lines: only once the game is over, since it
        holds the seed and so every card."""
        if not game.state.is_over:
            raise HttpError(
                HTTPStatus.CONFLICT, "game_not_over", "the record is shown once the game is over"
            )
        return {"jsonl": game.record.text()}

    def locked(self, game: Game, call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """``call()`` with ``game`` locked: one request changes or reads it at a time."""
        with game.lock:
            if game.stale:
                raise HttpError(
                    HTTPStatus.SERVICE_UNAVAILABLE, "retry", "the game was reloaded: try again"
                )
            return call()


class Handler(BaseHTTPRequestHandler):
    """Routes requests to the :class:`GameServer` of ``self.server.games``."""

    server: GameHTTPServer
    #: Seconds a client may take to send its request (a slow client cannot hold a thread).
    timeout = 10

    def do_GET(self) -> None:
        self._answer("GET")

    def do_POST(self) -> None:
        self._answer("POST")

    def do_PUT(self) -> None:
        self._answer("PUT")

    def do_DELETE(self) -> None:
        self._answer("DELETE")

    def _answer(self, method: str) -> None:
        try:
            status, body = HTTPStatus.OK, self._route(method)
        except HttpError as exc:
            status, body = exc.status, exc.body
            if status >= 500:
                self.log_error("%s on %s %s: %r", body["error"], method, self.path, exc.__cause__)
        except ttr_core.TtrError as exc:
            refusal = _refusal(exc)
            status, body = refusal.status, refusal.body
        except Exception:  # a bug: logged here, never shown to the client
            self.log_error("internal error on %s %s", method, self.path)
            if not self.server.quiet:
                sys.excepthook(*sys.exc_info())
            status = HTTPStatus.INTERNAL_SERVER_ERROR
            body = {"error": "internal", "message": "internal error"}
        self._send(status, body)

    def _route(self, method: str) -> dict[str, Any]:
        games = self.server.games
        url = urlsplit(self.path)
        parts = url.path.strip("/").split("/")
        if parts == ["games"] and method == "POST":
            return games.create(self._body())
        if len(parts) < 2 or parts[0] != "games" or len(parts) > 3:
            raise HttpError(HTTPStatus.NOT_FOUND, "not_found", "no such resource")
        where = (method, parts[2] if len(parts) == 3 else "")
        if where not in _ROUTES:
            if any(where[1] == sub for _, sub in _ROUTES):
                raise HttpError(HTTPStatus.METHOD_NOT_ALLOWED, "bad_method", f"not {method}")
            raise HttpError(HTTPStatus.NOT_FOUND, "not_found", "no such resource")
        # A body is read (bounded) before anything is refused, so that no
        # unread body is left in the connection.
        body = self._body() if method == "POST" else None
        if where == ("GET", "board"):  # public map data: no token
            return ttr_core.board_data(games._game(parts[1]).state.board)
        game, seat = games.authorize(parts[1], self._token())
        if where == ("GET", ""):
            return games.locked(game, lambda: games.status(game, seat))
        if where == ("GET", "events"):
            since = _since(parse_qs(url.query).get("since", ["0"]))
            return games.locked(game, lambda: games.events(game, seat, since))
        if where == ("GET", "record"):
            return games.locked(game, lambda: games.record(game))
        if where == ("POST", "resign"):
            return games.locked(game, lambda: games.resign(game, seat))
        return games.locked(game, lambda: games.move(game, seat, body))

    def _token(self) -> str | None:
        scheme, _, token = self.headers.get("Authorization", "").partition(" ")
        return token.strip() if scheme.lower() == "bearer" and token.strip() else None

    def _body(self) -> Any:
        """The request's JSON body, its size bounded before it is read."""
        length = self.headers.get("Content-Length")
        if length is None:
            raise HttpError(HTTPStatus.LENGTH_REQUIRED, "length_required", "Content-Length needed")
        if not length.isdigit():
            raise HttpError(HTTPStatus.BAD_REQUEST, "bad_request", "bad Content-Length")
        if int(length) > MAX_BODY:
            self.close_connection = True  # the unread body must not be taken for a request
            raise HttpError(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                "too_large",
                f"a request body is at most {MAX_BODY} bytes",
            )
        raw = self.rfile.read(int(length))
        # The library's strict reader: no repeated key, NaN or deep nesting (DataError).
        return ttr_core.read_json(raw) if raw else None  # none: a resignation

    def _send(self, status: HTTPStatus, body: dict[str, Any]) -> None:
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        if status == HTTPStatus.UNAUTHORIZED:
            self.send_header("WWW-Authenticate", "Bearer")
        self.end_headers()
        self.wfile.write(data)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The errors ``http.server`` finds itself (a malformed request line, an
        unknown method) in JSON too."""
        self.close_connection = True
        # A method http.server does not know (501): not one a client may use here.
        status = HTTPStatus.METHOD_NOT_ALLOWED if code == 501 else HTTPStatus(code)
        self._send(status, {"error": "http", "message": message or status.phrase})

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            super().log_message(format, *args)


_ROUTES = {
    ("GET", ""),
    ("GET", "board"),
    ("GET", "events"),
    ("GET", "record"),
    ("POST", "moves"),
    ("POST", "resign"),
}


def _since(values: list[str]) -> int:
    if len(values) != 1 or not values[0].isdigit() or len(values[0]) > 9:
        raise HttpError(HTTPStatus.BAD_REQUEST, "bad_request", "since must be a small integer")
    return int(values[0])


class GameHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server whose handlers share one :class:`GameServer`."""

    def __init__(self, address: tuple[str, int], games: GameServer, *, quiet: bool = False):
        self.games = games
        self.quiet = quiet
        super().__init__(address, Handler)


def make_server(
    db: str,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    key: bytes | None = None,
    quiet: bool = False,
) -> GameHTTPServer:
    """A server on ``host:port`` (port 0: any free one, see ``server_address``)
    keeping its games in the SQLite file ``db`` (records signed with ``key``).
    Call ``serve_forever()``."""
    return GameHTTPServer((host, port), GameServer(db, key), quiet=quiet)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the server until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--db", default="ttr_games.sqlite", help="the SQLite file of the games")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    key = os.environ.get("TTR_RECORD_KEY")  # kept out of the database and the command line
    server = make_server(args.db, args.host, args.port, key=key.encode() if key else None)
    print(f"serving on http://{args.host}:{server.server_address[1]}/", file=sys.stderr)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        server.games.close()


if __name__ == "__main__":
    main()

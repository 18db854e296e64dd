"""The games of ``ttr serve`` kept across restarts: one SQLite file (docs/serve.md,
"Games kept across restarts"). Standard library only.

A game is stored as the library's own record, line by line as
:class:`ttr_core.RecordLines` writes it: the header when the game is made,
then a row per action (its ``RecordLines.index`` the row key), and the
integrity line (``trailer``) replaced at each move; so a stored game is read
back with ``RecordLines.resume`` and ``restore``, which check it whole.
Besides the record, a game's row holds the SHA-256 of its seat token (a copy
of the file does not hold the seat), the person's seat, the bots' names, and
the event lines the person was told (one row each).

Every write is a transaction committed at once, in WAL mode: a process killed
loses at most the move being written. The file is held by one ``ttr serve``
at a time (an exclusive lock, kept until :meth:`SavedGames.close`): two
servers on one file would both go on with the same games. It stays bounded:
at most ``keep`` finished and ``keep`` unfinished games, the games moved
longest ago deleted first, and no game older than a seat cookie lives.

What a file holds is data from outside: :meth:`SavedGames.read` checks a
stored game whole before :class:`ttr_core.serve.games.GameStore` makes a game
of it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ttr_core
from ttr_core.agents import agent_names

__all__ = [
    "FILE_NAME",
    "MAX_AGE",
    "SCHEMA_VERSION",
    "SavedGames",
    "Stored",
    "data_directory",
    "default_path",
    "token_digest",
]

#: The file ``ttr serve`` keeps its games in, in :func:`data_directory`.
FILE_NAME = "games.sqlite3"
#: The schema's version (``PRAGMA user_version``): a file of a newer one is refused.
SCHEMA_VERSION = 1
#: Marks a SQLite file as this module's (``PRAGMA application_id``, "TTRS"):
#: another program's database is never written to.
_APPLICATION_ID = 0x54545253
#: A game made longer ago than this (seconds) is deleted: it is the seat
#: cookie's age (``ttr_core.serve.app.SEAT_COOKIE_AGE``), after which no
#: browser holds the game any more.
MAX_AGE = 30 * 24 * 3600
#: How long opening waits for another program holding the file (seconds).
_OPEN_WAIT = 1.0
#: A game id as :meth:`ttr_core.serve.games.GameStore.create` makes them, and
#: a SHA-256 in hex: what a stored game's must look like.
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_DIGEST = re.compile(r"[0-9a-f]{64}")

_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    token TEXT NOT NULL,        -- the SHA-256 of the seat token, hex
    seat INTEGER NOT NULL,      -- the person's seat
    bots TEXT NOT NULL,         -- JSON: {"seat": "bot name"} for every other seat
    created REAL NOT NULL,      -- time.time() when the game was made
    moved REAL NOT NULL,        -- time.time() of the last move written
    over INTEGER NOT NULL,      -- 1 once the game is over
    trailer TEXT NOT NULL       -- the record's integrity line, replaced at each move
);
CREATE INDEX games_by_age ON games (over, moved);
CREATE TABLE lines (            -- the record: the header (n = 0), then one row per action
    game TEXT NOT NULL, n INTEGER NOT NULL, line TEXT NOT NULL,
    PRIMARY KEY (game, n)
) WITHOUT ROWID;
CREATE TABLE events (           -- what the person was told, in order
    game TEXT NOT NULL, n INTEGER NOT NULL, line TEXT NOT NULL,
    PRIMARY KEY (game, n)
) WITHOUT ROWID;
"""


def data_directory(platform: str = sys.platform, environ: Mapping[str, str] = os.environ) -> Path:
    """The user's data directory for ttr-core: ``$XDG_DATA_HOME/ttr-core`` (or
    ``~/.local/share/ttr-core``) on Linux and other Unix systems,
    ``~/Library/Application Support/ttr-core`` on macOS,
    ``%LOCALAPPDATA%\\ttr-core`` on Windows. ``platform`` and ``environ`` are
    ``sys.platform`` and ``os.environ`` unless given (for tests)."""
    home = Path(environ.get("HOME") or Path.home())
    if platform == "win32":
        local = environ.get("LOCALAPPDATA")
        return (Path(local) if local else home / "AppData" / "Local") / "ttr-core"
    if platform == "darwin":
        return home / "Library" / "Application Support" / "ttr-core"
    xdg = environ.get("XDG_DATA_HOME", "")
    # The XDG specification: a relative path is to be ignored.
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".local" / "share"
    return base / "ttr-core"


def default_path() -> Path:
    """Where ``ttr serve`` keeps its games unless told (``--db``):
    :data:`FILE_NAME` in :func:`data_directory`."""
    return data_directory() / FILE_NAME


def token_digest(token: str) -> str:
    """The SHA-256 of a seat token, as stored and compared (hex)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class Stored:
    """One stored game as :meth:`SavedGames.read` gives it, checked whole."""

    id: str
    #: :func:`token_digest` of the seat token.
    token: str
    seat: int
    #: The bot of each seat but the person's.
    bots: dict[int, str]
    #: ``time.time()`` of the last move written.
    moved: float
    #: The state after the record's last action (``restore``).
    state: ttr_core.GameState
    #: The record, to go on appending to (``RecordLines.resume``).
    record: ttr_core.RecordLines
    events: tuple[str, ...]


class SavedGames:
    """The games in the SQLite file at ``path``, safe to call from many threads.

    Opening creates the file (mode 0600) if there is none, takes the file for
    this process alone, and deletes what is beyond the bounds (``keep``
    finished games, ``keep`` unfinished ones, nothing older than
    :data:`MAX_AGE`). Raises :class:`ttr_core.DataError` for a file that is
    not SQLite, another program's database, one of a newer schema, or one in
    use by another ``ttr serve``. ``clock`` is ``time.time`` (for tests).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        keep: int = 100,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path)
        self.keep = keep
        self._clock = clock
        self._lock = threading.Lock()  # one connection, one caller at a time
        self._db = _open(self.path)
        self._write(self._pruning())

    def close(self) -> None:
        """Close the file (every move is written already) and let it go."""
        with self._lock:
            self._db.close()

    # -- writing --------------------------------------------------------------

    def add(
        self,
        game_id: str,
        *,
        token: str,
        seat: int,
        bots: Mapping[int, str],
        header: str,
        trailer: str,
        events: Sequence[str],
    ) -> None:
        """Store a new game: its record's header and trailer, and its first events."""
        now = self._clock()
        names = json.dumps({str(other): name for other, name in bots.items()})
        self._write(
            [
                (
                    "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                    (game_id, token_digest(token), seat, names, now, now, trailer),
                ),
                ("INSERT INTO lines VALUES (?, 0, ?)", (game_id, header)),
                *_events(game_id, 0, events),
            ]
        )

    def append(
        self,
        game_id: str,
        *,
        index: int,
        line: str,
        trailer: str,
        first_event: int,
        events: Sequence[str],
        over: bool,
    ) -> None:
        """Store one record line (row ``index``) and the new trailer, and the
        event lines numbered from ``first_event``; ``over``: the game ended."""
        statements = [
            # First, and it must find the game: a game deleted meanwhile (pruned
            # by age) gets no orphan rows; the write fails and rolls back.
            (
                "UPDATE games SET trailer = ?, moved = ?, over = ? WHERE id = ?",
                (trailer, self._clock(), int(over), game_id),
            ),
            ("INSERT INTO lines VALUES (?, ?, ?)", (game_id, index, line)),
            *_events(game_id, first_event, events),
        ]
        # A game ending is when the finished games may exceed the bound.
        self._write([*statements, *(self._pruning() if over else [])])

    def drop(self, game_id: str) -> None:
        """Delete the game ``game_id`` (nothing if there is none)."""
        self._write(_deleting("id = ?", (game_id,)))

    def _pruning(self) -> list[tuple[str, tuple[Any, ...]]]:
        """Deleting what is beyond the bounds: the unreachable, then the games
        beyond the ``keep`` newest finished and the ``keep`` newest unfinished."""
        oldest = self._clock() - MAX_AGE
        statements = _deleting("created < ?", (oldest,))
        for over in (0, 1):
            statements += _deleting(
                "over = ? AND id NOT IN "
                "(SELECT id FROM games WHERE over = ? ORDER BY moved DESC LIMIT ?)",
                (over, over, self.keep),
            )
        return statements

    def _write(self, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> None:
        """Run ``statements`` as one transaction, committed at once: all or none."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    done = self._db.execute(sql, args)
                    if sql.startswith("UPDATE games") and done.rowcount != 1:
                        raise sqlite3.IntegrityError("no such game stored")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # -- reading --------------------------------------------------------------

    def ids(self) -> list[str]:
        """The stored games to resume, in order: the unfinished, then the
        finished, each the game moved last first."""
        with self._lock:
            rows = self._db.execute("SELECT id FROM games ORDER BY over, moved DESC").fetchall()
        return [str(game_id) for (game_id,) in rows]

    def read(self, game_id: str) -> Stored:
        """The game ``game_id`` as stored, checked whole as data from outside:
        a game id as games are made with and a SHA-256; the record read with
        ``from_jsonl`` (its integrity line checked), of a built-in map only
        (the name in a file never opens a file), every action played again
        with ``restore``; a seat of the game and a built-in bot for each other
        seat. :class:`ttr_core.DataError` says what is wrong."""
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT token, seat, bots, moved, trailer FROM games WHERE id = ?",
                    (game_id,),
                ).fetchone()
                lines = self._column("SELECT line FROM lines WHERE game = ? ORDER BY n", game_id)
                events = self._column("SELECT line FROM events WHERE game = ? ORDER BY n", game_id)
        except sqlite3.Error as exc:  # a damaged page: this game only
            raise ttr_core.DataError("", f"the stored game cannot be read: {exc}") from None
        if row is None:
            raise ttr_core.DataError("", "no such game stored")
        token, seat, bots, moved, trailer = row
        texts = [*lines, trailer]
        if not all(isinstance(text, str) for text in (token, bots, *texts, *events)):
            raise ttr_core.DataError("", "a stored game holds text where text is expected")
        if not _GAME_ID.fullmatch(game_id) or not _DIGEST.fullmatch(token):
            # Its id goes into addresses and a file name.
            raise ttr_core.DataError("", "not a game id and a seat token's SHA-256")
        if type(moved) not in (float, int):
            raise ttr_core.DataError("moved", "a stored game's time is a number")
        text = "".join(line + "\n" for line in texts)
        record = ttr_core.from_jsonl(text)
        if record.map not in ttr_core.available_maps():
            raise ttr_core.DataError("map", "a stored game is of a built-in map only")
        state = ttr_core.restore(record)
        if type(seat) is not int or not 0 <= seat < state.num_players:
            raise ttr_core.DataError("seat", "the person's seat is none of the game's")
        return Stored(
            id=game_id,
            token=token,
            seat=seat,
            bots=_bot_names(bots, seat, state.num_players),
            moved=float(moved),
            state=state,
            record=ttr_core.RecordLines.resume(text),
            events=tuple(events),
        )

    def _column(self, sql: str, game_id: str) -> list[Any]:
        return [value for (value,) in self._db.execute(sql, (game_id,))]


def _bot_names(text: str, seat: int, players: int) -> dict[int, str]:
    """The stored bots (JSON ``{"seat": "name"}``): a built-in bot for every
    seat but the person's."""
    names = ttr_core.read_json(text)
    others = {str(other) for other in range(players) if other != seat}
    if (
        not isinstance(names, dict)
        or set(names) != others
        or not all(isinstance(name, str) and name in agent_names() for name in names.values())
    ):
        raise ttr_core.DataError("bots", "a built-in bot for each seat but the person's")
    return {int(other): names[other] for other in sorted(others, key=int)}


def _events(
    game_id: str, first: int, events: Sequence[str]
) -> Iterator[tuple[str, tuple[Any, ...]]]:
    for n, line in enumerate(events, start=first):
        yield "INSERT INTO events VALUES (?, ?, ?)", (game_id, n, line)


def _deleting(where: str, args: tuple[Any, ...]) -> list[tuple[str, tuple[Any, ...]]]:
    """Deleting the games ``where`` says, their lines and events first."""
    chosen = f"SELECT id FROM games WHERE {where}"
    return [
        (f"DELETE FROM lines WHERE game IN ({chosen})", args),
        (f"DELETE FROM events WHERE game IN ({chosen})", args),
        (f"DELETE FROM games WHERE {where}", args),
    ]


def _open(path: Path) -> sqlite3.Connection:
    """The connection to the games file at ``path``, created if missing, checked
    to be this module's, held for this process alone, in WAL mode."""
    shown = str(path)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            # Created here so that its mode is 0600: the records hold the
            # seeds, and so every card. SQLite gives its -wal file the same mode.
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as exc:
        raise ttr_core.DataError("", f"{shown}: cannot create the games file: {exc}") from None
    try:
        db = sqlite3.connect(
            path, timeout=_OPEN_WAIT, isolation_level=None, check_same_thread=False
        )
    except sqlite3.Error as exc:
        raise ttr_core.DataError("", f"{shown}: cannot open the games file: {exc}") from None
    try:
        # Exclusive: the file's lock is kept until close, so that a second
        # ttr serve on the same file stops at start instead of writing the
        # same games. NORMAL: in WAL mode a commit survives the process being
        # killed (a power cut may lose the last moves).
        db.execute("PRAGMA locking_mode = EXCLUSIVE")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("BEGIN EXCLUSIVE")
        try:
            _check_or_create(db, shown)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode = WAL")
    except sqlite3.OperationalError as exc:
        db.close()
        if "locked" in str(exc):
            raise ttr_core.DataError(
                "", f"{shown} is in use by another program (another ttr serve?)"
            ) from None
        raise ttr_core.DataError("", f"{shown}: cannot use the games file: {exc}") from None
    except sqlite3.Error as exc:  # "file is not a database" and the like
        db.close()
        raise ttr_core.DataError("", f"{shown} is not a SQLite file of games: {exc}") from None
    except BaseException:
        db.close()
        raise
    return db


def _check_or_create(db: sqlite3.Connection, shown: str) -> None:
    """Check that the open file is a games file of this schema; make an empty
    file one. Inside the opening transaction."""
    application = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if application == 0 and version == 0 and tables == 0:  # empty: a new file
        db.execute(f"PRAGMA application_id = {_APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        for statement in _SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        return
    if application != _APPLICATION_ID:
        raise ttr_core.DataError(
            "", f"{shown} is another program's database, not a file of ttr serve's games"
        )
    if version != SCHEMA_VERSION:
        raise ttr_core.DataError(
            "",
            f"{shown} holds games in the form {version} where this ttr-core reads "
            f"form {SCHEMA_VERSION} (a newer ttr-core wrote it?)",
        )

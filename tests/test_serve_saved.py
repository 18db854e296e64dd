"""Games of ttr serve kept across restarts in SQLite (docs/serve.md, "Games kept
across restarts"): a new store on the file goes on with every game as it was,
the file is checked, bounded and stays the person's own, a stored game that no
longer plays is skipped, and a real ``ttr serve`` killed mid-game (``kill -9``)
plays on after a restart on the same file."""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core.serve import saved as serve_saved
from ttr_core.serve.games import GameStore, ServeError

#: A quick game: two seats on New York, the same cards each time.
SEED = 7
#: ttr serve, as a person starts it.
COMMAND = [sys.executable, "-m", "ttr_core", "serve"]


def store_on(path: Path, **options: Any) -> GameStore:
    return GameStore(db=path, seed=SEED, **options)


def person_moves(store: GameStore, game_id: str, count: int) -> dict[str, Any]:
    """``count`` moves of the person (the first listed each time, as a client
    posts them back); the status after them."""
    status = store.status(game_id, board=False)
    for _ in range(count):
        if status["over"]:
            break
        move = {"ply": status["ply"], "action": status["moves"][0]["action"]}
        status = store.move(game_id, move, board=False)
    return status


def play_to_end(store: GameStore, game_id: str) -> dict[str, Any]:
    status = person_moves(store, game_id, 400)
    assert status["over"]
    return status


def rows(path: Path, sql: str) -> list[Any]:
    """What the file holds (read with the store closed: it holds the file alone)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(sql).fetchall()


def change(path: Path, sql: str, *args: Any) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute(sql, args)


# ---------------------------------------------------------------------------
# Going on with the games


def test_a_game_goes_on_in_a_new_store(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = store_on(path)
    game = store.create({})
    before = person_moves(store, game.id, 4)
    with_board = store.status(game.id)
    token = game.token
    store.close()

    again = store_on(path)
    assert again.resumed == (1, 0)
    # The browser's cookie still holds the seat; another token does not.
    resumed = again.seated(game.id, [token])
    with pytest.raises(ServeError):
        again.seated(game.id, ["A" * 43])
    # What the person sees is the same, events and picture included.
    assert again.status(game.id, board=False) == before
    assert again.status(game.id) == with_board
    assert resumed.events == game.events and resumed.state == game.state
    # And the game plays on, to its end.
    end = play_to_end(again, game.id)
    text, _ = again.record(game.id)
    again.close()

    # A finished game is taken up too: a reload shows the end, the record is given.
    last = store_on(path)
    assert last.resumed == (0, 1)
    assert last.status(game.id, board=False) == end
    assert last.record(game.id)[0] == text
    assert ttr_core.restore(ttr_core.from_jsonl(text)) == last.get(game.id).state
    last.close()


def test_a_game_killed_at_the_bots_turn_goes_on_with_their_moves(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = store_on(path)
    game = store.create({})
    status = store.status(game.id, board=False)
    # The process dies after the person's move is written, before the bots'.
    store._play_bots = lambda game: None  # type: ignore[method-assign]
    move = {"ply": status["ply"], "action": status["moves"][0]["action"]}
    stopped = store.move(game.id, move, board=False)
    assert not stopped["turn"]
    store.close()

    again = store_on(path)
    resumed = again.status(game.id, board=False)
    assert resumed["turn"] and resumed["moves"] and resumed["ply"] > stopped["ply"]
    assert resumed["events"][: len(stopped["events"])] == stopped["events"]
    again.close()
    # The bots' moves made at the restart were written too.
    assert store_on(path).status(game.id, board=False) == resumed


def test_games_from_many_stores_and_their_order(tmp_path: Path) -> None:
    """Games made before several restarts all go on; the new ones as well."""
    path = tmp_path / "games.sqlite3"
    made: list[tuple[str, str]] = []
    for _ in range(3):
        store = store_on(path)
        game = store.create({})
        person_moves(store, game.id, 2)
        made.append((game.id, game.token))
        store.close()
    store = store_on(path)
    assert store.resumed == (3, 0)
    for game_id, token in made:
        assert store.seated(game_id, [token]).id == game_id
    store.close()


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX's")
def test_the_file_is_the_persons_own(tmp_path: Path) -> None:
    path = tmp_path / "new" / "folder" / "games.sqlite3"
    store = store_on(path)
    store.create({})
    assert path.stat().st_mode & 0o777 == 0o600  # the records hold the seeds
    for wal in path.parent.glob("*-wal"):
        assert wal.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    store.close()
    # The seat token itself is not in the file: its SHA-256 only.
    (token,) = rows(path, "SELECT token FROM games")
    assert len(token[0]) == 64


def test_without_a_file_the_games_live_in_memory() -> None:
    store = GameStore(seed=SEED)
    game = store.create({})
    assert store.db is None and store.resumed == (0, 0) and not game.kept
    store.close()  # nothing to let go


# ---------------------------------------------------------------------------
# The file checked


def test_a_file_that_is_not_one_of_games_is_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all " * 100, encoding="utf-8")
    with pytest.raises(ttr_core.DataError, match="not a SQLite file"):
        store_on(text)
    assert text.read_text(encoding="utf-8").startswith("not a database")  # untouched

    other = tmp_path / "other.sqlite3"
    change(other, "CREATE TABLE mine (x)")
    with pytest.raises(ttr_core.DataError, match="another program's database"):
        store_on(other)
    assert rows(other, "SELECT name FROM sqlite_master") == [("mine",)]

    newer = tmp_path / "newer.sqlite3"
    store_on(newer).close()
    change(newer, f"PRAGMA user_version = {serve_saved.SCHEMA_VERSION + 1}")
    with pytest.raises(ttr_core.DataError, match="newer ttr-core"):
        store_on(newer)

    with pytest.raises(ttr_core.DataError, match="cannot"):
        store_on(tmp_path)  # a folder


def test_a_file_in_use_by_another_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    first = store_on(path)
    with pytest.raises(ttr_core.DataError, match="in use"):
        store_on(path)
    first.close()
    store_on(path).close()  # let go: usable again


def rewrite_record(path: Path, game_id: str, how: Callable[[Any], Any]) -> None:
    """Store ``how(record)`` as the game's record, its integrity line made anew
    (a record that is whole, but no longer plays as stored)."""
    lines = [line for (line,) in rows(path, f"SELECT line FROM lines WHERE game = '{game_id}'")]
    (trailer,) = rows(path, f"SELECT trailer FROM games WHERE id = '{game_id}'")[0]
    record = ttr_core.from_jsonl("".join(line + "\n" for line in [*lines, trailer]))
    text = ttr_core.to_jsonl(how(record))
    *body, new_trailer = text.splitlines()
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("DELETE FROM lines WHERE game = ?", (game_id,))
        db.executemany(
            "INSERT INTO lines VALUES (?, ?, ?)",
            [(game_id, n, line) for n, line in enumerate(body)],
        )
        db.execute("UPDATE games SET trailer = ? WHERE id = ?", (new_trailer, game_id))


SPOILED: dict[str, Callable[[Path, str], None]] = {
    # The map changed since: its fingerprint is not the record's.
    "map changed": lambda path, game: rewrite_record(
        path, game, lambda r: attrs.evolve(r, map_fingerprint="0" * 64)
    ),
    # A map that is not built in: never read as a file, even one that would play.
    "not a built-in map": lambda path, game: rewrite_record(
        path, game, lambda r: attrs.evolve(r, map=str(newyork_copy(path.parent)))
    ),
    "an action that does not play": lambda path, game: rewrite_record(
        path, game, lambda r: attrs.evolve(r, actions=(*r.actions, ttr_core.Pass(0)))
    ),
    "a line changed": lambda path, game: change(
        path, "UPDATE lines SET line = replace(line, '0', '1') WHERE game = ? AND n = 1", game
    ),
    "a line lost": lambda path, game: change(
        path, "DELETE FROM lines WHERE game = ? AND n = 2", game
    ),
    "not text": lambda path, game: change(
        path, "UPDATE games SET trailer = X'00ff' WHERE id = ?", game
    ),
    "an unknown bot": lambda path, game: change(
        path, """UPDATE games SET bots = '{"1": "nobody"}' WHERE id = ?""", game
    ),
    "bots not JSON": lambda path, game: change(
        path, "UPDATE games SET bots = '{' WHERE id = ?", game
    ),
    "a seat out of the game": lambda path, game: change(
        path, "UPDATE games SET seat = 5 WHERE id = ?", game
    ),
    "a seat not a number": lambda path, game: change(
        path, "UPDATE games SET seat = 'x' WHERE id = ?", game
    ),
    "a bad token": lambda path, game: change(
        path, "UPDATE games SET token = 'abc' WHERE id = ?", game
    ),
    # A game id goes into addresses and a file name: only the ids games are made with.
    "an id for a header": lambda path, game: rename(path, game, 'a"; b'),
}


def newyork_copy(folder: Path) -> Path:
    """A copy of the New York map file: the very map the games are of."""
    from importlib import resources

    packaged = resources.files("ttr_core") / "maps" / "newyork.toml"
    if packaged.is_file():
        text = packaged.read_text(encoding="utf-8")
    else:
        text = (Path(__file__).resolve().parents[1] / "maps" / "newyork.toml").read_text("utf-8")
    copy = folder / "newyork-copy.toml"
    copy.write_text(text, encoding="utf-8")
    return copy


def rename(path: Path, game_id: str, new: str) -> None:
    for table, column in (("games", "id"), ("lines", "game"), ("events", "game")):
        change(path, f"UPDATE {table} SET {column} = ? WHERE {column} = ?", new, game_id)


@pytest.mark.parametrize("how", SPOILED)
def test_a_stored_game_that_no_longer_plays_is_skipped(
    how: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games.sqlite3"
    store = store_on(path)
    spoiled, kept = store.create({}), store.create({})
    for game in (spoiled, kept):
        person_moves(store, game.id, 3)
    store.close()
    SPOILED[how](path, spoiled.id)

    with caplog.at_level(logging.WARNING, logger="ttr_core.serve.games"):
        again = store_on(path)
    assert again.resumed == (1, 0)
    assert again.get(kept.id).state == kept.state  # the others go on
    with pytest.raises(ServeError):
        again.get(spoiled.id)
    (warning,) = [r for r in caplog.records if "not resumed" in r.getMessage()]
    assert str(path) in warning.getMessage()
    again.close()


def test_a_failed_write_leaves_the_game_in_memory_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games.sqlite3"
    store = store_on(path)
    game = store.create({})

    def full(*args: Any, **kwargs: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    assert store._saved is not None
    monkeypatch.setattr(store._saved, "append", full)
    with caplog.at_level(logging.WARNING, logger="ttr_core.serve.games"):
        after = person_moves(store, game.id, 2)
    assert after["ply"] > 0 and not game.kept  # the game goes on
    assert any("no longer kept" in r.getMessage() for r in caplog.records)
    store.close()
    # Not resumed as it was some moves ago: it is gone from the file.
    again = store_on(path)
    assert again.resumed == (0, 0)
    again.close()


# ---------------------------------------------------------------------------
# Bounded


def test_the_file_keeps_so_many_finished_games(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = store_on(path, max_games=2)
    ended = []
    for _ in range(3):
        game = store.create({})
        play_to_end(store, game.id)
        ended.append(game.id)
    store.close()
    kept = {game for (game,) in rows(path, "SELECT id FROM games WHERE over = 1")}
    assert kept == set(ended[1:])  # the one moved longest ago is deleted
    assert rows(path, "SELECT count(*) FROM lines WHERE game NOT IN (SELECT id FROM games)") == [
        (0,)
    ]
    assert rows(path, "SELECT count(*) FROM events WHERE game NOT IN (SELECT id FROM games)") == [
        (0,)
    ]
    again = store_on(path, max_games=2)
    assert again.resumed == (0, 2)
    again.close()


def test_no_more_games_being_played_are_taken_up_than_there_is_room(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = store_on(path, max_games=3)
    made = [store.create({}) for _ in range(3)]
    for game in made:  # moved in this order: the first longest ago
        person_moves(store, game.id, 1)
    store.close()

    smaller = store_on(path, max_games=2)
    assert smaller.resumed == (2, 0)
    for game in made[1:]:
        assert smaller.get(game.id).state == game.state
    with pytest.raises(ServeError):
        smaller.get(made[0].id)
    # Full of games being played: a new one is refused, saying why.
    with pytest.raises(ServeError) as full:
        smaller.create({})
    assert full.value.status == 503 and "--db" in full.value.message
    smaller.close()
    # The one not taken up is deleted: the file never grows past the bound.
    assert {game for (game,) in rows(path, "SELECT id FROM games")} == {g.id for g in made[1:]}


def test_games_older_than_a_seat_cookie_are_deleted(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = store_on(path)
    store.create({})
    store.close()
    later = time.time() + serve_saved.MAX_AGE + 60
    serve_saved.SavedGames(path, clock=lambda: later).close()
    assert rows(path, "SELECT count(*) FROM games") == [(0,)]
    assert rows(path, "SELECT count(*) FROM lines") == [(0,)]


def test_the_age_is_the_seat_cookies() -> None:
    pytest.importorskip("starlette", reason="the app needs the serve extra")
    from ttr_core.serve.app import SEAT_COOKIE_AGE

    assert serve_saved.MAX_AGE == SEAT_COOKIE_AGE


# ---------------------------------------------------------------------------
# Where the file is


@pytest.mark.parametrize(
    ("platform", "environ", "expected"),
    [
        ("linux", {"HOME": "/home/ann"}, "/home/ann/.local/share/ttr-core"),
        ("linux", {"HOME": "/home/ann", "XDG_DATA_HOME": "/data"}, "/data/ttr-core"),
        # A relative XDG_DATA_HOME is to be ignored (the XDG specification).
        (
            "linux",
            {"HOME": "/home/ann", "XDG_DATA_HOME": "data"},
            "/home/ann/.local/share/ttr-core",
        ),
        ("freebsd14", {"HOME": "/home/ann"}, "/home/ann/.local/share/ttr-core"),
        ("darwin", {"HOME": "/Users/ann"}, "/Users/ann/Library/Application Support/ttr-core"),
        (
            "win32",
            {"LOCALAPPDATA": "C:/Users/ann/AppData/Local"},
            "C:/Users/ann/AppData/Local/ttr-core",
        ),
        ("win32", {"HOME": "C:/Users/ann"}, "C:/Users/ann/AppData/Local/ttr-core"),
    ],
)
def test_the_data_directory(platform: str, environ: dict[str, str], expected: str) -> None:
    assert serve_saved.data_directory(platform, environ) == Path(expected)


def test_the_default_file_is_in_the_data_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/somewhere")
    found = serve_saved.default_path()
    assert found.name == serve_saved.FILE_NAME == "games.sqlite3"
    assert found.parent == serve_saved.data_directory()


# ---------------------------------------------------------------------------
# The command


@pytest.fixture
def no_run(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """``uvicorn.run`` noted instead of run."""
    uvicorn = pytest.importorskip("uvicorn", reason="ttr serve needs the serve extra")
    pytest.importorskip("starlette", reason="ttr serve needs the serve extra")
    given: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: given.update(options, app=app))
    return given


def at_home(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """Every platform's data directory under ``home``."""
    for name in ("HOME", "XDG_DATA_HOME", "LOCALAPPDATA"):
        monkeypatch.setenv(name, str(home))


def test_the_command_keeps_games_in_the_data_directory(
    tmp_path: Path,
    no_run: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ttr_core.cli import main

    at_home(monkeypatch, tmp_path)
    assert main(["serve", "--port", "8123"]) == 0
    path = serve_saved.default_path()
    assert path.is_file() and tmp_path in path.parents
    assert f"games are kept in {path}" in capsys.readouterr().err
    # The command let the file go when uvicorn returned.
    store_on(path).close()


def test_the_command_takes_db_and_no_db(
    tmp_path: Path,
    no_run: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ttr_core.cli import main

    at_home(monkeypatch, tmp_path / "home")
    path = tmp_path / "mine.sqlite3"
    store = store_on(path)
    store.create({})
    store.close()
    assert main(["serve", "--db", str(path)]) == 0
    assert "going on with 1 being played" in capsys.readouterr().err
    assert main(["serve", "--no-db"]) == 0
    assert "in memory only" in capsys.readouterr().err
    assert not (tmp_path / "home").exists()  # neither wrote to the data directory
    with pytest.raises(SystemExit):
        main(["serve", "--db", str(path), "--no-db"])
    (tmp_path / "junk").write_bytes(b"\x00junk" * 100)
    assert main(["serve", "--db", str(tmp_path / "junk")]) == 2
    assert "ttr serve: --db:" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# A real ttr serve, killed mid-game


class Browser:
    """Requests as the page sends them to a ttr serve on 127.0.0.1:``port``:
    its own Host and Origin, JSON bodies, the seat cookie kept."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.cookie: str | None = None

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            headers = {
                "Host": f"127.0.0.1:{self.port}",
                "Origin": self.origin,
                "Sec-Fetch-Site": "same-origin",
            }
            if self.cookie:
                headers["Cookie"] = self.cookie
            data = None
            if method == "POST":
                headers["Content-Type"] = "application/json"
                data = json.dumps(body if body is not None else {}).encode()
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            for line in response.headers.get_all("Set-Cookie") or []:
                self.cookie = line.split(";", 1)[0]  # ttr_seat=TOKEN
            return response.status, json.loads(response.read() or b"null")
        finally:
            connection.close()

    def answers(self) -> bool:
        try:
            return self.request("GET", "/api/options")[0] == 200
        except OSError:
            return False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def ttr_serve(
    tmp_path: Path,
) -> Iterator[Callable[[Path], tuple[subprocess.Popen[bytes], Browser]]]:
    """Start ``python -m ttr_core serve`` on a free port and the given file;
    every process started is killed at the end, whatever happened."""
    pytest.importorskip("uvicorn", reason="ttr serve needs the serve extra")
    pytest.importorskip("starlette", reason="ttr serve needs the serve extra")
    started: list[subprocess.Popen[bytes]] = []
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}

    def start(db: Path) -> tuple[subprocess.Popen[bytes], Browser]:
        port = free_port()
        log = (tmp_path / f"serve-{len(started)}.log").open("wb")
        process = subprocess.Popen(
            [*COMMAND, "--port", str(port), "--db", str(db), "--seed", str(SEED)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        log.close()
        started.append(process)
        browser = Browser(port)
        deadline = time.monotonic() + 60
        while not browser.answers():
            if process.poll() is not None or time.monotonic() > deadline:
                said = (tmp_path / f"serve-{len(started) - 1}.log").read_text(errors="replace")
                pytest.fail(f"ttr serve did not answer: {said[-2000:]}")
            time.sleep(0.1)
        return process, browser

    try:
        yield start
    finally:
        for process in started:
            process.kill()
            process.wait(30)


def test_a_killed_ttr_serve_plays_on_after_a_restart(
    tmp_path: Path, ttr_serve: Callable[[Path], tuple[subprocess.Popen[bytes], Browser]]
) -> None:
    db = tmp_path / "games.sqlite3"
    process, browser = ttr_serve(db)
    made, answer = browser.request("POST", "/api/games", {})
    assert made == 201 and browser.cookie and browser.cookie.startswith("ttr_seat=")
    game = answer["game"]
    path = f"/api/games/{game}"
    _, status = browser.request("GET", f"{path}?board=0")
    for _ in range(3):
        move = {"ply": status["ply"], "action": status["moves"][0]["action"]}
        code, status = browser.request("POST", f"{path}/moves?board=0", move)
        assert code == 200, status
    assert status["turn"] and not status["over"]

    process.kill()  # kill -9: no shutdown, nothing flushed on the way out
    process.wait(30)
    _, again = ttr_serve(db)
    again.cookie = browser.cookie  # the same browser
    code, resumed = again.request("GET", f"{path}?board=0")
    assert code == 200, resumed
    assert resumed == status  # the same ply, view, moves and events
    assert "going on with 1 being played" in (tmp_path / "serve-1.log").read_text()
    for _ in range(4):  # and it plays on
        move = {"ply": resumed["ply"], "action": resumed["moves"][0]["action"]}
        code, after = again.request("POST", f"{path}/moves?board=0", move)
        assert code == 200, after
        assert after["ply"] > resumed["ply"]
        resumed = after
    # Another browser (no cookie) still finds no game there.
    assert Browser(again.port).request("GET", path)[0] == 404


def test_an_abandoned_game_makes_room_and_leaves_the_file(tmp_path: Path) -> None:
    """Kept across restarts, games nobody plays any more would fill the server
    for good: one untouched for a day (ABANDONED) makes room for a new one and
    is deleted from the file; one played recently never does."""
    from ttr_core.serve import games as serve_games

    path = tmp_path / "games.sqlite3"
    store = store_on(path, max_games=2)
    old, recent = store.create({}), store.create({})
    with pytest.raises(ServeError):
        store.create({})  # both being played
    old.used -= serve_games.ABANDONED + 1  # a day and a second untouched
    new = store.create({})
    assert store.get(recent.id) is recent and store.get(new.id) is new
    with pytest.raises(ServeError):
        store.get(old.id)
    store.close()  # the file is the store's alone while it is open
    stored = {game_id for (game_id,) in rows(path, "SELECT id FROM games")}
    assert stored == {recent.id, new.id}


def test_a_move_of_a_game_no_longer_stored_leaves_no_rows(tmp_path: Path) -> None:
    """A game deleted meanwhile (pruned by age) gets no orphan record lines."""
    path = tmp_path / "games.sqlite3"
    saved = serve_saved.SavedGames(path)
    saved.add("g1", token="t", seat=0, bots={1: "route"}, header="{}", trailer="{}", events=[])
    saved.drop("g1")
    with pytest.raises(sqlite3.IntegrityError):
        saved.append(
            "g1", index=1, line="{}", trailer="{}", first_event=0, events=["x"], over=False
        )
    saved.close()
    assert rows(path, "SELECT * FROM lines") == [] and rows(path, "SELECT * FROM events") == []

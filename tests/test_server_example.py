"""The server example of docs/server.md, run against a real server on 127.0.0.1.

Each test starts ``docs/examples/server/ttr_server.py`` in this process (port
0, a thread) and plays through HTTP with urllib, as a client would: bots
choose from the ``legal`` lists the server sends. Every request has a
timeout, and every server is stopped in a ``finally`` block.
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.util
import json
import random
import re
import socket
import sqlite3
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import ttr_core

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "docs" / "examples" / "server" / "ttr_server.py"
PAGE = ROOT / "docs" / "server.md"
#: Seconds any one request may take.
TIMEOUT = 10
#: No proxy, whatever the environment says: the server is local.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@pytest.fixture(scope="module")
def module() -> Iterator[ModuleType]:
    if not SERVER.is_file():
        pytest.skip(f"{SERVER} not found: the example is tested from a repository checkout")
    spec = importlib.util.spec_from_file_location("ttr_server_example", SERVER)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = loaded  # dataclasses look their module up
    try:
        spec.loader.exec_module(loaded)
    except BaseException:
        del sys.modules[spec.name]
        raise
    yield loaded
    del sys.modules[spec.name]


class Client:
    """Requests to one running server; each answer is checked to be JSON."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, dict[str, Any]]:
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with OPENER.open(request, timeout=TIMEOUT) as response:
                status, headers, payload = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, headers, payload = error.code, error.headers, error.read()
        return status, checked_json(status, headers.get("Content-Type", ""), payload)

    def ok(self, method: str, path: str, body: Any = None, **kw: Any) -> dict[str, Any]:
        status, answer = self.request(method, path, body, **kw)
        assert status in (200, 201), (method, path, status, answer)
        return answer

    def status(self, game: str, token: str) -> dict[str, Any]:
        return self.ok("GET", f"/games/{game}", token=token)

    def move(self, game: str, token: str, ply: int, action: Any) -> tuple[int, dict[str, Any]]:
        return self.request(
            "POST", f"/games/{game}/moves", {"ply": ply, "action": action}, token=token
        )

    def events(self, game: str, token: str, since: int = 0) -> list[str]:
        answer = self.ok("GET", f"/games/{game}/events?since={since}", token=token)
        lines: list[str] = answer["events"]
        return lines

    def create(self, map_name: str, players: int) -> tuple[str, list[str]]:
        answer = self.ok("POST", "/games", {"map": map_name, "players": players})
        return answer["game"], answer["tokens"]


def checked_json(status: int, content_type: str, payload: bytes) -> dict[str, Any]:
    """The body as JSON: every answer is, errors included, and none shows a
    traceback; a 500 only for a game changed in the database."""
    assert status != 500 or b'"damaged_game"' in payload, payload
    assert content_type.startswith("application/json"), (status, content_type, payload)
    assert b"Traceback" not in payload, payload
    answer = json.loads(payload)
    assert isinstance(answer, dict)
    if status >= 400:
        assert isinstance(answer["error"], str) and isinstance(answer["message"], str), answer
    return answer


@contextlib.contextmanager
def serving(module: ModuleType, db: Path, key: bytes | None = None) -> Iterator[Client]:
    """A server on 127.0.0.1 (a free port) over the database ``db``, stopped on exit."""
    server = module.make_server(str(db), key=key, quiet=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield Client(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
        server.games.close()
        thread.join(TIMEOUT)
        assert not thread.is_alive()


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A bot's move from the legal list: mostly a claim when there is one (games
    end sooner), else a kind of move at random (blind draws are not rare)."""
    kinds: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        kinds.setdefault(action["type"], []).append(action)
    if "claim_route" in kinds and rng.random() < 0.6:
        return rng.choice(kinds["claim_route"])
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def play(
    client: Client,
    game: str,
    tokens: list[str],
    rng: random.Random,
    moves: list[dict[str, Any]],
    limit: int = 10_000,
) -> dict[str, Any]:
    """Play up to ``limit`` moves (appended to ``moves``); the last status seen."""
    status = client.status(game, tokens[0])
    for _ in range(limit):
        if status["over"]:
            break
        seat = status["view"]["current_player"]
        status = client.status(game, tokens[seat])
        assert status["seat"] == seat and status["legal"], status
        others = [client.status(game, t) for t in tokens if t != tokens[seat]]
        if len(moves) % 25 == 0:  # now and then: a seat not to decide gets no move
            assert all(other["legal"] == [] for other in others)
        action = choose(status["legal"], rng)
        code, status = client.move(game, tokens[seat], status["ply"], action)
        assert code == 200, status
        moves.append(action)
    return status


def check_events(client: Client, game: str, tokens: list[str], moves: list[dict[str, Any]]) -> None:
    """Each seat has one event line per move; the others never learn a card
    drawn blind or a ticket drawn or kept, the mover does."""
    board = client.ok("GET", f"/games/{game}/board")
    # Lines name the wild card as the map does ("taxi", "locomotive").
    card_names = [*board["card_names"], board["wild_name"]]
    events = [client.events(game, token) for token in tokens]
    assert all(len(lines) == len(moves) for lines in events)
    assert client.events(game, tokens[0], since=len(moves) - 2) == events[0][-2:]
    blind = 0
    for i, action in enumerate(moves):
        mover = action["player"]
        for seat, lines in enumerate(events):
            line = lines[i]
            assert line.startswith(f"Seat {mover} ")
            if action["type"] == "draw_blind":
                if seat == mover:
                    assert line != f"Seat {mover} drew a card from the deck"
                    assert any(f" {name} card" in line for name in card_names), line
                else:
                    assert line == f"Seat {mover} drew a card from the deck"
                    assert not any(name in line for name in card_names), line
                    blind += 1
            if action["type"] in ("draw_tickets", "keep_tickets") and seat != mover:
                assert "(" not in line, line  # a ticket is named "12 (A–B, 7)"
    assert blind > 0, "no blind draw was played: the secrecy check checked nothing"


def stored_record(db: Path, game: str) -> str:
    """The record as the database holds it: its lines and the trailer row."""
    with contextlib.closing(sqlite3.connect(db)) as connection:
        lines = [
            line
            for (line,) in connection.execute(
                "SELECT line FROM record_lines WHERE game = ? ORDER BY n", (game,)
            )
        ]
        ((trailer,),) = connection.execute("SELECT trailer FROM games WHERE id = ?", (game,))
    return "".join(f"{line}\n" for line in [*lines, trailer])


def check_final(
    client: Client, db: Path, game: str, tokens: list[str], key: bytes | None = None
) -> dict[str, Any]:
    """The game is over for every seat; the record, as served and as stored,
    restores to a finished game with the same final scores."""
    statuses = [client.status(game, token) for token in tokens]
    assert all(s["over"] and s["legal"] == [] for s in statuses)
    scores = statuses[0]["scores"]
    assert all(s["scores"] == scores for s in statuses)
    assert scores["winners"]
    jsonl = client.ok("GET", f"/games/{game}/record", token=tokens[0])["jsonl"]
    assert jsonl == stored_record(db, game)
    state = ttr_core.restore(ttr_core.from_jsonl(jsonl, key=key))
    assert state.is_over
    assert ttr_core.to_data(ttr_core.final_scores(state)) == scores
    return scores


@pytest.mark.parametrize(("map_name", "players"), [("newyork", 2), ("nederland", 3)])
def test_a_whole_game_is_played_through_http(
    module: ModuleType, tmp_path: Path, map_name: str, players: int
) -> None:
    db = tmp_path / "games.sqlite"
    moves: list[dict[str, Any]] = []
    with serving(module, db) as client:
        game, tokens = client.create(map_name, players)
        assert len(tokens) == players and len(set(tokens)) == players
        board = client.ok("GET", f"/games/{game}/board")
        assert board["id"] == map_name
        final = play(client, game, tokens, random.Random(players), moves)
        assert final["over"]
        check_events(client, game, tokens, moves)
        scores = check_final(client, db, game, tokens)
        assert scores["termination"] in ("cars", "stalemate")
        # One record row per move after the header; one event row per seat and move.
        with contextlib.closing(sqlite3.connect(db)) as connection:
            ((rows,),) = connection.execute("SELECT count(*) FROM record_lines")
            ((event_rows,),) = connection.execute("SELECT count(*) FROM events")
        assert (rows, event_rows) == (1 + len(moves), players * len(moves))


def _decider(client: Client, game: str, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    seat = client.status(game, tokens[0])["view"]["current_player"]
    return seat, client.status(game, tokens[seat])


def test_a_move_in_another_seats_name_is_refused(module: ModuleType, tmp_path: Path) -> None:
    with serving(module, tmp_path / "games.sqlite") as client:
        game, tokens = client.create("newyork", 2)
        play(client, game, tokens, random.Random(1), [], limit=5)
        seat, status = _decider(client, game, tokens)
        other = 1 - seat
        action = status["legal"][0]
        # The other seat's valid token, the deciding seat's move.
        code, answer = client.move(game, tokens[other], status["ply"], action)
        assert (code, answer["reason"]) == (409, "wrong_seat")
        # The deciding seat's token, an action in the other seat's name.
        code, answer = client.move(game, tokens[seat], status["ply"], {**action, "player": other})
        assert (code, answer["reason"]) == (409, "wrong_seat")
        assert client.status(game, tokens[seat]) == status  # nothing changed
        code, _ = client.move(game, tokens[seat], status["ply"], action)
        assert code == 200


def test_a_retried_move_is_refused_as_stale(module: ModuleType, tmp_path: Path) -> None:
    with serving(module, tmp_path / "games.sqlite") as client:
        game, tokens = client.create("newyork", 2)
        play(client, game, tokens, random.Random(2), [], limit=4)
        seat, status = _decider(client, game, tokens)
        ply, action = status["ply"], choose(status["legal"], random.Random(0))
        code, after = client.move(game, tokens[seat], ply, action)
        assert code == 200 and after["ply"] == ply + 1
        code, answer = client.move(game, tokens[seat], ply, action)  # the same, again
        assert (code, answer["reason"]) == (409, "stale_move")
        code, answer = client.move(game, tokens[seat], ply + 5, action)  # a ply to come
        assert (code, answer["reason"]) == (409, "stale_move")
        assert client.status(game, tokens[0])["ply"] == ply + 1
        assert len(client.events(game, tokens[0])) == ply + 1


def _at_once(client: Client, game: str, token: str, ply: int, action: Any) -> list[int]:
    """The statuses of 4 requests making the same move at the same time."""
    start = threading.Barrier(4)
    codes: list[int] = []

    def send() -> None:
        start.wait(TIMEOUT)
        codes.append(client.move(game, token, ply, action)[0])

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    return codes


def test_the_same_move_sent_at_once_is_made_once(module: ModuleType, tmp_path: Path) -> None:
    with serving(module, tmp_path / "games.sqlite") as client:
        game, tokens = client.create("newyork", 2)
        for _ in range(5):
            seat, status = _decider(client, game, tokens)
            action = choose(status["legal"], random.Random(6))
            codes = _at_once(client, game, tokens[seat], status["ply"], action)
            assert sorted(codes) == [200, 409, 409, 409]
            assert client.status(game, tokens[0])["ply"] == status["ply"] + 1


KEY = b"a secret kept apart from the database"


def test_a_restarted_server_goes_on_with_the_game(module: ModuleType, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    rng = random.Random(3)
    moves: list[dict[str, Any]] = []
    with serving(module, db, KEY) as client:
        game, tokens = client.create("newyork", 2)
        status = play(client, game, tokens, rng, moves, limit=15)
        last_ply, last = status["ply"] - 1, moves[-1]
        before = [client.status(game, token) for token in tokens]
        events = [client.events(game, token) for token in tokens]
    with serving(module, db, KEY) as client:  # a new server object on the same file
        after = [client.status(game, token) for token in tokens]
        for old, new in zip(before, after, strict=True):
            assert new == old
            assert ttr_core.to_json(ttr_core.from_data(new["view"], ttr_core.PlayerView)) == (
                ttr_core.to_json(ttr_core.from_data(old["view"], ttr_core.PlayerView))
            )
        assert [client.events(game, token) for token in tokens] == events
        # The last move before the restart, retried: refused.
        code, answer = client.move(game, tokens[last["player"]], last_ply, last)
        assert (code, answer["reason"]) == (409, "stale_move")
        assert play(client, game, tokens, rng, moves)["over"]
        check_events(client, game, tokens, moves)
        check_final(client, db, game, tokens, KEY)


def test_a_record_changed_in_the_database_is_refused(module: ModuleType, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with serving(module, db, KEY) as client:
        game, tokens = client.create("newyork", 2)
        moves: list[dict[str, Any]] = []
        play(client, game, tokens, random.Random(5), moves, limit=10)
    with serving(module, db, b"another key") as client:
        status, answer = client.request("GET", f"/games/{game}", token=tokens[0])
        assert (status, answer["error"]) == (500, "damaged_game")
    # Seat 1's first ticket choice made seat 0's, with the integrity line left as it was.
    with contextlib.closing(sqlite3.connect(db)) as connection, connection:
        forged = json.dumps({**moves[1], "player": 0}, separators=(",", ":"))
        connection.execute("UPDATE record_lines SET line = ? WHERE n = 2", (forged,))
    with serving(module, db, KEY) as client:
        status, answer = client.request("GET", f"/games/{game}", token=tokens[0])
        assert (status, answer["error"]) == (500, "damaged_game")


def test_a_resignation_ends_the_game(module: ModuleType, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    with serving(module, db) as client:
        game, tokens = client.create("newyork", 3)
        play(client, game, tokens, random.Random(4), [], limit=12)
        # Seat 1 resigns, whoever is to decide.
        answer = client.ok("POST", f"/games/{game}/resign", token=tokens[1], raw=b"")
        assert answer["over"] and answer["view"]["forfeit"] == 1
        scores = answer["scores"]
        assert scores["termination"] == "resignation"
        assert scores["winners"] and 1 not in scores["winners"]
        assert client.events(game, tokens[0])[-1] == ttr_core.describe_ending(
            ttr_core.end_game(ttr_core.new_game("newyork", 3, seed=1), "resignation", 1)
        )
        code, again = client.request("POST", f"/games/{game}/resign", token=tokens[0], raw=b"")
        assert (code, again["reason"]) == (409, "game_over")
        seat = answer["view"]["current_player"]
        assert seat is None
        code, refused = client.move(game, tokens[0], answer["ply"], {"type": "pass", "player": 0})
        assert (code, refused["reason"]) == (409, "game_over")
        assert check_final(client, db, game, tokens) == scores
        record = ttr_core.from_jsonl(stored_record(db, game))
        assert (record.termination, record.forfeit) == ("resignation", 1)
    with serving(module, db) as client:  # the ending is restored too
        assert client.status(game, tokens[2])["scores"] == scores
        assert client.ok("GET", f"/games/{game}/record", token=tokens[2])["jsonl"] == (
            stored_record(db, game)
        )
    assert ttr_core.from_jsonl(stored_record(db, game)) == record


# ---------------------------------------------------------------------------
# Hostile clients: a 4xx JSON error, never a 500 or a traceback
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile(module: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    db = tmp_path_factory.mktemp("hostile") / "games.sqlite"
    with serving(module, db) as client:
        game, tokens = client.create("newyork", 2)
        _, other_tokens = client.create("newyork", 2)
        yield client, game, tokens[0], other_tokens[0]


DRAW = {"type": "draw_blind", "player": 0}

# (method, path, raw body, token: "own", "other" (another game's), "bad" or None, status)
HOSTILE: dict[str, tuple[str, str, bytes | None, str | None, int]] = {
    "malformed JSON": ("POST", "/games/{id}/moves", b'{"ply": 0,', "own", 400),
    "not an object": ("POST", "/games/{id}/moves", b"[0, 1]", "own", 400),
    "not UTF-8": ("POST", "/games/{id}/moves", b'{"ply": "\xff"}', "own", 400),
    "too deep": ("POST", "/games/{id}/moves", b"[" * 60_000, "own", 400),
    "NaN": ("POST", "/games/{id}/moves", b'{"ply": NaN, "action": {}}', "own", 400),
    "a huge number": ("POST", "/games/{id}/moves", b'{"ply": ' + b"9" * 9000 + b"}", "own", 400),
    "ply a string": (
        "POST",
        "/games/{id}/moves",
        json.dumps({"ply": "0", "action": DRAW}).encode(),
        "own",
        400,
    ),
    "ply a bool": (
        "POST",
        "/games/{id}/moves",
        json.dumps({"ply": False, "action": DRAW}).encode(),
        "own",
        400,
    ),
    "extra key": (
        "POST",
        "/games/{id}/moves",
        json.dumps({"ply": 0, "action": DRAW, "seat": 1}).encode(),
        "own",
        400,
    ),
    "player a string": (
        "POST",
        "/games/{id}/moves",
        json.dumps({"ply": 0, "action": {"type": "draw_blind", "player": "0"}}).encode(),
        "own",
        400,
    ),
    "unknown action": (
        "POST",
        "/games/{id}/moves",
        json.dumps({"ply": 0, "action": {"type": "fly"}}).encode(),
        "own",
        400,
    ),
    "an action against the rules": (
        "POST",
        "/games/{id}/moves",
        json.dumps({"ply": 0, "action": DRAW}).encode(),
        "own",
        409,
    ),
    "no token": ("GET", "/games/{id}", None, None, 401),
    "a bad token": ("GET", "/games/{id}", None, "bad", 401),
    "another game's token": ("GET", "/games/{id}", None, "other", 401),
    "a move with a bad token": (
        "POST",
        "/games/{id}/moves",
        json.dumps({"ply": 0, "action": DRAW}).encode(),
        "bad",
        401,
    ),
    "unknown game": ("GET", "/games/nosuchgame", None, "own", 404),
    "unknown game's board": ("GET", "/games/nosuchgame/board", None, None, 404),
    "unknown path": ("GET", "/nothing/here", None, "own", 404),
    "unknown resource": ("GET", "/games/{id}/secrets", None, "own", 404),
    "wrong method": ("PUT", "/games/{id}/moves", b"{}", "own", 405),
    "unknown method": ("PATCH", "/games/{id}", b"{}", "own", 405),
    "since not a number": ("GET", "/games/{id}/events?since=x", None, "own", 400),
    "since negative": ("GET", "/games/{id}/events?since=-1", None, "own", 400),
    "the record too soon": ("GET", "/games/{id}/record", None, "own", 409),
    "a map file path": (
        "POST",
        "/games",
        json.dumps({"map": str(ROOT / "maps" / "newyork.toml"), "players": 2}).encode(),
        None,
        400,
    ),
    "an unknown map": ("POST", "/games", b'{"map": "atlantis", "players": 2}', None, 400),
    "players a string": ("POST", "/games", b'{"map": "newyork", "players": "2"}', None, 400),
    "too many players": ("POST", "/games", b'{"map": "newyork", "players": 9}', None, 400),
    "players a bool": ("POST", "/games", b'{"map": "newyork", "players": true}', None, 400),
    "a key twice": (
        "POST",
        "/games/{id}/moves",
        b'{"ply": 1, "ply": 0, "action": {"type": "draw_blind", "player": 0}}',
        "own",
        400,
    ),
    "/etc/passwd as a map": ("POST", "/games", b'{"map": "/etc/passwd", "players": 2}', None, 400),
    "a game without a map": ("POST", "/games", b'{"players": 2}', None, 400),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_request_gets_a_4xx_json_error(hostile: Any, case: str) -> None:
    client, game, token, other_token = hostile
    method, path, raw, who, expected = HOSTILE[case]
    tokens = {"own": token, "other": other_token, "bad": "x" * 40, None: None}
    status, answer = client.request(method, path.format(id=game), token=tokens[who], raw=raw)
    assert status == expected, (case, status, answer)
    # The game is as it was.
    assert client.status(game, token)["ply"] == 0


def test_a_library_error_is_answered_with_the_librarys_message(hostile: Any) -> None:
    client, game, token, _ = hostile
    action = {"type": "draw_blind", "player": "0"}
    status, answer = client.request(
        "POST", f"/games/{game}/moves", {"ply": 0, "action": action}, token=token
    )
    assert status == 400
    with pytest.raises(ttr_core.DataError) as caught:
        ttr_core.from_data(action, ttr_core.Action)
    assert (answer["message"], answer["path"]) == (str(caught.value), caught.value.path)


def _raw_exchange(port: int, request: bytes) -> tuple[int, dict[str, Any]]:
    """Send ``request`` as it is; the status and JSON body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(request)
        response = http.client.HTTPResponse(sock)
        response.begin()
        payload = response.read()
    return response.status, checked_json(
        response.status, response.getheader("Content-Type", ""), payload
    )


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        (b"Content-Length: 100000000\r\n", 413),  # the body is never read
        (b"Content-Length: 65537\r\n", 413),
        (b"", 411),
        (b"Content-Length: -5\r\n", 400),
        (b"Content-Length: lots\r\n", 400),
    ],
)
def test_a_body_too_large_or_unsized_is_refused_unread(
    hostile: Any, headers: bytes, expected: int
) -> None:
    client, game, token, _ = hostile
    request = (
        f"POST /games/{game}/moves HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {token}\r\n".encode()
        + headers
        + b"\r\n"
    )
    assert _raw_exchange(client.port, request)[0] == expected


def test_a_malformed_request_line_gets_json(hostile: Any) -> None:
    client, *_ = hostile
    # Four words: http.server's own 400, answered in JSON.
    status, answer = _raw_exchange(client.port, b"GET /games x HTTP/1.0\r\n\r\n")
    assert status == 400 and answer["error"] == "http"


# ---------------------------------------------------------------------------
# docs/server.md
# ---------------------------------------------------------------------------

FENCE = re.compile(r"^```(?P<lang>\w*)\n(?P<code>.*?)^```$", re.MULTILINE | re.DOTALL)


def test_the_page_quotes_the_example_verbatim(module: ModuleType) -> None:
    page = PAGE.read_text(encoding="utf-8")
    source = SERVER.read_text(encoding="utf-8")
    quoted = [m["code"] for m in FENCE.finditer(page) if m["lang"] == "python"]
    assert len(quoted) >= 5
    for code in quoted:
        assert code in source, f"docs/server.md quotes code that is not in ttr_server.py:\n{code}"
    assert "examples/server/ttr_server.py" in page

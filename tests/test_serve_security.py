"""ttr serve against hostile web pages, with a real HTTP client on a running server
(uvicorn in a thread, ``http.client`` on real sockets): foreign origins, cross-site
fetches and DNS rebinding refused, JSON bodies only, the seat held by a cookie, no
live game evicted for a new one, and the warning of ``--host`` (docs/serve.md,
"Security").

A localhost server is reachable by every web page its user opens: a page can send
"simple" requests (a ``text/plain`` POST, no preflight) to ``127.0.0.1:8000`` and
a rebinding domain can even read the answers. These tests send what such a page
would send."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any

import pytest

import ttr_core

pytest.importorskip("starlette", reason="ttr serve needs the serve extra (starlette)")
pytest.importorskip("uvicorn", reason="ttr serve needs the serve extra (uvicorn)")

import uvicorn

from ttr_core.cli import serve as serve_command
from ttr_core.serve import games as serve_games
from ttr_core.serve.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

JSON = {"Content-Type": "application/json"}
EVIL = "http://evil.example"


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def seat_cookie(self) -> str:
        """The ``name=value`` of the seat cookie this answer sets."""
        cookies = SimpleCookie()
        for line in self.headers.get_all("Set-Cookie") or []:
            cookies.load(line)
        morsel = cookies["ttr_seat"]
        return f"{morsel.key}={morsel.value}"


class Server:
    """A running ``ttr serve`` app on 127.0.0.1 and a free port."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"

    def request(
        self,
        method: str,
        path: str,
        *,
        body: bytes | str | None = None,
        headers: dict[str, str] | None = None,
        host: str | None = None,
        cookie: str | None = None,
    ) -> Answer:
        """One request on a fresh connection; ``host``: the Host header sent (a
        DNS-rebinding page's is its own domain)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            connection.putheader("Host", host if host is not None else f"127.0.0.1:{self.port}")
            sent = dict(headers or {})
            if cookie is not None:
                sent["Cookie"] = cookie
            data = body.encode() if isinstance(body, str) else body
            if data is not None or method == "POST":
                sent["Content-Length"] = str(len(data or b""))
            for name, value in sent.items():
                connection.putheader(name, value)
            connection.endheaders(data)
            response = connection.getresponse()
            return Answer(response.status, response.headers, response.read())
        finally:
            connection.close()

    def new_game(self, **body: Any) -> tuple[str, str]:
        """A game made as the page makes it: its id and its seat cookie."""
        made = self.request(
            "POST",
            "/api/games",
            body=json.dumps(body),
            headers={**JSON, "Origin": self.origin, "Sec-Fetch-Site": "same-origin"},
        )
        assert made.status == 201, made.body
        return str(made.json()["game"]), made.seat_cookie()


@pytest.fixture
def serve() -> Iterator[Any]:
    """Start servers (``create_app(**options)``) on free ports; all stop at the end."""
    running: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(**options: Any) -> Server:
        config = uvicorn.Config(
            create_app(**options), host="127.0.0.1", port=0, log_level="warning"
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        running.append((server, thread))
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        return Server(port)

    try:
        yield start
    finally:
        for server, _ in running:
            server.should_exit = True
        for _, thread in running:
            thread.join(10)


def refused(answer: Answer, status: int) -> dict[str, Any]:
    """The JSON refusal of ``answer`` (short, with the usual headers)."""
    assert answer.status == status, (answer.status, answer.body[:300])
    assert answer.headers["Content-Type"].startswith("application/json")
    assert len(answer.body) < 600  # bounded, echoes nothing sent
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
    found = answer.json()
    assert set(found) == {"error", "message"} and found["message"]
    return dict(found)


# ---------------------------------------------------------------------------
# Other sites


def test_a_text_plain_post_from_another_site_is_refused(serve: Any) -> None:
    server = serve(seed=1)
    game, cookie = server.new_game()
    hostile = {"Content-Type": "text/plain", "Origin": EVIL}
    # As the report found it: a "simple" request, no preflight.
    assert refused(server.request("POST", "/api/games", body="{}", headers=hostile), 403)
    status = server.request("GET", f"/api/games/{game}?board=0", cookie=cookie).json()
    move = json.dumps({"ply": status["ply"], "action": status["moves"][0]["action"]})
    answer = server.request(
        "POST", f"/api/games/{game}/moves", body=move, headers=hostile, cookie=cookie
    )
    refused(answer, 403)
    # With a JSON type but the foreign Origin, or the page's own Origin but
    # text/plain: refused all the same.
    foreign = {**JSON, "Origin": EVIL}
    refused(server.request("POST", "/api/games", body="{}", headers=foreign), 403)
    plain = {"Content-Type": "text/plain", "Origin": server.origin}
    assert refused(server.request("POST", "/api/games", body="{}", headers=plain), 415)
    # An origin that is not ours in any part: the scheme, the port, "null"
    # (a sandboxed frame, a file:// page).
    for origin in (
        "null",
        f"https://127.0.0.1:{server.port}",
        f"http://127.0.0.1:{server.port + 1}",
        f"http://localhost:{server.port}",  # another origin than the Host's
        "http://127.0.0.1",
    ):
        answer = server.request("POST", "/api/games", body="{}", headers={**JSON, "Origin": origin})
        refused(answer, 403)
    # Nothing moved.
    after = server.request("GET", f"/api/games/{game}?board=0", cookie=cookie)
    assert after.status == 200 and after.json()["ply"] == status["ply"]


def test_a_hundred_cross_site_creations_leave_the_persons_game(serve: Any) -> None:
    server = serve(seed=1)
    game, cookie = server.new_game()
    hostile = [
        {"Content-Type": "text/plain", "Origin": EVIL},
        {"Content-Type": "text/plain", "Origin": EVIL, "Sec-Fetch-Site": "cross-site"},
        {"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site"},
        {"Content-Type": "text/plain"},  # an old browser sending neither header
    ]
    for i in range(100):
        answer = server.request("POST", "/api/games", body="{}", headers=hostile[i % 4])
        assert answer.status in (403, 415), answer.body
    kept = server.request("GET", f"/api/games/{game}?board=0", cookie=cookie)
    assert kept.status == 200 and kept.json()["game"] == game


@pytest.mark.parametrize("site", ["cross-site", "same-site", "something-else"])
def test_a_fetch_from_another_site_is_refused(serve: Any, site: str) -> None:
    server = serve(seed=1)
    game, cookie = server.new_game()
    headers = {"Sec-Fetch-Site": site}
    refused(server.request("GET", "/", headers=headers), 403)
    refused(server.request("GET", f"/api/games/{game}", headers=headers, cookie=cookie), 403)
    answer = server.request("POST", "/api/games", body="{}", headers={**JSON, **headers})
    refused(answer, 403)


@pytest.mark.parametrize("site", ["same-origin", "none", None])
def test_a_fetch_of_the_page_itself_passes(serve: Any, site: str | None) -> None:
    server = serve(seed=1)
    headers = {"Sec-Fetch-Site": site} if site else {}
    assert server.request("GET", "/", headers=headers).status == 200
    made = server.request("POST", "/api/games", body="{}", headers={**JSON, **headers})
    assert made.status == 201


PAGES = ["/", "/game/x", "/replay/x", "/static/app.js", "/api/options", "/nowhere"]


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:{port}",
        "evil.example",
        "127.0.0.1.evil.example:{port}",
        "localhost.:{port}",
        "127.0.0.2:{port}",
        "0.0.0.0:{port}",
        "127.0.0.1:{other}",
        "127.0.0.1:{port}:{port}",
        "",
        "x" * 5000,
    ],
)
def test_dns_rebinding_is_refused_on_every_route(serve: Any, host: str) -> None:
    """A rebinding domain (evil.example resolving to 127.0.0.1) reaches the
    server with its own name in Host: pages and API are refused."""
    server = serve(seed=1)
    game, cookie = server.new_game()
    named = host.format(port=server.port, other=server.port + 1)
    for path in [*PAGES, f"/api/games/{game}"]:
        refused(server.request("GET", path, host=named, cookie=cookie), 403)
    refused(server.request("POST", "/api/games", body="{}", headers=JSON, host=named), 403)
    move = json.dumps({"ply": 0, "action": {}})
    answer = server.request(
        "POST", f"/api/games/{game}/moves", body=move, headers=JSON, host=named, cookie=cookie
    )
    refused(answer, 403)


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "[::1]:{port}"])
def test_the_loopback_names_are_allowed(serve: Any, host: str) -> None:
    server = serve(seed=1)
    named = host.format(port=server.port)
    assert server.request("GET", "/", host=named).status == 200
    assert server.request("GET", "/api/options", host=named.upper()).status == 200
    origin = {**JSON, "Origin": f"http://{named}"}
    assert server.request("POST", "/api/games", body="{}", headers=origin, host=named).status == 201


def test_the_allow_list_is_a_parameter(serve: Any) -> None:
    server = serve(seed=1, allowed_hosts=["ttr.lan", "tunnel:9000"])
    assert server.request("GET", "/", host=f"ttr.lan:{server.port}").status == 200
    assert server.request("GET", "/", host="tunnel:9000").status == 200
    refused(server.request("GET", "/", host=f"127.0.0.1:{server.port}"), 403)  # not listed
    refused(server.request("GET", "/", host="ttr.lan:9000"), 403)  # not the port served
    refused(server.request("GET", "/", host="tunnel:9001"), 403)


# ---------------------------------------------------------------------------
# JSON bodies only


def test_posts_must_say_json(serve: Any) -> None:
    server = serve(seed=1)
    for kind in (None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        headers = {"Content-Type": kind} if kind else {}
        found = refused(server.request("POST", "/api/games", body="{}", headers=headers), 415)
        assert found["error"] == "unsupported_media_type"
    with_charset = {"Content-Type": "application/json; charset=utf-8"}
    assert server.request("POST", "/api/games", body="{}", headers=with_charset).status == 201
    assert server.request("POST", "/api/games", headers=JSON).status == 201  # no body: {}
    # The replay of a finished game has no body, but says JSON all the same.
    game, cookie = server.new_game()
    answer = server.request("POST", f"/api/games/{game}/replay", cookie=cookie)
    refused(answer, 415)
    # A record upload says it is JSON Lines (also never a "simple" request).
    refused(server.request("POST", "/api/replays", body="{}", headers=JSON), 415)
    text = server.request("POST", "/api/replays", body="{}", headers={"Content-Type": "text/plain"})
    refused(text, 415)
    lines = {"Content-Type": "application/x-ndjson"}
    assert server.request("POST", "/api/replays", body="{}", headers=lines).status == 400


# ---------------------------------------------------------------------------
# The seat cookie


def test_the_seat_cookie(serve: Any) -> None:
    server = serve(seed=1)
    made = server.request("POST", "/api/games", body="{}", headers=JSON)
    game = made.json()["game"]
    (line,) = made.headers.get_all("Set-Cookie") or []
    parts = [part.strip() for part in line.split(";")]
    name, _, token = parts[0].partition("=")
    assert name == "ttr_seat" and len(token) >= 40  # 256 random bits
    flags = {part.split("=")[0].lower(): part.partition("=")[2] for part in parts[1:]}
    assert "httponly" in flags and flags["samesite"].lower() == "strict"
    assert flags["path"] == f"/api/games/{game}"  # sent with this game's requests only
    assert "secure" not in flags  # plain http on localhost
    assert token not in made.body.decode()  # the page's script never sees it


def test_the_address_alone_does_not_hold_the_seat(serve: Any) -> None:
    """Without the game's cookie (another browser, or a wrong token), every request
    about the game is answered as for a game that does not exist."""
    server = serve(seed=1)
    game, cookie = server.new_game()
    other_game, other_cookie = server.new_game()
    status = server.request("GET", f"/api/games/{game}?board=0", cookie=cookie).json()
    move = json.dumps({"ply": status["ply"], "action": status["moves"][0]["action"]})
    unknown = server.request("GET", "/api/games/nosuchgame").json()
    wrong = cookie.split("=")[0] + "=" + "A" * 43
    for sent in (None, wrong, other_cookie, "ttr_seat=", f"{cookie}x", "ttr_seat_x=1"):
        for method, path, body in (
            ("GET", f"/api/games/{game}", None),
            ("POST", f"/api/games/{game}/moves", move),
            ("GET", f"/api/games/{game}/record", None),
            ("POST", f"/api/games/{game}/replay", ""),
        ):
            headers = JSON if method == "POST" else {}
            answer = server.request(method, path, body=body, headers=headers, cookie=sent)
            assert refused(answer, 404) == unknown, (sent, path)
    # With it: the move is made.
    moved = server.request(
        "POST", f"/api/games/{game}/moves?board=0", body=move, headers=JSON, cookie=cookie
    )
    assert moved.status == 200 and moved.json()["ply"] > status["ply"]
    # Another game's cookie and this one's together (a browser sends each to its
    # own game's path only, but a client may send both).
    both = f"{other_cookie}; {cookie}"
    assert server.request("GET", f"/api/games/{game}", cookie=both).status == 200
    assert server.request("GET", f"/api/games/{other_game}", cookie=both).status == 200


# ---------------------------------------------------------------------------
# No live game evicted


def test_a_full_store_of_live_games_refuses_a_new_one(serve: Any) -> None:
    server = serve(seed=1, max_games=3)
    held = [server.new_game() for _ in range(3)]
    found = refused(server.request("POST", "/api/games", body="{}", headers=JSON), 503)
    assert found["error"] == "too_many_games"
    for game, cookie in held:
        assert server.request("GET", f"/api/games/{game}?board=0", cookie=cookie).status == 200


def finish(game: serve_games.Game) -> None:
    """End ``game`` early (abandoned), as a server may."""
    with game.lock:
        game.state = ttr_core.end_game(game.state, "abandoned")
        game.record.end(game.state)


def test_only_finished_games_make_room() -> None:
    store = serve_games.GameStore(max_games=2, seed=1)
    first, second = store.create({}), store.create({})
    with pytest.raises(serve_games.ServeError) as full:
        store.create({})
    assert full.value.status == 503 and full.value.code == "too_many_games"
    assert store.get(first.id) is first and store.get(second.id) is second
    # Once the first is over, it makes room (oldest first among the finished).
    finish(first)
    store.get(second.id)  # the second is used last, the first is older anyway
    third = store.create({})
    assert store.get(third.id) is third and store.get(second.id) is second
    with pytest.raises(serve_games.ServeError) as gone:
        store.get(first.id)
    assert gone.value.status == 404


def test_replays_still_make_room_oldest_first() -> None:
    store = serve_games.GameStore(max_replays=2, seed=1)
    made = []
    for _ in range(3):
        game = store.create({})
        finish(game)
        made.append(store.replay_of_game(game.id))
    assert store.replay(made[2].id) is made[2] and store.replay(made[1].id) is made[1]
    with pytest.raises(serve_games.ServeError):
        store.replay(made[0].id)


# ---------------------------------------------------------------------------
# The command


def run_command(argv: Sequence[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, dict[str, Any]]:
    """``ttr serve argv`` with uvicorn.run noted instead of run: the exit status and
    what uvicorn would have been given."""
    given: dict[str, Any] = {}

    def run(app: Any, **options: Any) -> None:
        given.update(options, app=app)

    monkeypatch.setattr(uvicorn, "run", run)
    # --no-db: nothing written to the user's data directory.
    return serve_command.main([*argv, "--no-db"]), given


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "myhost.lan"])
def test_a_host_other_than_loopback_is_warned_of(
    host: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, given = run_command(["--host", host, "--port", "8123"], monkeypatch)
    assert status == 0 and given["host"] == host  # it still runs
    err = capsys.readouterr().err
    assert "warning" in err.lower()
    assert "anyone" in err and "network" in err and "no accounts" in err


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.0.5"])
def test_loopback_is_not_warned_of(
    host: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = run_command(["--host", host, "--port", "8123"], monkeypatch)
    assert status == 0
    assert "warning" not in capsys.readouterr().err.lower()


@pytest.mark.parametrize(
    ("argv", "allowed"),
    [
        ([], ["127.0.0.1", "localhost", "[::1]"]),
        (["--host", "localhost"], ["127.0.0.1", "localhost", "[::1]"]),
        (["--host", "192.168.1.20"], ["192.168.1.20"]),
        (["--host", "fe80::1"], ["[fe80::1]"]),
        (["--host", "0.0.0.0"], ["127.0.0.1", "localhost", "[::1]"]),
        (
            ["--host", "0.0.0.0", "--allow-host", "box.lan"],
            ["127.0.0.1", "localhost", "[::1]", "box.lan"],
        ),
        (["--allow-host", "localhost:9000"], ["127.0.0.1", "localhost", "[::1]", "localhost:9000"]),
    ],
)
def test_the_command_allows_the_host_it_serves(
    argv: list[str], allowed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, given = run_command([*argv, "--port", "8123"], monkeypatch)
    assert status == 0
    assert given["app"].state.allowed_hosts == tuple(allowed)


def test_the_default_allow_list_is_loopback_only() -> None:
    """Starlette's TestClient sends ``Host: testserver``: refused unless the app
    is made to allow it (as tests/test_serve.py does)."""
    from starlette.testclient import TestClient

    assert TestClient(create_app()).get("/").status_code == 403
    assert TestClient(create_app(allowed_hosts=["testserver"])).get("/").status_code == 200


@pytest.mark.parametrize(
    "entries", [[], "localhost", ["local host"], ["localhost:"], ["a:99999"], [""], [7]]
)
def test_an_allow_list_of_junk_is_refused(entries: Any) -> None:
    with pytest.raises(ttr_core.ArgumentError):
        create_app(allowed_hosts=entries)


def test_a_bad_allow_host_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, given = run_command(["--allow-host", "not a host"], monkeypatch)
    assert status == 2 and not given
    assert "--allow-host" in capsys.readouterr().err

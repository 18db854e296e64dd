"""ttr serve through its HTTP API (Starlette's TestClient): whole games to the end,
seat-bound and stale moves refused, nothing hidden in any answer, bounded store,
the record and the replay, and the command without the extra (docs/serve.md).
tests/test_serve_security.py sends what other sites' pages would, to a running server."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from typing import Any

import pytest
from ttr_core_plugins.mandala import qualifying

import ttr_core

pytest.importorskip("starlette", reason="ttr serve needs the serve extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.testclient import TestClient

from ttr_core.serve import games as serve_games
from ttr_core.serve.app import MAX_BODY, create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


#: The TestClient's requests name ``Host: testserver``: allowed here only
#: (the default allow-list is the loopback names).
TEST_HOST = ["testserver"]
JSON = {"Content-Type": "application/json"}


def client(**defaults: Any) -> TestClient:
    """A client of a new app; it keeps each game's seat cookie as a browser does."""
    return TestClient(create_app(allowed_hosts=TEST_HOST, **defaults))


def new_game(c: TestClient, **body: Any) -> str:
    answer = c.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["game"])


def first_move(status: dict[str, Any]) -> dict[str, Any]:
    """The move the page lists first: the ticket choice, else a claim, else the first."""
    for kind in ("keep", "claim"):
        for move in status["moves"]:
            if move["kind"] == kind:
                return dict(move)
    return dict(status["moves"][0])


def play_to_end(c: TestClient, game: str, *, pictures_every: int = 25) -> dict[str, Any]:
    status = c.get(f"/api/games/{game}?board=0").json()
    moves = 0
    while not status["over"]:
        assert status["turn"] and status["moves"], status
        with_board = moves % pictures_every == 0
        query = "" if with_board else "?board=0"
        answer = c.post(
            f"/api/games/{game}/moves{query}",
            json={"ply": status["ply"], "action": first_move(status)["action"]},
        )
        assert answer.status_code == 200, answer.text
        after = answer.json()
        assert after["ply"] > status["ply"]
        if with_board:
            assert after["svg"].startswith("<svg") and 'id="route-0"' in after["svg"]
        status = after
        moves += 1
        assert moves < 500
    return status


@pytest.mark.parametrize(
    "map_name", ["newyork", "nederland", "switzerland", "nordiccountries", "pennsylvania", "india"]
)
def test_whole_game_through_the_api(map_name: str) -> None:
    c = client(seed=7)
    game = new_game(c, map=map_name, players=2, bots=["route"])
    assert c.get(f"/api/games/{game}/record").status_code == 409  # the seed is in it
    final = play_to_end(c, game)
    assert final["over"] and final["winners"]
    assert final["pieces"] == ttr_core.load_map(map_name).pieces  # the map's word (issue 34)
    assert final["scores"]["sheets"][0]["player"] == 0
    if map_name == "nederland":
        assert final["view"]["variant_names"] == ["tolls"]
        assert any("Toll" in line["label"] for line in final["sheet"])
    if map_name == "india":  # the Grand Tour line names its tickets (the page shows them)
        (tour,) = [line for line in final["sheet"] if line["label"].startswith("Grand Tour")]
        record_state = ttr_core.restore(
            ttr_core.from_jsonl(c.get(f"/api/games/{game}/record").text)
        )
        assert len(tour["detail"]) == len(qualifying(record_state, 0))
    if map_name == "pennsylvania":  # a line per company the person holds
        shares = [
            line
            for line in final["sheet"]
            if "shares" in line["label"] or "share," in line["label"]
        ]
        assert shares or any(line["label"] == "Shares: none" for line in final["sheet"])
    # The bots' moves are told as the person's seat knows them.
    assert any(line.startswith("Player 2 ") for line in final["events"])
    # The save: the record, which replays to the final state.
    saved = c.get(f"/api/games/{game}/record")
    assert saved.status_code == 200
    assert "attachment" in saved.headers["content-disposition"]
    record = ttr_core.from_jsonl(saved.text)
    assert ttr_core.restore(record).is_over
    assert len(record.actions) == final["ply"]
    # The replay view: every step, with the line of its action.
    made = c.post(f"/api/games/{game}/replay", headers=JSON)
    assert made.status_code == 201
    replay = made.json()["replay"]
    step = c.get(f"/api/replays/{replay}?step=1").json()
    assert step["steps"] == final["ply"] + 1
    assert step["line"].startswith("Player 1 kept")
    assert step["svg"].startswith("<svg")
    last = c.get(f"/api/replays/{replay}?step={final['ply']}").json()
    states = list(ttr_core.replay(record))
    told = ttr_core.describe(states[-2], record.actions[-1])  # every card named
    # Every seat named as people count ("Player 2"), the subject and any other
    # ("paid a toll of 1 to Player 1").
    assert last["line"] == re.sub(r"\bSeat (\d+)\b", lambda m: f"Player {int(m[1]) + 1}", told)
    assert c.get(f"/api/replays/{replay}?step={final['ply'] + 1}").status_code == 400


def test_an_uploaded_record_replays() -> None:
    c = client(seed=3)
    game = new_game(c)
    play_to_end(c, game)
    text = c.get(f"/api/games/{game}/record").text
    lines = {"Content-Type": "application/x-ndjson"}
    made = c.post("/api/replays", content=text.encode(), headers=lines)
    assert made.status_code == 201
    step = c.get(f"/api/replays/{made.json()['replay']}?step=0").json()
    assert step["line"] == "The set-up"
    # A changed record is refused (its integrity line), naming the line.
    forged = text.replace('"player":0', '"player":1', 1)
    refused = c.post("/api/replays", content=forged.encode(), headers=lines)
    assert refused.status_code == 400 and refused.json()["error"] == "bad_data"
    assert c.post("/api/replays", content=b"\xff\xfe", headers=lines).status_code == 400


def test_a_forged_seat_is_refused() -> None:
    c = client(seed=5)
    game = new_game(c, map="newyork")
    status = c.get(f"/api/games/{game}?board=0").json()
    action = first_move(status)["action"]
    forged = {**action, "player": 1}
    answer = c.post(f"/api/games/{game}/moves", json={"ply": status["ply"], "action": forged})
    assert answer.status_code == 409
    assert answer.json()["reason"] == "wrong_seat"
    assert c.get(f"/api/games/{game}?board=0").json()["ply"] == status["ply"]


def test_a_stale_or_repeated_move_is_refused() -> None:
    c = client(seed=5)
    game = new_game(c, map="nederland")
    status = c.get(f"/api/games/{game}?board=0").json()
    move = {"ply": status["ply"], "action": first_move(status)["action"]}
    assert c.post(f"/api/games/{game}/moves?board=0", json=move).status_code == 200
    after = c.get(f"/api/games/{game}?board=0").json()
    again = c.post(f"/api/games/{game}/moves", json=move)  # sent twice
    assert again.status_code == 409 and again.json()["reason"] == "stale_move"
    ahead = {"ply": after["ply"] + 1, "action": first_move(after)["action"]}
    refused = c.post(f"/api/games/{game}/moves", json=ahead)
    assert refused.status_code == 409 and refused.json()["reason"] == "stale_move"
    assert c.get(f"/api/games/{game}?board=0").json()["ply"] == after["ply"]


# Nordic Countries for its waiting claims with sets (Switzerland's 3-seat games
# add a minute and nothing of their own: its views are the core's and tunnels').
@pytest.mark.parametrize("map_name", ["newyork", "nederland", "nordiccountries"])
def test_nothing_hidden_reaches_the_page(map_name: str) -> None:
    """The person's status is the same for every state their seat cannot tell
    apart (determinize re-deals what the seat does not see), and holds neither
    the seed nor the record before the end."""
    store = serve_games.GameStore(seed=2**100 + 12_345, map=map_name, players=3)
    game = store.create({})
    checked = turns = 0
    while not game.state.is_over:
        status = serve_games.status(game)
        text = json.dumps(status)
        assert str(game.state.seed) not in text
        turns += 1
        if checked < 4 and turns % 5 == 1:
            view = ttr_core.player_view(game.state, game.seat)
            other = ttr_core.determinize(view, seed=checked + 1)
            assert other != game.state  # the bots' hands or the deck differ
            assert serve_games.status(dataclasses.replace(game, state=other)) == status
            checked += 1
        store.move(game.id, {"ply": status["ply"], "action": first_move(status)["action"]})
    assert checked == 4


def test_refusals_are_json() -> None:
    c = client()
    assert c.post("/api/games", json={"map": "/etc/passwd"}).json()["error"] == "unknown_map"
    assert c.post("/api/games", json={"players": 99}).status_code == 400
    assert c.post("/api/games", json={"bots": ["nobody"]}).json()["error"] == "unknown_bot"
    assert c.post("/api/games", json={"seed": 1}).status_code == 400
    assert c.post("/api/games", content=b"{nope", headers=JSON).json()["error"] == "bad_json"
    assert c.get("/api/games/nope").status_code == 404
    assert c.get("/api/replays/nope?step=0").status_code == 404
    game = new_game(c)
    big = b'{"ply": 0, "action": "' + b"x" * MAX_BODY + b'"}'
    assert c.post(f"/api/games/{game}/moves", content=big, headers=JSON).status_code == 413
    bad = c.post(f"/api/games/{game}/moves", json={"ply": 0, "action": {"type": "nope"}})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_data"
    assert c.post(f"/api/games/{game}/moves", json={"ply": "0", "action": {}}).status_code == 400
    page = c.get(f"/game/{game}")
    assert page.status_code == 200 and "app.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert c.get("/static/app.js").status_code == 200
    assert c.get("/static/nope.js").status_code == 404


def test_the_store_is_bounded() -> None:
    store = serve_games.GameStore(max_games=2, seed=1)
    first, second = store.create({}), store.create({})
    for game in (first, second):  # only finished games make room
        with game.lock:
            game.state = ttr_core.end_game(game.state, "abandoned")
    store.get(first.id)  # used last: the second game is the oldest now
    third = store.create({})
    assert store.get(first.id) is first and store.get(third.id) is third
    with pytest.raises(serve_games.ServeError) as refused:
        store.get(second.id)
    assert refused.value.status == 404


def test_importing_ttr_core_imports_no_web_framework() -> None:
    code = (
        "import sys, ttr_core, ttr_core.cli, ttr_core.serve.games, ttr_core.cli.serve; "
        "print(sorted(m for m in ('starlette', 'uvicorn') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_ttr_serve_without_the_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ttr_core.cli import main

    for name in ("starlette", "uvicorn", "ttr_core.serve.app"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    assert main(["serve", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "pip install '.[serve]'" in err and "serve" in err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bots", "nobody"], "--bots takes names"),
        (["--map", "nowhere"], "--map must be one of"),
        (["--players", "1"], "player"),
        (["--port", "70000"], "--port"),
    ],
)
def test_ttr_serve_refuses_bad_options(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from ttr_core.cli import main

    assert main(["serve", *args]) == 2
    assert words in capsys.readouterr().err

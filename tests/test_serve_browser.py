"""ttr serve in a real headless Chromium (Playwright, driving Debian's ``chromium``):
whole games played by clicks on New York and on Nederland with tolls, a reload
mid-game that resumes, the save, the replay and the upload of the record, a
screenshot of each built-in map, and pages of other sites (another port of
loopback, a DNS-rebinding name) refused with what the browser really sends
(docs/serve.md). Skips only where no Chromium is found."""

from __future__ import annotations

import http.server
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import ttr_core

CHROMIUM = (
    os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
)
pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="no Chromium found (Debian: apt-get install -y chromium; .ci/run installs it; "
        "or set CHROMIUM to a Chromium binary)",
    ),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]

#: Every built-in map, for the screenshots.
MAPS = (
    "newyork",
    "nederland",
    "usa",
    "amsterdam",
    "europe",
    "switzerland",
    "nordiccountries",
    "pennsylvania",
    "india",
)
#: Ready: the page shows a status it got from the server.
READY = "document.body.dataset.state === 'ready'"
#: A name the browser resolves to 127.0.0.1, as a DNS-rebinding domain would.
REBINDING = "rebind.example"


@dataclass
class Served:
    """The running app: its address and each request it answered (method, path,
    status, the Origin and Sec-Fetch-Site the browser sent)."""

    url: str
    port: int
    seen: list[tuple[str, str, int, str | None, str | None]] = field(default_factory=list)


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    import uvicorn

    from ttr_core.serve.app import create_app

    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(seed=2024, bots=["route"])
    found = Served(f"http://127.0.0.1:{port}", port)

    async def noted(scope: Any, receive: Any, send: Any) -> None:
        # What reached the server and what it answered, as the browser sent it.
        if scope["type"] != "http":
            return await app(scope, receive, send)
        headers = {name.decode(): value.decode() for name, value in scope["headers"]}
        answered: list[int] = []

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                answered.append(message["status"])
            await send(message)

        await app(scope, receive, sending)
        found.seen.append(
            (
                scope["method"],
                scope["path"],
                answered[0],
                headers.get("origin"),
                headers.get("sec-fetch-site"),
            )
        )

    config = uvicorn.Config(noted, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.05)
    yield found
    running.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def server(served: Served) -> str:
    return served.url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # As root (a CI container) Chromium's sandbox cannot start.
        args = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
        # A rebinding domain, without DNS: the browser resolves it to loopback.
        args.append(f"--host-resolver-rules=MAP {REBINDING} 127.0.0.1")
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    # bypass_csp: the page forbids eval, which Playwright's wait_for_function uses.
    context = browser.new_context(viewport={"width": 1400, "height": 900}, bypass_csp=True)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    yield opened
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def ply(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.ply"))


def click_and_wait(page: Any, button: Any) -> None:
    """Click a move and wait for the status after it (and the bots' moves)."""
    before = ply(page)
    button.click()
    page.wait_for_function(
        f"before => document.body.dataset.ply !== String(before) && {READY}", arg=before
    )


def click_a_route(page: Any) -> bool:
    """Pick a claimable route on the board, then the first way to pay for it."""
    routes = page.locator("#board g.claimable")
    if routes.count() == 0:
        return False
    route = routes.first
    try:
        route.click(timeout=2000)
    except Exception:  # a label drawn over its middle: send the click to the route itself
        route.dispatch_event("click")
    options = page.locator("#selection button.move")
    options.first.wait_for()
    click_and_wait(page, options.first)
    return True


def play_by_clicks(page: Any, *, most: int, reload_at: int | None = None) -> int:
    """Click the first listed move (now and then a route on the board) until the
    game is over or ``most`` moves were made; the moves made."""
    made = 0
    while made < most and page.evaluate("document.body.dataset.over") != "true":
        if reload_at is not None and made == reload_at:
            at, url = ply(page), page.url
            page.reload()
            page.wait_for_function(READY)
            assert page.url == url and ply(page) == at  # the game resumes where it was
        if made % 4 == 3 and click_a_route(page):
            made += 1
            continue
        click_and_wait(page, page.locator("#moves button.move").first)
        made += 1
    return made


def start(page: Any, base: str, map_name: str) -> None:
    page.goto(base + "/")
    page.wait_for_function(READY)
    page.select_option("#map", map_name)
    page.fill("#players", "2")
    page.click("#new-game")
    page.wait_for_url("**/game/*")
    page.wait_for_function(READY)


@pytest.mark.parametrize("map_name", ["newyork", "nederland"])
def test_a_whole_game_by_clicks(server: str, page: Any, map_name: str) -> None:
    start(page, server, map_name)
    assert page.locator("#board svg g#route-0").count() == 1
    assert page.locator("#status").inner_text() == "Your turn"
    word = {"newyork": "taxis", "nederland": "trains"}[map_name]  # the map's own (issue 34)
    assert page.locator("#seats th").all_inner_texts()[-1] == word
    made = play_by_clicks(page, most=400, reload_at=6)
    assert page.evaluate("document.body.dataset.over") == "true", f"not over after {made}"
    assert page.locator("#status").inner_text().startswith("Game over")
    # The person's score sheet, line by line, what a line counts beneath it.
    sheet = page.locator("#final-sheet li").all_inner_texts()
    assert any("Routes claimed" in line for line in sheet), sheet
    # The bots' moves were told, redacted: "drew a card", never which.
    events = page.locator("#events li").all_inner_texts()
    assert any(line.startswith("Player 2 drew a card") for line in events)
    assert not any(re.match(r"Player 2 drew an? \w+ card from the deck", line) for line in events)
    # The save: the record of the game, which replays to its end.
    href = page.locator("#save").get_attribute("href")
    saved = page.request.get(server + href)
    assert saved.ok
    record = ttr_core.from_jsonl(saved.text())
    assert record.map == map_name and ttr_core.restore(record).is_over
    if map_name == "nederland":
        assert record.variants == ("tolls",)
    # The replay: step through it.
    page.click("#replay-game")
    page.wait_for_url("**/replay/*")
    page.wait_for_function("document.body.dataset.step === '0' && " + READY)
    page.click("#next")
    page.wait_for_function("document.body.dataset.step === '1' && " + READY)
    assert page.locator("#replay-line").inner_text().startswith("Player 1 kept tickets")
    assert page.locator("#replay-board svg g#route-0").count() == 1
    # The saved record, uploaded on the start page, replays too.
    page.goto(server + "/")
    page.wait_for_function(READY)
    page.set_input_files(
        "#record-file",
        files=[{"name": "game.jsonl", "mimeType": "text/plain", "buffer": saved.body()}],
    )
    page.click("#upload")
    page.wait_for_url("**/replay/*")
    page.wait_for_function("document.body.dataset.step === '0' && " + READY)
    assert page.locator("#replay-line").inner_text() == "The set-up"


def test_a_screenshot_of_each_map(server: str, page: Any, tmp_path: Path) -> None:
    for map_name in MAPS:
        made = page.request.post(server + "/api/games", data={"map": map_name, "players": 2})
        assert made.ok, made.text()
        page.goto(server + made.json()["url"])
        page.wait_for_function(READY)
        play_by_clicks(page, most=5)
        picture = tmp_path / f"serve-{map_name}.png"
        page.screenshot(path=str(picture))
        data = picture.read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 20_000, map_name


#: A hostile page: "simple" requests, which a browser sends without asking the
#: server first, to make games, to move in the person's game (with the
#: browser's cookies) and to read its status.
HOSTILE = """<!doctype html><title>hostile</title><script>
(async () => {
  const simple = { method: "POST", mode: "no-cors", credentials: "include",
                   headers: { "Content-Type": "text/plain" }, body: "{}" };
  for (let i = 0; i < 3; i++) await fetch("TARGET/api/games", simple).catch(() => {});
  await fetch("TARGET/api/games/GAME/moves", simple).catch(() => {});
  await fetch("TARGET/api/games/GAME", { credentials: "include" }).catch(() => {});
  document.title = "done";
})();
</script>"""


def test_pages_of_other_sites_are_refused(served: Served, page: Any) -> None:
    """Pages on another port of loopback (same-site at 127.0.0.1, cross-site at
    localhost) reach the server: Chromium's protection of local addresses stops
    only public sites. Each of their requests is refused, the person's game is
    untouched; a DNS-rebinding name gets a 403 on the page and the API."""
    start(page, served.url, "newyork")
    game = page.url.rsplit("/", 1)[1]
    at = ply(page)
    html = HOSTILE.replace("TARGET", served.url).replace("GAME", game).encode()

    class Hostile(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(html)))
            self.end_headers()
            self.wfile.write(html)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        hostile = page.context.new_page()
        for origin, site in (
            (f"http://127.0.0.1:{other.server_address[1]}", "same-site"),
            (f"http://localhost:{other.server_address[1]}", "cross-site"),
        ):
            before = len(served.seen)
            hostile.goto(origin + "/")
            hostile.wait_for_function("document.title === 'done'")
            # The server notes a request once its answer is sent: the page may
            # have its last answer a moment before the note is made.
            deadline = time.monotonic() + 10
            while True:
                theirs = [seen for seen in served.seen[before:] if seen[3] == origin]
                if len(theirs) >= 5 or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            assert len(theirs) == 5, served.seen[before:]
            assert all(status == 403 and fetched == site for _, _, status, _, fetched in theirs)
        hostile.close()
    finally:
        other.shutdown()
    # The person's game: still theirs, at the same move.
    page.reload()
    page.wait_for_function(READY)
    assert ply(page) == at and page.locator("#status").inner_text() == "Your turn"
    # DNS rebinding: the browser thinks it is on rebind.example's own site.
    rebound = f"http://{REBINDING}:{served.port}"
    for path in ("/", f"/game/{game}", "/static/app.js", f"/api/games/{game}"):
        answer = page.goto(rebound + path)
        assert answer is not None and answer.status == 403, path


def test_a_share_is_chosen_by_a_click(server: str, page: Any) -> None:
    """Pennsylvania (issue 33): a claim of a route with company logos offers the
    share choice as moves of the page; a click takes one, and the event says so."""
    start(page, server, "pennsylvania")
    for _ in range(200):
        assert page.evaluate("document.body.dataset.over") != "true", "no share offered"
        shares = page.locator("#moves button.move", has_text="TakeShare")
        if shares.count():
            assert page.locator("#moves button.move", has_text="DeclineShare").count() == 1
            click_and_wait(page, shares.first)
            break
        if not click_a_route(page):
            click_and_wait(page, page.locator("#moves button.move").first)
    else:
        pytest.fail("no share offered in 200 moves")
    events = page.locator("#events li").all_inner_texts()
    assert any(line.startswith("You took share") for line in events), "\n".join(events)

"""ttr serve in a real headless Chromium (Playwright, driving Debian's ``chromium``):
whole games played by clicks on New York and on Nederland with tolls, a reload
mid-game that resumes, every player's score sheet at the end equal to
``final_scores``, the save, the replay and the upload of the record; every
built-in map's board and legend seen whole without scrolling at 1366×768,
1400×1000 and 1920×1080; stations built by clicking a city and a tunnel paid
for (Europe), a one-space route hit beside its car, no request answered 404;
and pages of other sites (another port of loopback, a DNS-rebinding name)
refused with what the browser really sends (docs/serve.md). Skips only where
no Chromium is found."""

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
MAPS = tuple(ttr_core.available_maps())
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


def click_a_route(page: Any, prefer: str = "") -> bool:
    """Pick a claimable route on the board (one matching ``prefer``, a CSS
    class selector, if any is claimable), then the first way to pay for it."""
    routes = page.locator("#board g.claimable" + prefer)
    if prefer and routes.count() == 0:
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


def click_first_move(page: Any) -> None:
    """Click the first move listed; a ticket choice first ticks the fewest
    tickets it must keep (nothing is ticked for the person)."""
    keep = page.locator("#keep")
    if keep.count():
        need = int(keep.get_attribute("data-min-keep"))
        boxes = keep.locator("input[type=checkbox]")
        for i in range(boxes.count()):
            if keep.locator("input:checked").count() >= need:
                break
            boxes.nth(i).check()
    click_and_wait(page, page.locator("#moves button.move").first)


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
        click_first_move(page)
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


def api_status(page: Any, base: str) -> dict[str, Any]:
    """The person's status as the page gets it (the request shares the page's
    cookies, so it holds the seat)."""
    game = page.url.rsplit("/", 1)[1]
    answer = page.request.get(f"{base}/api/games/{game}?board=0")
    assert answer.ok, answer.text()
    found: dict[str, Any] = answer.json()
    return found


@pytest.mark.parametrize("map_name", ["newyork", "nederland"])
def test_a_whole_game_by_clicks(server: str, page: Any, map_name: str) -> None:
    start(page, server, map_name)
    assert page.locator("#board svg g#route-0").count() == 1
    # The status line asks what the server asks ("Choose your starting tickets").
    asked = api_status(page, server).get("prompt") or "Your turn"
    assert page.locator("#status").inner_text() == asked
    # The tickets offered start unticked (the person decides), and the keep
    # button waits for enough of them.
    keep = page.locator("#keep")
    assert keep.locator("input[type=checkbox]").count() > int(keep.get_attribute("data-min-keep"))
    assert keep.locator("input:checked").count() == 0
    assert keep.locator("button.move").is_disabled()
    word = {"newyork": "taxis", "nederland": "trains"}[map_name]  # the map's own (issue 34)
    assert page.locator("#seats th").all_inner_texts()[-1] == word
    made = play_by_clicks(page, most=400, reload_at=6)
    assert page.evaluate("document.body.dataset.over") == "true", f"not over after {made}"
    assert page.locator("#status").inner_text().startswith("Game over")
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
    # The game over: every player's whole sheet, shown over the board, equal
    # to final_scores of the recorded game, line by line; the seats' scores
    # the same totals; the winners marked.
    *_, last = ttr_core.replay(record)
    final = ttr_core.final_scores(last)
    assert page.locator("#end").is_visible()
    assert_sheets_shown(page, final)
    # The sheets close to show the board, and open again.
    assert page.locator("#end-open").is_hidden()
    page.click("#end-close")
    assert page.locator("#end").is_hidden() and page.locator("#board svg").is_visible()
    page.click("#end-open")
    assert page.locator("#end").is_visible() and page.locator("#end-open").is_hidden()
    # The replay: step through it.
    page.click("#replay-game")
    page.wait_for_url("**/replay/*")
    page.wait_for_function("document.body.dataset.step === '0' && " + READY)
    page.click("#next")
    page.wait_for_function("document.body.dataset.step === '1' && " + READY)
    assert page.locator("#replay-line").inner_text().startswith("Player 1 kept ")
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


def assert_sheets_shown(page: Any, final: Any) -> None:
    """The page's game-over sheets (read from the DOM: data-seat, data-total,
    each line's data-label and data-points) and its seats table are ``final``."""
    shown = page.evaluate(
        """() => [...document.querySelectorAll('#final-sheets .sheet')].map((sheet) => ({
            seat: Number(sheet.dataset.seat),
            total: Number(sheet.dataset.total),
            won: sheet.classList.contains('won'),
            lines: [...sheet.querySelectorAll('tr.line')].map(
                (row) => [row.dataset.label, Number(row.dataset.points)]),
            texts: [...sheet.querySelectorAll('tr.line td.label')].map((td) => td.innerText),
        }))"""
    )
    assert [sheet["seat"] for sheet in shown] == [sheet.player for sheet in final.sheets]
    for sheet, expected in zip(shown, final.sheets, strict=True):
        assert sheet["total"] == expected.total, sheet
        assert sheet["won"] == (expected.player in final.winners)
        assert sheet["lines"] == [[line.label, line.points] for line in expected.lines]
        # What people read is the label itself (and what it counts beneath it).
        for text, line in zip(sheet["texts"], expected.lines, strict=True):
            assert text.startswith(line.label) and all(d in text for d in line.detail)
    scores = page.evaluate(
        "() => [...document.querySelectorAll('#seats tr[data-seat]')].map("
        "(row) => [Number(row.dataset.seat), Number(row.dataset.score)])"
    )
    assert scores == [[sheet.player, sheet.total] for sheet in final.sheets]


#: Where the board must be seen whole, and what the page's parts measure.
VIEWPORTS = ((1366, 768), (1400, 1000), (1920, 1080))
MEASURE = """() => {
  const box = (node) => { const r = node.getBoundingClientRect();
                          return [r.left, r.top, r.right, r.bottom]; };
  const svg = document.querySelector('#board svg');
  return {
    svg: box(svg),
    board: box(svg.querySelector('rect.board')),
    legend: box(svg.querySelector('g.panel')),
    side: box(document.querySelector('#side')),
    scrollHeight: document.documentElement.scrollHeight,
    scrollWidth: document.documentElement.scrollWidth,
    width: innerWidth,
    height: innerHeight,
  };
}"""


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_every_board_fits_the_window(server: str, browser: Any, viewport: tuple[int, int]) -> None:
    """Every built-in map's board and its legend are seen whole without
    scrolling the page, at the start and a few moves in (the legend grows
    with the tickets kept); the board is drawn as large as its column allows
    (as tall as the window, or as wide as the room beside the side panel)."""
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    page = context.new_page()
    try:
        for map_name in MAPS:
            made = page.request.post(server + "/api/games", data={"map": map_name, "players": 2})
            assert made.ok, made.text()
            page.goto(server + made.json()["url"])
            page.wait_for_function(READY)
            for moment in ("start", "later"):
                if moment == "later":
                    play_by_clicks(page, most=4)
                m = page.evaluate(MEASURE)
                where = f"{map_name} at {width}x{height}, {moment}: {m}"
                for part in ("svg", "board", "legend"):
                    left, top, right, bottom = m[part]
                    assert left >= 0 and top >= 0, where
                    assert right <= m["width"] + 0.5 and bottom <= m["height"] + 0.5, where
                assert m["scrollHeight"] <= m["height"], where  # no page scroll
                assert m["scrollWidth"] <= m["width"], where
                # Large: the drawing fills its column's height or its width.
                left, top, right, bottom = m["svg"]
                assert (
                    bottom - top >= (m["height"] - top) * 0.9
                    or right - left >= (m["side"][0] - 16) * 0.9
                ), where
    finally:
        context.close()


def test_a_phone_in_portrait_scrolls(server: str, browser: Any) -> None:
    """A phone in portrait: the board as wide as the screen, the panel under it,
    the page scrolls; nothing wider than the screen."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    try:
        start(page, server, "europe")
        m = page.evaluate(MEASURE)
        assert m["scrollWidth"] <= m["width"], m
        assert m["svg"][2] <= m["width"] and m["svg"][2] - m["svg"][0] >= m["width"] * 0.8, m
        assert m["side"][1] >= m["svg"][3] - 1, m  # the panel below the board
    finally:
        context.close()


def test_no_request_is_answered_404(served: Served, page: Any) -> None:
    """The start page, a game page and a replay load without a 404 (the icon is
    inline: no /favicon.ico asked)."""
    before = len(served.seen)
    start(page, served.url, "newyork")
    page.reload()
    page.wait_for_function(READY)
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert icon is not None and icon.startswith("data:image/svg+xml,")
    seen = served.seen[before:]
    assert seen and not [s for s in seen if s[2] == 404 or s[1] == "/favicon.ico"], seen


def test_a_short_route_is_hit_beside_it(server: str, page: Any) -> None:
    """Nederland's one-space routes (Amsterdam–Utrecht): a click a few pixels
    beside the drawn car, on the bare board, still picks the route; a click on
    the bare board away from everything picks nothing; a move clears the pick."""
    start(page, server, "nederland")
    click_first_move(page)  # the starting tickets: then routes may be claimed
    found = page.evaluate(
        """() => {
      for (const group of document.querySelectorAll('#board g.claimable[data-length="1"]')) {
        const car = group.querySelector('polygon.car').getBoundingClientRect();
        const line = document.querySelector(`#board .hits line[data-route="${group.id.slice(6)}"]`);
        const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((a) => line[a].baseVal.value);
        // Across the route, in screen pixels: beside the car, off its outline.
        const m = line.getScreenCTM();
        const along = [x2 - x1, y2 - y1], size = Math.hypot(...along);
        const normal = [-along[1] / size, along[0] / size];
        const cx = (car.left + car.right) / 2, cy = (car.top + car.bottom) / 2;
        for (const side of [1, -1]) {
          for (let d = 4; d < 14; d++) {
            const x = cx + side * normal[0] * d, y = cy + side * normal[1] * d;
            const at = document.elementFromPoint(x, y);
            const inCar = x >= car.left && x <= car.right && y >= car.top && y <= car.bottom;
            if (!inCar && at === line) return { route: Number(group.id.slice(6)), x, y,
              name: group.querySelector('title').textContent.split(':')[0] };
          }
        }
      }
      return null;
    }"""
    )
    assert found is not None, "no spot beside a one-space route picks it"
    page.mouse.click(found["x"], found["y"])
    title = page.locator("#selection .group-title").first
    assert found["name"] in title.inner_text()
    assert page.locator(f"#board g#route-{found['route']}.selected").count() == 1
    # The bare board: away from every route and city.
    bare = page.evaluate(
        """() => { const r = document.querySelector('#board rect.board').getBoundingClientRect();
      for (let y = r.top + 3; y < r.bottom; y += 7) for (let x = r.left + 3; x < r.right; x += 7) {
        if (document.elementFromPoint(x, y).matches('rect.board')) return [x, y]; }
      return null; }"""
    )
    assert bare is not None
    page.mouse.click(*bare)
    assert page.locator("#selection").inner_text() == ""
    assert page.locator("#board .selected").count() == 0
    # A pick, then a move: the pick is gone.
    page.mouse.click(found["x"], found["y"])
    assert page.locator("#selection button.move").count() >= 1
    click_and_wait(page, page.locator("#display button.deck"))
    assert page.locator("#selection").inner_text() == ""


def test_a_whole_europe_game_by_clicks(server: str, page: Any) -> None:
    """Europe from the first ticket to the game over, by clicks only: stations
    built by a click on a city, tunnels claimed and paid or given up, routes
    picked on the board; no engine words on the page at any point (issue 34),
    and the sheets at the end are final_scores."""
    from tests.test_front_end_words import REPR

    start(page, server, "europe")
    made = built = answered = 0
    while made < 500 and page.evaluate("document.body.dataset.over") != "true":
        shown = page.locator("#side").inner_text()
        found = REPR.search(shown)
        assert found is None, f"engine words {found.group(0)!r} on the page"
        cities = page.locator("#board g.location.clickable > circle")
        tunnel = page.locator("#moves button.move", has_text="Give up the tunnel")
        if tunnel.count():
            answered += 1
            click_and_wait(page, page.locator("#moves button.move").first)  # pay, if it can
        elif built < 2 and made % 9 == 8 and cities.count():
            cities.first.dispatch_event("click")
            page.locator("#selection button.move").first.wait_for()
            click_and_wait(page, page.locator("#selection button.move").first)
            built += 1
        elif not (made % 3 == 2 and click_a_route(page, prefer=".outlined")):
            click_first_move(page)
        made += 1
    assert page.evaluate("document.body.dataset.over") == "true", f"not over after {made}"
    events = page.locator("#events li").all_inner_texts()
    assert built and any(line.startswith("You built a station") for line in events)
    assert answered and any("for the tunnel" in line for line in events)
    record = ttr_core.from_jsonl(
        page.request.get(server + page.locator("#save").get_attribute("href")).text()
    )
    *_, last = ttr_core.replay(record)
    assert_sheets_shown(page, ttr_core.final_scores(last))
    found = REPR.search(page.locator("body").inner_text())
    assert found is None, f"engine words {found.group(0)!r} at the game over"


def test_stations_and_a_tunnel_by_clicks(server: str, page: Any) -> None:
    """Europe: building a station is "click a city, then pay" — the station
    moves are not listed one by one but as a heading, a hint and a list of
    cities; a city on the board shows its ways to pay. A tunnel claimed by
    clicks shows what its three cards turned up and the extra cost above the
    moves, then pay or give up under the tunnel's heading."""
    start(page, server, "europe")
    click_first_move(page)  # the starting tickets
    status = api_status(page, server)
    stations = [m for m in status["moves"] if m.get("location") is not None]
    assert stations, "no station move with its location (status fields missing?)"
    group = stations[0]["group"]
    picker = page.locator("#moves .places")
    assert picker.count() == 1 and group in picker.inner_text()
    assert "Click a city on the board" in picker.inner_text()
    listed = page.locator("#moves button.move").all_inner_texts()
    assert not any(m["label"] in listed for m in stations)  # none listed as a button
    # Every city with a station move is marked clickable, and only those.
    places = {m["location"] for m in stations}
    marked = page.evaluate(
        "() => [...document.querySelectorAll('#board g.location.clickable')]"
        ".map((g) => Number(g.id.slice(9)))"
    )
    assert set(marked) == places
    # The keyboard's way: the list of cities selects one as a click does.
    where = sorted(places)[0]
    picker.locator("select").select_option(str(where))
    choices = [m for m in stations if m["location"] == where]
    assert page.locator("#selection button.move").count() == len(choices)
    # The board's way: click the city's dot, then pay.
    page.locator("#board").click(position={"x": 1, "y": 1})  # the bare board: nothing picked
    assert page.locator("#selection").inner_text() == ""
    page.locator(f"#board g#location-{where} > circle").dispatch_event("click")
    buttons = page.locator("#selection button.move")
    assert buttons.all_inner_texts() == [m["choice"] for m in choices]
    assert choices[0]["place"] in page.locator("#selection .group-title").inner_text()
    click_and_wait(page, buttons.first)
    events = page.locator("#events li").all_inner_texts()
    assert any(line.startswith("You built a station") for line in events), events
    # A tunnel: claim tunnels (outlined routes) until one asks for more cards.
    for _ in range(150):
        if page.evaluate("document.body.dataset.over") == "true":
            break
        pending = page.locator("#moves button.move", has_text="Give up the tunnel")
        if pending.count():
            situation = page.locator("#situation li").all_inner_texts()
            assert any("turned up" in line for line in situation), situation
            status = api_status(page, server)
            assert status["situation"] == situation
            tunnel = [m for m in status["moves"] if m["kind"] != "claim"]
            assert tunnel and len({m["route"] for m in tunnel}) == 1
            heading = tunnel[0]["group"]
            assert heading in page.locator("#moves .group-title").all_inner_texts()
            assert page.locator(f"#board g#route-{tunnel[0]['route']}.pending").count() == 1
            click_and_wait(page, page.locator("#moves button.move").first)
            return
        if not click_a_route(page, prefer=".outlined"):
            click_first_move(page)
    pytest.fail("no tunnel asked for more cards")


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
    assert ply(page) == at
    assert page.locator("#status").inner_text() == (
        api_status(page, served.url).get("prompt") or "Your turn"
    )
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
        shares = page.locator("#moves button.move", has_text="Take share")
        if shares.count():
            assert page.locator("#moves button.move", has_text="Take no share").count() == 1
            click_and_wait(page, shares.first)
            break
        if not click_a_route(page):
            click_first_move(page)
    else:
        pytest.fail("no share offered in 200 moves")
    events = page.locator("#events li").all_inner_texts()
    assert any(line.startswith("You took share") for line in events), "\n".join(events)

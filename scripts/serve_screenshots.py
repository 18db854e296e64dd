"""Screenshots of ``ttr serve`` in headless Chromium at 1366×768, for docs/serve.md.

    python scripts/serve_screenshots.py                 # docs/pictures/serve-*.png
    python scripts/serve_screenshots.py --maps usa --out /tmp/pictures
    python scripts/serve_screenshots.py --only maps     # or: over, europe

Writes, into ``--out``:

- ``serve-<map>.png`` for every built-in map: a seeded two-player game
  against the ``route`` bot, played for a few moves by clicks as
  tests/test_serve_browser.py plays it (the first listed move, the fewest
  tickets it must keep ticked, now and then a route picked on the board);
- ``serve-game-over.png``: a whole game of New York played so, its end: every
  player's score sheet over the board;
- ``serve-europe-station.png``: Europe, a city clicked, the ways to pay for a
  station there; ``serve-europe-tunnel.png``: a tunnel claimed by clicks
  whose turned-up cards ask for more, before paying or giving up.

The page is screenshot as the window shows it (the whole board fits).
Needs the ``serve`` extra, Playwright (the ``test`` extra; no browser
download) and Chromium: Debian's ``chromium``, or the binary named by
``--chromium`` or the ``CHROMIUM`` environment variable.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import ttr_core

ROOT = Path(__file__).resolve().parents[1]
MAPS = tuple(ttr_core.available_maps())
READY = "document.body.dataset.state === 'ready'"
#: The window: the common laptop screen the board must fit without scrolling.
WIDTH, HEIGHT = 1366, 768


def start_server(seed: int) -> tuple[Any, threading.Thread, str]:
    """A ``ttr serve`` app on a free port, running in a thread."""
    import uvicorn

    from ttr_core.serve.app import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(create_app(seed=seed), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise SystemExit("uvicorn did not start")
        time.sleep(0.05)
    return server, thread, f"http://127.0.0.1:{port}"


def over(page: Any) -> bool:
    return bool(page.evaluate("document.body.dataset.over") == "true")


def click(page: Any, button: Any) -> None:
    """Click a move and wait for the status after it (and the bots' moves)."""
    before = page.evaluate("document.body.dataset.ply")
    button.click()
    page.wait_for_function(f"b => document.body.dataset.ply !== b && {READY}", arg=before)


def first_move(page: Any) -> None:
    """The first listed move; a ticket choice first ticks the fewest tickets
    it must keep (the page ticks none)."""
    keep = page.locator("#keep")
    if keep.count():
        need = int(keep.get_attribute("data-min-keep"))
        boxes = keep.locator("input[type=checkbox]")
        for i in range(boxes.count()):
            if keep.locator("input:checked").count() >= need:
                break
            boxes.nth(i).check()
    click(page, page.locator("#moves button.move").first)


def a_route(page: Any, prefer: str = "", nth: int = 0) -> bool:
    """A claimable route picked on the board (one matching ``prefer`` if any;
    the ``nth`` of them, counting round), then its first way to pay; whether
    there was one."""
    routes = page.locator("#board g.claimable" + prefer)
    if prefer and not routes.count():
        routes = page.locator("#board g.claimable")
    if not routes.count():
        return False
    routes.nth(nth % routes.count()).dispatch_event("click")
    click(page, page.locator("#selection button.move").first)
    return True


def play(page: Any, moves: int) -> None:
    for made in range(moves):
        if over(page):
            return
        if not (made % 3 == 2 and a_route(page)):
            first_move(page)


def new_game(page: Any, base: str, map_name: str) -> None:
    made = page.request.post(base + "/api/games", data={"map": map_name, "players": 2})
    if not made.ok:
        raise SystemExit(f"{map_name}: {made.text()}")
    page.goto(base + made.json()["url"])
    page.wait_for_function(READY)


def shoot(page: Any, path: Path) -> None:
    page.screenshot(path=str(path))
    print(path)


def maps(page: Any, base: str, out: Path, names: list[str], moves: int) -> None:
    for map_name in names:
        new_game(page, base, map_name)
        play(page, moves)
        shoot(page, out / f"serve-{map_name}.png")


def game_over(page: Any, base: str, out: Path) -> None:
    new_game(page, base, "newyork")
    play(page, 1000)
    if not over(page):
        raise SystemExit("newyork: the game did not end")
    shoot(page, out / "serve-game-over.png")


def europe(page: Any, base: str, out: Path) -> None:
    new_game(page, base, "europe")
    first_move(page)  # the starting tickets
    # A few moves (a hand to pay with, a route or two claimed), then a station:
    # a city clicked on the board, its ways to pay shown.
    cities = page.locator("#board g.location.clickable")
    for made in range(40):
        if made >= 6 and cities.count():
            break
        if not (made % 2 and a_route(page)):
            first_move(page)
    else:
        raise SystemExit("europe: no station to build")
    cities.first.locator(":scope > circle").dispatch_event("click")
    page.locator("#selection button.move").first.wait_for()
    shoot(page, out / "serve-europe-station.png")
    click(page, page.locator("#selection button.move").first)
    # A tunnel: claim tunnels (outlined routes) until one asks for more cards
    # that the hand can pay (one the hand cannot pay is given up).
    given_up = 0
    for _ in range(300):
        if over(page):
            break
        give_up = page.locator("#moves button.move", has_text="Give up the tunnel")
        if give_up.count():
            if page.locator("#moves button.move", has_text=re.compile(r"^Pay \d")).count():
                shoot(page, out / "serve-europe-tunnel.png")
                return
            click(page, give_up)
            given_up += 1  # then another tunnel
        elif not a_route(page, ".outlined", given_up):
            first_move(page)
    raise SystemExit("europe: no tunnel asked for more cards")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--maps", default=",".join(MAPS), help="comma-separated map names")
    parser.add_argument("--out", default=str(ROOT / "docs" / "pictures"), help="the folder")
    parser.add_argument("--moves", type=int, default=16, help="moves clicked before the picture")
    parser.add_argument(
        "--only", choices=("all", "maps", "over", "europe"), default="all", help="which pictures"
    )
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM"))
    args = parser.parse_args(argv)
    chromium = args.chromium or shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("no Chromium found: apt-get install -y chromium, or --chromium PATH", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    server, thread, base = start_server(args.seed)
    try:
        with sync_playwright() as playwright:
            sandbox = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
            browser = playwright.chromium.launch(executable_path=chromium, args=sandbox)
            context = browser.new_context(
                viewport={"width": WIDTH, "height": HEIGHT}, bypass_csp=True
            )
            page = context.new_page()
            if args.only in ("all", "maps"):
                maps(page, base, out, args.maps.split(","), args.moves)
            if args.only in ("all", "over"):
                game_over(page, base, out)
            if args.only in ("all", "europe"):
                europe(page, base, out)
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())

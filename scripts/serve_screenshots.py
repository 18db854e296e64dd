"""Screenshots of ``ttr serve`` in headless Chromium, one per built-in map.

    python scripts/serve_screenshots.py                 # docs/pictures/serve-<map>.png
    python scripts/serve_screenshots.py --maps usa --out /tmp/pictures

For each map a seeded two-player game against the ``route`` bot is started
on a ``ttr serve`` app (uvicorn on a free port, in a thread) and played for a
few moves by clicks, as tests/test_serve_browser.py plays it: the first listed
move, now and then a route picked on the board. The page is then screenshot.
Needs the ``serve`` extra, Playwright (the ``test`` extra; no browser
download) and Chromium: Debian's ``chromium``, or the binary named by
``--chromium`` or the ``CHROMIUM`` environment variable.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MAPS = ("newyork", "nederland", "usa", "amsterdam", "europe")
READY = "document.body.dataset.state === 'ready'"


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


def click(page: Any, button: Any) -> None:
    before = page.evaluate("document.body.dataset.ply")
    button.click()
    page.wait_for_function(f"b => document.body.dataset.ply !== b && {READY}", arg=before)


def play(page: Any, moves: int) -> None:
    for made in range(moves):
        if page.evaluate("document.body.dataset.over") == "true":
            return
        routes = page.locator("#board g.claimable")
        if made % 3 == 2 and routes.count():
            routes.first.dispatch_event("click")
            click(page, page.locator("#selection button.move").first)
        else:
            click(page, page.locator("#moves button.move").first)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--maps", default=",".join(MAPS), help="comma-separated map names")
    parser.add_argument("--out", default=str(ROOT / "docs" / "pictures"), help="the folder")
    parser.add_argument("--moves", type=int, default=16, help="moves clicked before the picture")
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
            context = browser.new_context(viewport={"width": 1400, "height": 900}, bypass_csp=True)
            page = context.new_page()
            for map_name in args.maps.split(","):
                made = page.request.post(base + "/api/games", data={"map": map_name, "players": 2})
                if not made.ok:
                    raise SystemExit(f"{map_name}: {made.text()}")
                page.goto(base + made.json()["url"])
                page.wait_for_function(READY)
                play(page, args.moves)
                path = out / f"serve-{map_name}.png"
                page.screenshot(path=str(path))
                print(path)
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())

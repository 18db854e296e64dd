"""Draw the built-in boards after a whole game, as SVG and as PNG screenshots.

    python scripts/board_pictures.py                  # docs/pictures/<map>.svg and .png
    python scripts/board_pictures.py --maps usa --width 1600 --out /tmp/pictures
    python scripts/board_pictures.py --no-png         # the SVG pictures only

For each map a seeded game is played to its end by ``route`` bots
(``ttr_core.agents``), with the map's own variants (Europe's tunnels, ferries
and stations are drawn as such), so that the board is full of claims, and
drawn with ``ttr_core.render.svg``. Each SVG is then opened in headless Chromium and
screenshot at its own size: what a browser really shows, fonts and all
(docs/pictures.md). Chromium is the Debian package ``chromium``
(``apt-get install -y chromium``), or the browser named by ``--chromium`` or
the ``CHROMIUM`` environment variable. With Pillow installed, each PNG is
reduced to 256 colours, a third of its size, with no visible change.

The SVG files are the same bytes on every run; the PNGs depend on the
browser's version and fonts.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import ttr_core
from ttr_core.agents import make_agent
from ttr_core.render import svg
from ttr_core.simulation import play_game

ROOT = Path(__file__).resolve().parents[1]
#: Players per map: as many as make a crowded board in a game of a few seconds.
PLAYERS = {
    "newyork": 3,
    "nederland": 4,
    "usa": 4,
    "amsterdam": 3,
    "europe": 5,
    "switzerland": 3,
    "nordiccountries": 3,
    "pennsylvania": 4,
    "india": 3,
}
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: Flags that run Chromium headless here, with nothing fetched from the network.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
)


def final_board(map_name: str, seed: int) -> ttr_core.GameState:
    """The last state of a seeded game between ``route`` bots on ``map_name``."""
    players = PLAYERS.get(map_name, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        state = ttr_core.new_game(map_name, players, seed=seed)
    agents = [make_agent("route") for _ in range(players)]
    return play_game(state, agents, seed=seed).state


def find_chromium(given: str | None) -> str:
    """The browser to run: ``given``, ``$CHROMIUM``, or the first one on the PATH."""
    for name in (given, os.environ.get("CHROMIUM"), *BROWSERS):
        if name and (found := shutil.which(name)):
            return found
    raise SystemExit(
        "board_pictures: no Chromium found; install it (apt-get install -y chromium), "
        "name it with --chromium PATH, or use --no-png"
    )


def screenshot(browser: str, picture: Path, png: Path) -> None:
    """A PNG of the SVG file ``picture`` as headless Chromium shows it, at its own size."""
    head = picture.read_text(encoding="utf-8")[:1000]
    size = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', head)
    if size is None:
        raise SystemExit(f"board_pictures: {picture} has no width and height")
    width, height = size.groups()
    with tempfile.TemporaryDirectory(prefix="ttr-chromium-") as profile:
        command = [
            browser,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--screenshot={png}",
            f"--window-size={width},{height}",
            picture.resolve().as_uri(),
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=180)
    if done.returncode != 0 or not png.is_file():
        raise SystemExit(f"board_pictures: Chromium failed on {picture}:\n{done.stderr[-2000:]}")


def shrink(png: Path) -> bool:
    """``png`` reduced to 256 colours, if Pillow is installed (``False`` if not)."""
    try:
        from PIL import Image
    except ImportError:
        return False
    with Image.open(png) as image:
        reduced = image.convert("RGB").quantize(
            colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
        )
    reduced.save(png, optimize=True)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--maps",
        default=",".join(PLAYERS),
        help="comma-separated maps (default: the five built-in maps)",
    )
    parser.add_argument("--out", default=str(ROOT / "docs" / "pictures"), help="output folder")
    parser.add_argument("--width", type=int, default=1200, help="picture width in pixels")
    parser.add_argument("--seed", type=int, default=3, help="seed of every game (default: 3)")
    parser.add_argument("--chromium", help="the browser to run (default: chromium on the PATH)")
    parser.add_argument("--no-png", action="store_true", help="write the SVG pictures only")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    browser = None if args.no_png else find_chromium(args.chromium)
    for map_name in (m.strip() for m in args.maps.split(",") if m.strip()):
        start = time.perf_counter()
        state = final_board(map_name, args.seed)
        picture = out / f"{map_name}.svg"
        picture.write_text(svg(state, width=args.width), encoding="utf-8")
        note = f"{picture} ({picture.stat().st_size // 1024} kB)"
        if browser is not None:
            png = picture.with_suffix(".png")
            screenshot(browser, picture, png)
            reduced = " in 256 colours" if shrink(png) else ""
            note += f", {png.name} ({png.stat().st_size // 1024} kB{reduced})"
        print(f"{map_name}: {note}, {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

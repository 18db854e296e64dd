"""The ``ttr serve`` command: play against the bots in the browser (docs/serve.md).

Importing this module imports neither Starlette nor uvicorn: without the
``serve`` extra the command says what to install.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import ttr_core
from ttr_core.agents import agent_names

__all__ = ["INSTALL", "main"]

#: What to install when the ``serve`` extra is missing.
INSTALL = (
    "ttr serve needs the 'serve' extra (Starlette and uvicorn): "
    "pip install '.[serve]' in a clone of ttr-core "
    "(pip install 'ttr-core[serve]' once it is on the package index)"
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ttr serve",
        description="Play Ticket to Ride against the built-in bots in the browser: "
        "a small web app on 127.0.0.1 (docs/serve.md). Games are kept in memory; "
        "a game's address resumes it after a reload.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--map", default="newyork", help="the map a new game offers first (default newyork)"
    )
    parser.add_argument(
        "--players", type=int, default=2, help="seats, you and the bots (default 2)"
    )
    parser.add_argument(
        "--bots",
        default="route",
        help=f"the bots, comma-separated, one per bot seat in turn: {', '.join(agent_names())} "
        "(default route)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="play every game from this seed (for tests and pictures; "
        "default: a fresh secret seed per game)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ttr serve`` until interrupted; the exit status."""
    args = _parser().parse_args(argv)
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    unknown = [name for name in bots if name not in agent_names()]
    if not bots or unknown:
        print(
            f"ttr serve: --bots takes names among {', '.join(agent_names())}, not {args.bots!r}",
            file=sys.stderr,
        )
        return 2
    if args.map not in ttr_core.available_maps():
        print(
            f"ttr serve: --map must be one of {', '.join(ttr_core.available_maps())}, "
            f"not {args.map!r}",
            file=sys.stderr,
        )
        return 2
    if not 0 <= args.port <= 65535:
        print(f"ttr serve: --port must be from 0 to 65535, not {args.port}", file=sys.stderr)
        return 2
    try:
        # Checks the player count (and the seed) as a game would.
        ttr_core.new_game(args.map, args.players, seed=args.seed if args.seed is not None else 0)
    except ttr_core.TtrError as exc:
        print(f"ttr serve: {exc}", file=sys.stderr)
        return 2
    try:
        import uvicorn

        from .app import create_app
    except ImportError:
        print(INSTALL, file=sys.stderr)
        return 2
    app = create_app(map=args.map, players=args.players, bots=bots, seed=args.seed)
    print(f"ttr serve: open http://{args.host}:{args.port}/ (Ctrl-C stops)", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0

"""The ``ttr serve`` command: play against the bots in the browser (docs/serve.md).

Importing this module imports neither Starlette nor uvicorn: without the
``serve`` extra the command says what to install. The app answers only at the
address it serves (``--host``, plus each ``--allow-host``); a ``--host`` other
than a loopback address is warned of, since ttr serve has no accounts. The
games are kept in a SQLite file (``--db``, by default in the user's data
directory; ``--no-db``: in memory only) and go on after a restart.
"""

from __future__ import annotations

import argparse
import ipaddress
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import ttr_core
from ttr_core.agents import agent_names

if TYPE_CHECKING:
    from ttr_core.serve.games import GameStore

__all__ = ["INSTALL", "host_warning", "main"]

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
        "a small web app on 127.0.0.1 (docs/serve.md). Games are kept in a file "
        "(--db) and go on after a restart; a game's address resumes it after a reload.",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; any other than loopback lets "
        "anyone on the network play, with no accounts)",
    )
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
        "--allow-host",
        action="append",
        default=[],
        metavar="HOST[:PORT]",
        help="also answer requests naming this address (the Host header): the name "
        "others reach this machine by, or a tunnel's localhost:PORT; repeatable",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="play every game from this seed (for tests and pictures; "
        "default: a fresh secret seed per game)",
    )
    kept = parser.add_mutually_exclusive_group()
    kept.add_argument(
        "--db",
        metavar="PATH",
        default=None,
        help="the SQLite file the games are kept in, so that they go on after a restart "
        "(default: games.sqlite3 in the user's data directory, "
        f"here {_default_db()})",
    )
    kept.add_argument(
        "--no-db",
        action="store_true",
        help="keep the games in memory only: a restart ends them",
    )
    return parser


def _default_db() -> str:
    from ttr_core.serve.saved import default_path

    return str(default_path())


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: it may resolve anywhere
        return False


def _wildcard(host: str) -> bool:
    try:
        return not host or ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def host_warning(host: str) -> str | None:
    """The warning printed for listening on ``host``, or ``None`` for a loopback
    address (only this machine's own programs and pages reach it)."""
    if _loopback(host):
        return None
    return (
        f"ttr serve: warning: --host {host[:100]!r} is not a loopback address: anyone "
        "on the network who can reach this machine can open ttr serve, start games "
        "and play them. There are no accounts or passwords and the connection is "
        "plain HTTP; use it only on a network you trust"
        + (
            " (and --allow-host NAME for each address others type to reach it)."
            if _wildcard(host)
            else "."
        )
    )


def _allowed_hosts(host: str, more: Sequence[str]) -> list[str]:
    """The Host names the app answers to: the loopback names when listening on
    loopback or on every address, else the address listened on; then ``more``."""
    if host in ("localhost", "127.0.0.1", "::1") or _wildcard(host):
        from ttr_core.serve.app import LOOPBACK_HOSTS

        return [*LOOPBACK_HOSTS, *more]
    return [host, *more]


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

        from ttr_core.serve.app import create_app
    except ImportError:
        print(INSTALL, file=sys.stderr)
        return 2
    from ttr_core.serve.games import GameStore

    db = None if args.no_db else args.db if args.db is not None else _default_db()
    try:
        store = GameStore(map=args.map, players=args.players, bots=bots, seed=args.seed, db=db)
    except ttr_core.DataError as exc:  # not a games file, or one in use
        print(f"ttr serve: --db: {exc}", file=sys.stderr)
        return 2
    try:
        app = create_app(store, allowed_hosts=_allowed_hosts(args.host, args.allow_host))
    except ttr_core.ArgumentError as exc:  # a --host or --allow-host that is no host name
        store.close()
        print(f"ttr serve: --host, --allow-host: {exc}", file=sys.stderr)
        return 2
    warning = host_warning(args.host)
    if warning is not None:
        print(warning, file=sys.stderr)
    shown = "127.0.0.1" if _wildcard(args.host) else args.host
    shown = f"[{shown}]" if ":" in shown else shown
    print(_where_kept(store), file=sys.stderr)
    print(f"ttr serve: open http://{shown}:{args.port}/ (Ctrl-C stops)", file=sys.stderr)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    finally:
        store.close()
    return 0


def _where_kept(store: GameStore) -> str:
    """The line telling where the games are kept, and how many went on."""
    if store.db is None:
        return "ttr serve: games are kept in memory only (--no-db): a restart ends them"
    playing, finished = store.resumed
    return (
        f"ttr serve: games are kept in {store.db}"
        + (f"; going on with {playing} being played" if playing else "")
        + (f" ({finished} finished)" if finished else "")
    )

"""``ttr simulate``: many games between bots, on local cores or a Dask cluster.

    ttr simulate --map newyork --players 2 --agents route,random --games 20000
    ttr simulate --map usa --players 4 --agents hungry,route,long,onestep \\
        --games 100000 --workers 8 --out games.parquet --records games.jsonl
    ttr simulate ... --scheduler tcp://10.0.0.5:8786     # a Dask cluster

Prints a progress bar on a terminal (with tqdm: ``pip install '.[sim]'`` in a clone of ttr-core)
and the summary of :func:`ttr_core.simulation.format_summary` at the end.

SIGTERM stops it as Ctrl-C does: the workers are ended, the files written so far
are left as ``FILE.partial`` (a complete file is renamed to ``FILE`` only at the
end), and it exits with status 143 (130 for Ctrl-C) and a one-line message.
See docs/bots.md.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import threading
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from types import FrameType
from typing import IO, Any

from ttr_core.agents import AGENTS
from ttr_core.cli.arguments import _parse_options, add_game_arguments
from ttr_core.errors import GeneratedTicketsWarning, TtrError
from ttr_core.mapfiles.decks import board_with_tickets
from ttr_core.mapfiles.finding import load_map
from ttr_core.model.board import Board
from ttr_core.simulation import PARTIAL_SUFFIX, GameResult, TableWriter, format_summary, simulate

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ttr simulate",
        description="Play many games between bots and summarise them: win rates per seat and "
        "agent with 95% intervals, scores, game length, tickets, how games ended, the routes "
        "claimed most often and the failure states reached (docs/bots.md).",
    )
    add_game_arguments(parser, options_listed_by="ttr --list")
    parser.add_argument(
        "--agents",
        default="random",
        help="comma-separated agents, repeated to fill the seats (default: random); "
        f"one of: {', '.join(AGENTS)}",
    )
    parser.add_argument("--games", type=int, default=1000, help="games to play (default: 1000)")
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the simulation's seed; game i plays a seed derived from it and i (default: 0)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        help="local worker processes (default: every core; 1 plays in this process)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on the Dask cluster of this scheduler "
        "(pip install '.[dask]' in a clone of ttr-core)",
    )
    parser.add_argument(
        "--out",
        metavar="FILE",
        help="write the per-game table, one row per seat of each game: .csv, or .parquet "
        f"(needs pyarrow); written as FILE{PARTIAL_SUFFIX} and renamed to FILE only when "
        f"every game is in, so a run cut short leaves only FILE{PARTIAL_SUFFIX}",
    )
    parser.add_argument(
        "--records",
        metavar="FILE",
        help=f"write every game's JSON record, one per line (as FILE{PARTIAL_SUFFIX} "
        "until complete, like --out)",
    )
    parser.add_argument(
        "--fixed-seats",
        action="store_true",
        help="keep the agents in the seats given (default: the lineup turns one seat a game)",
    )
    parser.add_argument("--chunk-size", type=int, help="games sent to a worker at a time")
    parser.add_argument(
        "--top-routes", type=int, default=10, help="routes listed in the summary (default: 10)"
    )
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "--progress",
        action="store_true",
        default=None,
        help="show the progress bar (default: on a terminal)",
    )
    shown.add_argument(
        "--no-progress", dest="progress", action="store_false", help="no progress bar"
    )
    parser.add_argument(
        "--list-agents", action="store_true", help="list the agents and what they do; then exit"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ttr simulate`` with ``argv`` (the arguments after ``simulate``); returns
    the exit status: 0, or 2 for arguments or a configuration that cannot be run."""
    args = _parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    if args.list_agents:
        for name, agent in AGENTS.items():
            print(f"{name:<8} {agent.summary}")
        return 0
    if args.games < 1 or (args.workers is not None and args.workers < 1):
        return _fail("--games and --workers must be at least 1")
    if args.top_routes < 0:
        return _fail("--top-routes must be at least 0")
    if args.workers is not None and args.scheduler is not None:
        return _fail("give --workers (local processes) or --scheduler (a Dask cluster), not both")
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    variants = None
    if args.variants is not None:
        variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    outputs: _Outputs | None = None
    try:
        options = _parse_options(args.option)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", GeneratedTicketsWarning)
            board = load_map(args.map)
            if args.tickets is not None:
                board = board_with_tickets(board, args.tickets)
        progress = sys.stderr.isatty() if args.progress is None else args.progress
        if progress and not _has_tqdm():
            print(
                "ttr simulate: no progress bar: it needs tqdm (pip install tqdm, or the "
                "'sim' extra: pip install '.[sim]' in a clone of ttr-core)",
                file=sys.stderr,
            )
        with _sigterm_stops(), _Outputs(args.out, args.records, board) as outputs:
            result = simulate(
                board if args.tickets is not None else args.map,
                args.players,
                agents,
                args.games,
                seed=args.seed,
                workers=args.workers,
                scheduler=args.scheduler,
                variants=variants,
                options=options,
                rotate=not args.fixed_seats,
                records=args.records is not None,
                on_game=outputs.add if outputs.wanted else None,
                progress=progress,
                chunk_size=args.chunk_size,
            )
    except (TtrError, OSError, ImportError) as exc:
        return _fail(str(exc) + _left(outputs))
    except KeyboardInterrupt as exc:
        # The pool has ended its workers by now (ttr_core.simulation.running._run_pool).
        stopped = isinstance(exc, _Terminated)
        what = "stopped by SIGTERM" if stopped else "interrupted"
        print(f"ttr simulate: {what}{_left(outputs)}", file=sys.stderr)
        return 128 + signal.SIGTERM if stopped else 130
    print(format_summary(result.summary, top_routes=args.top_routes))
    where = {
        "local": "in this process",
        "processes": f"on {result.workers} worker processes",
        "dask": f"on a Dask cluster ({result.workers} worker threads)",
    }[result.scheduler]
    print(
        f"\n{result.summary.games:,} games in {result.seconds:.1f} s "
        f"({result.games_per_second:,.0f} games/s) {where}"
    )
    if args.out:
        print(f"per-game table: {args.out}")
    if args.records:
        print(f"game records: {args.records}")
    return 0


def _has_tqdm() -> bool:
    try:
        importlib.import_module("tqdm")
    except ImportError:
        return False
    return True


def _fail(message: str) -> int:
    print(f"ttr simulate: {message}", file=sys.stderr)
    return 2


def _left(outputs: _Outputs | None) -> str:
    """Where the games of a run cut short are, for its one-line message."""
    if outputs is None or not outputs.kept:
        return ""
    games = "1 game" if outputs.games == 1 else f"{outputs.games:,} games"
    return f"; the {games} finished are in {' and '.join(outputs.kept)}"


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so that it stops the run as Ctrl-C does."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


@contextmanager
def _sigterm_stops() -> Iterator[None]:
    """SIGTERM raises :class:`_Terminated` while the games run (only the main
    thread can take signals; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


class _Outputs:
    """The per-game table and the records file, written in game order under
    ``FILE.partial`` and renamed to their names only when the run is complete."""

    def __init__(self, table: str | None, records: str | None, board: Board) -> None:
        self.wanted = table is not None or records is not None
        self.games = 0
        #: The partial files a run cut short left behind.
        self.kept: list[str] = []
        self.table = None if table is None else TableWriter(table, board=board)
        self.records_path = records
        self.records: IO[str] | None = None
        if records is not None:
            try:
                self.records = open(records + PARTIAL_SUFFIX, "w", encoding="utf-8")  # noqa: SIM115
                with suppress(FileNotFoundError):
                    os.remove(records)  # an older file would pass for this one
            except OSError:
                self.abort()
                raise

    def __enter__(self) -> _Outputs:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: Any) -> None:
        if kind is None:
            self.close()
        else:
            self.abort()

    def add(self, game: GameResult) -> None:
        if self.table is not None:
            self.table.add(game)
        if self.records is not None and game.record is not None:
            self.records.write(game.record + "\n")
        self.games += 1

    def close(self) -> None:
        """Complete: the files get their names."""
        if self.table is not None:
            self.table.close()
        if self.records is not None:
            self.records.close()
            os.replace(self.records.name, str(self.records_path))

    def abort(self) -> None:
        """Cut short: the files stay partial, or go if no game reached them."""
        partial = []
        if self.table is not None:
            self.table.abort()
            partial.append(self.table.partial_path)
        if self.records is not None:
            self.records.close()
            partial.append(self.records.name)
        if self.games:
            self.kept = partial
            return
        for path in partial:
            with suppress(OSError):
                os.remove(path)

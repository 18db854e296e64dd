"""``ttr simulate``: many games between bots, on local cores or a Dask cluster.

    ttr simulate --map newyork --players 2 --agents route,random --games 20000
    ttr simulate --map usa --players 4 --agents hungry,route,long,onestep \\
        --games 100000 --workers 8 --out games.parquet --records games.jsonl
    ttr simulate ... --scheduler tcp://10.0.0.5:8786     # a Dask cluster

Prints a progress bar on a terminal (with tqdm: ``pip install 'ttr-core[sim]'``)
and the summary of :func:`ttr_core.simulation.format_summary` at the end.
See docs/bots.md.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from typing import IO, Any

from .agents import AGENTS
from .cli import _parse_options, add_game_arguments
from .errors import GeneratedTicketsWarning, TtrError
from .maploader import board_with_tickets, load_map
from .simulation import GameResult, TableWriter, format_summary, simulate

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
        help="run on the Dask cluster of this scheduler (pip install 'ttr-core[dask]')",
    )
    parser.add_argument(
        "--out",
        metavar="FILE",
        help="write the per-game table, one row per seat of each game: .csv, or .parquet "
        "(needs pyarrow)",
    )
    parser.add_argument(
        "--records", metavar="FILE", help="write every game's JSON record, one per line"
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
    try:
        options = _parse_options(args.option)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", GeneratedTicketsWarning)
            board = load_map(args.map)
            if args.tickets is not None:
                board = board_with_tickets(board, args.tickets)
        progress = sys.stderr.isatty() if args.progress is None else args.progress
        with _Outputs(args.out, args.records) as outputs:
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
        return _fail(str(exc))
    except KeyboardInterrupt:
        print("ttr simulate: interrupted", file=sys.stderr)
        return 130
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


def _fail(message: str) -> int:
    print(f"ttr simulate: {message}", file=sys.stderr)
    return 2


class _Outputs:
    """The per-game table and the records file, written in game order."""

    def __init__(self, table: str | None, records: str | None) -> None:
        self.wanted = table is not None or records is not None
        self.table = None if table is None else TableWriter(table)
        self.records: IO[str] | None = None
        if records is not None:
            try:
                self.records = open(records, "w", encoding="utf-8")  # noqa: SIM115
            except OSError:
                self.close()
                raise

    def __enter__(self) -> _Outputs:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def add(self, game: GameResult) -> None:
        if self.table is not None:
            self.table.add(game)
        if self.records is not None and game.record is not None:
            self.records.write(game.record + "\n")

    def close(self) -> None:
        if self.table is not None:
            self.table.close()
        if self.records is not None:
            self.records.close()

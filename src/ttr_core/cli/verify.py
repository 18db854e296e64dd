"""``ttr verify``: random games on a map, every invariant checked after every
action (:mod:`ttr_core.checking.verify`).
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence

from ttr_core.cli.arguments import _names, _parse_options
from ttr_core.errors import (
    GeneratedTicketsWarning,
    TtrError,
    told,
)
from ttr_core.mapfiles.finding import load_map


def _verify_parser() -> argparse.ArgumentParser:
    from ttr_core.checking.registry import invariant_names

    parser = argparse.ArgumentParser(
        prog="ttr verify",
        description="Play seeded games (at random, or by the built-in bots: --agents) with "
        "every rules invariant checked after every action (strict hook checks) and print what "
        "was found (docs/testing.md).",
        epilog="Invariants, for --only and --skip (the core's, then those of the installed "
        f"variants): {', '.join(invariant_names())}.",
    )
    parser.add_argument(
        "--map", default="newyork", help="map name or .toml path (default: newyork)"
    )
    parser.add_argument(
        "--variants",
        help="comma-separated variants to switch on (default: the map's own; '' for none)",
    )
    parser.add_argument(
        "--players",
        help="comma-separated player counts (default: every count the map and variants allow)",
    )
    parser.add_argument("--games", type=int, default=100, help="games to play (default: 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default: 0)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="VARIANT.NAME=VALUE",
        help="set a variant option (repeatable)",
    )
    parser.add_argument("--only", help="comma-separated invariants to check (default: all)")
    parser.add_argument("--skip", default="", help="comma-separated invariants not to check")
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes sharing the games (default: 1)"
    )
    parser.add_argument(
        "--agents",
        help="comma-separated agents playing the seats in turn, e.g. route,random (default: "
        "every seat at random; agents: random, hungry, route, long, onestep)",
    )
    parser.add_argument(
        "--records",
        action="store_true",
        help="print the JSON record of each game that broke an invariant",
    )
    return parser


def _verify(argv: Sequence[str]) -> int:
    from ttr_core.checking.verify import print_report, verify

    args = _verify_parser().parse_args(argv)
    if args.games < 1 or args.jobs < 1:
        print("ttr verify: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        players = None if args.players is None else [int(p) for p in _names(args.players) or []]
    except ValueError:
        print(f"ttr verify: --players takes whole numbers, not {args.players!r}", file=sys.stderr)
        return 2
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", GeneratedTicketsWarning)
            board = load_map(args.map)
        report = verify(
            board,
            _names(args.variants),
            players=players,
            games=args.games,
            seed=args.seed,
            options=_parse_options(args.option),
            only=_names(args.only),
            skip=_names(args.skip) or (),
            jobs=args.jobs,
            agents=_names(args.agents) or (),
        )
    except (TtrError, OSError, ValueError) as exc:
        print(f"ttr verify: {told(exc)}", file=sys.stderr)
        return 2
    try:
        print_report(report)
        if args.records:
            for failure in report.failures:
                print(f"\nrecord of seed {failure.seed} ({failure.players} players):")
                print(failure.record)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0 if report.ok else 1

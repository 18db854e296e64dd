"""The ``ttr`` command: plays games between the built-in bots (or random players)
and prints them;
``ttr play`` and ``ttr serve`` let a person play the bots (terminal, browser);
``ttr replay`` replays a saved game; ``ttr verify`` checks the rules' invariants;
``ttr simulate`` plays many games between bots on every core (docs/bots.md)."""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections.abc import Sequence

from ttr_core.agents import agent_names
from ttr_core.cli.arguments import _parse_options, _write_file, add_game_arguments
from ttr_core.cli.game import DEMO_AGENTS, _demo_playout, _print_game, _print_many
from ttr_core.cli.listing import _print_list, _show_map, _tickets_notice
from ttr_core.cli.replay import _replay
from ttr_core.cli.verify import _verify
from ttr_core.data.messages import to_json
from ttr_core.errors import GeneratedTicketsWarning, TtrError, told
from ttr_core.mapfiles.decks import board_with_tickets
from ttr_core.mapfiles.finding import load_map
from ttr_core.mapfiles.ticketgen import generate_tickets, ticket_deck_toml

#: The subcommands, for the usage line of ``ttr -h``.
SUBCOMMANDS = ("replay", "verify", "simulate", "play", "serve")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ttr",
        description="Play Ticket to Ride games between the built-in bots (or random players) "
        "on a built-in map (or a map file) and print the result.",
        epilog="Also: 'ttr play' plays the bots in the terminal (docs/play.md); 'ttr serve' "
        "in the browser (docs/serve.md); 'ttr replay FILE' replays a saved game; 'ttr verify "
        "--map MAP' checks every rules invariant over random games (docs/testing.md); 'ttr "
        "simulate --agents route,random --games 10000' plays bots on every core (docs/bots.md).",
    )
    add_game_arguments(parser, options_listed_by="--list")
    parser.add_argument(
        "--agents",
        default=DEMO_AGENTS,
        help="the players' style, or styles comma-separated, repeated to fill the seats "
        f"({', '.join(agent_names())}; default: {DEMO_AGENTS}; random: uniformly random moves)",
    )
    parser.add_argument("--games", type=int, default=1, help="games to play (default: 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default: 0)")
    parser.add_argument(
        "--list",
        action="store_true",
        help="list the maps, the variants with their options, and broken plugins; then exit",
    )
    parser.add_argument(
        "--show-map",
        action="store_true",
        help="describe the --map (counts, rule numbers, where its facts come from); then exit",
    )
    parser.add_argument(
        "--generate-tickets",
        type=int,
        metavar="COUNT",
        help="write a deck of COUNT generated tickets for the --map (seeded by --seed) to "
        "--output or standard output; then exit",
    )
    parser.add_argument("--output", metavar="FILE", help="where --generate-tickets writes")
    parser.add_argument(
        "--save",
        metavar="FILE",
        help="write the game's record as JSON (one game; read it back with 'ttr replay FILE'; "
        "missing folders are created)",
    )
    parser.add_argument(
        "--svg",
        metavar="FILE",
        help="draw the game's final board as an SVG picture (one game; docs/pictures.md; "
        "missing folders are created)",
    )
    # The subcommands have parsers of their own: the usage line names them first.
    options = parser.format_usage().removeprefix("usage: ").strip()
    parser.usage = f"ttr {{{','.join(SUBCOMMANDS)}}} ...\n       {options}"
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "replay":
        return _replay(argv[1:])
    if argv and argv[0] == "verify":
        return _verify(argv[1:])
    if argv and argv[0] == "simulate":
        from ttr_core.cli.simulate import main as simulate_main

        return simulate_main(argv[1:])
    if argv and argv[0] == "play":
        from ttr_core.cli.play import main as play_main

        return play_main(argv[1:])
    if argv and argv[0] == "serve":
        # The web app (docs/serve.md): Starlette is imported only if it is there.
        from ttr_core.cli.serve import main as serve_main

        return serve_main(argv[1:])
    args = _parser().parse_args(argv)
    if args.list:
        _print_list()
        return 0
    if args.games < 1:
        print("ttr: --games must be at least 1", file=sys.stderr)
        return 2
    if args.save and args.games != 1:
        print("ttr: --save writes the record of one game: use it with --games 1", file=sys.stderr)
        return 2
    if args.svg and args.games != 1:
        print("ttr: --svg draws the board of one game: use it with --games 1", file=sys.stderr)
        return 2
    if args.generate_tickets is not None and args.generate_tickets < 1:
        print("ttr: --generate-tickets COUNT must be at least 1", file=sys.stderr)
        return 2
    if args.output is not None and args.generate_tickets is None:
        print(
            "ttr: --output is where --generate-tickets writes: use it with --generate-tickets",
            file=sys.stderr,
        )
        return 2
    styles = [a.strip() for a in args.agents.split(",") if a.strip()] or [DEMO_AGENTS]
    unknown = [style for style in styles if style not in agent_names()]
    if unknown:
        print(
            f"ttr: no agent {unknown[0]!r}; the agents are {', '.join(agent_names())}",
            file=sys.stderr,
        )
        return 2
    variants = None
    if args.variants is not None:
        variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    try:
        with warnings.catch_warnings():
            # Said once in the output below, in words for this command.
            warnings.simplefilter("ignore", GeneratedTicketsWarning)
            board = load_map(args.map)
            if args.tickets is not None:
                board = board_with_tickets(board, args.tickets)
        if args.show_map:
            _show_map(board)
            return 0
        if args.generate_tickets is not None:
            deck = generate_tickets(board, args.generate_tickets, seed=args.seed)
            text = ticket_deck_toml(board, deck)
            if args.output:
                _write_file(args.output, text)
            else:
                print(text, end="")
            return 0
        options = _parse_options(args.option)
        start = time.perf_counter()
        results = [
            _demo_playout(board, args.players, styles, args.seed + i, variants, options)
            for i in range(args.games)
        ]
        elapsed = time.perf_counter() - start
        if args.save:
            _write_file(args.save, to_json(results[0].record, indent=1))
        if args.svg:
            from ttr_core.render import svg

            _write_file(args.svg, svg(results[0].state))
    except (TtrError, OSError) as exc:
        print(f"ttr: {told(exc)}", file=sys.stderr)
        return 2
    try:
        _tickets_notice(board)
        if args.games == 1:
            _print_game(results[0], args.seed, styles)
        else:
            _print_many(results, elapsed, styles)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``ttr | head``): stop quietly, as shell tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0

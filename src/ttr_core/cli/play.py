"""``ttr play``: the command that sets up a game between a person (or several)
and the bots in the terminal and runs it (:class:`~ttr_core.play.terminal.Session`)."""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence

from ttr_core import OptionError, TtrError, new_game
from ttr_core.agents import agent_names, make_agent
from ttr_core.cli.arguments import _parse_options, add_game_arguments
from ttr_core.errors import told
from ttr_core.play import text
from ttr_core.play.terminal import DEFAULT_BOTS, Session


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ttr play",
        description="Play Ticket to Ride in the terminal against the built-in bots.",
        epilog="In the game, type ? for the commands. docs/play.md tells more.",
    )
    add_game_arguments(parser, options_listed_by="'ttr --list'")
    parser.add_argument(
        "--seats",
        default="1",
        help="the seats you play, counted from 1, comma-separated (default: 1)",
    )
    parser.add_argument(
        "--bots",
        default=DEFAULT_BOTS,
        help=f"the bots' style, or styles comma-separated, one per bot seat in turn "
        f"({', '.join(agent_names())}; default: {DEFAULT_BOTS})",
    )
    parser.add_argument(
        "--seed", type=int, help="seed of the game, for a game you can play again (default: fresh)"
    )
    return parser


def _seats(given: str, players: int) -> list[int]:
    seats = []
    for part in given.split(","):
        part = part.strip()
        if not part.isdigit() or not 1 <= int(part) <= players:
            raise OptionError(f"--seats takes seats from 1 to {players}, not {given!r}")
        seats.append(int(part) - 1)
    return sorted(set(seats))


def main(argv: Sequence[str] | None = None) -> int:
    """``ttr play``: returns the exit status."""
    args = _parser().parse_args(sys.argv[1:] if argv is None else list(argv))
    variants = None
    if args.variants is not None:
        variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    try:
        styles = [s.strip() for s in args.bots.split(",") if s.strip()] or [DEFAULT_BOTS]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            state = new_game(
                args.map,
                args.players,
                seed=args.seed,
                variants=variants,
                options=_parse_options(args.option),
                tickets=args.tickets,
            )
        humans = _seats(args.seats, state.num_players)
        bot_seats = [s for s in range(state.num_players) if s not in humans]
        style = {seat: styles[i % len(styles)] for i, seat in enumerate(bot_seats)}
        bots = {seat: make_agent(name) for seat, name in style.items()}
    except (TtrError, OSError) as exc:
        print(f"ttr play: {told(exc)}", file=sys.stderr)
        return 2
    for warning in caught:
        print(f"Note: {warning.message}")
    variant_names = ", ".join(state.rules.variants) or "none"
    who = ", ".join(
        f"{text.player(s)}: " + ("you" if s in humans else f"{style[s]} bot")
        for s in range(state.num_players)
    )
    print(f"{state.board.name}, {state.num_players} players ({who}); variants: {variant_names}")
    staggered = text.start_words(state.board, state.num_players)
    if staggered:
        print(staggered)
    session = Session(state, humans, bots, ask=input, say=print, seed=state.seed)
    try:
        return session.run()
    except KeyboardInterrupt:
        print("\nInterrupted: the game is not saved.")
        return 130

"""The ``ttr`` command: plays games between the built-in bots (or random players)
and prints them;
``ttr play`` and ``ttr serve`` let a person play the bots (terminal, browser);
``ttr replay`` replays a saved game; ``ttr verify`` checks the rules' invariants;
``ttr simulate`` plays many games between bots on every core (docs/bots.md)."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from ttr_core.agents import agent_names, make_agent
from ttr_core.data.messages import MAX_TEXT, from_json, to_json
from ttr_core.data.records import GameRecord, replay
from ttr_core.errors import (
    ArgumentError,
    DataError,
    GeneratedTicketsWarning,
    OptionError,
    TtrError,
    told,
)
from ttr_core.hooks.manager import (
    available_variants,
    broken_variants,
    installed_plugins,
    variant_options,
)
from ttr_core.mapfiles.decks import board_with_tickets
from ttr_core.mapfiles.finding import available_maps, load_map
from ttr_core.mapfiles.limits import MAP_ID
from ttr_core.mapfiles.packages import broken_maps, package_maps
from ttr_core.mapfiles.parse import GENERATED
from ttr_core.mapfiles.registry import NOT_AVAILABLE
from ttr_core.mapfiles.ticketgen import generate_tickets, ticket_deck_toml
from ttr_core.model.board import Board
from ttr_core.model.scores import FinalScores
from ttr_core.model.state import EARLY_ENDINGS, GameState, PendingKind
from ttr_core.rules.narrate import describe_after, describe_ending, other_claims
from ttr_core.rules.scoring import final_scores
from ttr_core.rules.setup import new_game
from ttr_core.search.simulate import PlayoutResult, random_playout

#: The subcommands, for the usage line of ``ttr -h``.
SUBCOMMANDS = ("replay", "verify", "simulate", "play", "serve")

#: The bots' style in the demo unless ``--agents`` says otherwise (as ``ttr play``).
DEMO_AGENTS = "route"


def add_game_arguments(parser: argparse.ArgumentParser, options_listed_by: str) -> None:
    """The game configuration as every command playing games reads it: ``--map``,
    ``--players``, ``--variants``, ``--option`` (repeatable) and ``--tickets``."""
    parser.add_argument(
        "--map", default="newyork", help="map name or .toml path (default: newyork)"
    )
    parser.add_argument("--players", type=int, default=2, help="number of players (default: 2)")
    parser.add_argument(
        "--variants",
        help="comma-separated variants to switch on (default: the map's own; '' for none)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="VARIANT.NAME=VALUE",
        help=f"set a variant option (repeatable; {options_listed_by} shows every option)",
    )
    parser.add_argument(
        "--tickets", metavar="FILE", help="play this ticket deck file instead of the map's tickets"
    )


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


def _write_file(path: str, text: str) -> None:
    """Write an output file, creating missing folders (as ``ttr replay --svg`` does)."""
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)


def _replay_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ttr replay",
        description="Replay a saved game record turn by turn and print its score breakdown.",
    )
    parser.add_argument("file", help="a game record written by 'ttr --save FILE'")
    parser.add_argument(
        "--map",
        help="the map file the game was played on, for a map not found by name "
        "(neither built in nor shipped by an installed package)",
    )
    parser.add_argument(
        "--svg",
        metavar="DIR",
        help="also draw the board after every turn as DIR/turn-000.svg, turn-001.svg, ... "
        "(turn-000: after the starting tickets; the last: the end of the record)",
    )
    parser.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help="tell the game as seat N saw it: no card drawn blind or ticket of another seat "
        "named (default: everything)",
    )
    return parser


def _replay(argv: Sequence[str]) -> int:
    args = _replay_parser().parse_args(argv)
    written = 0
    read: GameRecord | None = None
    try:
        with open(args.file, encoding="utf-8") as stream:
            text = stream.read(MAX_TEXT + 1)
        record: GameRecord = from_json(text, GameRecord)
        read = record
        if args.seat is not None and not 0 <= args.seat < record.players:
            raise ArgumentError(f"--seat must be a seat from 0 to {record.players - 1}")
        states = list(replay(record, board=args.map))
        if args.svg is not None:
            written = _write_turn_pictures(states, args.svg)
    except DataError as exc:
        print(f"ttr replay: {exc}{_map_advice(exc, read)}", file=sys.stderr)
        return 2
    except (TtrError, OSError) as exc:
        print(f"ttr replay: {told(exc)}", file=sys.stderr)
        return 2
    first = states[0]
    variants = ", ".join(record.variants) or "none"
    print(f"{first.board.name}: {record.players} players, seed {record.seed}, variants: {variants}")
    _print_options(first.rules.options)
    # Whether the last turn has ended: a variant's decision then comes between
    # turns; else it belongs to the turn in progress (a claim that asks more).
    ended = True
    for before, action, after in zip(states, record.actions, states[1:], strict=False):
        kind = before.pending.kind if before.pending is not None else ""
        if kind == "start_tickets":
            when = "start"
        elif kind in _TURN_KINDS or not ended:
            when = f"turn {before.turn + 1}"
        elif before.turn == 0:
            when = "before turn 1"
        else:
            when = f"between turns {before.turn} and {before.turn + 1}"
        ended = after.turn > before.turn or (ended and kind not in _TURN_KINDS)
        print(f"{when:>9} · {describe_after(before, action, after, args.seat)}")
        for line in other_claims(before, after):
            print(f"{'':>9}   {line}")
    final = states[-1]
    if args.svg is not None:
        print(f"{written} pictures written to {args.svg}")
    if not final.is_over:
        print("The record ends before the game does.")
        return 0
    if final.termination in EARLY_ENDINGS:
        print(describe_ending(final))
    _print_scores(final, final_scores(final))
    return 0


#: The pending kinds of a regular turn (anything else is a variant's decision or the start).
_TURN_KINDS = ("turn", "second_card", "keep_tickets")


def _write_turn_pictures(states: Sequence[GameState], folder: str) -> int:
    """The board after each turn as ``folder/turn-NNN.svg`` (``turn-000``: once
    the starting tickets are chosen; the last: the record's last state, with
    the final scores if the game is over); returns how many were written."""
    from ttr_core.render import svg

    pictures: dict[int, GameState] = {}
    for state in states:
        starting = state.pending is not None and state.pending.kind == PendingKind.START_TICKETS
        if not starting:
            pictures.setdefault(state.turn, state)  # the first state after the turn
    pictures[states[-1].turn] = states[-1]
    os.makedirs(folder, exist_ok=True)
    for turn, state in sorted(pictures.items()):
        with open(os.path.join(folder, f"turn-{turn:03d}.svg"), "w", encoding="utf-8") as out:
            out.write(svg(state))
    return len(pictures)


def _verify_parser() -> argparse.ArgumentParser:
    from ttr_core.checking.invariants import invariant_names

    parser = argparse.ArgumentParser(
        prog="ttr verify",
        description="Play seeded random games with every rules invariant checked after every "
        "action (strict hook checks) and print what was found (docs/testing.md).",
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
        "--records",
        action="store_true",
        help="print the JSON record of each game that broke an invariant",
    )
    return parser


def _names(text: str | None) -> list[str] | None:
    return None if text is None else [v.strip() for v in text.split(",") if v.strip()]


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


def _show_map(board: Board) -> None:
    rules = board.rules
    generated = sum(1 for t in board.tickets if t.extra.get(GENERATED))
    print(f"{board.name} ({board.id}; also {', '.join(board.aliases) or 'no alias'})")
    print(
        f"  {len(board.locations)} locations, {len(board.routes)} routes "
        f"({sum(1 for r in board.routes if r.partner is not None) // 2} double), "
        f"{board.total_spaces} spaces, {board.total_cards} cards"
    )
    print(
        f"  {len(board.tickets)} tickets ({len(board.tickets) - generated} printed, "
        f"{generated} generated); {rules.min_players}–{rules.max_players} players, "
        f"{rules.cars_per_player} cars each"
    )
    print(f"  default variants: {', '.join(rules.default_variants) or 'none'}")
    provenance = board.provenance
    if provenance is None:
        print("  provenance: not given")
        return
    print(f"  provenance: {provenance.summary}")
    for source, what in provenance.sources:
        print(f"    source {source}: {what}")
    for part in provenance.verified:
        print(f"    verified: {part}")
    for part in provenance.unverified:
        print(f"    NOT verified: {part}")


def _tickets_notice(board: Board) -> None:
    generated = sum(1 for t in board.tickets if t.extra.get(GENERATED))
    if generated:
        print(
            f"Tickets: {len(board.tickets) - generated} printed, {generated} generated (the map "
            "does not know them); supply the printed deck with --tickets FILE "
            "(see --generate-tickets for the file format)"
        )


def _map_advice(exc: DataError, record: GameRecord | None) -> str:
    """What to do, in command-line terms, when a record's map is not found by
    name: give the map file. The map's name is repeated only if it is a map id
    (a name in data can be anything, a path too)."""
    if exc.message != NOT_AVAILABLE:
        return ""
    name = getattr(record, "map", None)
    named = f"map {name!r}" if isinstance(name, str) and MAP_ID.fullmatch(name) else "its map"
    return (
        f"\nThe record was played on {named}: give its map file with --map FILE "
        "(ttr replay RECORD --map FILE.toml); 'ttr --list' lists the maps found by name."
    )


def _print_list() -> None:
    print("maps:", ", ".join(available_maps()))
    installed = package_maps()
    if installed:
        print("maps from installed packages:")
        for map_id, package in installed.items():
            print(f"  {map_id} ({_map_aliases(map_id)}from {package})")
    print("variants:")
    for name in available_variants():
        description = _variant_description(name)
        print(f"  {name}: {description}" if description else f"  {name}")
        for opt in variant_options(name):
            bounds = ""
            if opt.low is not None or opt.high is not None:
                low = "" if opt.low is None else f"{opt.low} ≤ "
                high = "" if opt.high is None else f" ≤ {opt.high}"
                bounds = f", {low}value{high}"
            if opt.choices:
                bounds = f", one of {', '.join(repr(c) for c in opt.choices)}"
            print(
                f"    --option {name}.{opt.name}=…  ({opt.type.__name__}, "
                f"default {opt.default!r}{bounds}): {opt.doc}"
            )
    broken = broken_variants()
    if broken:
        print("broken plugins (not usable):")
        for name, error in broken.items():
            print(f"  {name}: {error}")
    broken_map_list = broken_maps()
    if broken_map_list:
        print("broken maps of installed packages (not usable):")
        for name, error in broken_map_list.items():
            print(f"  {name}: {error}")


#: Most characters of a variant's description ``ttr --list`` prints.
MAX_DESCRIPTION = 100


def _variant_description(name: str) -> str:
    """What ``ttr --list`` says a variant is: its plugin's declared ``description``
    (a ``str`` attribute of the plugin object), else the first line of its
    docstring (a module's, or a plugin class's); ``""`` if it has neither.
    One line of printable characters, cut to :data:`MAX_DESCRIPTION`."""
    plugin = installed_plugins().get(name)
    if plugin is None:
        return ""
    try:  # a plugin's attributes are its own code: a listing must not fail on them
        text = getattr(plugin.obj, "description", None)
        if type(text) is not str or not text.strip():
            text = getattr(plugin.obj, "__doc__", None)
    except Exception:
        return ""
    if type(text) is not str or not text.strip():
        return ""
    line = text.strip().splitlines()[0].strip()
    line = "".join(c if c.isprintable() else " " for c in line)
    return line if len(line) <= MAX_DESCRIPTION else line[: MAX_DESCRIPTION - 1] + "…"


def _map_aliases(map_id: str) -> str:
    """``"aliases: a, b; "`` of a package map, loaded to check it (a map that
    fails is then listed as broken; its problem is not printed here)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a listing is no place for a map's doubts
            board = load_map(map_id)
    except TtrError:
        return "broken: see below; "
    return f"aliases: {', '.join(board.aliases)}; " if board.aliases else ""


def _parse_options(given: Sequence[str]) -> dict[str, dict[str, Any]]:
    """``VARIANT.NAME=VALUE`` strings as an options table, each value read as its option's type."""
    options: dict[str, dict[str, Any]] = {}
    for item in given:
        key, eq, text = item.partition("=")
        variant, dot, name = key.rpartition(".")
        if not eq or not dot or not variant or not name:
            raise OptionError(f"--option takes VARIANT.NAME=VALUE, not {item!r}")
        declared = {opt.name: opt for opt in variant_options(variant)}
        opt = declared.get(name)
        value: Any = text
        if opt is not None and opt.type is not str:
            value = _typed(opt.type, text, item)
        options.setdefault(variant, {})[name] = value
    return options


def _typed(kind: type, text: str, item: str) -> Any:
    if kind is bool:
        lowered = text.strip().lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise OptionError(f"--option {item!r}: expected true or false")
    try:
        return kind(text)
    except ValueError:
        expected = "a whole number" if kind is int else "a number"
        raise OptionError(f"--option {item!r}: expected {expected}") from None


def _print_options(options: Any) -> None:
    shown = [f"{v}.{name}={value!r}" for v, values in options for name, value in values]
    if shown:
        print("options:", ", ".join(shown))


def _demo_playout(
    board: Board,
    players: int,
    styles: Sequence[str],
    seed: int,
    variants: Sequence[str] | None,
    options: dict[str, dict[str, Any]],
) -> PlayoutResult:
    """One game of the demo: seat ``s`` played by ``styles[s % len(styles)]``
    (random seats only: :func:`random_playout`, as the demo always played)."""
    if all(style == "random" for style in styles):
        return random_playout(board, players, seed=seed, variants=variants, options=options)
    from ttr_core.simulation import play_game

    state = new_game(board, players, seed=seed, variants=variants, options=options)
    agents = [make_agent(styles[seat % len(styles)]) for seat in range(players)]
    played = play_game(state, agents, seed)
    return PlayoutResult(played.state, played.scores, played.actions, played.history)


def _lineup(styles: Sequence[str], players: int) -> str:
    """``"route bots"``, ``"random players"``, or each seat's style."""
    if len(set(styles)) == 1:
        return "random players" if styles[0] == "random" else f"{styles[0]} bots"
    return ", ".join(f"{_player(s)} {styles[s % len(styles)]}" for s in range(players))


def _player(seat: int) -> str:
    """A seat as people count: ``"Player 1"`` for seat 0."""
    return f"Player {seat + 1}"


def _seat(seat: int) -> str:
    return f"Seat {seat}"


def _print_game(result: PlayoutResult, seed: int, styles: Sequence[str]) -> None:
    state = result.state
    scores = result.scores
    board = state.board
    variants = ", ".join(state.rules.variants) or "none"
    print(
        f"{board.name}, {state.num_players} players: "
        f"{_lineup(styles, state.num_players)}, seed {seed}, variants: {variants}"
    )
    _print_options(state.rules.options)
    ended = board.pieces if scores.termination == "cars" else scores.termination
    print(f"{result.turns} turns, {result.actions} actions, ended by {ended}")
    _print_scores(state, scores, name=_player)


def _print_scores(
    state: GameState, scores: FinalScores, name: Callable[[int], str] = _seat
) -> None:
    """The score sheets and the winners, each seat called ``name(seat)``
    (``ttr replay`` counts seats from 0 as its ``--seat`` does; the demo
    counts players from 1)."""
    board = state.board
    for sheet in scores.sheets:
        print(f"\n{name(sheet.player)}: {sheet.total} points")
        for line in sheet.lines:
            print(f"  {line.points:+4d}  {line.label}")
    for other in scores.others:
        cars = "" if other.cars is None else f", {other.cars} {board.pieces} left"
        print(
            f"\n{other.name.capitalize()} (not a seat; scores nothing): "
            f"{len(other.routes)} routes{cars}"
        )
        for rid in other.routes:
            route = board.routes[rid]
            print(f"        {route.a}–{route.b} ({route.color} {route.length})")
    names = ", ".join(name(w) if name is not _seat else f"seat {w}" for w in scores.winners)
    if not names:  # an abandoned game
        print("\nNo winner.")
        return
    print(f"\nWinner{'s' if len(scores.winners) > 1 else ''}: {names}")


def _print_many(results: list[PlayoutResult], elapsed: float, styles: Sequence[str]) -> None:
    first = results[0].state
    seats = first.num_players
    variants = ", ".join(first.rules.variants) or "none"
    print(
        f"{first.board.name}: {len(results)} games, {seats} players: "
        f"{_lineup(styles, seats)}, variants: {variants}"
    )
    _print_options(first.rules.options)
    wins = [0.0] * seats
    for result in results:
        for winner in result.scores.winners:
            wins[winner] += 1 / len(result.scores.winners)
    print(f"{'player':>6}  {'win rate':>8}  {'mean score':>10}  {'mean tickets done':>17}")
    for seat in range(seats):
        mean = statistics.fmean(r.scores.sheets[seat].total for r in results)
        done = statistics.fmean(r.scores.sheets[seat].tickets_completed for r in results)
        print(f"{seat + 1:>6}  {wins[seat] / len(results):>8.1%}  {mean:>10.1f}  {done:>17.2f}")
    turns = statistics.fmean(r.turns for r in results)
    actions = sum(r.actions for r in results)
    stalemates = sum(1 for r in results if r.scores.termination == "stalemate")
    print(f"mean turns per game: {turns:.1f}; stalemates: {stalemates}")
    for other in results[0].scores.others:
        owned = statistics.fmean(
            sum(len(o.routes) for o in r.scores.others if o.owner == other.owner) for r in results
        )
        print(f"{other.name}: {owned:.1f} routes per game (not a seat; scores nothing)")
    print(f"{len(results) / elapsed:.0f} games/s, {actions / elapsed:.0f} actions/s")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "replay":
        return _replay(argv[1:])
    if argv and argv[0] == "verify":
        return _verify(argv[1:])
    if argv and argv[0] == "simulate":
        from ttr_core.simulate_cli import main as simulate_main

        return simulate_main(argv[1:])
    if argv and argv[0] == "play":
        from ttr_core.play import main as play_main

        return play_main(argv[1:])
    if argv and argv[0] == "serve":
        # The web app (docs/serve.md): Starlette is imported only if it is there.
        from ttr_core.serve.command import main as serve_main

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

"""``ttr replay``: a saved game told turn by turn (as one player saw it, with
``--seat``), and a picture per turn. Players are counted from 1, as ``ttr
play`` counts them: ``--seat 1`` is the first player (seat 0 in the record).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from ttr_core.cli.arguments import _print_options
from ttr_core.cli.game import _print_scores
from ttr_core.data.messages import MAX_TEXT, from_json
from ttr_core.data.records import GameRecord, replay
from ttr_core.errors import (
    ArgumentError,
    DataError,
    TtrError,
    told,
)
from ttr_core.mapfiles.limits import MAP_ID
from ttr_core.mapfiles.registry import NOT_AVAILABLE
from ttr_core.model.state import EARLY_ENDINGS, GameState, PendingKind
from ttr_core.play.text import event
from ttr_core.rules.narrate import describe_after, describe_ending, other_claims
from ttr_core.rules.scoring import final_scores


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
        help="tell the game as player N saw it, players counted from 1 as in 'ttr play': "
        "no card drawn blind or ticket of another player named (default: everything)",
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
        if args.seat is not None and not 1 <= args.seat <= record.players:
            raise ArgumentError(
                f"--seat takes a player from 1 to {record.players}, not {args.seat}"
            )
        states = list(replay(record, board=args.map))
        if args.svg is not None:
            written = _write_turn_pictures(states, args.svg)
    except DataError as exc:
        print(f"ttr replay: {exc}{_map_advice(exc, read)}", file=sys.stderr)
        return 2
    except (TtrError, OSError) as exc:
        print(f"ttr replay: {told(exc)}", file=sys.stderr)
        return 2
    # The seat told everything besides the public facts (None: every seat).
    viewer = None if args.seat is None else args.seat - 1
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
        said = _people(describe_after(before, action, after, viewer))
        print(f"{when:>9} · {said}")
        for line in other_claims(before, after):
            print(f"{'':>9}   {line}")
    final = states[-1]
    if args.svg is not None:
        print(f"{written} pictures written to {args.svg}")
    if not final.is_over:
        print("The record ends before the game does.")
        return 0
    if final.termination in EARLY_ENDINGS:
        print(_people(describe_ending(final)))
    _print_scores(final, final_scores(final))
    return 0


def _people(line: str) -> str:
    """A line of ``describe`` in people's words: "Seat 0 drew ..." is "Player 1
    drew ..." (players counted from 1, as ``ttr play`` tells them)."""
    return event(line, viewer=-1)


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

"""Golden action counts ("perft", as chess engines keep them).

For each built-in map, variant set and player count, and fixed seeds: the
number of legal actions at every decision along a fixed line of play (a
seeded chooser, ``random.Random(seed)``, picking among the legal actions),
and the number of two-action sequences from the first turn. Any change of
the rules' behaviour changes some of these numbers, so it shows in review.

Regenerate after an intended change, and review the diff::

    python -m ttr_core.testing.perft --write tests/data/perft.json

``--check FILE`` compares instead (exit status 1 and the differences when
they differ).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ttr_core.errors import GeneratedTicketsWarning
from ttr_core.mapfiles.finding import load_map
from ttr_core.model.state import GameState
from ttr_core.rules.engine import apply, legal_actions
from ttr_core.rules.setup import new_game

__all__ = ["CONFIGS", "FIRST", "SEEDS", "compute", "differences", "perft", "perft_line"]

#: (map, variants) configurations: every built-in map with its variants, each at
#: every player count it allows.
CONFIGS: tuple[tuple[str, tuple[str, ...], tuple[int, ...]], ...] = (
    ("newyork", ("attractions",), (2, 3, 4)),
    ("newyork", (), (2, 3, 4)),
    ("nederland", ("tolls",), (2, 3, 4, 5)),
    ("nederland", (), (2, 3, 4, 5)),
    ("nederland", ("tolls", "neutral"), (2,)),
    ("usa", ("longest_route",), (2, 3, 4, 5)),
    ("amsterdam", ("merchandise",), (2, 3, 4)),
    ("europe", ("longest_route",), (2, 3, 4, 5)),
    ("switzerland", ("tunnels", "longest_route"), (2, 3)),
    ("nordiccountries", ("tunnels", "ferries", "substitutes", "globetrotter"), (2, 3)),
    ("pennsylvania", ("ferries", "globetrotter", "shares"), (2, 3, 4, 5)),
    ("india", ("ferries", "longest_route", "mandala"), (2, 3, 4)),
)
#: The seeds of the fixed lines.
SEEDS = (1,)
#: Decisions whose counts are kept one by one (the rest are summed).
FIRST = 12


def perft(state: GameState, depth: int) -> int:
    """The number of action sequences of length ``depth`` from ``state`` (a finished
    game ends a sequence early)."""
    if depth == 0 or state.is_over:
        return 1
    legal = legal_actions(state)
    if depth == 1:
        return len(legal)
    return sum(perft(apply(state, action), depth - 1) for action in legal)


def perft_line(state: GameState, seed: int) -> list[int]:
    """The number of legal actions at each decision along the line that
    ``random.Random(seed)`` chooses, to the end of the game."""
    rng = random.Random(seed)
    counts = []
    while not state.is_over:
        legal = legal_actions(state)
        counts.append(len(legal))
        state = apply(state, legal[rng.randrange(len(legal))])
    return counts


def _key(map: str, variants: Sequence[str], players: int, seed: int) -> str:
    return f"{map}/{'+'.join(variants) or 'none'}/{players}p/seed{seed}"


def entries() -> Iterator[tuple[str, str, tuple[str, ...], int, int]]:
    """(key, map, variants, players, seed) of every golden line."""
    for map, variants, counts in CONFIGS:
        for players in counts:
            for seed in SEEDS:
                yield _key(map, variants, players, seed), map, variants, players, seed


def compute() -> dict[str, dict[str, Any]]:
    """Every golden entry: the first :data:`FIRST` counts of the line, its length
    and the sum of all its counts, and perft(2) from the first turn."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", GeneratedTicketsWarning)
        boards = {map: load_map(map) for map, _, _ in CONFIGS}
    found: dict[str, dict[str, Any]] = {}
    for key, map, variants, players, seed in entries():
        state = new_game(boards[map], players, seed=seed, variants=variants)
        line = perft_line(state, seed)
        first_turn = state
        while first_turn.pending is not None and first_turn.pending.kind == "start_tickets":
            first_turn = apply(first_turn, legal_actions(first_turn)[0])
        found[key] = {
            "first": line[:FIRST],
            "decisions": len(line),
            "total": sum(line),
            "perft2": perft(first_turn, 2),
        }
    return found


def differences(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """What differs between two golden tables, one line per entry."""
    lines = []
    for key in sorted(set(expected) | set(actual)):
        if expected.get(key) != actual.get(key):
            lines.append(f"{key}: expected {expected.get(key)}, got {actual.get(key)}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m ttr_core.testing.perft --write FILE`` or ``--check FILE``."""
    parser = argparse.ArgumentParser(prog="python -m ttr_core.testing.perft", description=__doc__)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="FILE", help="compute the counts and write them")
    group.add_argument("--check", metavar="FILE", help="compute the counts and compare")
    args = parser.parse_args(argv)
    actual = compute()
    if args.write:
        text = (
            "{\n"
            + ",\n".join(
                f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in actual.items()
            )
            + "\n}\n"
        )
        Path(args.write).write_text(text, encoding="utf-8")
        print(f"wrote {len(actual)} golden lines to {args.write}")
        return 0
    expected = json.loads(Path(args.check).read_text(encoding="utf-8"))
    problems = differences(expected, actual)
    for line in problems:
        print(line)
    if not problems:
        print(f"{len(actual)} golden lines match {args.check}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""The compiled engine against the Python kernel, side by side, in one run.

Random games (the same seeds and choices on every row), played from states
set up beforehand (``new_game`` is not counted), by:

- ``python``: today's ``Playout`` on the Python kernel, ``legal_actions`` +
  ``apply`` with ``random.Random`` choices (``engine="python"``);
- ``objects``: the same loop on the compiled engine (``engine="native"``);
- ``ids``: ``legal_ids`` + ``apply_id`` on the compiled engine;
- ``native``: ``rollout(seed)`` on the compiled engine (the loop in C, the
  choices ``random.Random(seed)`` makes): the native playout;
- ``clone-python`` / ``clone-native``: ``clone()`` after 40 actions, then a
  random rollout to the end and ``returns()``, per game.

Wall time (best of ``--repeat``, the modes interleaved) as games and actions
per second; with ``--callgrind``, instructions per action by ``valgrind
--tool=callgrind`` (noise-free: each mode in its own process, minus the same
process playing no game, both having set the configuration up once: its
tables and the engine's ``Config``, about 60 ms on Europe; the cyclic
garbage collector off in both while they play), and the ratio
of every mode to ``python``::

    python benchmarks/bench_native.py newyork:2 usa:4 europe:4:none --games 200
    python benchmarks/bench_native.py newyork:2 usa:4 --callgrind --games 100
    python benchmarks/bench_native.py europe:4 --callgrind --outside --games 12

``--outside`` counts the games alone: every game's playout is made (and, for
the clone modes, played 40 actions in) before the timing, or before the
count in both processes.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import sys
import time
from typing import Any

from sidebyside import callgrind

import ttr_core
from ttr_core import Playout

MODES = ("python", "objects", "ids", "native", "clone-python", "clone-native")


def configuration(text: str) -> tuple[str, int, list[str] | None]:
    """``map:players[:variants]``, variants ``+``-joined, ``none`` for none."""
    parts = text.split(":")
    variants: list[str] | None = None
    if len(parts) > 2:
        variants = [] if parts[2] == "none" else parts[2].split("+")
    return parts[0], int(parts[1]), variants


def states(config: str, games: int) -> list[ttr_core.GameState]:
    map, players, variants = configuration(config)
    return [ttr_core.new_game(map, players, seed=seed, variants=variants) for seed in range(games)]


#: Actions played before the clone modes clone (``--prefix``).
PREFIX = [40]


def made(mode: str, start: list[ttr_core.GameState]) -> list[Playout]:
    """A playout of each game of ``start`` on ``mode``'s engine (for the clone
    modes, ``--prefix`` actions into the game: 40 by default)."""
    engine = "python" if mode in ("python", "clone-python") else "native"
    plays = []
    for seed, state in enumerate(start):
        play = Playout(state, engine=engine)
        play.legal_actions()
        if mode.startswith("clone") and not play.is_over():
            play.play_random(seed, PREFIX[0])
        plays.append(play)
    return plays


def play(
    mode: str, start: list[ttr_core.GameState], ready: list[Playout] | None = None
) -> tuple[int, float]:
    """Play every game of ``start`` by ``mode``; the actions applied and the
    seconds they took (for the clone modes: the clones' rollouts only).
    ``ready``: the games' playouts made already (:func:`made`), else each is
    made in the count."""
    actions = 0
    engine = "python" if mode in ("python", "clone-python") else "native"
    if mode.startswith("clone"):
        # Half a game first (not counted), then a clone, its rollout and returns().
        roots = made(mode, start) if ready is None else ready
        began = time.perf_counter()
        for seed, root in enumerate(roots):
            if root.is_over():
                continue
            twin = root.clone()
            actions += twin.rollout(seed)
            twin.returns()
        return actions, time.perf_counter() - began
    began = time.perf_counter()
    for seed, state in enumerate(start):
        game = Playout(state, engine=engine) if ready is None else ready[seed]
        if mode == "native":
            actions += game.rollout(seed)  # random.Random(seed)'s choices, drawn in C
            continue
        rng = random.Random(seed)
        if mode == "ids":
            while not game.is_over():
                ids = game.legal_ids()
                game.apply_id(ids[rng.randrange(len(ids))] if len(ids) > 1 else ids[0])
                actions += 1
            continue
        while not game.is_over():
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0])
            actions += 1
    return actions, time.perf_counter() - began


def wall(
    configs: list[str], games: int, repeat: int, outside: bool = False
) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for config in configs:
        start = states(config, games)
        best: dict[str, float] = {}
        counted: dict[str, int] = {}
        for _ in range(repeat):
            for mode in MODES:  # interleaved: a noisy minute hits every mode alike
                ready = made(mode, start) if outside else None
                counted[mode], spent = play(mode, start, ready)
                best[mode] = min(best.get(mode, spent), spent)
        found[config] = {
            mode: {
                "games_per_s": games / best[mode],
                "us_per_action": best[mode] / counted[mode] * 1e6,
                "actions": counted[mode],
            }
            for mode in MODES
        }
    return found


def instructions(config: str, mode: str, games: int, outside: bool = False) -> int:
    """Instructions of a process playing ``games`` by ``mode``, minus one playing
    none (``outside``: both make every game's playout before the count)."""
    counts = []
    for n in (games, 0):
        arguments = [
            __file__,
            config,
            "--games",
            str(games),
            "--only",
            mode,
            "--play",
            str(n),
            "--prefix",
            str(PREFIX[0]),
            *(["--outside"] if outside else []),
        ]
        counts.append(callgrind(arguments, dict(os.environ))[0])
    return counts[0] - counts[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("configs", nargs="+", help="map:players[:variants]")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", help=argparse.SUPPRESS)
    parser.add_argument("--play", type=int, help=argparse.SUPPRESS)
    parser.add_argument(
        "--prefix", type=int, default=40, help="actions played before the clone modes clone"
    )
    parser.add_argument(
        "--outside",
        action="store_true",
        help="the playouts made before the count or the timing (the games alone counted)",
    )
    args = parser.parse_args()
    PREFIX[0] = args.prefix
    if args.only:  # one mode in its own process, for callgrind
        start = states(args.configs[0], args.games)
        # The configuration's one-time set-up (its tables, the engine's Config)
        # in both processes counted, the one playing none included: per game only.
        engine = "python" if args.only in ("python", "clone-python") else "native"
        Playout(start[0], engine=engine).legal_actions()
        ready = made(args.only, start) if args.outside else None
        chosen = None if ready is None else ready[: args.play]
        # One process less another: a full collection of the cyclic garbage
        # collector landing in one but not the other would count as the games'.
        gc.collect()
        gc.disable()
        print(play(args.only, start[: args.play], chosen)[0])
        return
    if args.callgrind:
        if shutil.which("valgrind") is None:
            sys.exit("valgrind is not installed")
        result: dict[str, Any] = {}
        for config in args.configs:
            start = states(config, args.games)
            row = {}
            for mode in MODES:
                actions, _ = play(mode, start)
                row[mode] = instructions(config, mode, args.games, args.outside) / actions
            result[config] = row
        if args.json:
            print(json.dumps(result, indent=2))
            return
        print("instructions per action (ratio to python)")
        for config, row in result.items():
            cells = [
                f"{mode} {row[mode] / 1000:.1f} k ({row['python'] / row[mode]:.1f}×)"
                for mode in MODES
            ]
            print(f"{config}: " + ", ".join(cells))
        return
    found = wall(args.configs, args.games, args.repeat, args.outside)
    if args.json:
        print(json.dumps(found, indent=2))
        return
    print(f"best of {args.repeat}, {args.games} games each; us per action (ratio to python)")
    for config, row in found.items():
        base = row["python"]["us_per_action"]
        cells = [
            f"{mode} {row[mode]['us_per_action']:.2f} ({base / row[mode]['us_per_action']:.1f}×)"
            for mode in MODES
        ]
        print(f"{config}: " + ", ".join(cells))


if __name__ == "__main__":
    main()

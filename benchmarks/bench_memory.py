"""Benchmark: bytes per retained frozen state of random games.

    python benchmarks/bench_memory.py                      # the default configurations
    python benchmarks/bench_memory.py --against c0df616    # side by side with a revision

Plays ``--games`` random games per configuration, keeps every state of each
(as a search tree or a replay buffer would), and counts the bytes they hold
together: every object reachable from the states, each counted once however
many states share it (``sys.getsizeof``), the board and the rule set left
out (one per game configuration) and the cached legal actions dropped. The
figure is that total over the number of states: what one more retained
state costs, structural sharing included.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections.abc import Iterable

from sidebyside import ROOT, old_tree, tree_env

import ttr_core

DEFAULT_CONFIGS = ("newyork:2", "usa:4", "nederland:4")


def retained_bytes(map_name: str, players: int, games: int) -> float:
    """Bytes per state of ``games`` random games, every state kept."""
    board = ttr_core.load_map(map_name)
    states = []
    for seed in range(games):
        state = ttr_core.new_game(board, players, seed=seed)
        chooser = random.Random(seed)
        states.append(state)
        while not ttr_core.is_over(state):
            state = ttr_core.apply(state, chooser.choice(ttr_core.legal_actions(state)))
            states.append(state)
    for state in states:
        object.__setattr__(state, "_legal_cache", None)
    return _deep_size(states, skip=(ttr_core.Board, ttr_core.GameRules, str, type)) / len(states)


def _deep_size(roots: Iterable[object], skip: tuple[type, ...]) -> int:
    seen: set[int] = set()
    total = 0
    stack = list(roots)
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, skip):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, tuple | list):
            stack.extend(item)
        else:
            for field in getattr(type(item), "__attrs_attrs__", ()):
                stack.append(getattr(item, field.name))
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per configuration")
    parser.add_argument("--config", action="append", help="map:players (repeatable)")
    parser.add_argument("--against", metavar="REV", help="compare with git revision REV")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    configs = args.config or list(DEFAULT_CONFIGS)
    if args.json:
        (config,) = configs
        name, players = config.split(":")
        print(json.dumps(retained_bytes(name, int(players), args.games)))
        return 0
    if not args.against:
        for config in configs:
            name, players = config.split(":")
            print(f"{config:<16} {retained_bytes(name, int(players), args.games):>9.1f} bytes")
        return 0
    with old_tree(args.against) as old:
        print(f"old: {args.against}, new: the working tree of {ROOT}; bytes per retained state")
        for config in configs:
            row = []
            for tree in (old, ROOT):
                command = [sys.executable, __file__, "--json", "--games", str(args.games)]
                done = subprocess.run(
                    [*command, "--config", config],
                    capture_output=True,
                    text=True,
                    env=tree_env(tree),
                    check=False,
                )
                row.append(float(done.stdout) if done.returncode == 0 else float("nan"))
            print(f"{config:<16} {row[0]:>9.1f} {row[1]:>9.1f} {row[1] / row[0]:>7.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: what keeping a game's record costs per move, as the game grows.

    python benchmarks/bench_records.py                  # 1,000 appends, best of 5
    python benchmarks/bench_records.py --appends 5000 --repeat 3

Each row appends ``--appends`` actions of real random games (USA, 5 players,
games played again as needed) to a record, and prints the mean cost of an
append over the first and the last tenth of the appends, and their ratio:
about 1 when each append costs the same however long the record (O(1)).
Rows: ``RecordFile.append`` (a JSON Lines file on disk, its integrity line
rewritten), ``RecordLines.append`` (in memory, for an app's own store), and,
for comparison, writing the whole record again after each move
(``to_json(record_of(...))``, what an app did before: O(n) per move).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ttr_core


def actions_of_games(count: int) -> tuple[Any, list[Any]]:
    """The first state of a USA 5-player game and ``count`` actions; games
    after the first are appended as if one long game (the record only stores)."""
    first = ttr_core.new_game("usa", 5, seed=0)
    found: list[Any] = []
    seed = 0
    while len(found) < count:
        state = ttr_core.new_game("usa", 5, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and len(found) < count:
            action = rng.choice(ttr_core.legal_actions(state))
            state = ttr_core.apply(state, action)
            found.append(action)
        seed += 1
    return first, found


def timed(append: Callable[[Any], object], actions: list[Any]) -> list[float]:
    """The seconds each append took."""
    took = []
    clock = time.perf_counter
    for action in actions:
        start = clock()
        append(action)
        took.append(clock() - start)
    return took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5, help="best of this many runs")
    args = parser.parse_args(argv)
    first, actions = actions_of_games(args.appends)
    tenth = max(1, args.appends // 10)

    def file_run(folder: Path, run: int) -> list[float]:
        with ttr_core.RecordFile.create(folder / f"r{run}.jsonl", first) as file:
            return timed(file.append, actions)

    def lines_run(folder: Path, run: int) -> list[float]:
        return timed(ttr_core.RecordLines(first).append, actions)

    def rewrite_run(folder: Path, run: int) -> list[float]:
        kept: list[Any] = []
        path = folder / f"w{run}.json"

        def append(action: Any) -> None:
            kept.append(action)
            path.write_text(ttr_core.to_json(ttr_core.record_of(first, kept)), encoding="utf-8")

        return timed(append, actions)

    print(f"{args.appends} appends (USA 5p actions), best of {args.repeat}; µs per append")
    print(f"{'row':<34} {'first tenth':>12} {'last tenth':>12} {'last/first':>11}")
    rows: list[tuple[str, Callable[[Path, int], list[float]]]] = [
        ("RecordFile.append (file)", file_run),
        ("RecordLines.append (memory)", lines_run),
        ("whole record rewritten (before)", rewrite_run),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, run in rows:
            firsts, lasts = [], []
            for attempt in range(args.repeat):
                took = run(Path(tmp), attempt)
                firsts.append(sum(took[:tenth]) / tenth)
                lasts.append(sum(took[-tenth:]) / tenth)
            first_us, last_us = min(firsts) * 1e6, min(lasts) * 1e6
            print(f"{name:<34} {first_us:>12.1f} {last_us:>12.1f} {last_us / first_us:>11.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

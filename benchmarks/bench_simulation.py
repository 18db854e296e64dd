"""Benchmark: ``ttr simulate`` throughput, games/s on one core and on all cores.

    python benchmarks/bench_simulation.py                 # the default rows
    python benchmarks/bench_simulation.py --games 20000 --config newyork:4:hungry+route+long+onestep
    python benchmarks/bench_simulation.py --workers 8     # "all cores" = 8 processes

A configuration is ``map:players:agents`` with the agents joined by ``+``
(see ``ttr simulate --list-agents``). Each row plays ``--games`` games with
:func:`ttr_core.simulation.simulate` twice: in this process (1 core), then on
a pool of ``--workers`` processes (default: every core this process may use;
the pool's start-up included), and prints both rates and the speed-up. The
summaries of the two runs must be equal (the same seed), which is checked.

Side by side with another version, on the same machine in one run:

    python benchmarks/bench_simulation.py --against 7fb75a0

checks the git revision out into a temporary worktree, then for every
configuration runs the two versions in turn (old, new, old, new, ... each run
a fresh process playing ``--games`` games on one worker after two warm-up
games) and prints both best rates of ``--repeat`` runs and their ratio.
"New" is this checkout's working tree. The summaries of the two versions'
runs are compared too (a differing map name aside, the games must be the
same: "same games" says they were).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import subprocess
import sys
import warnings
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

import attrs
from sidebyside import ROOT, interleaved, old_tree, tree_env

import ttr_core
from ttr_core.simulation import simulate

DEFAULT_CONFIGS = (
    "newyork:2:random",
    "newyork:2:route+random",
    "newyork:4:hungry+route+long+onestep",
    "usa:4:hungry+route+long+onestep",
)


def parse_config(config: str) -> tuple[str, int, list[str]]:
    """``map:players:agents`` as (map, players, agents)."""
    map_name, players, agents = config.split(":")
    return map_name, int(players), agents.split("+")


def _one_run(tree: Path, config: str, games: int) -> tuple[float, str] | None:
    """Games per second of one single-worker run of ``config`` by the code in ``tree``
    (a fresh process) and a digest of its summary's games, or ``None`` if that
    version cannot play it."""
    env = tree_env(tree)
    command = [sys.executable, __file__, "--json", "--games", str(games), "--config", config]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        return None
    line = json.loads(done.stdout.strip().splitlines()[-1])
    return float(line["games_per_second"]), str(line["games"])


def against(revision: str, configs: Sequence[str], games: int, repeat: int) -> None:
    """Print old and new single-worker rates, interleaved run by run, and their ratio."""
    with old_tree(revision) as old:
        print(f"old: {revision}, new: the working tree of {ROOT}; 1 worker, {games} games")
        print(f"{'config':<38} {'old g/s':>8} {'new g/s':>8} {'new/old':>8}  games")
        for config in configs:
            old_runs, new_runs = interleaved(
                old, repeat, partial(_one_run, config=config, games=games)
            )
            olds = [rate for rate, _ in old_runs]
            news = [rate for rate, _ in new_runs]
            digests = {digest for _, digest in (*old_runs, *new_runs)}
            if not olds or not news:
                side = "old" if not olds else "new"
                print(f"{config:<38} {'the ' + side + ' version cannot play it':>26}")
                continue
            best_old, best_new = max(olds), max(news)
            same = "same" if len(digests) == 1 else "DIFFER"
            print(
                f"{config:<38} {best_old:>8.0f} {best_new:>8.0f} "
                f"{best_new / best_old:>7.2f}x  {same}"
            )


def _games_digest(summary: Any) -> str:
    """The summary's fields that the games decide (not the map's name or labels)."""
    fields = [
        (field.name, getattr(summary, field.name))
        for field in attrs.fields(type(summary))
        if field.name not in ("map_name", "route_labels")
    ]
    return hashlib.sha256(repr(fields).encode()).hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per run (default 2000)")
    parser.add_argument(
        "--workers", type=int, help="processes for the all-cores run (default: every core)"
    )
    parser.add_argument(
        "--config",
        action="append",
        help="map:players:agents (repeatable; default: " + ", ".join(DEFAULT_CONFIGS) + ")",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per version with --against")
    parser.add_argument(
        "--against", metavar="REV", help="compare with git revision REV, side by side (1 worker)"
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    configs = args.config or list(DEFAULT_CONFIGS)
    if args.against:
        against(args.against, configs, args.games, args.repeat)
        return 0
    warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
    if args.json:
        (config,) = configs
        map_name, players, agents = parse_config(config)
        simulate(map_name, players, agents, 2, workers=1)  # warm caches
        one = simulate(map_name, players, agents, args.games, workers=1)
        digest = _games_digest(one.summary)
        print(json.dumps({"games_per_second": one.games_per_second, "games": digest}))
        return 0
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    workers = args.workers or cores
    print(
        f"ttr-core {ttr_core.__version__}, Python {platform.python_version()}, "
        f"{platform.machine()}, {cores} cores; {args.games} games a run"
    )
    print(f"{'config':<38} {'1 core g/s':>10} {f'{workers} procs g/s':>13} {'speed-up':>9}")
    for config in configs:
        map_name, players, agents = parse_config(config)
        simulate(map_name, players, agents, 2, workers=1)  # warm caches
        one = simulate(map_name, players, agents, args.games, workers=1)
        many = simulate(map_name, players, agents, args.games, workers=workers)
        if many.summary != one.summary:
            print(f"{config}: the summaries differ between 1 and {workers} workers")
            return 1
        print(
            f"{config:<38} {one.games_per_second:>10.0f} {many.games_per_second:>13.0f} "
            f"{one.seconds / many.seconds:>8.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

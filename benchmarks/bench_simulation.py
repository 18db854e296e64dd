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
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import warnings

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
    args = parser.parse_args(argv)
    configs = args.config or list(DEFAULT_CONFIGS)
    warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
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

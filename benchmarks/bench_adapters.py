"""Benchmark: steps/s of the PettingZoo environment and of OpenSpiel's ``python_ttr``.

    python benchmarks/bench_adapters.py                 # the default configurations
    python benchmarks/bench_adapters.py --config newyork:2 --games 200
    python benchmarks/bench_adapters.py --adapter pettingzoo --against c0df616

A configuration is ``map:players`` (the map's default variants) or
``map:players:variants`` with the variants joined by ``+`` (``none`` for no
variant), as in ``bench_playouts.py``.

Each row plays ``--games`` whole games between uniformly random players after
one warm-up game and reports the best of ``--repeat`` runs:

- ``pettingzoo``: the AEC loop of the module's documentation
  (``env(...)``, ``reset(seed)``, ``agent_iter``, ``last()``); the action is
  drawn with a ``random.Random`` among the ids the observation's
  ``action_mask`` marks (``np.flatnonzero``), so the row measures the
  environment, not Gymnasium's sampler. Steps are the ``step`` calls of
  agents still playing (the dead steps at the end are not counted).
- ``openspiel``: ``pyspiel.load_game("python_ttr", ...)`` with a fixed
  ``seed`` parameter (no chance nodes), then ``legal_actions()`` and
  ``apply_action`` of a random one until ``is_terminal()``; ``returns()``
  once per game (what a search's playout does).
- ``openspiel-obs``: the same, plus one ``observation_tensor()`` of the seat
  to move every step (what an agent reading its observation does).

By instructions (``valgrind --tool=callgrind``, noise-free), the two engines
side by side: each row a process playing ``--games`` games minus the same
process playing none (both warmed up by one game), on the Python kernel
(``TTR_CORE_ENGINE=python``, what every adapter played before the compiled
engine) and on the compiled engine, and their ratio (the cyclic garbage
collector off in both processes after the warm-up, so that a collection
landing in one of them does not count as the games')::

    python benchmarks/bench_adapters.py --callgrind --games 10 --config newyork:2

Side by side with another version, on the same machine in one run:

    python benchmarks/bench_adapters.py --against c0df616

checks the git revision out into a temporary worktree, then for every row
runs the two versions in turn (old, new, old, new, ... each run a fresh
process) and prints both best rates and their ratio. "New" is this checkout's
working tree. The approach is ``bench_playouts.py``'s.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from sidebyside import ROOT, callgrind, interleaved, old_tree, parse_config, tree_env

import ttr_core

DEFAULT_CONFIGS = ("newyork:2", "usa:4", "nederland:4")
ADAPTERS = ("pettingzoo", "openspiel", "openspiel-obs")


def pettingzoo_steps(
    map_name: str, players: int, games: int, seed: int, variants: list[str] | None
) -> tuple[float, int]:
    """Seconds taken and steps made by ``games`` random games in the AEC environment."""
    import numpy as np

    from ttr_core.pettingzoo import env

    game = env(map=map_name, players=players, variants=variants)
    steps = 0
    start = time.perf_counter()
    for number in range(games):
        chooser = random.Random(seed + number)
        game.reset(seed=seed + number)
        for _agent in game.agent_iter():
            observation, _reward, termination, truncation, _info = game.last()
            if termination or truncation:
                game.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            game.step(int(legal[chooser.randrange(len(legal))]))
            steps += 1
    return time.perf_counter() - start, steps


def openspiel_steps(
    map_name: str,
    players: int,
    games: int,
    seed: int,
    variants: list[str] | None,
    observe: bool = False,
) -> tuple[float, int]:
    """Seconds taken and actions applied by ``games`` random games of ``python_ttr``."""
    import pyspiel  # type: ignore[import-not-found, unused-ignore]

    import ttr_core.openspiel  # noqa: F401 - registers python_ttr

    names = "default" if variants is None else "+".join(variants) or "none"
    steps = 0
    start = time.perf_counter()
    for number in range(games):
        game: Any = pyspiel.load_game(
            "python_ttr",
            {"map": map_name, "players": players, "seed": seed + number, "variants": names},
        )
        chooser = random.Random(seed + number)
        state = game.new_initial_state()
        while not state.is_terminal():
            if observe:
                state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[chooser.randrange(len(legal))])
            steps += 1
        state.returns()
    return time.perf_counter() - start, steps


def openspiel_observed_steps(
    map_name: str, players: int, games: int, seed: int, variants: list[str] | None
) -> tuple[float, int]:
    """``openspiel_steps`` with an observation tensor read every step."""
    return openspiel_steps(map_name, players, games, seed, variants, observe=True)


RUNNERS = {
    "pettingzoo": pettingzoo_steps,
    "openspiel": openspiel_steps,
    "openspiel-obs": openspiel_observed_steps,
}


def _one_run(tree: Path, adapter: str, config: str, games: int) -> float | None:
    """Steps per second of one run by the code in ``tree`` (a fresh process), or
    ``None`` if that version cannot run it."""
    env = tree_env(tree)
    command = [sys.executable, __file__, "--json", "--repeat", "1", "--games", str(games)]
    done = subprocess.run(
        [*command, "--adapter", adapter, "--config", config],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        return None
    rate: float = json.loads(done.stdout.strip().splitlines()[-1])["steps_per_second"]
    return rate


def against(
    revision: str, adapters: Sequence[str], configs: Sequence[str], games: int, repeat: int
) -> None:
    """Print old and new rates, interleaved run by run, and their ratio."""
    with old_tree(revision) as old:
        print(f"old: {revision}, new: the working tree of {ROOT}")
        print(
            f"{'adapter':<14} {'config':<16} {'old steps/s':>12} {'new steps/s':>12} {'new/old':>8}"
        )
        for adapter in adapters:
            for config in configs:
                olds, news = interleaved(
                    old, repeat, partial(_one_run, adapter=adapter, config=config, games=games)
                )
                if not olds or not news:
                    side = "old" if not olds else "new"
                    print(f"{adapter:<14} {config:<16} the {side} version cannot run it")
                    continue
                best_old, best_new = max(olds), max(news)
                print(
                    f"{adapter:<14} {config:<16} {best_old:>12.0f} {best_new:>12.0f} "
                    f"{best_new / best_old:>7.2f}x"
                )


def _instructions(adapter: str, config: str, games: int, engine: str) -> tuple[int, int]:
    """Instructions and steps of ``games`` games of ``adapter`` on ``engine``,
    less a process playing none (each in its own process, under callgrind)."""
    found = []
    for count in (games, 0):
        arguments = [__file__, "--json", "--no-gc", "--games", str(count)]
        arguments += ["--adapter", adapter, "--config", config]
        spent, output = callgrind(arguments, dict(os.environ, TTR_CORE_ENGINE=engine))
        found.append((spent, json.loads(output.strip().splitlines()[-1])["steps"]))
    return found[0][0] - found[1][0], found[0][1]


def by_instructions(adapters: Sequence[str], configs: Sequence[str], games: int) -> None:
    """Print instructions per step on both engines and their ratio."""
    print(f"instructions per step, {games} games")
    print(f"{'adapter':<14} {'config':<16} {'python':>10} {'native':>10} {'ratio':>7}")
    for adapter in adapters:
        for config in configs:
            per = {}
            for engine in ("python", "native"):
                spent, steps = _instructions(adapter, config, games, engine)
                per[engine] = spent / steps
            print(
                f"{adapter:<14} {config:<16} {per['python'] / 1000:>9.1f}k "
                f"{per['native'] / 1000:>9.1f}k {per['python'] / per['native']:>6.2f}x"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per run (default 50)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row; best kept")
    parser.add_argument(
        "--config",
        action="append",
        help="map:players[:variants] (repeatable; default: " + ", ".join(DEFAULT_CONFIGS) + ")",
    )
    parser.add_argument(
        "--adapter",
        action="append",
        choices=ADAPTERS,
        help="pettingzoo, openspiel or openspiel-obs (repeatable; default: all)",
    )
    parser.add_argument(
        "--against", metavar="REV", help="compare with git revision REV, side by side"
    )
    parser.add_argument(
        "--callgrind", action="store_true", help="instructions per step on both engines"
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-gc", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    configs = args.config or list(DEFAULT_CONFIGS)
    adapters = args.adapter or list(ADAPTERS)
    if args.against:
        against(args.against, adapters, configs, args.games, args.repeat)
        return 0
    if args.callgrind:
        by_instructions(adapters, configs, args.games)
        return 0
    if args.json:
        ((adapter,), (config,)) = adapters, configs
        map_name, players, variants = parse_config(config)
        RUNNERS[adapter](map_name, players, 1, 10**6, variants)  # warm-up
        if args.no_gc:
            # Counted by callgrind as one process less another: a full collection
            # (millions of instructions) landing in one of them but not the other
            # would count as the games'. Both processes run without one.
            gc.collect()
            gc.disable()
        seconds, steps = RUNNERS[adapter](map_name, players, args.games, 0, variants)
        rate = steps / seconds if steps else 0.0
        print(json.dumps({"steps_per_second": rate, "steps": steps}))
        return 0
    print(
        f"ttr-core {ttr_core.__version__}, Python {platform.python_version()}, {platform.machine()}"
    )
    rows = [(adapter, config) for adapter in adapters for config in configs]
    for adapter, config in rows:
        map_name, players, variants = parse_config(config)
        RUNNERS[adapter](map_name, players, 1, 10**6, variants)  # warm caches
    # Runs interleaved (every row once, then again ...), so that a busy moment of
    # a shared machine slows no one row alone; the best is kept.
    best: dict[tuple[str, str], tuple[float, int]] = {}
    for _ in range(args.repeat):
        for adapter, config in rows:
            map_name, players, variants = parse_config(config)
            run = RUNNERS[adapter](map_name, players, args.games, 0, variants)
            best[adapter, config] = min(best.get((adapter, config), run), run)
    print(f"{'adapter':<14} {'config':<16} {'games':>6} {'steps/s':>9} {'steps/game':>11}")
    for adapter, config in rows:
        seconds, steps = best[adapter, config]
        print(
            f"{adapter:<14} {config:<16} {args.games:>6} {steps / seconds:>9.0f} "
            f"{steps / args.games:>11.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

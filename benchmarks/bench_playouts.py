"""Benchmark: random full-game playouts, games/s and actions/s on one core.

    python benchmarks/bench_playouts.py            # the default configurations
    python benchmarks/bench_playouts.py --games 500 --config newyork:2
    python benchmarks/bench_playouts.py --config newyork:2:none --config newyork:2:tenth

A configuration is ``map:players`` (the map's default variants) or
``map:players:variants`` with the variants joined by ``+`` (``none`` for no
variant). The variants ``filter`` and ``tenth`` are benchmark plugins
registered here: ``filter`` is a ``ttr_filter_actions`` hook that looks at
every candidate and removes none, so that the rows with and without it show
what the filter hook costs; ``tenth`` removes the draw from the last face-up
slot and the first claim listed (12 % of the candidates of a two-player New
York game, from nearly every decision), so that its row shows what a filter
that removes something costs: the core then notes the removed actions for
``apply``. Its games differ from those of the row with no variant, so compare
actions/s. When a
``map:players:none`` row and rows of the same map and players with variants
are run, their actions/s are also printed as ratios to the ``none`` row.

Each configuration plays ``--games`` games between uniformly random players
(a legal action chosen at random each step) after one warm-up game, and
reports the best of ``--repeat`` runs. Every step lists the legal actions and
applies one, as an AI playout would; final scores are computed once per game.

``--playout`` plays the same games through :class:`ttr_core.Playout` (the
rules kernel played in place) instead of ``legal_actions`` + ``apply``.

Side by side with another version, on the same machine in one run:

    python benchmarks/bench_playouts.py --against abaca9c

checks the git revision out into a temporary worktree, then for every
configuration runs the two versions in turn (old, new, old, new, ... each
run a fresh process) and prints both best rates and their ratio. "New" is
this checkout's working tree (with ``--playout``: through the playout object,
while the old version plays its pure API). A configuration the old version cannot play
(a map or hook it does not have) is shown as such.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from sidebyside import ROOT, interleaved, old_tree, parse_config, tree_env

import ttr_core

DEFAULT_CONFIGS = (
    "newyork:2",
    "newyork:4",
    "nederland:4",
    "nederland:2:tolls+neutral",
    "usa:2",
    "usa:4",
    "amsterdam:2",
    "amsterdam:4",
    "europe:2",
    "europe:5",
    "newyork:2:none",
    "newyork:2:filter",
    "newyork:2:tenth",
    "nederland:4:tolls+filter",
)


class KeepAllFilter:
    """A filter that inspects every candidate action and removes none."""

    @ttr_core.hookimpl
    def ttr_filter_actions(self, actions: Sequence[ttr_core.Action]) -> list[ttr_core.Action]:
        return [a for a in actions if type(a) is not ttr_core.Pass]


class TenthFilter:
    """A filter that removes the draw from the last face-up slot and the first
    claim listed: about a tenth of the candidates of a New York game, removed
    from nearly every decision. Written as a plugin would write a cheap one:
    it stops looking once it has found both."""

    @ttr_core.hookimpl
    def ttr_filter_actions(self, actions: Sequence[ttr_core.Action]) -> list[ttr_core.Action]:
        face_up, claim = ttr_core.DrawFaceUp, ttr_core.ClaimRoute
        kept = list(actions)
        for i, action in enumerate(kept):
            if type(action) is face_up and action.slot == 4:  # type: ignore[attr-defined]
                del kept[i]
                break
        for i, action in enumerate(kept):
            if type(action) is claim:
                del kept[i]
                break
        return kept


BENCH_VARIANTS = {"filter": KeepAllFilter, "tenth": TenthFilter}


def playouts(
    map_name: str,
    players: int,
    games: int,
    seed: int,
    variants: list[str] | None = None,
    in_place: bool = False,
) -> tuple[float, int]:
    """Seconds taken and actions applied by ``games`` random games: through the
    pure API, or ``in_place`` through a ``ttr_core.Playout`` (the same games)."""
    board = ttr_core.load_map(map_name)
    actions = 0
    start = time.perf_counter()
    for game in range(games):
        state = ttr_core.new_game(board, players, seed=seed + game, variants=variants)
        chooser = random.Random(seed + game)
        if in_place:
            playout = ttr_core.Playout(state)
            while not playout.is_over():
                legal = playout.legal_actions()
                playout.apply(legal[chooser.randrange(len(legal))])
                actions += 1
            state = playout.snapshot()
        else:
            while state.pending is not None:
                legal = ttr_core.legal_actions(state)
                state = ttr_core.apply(state, legal[chooser.randrange(len(legal))])
                actions += 1
        ttr_core.final_scores(state)
    return time.perf_counter() - start, actions


def _one_run(tree: Path, config: str, games: int, in_place: bool = False) -> float | None:
    """Games per second of one run of ``config`` by the code in ``tree`` (a fresh
    process; ``in_place``: through the playout object), or ``None`` if that
    version cannot play it."""
    env = tree_env(tree)
    command = [sys.executable, __file__, "--json", "--repeat", "1", "--games", str(games)]
    if in_place:
        command.append("--playout")
    done = subprocess.run(
        [*command, "--config", config], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        return None
    rate: float = json.loads(done.stdout.strip().splitlines()[-1])["games_per_second"]
    return rate


def against(
    revision: str, configs: Sequence[str], games: int, repeat: int, in_place: bool = False
) -> None:
    """Print old and new rates, interleaved run by run, and their ratio (``in_place``:
    the new version plays through the playout object, the old one its pure API)."""
    with old_tree(revision) as old:
        how = " through ttr_core.Playout" if in_place else ""
        print(f"old: {revision}, new: the working tree of {ROOT}{how}")
        print(f"{'config':<25} {'old games/s':>12} {'new games/s':>12} {'new/old':>8}")
        for config in configs:

            def run(tree: Path, config: str = config) -> float | None:
                return _one_run(tree, config, games, in_place and tree == ROOT)

            olds, news = interleaved(old, repeat, run)
            if not olds or not news:
                side = "old" if not olds else "new"
                print(f"{config:<25} {'the ' + side + ' version cannot play it':>34}")
                continue
            best_old, best_new = max(olds), max(news)
            print(f"{config:<25} {best_old:>12.0f} {best_new:>12.0f} {best_new / best_old:>7.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per run (default 1000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per configuration; best kept")
    parser.add_argument(
        "--config",
        action="append",
        help="map:players[:variants] (repeatable; default: " + ", ".join(DEFAULT_CONFIGS) + ")",
    )
    parser.add_argument(
        "--against", metavar="REV", help="compare with git revision REV, side by side"
    )
    parser.add_argument(
        "--playout",
        action="store_true",
        help="play through ttr_core.Playout (with --against: the new version only)",
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    configs = args.config or list(DEFAULT_CONFIGS)
    if args.against:
        against(args.against, configs, args.games, args.repeat, args.playout)
        return 0
    wanted = {v for c in configs for v in (parse_config(c)[2] or [])}
    for name, plugin in BENCH_VARIANTS.items():
        if name in wanted and name not in ttr_core.available_variants():
            ttr_core.register_variant(name, plugin())
    if args.json:
        (config,) = configs
        map_name, players, variants = parse_config(config)
        playouts(map_name, players, 1, seed=10**6, variants=variants, in_place=args.playout)
        seconds, actions = playouts(
            map_name, players, args.games, seed=0, variants=variants, in_place=args.playout
        )
        print(json.dumps({"games_per_second": args.games / seconds, "actions": actions}))
        return 0
    print(
        f"ttr-core {ttr_core.__version__}, Python {platform.python_version()}, {platform.machine()}"
    )
    for config in configs:
        map_name, players, variants = parse_config(config)
        # warm caches (map, rule set, action table)
        playouts(map_name, players, 1, seed=10**6, variants=variants, in_place=args.playout)
    # Runs interleaved (every configuration once, then again ...), so that a
    # busy moment of a shared machine slows no one row alone; the best is kept.
    best: dict[str, tuple[float, int]] = {}
    for _ in range(args.repeat):
        for config in configs:
            map_name, players, variants = parse_config(config)
            run = playouts(
                map_name, players, args.games, seed=0, variants=variants, in_place=args.playout
            )
            best[config] = min(best.get(config, run), run)
    print(f"{'config':<25} {'games':>6} {'games/s':>9} {'actions/s':>10} {'actions/game':>13}")
    for config in configs:
        seconds, actions = best[config]
        print(
            f"{config:<25} {args.games:>6} {args.games / seconds:>9.0f} "
            f"{actions / seconds:>10.0f} {actions / args.games:>13.1f}"
        )
    for config in configs:
        map_name, players, _ = parse_config(config)
        plain = f"{map_name}:{players}:none"
        if config != plain and plain in best:
            (seconds, actions), (plain_seconds, plain_actions) = best[config], best[plain]
            ratio = (actions / seconds) / (plain_actions / plain_seconds)
            print(f"{config} / {plain}: {ratio:.2f}x actions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

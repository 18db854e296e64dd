"""Playing games with every invariant checked after every action: ``ttr verify``.

:func:`play_checked` plays one game, choosing with any chooser (seeded
random play here, hypothesis' choices in ``ttr_core.testing``), checks the
invariants of :mod:`ttr_core.checking.invariants` after each action and stops at the
first violation. :func:`verify` plays many seeded random games and gathers
what ``ttr verify`` prints. Nothing here needs hypothesis.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TextIO

import attrs

from ttr_core.agents import make_agent
from ttr_core.checking.invariants import action_bound
from ttr_core.checking.registry import (
    GamePlay,
    Invariant,
    Violation,
    chosen_names,
    invariant_names,
    invariants_for,
    record_text,
    run_check,
)
from ttr_core.errors import ArgumentError, GameConfigError, PlayerCountError, PluginError
from ttr_core.hooks import checks as hookcheck
from ttr_core.mapfiles.finding import load_map
from ttr_core.model.actions import Action
from ttr_core.model.board import Board
from ttr_core.model.state import GameState
from ttr_core.rules.engine import apply, legal_actions
from ttr_core.rules.setup import new_game
from ttr_core.rules.views import player_view
from ttr_core.search.outcomes import failure_states, plain_statistics

__all__ = [
    "STATS",
    "Chooser",
    "Failure",
    "GameReport",
    "VerifyReport",
    "play_checked",
    "player_counts",
    "print_report",
    "random_chooser",
    "verify",
]

#: Picks the action to play among the legal ones.
Chooser = Callable[[GameState, Sequence[Action]], Action]

#: Counted per state: only ``Pass`` was legal; the display showed more wilds than
#: allowed because no reset could help (E3); the deck was empty (a plain statistic:
#: the discard pile is shuffled in when a card is needed); deck and discard pile
#: were both empty (E4). All but ``deck_empty`` are failure states.
STATS = ("only_pass", "e3_guard", "deck_empty", "supply_empty")


@attrs.frozen
class GameReport:
    """One game played with its invariants checked.

    ``play`` is the game as far as it went (to its end, to the first
    violation, or to the action bound); ``violations`` what was broken at the
    step where the game stopped; ``checks`` how many times each invariant was
    checked; ``stats`` the per-state counts of :data:`STATS`.
    """

    play: GamePlay
    violations: tuple[Violation, ...]
    checks: Mapping[str, int]
    stats: Mapping[str, int]

    @property
    def ok(self) -> bool:
        """Whether every invariant held."""
        return not self.violations

    def failure(self) -> str:
        """A message for people: each violation, then the JSON record that reproduces
        the game up to the step that broke it (``ttr replay`` reads it)."""
        lines = [str(v) for v in self.violations]
        state = self.play.states[0]
        lines.append(
            f"game: {state.board.id}, {state.num_players} players, variants "
            f"{list(state.rules.variants)}, seed {state.seed}, {len(self.play.actions)} actions"
        )
        lines.append(f"record: {record_text(self.play)}")
        return "\n".join(lines)


def play_checked(
    state: GameState,
    choose: Chooser,
    *,
    invariants: Sequence[Invariant] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    max_actions: int | None = None,
) -> GameReport:
    """Play from ``state`` (a state ``new_game`` returned) to the end, choosing with
    ``choose``, and check ``invariants`` (default: every one that applies) after
    every action; stop at the first step that breaks one. A game longer than
    ``max_actions`` (default :func:`~ttr_core.checking.invariants.action_bound`) breaks
    ``terminates``. Runs in strict mode (hook results checked in full)."""
    chosen = tuple(invariants_for(state.rules) if invariants is None else invariants)
    bound = action_bound(state.board, state.num_players) if max_actions is None else max_actions
    if options is None:
        options = {v: dict(values) for v, values in state.rules.options}
    previous = hookcheck.set_strict(True)
    try:
        return _play(state, choose, chosen, options, bound)
    finally:
        hookcheck.set_strict(previous)


def _play(
    state: GameState,
    choose: Chooser,
    chosen: tuple[Invariant, ...],
    options: Mapping[str, Mapping[str, Any]],
    bound: int,
) -> GameReport:
    states = [state]
    actions: list[Action] = []
    checks: Counter[str] = Counter()
    stats: Counter[str] = Counter()
    state_checks = [inv for inv in chosen if inv.kind == "state"]
    step_checks = [inv for inv in chosen if inv.kind == "transition"]
    game_checks = [inv for inv in chosen if inv.kind == "game"]

    def run(inv: Invariant, step: int, last: bool, *args: Any) -> list[Violation]:
        if inv.every > 1 and step % inv.every and not last:
            return []
        checks[inv.name] += 1
        return run_check(inv, step, *args)

    found = [v for inv in state_checks for v in run(inv, 0, state.is_over, state)]
    # The game invariants hold from the start (a set-up that is not reproducible
    # shows at once, not only at the end).
    start = GamePlay((state,), (), options, bound)
    found += [v for inv in game_checks for v in run_check(inv, 0, start)]
    while not found and not state.is_over and len(actions) <= bound:
        step = len(actions) + 1
        try:
            legal = legal_actions(state)
            action = choose(state, legal)
            after = apply(state, action)
        except Exception as exc:
            found = [Violation("play", f"{type(exc).__name__}: {exc}", step - 1)]
            break
        _count(stats, state, legal)
        last = after.is_over
        found = [v for inv in step_checks for v in run(inv, step, last, state, action, after)]
        state = after
        states.append(state)
        actions.append(action)
        found += [v for inv in state_checks for v in run(inv, step, last, state)]
    play = GamePlay(tuple(states), tuple(actions), options, bound)
    if not found or len(actions) > bound:
        found += [v for inv in game_checks for v in run(inv, len(actions), True, play)]
    return GameReport(play, tuple(found), dict(checks), dict(stats))


def _count(stats: Counter[str], state: GameState, legal: Sequence[Action]) -> None:
    found = (*failure_states(state, legal), *plain_statistics(state))
    stats.update(name for name in found if name in STATS)


def random_chooser(seed: int) -> Chooser:
    """A chooser picking uniformly at random, from a generator seeded with ``seed``."""
    rng = random.Random(seed)

    def choose(state: GameState, legal: Sequence[Action]) -> Action:
        return legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]

    return choose


def agents_chooser(names: Sequence[str], players: int, seed: int) -> Chooser:
    """A chooser playing each seat with a built-in agent (``ttr_core.agents``): seat
    ``i`` plays ``names[i % len(names)]`` on its own view, all from one
    generator seeded with ``seed``. ``UnknownAgentError`` for a name no agent has."""
    seats = [make_agent(names[i % len(names)]) for i in range(players)]
    rng = random.Random(seed)

    def choose(state: GameState, legal: Sequence[Action]) -> Action:
        assert state.pending is not None
        seat = state.pending.player
        return seats[seat].act(player_view(state, seat), legal, rng)

    return choose


# ---------------------------------------------------------------------------
# Many games: ttr verify
# ---------------------------------------------------------------------------


@attrs.frozen
class Failure:
    """A game that broke an invariant: enough to reproduce it."""

    players: int
    seed: int
    violations: tuple[Violation, ...]
    record: str


@attrs.define
class VerifyReport:
    """What :func:`verify` found over many games, by player count where it says so."""

    map: str
    map_name: str
    variants: tuple[str, ...]
    seed: int
    #: The agents that played the seats in turn; empty: random play.
    agents: tuple[str, ...] = ()
    games: Counter[int] = attrs.field(factory=Counter)
    actions: Counter[int] = attrs.field(factory=Counter)
    longest: Counter[int] = attrs.field(factory=Counter)
    endings: Counter[tuple[int, str]] = attrs.field(factory=Counter)
    stats: Counter[tuple[int, str]] = attrs.field(factory=Counter)
    stat_games: Counter[tuple[int, str]] = attrs.field(factory=Counter)
    checks: Counter[str] = attrs.field(factory=Counter)
    violations: Counter[str] = attrs.field(factory=Counter)
    failures: list[Failure] = attrs.field(factory=list)
    skipped: dict[int, str] = attrs.field(factory=dict)

    @property
    def total_games(self) -> int:
        """Games played."""
        return sum(self.games.values())

    @property
    def ok(self) -> bool:
        """Whether no invariant was broken."""
        return not self.violations

    def add(self, players: int, seed: int, report: GameReport, keep: int = 5) -> None:
        """Count one game."""
        play = report.play
        self.games[players] += 1
        self.actions[players] += len(play.actions)
        self.longest[players] = max(self.longest[players], len(play.actions))
        termination = play.state.termination
        self.endings[(players, str(termination) if termination else "unfinished")] += 1
        for name, count in report.stats.items():
            self.stats[(players, name)] += count
            self.stat_games[(players, name)] += 1
        self.checks.update(report.checks)
        for violation in report.violations:
            self.violations[violation.invariant] += 1
        if report.violations and len(self.failures) < keep:
            self.failures.append(
                Failure(players, seed, report.violations, record_text(report.play))
            )

    def merge(self, other: VerifyReport, keep: int = 5) -> None:
        """Add another report's counts (of the same configuration) to this one."""
        for name in ("games", "actions", "endings", "stats", "stat_games", "checks", "violations"):
            getattr(self, name).update(getattr(other, name))
        for players, longest in other.longest.items():
            self.longest[players] = max(self.longest[players], longest)
        self.failures.extend(other.failures[: max(0, keep - len(self.failures))])


def player_counts(
    board: Board,
    variants: Sequence[str] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> tuple[list[int], dict[int, str]]:
    """The player counts a configuration can be played with, and why each other
    count of the map's range cannot (a variant refusing it)."""
    counts: list[int] = []
    refused: dict[int, str] = {}
    for players in range(board.rules.min_players, board.rules.max_players + 1):
        try:
            new_game(board, players, seed=0, variants=variants, options=options)
        except (GameConfigError, PlayerCountError, PluginError) as exc:
            refused[players] = str(exc)
        else:
            counts.append(players)
    return counts, refused


def verify(
    map: str | os.PathLike[str] | Board,
    variants: Sequence[str] | None = None,
    *,
    players: Iterable[int] | None = None,
    games: int = 100,
    seed: int = 0,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    only: Iterable[str] | None = None,
    skip: Iterable[str] = (),
    jobs: int = 1,
    agents: Sequence[str] = (),
) -> VerifyReport:
    """Play ``games`` seeded random games (game ``i`` with seed ``seed + i``, the
    player counts taken in turn: ``players``, or every count the configuration
    allows) with every invariant checked after every action, in strict mode.
    ``only`` and ``skip`` choose invariants by name; ``jobs`` processes share
    the games.

    :class:`~ttr_core.ArgumentError` for a name in ``only`` or ``skip`` that
    no invariant has (with the closest names and the list: see
    :func:`~ttr_core.checking.registry.invariant_names`), for one in ``only`` that is
    not checked in games of this configuration, and for an empty ``only``:
    a run that would check nothing asked for is refused, never reported as
    "no invariant broken".

    ``agents``: the built-in agents that play the seats, in turn (``("route",
    "random")``: seat 0 a route bot, seat 1 at random, ...), so that the
    checks reach what bots play and random play rarely does (long routes
    claimed, tickets completed); empty (the default), every seat at random.
    ``UnknownAgentError`` (an ``ArgumentError``... a ``TtrError``) for a name
    no agent has."""
    agents = tuple(agents)
    for name in agents:
        make_agent(name)
    board = map if isinstance(map, Board) else load_map(map)
    given = None if variants is None else tuple(variants)
    allowed, refused = player_counts(board, given, options)
    counts = allowed if players is None else [p for p in players]
    if not counts:
        raise ValueError(f"no player count can be played: {refused or 'none given'}")
    first = new_game(board, counts[0], seed=0, variants=given, options=options)
    only_names, skip_names = _check_names(first, only, skip)
    report = VerifyReport(board.id, board.name, first.rules.variants, seed, agents=agents)
    report.skipped = {p: why for p, why in refused.items() if players is None}
    plan = [(counts[i % len(counts)], seed + i) for i in range(games)]
    job = _Job(board, given, options, only_names, skip_names, agents)
    if jobs <= 1 or games < 2 * jobs:
        report.merge(job(plan))
        return report
    chunks = [plan[i::jobs] for i in range(jobs)]
    context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ProcessPoolExecutor(jobs, mp_context=context) as pool:
        for part in pool.map(job, chunks):
            report.merge(part)
    return report


def _check_names(
    state: GameState, only: Iterable[str] | None, skip: Iterable[str]
) -> tuple[tuple[str, ...] | None, tuple[str, ...]]:
    """``only`` and ``skip`` as sorted tuples of names; refuse a name no invariant
    has, and an ``only`` name no game of ``state``'s configuration checks."""
    checked = invariant_names(state.rules)
    wanted, dropped = chosen_names(only, skip, (*invariant_names(), *checked))
    for name in sorted(wanted or ()):
        if name not in checked:
            variants = ", ".join(state.rules.variants) or "none"
            raise ArgumentError(
                f"only: invariant {name!r} is not checked in games of {state.board.id} with "
                f"variants {variants}, so nothing would be checked of it (checked here: "
                f"{', '.join(checked)})"
            )
    return (None if wanted is None else tuple(sorted(wanted))), tuple(sorted(dropped))


@attrs.frozen
class _Job:
    """Plays a list of (players, seed) games (picklable, for worker processes)."""

    board: Board
    variants: tuple[str, ...] | None
    options: Mapping[str, Mapping[str, Any]] | None
    only: tuple[str, ...] | None
    skip: tuple[str, ...]
    agents: tuple[str, ...] = ()

    def __call__(self, plan: Sequence[tuple[int, int]]) -> VerifyReport:
        report = VerifyReport(self.board.id, self.board.name, (), 0)
        chosen: dict[int, tuple[Invariant, ...]] = {}
        for players, seed in plan:
            state = new_game(
                self.board, players, seed=seed, variants=self.variants, options=self.options
            )
            if players not in chosen:
                chosen[players] = invariants_for(state.rules, only=self.only, skip=self.skip)
            choose = (
                agents_chooser(self.agents, players, seed) if self.agents else random_chooser(seed)
            )
            result = play_checked(state, choose, invariants=chosen[players], options=self.options)
            report.add(players, seed, result)
        return report


# ---------------------------------------------------------------------------
# The table ttr verify prints
# ---------------------------------------------------------------------------


def print_report(report: VerifyReport, out: TextIO | None = None) -> None:
    """Print ``report`` as ``ttr verify`` does (to ``out``, default standard output)."""
    out = sys.stdout if out is None else out
    variants = ", ".join(report.variants) or "none"
    total = report.total_games
    last = report.seed + total - 1
    played = f"games of {', '.join(report.agents)}" if report.agents else "random games"
    print(
        f"{report.map_name} ({report.map}), variants: {variants}: {total} {played} "
        f"(seeds {report.seed}–{last}), every invariant after every action, strict hook checks",
        file=out,
    )
    for players, why in sorted(report.skipped.items()):
        print(f"  {players} players: not played ({why})", file=out)
    head = (
        f"{'players':>7} {'games':>6} {'actions':>9} {'mean':>6} {'max':>5} "
        f"{'by cars':>8} {'stalemate':>9} {'unfinished':>10} "
        f"{'only Pass':>15} {'wilds stuck':>15} {'deck empty':>15} {'no cards':>15}"
    )
    print(head, file=out)
    for players in sorted(report.games):
        print(_row(report, players), file=out)
    print(_row(report, None), file=out)
    print(
        "  only Pass, wilds stuck, deck empty, no cards: states (games) where only Pass was "
        "legal; the display held more wilds than allowed, no reset able to help; the deck was "
        "empty; deck and discard pile were empty",
        file=out,
    )
    print(f"\n{'invariant':<34} {'checked':>10} {'violations':>10}", file=out)
    for name, count in report.checks.items():
        print(f"{name:<34} {count:>10,} {report.violations.get(name, 0):>10,}", file=out)
    for name, count in report.violations.items():
        if name not in report.checks:
            print(f"{name:<34} {'':>10} {count:>10,}", file=out)
    if report.ok:
        print("\nno invariant broken", file=out)
        return
    broken = sum(report.violations.values())
    print(f"\n{broken} violations; the first games that broke an invariant:", file=out)
    for failure in report.failures:
        print(f"- {failure.players} players, seed {failure.seed}:", file=out)
        for violation in failure.violations:
            print(f"    {violation}", file=out)
        print(
            f"    reproduce: ttr verify --map {report.map} --variants "
            f"{','.join(report.variants)!r} --players {failure.players} "
            f"--seed {failure.seed} --games 1 --records"
            + (f" --agents {','.join(report.agents)}" if report.agents else ""),
            file=out,
        )


def _row(report: VerifyReport, players: int | None) -> str:
    def total(counter: Counter[Any], name: str | None = None) -> int:
        if players is not None:
            return counter[players if name is None else (players, name)]
        if name is None:
            return sum(counter.values())
        return sum(n for (p, key), n in counter.items() if key == name)

    games = total(report.games)
    actions = total(report.actions)
    longest = (
        report.longest[players] if players is not None else max(report.longest.values(), default=0)
    )
    mean = actions / games if games else 0.0
    cells = [
        f"{'all' if players is None else players:>7}",
        f"{games:>6,}",
        f"{actions:>9,}",
        f"{mean:>6.1f}",
        f"{longest:>5}",
        f"{total(report.endings, 'cars'):>8,}",
        f"{total(report.endings, 'stalemate'):>9,}",
        f"{total(report.endings, 'unfinished'):>10,}",
    ]
    for name in STATS:
        cells.append(f"{f'{total(report.stats, name):,} ({total(report.stat_games, name):,})':>15}")
    return " ".join(cells)

"""``ttr``'s own game: one demo game between the bots told with its score
sheets, or many games' win rates.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

from ttr_core.agents import make_agent
from ttr_core.cli.arguments import _print_options
from ttr_core.model.board import Board
from ttr_core.model.scores import FinalScores
from ttr_core.model.state import GameState
from ttr_core.play.text import player
from ttr_core.rules.setup import new_game
from ttr_core.search.simulate import PlayoutResult, random_playout

#: The bots' style in the demo unless ``--agents`` says otherwise (as ``ttr play``).
DEMO_AGENTS = "route"


def _demo_playout(
    board: Board,
    players: int,
    styles: Sequence[str],
    seed: int,
    variants: Sequence[str] | None,
    options: dict[str, dict[str, Any]],
) -> PlayoutResult:
    """One game of the demo: seat ``s`` played by ``styles[s % len(styles)]``
    (random seats only: :func:`random_playout`, as the demo always played)."""
    if all(style == "random" for style in styles):
        return random_playout(board, players, seed=seed, variants=variants, options=options)
    from ttr_core.simulation import play_game

    state = new_game(board, players, seed=seed, variants=variants, options=options)
    agents = [make_agent(styles[seat % len(styles)]) for seat in range(players)]
    played = play_game(state, agents, seed)
    return PlayoutResult(played.state, played.scores, played.actions, played.history)


def _lineup(styles: Sequence[str], players: int) -> str:
    """``"route bots"``, ``"random players"``, or each seat's style."""
    if len(set(styles)) == 1:
        return "random players" if styles[0] == "random" else f"{styles[0]} bots"
    return ", ".join(f"{_player(s)} {styles[s % len(styles)]}" for s in range(players))


def _player(seat: int) -> str:
    """A seat as people count, as ``ttr play`` names it: ``"Player 1"`` for seat 0."""
    return player(seat)


def _print_game(result: PlayoutResult, seed: int, styles: Sequence[str]) -> None:
    state = result.state
    scores = result.scores
    board = state.board
    variants = ", ".join(state.rules.variants) or "none"
    print(
        f"{board.name}, {state.num_players} players: "
        f"{_lineup(styles, state.num_players)}, seed {seed}, variants: {variants}"
    )
    _print_options(state.rules.options)
    ended = board.pieces if scores.termination == "cars" else scores.termination
    print(f"{result.turns} turns, {result.actions} actions, ended by {ended}")
    _print_scores(state, scores)


def _print_scores(
    state: GameState, scores: FinalScores, name: Callable[[int], str] = _player
) -> None:
    """The score sheets and the winners, each seat called ``name(seat)``
    (players counted from 1, in the demo and ``ttr replay`` as in ``ttr play``)."""
    board = state.board
    for sheet in scores.sheets:
        print(f"\n{name(sheet.player)}: {sheet.total} points")
        for line in sheet.lines:
            print(f"  {line.points:+4d}  {line.label}")
    for other in scores.others:
        cars = "" if other.cars is None else f", {other.cars} {board.pieces} left"
        print(
            f"\n{other.name.capitalize()} (not a seat; scores nothing): "
            f"{len(other.routes)} routes{cars}"
        )
        for rid in other.routes:
            route = board.routes[rid]
            print(f"        {route.a}–{route.b} ({route.color} {route.length})")
    names = ", ".join(name(w) for w in scores.winners)
    if not names:  # an abandoned game
        print("\nNo winner.")
        return
    print(f"\nWinner{'s' if len(scores.winners) > 1 else ''}: {names}")


def _print_many(results: list[PlayoutResult], elapsed: float, styles: Sequence[str]) -> None:
    first = results[0].state
    seats = first.num_players
    variants = ", ".join(first.rules.variants) or "none"
    print(
        f"{first.board.name}: {len(results)} games, {seats} players: "
        f"{_lineup(styles, seats)}, variants: {variants}"
    )
    _print_options(first.rules.options)
    wins = [0.0] * seats
    for result in results:
        for winner in result.scores.winners:
            wins[winner] += 1 / len(result.scores.winners)
    print(f"{'player':>6}  {'win rate':>8}  {'mean score':>10}  {'mean tickets done':>17}")
    for seat in range(seats):
        mean = statistics.fmean(r.scores.sheets[seat].total for r in results)
        done = statistics.fmean(r.scores.sheets[seat].tickets_completed for r in results)
        print(f"{seat + 1:>6}  {wins[seat] / len(results):>8.1%}  {mean:>10.1f}  {done:>17.2f}")
    turns = statistics.fmean(r.turns for r in results)
    actions = sum(r.actions for r in results)
    stalemates = sum(1 for r in results if r.scores.termination == "stalemate")
    print(f"mean turns per game: {turns:.1f}; stalemates: {stalemates}")
    for other in results[0].scores.others:
        owned = statistics.fmean(
            sum(len(o.routes) for o in r.scores.others if o.owner == other.owner) for r in results
        )
        print(f"{other.name}: {owned:.1f} routes per game (not a seat; scores nothing)")
    print(f"{len(results) / elapsed:.0f} games/s, {actions / elapsed:.0f} actions/s")

"""One game of a simulation: its seed (:func:`game_seed`, the same whatever
the workers), the seats' agents, and what is kept of it (:class:`GameResult`),
failure states counted at every decision.
"""

from __future__ import annotations

import hashlib
import operator
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import repeat

import attrs

from ttr_core.agents import Agent, RandomAgent
from ttr_core.agents.base import uniform_choice
from ttr_core.errors import TtrError
from ttr_core.model.actions import Action
from ttr_core.model.scores import FinalScores
from ttr_core.model.state import GameState
from ttr_core.rules.scoring import final_scores
from ttr_core.rules.views import player_view
from ttr_core.search.outcomes import Supply, failure_states, plain_statistics
from ttr_core.search.playout import Playout

__all__ = [
    "LOOPHOLES",
    "MAX_ACTIONS",
    "STATISTICS",
    "GameResult",
    "PlayedGame",
    "SimulationError",
    "game_seed",
    "play_game",
    "seat_agents",
    "state_loopholes",
]


#: The failure states counted ("loopholes" a map designer wants to see), with what
#: each means in words for people (the engine decisions E1, E2, E3, E4 and E6 of
#: docs/rules.md), and the plain statistics counted alike (:data:`STATISTICS`).
#: All but ``stalemate`` are counted per decision (the state a seat decides in);
#: ``stalemate`` once per game that ended so. The names are stable (the per-game
#: table's columns); the words may change.
LOOPHOLES: Mapping[str, str] = {
    "only_pass": "a seat had only Pass: nothing else was possible",
    "stalemate": "the game ended in a stalemate: a full round of passes",
    "e3_guard": "the display kept too many wilds, no reset able to help",
    "deck_empty": "the card deck was empty (a statistic: the discard pile is shuffled in)",
    "supply_empty": "deck and discard pile were both empty: no card to draw blind",
    "tickets_empty": "no ticket was left to draw",
}


#: Most actions one game may take before the simulation stops with an error.
MAX_ACTIONS = 100_000


class SimulationError(TtrError):
    """A simulation that cannot be run (an unknown agent, too many agents, no
    games) or a game of it that could not be played (an agent that raised or
    chose an illegal action, a game that did not end): the message then names
    the game's index and seed."""


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a simulation seeded with ``seed``: 63 bits of
    SHA-256 over both (a 64-bit integer column in a table), so that games are
    independent and any worker can play any game."""
    return _derive("game", seed, index)


def _derive(*parts: object) -> int:
    text = "ttr-core simulate " + " ".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


#: The names of :data:`LOOPHOLES` that are plain statistics, not failure states
#: (:func:`ttr_core.search.outcomes.plain_statistics`): counted alike, reported apart.
STATISTICS = ("deck_empty",)


def state_loopholes(state: Supply, legal: Sequence[Action]) -> list[str]:
    """The names of :data:`LOOPHOLES` counted per decision that a seat deciding in
    ``state`` with ``legal`` actions is in, in that order: its failure states
    (:func:`ttr_core.search.outcomes.failure_states`) and plain statistics
    (:func:`ttr_core.search.outcomes.plain_statistics`; ``ttr verify`` counts both
    by the same names)."""
    found = failure_states(state, legal)
    plain = plain_statistics(state)
    if plain:
        found = [name for name in _STATE_LOOPHOLES if name in found or name in plain]
    return found


_STATE_LOOPHOLES = tuple(name for name in LOOPHOLES if name != "stalemate")


@attrs.frozen
class GameResult:
    """One game of a simulation: small and picklable.

    Per seat (tuples in seat order): the agent's name, the final score,
    tickets kept and completed, cars left and the routes claimed.
    ``loopholes`` counts the decisions taken in each per-decision failure
    state of :data:`LOOPHOLES` (in its order, ``stalemate`` left out: see
    ``termination``). ``record`` is the game's JSON record
    (:func:`ttr_core.to_json` of its :class:`~ttr_core.GameRecord`) when
    records were asked for.
    """

    index: int
    seed: int
    agents: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    termination: str
    turns: int
    actions: int
    tickets_kept: tuple[int, ...]
    tickets_completed: tuple[int, ...]
    cars: tuple[int, ...]
    routes: tuple[tuple[int, ...], ...]
    loopholes: tuple[int, ...]
    record: str | None = attrs.field(default=None, repr=False)


def seat_agents(lineup: Sequence[str], players: int, index: int, rotate: bool) -> list[int]:
    """Which entry of ``lineup`` plays each seat of game ``index``: the lineup
    repeated to fill the seats, turned by one seat per game when ``rotate``."""
    shift = index % players if rotate else 0
    return [(seat + shift) % players % len(lineup) for seat in range(players)]


@attrs.frozen
class PlayedGame:
    """A game :func:`play_game` played to its end: the final ``state``, its
    ``scores``, the number of ``actions`` applied, the actions themselves
    (``history``, when kept) and the decisions taken in each failure state
    (``loopholes``: name → count, for the names :func:`state_loopholes` gives)."""

    state: GameState = attrs.field(repr=False)
    scores: FinalScores
    actions: int
    history: tuple[Action, ...] = attrs.field(repr=False)
    loopholes: Mapping[str, int]


def play_game(
    state: GameState,
    agents: Sequence[Agent],
    seed: int,
    *,
    keep_history: bool = True,
    max_actions: int = MAX_ACTIONS,
) -> PlayedGame:
    """Play ``state`` to its end, seat ``s`` played by ``agents[s]``.

    Each decision, the agent of the seat to decide gets only that seat's
    :func:`~ttr_core.player_view` and the legal actions (never the state),
    and a generator of its own seeded from ``seed`` and its seat. Raises
    :class:`SimulationError` for an agent that raises or returns an illegal
    action, a game longer than ``max_actions``, or arguments that cannot be
    played (not a state, not one agent per seat, a seed that is not a whole
    number).
    """
    if not isinstance(state, GameState):
        raise SimulationError(f"state must be a ttr_core.GameState, not {state!r}")
    if not isinstance(agents, Sequence) or len(agents) != state.num_players:
        raise SimulationError(
            f"agents must be a sequence of one agent per seat ({state.num_players}), not {agents!r}"
        )
    for name, value in (("seed", seed), ("max_actions", max_actions)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SimulationError(f"{name} must be a whole number, not {value!r}")
    if max_actions < 1:
        raise SimulationError(f"max_actions must be at least 1, not {max_actions}")
    rngs = [random.Random(_derive("agent", seed, seat)) for seat in range(len(agents))]
    # The game runs in place (a Playout: the same legal lists, the same states
    # as legal_actions + apply); a frozen state is published only for a view.
    # An agent whose act is RandomAgent's reads no view, so none is built for
    # it: its choice is RandomAgent.act's (uniform_choice), from its generator.
    viewless = [_reads_no_view(agent) for agent in agents]
    if all(viewless):
        # Random agents alone: the compiled engine plays the game when it can,
        # the seats' choices and the loopholes counted in C (the same games).
        try:
            playout = Playout(state)
        except TtrError as exc:  # TTR_CORE_ENGINE=native, and the engine cannot play this game
            raise SimulationError(str(exc)) from exc
        if playout.engine == "native":
            return _play_natively(playout, seed, len(agents), keep_history, max_actions)
    else:
        playout = Playout(state, engine="python")
    work = playout._work  # the failure states are read off the working state
    history: list[Action] = []
    met: Counter[str] = Counter()
    steps = 0
    current = playout.current_player
    while current is not None:
        seat = current
        legal = playout.legal_actions()
        found = state_loopholes(work, legal)
        if found:  # rarely: Counter.update costs more than the look itself
            met.update(found)
        try:
            if viewless[seat]:
                action = uniform_choice(legal, rngs[seat])
            else:
                action = agents[seat].act(player_view(playout.snapshot(), seat), legal, rngs[seat])
        except Exception as exc:
            raise SimulationError(f"the agent of seat {seat} failed: {exc!r}") from exc
        if not any(map(operator.is_, legal, repeat(action))) and action not in legal:
            raise SimulationError(f"the agent of seat {seat} chose an illegal action: {action!r}")
        playout.apply(action)
        steps += 1
        if keep_history:
            history.append(action)
        if steps >= max_actions:
            raise SimulationError(f"the game did not end within {max_actions} actions")
        current = playout.current_player
    final = playout.snapshot()
    return PlayedGame(final, final_scores(final), steps, tuple(history), dict(met))


#: The loopholes the compiled engine counts, in its order (``play_agents``).
_NATIVE_LOOPHOLES = ("only_pass", "e3_guard", "deck_empty", "supply_empty", "tickets_empty")


def _play_natively(
    playout: Playout, seed: int, seats: int, keep_history: bool, max_actions: int
) -> PlayedGame:
    """:func:`play_game` of random agents on the compiled engine: each seat's
    generator seeded as the Python loop seeds it, the same choices
    (``uniform_choice``), the same loopholes counted."""
    compiled = playout._compiled()
    seeds = [_derive("agent", seed, seat) for seat in range(seats)]
    done, seen, history = compiled.play_agents(seeds, max_actions, keep_history)
    if done >= max_actions:  # as the Python loop: its last action was the limit's
        raise SimulationError(f"the game did not end within {max_actions} actions")
    met = {name: count for name, count in zip(_NATIVE_LOOPHOLES, seen, strict=True) if count}
    final = playout.snapshot()
    return PlayedGame(final, final_scores(final), done, tuple(history or ()), met)


def _reads_no_view(agent: Agent) -> bool:
    """Whether ``agent`` plays as :class:`~ttr_core.agents.RandomAgent` does, by its
    very ``act`` (which never reads the view)."""
    act = getattr(type(agent), "act", None)
    return act is RandomAgent.act and "act" not in getattr(agent, "__dict__", ())

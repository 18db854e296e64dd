"""Simulation at scale: many games between agents, on local cores or a Dask cluster.

:func:`simulate` plays ``games`` games of one configuration between agents
(:mod:`ttr_core.agents`) and returns a :class:`SimulationResult`: the
:class:`Summary` (win rates per seat and per agent with 95 % intervals,
scores, game length, ticket completion, how games ended, the routes claimed
most often, the failure states reached) and, if asked, every game's
:class:`GameResult`.

Game ``i`` is played with the seed :func:`game_seed` ``(seed, i)`` and its
agents draw from generators seeded from that seed and their seat, and the
summary holds only whole numbers summed over games, so it is the same
whatever the number of workers, the chunking or the scheduler.

By default the games run in a process pool over the machine's cores, sent
in chunks so that the cost per game stays small. The workers end with the
simulation: an exception in the caller (Ctrl-C's ``KeyboardInterrupt``, a
``SystemExit`` raised by a SIGTERM handler, a game that fails) ends them at
once, and each worker ends by itself when the process that started it dies
(killed, or ended by a signal it does not handle). Given a
``dask.distributed.Client`` (or a scheduler address), the chunks run on a
Dask cluster instead: ``pip install '.[dask]'`` in a clone of ttr-core.

A per-game table (:class:`TableWriter`, :func:`write_table`) is written under
its name plus :data:`PARTIAL_SUFFIX` and renamed to its name only when it is
complete, so a table cut short is never found under the name of a complete one.
"""

from __future__ import annotations

import csv
import ctypes
import hashlib
import importlib
import math
import multiprocessing
import multiprocessing.connection
import operator
import os
import pickle
import queue
import random
import signal
import sys
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager, suppress
from itertools import repeat
from typing import IO, Any

import attrs

from ttr_core.agents import AGENTS, Agent, AgentFactory, RandomAgent, make_agent, uniform_choice
from ttr_core.data.messages import to_json
from ttr_core.data.records import record_of
from ttr_core.errors import GeneratedTicketsWarning, TtrError
from ttr_core.mapfiles.finding import load_map
from ttr_core.mapfiles.fingerprint import map_fingerprint
from ttr_core.model.actions import Action
from ttr_core.model.board import Board
from ttr_core.model.scores import FinalScores
from ttr_core.model.state import GameState
from ttr_core.rules.scoring import final_scores
from ttr_core.rules.setup import new_game
from ttr_core.rules.views import player_view
from ttr_core.search.outcomes import Supply, failure_states, plain_statistics
from ttr_core.search.playout import Playout

__all__ = [
    "LOOPHOLES",
    "MAX_ACTIONS",
    "PARTIAL_SUFFIX",
    "STATISTICS",
    "TABLE_COLUMNS",
    "WIN_UNIT",
    "AgentLine",
    "GameResult",
    "PlayedGame",
    "ProgressCallback",
    "Rate",
    "SimulationError",
    "SimulationResult",
    "Spread",
    "Summary",
    "TableWriter",
    "format_summary",
    "game_seed",
    "play_game",
    "seat_agents",
    "simulate",
    "state_loopholes",
    "table_rows",
    "write_table",
]

#: The failure states counted ("loopholes" a map designer wants to see), with what
#: each means, and the plain statistics counted alike (:data:`STATISTICS`). All
#: but ``stalemate`` are counted per decision (the state a seat decides in);
#: ``stalemate`` once per game that ended so.
LOOPHOLES: Mapping[str, str] = {
    "only_pass": "a seat had only Pass (E1)",
    "stalemate": "the game ended in a stalemate: a full round of passes (E2)",
    "e3_guard": "the display kept too many wilds, no reset able to help (E3)",
    "deck_empty": "the card deck was empty (a statistic: the discard pile is shuffled in)",
    "supply_empty": "deck and discard pile were both empty (E4)",
    "tickets_empty": "no ticket was left to draw (E6)",
}

#: Each seat's share of a game's win is counted in these units (1/60: ties of
#: 1 to 6 seats share a win exactly), so that sums stay whole numbers.
WIN_UNIT = 60

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
    playout = Playout(state)
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


def _reads_no_view(agent: Agent) -> bool:
    """Whether ``agent`` plays as :class:`~ttr_core.agents.RandomAgent` does, by its
    very ``act`` (which never reads the view)."""
    act = getattr(type(agent), "act", None)
    return act is RandomAgent.act and "act" not in getattr(agent, "__dict__", ())


# ---------------------------------------------------------------------------
# The summary: whole numbers summed over games, so merged in any order
# ---------------------------------------------------------------------------


@attrs.define
class _Tally:
    """Sums over games, kept as whole numbers (merging is exact and commutative)."""

    players: int
    names: tuple[str, ...]
    games: int = 0
    seat_wins: list[int] = attrs.Factory(list)
    seat_scores: list[int] = attrs.Factory(list)
    seat_squares: list[int] = attrs.Factory(list)
    agent_seats: Counter[str] = attrs.Factory(Counter)
    agent_wins: Counter[str] = attrs.Factory(Counter)
    agent_scores: Counter[str] = attrs.Factory(Counter)
    agent_squares: Counter[str] = attrs.Factory(Counter)
    agent_low: dict[str, int] = attrs.Factory(dict)
    agent_high: dict[str, int] = attrs.Factory(dict)
    agent_kept: Counter[str] = attrs.Factory(Counter)
    agent_done: Counter[str] = attrs.Factory(Counter)
    turns: int = 0
    turn_squares: int = 0
    actions: int = 0
    endings: Counter[str] = attrs.Factory(Counter)
    routes: Counter[int] = attrs.Factory(Counter)
    loophole_games: Counter[str] = attrs.Factory(Counter)
    loophole_states: Counter[str] = attrs.Factory(Counter)

    def __attrs_post_init__(self) -> None:
        for name in ("seat_wins", "seat_scores", "seat_squares"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)

    def add(self, game: GameResult) -> None:
        self.games += 1
        share = WIN_UNIT // len(game.winners) if game.winners else 0
        for seat, (agent, score) in enumerate(zip(game.agents, game.scores, strict=True)):
            won = share if seat in game.winners else 0
            self.seat_wins[seat] += won
            self.seat_scores[seat] += score
            self.seat_squares[seat] += score * score
            self.agent_seats[agent] += 1
            self.agent_wins[agent] += won
            self.agent_scores[agent] += score
            self.agent_squares[agent] += score * score
            self.agent_low[agent] = min(self.agent_low.get(agent, score), score)
            self.agent_high[agent] = max(self.agent_high.get(agent, score), score)
            self.agent_kept[agent] += game.tickets_kept[seat]
            self.agent_done[agent] += game.tickets_completed[seat]
        self.turns += game.turns
        self.turn_squares += game.turns * game.turns
        self.actions += game.actions
        self.endings[game.termination] += 1
        self.routes.update({route for seat in game.routes for route in seat})
        if game.termination == "stalemate":
            self.loophole_games["stalemate"] += 1
            self.loophole_states["stalemate"] += 1
        for name, count in zip(_STATE_LOOPHOLES, game.loopholes, strict=True):
            if count:
                self.loophole_games[name] += 1
                self.loophole_states[name] += count

    def merge(self, other: _Tally) -> None:
        self.games += other.games
        for name in ("seat_wins", "seat_scores", "seat_squares"):
            mine, theirs = getattr(self, name), getattr(other, name)
            setattr(self, name, [a + b for a, b in zip(mine, theirs, strict=True)])
        for name in (
            "agent_seats",
            "agent_wins",
            "agent_scores",
            "agent_squares",
            "agent_kept",
            "agent_done",
            "endings",
            "routes",
            "loophole_games",
            "loophole_states",
        ):
            getattr(self, name).update(getattr(other, name))
        for agent, low in other.agent_low.items():
            self.agent_low[agent] = min(self.agent_low.get(agent, low), low)
        for agent, high in other.agent_high.items():
            self.agent_high[agent] = max(self.agent_high.get(agent, high), high)
        self.turns += other.turns
        self.turn_squares += other.turn_squares
        self.actions += other.actions


@attrs.frozen
class Rate:
    """A proportion with its 95 % Wilson score interval."""

    value: float
    low: float
    high: float

    @classmethod
    def of(cls, successes: float, trials: int) -> Rate:
        """``successes`` out of ``trials`` (0 trials: all 0)."""
        if trials <= 0:
            return cls(0.0, 0.0, 0.0)
        z = 1.959963984540054
        p = successes / trials
        centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
        half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
        half /= 1 + z * z / trials
        # The interval always holds p (rounding would leave it out at 0 and 1).
        return cls(p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


@attrs.frozen
class Spread:
    """Mean, standard deviation, lowest and highest of a set of whole numbers."""

    mean: float
    sd: float
    low: int
    high: int


def _spread(total: int, squares: int, n: int, low: int = 0, high: int = 0) -> Spread:
    if n <= 0:
        return Spread(0.0, 0.0, low, high)
    mean = total / n
    variance = (squares * n - total * total) / (n * (n - 1)) if n > 1 else 0.0
    return Spread(mean, math.sqrt(max(variance, 0.0)), low, high)


@attrs.frozen
class AgentLine:
    """One agent's results over the seats it played."""

    name: str
    seat_games: int
    win_rate: Rate
    score: Spread
    tickets_kept: int
    tickets_completed: int

    @property
    def completion(self) -> float:
        """Share of the tickets kept that were completed."""
        return self.tickets_completed / self.tickets_kept if self.tickets_kept else 0.0


@attrs.frozen
class Summary:
    """What a simulation found: the same for the same arguments and seed, whatever
    the workers or scheduler (only whole numbers summed over games are kept).

    The configuration (``map``, ``map_name``, ``players``, ``variants``,
    ``options``, ``lineup``, ``rotate``, ``seed``) and the sums: ``games``;
    ``seat_wins`` (in 1/:data:`WIN_UNIT` of a game: a tie shares the win),
    ``seat_scores`` and ``seat_squares`` per seat; per agent name the same
    in ``agents`` as ``(name, seat games, wins, score sum, sum of squares,
    lowest, highest, tickets kept, tickets completed)``; game length
    (``turns``, ``turn_squares``, ``actions``); ``endings`` (termination →
    games); ``routes`` (route id → games in which it was claimed); and
    ``loopholes`` (name → (games, decisions)). Read it through the
    properties and methods rather than the sums.
    """

    map: str
    map_name: str
    players: int
    variants: tuple[str, ...]
    options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]
    lineup: tuple[str, ...]
    rotate: bool
    seed: int
    games: int
    seat_wins: tuple[int, ...]
    seat_scores: tuple[int, ...]
    seat_squares: tuple[int, ...]
    agents: tuple[tuple[str, int, int, int, int, int, int, int, int], ...]
    turns: int
    turn_squares: int
    actions: int
    endings: tuple[tuple[str, int], ...]
    routes: tuple[tuple[int, int], ...]
    loopholes: tuple[tuple[str, int, int], ...]
    #: Each route of the map as people read it: ``"A–B (colour length)"``, by id.
    route_labels: tuple[str, ...] = ()

    def seat_win_rate(self, seat: int) -> Rate:
        """Seat ``seat``'s share of the wins, with its 95 % interval."""
        return Rate.of(self.seat_wins[seat] / WIN_UNIT, self.games)

    def seat_score(self, seat: int) -> Spread:
        """Seat ``seat``'s final scores (lowest and highest not kept: 0)."""
        return _spread(self.seat_scores[seat], self.seat_squares[seat], self.games)

    def agent(self, name: str) -> AgentLine:
        """Agent ``name``'s results: its win rate is its share of the wins per seat
        it played (1/players for an even match)."""
        for line in self.agent_lines():
            if line.name == name:
                return line
        raise KeyError(f"no agent {name!r} played: {', '.join(self.lineup)}")

    def agent_lines(self) -> tuple[AgentLine, ...]:
        """Every agent's results, in lineup order."""
        return tuple(
            AgentLine(
                name,
                seats,
                Rate.of(wins / WIN_UNIT, seats),
                _spread(total, squares, seats, low, high),
                kept,
                done,
            )
            for name, seats, wins, total, squares, low, high, kept, done in self.agents
        )

    @property
    def length(self) -> Spread:
        """Turns per game."""
        return _spread(self.turns, self.turn_squares, self.games)

    @property
    def actions_per_game(self) -> float:
        """Actions per game (starting ticket choices included)."""
        return self.actions / self.games if self.games else 0.0

    def ending(self, kind: str) -> int:
        """Games that ended by ``kind`` (``"cars"``, ``"stalemate"``)."""
        return dict(self.endings).get(kind, 0)

    def loophole(self, name: str) -> tuple[int, int]:
        """``(games, decisions)`` in the failure state ``name`` (:data:`LOOPHOLES`)."""
        for found, games, count in self.loopholes:
            if found == name:
                return games, count
        if name not in LOOPHOLES:
            raise KeyError(f"no failure state {name!r}; they are {', '.join(LOOPHOLES)}")
        return 0, 0

    def top_routes(self, count: int = 10) -> list[tuple[int, int]]:
        """The routes claimed in the most games: ``(route id, games)``, most first."""
        return sorted(self.routes, key=lambda item: (-item[1], item[0]))[:count]


def _summary(tally: _Tally, config: _Job, board: Board, variants: tuple[str, ...]) -> Summary:
    agents = tuple(
        (
            name,
            tally.agent_seats[name],
            tally.agent_wins[name],
            tally.agent_scores[name],
            tally.agent_squares[name],
            tally.agent_low.get(name, 0),
            tally.agent_high.get(name, 0),
            tally.agent_kept[name],
            tally.agent_done[name],
        )
        for name in dict.fromkeys(config.names)
    )
    return Summary(
        map=board.id,
        map_name=board.name,
        players=config.players,
        variants=variants,
        options=config.option_values,
        lineup=config.names,
        rotate=config.rotate,
        seed=config.seed,
        games=tally.games,
        seat_wins=tuple(tally.seat_wins),
        seat_scores=tuple(tally.seat_scores),
        seat_squares=tuple(tally.seat_squares),
        agents=agents,
        turns=tally.turns,
        turn_squares=tally.turn_squares,
        actions=tally.actions,
        endings=tuple(sorted(tally.endings.items())),
        routes=tuple(sorted(tally.routes.items())),
        loopholes=tuple(
            (name, tally.loophole_games[name], tally.loophole_states[name]) for name in LOOPHOLES
        ),
        route_labels=tuple(f"{r.a}–{r.b} ({r.color} {r.length})" for r in board.routes),
    )


@attrs.frozen
class SimulationResult:
    """What :func:`simulate` returns: the :class:`Summary` (the same for the same
    seed, however the games were run), every :class:`GameResult` in game
    order when asked for (``per_game`` or ``records``), and how the games
    were run: ``workers`` (processes, or Dask worker threads), ``scheduler``
    (``"local"``, ``"processes"`` or ``"dask"``) and ``seconds``."""

    summary: Summary
    games: tuple[GameResult, ...] = attrs.field(repr=False)
    workers: int
    scheduler: str
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall-clock time."""
        return self.summary.games / self.seconds if self.seconds > 0 else 0.0


# ---------------------------------------------------------------------------
# Playing chunks of games (in this process, a worker process or a Dask worker)
# ---------------------------------------------------------------------------


@attrs.frozen
class _Job:
    """Everything a worker needs to play any game of a simulation (picklable)."""

    map: str | Board
    players: int
    factories: tuple[str | AgentFactory, ...]
    names: tuple[str, ...]
    seed: int
    variants: tuple[str, ...] | None
    options: Mapping[str, Mapping[str, Any]] | None
    option_values: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]
    rotate: bool
    keep_games: bool
    records: bool


@attrs.frozen
class _Chunk:
    """What a chunk of games gives back."""

    start: int
    tally: _Tally
    games: tuple[GameResult, ...]


_BOARDS: dict[str, Board] = {}
#: Held while a board is loaded into _BOARDS: Dask runs chunks in threads, and
#: ``warnings.catch_warnings`` changes the filters of the whole process.
_BOARDS_LOCK = threading.Lock()


def _board(spec: str | Board) -> Board:
    """The board of a job, loaded once per process (a Board sent to a worker
    arrives as a new object each time: it is kept by its fingerprint)."""
    key = spec if isinstance(spec, str) else "fingerprint:" + map_fingerprint(spec)
    board = _BOARDS.get(key)
    if board is None:
        with _BOARDS_LOCK:
            board = _BOARDS.get(key)
            if board is None:
                with warnings.catch_warnings():
                    # Whoever started the simulation was told already.
                    warnings.simplefilter("ignore", GeneratedTicketsWarning)
                    board = load_map(spec) if isinstance(spec, str) else spec
                if len(_BOARDS) >= 16:
                    _BOARDS.clear()
                _BOARDS[key] = board
    return board


def _agent(factory: str | AgentFactory) -> Agent:
    return make_agent(factory) if isinstance(factory, str) else factory()


def _play_one(job: _Job, board: Board, index: int) -> GameResult:
    seed = game_seed(job.seed, index)
    order = seat_agents(job.names, job.players, index, job.rotate)
    names = tuple(job.names[i] for i in order)
    try:
        agents = [_agent(job.factories[i]) for i in order]
    except Exception as exc:
        raise SimulationError(
            f"game {index} (seed {seed}, agents {names}): making an agent failed: {exc!r}"
        ) from exc
    state = new_game(board, job.players, seed=seed, variants=job.variants, options=job.options)
    try:
        played = play_game(state, agents, seed, keep_history=job.records)
    except SimulationError as exc:
        raise SimulationError(f"game {index} (seed {seed}, agents {names}): {exc}") from exc
    final, scores, met = played.state, played.scores, played.loopholes
    record = None
    if job.records:
        options = {variant: dict(values) for variant, values in final.rules.options}
        record = to_json(record_of(final, played.history, options))
    return GameResult(
        index=index,
        seed=seed,
        agents=names,
        scores=scores.totals,
        winners=scores.winners,
        termination=str(final.termination) if final.termination else "unfinished",
        turns=final.turn,
        actions=played.actions,
        tickets_kept=tuple(len(p.tickets) for p in final.players),
        tickets_completed=tuple(sheet.tickets_completed for sheet in scores.sheets),
        cars=tuple(p.cars for p in final.players),
        routes=tuple(p.routes for p in final.players),
        loopholes=tuple(met.get(name, 0) for name in _STATE_LOOPHOLES),
        record=record,
    )


def _run_chunk(job: _Job, start: int, stop: int) -> _Chunk:
    """Play games ``start`` to ``stop - 1`` of ``job``."""
    board = _board(job.map)
    tally = _Tally(job.players, job.names)
    games = []
    for index in range(start, stop):
        game = _play_one(job, board, index)
        tally.add(game)
        if job.keep_games:
            games.append(game)
    return _Chunk(start, tally, tuple(games))


# ---------------------------------------------------------------------------
# Running a simulation
# ---------------------------------------------------------------------------

#: Called after each chunk with (games done, games in all): after each game
#: unless ``chunk_size`` is given or the games run on a Dask cluster.
ProgressCallback = Callable[[int, int], None]


def simulate(
    map: str | os.PathLike[str] | Board,
    players: int,
    agents: Sequence[str | AgentFactory],
    games: int,
    *,
    seed: int = 0,
    workers: int | None = None,
    client: Any = None,
    scheduler: str | None = None,
    variants: Iterable[str] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    rotate: bool = True,
    per_game: bool = False,
    records: bool = False,
    on_game: Callable[[GameResult], None] | None = None,
    progress: bool | ProgressCallback = False,
    chunk_size: int | None = None,
) -> SimulationResult:
    """Play ``games`` games of ``map`` with ``players`` seats between ``agents`` and
    summarise them.

    ``agents`` are built-in agent names (:data:`ttr_core.agents.AGENTS`) or
    agent factories (an agent class, or a picklable callable returning an
    agent); fewer than ``players`` are repeated to fill the seats. With
    ``rotate`` (the default) the lineup turns by one seat each game, so every
    agent plays every seat equally often. Game ``i`` uses the seed
    :func:`game_seed` ``(seed, i)``; ``variants`` and ``options`` are as for
    :func:`ttr_core.new_game`.

    Where the games run: ``workers`` processes on this machine (default:
    every core this process may use; 1 plays them in this process), or a
    Dask cluster through ``client`` (a ``dask.distributed.Client``) or
    ``scheduler`` (its address; the client is closed afterwards). Games are
    sent in chunks of ``chunk_size`` (default: at most 100, at least 8 chunks
    per worker when there are enough games; one game with ``progress`` on this
    machine, so that it moves per game). The summary does not depend on any of
    this.

    ``per_game`` keeps every :class:`GameResult` in ``result.games``;
    ``records`` adds each game's JSON record to it (and keeps them unless
    ``on_game`` takes them); ``on_game`` is called with each game's result,
    in game order, as they come in. ``progress``: ``True`` for a
    progress bar on standard error (with tqdm installed:
    ``pip install '.[sim]'`` in a clone of ttr-core), or a callable taking (games done,
    games in all).

    Raises :class:`SimulationError` for arguments that cannot be simulated
    or a game that could not be played, the errors of
    :func:`ttr_core.new_game` for a configuration that cannot be played, and
    ``ImportError`` for a Dask cluster without Dask installed.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"games must be a whole number of at least 1, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SimulationError(f"seed must be a whole number, not {seed!r}")
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1
    ):
        raise SimulationError(f"chunk_size must be at least 1, not {chunk_size!r}")
    if not isinstance(agents, Sequence) or isinstance(agents, str) or not agents:
        # A sequence, not a set or a generator: the lineup's order is the seats'.
        raise SimulationError(
            f"agents must be a non-empty sequence (a list) of agent names or factories, "
            f"not {agents!r}"
        )
    agents = tuple(agents)
    for flag, value in (("rotate", rotate), ("per_game", per_game), ("records", records)):
        if not isinstance(value, bool):
            raise SimulationError(f"{flag} must be True or False, not {value!r}")
    if not isinstance(progress, bool) and not callable(progress):
        raise SimulationError(f"progress must be True, False or a callable, not {progress!r}")
    if on_game is not None and not callable(on_game):
        raise SimulationError(f"on_game must be a callable taking a GameResult, not {on_game!r}")
    if scheduler is not None and not isinstance(scheduler, str):
        raise SimulationError(f"scheduler must be a Dask scheduler address, not {scheduler!r}")
    if client is not None and not callable(getattr(client, "submit", None)):
        raise SimulationError(f"client must be a dask.distributed.Client, not {client!r}")
    board = map if isinstance(map, Board) else load_map(map)
    if isinstance(variants, str):
        new_game(board, players, seed=0, variants=variants)  # raises, saying what is expected
    given = None if variants is None else tuple(variants)
    first = new_game(board, players, seed=0, variants=given, options=options)
    names = tuple(_agent_name(spec) for spec in agents)
    if len(names) > players:
        raise SimulationError(f"{len(names)} agents for {players} seats: give at most {players}")
    _check_distinct(agents, names)
    option_values = first.rules.options
    keep = per_game or records or on_game is not None
    job = _Job(
        map=map if isinstance(map, str) and not os.path.exists(map) else board,
        players=players,
        factories=tuple(agents),
        names=names,
        seed=seed,
        variants=given,
        options=None if options is None else {k: dict(v) for k, v in options.items()},
        option_values=option_values,
        rotate=rotate,
        keep_games=keep,
        records=records,
    )
    dask_client = client
    own_client = False
    if dask_client is None and scheduler is not None:
        dask_client = _dask_client(scheduler)
        own_client = True
    try:
        if dask_client is not None:
            count = _dask_workers(dask_client)
            kind = "dask"
        else:
            count = _default_workers() if workers is None else workers
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise SimulationError(f"workers must be at least 1, not {workers!r}")
            kind = "local" if count == 1 else "processes"
        if kind != "local":
            _check_picklable(job)
        size = chunk_size or max(1, min(100, math.ceil(games / (8 * count))))
        if progress is not False and chunk_size is None and kind != "dask":
            # A chunk reports when it is done: one game a chunk moves the bar per
            # game (a worker's round trip costs far less than a game).
            size = 1
        chunks = [(start, min(start + size, games)) for start in range(0, games, size)]
        kept = per_game or (records and on_game is None)
        collect = _Collector(job, games, kept, on_game, progress)
        started = time.perf_counter()
        with collect:
            if kind == "dask":
                _run_dask(dask_client, job, chunks, collect)
            elif kind == "processes" and len(chunks) > 1:
                _run_pool(min(count, len(chunks)), job, chunks, collect)
            else:
                for start, stop in chunks:
                    collect(_run_chunk(job, start, stop))
        seconds = time.perf_counter() - started
    finally:
        if own_client:
            dask_client.close()
    summary = _summary(collect.tally, job, board, first.rules.variants)
    return SimulationResult(summary, tuple(collect.games), count, kind, seconds)


def _agent_name(spec: object) -> str:
    """An agent's name in summaries: a built-in's name, a factory's ``name``
    attribute, else its ``__name__``, else its class's name (never an
    address: the same seed must give the same summary)."""
    if isinstance(spec, str):
        if spec not in AGENTS:
            raise SimulationError(f"no agent {spec!r}; the agents are {', '.join(AGENTS)}")
        return spec
    if not callable(spec):
        raise SimulationError(f"an agent must be a name or a factory, not {spec!r}")
    for name in (getattr(spec, "name", None), getattr(spec, "__name__", None)):
        if isinstance(name, str) and name:
            return name
    return type(spec).__name__


def _check_distinct(agents: Sequence[object], names: Sequence[str]) -> None:
    """Different agents must have different names: the summary counts by name."""
    seen: dict[str, object] = {}
    for spec, name in zip(agents, names, strict=True):
        if seen.setdefault(name, spec) != spec:
            raise SimulationError(
                f"two different agents are both named {name!r}: the summary counts agents by "
                "name, so give each a name of its own (a 'name' attribute on the factory)"
            )


def _check_picklable(job: _Job) -> None:
    """Worker processes and Dask receive the job pickled: say so plainly if it cannot be."""
    try:
        pickle.dumps(job)
    except Exception as exc:
        raise SimulationError(
            "the agents (or the map) cannot be sent to worker processes: an agent factory "
            "must be a class or function defined at the top level of an importable module, "
            f"not a lambda or a local class (or play in this process: workers=1); {exc!r}"
        ) from exc


def _default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


class _Collector:
    """Merges chunks as they come: the tally at once; games in game order."""

    def __init__(
        self,
        job: _Job,
        total: int,
        keep: bool,
        on_game: Callable[[GameResult], None] | None,
        progress: bool | ProgressCallback,
    ) -> None:
        self.tally = _Tally(job.players, job.names)
        self.games: list[GameResult] = []
        self.total = total
        self.keep = keep
        self.on_game = on_game
        self.waiting: dict[int, tuple[GameResult, ...]] = {}
        self.next = 0
        self.done = 0
        self.report: ProgressCallback | None = None
        self.bar: Any = None
        if callable(progress):
            self.report = progress
        elif progress:
            self.bar = _progress_bar(total)

    def __enter__(self) -> _Collector:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()

    def __call__(self, chunk: _Chunk) -> None:
        self.tally.merge(chunk.tally)
        if chunk.games:
            self.waiting[chunk.start] = chunk.games
            while self.next in self.waiting:
                ready = self.waiting.pop(self.next)
                for game in ready:
                    if self.on_game is not None:
                        self.on_game(game)
                    if self.keep:
                        self.games.append(game)
                self.next += len(ready)
        self.done += chunk.tally.games
        if self.bar is not None:
            self.bar.update(chunk.tally.games)
        if self.report is not None:
            self.report(self.done, self.total)


def _progress_bar(total: int) -> Any:
    """A tqdm bar on standard error, or ``None`` without tqdm."""
    try:
        tqdm = importlib.import_module("tqdm")
    except ImportError:
        return None
    return tqdm.tqdm(total=total, unit="game", smoothing=0.05, dynamic_ncols=True)


def _run_pool(
    workers: int, job: _Job, chunks: Sequence[tuple[int, int]], collect: _Collector
) -> None:
    """The chunks in a pool of fresh (spawned) processes: the same on every platform,
    and safe beside the threads of a progress bar. Whatever stops the loop
    (Ctrl-C, a SIGTERM handler's exception, a failed game) ends the workers
    before it propagates; each worker also ends by itself if this process dies."""
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_worker_start, initargs=(os.getpid(),)
    )
    # Finished chunks arrive through done-callbacks, a few in flight per worker:
    # as_completed over every chunk holds all their locks at once, and a Ctrl-C
    # landing while it takes them leaves them held, so that the pool's own thread
    # then blocks on them forever and the process never exits.
    finished: queue.SimpleQueue[Future[_Chunk]] = queue.SimpleQueue()
    waiting = iter(chunks)

    def submit() -> bool:
        for start, stop in waiting:
            pool.submit(_run_chunk, job, start, stop).add_done_callback(finished.put)
            return True
        return False

    try:
        with _sigint_held():  # the workers are spawned by the first submits
            running = sum(1 for _ in range(_IN_FLIGHT * workers) if submit())
        while running:
            try:
                future = finished.get(timeout=_WATCH_EVERY)  # a timeout: Ctrl-C everywhere
            except queue.Empty:
                continue
            collect(future.result())
            running += submit() - 1
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown()


#: Chunks sent ahead per worker: enough to keep it busy, few enough to cancel fast.
_IN_FLIGHT = 3


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold SIGINT back in this thread (POSIX) while workers are spawned: they
    start with it blocked too, so a Ctrl-C sent to the process group cannot
    break their start-up before :func:`_worker_start` ignores it; this process
    gets it as soon as the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


#: How long stopped workers get to end on SIGTERM before they are killed.
_STOP_GRACE = 2.0


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """End ``pool`` now: cancel the chunks not started and end the workers in the
    middle of theirs (``shutdown`` alone would wait for every chunk started)."""
    # The executor has no public way to end its workers before Python 3.14
    # (terminate_workers); its process table is the one handle on them.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    deadline = time.monotonic() + _STOP_GRACE
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(_STOP_GRACE)


#: ``prctl`` option: the signal a process gets when its parent dies (Linux).
_PR_SET_PDEATHSIG = 1

#: How often a worker's watchdog looks whether its parent still runs, in seconds.
_WATCH_EVERY = 0.5


def _worker_start(parent: int) -> None:
    """First thing in each worker process: make it end with ``parent``, its
    starter, however that ends (a SIGKILL leaves it no chance to end them)."""
    # Ctrl-C on a terminal signals the whole process group: the parent stops the
    # workers, which would otherwise each print a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # blocked while it was spawned (_sigint_held)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    # An ignored SIGTERM would survive into the worker and defeat terminate().
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        with suppress(OSError, AttributeError):  # no prctl: the watchdog still works
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(
                ctypes.c_int(_PR_SET_PDEATHSIG),
                ctypes.c_ulong(signal.SIGTERM),
                ctypes.c_ulong(0),
                ctypes.c_ulong(0),
                ctypes.c_ulong(0),
            )
    if os.getppid() != parent:  # it died before prctl could take effect
        os._exit(1)
    watchdog = threading.Thread(
        target=_watch_parent, args=(parent,), name="ttr-simulate-watchdog", daemon=True
    )
    watchdog.start()


def _watch_parent(parent: int) -> None:
    """End this worker once ``parent`` has ended: the portable way (prctl is Linux's
    only). A spawned worker's parent sentinel becomes ready when the parent ends,
    on every platform; on POSIX the parent pid also changes (re-parenting)."""
    started_by = multiprocessing.parent_process()
    sentinel = None if started_by is None else started_by.sentinel
    while True:
        if sentinel is None:
            time.sleep(_WATCH_EVERY)
        elif multiprocessing.connection.wait([sentinel], timeout=_WATCH_EVERY):
            break
        if os.name == "posix" and os.getppid() != parent:
            break
    os._exit(1)


def _dask() -> Any:
    try:
        return importlib.import_module("dask.distributed")
    except ImportError as exc:
        raise ImportError(
            "running on a Dask cluster needs dask.distributed: pip install '.[dask]' in a clone "
            "of ttr-core (pip install 'ttr-core[dask]' once it is on the package index)"
        ) from exc


def _dask_client(address: str) -> Any:
    client_class = _dask().Client
    try:
        return client_class(address)
    except (OSError, ValueError, TypeError) as exc:  # a bad address, no scheduler there
        raise SimulationError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from exc


def _dask_workers(client: Any) -> int:
    threads = client.nthreads()
    return max(1, sum(threads.values())) if isinstance(threads, Mapping) else 1


def _run_dask(
    client: Any, job: _Job, chunks: Sequence[tuple[int, int]], collect: _Collector
) -> None:
    """The chunks as Dask tasks; the job (with its board) sent to the workers once."""
    distributed = _dask()
    shared = client.scatter(job, broadcast=True, hash=False)
    futures = [client.submit(_run_chunk, shared, start, stop, pure=False) for start, stop in chunks]
    try:
        for future in distributed.as_completed(futures):
            collect(future.result())
            future.release()
    except BaseException:
        client.cancel(futures)
        raise


# ---------------------------------------------------------------------------
# Tables and the summary for people
# ---------------------------------------------------------------------------

#: The columns of the per-game table: one row per seat of each game.
TABLE_COLUMNS = (
    "game",
    "seed",
    "seat",
    "agent",
    "score",
    "win",
    "winner",
    "tickets_kept",
    "tickets_completed",
    "cars_left",
    "routes_claimed",
    "routes",
    "route_names",
    "termination",
    "turns",
    "actions",
    *_STATE_LOOPHOLES,
)


def table_rows(game: GameResult, board: Board | None = None) -> list[dict[str, Any]]:
    """The rows of the per-game table for one game (one per seat, :data:`TABLE_COLUMNS`):
    ``win`` is the seat's share of the win (1, or 1/k in a k-way tie), ``routes``
    its route ids separated by spaces and ``route_names`` the same routes as
    ``"A–B"`` separated by ``"; "`` (empty without the game's ``board``); the
    failure-state counts are the game's."""
    if board is not None and not isinstance(board, Board):
        raise SimulationError(f"board must be a ttr_core.Board or None, not {board!r}")
    rows = []
    for seat, agent in enumerate(game.agents):
        row: dict[str, Any] = {
            "game": game.index,
            "seed": game.seed,
            "seat": seat,
            "agent": agent,
            "score": game.scores[seat],
            "win": 1 / len(game.winners) if seat in game.winners else 0.0,
            "winner": seat in game.winners,
            "tickets_kept": game.tickets_kept[seat],
            "tickets_completed": game.tickets_completed[seat],
            "cars_left": game.cars[seat],
            "routes_claimed": len(game.routes[seat]),
            "routes": " ".join(str(r) for r in game.routes[seat]),
            "route_names": ""
            if board is None
            else "; ".join(f"{board.routes[r].a}–{board.routes[r].b}" for r in game.routes[seat]),
            "termination": game.termination,
            "turns": game.turns,
            "actions": game.actions,
        }
        row.update(zip(_STATE_LOOPHOLES, game.loopholes, strict=True))
        rows.append(row)
    return rows


#: Added to a table's name while it is written: renamed away only once it is complete.
PARTIAL_SUFFIX = ".partial"


class TableWriter:
    """Writes the per-game table as games come: CSV (standard library) or Parquet
    (needs pyarrow: ``pip install pyarrow``), by ``format`` or else the file's
    extension (``.csv``; ``.parquet`` or ``.pq``). Use as a context manager;
    :meth:`add` takes one game. Parquet rows are written in row groups of
    :attr:`BATCH`. ``board``, the games' map, names the routes in the
    ``route_names`` column (else left empty).

    The rows go to :attr:`partial_path` (the name plus :data:`PARTIAL_SUFFIX`,
    in the same folder), and a file already at the final name is removed at
    the start. :meth:`close` (the ``with`` block ending normally) finishes the
    file and renames it to its name in one step (``os.replace``); :meth:`abort`
    (the block ending in an exception: an error, Ctrl-C, a SIGTERM handled)
    finishes it as it is and leaves it under the partial name. So a table at
    the final name is always complete, and one cut short, even by a kill
    that runs no code at all, is only ever found as ``NAME.partial``.
    """

    BATCH = 20_000

    def __init__(
        self, path: str | os.PathLike[str], format: str | None = None, board: Board | None = None
    ) -> None:
        if not isinstance(path, str | os.PathLike):
            raise SimulationError(f"the table's path must be a file name, not {path!r}")
        if board is not None and not isinstance(board, Board):
            raise SimulationError(f"board must be a ttr_core.Board or None, not {board!r}")
        self.board = board
        self.path = os.fspath(path)
        if format is None:
            extension = os.path.splitext(self.path)[1].lower()
            format = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}.get(extension)
            if format is None:
                raise SimulationError(
                    f"table format must be csv or parquet: name the file .csv or .parquet, "
                    f"not {self.path!r}"
                )
        if format not in ("csv", "parquet"):
            raise SimulationError(f"table format must be csv or parquet, not {format!r}")
        self.format = format
        #: Where the rows are written until the table is complete.
        self.partial_path = self.path + PARTIAL_SUFFIX
        self._rows: list[dict[str, Any]] = []
        self._parquet: Any = None
        self._arrow: Any = None
        self._pq: Any = None
        self._file: IO[str] | None = None
        self._csv: Any = None
        if self.format == "parquet":
            try:
                self._arrow = importlib.import_module("pyarrow")
                self._pq = importlib.import_module("pyarrow.parquet")
            except ImportError as exc:
                raise SimulationError(
                    "writing Parquet needs pyarrow: pip install pyarrow (or write a .csv)"
                ) from exc
            self._parquet = self._pq.ParquetWriter(self.partial_path, self._schema())
        else:
            self._file = open(self.partial_path, "w", encoding="utf-8", newline="")  # noqa: SIM115
            self._csv = csv.DictWriter(self._file, TABLE_COLUMNS)
            self._csv.writeheader()
        try:
            # An older table left at the name would pass for this one if this is cut short.
            with suppress(FileNotFoundError):
                os.remove(self.path)
        except OSError:
            self._finish()
            os.remove(self.partial_path)
            raise

    def __enter__(self) -> TableWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        if kind is None:
            self.close()
        else:
            self.abort()

    def add(self, game: GameResult) -> None:
        """Write one game's rows."""
        if not isinstance(game, GameResult):
            raise SimulationError(f"a table row comes from a GameResult, not {game!r}")
        rows = table_rows(game, self.board)
        if self._csv is not None:
            self._csv.writerows(rows)
            return
        self._rows.extend(rows)
        if len(self._rows) >= self.BATCH:
            self._flush()

    def _schema(self) -> Any:
        """The Parquet columns' types, fixed (an empty table has them too)."""
        pa = self._arrow
        types = {name: pa.string() for name in ("agent", "routes", "route_names", "termination")}
        types |= {"win": pa.float64(), "winner": pa.bool_()}
        return pa.schema([(name, types.get(name, pa.int64())) for name in TABLE_COLUMNS])

    def _flush(self) -> None:
        if not self._rows:
            return
        table = self._arrow.Table.from_pylist(self._rows, schema=self._parquet.schema)
        self._parquet.write_table(table)
        self._rows = []

    def _finish(self) -> bool:
        """Write what is left and close the file; False if it was closed already."""
        if self._file is not None:
            self._file.close()
            self._file = None
            return True
        if self._parquet is not None:
            try:
                self._flush()
            finally:
                self._parquet.close()
                self._parquet = None
            return True
        return False

    def close(self) -> None:
        """Finish the file and give it its name: the table is complete. (After
        :meth:`abort`, nothing.)"""
        if self._finish():
            os.replace(self.partial_path, self.path)

    def abort(self) -> None:
        """Finish the file as it is and leave it at :attr:`partial_path`: the
        table was cut short. (After :meth:`close`, nothing.)"""
        self._finish()


def write_table(
    games: Iterable[GameResult],
    path: str | os.PathLike[str],
    format: str | None = None,
    board: Board | None = None,
) -> None:
    """Write the per-game table of ``games`` to ``path`` (see :class:`TableWriter`;
    ``board``, the games' map, names their routes)."""
    if not isinstance(games, Iterable):
        raise SimulationError(f"games must be an iterable of GameResult, not {games!r}")
    with TableWriter(path, format, board) as out:
        for game in games:
            out.add(game)


def _pct(rate: Rate) -> str:
    return f"{rate.value:6.1%} ({rate.low:.1%}–{rate.high:.1%})"


def format_summary(summary: Summary, top_routes: int = 10) -> str:
    """The summary as a table for people (what ``ttr simulate`` prints): the same
    text for the same summary."""
    labels = summary.route_labels
    lines = []
    variants = ", ".join(summary.variants) or "none"
    lines.append(
        f"{summary.map_name} ({summary.map}): {summary.games:,} games, {summary.players} players, "
        f"variants: {variants}, seed {summary.seed}"
    )
    shown = [f"{v}.{name}={value!r}" for v, values in summary.options for name, value in values]
    if shown:
        lines.append("options: " + ", ".join(shown))
    rotation = "seats rotated each game" if summary.rotate else "fixed seats"
    lines.append(f"agents: {', '.join(summary.lineup)} ({rotation})")
    lines.append("")
    lines.append(
        f"{'agent':<10} {'seat-games':>10}  {'win rate (95% CI)':<24} "
        f"{'score':>6} {'sd':>5} {'min':>5} {'max':>5}  {'tickets done':>17}"
    )
    for line in summary.agent_lines():
        tickets = f"{line.completion:.1%} of {line.tickets_kept:,}"
        lines.append(
            f"{line.name:<10} {line.seat_games:>10,}  {_pct(line.win_rate):<24} "
            f"{line.score.mean:>6.1f} {line.score.sd:>5.1f} {line.score.low:>5} "
            f"{line.score.high:>5}  {tickets:>17}"
        )
    lines.append("")
    lines.append(f"{'seat':<10} {'games':>10}  {'win rate (95% CI)':<24} {'score':>6} {'sd':>5}")
    for seat in range(summary.players):
        score = summary.seat_score(seat)
        lines.append(
            f"{seat:<10} {summary.games:>10,}  {_pct(summary.seat_win_rate(seat)):<24} "
            f"{score.mean:>6.1f} {score.sd:>5.1f}"
        )
    lines.append("")
    length = summary.length
    lines.append(
        f"game length: {length.mean:.1f} turns (sd {length.sd:.1f}), "
        f"{summary.actions_per_game:.1f} actions"
    )
    endings = ", ".join(
        f"{kind} {count:,} ({count / summary.games:.1%})" for kind, count in summary.endings
    )
    lines.append(f"ended by: {endings}")
    lines.append("")
    lines.append("routes claimed most often (share of games):")
    for route, count in summary.top_routes(top_routes):
        label = labels[route] if route < len(labels) else f"route {route}"
        lines.append(f"  {count / summary.games:6.1%}  {label}")
    lines.append("")
    for title, plain in (
        ("failure states (games reached; decisions in it):", False),
        ("statistics (games reached; decisions in it):", True),
    ):
        if plain:
            lines.append("")
        lines.append(title)
        for name, games, count in summary.loopholes:
            if (name in STATISTICS) != plain:
                continue
            where = "" if name == "stalemate" else f"; {count:,} decisions"
            lines.append(
                f"  {name:<14} {games:>9,} games ({games / summary.games:6.2%}){where:<20}  "
                f"{LOOPHOLES[name]}"
            )
    return "\n".join(lines)

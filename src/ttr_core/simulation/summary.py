"""The summary of a simulation: whole numbers summed over games (so merged in
any order, on any number of workers), and what they give: win rates with 95 %
intervals, scores, lengths, tickets, endings, routes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

import attrs

from ttr_core.agents import AgentFactory
from ttr_core.model.board import Board
from ttr_core.simulation.games import _STATE_LOOPHOLES, LOOPHOLES, GameResult

__all__ = ["WIN_UNIT", "AgentLine", "Rate", "SimulationResult", "Spread", "Summary"]


#: Each seat's share of a game's win is counted in these units (1/60: ties of
#: 1 to 6 seats share a win exactly), so that sums stay whole numbers.
WIN_UNIT = 60


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

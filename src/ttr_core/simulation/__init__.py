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

from ttr_core.simulation.games import (
    LOOPHOLES,
    MAX_ACTIONS,
    STATISTICS,
    GameResult,
    PlayedGame,
    SimulationError,
    game_seed,
    play_game,
    seat_agents,
    state_loopholes,
)
from ttr_core.simulation.running import ProgressCallback, simulate
from ttr_core.simulation.summary import WIN_UNIT, AgentLine, Rate, SimulationResult, Spread, Summary
from ttr_core.simulation.tables import (
    PARTIAL_SUFFIX,
    TABLE_COLUMNS,
    TableWriter,
    format_summary,
    table_rows,
    write_table,
)

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

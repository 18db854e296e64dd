"""The per-game table (CSV or Parquet, written under a partial name until
complete) and the summary for people.
"""

from __future__ import annotations

import csv
import importlib
import os
from collections.abc import Iterable
from contextlib import suppress
from typing import IO, Any

from ttr_core.model.board import Board
from ttr_core.simulation.games import (
    _STATE_LOOPHOLES,
    LOOPHOLES,
    STATISTICS,
    GameResult,
    SimulationError,
)
from ttr_core.simulation.summary import Rate, Summary

__all__ = [
    "PARTIAL_SUFFIX",
    "TABLE_COLUMNS",
    "TableWriter",
    "format_summary",
    "table_rows",
    "write_table",
]


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
    # Players counted from 1, as people count them (the per-game table's "seat" from 0).
    lines.append(f"{'player':<10} {'games':>10}  {'win rate (95% CI)':<24} {'score':>6} {'sd':>5}")
    for seat in range(summary.players):
        score = summary.seat_score(seat)
        lines.append(
            f"{seat + 1:<10} {summary.games:>10,}  {_pct(summary.seat_win_rate(seat)):<24} "
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
                f"  {name:<14} {games:>9,} {'game' if games == 1 else 'games':<5} "
                f"({games / summary.games:6.2%}){where:<20}  "
                f"{LOOPHOLES[name]}"
            )
    return "\n".join(lines)

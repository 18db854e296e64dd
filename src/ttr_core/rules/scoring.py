"""Final scoring: a score sheet of labelled lines per player, and the winners."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from ttr_core.errors import ArgumentError, GameNotOverError, show, what
from ttr_core.hooks import calls
from ttr_core.model.board import Ticket
from ttr_core.model.scores import ALL, OWNER, WITHHELD, FinalScores, ScoreLine, ScoreSheet
from ttr_core.model.state import GameState, Termination, check_state
from ttr_core.model.views import check_seat_argument
from ttr_core.rules.tickets import TicketOutcome, _outcomes
from ttr_core.rules.views import non_seat_owners


def rank_bonus(
    values: Sequence[int], table: Sequence[int], eligible: Sequence[bool]
) -> list[tuple[int | None, int]]:
    """Points of a ranked bonus (engine decision E16), as ``(rank, points)`` per seat.

    Eligible seats are ranked by ``values``, highest first, with standard
    competition ranking: tied seats share a rank and each scores that rank's
    points from ``table`` (``table[0]`` for 1st); the next seat's rank skips
    the places the tie filled. Ineligible seats take no rank: ``(None, 0)``.
    Ranks beyond the table score 0.

    Raises :class:`ArgumentError` unless ``values`` and ``table`` are sequences
    of ints and ``eligible`` a sequence of bools as long as ``values``.
    O(n log n) in the number of seats.
    """
    values = _sequence("values", values, int)
    table = _sequence("table", table, int)
    eligible = _sequence("eligible", eligible, bool)
    if len(eligible) != len(values):
        raise ArgumentError(
            f"eligible must hold one bool per entry of values ({len(values)}), not {len(eligible)}"
        )
    # A seat's rank is one more than the eligible values above its own.
    ranked = sorted(v for v, ok in zip(values, eligible, strict=True) if ok)
    result: list[tuple[int | None, int]] = []
    for value, ok in zip(values, eligible, strict=True):
        if not ok:
            result.append((None, 0))
            continue
        rank = 1 + len(ranked) - bisect.bisect_right(ranked, value)
        result.append((rank, table[rank - 1] if rank <= len(table) else 0))
    return result


def _sequence(name: str, value: object, kind: type) -> list[Any]:
    """``value`` as a list if it is a sequence (not text) of exactly ``kind``
    (an ``int`` that is not a bool), else :class:`ArgumentError`."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise ArgumentError(
            f"{name} must be a sequence of {kind.__name__}s, not {type(value).__name__} "
            f"{show(value)}"
        )
    items = list(value)
    for index, item in enumerate(items):
        if type(item) is not kind:
            raise ArgumentError(
                f"{name}[{index}] must be a {kind.__name__}, not {type(item).__name__} {show(item)}"
            )
    return items


def completed_tickets(state: GameState, player: int) -> tuple[bool, ...]:
    """For each of ``player``'s tickets (in order), whether it is completed, by
    the core's one ticket check (:func:`ttr_core.ticket_outcomes`)."""
    return tuple(outcome.completed for outcome in _outcomes(state, player))


def _ticket_line(ticket: Ticket, outcome: TicketOutcome) -> ScoreLine:
    """A ticket's line on the score sheet."""
    if not ticket.more:
        status = "completed" if outcome.completed else "failed"
        label = f"Ticket {ticket.a} – {ticket.b} ({ticket.points}): {status}"
    else:
        status = f"{outcome.reached} reached" if outcome.completed else "none reached"
        label = f"Ticket {ticket.label}: {status}"
    return ScoreLine("ticket", label, outcome.points, ref=ticket.id, shown=OWNER)


def score_sheets(state: GameState) -> tuple[ScoreSheet, ...]:
    """Every player's score sheet for the state as it is (the game need not be over).

    During play these are a provisional count that shows every seat's
    tickets and secret values: send a player :func:`player_score_sheets`.
    ``ArgumentError`` if ``state`` is not a :class:`GameState`.
    """
    board = check_state(state).board
    rules = state.rules
    plugin_lines = calls.run_score_lines(rules, state) if rules.score_lines else []
    sheets = []
    for seat, player in enumerate(state.players):
        lines: list[ScoreLine] = []
        start = board.rules.start_scores[seat] if seat < len(board.rules.start_scores) else 0
        if start:
            lines.append(ScoreLine("start", "Starting score", start))
        route_points = sum(board.rules.route_points[board.routes[r].length] for r in player.routes)
        lines.append(ScoreLine("routes", f"Routes claimed: {len(player.routes)}", route_points))
        total = player.score
        if player.play_points:
            # Points variants added to the running score (effects.add_points).
            lines.append(ScoreLine("play", "Points scored during play", player.play_points))
        completed = failed = 0
        for outcome in _outcomes(state, seat):
            total += outcome.points
            if outcome.completed:
                completed += 1
            else:
                failed += 1
            lines.append(_ticket_line(board.tickets[outcome.ticket], outcome))
        for per_plugin in plugin_lines:
            for line in per_plugin[seat]:
                lines.append(line)
                total += line.points
        sheets.append(ScoreSheet(seat, tuple(lines), total, completed, failed))
    return tuple(sheets)


def player_score_sheets(state: GameState, player: int) -> tuple[ScoreSheet, ...]:
    """Every seat's score sheet as seat ``player`` may see it: what a server sends a player.

    Once the game is over, every sheet in full (as :func:`score_sheets`).
    During play a sheet shows only the lines ``player`` may see, by each
    line's ``shown``: public lines (start score, routes, points scored during
    play, merchandise, longest path, loans, attractions ...) on every sheet;
    ticket lines on ``player``'s own sheet only; lines ranked by secret values
    (the toll bonus) on none. The lines a sheet withholds are replaced by one
    line of kind ``"withheld"`` worth 0 points, whose label names them
    ("Shown at the end: 3 tickets, toll bonus") and whose ``detail`` lists
    their kinds; such a sheet's ``total`` is the total of the lines shown,
    and on another seat's sheet ``tickets_completed`` and ``tickets_failed``
    are 0. So the sheets never tell more than ``player_view(state, player)``.

    Raises :class:`ArgumentError` if ``state`` is not a :class:`GameState` or
    ``player`` is not one of its seats.
    """
    check_seat_argument(state, player)
    sheets = score_sheets(state)
    if state.is_over:
        return sheets
    return tuple(_as_seen(sheet, sheet.player == player) for sheet in sheets)


def _as_seen(sheet: ScoreSheet, own: bool) -> ScoreSheet:
    """``sheet`` during play, as its own seat (``own``) or another seat may see it."""
    visible = (ALL, OWNER) if own else (ALL,)
    shown = [line for line in sheet.lines if line.shown in visible]
    withheld = [line.kind for line in sheet.lines if line.shown not in visible]
    if not withheld:
        return sheet
    tickets = withheld.count("ticket")
    parts = [f"{tickets} ticket{'s' if tickets != 1 else ''}"] if tickets else []
    parts += [kind.replace("_", " ") for kind in dict.fromkeys(withheld) if kind != "ticket"]
    label = f"Shown at the end: {', '.join(parts)}"
    shown.append(ScoreLine(WITHHELD, label, 0, detail=tuple(withheld)))
    total = sum(line.points for line in shown)
    completed, failed = (sheet.tickets_completed, sheet.tickets_failed) if own else (0, 0)
    return ScoreSheet(sheet.player, tuple(shown), total, completed, failed)


def winners(sheets: Sequence[ScoreSheet], state: GameState | None = None) -> tuple[int, ...]:
    """Highest total wins; a tie goes to the most completed tickets, then (given
    the game's ``state``) to its variants' tie-breaks (hook ``ttr_tie_break``);
    a tie left is shared.

    A game ended early (:func:`ttr_core.end_game`): the seat that resigned or
    ran out of time is never a winner (the best of the others win), and an
    abandoned game has none."""
    if state is not None and state.termination is not None:
        if state.termination == Termination.ABANDONED:
            return ()
        if state.forfeit is not None:
            sheets = [sheet for sheet in sheets if sheet.player != state.forfeit]
    best = max(sheet.total for sheet in sheets)
    tied = [sheet for sheet in sheets if sheet.total == best]
    most = max(sheet.tickets_completed for sheet in tied)
    seats = tuple(sheet.player for sheet in tied if sheet.tickets_completed == most)
    if len(seats) > 1 and state is not None and state.rules.tie_break:
        seats = calls.run_tie_break(state.rules, state, sheets, seats)
    return seats


def final_scores(state: GameState) -> FinalScores:
    """The final score sheets and winners of a finished game.

    Raises :class:`GameNotOverError` if the game is not over; use
    :func:`score_sheets` for a provisional count. ``ArgumentError`` if
    ``state`` is not a :class:`GameState`.
    """
    if not check_state(state).is_over:
        raise GameNotOverError(
            "final_scores() needs a finished game; use score_sheets() for a provisional count"
        )
    sheets = score_sheets(state)
    return FinalScores(sheets, winners(sheets, state), state.termination, non_seat_owners(state))


def utilities(winners: Sequence[int], players: int) -> list[float]:
    """The zero-sum win/draw/loss utility: the winners share ``players``
    points, every seat pays one, scaled by ``1 / (players - 1)``.

    A sole winner gets 1, each loser ``-1 / (players - 1)``; with two
    players, a win is 1, a loss -1 and a draw 0. They always sum to 0.
    Raises :class:`ArgumentError` for ``players`` that is not an int from 2
    to 1,000, or ``winners`` that are not distinct seats of those players.
    """
    if type(players) is not int or not 2 <= players <= 1000:
        raise ArgumentError(f"players must be an int from 2 to 1000, not {show(players)}")
    if isinstance(winners, str | bytes) or not isinstance(winners, Sequence):
        raise ArgumentError(f"winners must be a sequence of seats, not {what(winners)}")
    if len(winners) > players or any(
        type(seat) is not int or not 0 <= seat < players for seat in winners
    ):
        raise ArgumentError(f"winners must be seats from 0 to {players - 1}, not {show(winners)}")
    if len(set(winners)) != len(winners):
        raise ArgumentError(f"winners name a seat twice: {show(winners)}")
    share = players / len(winners) if winners else 0.0
    won = set(winners)
    return [((share if seat in won else 0.0) - 1.0) / (players - 1) for seat in range(players)]

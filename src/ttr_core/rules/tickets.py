"""The core's one ticket check: what completes each destination ticket, and
what it is worth once the game's routes are laid.

A ticket's ends come from the map (``a``, ``b`` and ``points``; a region
such as a Swiss country stands for any of its locations; a ticket may list
several destinations) or from a variant (hook ``ttr_ticket_ends``). Score
sheets and their completed/failed counts, the core's tie-break, ``ttr
simulate``, the pictures and the bots all read tickets through here.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from ttr_core.errors import ArgumentError, show
from ttr_core.hooks import calls
from ttr_core.hooks.resolve import game_rules
from ttr_core.model.board import Board, Ticket
from ttr_core.model.declarations import TicketEnds, TicketGoal
from ttr_core.model.gamerules import GameRules
from ttr_core.model.graph import connected_pairs
from ttr_core.model.state import GameState, check_state
from ttr_core.model.views import PlayerView


@attrs.frozen
class TicketOutcome:
    """How one ticket of a seat stands: ``completed`` when its start is joined
    to a destination; ``points`` it wins (the most of the destinations
    joined) or loses (negative: ``TicketEnds.lost``); ``reached``, the name
    of the destination that scores (``None`` when none is joined)."""

    ticket: int
    completed: bool
    points: int
    reached: str | None = None


def map_ticket_ends(board: Board, ticket: Ticket) -> TicketEnds:
    """A ticket's ends as the map gives them: its start and each destination
    (a location, or every location of a region), the fewest points lost."""
    goals = [TicketGoal(board.places(end), points, end) for end, points in ticket.destinations]
    return TicketEnds(board.places(ticket.a), goals, ticket.lost)


def ticket_ends(game: GameState | PlayerView) -> tuple[TicketEnds, ...]:
    """Every ticket's :class:`~ttr_core.TicketEnds` in the game of ``game`` — a
    state, or a seat's view (the same ends: every view shows the game's
    variants and options) — by ticket id: a variant's answer (hook
    ``ttr_ticket_ends``), else the map's (:meth:`~ttr_core.TicketEnds.scored`
    scores one). ``ArgumentError`` if ``game`` is neither."""
    if isinstance(game, PlayerView):
        return ends_of(view_rules(game))
    if not isinstance(game, GameState):
        raise ArgumentError(f"game must be a GameState or a PlayerView, not {show(game)}")
    return ends_of(check_state(game).rules)


def view_rules(view: PlayerView) -> GameRules:
    """The rule set of the game ``view`` shows (its map, player count, variants
    and options, all of which every view shows): what a bot or a front end that
    sees views only asks of the rules, e.g. ``view_rules(view).both_pair_routes_usable``.
    ``ArgumentError`` if ``view`` is not a :class:`PlayerView`."""
    if not isinstance(view, PlayerView):
        raise ArgumentError(f"view must be a PlayerView, not {show(view)}")
    options = {variant: dict(values) for variant, values in view.options}
    return game_rules(view.board, len(view.seats), view.variant_names, options)


def ends_of(rules: GameRules) -> tuple[TicketEnds, ...]:
    """:func:`ticket_ends` of a rule set, built once per rule set."""
    found: tuple[TicketEnds, ...] | None = rules.derived.get("ticket_ends")
    if found is None:
        board = rules.board
        ends = []
        for ticket in board.tickets:
            told = calls.run_ticket_ends(rules, ticket) if rules.ticket_ends else None
            ends.append(told if told is not None else map_ticket_ends(board, ticket))
        found = rules.derived["ticket_ends"] = tuple(ends)
    return found


def ticket_outcomes(state: GameState, seat: int) -> tuple[TicketOutcome, ...]:
    """How each of ``seat``'s tickets stands (in the order held): joined through
    the seat's own routes (engine decision E15) and the routes the game's
    variants let it use besides (hook ``ttr_ticket_connections``, a station).

    During play a provisional count. Raises :class:`ArgumentError` if
    ``state`` is not a :class:`GameState` or ``seat`` is not one of its seats.
    """
    check_state(state)
    if type(seat) is not int or not 0 <= seat < len(state.players):
        raise ArgumentError(
            f"seat must be a seat from 0 to {len(state.players) - 1}, not {show(seat)}"
        )
    return _outcomes(state, seat)


def _outcomes(state: GameState, seat: int) -> tuple[TicketOutcome, ...]:
    board = state.board
    loc = board.location_id
    routes: Iterable[int] = state.players[seat].routes
    rules = state.rules
    if rules.ticket_connections:
        routes = set(routes) | calls.run_ticket_connections(rules, state, seat)
    edges = [(loc(board.routes[r].a), loc(board.routes[r].b)) for r in routes]
    root = connected_pairs(len(board.locations), edges)
    ends = ends_of(rules)
    found = []
    for ticket in state.players[seat].tickets:
        points, goal = ends[ticket].scored(root)
        reached = None if goal is None else goal.name
        found.append(TicketOutcome(ticket, goal is not None, points, reached))
    return tuple(found)

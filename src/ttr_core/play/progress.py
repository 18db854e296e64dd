"""Ticket progress as one seat may work it out: who owns what, and for each
ticket the fewest spaces still to claim and the open routes that would do it.

Everything here reads a :class:`~ttr_core.PlayerView` (the routes each seat
and each non-seat owner claimed are public), never a game state.
"""

from __future__ import annotations

import heapq

import attrs

from ttr_core import PlayerView
from ttr_core.rules.tickets import ticket_ends


@attrs.frozen
class Progress:
    """How far a ticket is from done, on the cheapest way left."""

    #: The ticket id.
    ticket: int
    #: Spaces still to claim on the cheapest way (0: the seat's routes join
    #: the ends), or ``None`` when other owners have cut every way.
    spaces: int | None
    #: The open routes of that way, by id.
    routes: tuple[int, ...]


def owners(view: PlayerView) -> dict[int, int]:
    """The owner of every claimed route, by route id: a seat, or a non-seat
    owner's number."""
    owned = {route: seat.seat for seat in view.seats for route in seat.routes}
    for other in view.others:
        owned.update(dict.fromkeys(other.routes, other.owner))
    return owned


def is_open(view: PlayerView, route: int, owned: dict[int, int], both_pairs: bool) -> bool:
    """Whether anybody may still claim ``route``: it is free and, when the game
    lets only one route of a double pair be claimed, so is its partner."""
    if route in owned:
        return False
    partner = view.board.routes[route].partner
    return both_pairs or partner is None or partner not in owned


def ticket_progress(view: PlayerView, ticket: int, both_pairs: bool) -> Progress:
    """The viewer's progress on ``ticket``: the cheapest way from its start to a
    destination (any location of a region) over the viewer's routes (free) and
    open routes (their length)."""
    board = view.board
    owned = owners(view)
    me = view.viewer
    ends = ticket_ends(view)[ticket]
    goals = {place for goal in ends.goals for place in goal.places}
    adjacent: dict[int, list[tuple[int, int]]] = {}
    for route in board.routes:
        a, b = board.location_id(route.a), board.location_id(route.b)
        adjacent.setdefault(a, []).append((route.id, b))
        adjacent.setdefault(b, []).append((route.id, a))
    # Dijkstra on (spaces, routes taken): among equally short ways the one
    # with the fewest routes to claim.
    best: dict[int, tuple[int, int]] = {start: (0, 0) for start in ends.start}
    came: dict[int, tuple[int, int]] = {}
    heap = [(0, 0, start) for start in sorted(ends.start)]
    goal = -1
    while heap:
        spaces, count, here = heapq.heappop(heap)
        if here in goals:
            goal = here
            break
        if best.get(here, (spaces, count)) < (spaces, count):
            continue
        for route_id, there in adjacent.get(here, ()):
            if owned.get(route_id) == me:
                step = (spaces, count)
            elif is_open(view, route_id, owned, both_pairs):
                step = (spaces + board.routes[route_id].length, count + 1)
            else:
                continue
            if step < best.get(there, (1 << 30, 0)):
                best[there] = step
                came[there] = (here, route_id)
                heapq.heappush(heap, (*step, there))
    if goal < 0:
        return Progress(ticket, None, ())
    way = []
    here = goal
    while here in came:
        here, route_id = came[here]
        if owned.get(route_id) != me:
            way.append(route_id)
    return Progress(ticket, best[goal][0], tuple(sorted(way)))

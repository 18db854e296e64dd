"""Coast tickets (variant ``tp_coasts``): a ticket whose destination is a coast,
reached at any of its cities, its value depending on the coast reached — a
ticket check of the variant's own (hook ``ttr_ticket_ends``), from map data of
its own: the coasts in the map's ``[variants.tp_coasts]`` table, and each coast
ticket's ``coasts`` and ``values`` (list-valued ticket fields the map declares).

Joined to one or more of its coasts, a coast ticket scores the most valuable
one joined; joined to none, it loses the least valuable. Switzerland's country
tickets are the printed game with this shape. A ticket without ``coasts`` is
left to the map (``None``).
"""

from __future__ import annotations

from collections.abc import Iterator

from ttr_core import Board, Ticket, TicketEnds, TicketGoal, hookimpl

NAME = "tp_coasts"


def coasts(board: Board) -> dict[str, tuple[str, ...]]:
    """The coasts of ``board``'s table, by name: their cities."""
    table = board.variant_data.get(NAME, {}).get("coasts", {})
    return {name: tuple(cities) for name, cities in table.items()}


class Coasts:
    """Coast tickets (see the module)."""

    description = "coast tickets: reach a coast at any of its cities, scored by the coast"

    @hookimpl
    def ttr_validate_map(self, board: Board) -> Iterator[str]:
        known = coasts(board)
        for name, cities in known.items():
            for city in cities:
                try:
                    board.location_id(city)
                except KeyError:
                    yield f"[variants.{NAME}] coast {name!r}: no city {city!r}"
        for ticket in board.tickets:
            names, values = ticket.extra.get("coasts"), ticket.extra.get("values")
            if names is None and values is None:
                continue
            if names is None or values is None or len(names) != len(values) or not names:
                yield f"ticket {ticket.id}: 'coasts' and 'values' must list as many items"
                continue
            for name, value in zip(names, values, strict=True):
                if name not in known:
                    yield f"ticket {ticket.id}: no coast {name!r} (coasts: {', '.join(known)})"
                if not 1 <= value <= 100:
                    yield f"ticket {ticket.id}: a coast's value is 1 to 100, not {value}"

    @hookimpl
    def ttr_ticket_ends(self, board: Board, ticket: Ticket) -> TicketEnds | None:
        names, values = ticket.extra.get("coasts"), ticket.extra.get("values")
        if not names or not values:
            return None
        known = coasts(board)
        goals = [
            TicketGoal([board.location_id(city) for city in known[name]], value, f"{name} coast")
            for name, value in zip(names, values, strict=True)
        ]
        return TicketEnds((board.location_id(ticket.a),), goals, min(values))

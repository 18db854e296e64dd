"""Actions in words, for people reading a replayed game (``ttr replay``).

A replay shows everything: the cards drawn blind and the tickets offered
are named, as a game's record holds them. Never send these lines to a
player during play.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from .actions import Action, ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass
from .state import GameState
from .views import non_seat_owners


def describe(before: GameState, action: Action, after: GameState) -> str:
    """What ``action`` did, taking ``before`` to ``after``, in one line."""
    board = before.board
    seat = action.player
    if isinstance(action, DrawBlind):
        gained = _gained(before, after, seat)
        return f"draws {gained or 'a card'} from the deck"
    if isinstance(action, DrawFaceUp):
        card = before.display[action.slot]
        name = "?" if card is None else board.card_names[card]
        return f"takes the face-up {name} card"
    if isinstance(action, ClaimRoute):
        route = board.routes[action.route]
        paid = []
        if action.color is not None:
            paid.append(f"{route.length - action.wilds} {action.color}")
        if action.wilds:
            paid.append(f"{action.wilds} {board.wild_name}")
        return (
            f"claims {route.a}–{route.b} ({route.color} {route.length}, "
            f"{_points(board.rules.route_points[route.length])}) with {' + '.join(paid)}"
        )
    if isinstance(action, DrawTickets):
        offered = after.pending.offered if after.pending is not None else ()
        return f"draws tickets {_tickets(before, offered)}"
    if isinstance(action, KeepTickets):
        kept = sorted(action.tickets)
        return f"keeps {_tickets(before, kept)}"
    if isinstance(action, Pass):
        return "passes (no other action is possible)"
    fields = ", ".join(
        f"{f.name}={getattr(action, f.name)!r}"
        for f in attrs.fields(type(action))
        if f.name != "player"
    )
    return f"{type(action).__name__}({fields})"


def _gained(before: GameState, after: GameState, seat: int) -> str:
    old = before.players[seat].hand.counts
    new = after.players[seat].hand.counts
    names = before.board.card_names
    cards = [names[c] for c, (a, b) in enumerate(zip(old, new, strict=True)) for _ in range(b - a)]
    return ", ".join(cards)


def _tickets(state: GameState, ids: Iterable[int]) -> str:
    tickets = state.board.tickets
    shown = [f"{tickets[t].a}–{tickets[t].b} ({tickets[t].points})" for t in ids]
    return "; ".join(shown) if shown else "none"


def other_claims(before: GameState, after: GameState) -> list[str]:
    """Routes claimed between the two states by owners that are not seats."""
    board = before.board
    names = {o.owner: o.name for o in non_seat_owners(after)}
    lines = []
    for rid, (old, new) in enumerate(zip(before.owners, after.owners, strict=True)):
        if old != new and not after.is_seat(new):
            route = board.routes[rid]
            who = names.get(new, f"owner {new}")
            lines.append(f"{who} claims {route.a}–{route.b} ({route.color} {route.length})")
    return lines


def _points(points: int) -> str:
    return f"{points} point" if points == 1 else f"{points} points"

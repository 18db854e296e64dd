"""Legal moves and views in words, for the person about to choose.

:func:`move_words` words any legal action of a seat from that seat's view
alone (a blind draw never names the card it would draw): the core's moves
here, a variant's own through its hook ``ttr_move_words``, and every
variant's notes on it (hook ``ttr_move_notes``: a ferry's locomotives, a
toll and who is paid). :func:`view_words` is the variants' part of a view
in words (hook ``ttr_view_words``), which front ends show in place of the
raw ``view.variants``. Both front ends (``ttr play``, ``ttr serve``) word
every move through here, so a third party's variant is shown as a built-in
one is. :func:`describe` (:mod:`ttr_core.rules.narrate`) tells a move once
made.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import attrs

from ttr_core.errors import ArgumentError, show
from ttr_core.hooks import calls
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_core.model.board import WILD, Board, Location, Route, Ticket
from ttr_core.model.declarations import MoveWords
from ttr_core.model.views import PlayerView
from ttr_core.rules.tickets import view_rules

__all__ = ["move_words", "player_name", "view_words"]

#: More seats than any game has: a seat number is checked against it before
#: it is written out (a number of thousands of digits cannot be).
_MOST_SEATS = 10_000
#: The core's groups, as front ends head them.
DRAW = "Draw a card"
CLAIM = "Claim a route"
TICKETS = "Tickets"
PASS = "Pass"


def move_words(view: PlayerView, action: Action) -> MoveWords:
    """``action``, a legal action of the seat of ``view``, in words for that
    seat: a :class:`~ttr_core.MoveWords` with the variants' notes on it.

    Reads ``view`` only. A variant's action no variant words (hook
    ``ttr_move_words``) gets its class's name as words and its whole-number
    and text fields. Raises :class:`ArgumentError` for a ``view`` that is not
    a :class:`PlayerView`, an ``action`` that is not an :class:`Action`, or a
    core action naming no seat, route, face-up slot, colour or ticket of the
    game; a variant's action its variant cannot word raises
    :class:`~ttr_core.PluginError`.
    """
    if not isinstance(view, PlayerView):
        raise ArgumentError(f"view must be a PlayerView, not {show(view)}")
    if not isinstance(action, Action):
        raise ArgumentError(f"action must be a ttr_core.Action, not {show(action)}")
    _check_ids(view, action)
    rules = view_rules(view)
    words = _core_words(view, action)
    if words is None:
        words = calls.run_move_words(rules, view, action) or _fallback(view.board, action)
    notes = calls.run_move_notes(rules, view, action) if rules.move_notes else []
    if notes:
        words = MoveWords(
            words.text,
            words.group,
            words.place,
            words.route,
            words.choice,
            words.command,
            (*words.notes, *notes),
        )
    return words


def _check_ids(view: PlayerView, action: Action) -> None:
    """Refuse a core action whose ids are none of the game's: the words would
    name the wrong route (``-1``: the last) or fail untyped."""
    board = view.board
    player = action.player
    if type(player) is not int or not 0 <= player < len(view.seats):
        raise ArgumentError(f"the action's player must be a seat of the game, not {show(player)}")
    if isinstance(action, ClaimRoute):
        route = action.route
        if type(route) is not int or not 0 <= route < len(board.routes):
            raise ArgumentError(f"route must be a route id of the map, not {show(route)}")
        wilds = action.wilds
        if type(wilds) is not int or not 0 <= wilds <= board.routes[route].length:
            raise ArgumentError(f"wilds must be 0 to the route's length, not {show(wilds)}")
        if action.color is not None and action.color not in board.colors:
            raise ArgumentError(f"color must be a card colour or None, not {show(action.color)}")
    elif isinstance(action, DrawFaceUp):
        slot = action.slot
        if type(slot) is not int or not 0 <= slot < len(view.display):
            raise ArgumentError(f"slot must be a face-up slot from 0, not {show(slot)}")
    elif isinstance(action, KeepTickets):
        tickets = action.tickets
        if not isinstance(tickets, frozenset) or not all(
            type(t) is int and 0 <= t < len(board.tickets) for t in tickets
        ):
            raise ArgumentError(f"tickets must be ticket ids of the map, not {show(tickets)}")


def view_words(view: PlayerView) -> tuple[str, ...]:
    """The variants' part of ``view`` in words, one line each (hook
    ``ttr_view_words``), in variant order: what front ends show of
    ``view.variants``. Raises :class:`ArgumentError` for a ``view`` that is
    not a :class:`PlayerView`."""
    if not isinstance(view, PlayerView):
        raise ArgumentError(f"view must be a PlayerView, not {show(view)}")
    rules = view_rules(view)
    return tuple(calls.run_view_words(rules, view)) if rules.view_words else ()


def player_name(seat: int, viewer: int | None = None) -> str:
    """A seat as people name it: ``"Player 2"`` for seat 1 (people count from
    1), ``"you"`` for the ``viewer``'s own seat. The words of the front-end
    hooks name seats so. Raises :class:`ArgumentError` for a ``seat`` that is
    not a whole number from 0 (below 10,000) or a ``viewer`` that is neither that nor ``None``."""
    if type(seat) is not int or not 0 <= seat < _MOST_SEATS:
        raise ArgumentError(f"seat must be a whole number from 0, not {show(seat)}")
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < _MOST_SEATS):
        raise ArgumentError(f"viewer must be None or a whole number from 0, not {show(viewer)}")
    return "you" if seat == viewer else f"Player {seat + 1}"


def card_name(board: Board, name: str) -> str:
    """A card as the map names it (its wild card by the map's word)."""
    return board.wild_name if name == WILD else name


def payment(board: Board, action: ClaimRoute) -> str:
    """The cards a claim pays: ``"2 red + 1 locomotive"``."""
    length = board.routes[action.route].length
    parts = []
    if action.color is not None and length > action.wilds:
        parts.append(f"{length - action.wilds} {card_name(board, action.color)}")
    if action.wilds:
        parts.append(f"{action.wilds} {board.wild_name}{'' if action.wilds == 1 else 's'}")
    return " + ".join(parts) or "nothing"


def _core_words(view: PlayerView, action: Action) -> MoveWords | None:
    board = view.board
    if isinstance(action, ClaimRoute):
        route = board.routes[action.route]
        paid = payment(board, action)
        return MoveWords(
            f"Claim {route.a}–{route.b} ({route.color} {route.length}) with {paid}",
            CLAIM,
            route=route.id,
            choice=paid,
            command="c",
        )
    if isinstance(action, DrawBlind):
        return MoveWords(f"Draw a card from the deck ({view.deck_size} left)", DRAW, command="b")
    if isinstance(action, DrawFaceUp):
        name = view.display[action.slot] if action.slot < len(view.display) else None
        shown = "card" if name is None else f"{card_name(board, name)} card"
        return MoveWords(f"Take the face-up {shown}", DRAW, command=f"f{action.slot + 1}")
    if isinstance(action, DrawTickets):
        return MoveWords(
            f"Draw tickets ({view.ticket_deck_size} in the deck)", TICKETS, command="t"
        )
    if isinstance(action, KeepTickets):
        kept = ", ".join(board.tickets[t].text("–") for t in sorted(action.tickets))
        return MoveWords(f"Keep {kept}", TICKETS)
    if isinstance(action, Pass):
        return MoveWords("Pass (nothing else is possible)", PASS, command="p")
    return None


def _fallback(board: Board, action: Action) -> MoveWords:
    """A variant's action no variant words: its class's name in words and its
    plain fields (numbers, words), never a repr; a field named ``location``,
    ``route`` or ``ticket`` holding an id is named as people read it."""
    group = heading(action)
    fields = []
    for field in attrs.fields(type(action)):
        value = getattr(action, field.name)
        if field.name == "player" or isinstance(value, bool) or not isinstance(value, int | str):
            continue
        if type(value) is int and field.name in _NAMED:
            items = _NAMED[field.name](board)
            if 0 <= value < len(items):
                fields.append(f"{field.name} {_name(items[value])}")
            continue
        if len(str(value)) <= 40:
            fields.append(f"{field.name} {value}")
    text = group + (f" ({', '.join(fields)})" if fields else "")
    return MoveWords(text, group)


#: Fields of a variant's action that hold an id of the board, by name.
_NAMED: dict[str, Callable[[Board], Sequence[Location | Route | Ticket]]] = {
    "location": lambda board: board.locations,
    "route": lambda board: board.routes,
    "ticket": lambda board: board.tickets,
}


def _name(item: Location | Route | Ticket) -> str:
    if isinstance(item, Route):
        return f"{item.a}–{item.b} ({item.color} {item.length})"
    if isinstance(item, Ticket):
        return item.text("–")
    return item.name


def heading(action: Action) -> str:
    """An action's class as words: ``BuildStation`` → "Build station"."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(action).__name__).lower()
    return words[:1].upper() + words[1:]

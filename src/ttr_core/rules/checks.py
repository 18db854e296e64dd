"""Why the rules refuse an action: each check made on the frozen state before
anything is carried out (a refused action changes nothing), with the reason
code and a message that quotes nothing hidden.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from ttr_core.errors import (
    ArgumentError,
    IllegalAction,
    PlayerCountError,
    Reason,
    show,
    what,
)
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawFaceUp,
    KeepTickets,
)
from ttr_core.model.board import GRAY, Board, wilds_pay
from ttr_core.model.state import (
    UNCLAIMED,
    GameState,
)


def check_player_count(board: Board, players: object) -> int:
    """``players`` checked for a game on ``board``: :class:`ArgumentError` for
    anything but an ``int`` (a ``bool`` included), :class:`PlayerCountError`
    for a count the map is not played with."""
    if type(players) is not int:
        raise ArgumentError(f"players must be a whole number (an int), not {what(players)}")
    low, high = board.rules.min_players, board.rules.max_players
    if not low <= players <= high:
        raise PlayerCountError(board.id, players, low, high)
    return players


def _check_seat(state: GameState, action: object, seat: object) -> None:
    """``apply``'s ``seat`` guard: ``ArgumentError`` for a seat that is no seat of
    the game, ``IllegalAction(wrong_seat)`` for an action in another seat's name.
    Nothing but the two seat numbers is looked at (nothing hidden)."""
    if type(seat) is not int or not 0 <= seat < len(state.players):
        raise ArgumentError(
            f"seat must be a seat from 0 to {len(state.players) - 1}, not {show(seat)}"
        )
    player = getattr(action, "player", None) if isinstance(action, Action) else None
    if player != seat or type(player) is not int:
        raise IllegalAction(
            Reason.WRONG_SEAT,
            f"seat {seat} may only act in its own name, not as {_named_seat(player)}",
        )


def _named_seat(player: object) -> str:
    if type(player) is int:
        return f"seat {show(player)}"
    return "an action without a seat" if player is None else f"seat {show(player, 20)}"


def _wrong_phase(state: GameState, action: Action) -> IllegalAction:
    assert state.pending is not None
    return IllegalAction(
        Reason.WRONG_PHASE,
        f"{type(action).__name__} is not allowed now: the game waits for "
        f"{state.pending.kind.replace('_', ' ')}",
    )


def _field_error(state: GameState, action: Action) -> IllegalAction | None:
    """Why a core action's fields (other than its seat) have the wrong types, or
    ``None``: each field must be exactly of its declared type (an ``int`` is not
    a bool or a float), so that no field of a refused action is ever used as an
    index, hashed or compared. The reason is the field's own (``bad_slot``,
    ``unknown_route``, ``bad_payment``, ``ticket_not_offered``)."""
    kind = type(action)
    if kind is DrawFaceUp:
        assert isinstance(action, DrawFaceUp)
        if type(action.slot) is not int:
            return IllegalAction(
                Reason.BAD_SLOT, f"a face-up slot is an int, not {what(action.slot)}"
            )
    elif kind is ClaimRoute:
        assert isinstance(action, ClaimRoute)
        if type(action.route) is not int:
            return IllegalAction(
                Reason.UNKNOWN_ROUTE, f"a route is an int (its id), not {what(action.route)}"
            )
        if type(action.wilds) is not int:
            return IllegalAction(
                Reason.BAD_PAYMENT, f"wilds is an int (a count), not {what(action.wilds)}"
            )
        color = action.color
        if color is not None and type(color) is not str:
            return IllegalAction(
                Reason.BAD_PAYMENT,
                f"color is a card colour name (a str) or None, not {what(color)}",
            )
    elif kind is KeepTickets:
        assert isinstance(action, KeepTickets)
        chosen = action.tickets
        if type(chosen) is not frozenset:
            return IllegalAction(
                Reason.MALFORMED_ACTION,
                f"KeepTickets.tickets is a frozenset of ticket ids, not {what(chosen)}",
            )
        stray = [t for t in chosen if type(t) is not int]
        if stray:
            return IllegalAction(
                Reason.NOT_OFFERED,
                f"tickets are ids (ints): {_some(stray)} cannot have been offered",
            )
    return None


def _refused_fields(state: GameState, action: Action) -> IllegalAction:
    """The error of an action whose field types a handler found wrong."""
    error = _field_error(state, action)
    assert error is not None
    return error


def _some(values: Iterable[object], most: int = 5) -> str:
    """Up to ``most`` values for a message (``...`` if there are more)."""
    shown = [show(v) for v in itertools.islice(values, most + 1)]
    if len(shown) > most:
        return f"{', '.join(shown[:most])} ..."
    return ", ".join(shown)


def face_up_card(state: GameState, slot: object) -> int:
    """The card in face-up ``slot`` (``IllegalAction`` for no such slot, or an empty one)."""
    if type(slot) is not int or not 0 <= slot < len(state.display):
        raise IllegalAction(
            Reason.BAD_SLOT,
            f"slot {show(slot)} does not exist: slots are 0 to {len(state.display) - 1}",
        )
    card = state.display[slot]
    if card is None:
        raise IllegalAction(Reason.EMPTY_SLOT, f"face-up slot {slot} is empty")
    return card


def _who(state: GameState, owner: int) -> str:
    return f"seat {owner}" if state.is_seat(owner) else f"owner {owner} (not a seat)"


def route_claim_error(state: GameState, rid: object, owner: int) -> IllegalAction | None:
    """Why ``owner`` may not claim route ``rid`` whatever it pays, or ``None``.

    The route must exist and be free; an owner never holds both routes of a
    pair, and a pair's second route is closed when the game uses one route of
    a pair; a seat must have the cars.
    """
    board = state.board
    if type(rid) is not int or not 0 <= rid < len(board.routes):
        return IllegalAction(Reason.UNKNOWN_ROUTE, f"there is no route {show(rid)} on {board.id}")
    route = board.routes[rid]
    desc = f"route {rid} ({route.a}–{route.b}, {route.color} {route.length})"
    if state.owners[rid] != UNCLAIMED:
        return IllegalAction(
            Reason.ROUTE_CLAIMED,
            f"{desc} is already claimed by {_who(state, state.owners[rid])}",
        )
    if route.partner is not None:
        partner_owner = state.owners[route.partner]
        if partner_owner == owner:
            return IllegalAction(
                Reason.OWNS_PARALLEL_ROUTE,
                f"{_who(state, owner)} owns route {route.partner}, the parallel route of {desc}",
            )
        if partner_owner != UNCLAIMED and not state.rules.both_pair_routes_usable:
            return IllegalAction(
                Reason.PARALLEL_ROUTE_CLOSED,
                f"{desc} is closed: its parallel route {route.partner} is claimed and with "
                f"{state.num_players} players only one route of a pair is used",
            )
    if 0 <= owner < len(state.players) and state.players[owner].cars < route.length:
        return IllegalAction(
            Reason.NOT_ENOUGH_CARS,
            f"{desc} needs {route.length} cars; seat {owner} has {state.players[owner].cars}",
        )
    return None


def _claim_error(state: GameState, action: ClaimRoute) -> IllegalAction | None:
    """Why ``action`` may not be applied, or ``None`` if it may."""
    seat = action.player
    error = route_claim_error(state, action.route, seat)
    if error is not None:
        return error
    board = state.board
    rid = action.route
    route = board.routes[rid]
    desc = f"route {rid} ({route.a}–{route.b}, {route.color} {route.length})"
    player = state.players[seat]
    wilds = action.wilds
    if type(wilds) is not int or not 0 <= wilds <= route.length:
        return IllegalAction(
            Reason.BAD_PAYMENT, f"wilds must be 0 to {route.length}, not {show(wilds)}"
        )
    if wilds and not wilds_pay(board.rules, route):
        fields = " or ".join(board.rules.wild_routes)
        return IllegalAction(
            Reason.CARDS_DO_NOT_PAY,
            f"{board.wild_name} cards pay only on routes marked {fields}; {desc} is not",
        )
    color = action.color
    counts = player.hand.counts
    if wilds == route.length:
        if color is not None:
            return IllegalAction(
                Reason.BAD_PAYMENT, "a payment with wilds alone names no colour (color=None)"
            )
    else:
        if type(color) is not str or color not in board.colors:
            return IllegalAction(
                Reason.BAD_PAYMENT,
                f"colour {show(color)} is not a card colour "
                f"(expected one of {', '.join(board.colors)})",
            )
        if route.color != GRAY and color != route.color:
            return IllegalAction(
                Reason.CARDS_DO_NOT_PAY, f"{desc} must be paid in {route.color}, not {color}"
            )
        need = route.length - wilds
        have = counts[board.colors.index(color)]
        if have < need:
            return IllegalAction(
                Reason.CARDS_DO_NOT_PAY,
                f"paying {desc} needs {need} {color} cards; seat {seat} has {have}",
            )
    if counts[board.wild] < wilds:
        return IllegalAction(
            Reason.CARDS_DO_NOT_PAY,
            f"paying {desc} needs {wilds} wilds; seat {seat} has {counts[board.wild]}",
        )
    return None

"""Actions in words: one line per action, for a replay or for one seat.

:func:`describe` tells an action as a given seat may know it. With no seat
(a replay of a finished game) every card drawn blind and every ticket is
named; the acting seat gets the same detail about its own action; any other
seat gets only what its view shows — how many tickets were drawn or kept,
never which, and no card drawn from the deck. Claims, face-up cards and
passes are public. A variant's own action is told in the variant's words
(hook ``ttr_describe_action``, told whether the reader may know everything);
one its variant does not name is shown by its class, and its fields only to
the acting seat or a replay: the library cannot know which of them the
other seats may see.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs

from ttr_core.errors import ArgumentError, GameNotOverError, IllegalAction, Reason, what
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
from ttr_core.model.board import Board
from ttr_core.model.state import GameState, check_state
from ttr_core.rules.engine import apply
from ttr_core.rules.views import non_seat_owners
from ttr_core.rules.wording import payment


def describe(state: GameState, action: Action, seat: int | None = None) -> str:
    """What ``action`` does in ``state``, in one line, as ``seat`` may know it.

    ``state`` is the state before the action; ``action`` must be legal in it
    (it is applied to learn what was drawn: :class:`IllegalAction`
    otherwise). ``seat=None`` names everything (a replay); the acting seat
    learns everything about its own action; any other seat only what its
    player view shows ("Seat 2 drew a card from the deck", "Seat 0 kept 2
    tickets"). Tickets are named as people read them, by their ends and
    points ("Seat 0 kept 2 tickets: Times Square–Soho (6), Chelsea–Brooklyn
    (8)"), never by their ids. The line starts with the seat's index,
    counted from 0 as everywhere in the API (``ttr play`` and ``ttr replay``
    show people "Player 1" for "Seat 0"). Raises :class:`ArgumentError` for
    a ``state`` that is not a :class:`GameState`, an ``action`` that is not
    an :class:`Action`, or a ``seat`` that is neither ``None`` nor one of
    the game's seats.
    """
    check_state(state)
    if not isinstance(action, Action):
        raise ArgumentError(f"action must be a ttr_core.Action, not {what(action)}")
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players
    ):
        raise ArgumentError(
            f"seat must be None or a seat from 0 to {state.num_players - 1}, not {what(seat)}"
        )
    try:
        after = apply(state, action)
    except IllegalAction as exc:
        if seat is None or seat == action.player:
            raise
        # Why an action in the deciding seat's name is refused may depend on
        # that seat's hidden cards or tickets: another seat learns only that.
        raise IllegalAction(
            exc.reason if exc.reason in _PUBLIC_REASONS else Reason.UNKNOWN_ACTION,
            "describe() takes an action that applies to the state; this one does not",
        ) from None
    return describe_after(state, action, after, seat)


#: Refusals whose reason depends on nothing hidden (the seat, the phase, the end).
_PUBLIC_REASONS = frozenset(
    {Reason.GAME_OVER, Reason.NOT_YOUR_TURN, Reason.WRONG_PHASE, Reason.MALFORMED_ACTION}
)


#: How a game ended, in :func:`describe`'s words (``Termination`` values).
_ENDINGS = {
    "cars": "The game ended: a seat ran low on {pieces} and the final round was played.",
    "stalemate": "The game ended: a full round of passes, nobody could move.",
    "resignation": "Seat {seat} resigned and loses: the game ends here.",
    "timeout": "Seat {seat} ran out of time and loses: the game ends here.",
    "abandoned": "The game was abandoned: it ends here, with no winner.",
}


def describe_ending(state: GameState) -> str:
    """How ``state``'s game ended, in one line, as :func:`describe` tells
    actions: the final round played, a stalemate, or an early ending
    (:func:`~ttr_core.end_game`: "Seat 1 resigned and loses: the game ends
    here."; the seat named once, first, as in :func:`describe`'s lines).
    Nothing in it is hidden from any seat.

    Raises :class:`GameNotOverError` for a game not over and
    :class:`ArgumentError` for a ``state`` that is not a :class:`GameState`.
    """
    check_state(state)
    if state.termination is None:
        raise GameNotOverError("describe_ending() needs a finished game")
    return _ENDINGS[str(state.termination)].format(pieces=state.board.pieces, seat=state.forfeit)


def describe_after(
    before: GameState, action: Action, after: GameState, seat: int | None = None
) -> str:
    """:func:`describe` for a caller that holds the state after the action already
    (``after == apply(before, action)``, not checked)."""
    full = seat is None or seat == action.player
    line = f"Seat {action.player} {predicate(before, action, after, full=full)}"
    if before.rules.describe_effects:
        # What the variants did besides: a toll paid, a merchandise card drawn.
        effects = calls.run_describe_effects(before.rules, before, action, after, full)
        if effects:
            line += "; " + "; ".join(effects)
    return line


def predicate(before: GameState, action: Action, after: GameState, *, full: bool) -> str:
    """What the acting seat did ("drew a card from the deck"): everything when
    ``full``, else only what every seat may see."""
    board = before.board
    if isinstance(action, DrawBlind):
        gained = _gained(before, after, action.player) if full else ""
        return f"drew {gained or 'a card'} from the deck"
    if isinstance(action, DrawFaceUp):
        card = before.display[action.slot]
        name = "?" if card is None else _card_name(board, card)
        return f"took the face-up {name} card"
    if isinstance(action, ClaimRoute):
        route = board.routes[action.route]
        # A claim a variant holds open (a tunnel's cards turned up next) is not
        # made yet: it may still be given up.
        done = after.owners[action.route] == action.player
        verb = "claimed" if done else "set out to claim"
        return (
            f"{verb} {route.a}–{route.b} ({route.color} {route.length}, "
            f"{_points(board.rules.route_points[route.length])}) with {payment(board, action)}"
        )
    if isinstance(action, DrawTickets):
        offered = after.pending.offered if after.pending is not None else ()
        if full:
            return f"drew {_tickets(before, offered)}"
        return f"drew {_count(len(offered), 'ticket')}"
    if isinstance(action, KeepTickets):
        if full:
            return f"kept {_tickets(before, sorted(action.tickets))}"
        return f"kept {_count(len(action.tickets), 'ticket')}"
    if isinstance(action, Pass):
        return "passed (no other action was possible)"
    if before.rules.describe_action:
        words = calls.run_describe_action(before.rules, before, action, after, full)
        if words is not None:
            # A variant's words may say "a orange card" as the core never does.
            return _AN_CARD.sub("an ", words)
    kind = type(action).__name__
    if not full:
        return f"played {kind}"
    fields = ", ".join(
        f"{f.name}={getattr(action, f.name)!r}"
        for f in attrs.fields(type(action))
        if f.name != "player"
    )
    return f"played {kind}({fields})"


def _gained(before: GameState, after: GameState, seat: int) -> str:
    old = before.players[seat].hand.counts
    new = after.players[seat].hand.counts
    board = before.board
    cards = [
        _card_name(board, c)
        for c, (a, b) in enumerate(zip(old, new, strict=True))
        for _ in range(b - a)
    ]
    if not cards:
        return ""
    return ", ".join(f"{_a(name)} {name} card" for name in cards)


#: "a" before a card word that begins with a vowel ("a orange card").
_AN_CARD = re.compile(r"\ba (?=[aeiouAEIOU]\w* card)")


def _a(word: str) -> str:
    """The article before ``word``: "an orange", "a red" (by its first letter:
    the card names are colours and the maps' words for their wilds)."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def _card_name(board: Board, card: int) -> str:
    """A card as the map names it (its wild card by the map's own name: "taxi")."""
    return board.wild_name if card == board.wild else board.card_names[card]


def _tickets(state: GameState, ids: Iterable[int]) -> str:
    """``"2 tickets: Times Square–Soho (6), Chelsea–Brooklyn (8)"``: how many, then
    each ticket as people read it (its ends and points; never its id)."""
    shown = [state.board.tickets[t].text("–") for t in ids]
    if not shown:
        return "no ticket"
    return f"{_count(len(shown), 'ticket')}: {', '.join(shown)}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


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

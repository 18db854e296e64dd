"""What the person playing a game of ``ttr serve`` sees: :func:`status`.

A function of their seat's ``seat_status`` (their view, their own legal
moves, their score sheet) and the event lines told as their seat may know
them — nothing else of the game state: the seed, the deck, the bots' hands
and tickets never reach it. Every move is worded by
:func:`ttr_core.move_words` (a variant's own in the variant's words, with
every variant's notes), the variants' part of the view by
:func:`ttr_core.view_words`; once the game is over every seat's whole score
sheet is given, as :func:`ttr_core.final_scores` has it.
"""

from __future__ import annotations

from typing import Any, Protocol

import ttr_core
from ttr_core.play.moves import ask
from ttr_core.render import CARD_FILLS, svg

__all__ = ["WIDTH", "Seated", "inline", "move_label", "status"]

#: Width of the board picture, in pixels (the page scales it).
WIDTH = 1000


class Seated(Protocol):
    """What :func:`status` reads of a game (:class:`ttr_core.serve.games.Game`)."""

    id: str
    state: ttr_core.GameState
    seat: int
    bot_names: dict[int, str]
    events: list[str]


def status(game: Seated, *, board: bool = True) -> dict[str, Any]:
    """The person's status: their view (and its picture, unless ``board`` is
    false), their legal moves (when they decide), their own score sheet, the
    event lines as their seat knows them and, once the game is over, the final
    scores. Nothing else of the state."""
    seat = game.seat
    # Everything the seat may know, from the one call that cannot forget a filter.
    known = ttr_core.seat_status(game.state, seat)
    view, legal, scores = known.view, known.legal, known.scores
    the_board = view.board
    sheet = known.sheets[seat]
    ticket_lines = {line.ref: line for line in sheet.lines if line.kind == "ticket"}
    told = [ttr_core.move_words(view, action) for action in legal]
    answer: dict[str, Any] = {
        "game": game.id,
        "seat": seat,
        "ply": view.ply,
        "over": view.is_over,
        "map": the_board.name,
        "pieces": the_board.pieces,  # the map's word: "taxis", "trains", "carts"
        "turn": view.current_player == seat,
        "svg": inline(svg(view, width=WIDTH, scores=scores)) if board else None,
        "view": ttr_core.to_data(view),
        "hand": [
            {"card": name, "name": _card(the_board, name), "count": count, "fill": _fill(name)}
            for name, count in view.hand.items()
            if count
        ],
        "display": [
            {
                "slot": slot,
                "card": card,
                "name": _card(the_board, card) if card else None,
                "fill": _fill(card) if card else None,
            }
            for slot, card in enumerate(view.display)
        ],
        "deck": view.deck_size,
        "ticket_deck": view.ticket_deck_size,
        "tickets": [_ticket(the_board, tid, ticket_lines.get(tid)) for tid in view.tickets],
        "offered": [_ticket(the_board, tid, None) for tid in view.offered],
        "min_keep": view.min_keep,
        "seats": [
            {
                "seat": s.seat,
                "name": "You"
                if s.seat == seat
                else f"Player {s.seat + 1} ({game.bot_names[s.seat]})",
                "cards": s.hand_size,
                "tickets": s.tickets_held,
                "cars": s.cars,
                "score": s.score,
                "to_move": view.current_player == s.seat,
            }
            for s in view.seats
        ],
        "sheet": [_line(line) for line in sheet.lines],
        "moves": [_move(view, action, words) for action, words in zip(legal, told, strict=True)],
        # The variants' part of the view in words (never view.variants itself).
        "situation": list(ttr_core.view_words(view)),
        "prompt": ask(view, told) if legal else "",
        "events": list(game.events),
    }
    if scores is not None:
        answer["scores"] = ttr_core.to_data(scores)
        answer["winners"] = list(scores.winners)
        # Every seat's whole sheet, now public: the same numbers as final_scores.
        answer["final"] = [
            {
                "seat": sheet.player,
                "name": answer["seats"][sheet.player]["name"],
                "total": sheet.total,
                "lines": [_line(line) for line in sheet.lines],
            }
            for sheet in scores.sheets
        ]
        answer["others"] = [
            {"name": other.name, "routes": len(other.routes)} for other in scores.others
        ]
    return answer


def move_label(view: ttr_core.PlayerView, action: ttr_core.Action) -> str:
    """A legal move of the viewer in words, from what the viewer sees (never
    ``describe``, which would draw the card to name it): :func:`ttr_core.move_words`,
    a variant's own move in the variant's words."""
    return ttr_core.move_words(view, action).text


def _line(line: ttr_core.ScoreLine) -> dict[str, Any]:
    return {"label": line.label, "points": line.points, "detail": list(line.detail)}


def _move(
    view: ttr_core.PlayerView, action: ttr_core.Action, words: ttr_core.MoveWords
) -> dict[str, Any]:
    data = _data(action)
    kind = {
        ttr_core.ClaimRoute: "claim",
        ttr_core.DrawBlind: "deck",
        ttr_core.DrawFaceUp: "faceup",
        ttr_core.DrawTickets: "tickets",
        ttr_core.KeepTickets: "keep",
        ttr_core.Pass: "pass",
    }.get(type(action), "other")
    place = words.place
    move: dict[str, Any] = {
        "kind": kind,
        "label": words.text,
        "action": data,
        "group": words.group,
        # A move about a city (a station): the page lets the person click it.
        "place": None if place is None else view.board.locations[place].name,
        "location": place,
        "route": words.route,
        "choice": words.choice or words.text,
        "notes": list(words.notes),
    }
    if isinstance(action, ttr_core.DrawFaceUp):
        move["slot"] = action.slot
    elif isinstance(action, ttr_core.KeepTickets):
        move["tickets"] = sorted(action.tickets)
    return move


def _data(action: ttr_core.Action) -> dict[str, Any]:
    data = ttr_core.to_data(action)
    assert isinstance(data, dict)  # an action is written as an object
    return data


def _ticket(board: ttr_core.Board, tid: int, line: ttr_core.ScoreLine | None) -> dict[str, Any]:
    ticket = board.tickets[tid]
    answer: dict[str, Any] = {
        "id": tid,
        "name": f"{ticket.a}–{ticket.b}" if not ticket.more else ticket.text("–"),
        "points": max(points for _end, points in ticket.destinations),
    }
    if line is not None:
        answer["done"] = line.points > 0
    return answer


def _card(board: ttr_core.Board, name: str) -> str:
    return board.wild_name if name == ttr_core.WILD else name


def _fill(name: str) -> str:
    # The wild card is many-coloured on the boards: a light gray stands for it.
    return CARD_FILLS.get(name, "#dddddd")


def inline(document: str) -> str:
    """An SVG document to put inside a page: without its XML declaration."""
    if document.startswith("<?xml"):
        return document[document.index("?>") + 2 :].lstrip()
    return document

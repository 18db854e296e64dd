"""Ticket deck files a user supplies: read and checked against a map
(:func:`parse_ticket_deck`), and a map played with them
(:func:`board_with_tickets`).
"""

from __future__ import annotations

import os
from pathlib import Path

import attrs

from ttr_core.errors import (
    ArgumentError,
    MapError,
    MapProblem,
    path_argument,
    what,
)
from ttr_core.hooks.manager import declared_map_fields
from ttr_core.mapfiles.checker import _Checker, _show
from ttr_core.mapfiles.limits import FORMAT_VERSION, MAX_FILE_BYTES, MAX_TICKETS
from ttr_core.mapfiles.parse import (
    GENERATED,
    _check_str,
    _file_error,
    _guarded,
    _prepared,
    _size_error,
    _toml,
    _with_generated_tickets,
)
from ttr_core.mapfiles.places import _check_counts, _parse_tickets, _places
from ttr_core.mapfiles.reading import _FILES_KEPT, _not_regular, _read, _stat
from ttr_core.model.board import (
    Board,
    Ticket,
    derive,
    evict_oldest,
)

_DECK_TOP_KEYS = {"format", "deck", "board"}


def parse_ticket_deck(text: str, board: Board, source: str = "<tickets>") -> tuple[Ticket, ...]:
    """The tickets of a ticket deck file (TOML text) for ``board``, checked against it.

    The format is the map's own ticket list under ``[board]``, with a
    ``[deck]`` table naming the map (see ``docs/map-format.md``). Raises
    :class:`MapError` naming ``source``, each bad entry and the problem (a
    deck file is bounded like a map file: ``docs/map-format.md``, "Limits"),
    and :class:`ArgumentError` for an argument of the wrong type.
    """
    _check_str("text", text, "the ticket deck's TOML text")
    if not isinstance(board, Board):
        raise ArgumentError(f"board must be a ttr_core.Board, not {what(board)}")
    _check_str("source", source, "the name for messages")
    return _guarded(source, _checked_ticket_deck, text, board, source)


def _checked_ticket_deck(text: str, board: Board, source: str) -> tuple[Ticket, ...]:
    text = _prepared(text, source, "ticket deck")
    data = _toml(text, source)
    check = _Checker(source, text, data)
    check.unknown_keys(data, _DECK_TOP_KEYS, "file", ())
    version = data.get("format")
    if type(version) is not int or version != FORMAT_VERSION:
        check.add("file", f"'format' must be {FORMAT_VERSION}, not {_show(version)}", (), "format")
    deck = check.table(data, "deck", "[deck]", ())
    check.unknown_keys(deck, {"map"}, "[deck]", ("deck",))
    named = deck.get("map")
    if named is not None and named != board.id and named not in board.aliases:
        message = f"the deck is for map {_show(named)}, not {board.id!r}"
        check.add("[deck]", message, ("deck",), "map")
        # Its tickets name another map's places: each would be one more
        # problem hiding this one.
        raise MapError(check.problems())
    board_data = check.table(data, "board", "[board]", ())
    check.unknown_keys(board_data, {"tickets"}, "[board]", ("board",))
    _check_counts(check, board_data, "deck", {"tickets": MAX_TICKETS})
    if check.too_big:
        raise MapError(check.problems())
    fields = {f.name: f for f in declared_map_fields() if f.table == "tickets"}
    names = {loc.name for loc in board.locations}
    places = _places(
        {
            "locations": [
                {"name": loc.name, "aliases": list(loc.aliases)} for loc in board.locations
            ],
            "routes": [{"a": route.a, "b": route.b} for route in board.routes],
        }
    )
    tickets = _parse_tickets(check, board_data, fields, names, places)
    seen: dict[frozenset[str], int] = {}
    for ticket in tickets:
        pair = frozenset((ticket.a, ticket.b))
        if pair in seen:
            at = check.entry_at.get(("ticket", ticket.id), ("board", "tickets"))
            check.add(
                f"ticket {ticket.id}",
                f"joins {ticket.a!r} and {ticket.b!r} like ticket {seen[pair]}",
                at,
            )
        seen.setdefault(pair, ticket.id)
    problems = check.problems()
    if problems:
        raise MapError(problems)
    # Fields the map itself declared for its tickets take their defaults (None).
    defaults = {key: None for key in (board.tickets[0].extra if board.tickets else {})}
    defaults.pop(GENERATED, None)
    return tuple(attrs.evolve(t, extra={**defaults, **t.extra}) for t in tickets)


def board_with_tickets(board: Board, deck: str | os.PathLike[str]) -> Board:
    """``board`` playing the ticket deck in file ``deck`` instead of its own tickets.

    A deck with fewer tickets than the map's printed deck size is completed
    with generated tickets (with a :class:`GeneratedTicketsWarning`). The
    result is cached on ``board`` while the file is unchanged.
    """
    path = Path(path_argument("deck", deck, "the path of a ticket deck file"))
    stat, resolved = _stat(path)
    problem = _not_regular(stat.st_mode)  # checked again on the file once opened
    if problem is not None:
        raise _file_error(path.name, problem)
    if stat.st_size > MAX_FILE_BYTES:
        raise _size_error(path.name, stat.st_size, "ticket deck")
    key = ("tickets", resolved, stat.st_mtime_ns, stat.st_size)
    cached: Board | None = board.derived.get(key)
    if cached is not None:
        return cached
    tickets = parse_ticket_deck(_read(path, path.name, "ticket deck"), board, path.name)
    rules = board.rules
    dealt = rules.max_players * rules.start_tickets_dealt
    if max(len(tickets), rules.ticket_deck_size) < dealt:
        problem = (
            f"{len(tickets)} tickets cannot deal {rules.start_tickets_dealt} to each of "
            f"{rules.max_players} players: the deck needs at least {dealt}"
        )
        raise MapError([MapProblem(path.name, "[board] tickets", problem)])
    playing = attrs.evolve(board, tickets=tickets)
    missing = board.rules.ticket_deck_size - len(tickets)
    if missing > 0:
        fields = {f.name: f for f in declared_map_fields() if f.table == "tickets"}
        playing = _with_generated_tickets(playing, missing, fields, stacklevel=4)
    # One board per deck file, whichever thread read it first; the decks
    # played last are kept, as many as load_map keeps map files.
    kept: Board = derive(board, key, lambda: playing, evict_oldest("tickets", _FILES_KEPT))
    return kept

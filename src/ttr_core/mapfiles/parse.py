"""Loading map files (TOML) into validated, frozen :class:`Board` objects.

The format is documented in ``docs/map-format.md``. Loading checks
everything and raises one :class:`MapError` listing *all* problems, each with
the file, the line (where the TOML text shows it) and the entry it concerns.
A map that loads but is probably wrong gives :class:`MapWarning` warnings.
"""

from __future__ import annotations

import re
import tomllib
import warnings
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import attrs

from ttr_core.errors import (
    ArgumentError,
    GeneratedTicketsWarning,
    MapError,
    MapProblem,
    MapWarning,
    TtrError,
    what,
)
from ttr_core.hooks.manager import declared_map_fields, validate_variant_fields
from ttr_core.mapfiles.checker import _Checker, _map_fields, _script_problem, _show
from ttr_core.mapfiles.confusables import skeleton
from ttr_core.mapfiles.limits import (
    FORMAT_VERSION,
    MAP_ID,
    MAX_FILE_BYTES,
    MAX_KEY_PARTS,
    MAX_NESTING,
    MAX_PLAYERS,
    MAX_PROVENANCE_ITEMS,
    MAX_TEXT_LENGTH,
)
from ttr_core.mapfiles.places import (
    _MAP_COUNTS,
    _check_components,
    _check_counts,
    _check_enough_components,
    _parse_aspect,
    _parse_locations,
    _parse_routes,
    _parse_tickets,
    _places,
)
from ttr_core.mapfiles.regions import parse_regions, parse_variant_data
from ttr_core.mapfiles.sections import _parse_cards, _parse_rules, _parse_titles
from ttr_core.mapfiles.ticketgen import generate_tickets
from ttr_core.mapfiles.tomllines import Where, nesting_problem, toml_error_line
from ttr_core.model.board import (
    Board,
    Provenance,
)
from ttr_core.model.declarations import MapField
from ttr_core.model.graph import connected_pairs

_T = TypeVar("_T")


_TOP_KEYS = {
    "format",
    "map",
    "cards",
    "rules",
    "components",
    "fields",
    "board",
    "provenance",
    "regions",
    "variants",
}


_PROVENANCE_KEYS = {"summary", "sources", "verified", "unverified"}


_MAP_KEYS = {"id", "name", "aliases", "players", "variants", "aspect", "pieces"}


def parse_map(text: str, source: str = "<map>") -> Board:
    """Parse and validate map data given as TOML text.

    ``source`` names the file in error messages. Raises :class:`MapError`
    listing every problem found, each with its line where the text shows
    it. A map that loads but is probably wrong (a location no route reaches,
    a ticket that can never be completed) gives a :class:`MapWarning` for
    each such doubt. Every size and count is bounded (``docs/map-format.md``,
    "Limits"). Raises :class:`ArgumentError` if ``text`` or ``source`` is
    not a ``str``.
    """
    _check_str("text", text, "the map's TOML text")
    _check_str("source", source, "the name for messages")
    return _parse_map(text, source, stacklevel=3)


def _check_str(name: str, value: object, meaning: str) -> None:
    if not isinstance(value, str):
        raise ArgumentError(f"{name} must be a str ({meaning}), not {what(value)}")


def _file_error(source: str, message: str, line: int | None = None) -> MapError:
    return MapError([MapProblem(source, "file", message, line)])


def _size_error(source: str, size: int, kind: str) -> MapError:
    return _file_error(
        source, f"the file is {size} bytes: a {kind} file may have at most {MAX_FILE_BYTES} bytes"
    )


def _plain_text(text: str) -> str:
    """``text`` with the line ends and the byte-order mark every reader of maps
    accepts made plain: a byte-order mark at the start (as some editors write
    one) is dropped, and ``\\r\\n`` and a lone ``\\r`` become ``\\n``, as in a
    file opened as text. ``parse_map`` and ``load_map`` (and the ticket deck
    readers) read a text the same way, and report the same lines."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _prepared(text: str, source: str, kind: str) -> str:
    """:func:`_plain_text` of ``text``, once it is known to be small enough: its
    UTF-8 as written (the bytes a file of it would hold) within the limit."""
    # Up to a quarter of the limit in characters, the UTF-8 cannot exceed it.
    if len(text) > MAX_FILE_BYTES // 4:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_FILE_BYTES:
            raise _size_error(source, size, kind)
    return _plain_text(text)


def _toml(text: str, source: str) -> dict[str, Any]:
    """The TOML ``text`` (prepared by :func:`_prepared`) parsed, once it is known
    to be shallow enough (``MapError`` with the line for text that is not TOML)."""
    nested = nesting_problem(text, MAX_NESTING, MAX_KEY_PARTS)
    if nested is not None:
        message, line = nested
        raise _file_error(source, f"{message}: too deeply nested to read", line)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _file_error(source, f"not valid TOML: {exc}", toml_error_line(exc)) from None
    except ValueError as exc:
        # Python refuses to read an integer of more than 4300 digits (its own
        # guard against slow conversions); tomllib lets that ValueError out.
        digits = _LONG_NUMBER.search(text)
        if digits is None:
            raise _file_error(source, f"not valid TOML: {_show(str(exc))}") from None
        line = text.count("\n", 0, digits.start()) + 1
        raise _file_error(source, "a whole number of more than 4300 digits", line) from None
    except (RecursionError, MemoryError):  # the scan above should make these impossible
        raise _file_error(source, "too large or too deeply nested to read") from None


_LONG_NUMBER = re.compile(r"[0-9_]{4301,}")


def _parse_map(text: str, source: str, stacklevel: int) -> Board:
    """:func:`parse_map` of a ``str``; warnings name the caller ``stacklevel`` frames up.

    Whatever the text, it returns a :class:`Board` or raises :class:`MapError`
    (or a :class:`TtrError` of a plugin): an exception of any other kind
    from checking hostile text is turned into a ``MapError`` naming it.
    """
    return _guarded(source, _checked_map, text, source, stacklevel + 2)


def _guarded(source: str, work: Callable[..., _T], *args: Any) -> _T:
    """``work(*args)``, with any exception but a :class:`TtrError` turned into a
    :class:`MapError` about ``source``: the last line of defence against a
    hostile file reaching a case the checks missed."""
    try:
        return work(*args)
    except TtrError:
        raise
    except (RecursionError, MemoryError, OverflowError) as exc:
        message = f"too large or too deeply nested to check ({type(exc).__name__})"
        raise _file_error(source, message) from None
    except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError) as exc:
        message = (
            f"could not be checked: {type(exc).__name__}: {_show(str(exc))} "
            "(a bug in ttr-core: please report it with the file)"
        )
        raise _file_error(source, message) from exc


def _checked_map(text: str, source: str, stacklevel: int) -> Board:
    text = _prepared(text, source, "map")
    data = _toml(text, source)
    check = _Checker(source, text, data)
    top: Where = ()

    check.unknown_keys(data, _TOP_KEYS, "file", top)
    version = data.get("format")
    if type(version) is not int or version != FORMAT_VERSION:
        check.add("file", f"'format' must be {FORMAT_VERSION}, not {_show(version)}", top, "format")

    meta = check.table(data, "map", "[map]", top)
    at: Where = ("map",)
    check.unknown_keys(meta, _MAP_KEYS, "[map]", at)
    map_id = check.string(meta, "id", "[map]", at)
    name = check.string(meta, "name", "[map]", at, breaks=True)
    aliases = check.string_list(meta, "aliases", "[map]", at)
    _check_map_names(check, map_id, aliases)
    default_variants = check.string_list(meta, "variants", "[map]", at)
    players = meta.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in players)
        or not 1 <= players[0] <= players[1]
    ):
        check.add(
            "[map]",
            f"'players' must be [min, max] with 1 ≤ min ≤ max, not {_show(players)}",
            at,
            "players",
        )
        players = [1, 1]
    elif players[1] > MAX_PLAYERS:
        check.add(
            "[map]",
            f"'players' must be [min, max] with 1 ≤ min ≤ max ≤ {MAX_PLAYERS}, "
            f"not {_show(players)}",
            at,
            "players",
        )
        players = [1, 1]

    aspect = _parse_aspect(check, meta.get("aspect"))
    pieces = check.string(meta, "pieces", "[map]", at) if "pieces" in meta else "cars"
    colors, deck, wild_name = _parse_cards(check, check.table(data, "cards", "[cards]", top))
    rules = _parse_rules(
        check, check.table(data, "rules", "[rules]", top), players, default_variants
    )

    board_data = check.table(data, "board", "[board]", top)
    check.unknown_keys(board_data, {"locations", "routes", "tickets"}, "[board]", ("board",))
    _check_counts(check, board_data, "map", _MAP_COUNTS)
    if check.too_big:
        # Checking each of tens of thousands of entries (or colours) is slow
        # and adds nothing to "too many".
        raise MapError(check.problems())
    plugin_fields: dict[str, dict[str, MapField]] = {"locations": {}, "routes": {}, "tickets": {}}
    for field in declared_map_fields():
        if field.table in plugin_fields:
            plugin_fields[field.table][field.name] = field
    fields = _map_fields(check, data.get("fields"), plugin_fields)

    places = _places(board_data)
    locations = _parse_locations(check, board_data, fields["locations"], places)
    names = {loc.name for loc in locations}
    routes = _parse_routes(check, board_data, fields["routes"], names, colors, rules, places)
    _check_wild_routes(check, rules.wild_routes, fields["routes"])
    regions = parse_regions(check, data.get("regions"), places)
    tickets = _parse_tickets(check, board_data, fields["tickets"], names, places, regions)
    variant_data = parse_variant_data(check, data.get("variants"))

    _check_components(check, data.get("components"), locations, routes, tickets, deck)
    _check_enough_components(
        check, rules, deck, max(len(tickets), rules.ticket_deck_size), colors, routes
    )
    if rules.ticket_deck_size and rules.ticket_deck_size < len(tickets):
        check.add(
            "[rules.tickets]",
            f"'deck' ({rules.ticket_deck_size}) is smaller than the {len(tickets)} tickets listed",
            ("rules", "tickets"),
            "deck",
        )
    provenance = _parse_provenance(check, data.get("provenance"))
    rules_table = data.get("rules")
    titles = _parse_titles(check, rules_table) if isinstance(rules_table, Mapping) else {}

    problems = check.problems()
    if problems:
        raise MapError(problems)
    board = Board(
        id=map_id,
        name=name,
        source=source,
        locations=locations,
        routes=routes,
        tickets=tickets,
        colors=colors,
        deck=deck,
        rules=rules,
        aliases=aliases,
        wild_name=wild_name,
        provenance=provenance,
        aspect=aspect,
        titles=titles,
        pieces=pieces or "cars",
        regions=regions,
        variant_data=variant_data,
    )
    variant_problems = validate_variant_fields(board)
    if variant_problems:
        raise MapError(MapProblem(source, "variant fields", msg) for msg in variant_problems)
    for doubt in _doubts(check, board):
        warnings.warn(doubt, MapWarning, stacklevel=stacklevel)
    missing = rules.ticket_deck_size - len(tickets)
    if missing > 0:
        board = _with_generated_tickets(board, missing, fields["tickets"], stacklevel + 1)
    return board


def _check_wild_routes(
    check: _Checker, wild_routes: tuple[str, ...], fields: Mapping[str, MapField]
) -> None:
    """``[rules.cards] wild_routes`` names route fields that say yes or no: of
    kind ``bool`` or ``int`` (set: ``true``, or a number above 0)."""
    for name in wild_routes:
        field = fields.get(name)
        if field is None or field.type not in (bool, int):
            known = sorted(n for n, f in fields.items() if f.type in (bool, int))
            check.add(
                "[rules.cards]",
                f"'wild_routes' names {name!r}, which is no route field of kind bool or int "
                f"(known: {', '.join(known) or 'none'})" + check.hint(name, known),
                ("rules", "cards"),
                "wild_routes",
            )


#: What no map alias may hold or start with: it would read as a path.
_PATH_CHARACTERS = frozenset("/\\:")


def _check_map_names(check: _Checker, map_id: str, aliases: tuple[str, ...]) -> None:
    """``[map] id`` is a name, never a path; no alias reads as a path, and no
    two of the id and the aliases look alike."""
    at: Where = ("map",)
    if map_id and not MAP_ID.fullmatch(map_id):
        check.add(
            "[map]",
            f"'id' must be a map name (1 to 64 lower-case letters a-z, digits, '_' and '-', "
            f"starting with a letter or digit), not {_show(map_id)}: data names a map by "
            "its id, never by a path",
            at,
            "id",
        )
    looks: dict[str, str] = {skeleton(map_id): f"the map id {map_id!r}"} if map_id else {}
    for alias in aliases:
        if alias.startswith((".", "~")) or not _PATH_CHARACTERS.isdisjoint(alias):
            message = (
                f"alias {_show(alias)} is not a name but reads as a path "
                "(no '/', '\\' or ':', no '.' or '~' first)"
            )
            check.add("[map]", message, at, "aliases")
        problem = _script_problem(alias)
        if problem is not None:
            check.add("[map]", f"alias {_show(alias)} {problem}", at, "aliases")
        look = skeleton(alias)
        other = looks.get(look)
        if other is not None:
            message = f"alias {_show(alias)} looks like {other}: each name of a map must differ"
            check.add("[map]", message, at, "aliases")
        looks.setdefault(look, f"alias {_show(alias)}")


def _with_generated_tickets(
    board: Board, missing: int, fields: Mapping[str, MapField], stacklevel: int
) -> Board:
    """``board`` with its ticket deck completed by generated tickets, said once."""
    defaults = {name: field.default for name, field in fields.items()}
    made = generate_tickets(board, missing, existing=board.tickets, extra=defaults)
    made = tuple(attrs.evolve(t, extra={**t.extra, GENERATED: True}) for t in made)
    warnings.warn(
        f"{board.source}: map {board.id!r} knows {len(board.tickets)} of the "
        f"{board.rules.ticket_deck_size} printed tickets; games play {missing} generated "
        "ones in their place (value = fewest spaces between the places). Supply the printed "
        "deck with new_game(..., tickets='deck.toml') or ttr --tickets deck.toml.",
        GeneratedTicketsWarning,
        stacklevel=stacklevel,
    )
    return attrs.evolve(board, tickets=board.tickets + made)


#: ``Ticket.extra`` key marking a ticket the library generated (not printed).
GENERATED = "generated"


def _parse_provenance(check: _Checker, raw: Any) -> Provenance | None:
    """The ``[provenance]`` table: where the map's facts come from."""
    if raw is None:
        return None
    at: Where = ("provenance",)
    if not isinstance(raw, Mapping):
        check.add("[provenance]", "must be a table", at)
        return None
    check.unknown_keys(raw, _PROVENANCE_KEYS, "[provenance]", at)
    summary = check.string(raw, "summary", "[provenance]", at, MAX_TEXT_LENGTH, breaks=True)
    verified, unverified = (
        check.string_list(
            raw,
            key,
            "[provenance]",
            at,
            most=MAX_PROVENANCE_ITEMS,
            limit=MAX_TEXT_LENGTH,
            noun="entries",
            breaks=True,
        )
        for key in ("verified", "unverified")
    )
    sources: list[tuple[str, str]] = []
    listed = raw.get("sources", [])
    if not isinstance(listed, list) or len(listed) > MAX_PROVENANCE_ITEMS:
        check.add(
            "[provenance]",
            f"'sources' must be a list of at most {MAX_PROVENANCE_ITEMS} {{ id, what }} tables",
            at,
            "sources",
        )
        listed = []
    for i, item in enumerate(listed):
        if (
            not isinstance(item, Mapping)
            or set(item) != {"id", "what"}
            or not all(isinstance(v, str) and v.strip() for v in item.values())
        ):
            check.add(
                "[provenance]",
                f'source {i} must be {{ id = "…", what = "…" }}, not {_show(item)}',
                at,
                "sources",
            )
            continue
        entry = f"[provenance] source {i}"
        ident = check.string(item, "id", entry, at)
        what = check.string(item, "what", entry, at, MAX_TEXT_LENGTH, breaks=True)
        if ident and what:
            sources.append((ident, what))
    return Provenance(summary, tuple(sources), verified, unverified)


def _doubts(check: _Checker, board: Board) -> list[str]:
    """What is probably wrong with a map that loads: a location no route
    reaches, two locations at the same position, a ticket whose ends no
    chain of routes can join."""
    doubts: list[str] = []
    reached = {route.a for route in board.routes} | {route.b for route in board.routes}
    for loc in board.locations:
        if loc.name not in reached:
            line = check.line(("board", "locations", loc.id))
            entry = f"location {loc.id} ({loc.name!r})"
            doubts.append(str(MapProblem(board.source, entry, "no route reaches it", line)))

    spot: dict[tuple[float, float], str] = {}
    for loc in board.locations:
        if loc.pos is not None:
            other = spot.setdefault(loc.pos, loc.name)
            if other != loc.name:
                line = check.line(("board", "locations", loc.id))
                entry = f"location {loc.id} ({loc.name!r})"
                message = f"has the same 'pos' as {other!r}: the two would be drawn on each other"
                doubts.append(str(MapProblem(board.source, entry, message, line)))

    index = board.location_id
    root = connected_pairs(len(board.locations), ((index(r.a), index(r.b)) for r in board.routes))
    for ticket in board.tickets:
        start = {root[place] for place in board.places(ticket.a)}
        for end, _points in ticket.destinations:
            if start.isdisjoint(root[place] for place in board.places(end)):
                at = check.entry_at.get(("ticket", ticket.id))
                line = None if at is None else check.line(at)
                message = (
                    f"no chain of routes joins {ticket.a!r} and {end!r}: "
                    "the ticket can never be completed"
                    if not ticket.more
                    else "that destination can never be reached"
                )
                doubts.append(str(MapProblem(board.source, f"ticket {ticket.id}", message, line)))
    return doubts

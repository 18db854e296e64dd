"""The board of a map file: locations, routes, tickets and their positions,
each entry checked, the counts checked against ``[components]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ttr_core.mapfiles.checker import _check_extra, _Checker, _Places, _script_problem, _show
from ttr_core.mapfiles.confusables import skeleton, unusual_characters
from ttr_core.mapfiles.limits import (
    MAX_ASPECT,
    MAX_DESTINATIONS,
    MAX_LOCATIONS,
    MAX_NUMBER,
    MAX_POINTS,
    MAX_ROUTES,
    MAX_SPACES,
    MAX_TICKETS,
    MIN_ASPECT,
)
from ttr_core.mapfiles.tomllines import Where
from ttr_core.model.board import (
    GRAY,
    MAX_ROUTE_LENGTH,
    WILD,
    Location,
    MapRules,
    Route,
    Ticket,
    name_key,
    wilds_pay,
)
from ttr_core.model.declarations import MapField

#: The reserved colour names (no card colour may look like one), by skeleton.
_RESERVED_LOOKS = {skeleton(GRAY): GRAY, skeleton(WILD): WILD}


_COMPONENT_KEYS = {"locations", "routes", "double_pairs", "spaces", "tickets", "cards"}


def _entries(
    check: _Checker, board_data: Mapping[str, Any], key: str
) -> list[tuple[Where, Mapping[str, Any]]]:
    """The tables listed under ``key``, each with where it is (its index in the file)."""
    items = board_data.get(key)
    if not isinstance(items, list) or not items:
        check.add("[board]", f"'{key}' must be a non-empty list of tables", ("board",), key)
        return []
    good = []
    for i, item in enumerate(items):
        at: Where = ("board", key, i)
        if isinstance(item, Mapping):
            good.append((at, item))
        else:
            check.add(f"{key}[{i}]", f"must be a table, not {_show(item)}", at)
    return good


def _places(board_data: Any) -> _Places:
    """Location names and joined pairs, read leniently (errors are reported elsewhere)."""
    if not isinstance(board_data, Mapping):
        return _Places(frozenset(), frozenset())
    locations = board_data.get("locations")
    routes = board_data.get("routes")
    written: dict[str, str] = {}
    spellings: dict[str, str] = {}
    for item in locations if isinstance(locations, list) else []:
        if isinstance(item, Mapping) and isinstance(item.get("name"), str):
            aliases = item.get("aliases")
            others = aliases if isinstance(aliases, list) else []
            for spelling in (item["name"], *others):
                if isinstance(spelling, str):
                    written.setdefault(spelling, item["name"])
                    spellings.setdefault(name_key(spelling), item["name"])
    names = frozenset(
        item["name"]
        for item in (locations if isinstance(locations, list) else [])
        if isinstance(item, Mapping) and isinstance(item.get("name"), str)
    )
    joined = frozenset(
        frozenset((item["a"], item["b"]))
        for item in (routes if isinstance(routes, list) else [])
        if isinstance(item, Mapping)
        and isinstance(item.get("a"), str)
        and isinstance(item.get("b"), str)
    )
    return _Places(names, joined, written, spellings)


def _parse_locations(
    check: _Checker, board_data: Mapping[str, Any], fields: Mapping[str, MapField], places: _Places
) -> tuple[Location, ...]:
    locations: list[Location] = []
    seen: dict[str, str] = {}
    # By skeleton: the first spelling, its location's index and where it is.
    looks: dict[str, tuple[str, int, Where]] = {}
    placed: list[tuple[int, Where, str, bool]] = []
    for i, (at, item) in enumerate(_entries(check, board_data, "locations")):
        entry = f"location {i}"
        name = check.string(item, "name", entry, at)
        entry = f"location {i} ({name!r})"
        aliases = check.string_list(item, "aliases", entry, at)
        for spelling in (name, *aliases):
            key = name_key(spelling)
            if key in seen and seen[key] != name:
                check.add(
                    entry, f"name or alias {spelling!r} is taken by location {seen[key]!r}", at
                )
            elif spelling == name and key in seen:
                check.add(entry, "duplicate location name", at)
            elif spelling:
                _check_look_alike(check, looks, spelling, i, entry, at)
            seen.setdefault(key, name)
        extra = _check_extra(check, "locations", item, entry, at, fields, places)
        pos = _position(check, item.get("pos"), entry, at)
        locations.append(Location(i, name, extra, aliases, pos))
        placed.append((i, at, entry, "pos" in item))
    _check_all_placed(check, placed)
    return tuple(locations)


def _check_look_alike(
    check: _Checker,
    looks: dict[str, tuple[str, int, Where]],
    spelling: str,
    index: int,
    entry: str,
    at: Where,
) -> None:
    """Report a location name or alias that mixes scripts, or that looks like
    (has the :func:`skeleton` of) a name or alias of another location: naming
    both, and the line of the first."""
    problem = _script_problem(spelling)
    if problem is not None:
        check.add(entry, f"name or alias {spelling!r} {problem}", at)
    other, other_index, other_at = looks.setdefault(
        skeleton(name_key(spelling)), (spelling, index, at)
    )
    if other_index != index:
        line = check.line(other_at)
        other_line = f", line {line}" if line is not None else ""
        differ = unusual_characters(spelling + other)
        check.add(
            entry,
            f"name or alias {spelling!r} looks like {other!r} of location {other_index}"
            f"{other_line}: people cannot tell them apart" + (f" ({differ})" if differ else ""),
            at,
        )


def _is_number(value: object) -> bool:
    """A TOML integer or float (``true``/``false`` are not numbers)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _position(check: _Checker, value: Any, entry: str, at: Where) -> tuple[float, float] | None:
    """A location's ``pos``: ``[x, y]``, each a number from 0 to 1 (else reported, and ``None``)."""
    if value is None:
        return None
    expected = "[x, y]: two numbers from 0 to 1 (fractions of the board's width and height)"
    if not isinstance(value, list) or len(value) != 2 or not all(_is_number(v) for v in value):
        check.add(entry, f"'pos' must be {expected}, not {_show(value)}", at, "pos")
        return None
    for axis, number in zip("xy", value, strict=True):
        if not 0 <= number <= 1:  # also refuses nan and inf, and compares huge ints exactly
            message = f"'pos' {axis} must be a number from 0 to 1, not {_show(number)}"
            check.add(entry, message, at, "pos")
            return None
    return float(value[0]), float(value[1])


def _check_all_placed(check: _Checker, placed: list[tuple[int, Where, str, bool]]) -> None:
    """Positions are on every location or on none: a board drawn from some
    positions and made-up others would put the rest anywhere."""
    having = sum(1 for *_rest, has in placed if has)
    if not having or having == len(placed):
        return
    for _i, at, entry, has in placed:
        if not has:
            message = (
                f"missing 'pos': {having} of the {len(placed)} locations have one "
                "(give every location a position, or none)"
            )
            check.add(entry, message, at)


def _parse_aspect(check: _Checker, value: Any) -> float | None:
    """``[map] aspect``: the board's width ÷ height, a number from
    :data:`MIN_ASPECT` to :data:`MAX_ASPECT` (else reported, and ``None``)."""
    if value is None:
        return None
    if not _is_number(value) or not MIN_ASPECT <= value <= MAX_ASPECT:  # nan fails too
        message = (
            f"'aspect' must be the board's width ÷ height, a number from {MIN_ASPECT} to "
            f"{MAX_ASPECT}, not {_show(value)}"
        )
        check.add("[map]", message, ("map",), "aspect")
        return None
    return float(value)


_MAP_COUNTS = {"locations": MAX_LOCATIONS, "routes": MAX_ROUTES, "tickets": MAX_TICKETS}


def _check_counts(
    check: _Checker, board_data: Mapping[str, Any], whose: str, limits: Mapping[str, int]
) -> None:
    """Report each list of ``[board]`` longer than its limit (and mark the check too big)."""
    for key, most in limits.items():
        items = board_data.get(key)
        if isinstance(items, list) and len(items) > most:
            message = f"{len(items)} {key}: a {whose} may have at most {most}"
            check.add("[board]", message, ("board",), key)
            check.too_big = True


def _check_ids(check: _Checker, kind: str, ids: list[tuple[int, Where]]) -> None:
    seen: set[int] = set()
    for ident, at in ids:
        if ident in seen:
            check.add(f"{kind} {ident}", f"duplicate {kind} id", at)
        seen.add(ident)
    expected = set(range(len(ids)))
    if seen != expected and len(seen) == len(ids):
        check.add(
            f"{kind}s",
            f"{kind} ids must be 0..{len(ids) - 1}; got {_show(sorted(seen))}",
            ("board", f"{kind}s"),
        )


def _endpoints(
    check: _Checker,
    item: Mapping[str, Any],
    entry: str,
    at: Where,
    names: set[str],
    places: _Places,
    regions: Mapping[str, tuple[str, ...]] | None = None,
) -> tuple[str, str]:
    a = check.string(item, "a", entry, at)
    b = check.string(item, "b", entry, at)
    for end in (a, b):
        _check_end(check, end, entry, at, names, places, regions)
    if a and a == b:
        check.add(entry, f"both ends are {a!r}", at)
    return a, b


def _check_end(
    check: _Checker,
    end: str,
    entry: str,
    at: Where,
    names: set[str],
    places: _Places,
    regions: Mapping[str, tuple[str, ...]] | None,
) -> None:
    """Report ``end`` unless it names a location (or, given ``regions``, a region)."""
    if not end or end in names or (regions is not None and end in regions):
        return
    message = places.alias_message(end)
    if message is None:
        message = f"unknown location {end!r}{check.closest_place(end, places)}"
        if regions:
            message += f" (nor a region: {', '.join(regions)})"
    check.add(entry, message, at)


def _parse_routes(
    check: _Checker,
    board_data: Mapping[str, Any],
    fields: Mapping[str, MapField],
    names: set[str],
    colors: tuple[str, ...],
    rules: MapRules,
    places: _Places,
) -> tuple[Route, ...]:
    parsed: list[tuple[int, str, str, str, int, int | None, dict[str, Any]]] = []
    ids: list[tuple[int, Where]] = []
    for i, (at, item) in enumerate(_entries(check, board_data, "routes")):
        ident = check.identifier(item, f"route #{i}", at)
        entry = f"route {ident}" if ident is not None else f"route #{i}"
        a, b = _endpoints(check, item, entry, at, names, places)
        color = check.string(item, "color", entry, at)
        if color and color != GRAY and color not in colors:
            check.add(
                entry,
                f"bad colour {color!r} (expected gray or one of: {', '.join(colors)})"
                + check.hint(color, (GRAY, *colors)),
                at,
            )
        length = check.integer(item, "length", entry, at, low=1, high=MAX_ROUTE_LENGTH)
        if length not in rules.route_points:
            check.add(entry, f"length {length} has no entry in [rules.route_points]", at)
        elif length > rules.cars_per_player:  # no player could ever claim it
            message = f"length {length} is more than the {rules.cars_per_player} cars a player has"
            check.add(entry, message, at, "length")
        pair = item.get("pair")
        if pair is not None and (isinstance(pair, bool) or not isinstance(pair, int)):
            check.add(entry, f"'pair' must be a whole number, not {_show(pair)}", at)
            pair = None
        elif pair is not None and not -MAX_NUMBER <= pair <= MAX_NUMBER:
            message = (
                f"'pair' must be a whole number from {-MAX_NUMBER} to {MAX_NUMBER}, "
                f"not {_show(pair)}"
            )
            check.add(entry, message, at, "pair")
            pair = None
        extra = _check_extra(check, "routes", item, entry, at, fields, places)
        if ident is not None:
            parsed.append((ident, a, b, color, length, pair, extra))
            ids.append((ident, at))
            check.entry_at.setdefault(("route", ident), at)
    _check_ids(check, "route", ids)
    spaces = sum(p[4] for p in parsed)
    if spaces > MAX_SPACES:
        message = f"{spaces} route spaces: a map may have at most {MAX_SPACES}"
        check.add("[board]", message, ("board",), "routes")

    by_pair: dict[int, list[int]] = {}
    for ident, _a, _b, _c, _l, pair, _e in parsed:
        if pair is not None:
            by_pair.setdefault(pair, []).append(ident)
    partner: dict[int, int] = {}
    by_id = {p[0]: p for p in parsed}
    for pair, members in by_pair.items():
        last = check.entry_at[("route", members[-1])]  # the route that completes (or spoils) it
        if len(members) != 2:
            check.add(
                f"pair {pair}",
                f"a pair needs exactly 2 routes, found {len(members)}: {members}",
                last,
            )
            continue
        r1, r2 = (by_id[m] for m in members)
        if {r1[1], r1[2]} != {r2[1], r2[2]}:
            check.add(f"pair {pair}", f"routes {r1[0]} and {r2[0]} join different locations", last)
        # The two routes of a pair may differ in length (Nordic Countries prints
        # two such pairs): a pair is two routes between the same places.
        partner[r1[0]] = r2[0]
        partner[r2[0]] = r1[0]
    ends_seen: dict[frozenset[str], int] = {}
    for ident, a, b, _c, _l, _p, _e in parsed:
        ends = frozenset((a, b))
        other = ends_seen.get(ends)
        if other is not None and partner.get(ident) != other:
            check.add(
                f"route {ident}",
                f"duplicates route {other} ({a}–{b}) without sharing its pair",
                check.entry_at[("route", ident)],
            )
        ends_seen.setdefault(ends, ident)
    routes = [
        Route(ident, a, b, color, length, pair, partner.get(ident), extra)
        for ident, a, b, color, length, pair, extra in parsed
    ]
    return tuple(sorted(routes, key=lambda r: r.id))


def _parse_tickets(
    check: _Checker,
    board_data: Mapping[str, Any],
    fields: Mapping[str, MapField],
    names: set[str],
    places: _Places,
    regions: Mapping[str, tuple[str, ...]] | None = None,
) -> tuple[Ticket, ...]:
    """The tickets: ``a`` and ``b`` name locations or regions; a ticket with
    several destinations lists them in ``to`` instead of ``b`` and ``points``."""
    regions = regions or {}
    tickets: list[tuple[Ticket, Where]] = []
    for i, (at, item) in enumerate(_entries(check, board_data, "tickets")):
        ident = check.identifier(item, f"ticket #{i}", at)
        entry = f"ticket {ident}" if ident is not None else f"ticket #{i}"
        if "to" in item:
            a = check.string(item, "a", entry, at)
            _check_end(check, a, entry, at, names, places, regions)
            ends = _destinations(check, item, entry, at, names, places, regions)
            b, points = ends[0] if ends else ("", 0)
            more = tuple(ends[1:])
            for key in ("b", "points"):
                if key in item:
                    check.add(entry, f"'{key}' and 'to' cannot both be given", at, key)
            if a and any(end == a for end, _p in ends):
                check.add(entry, f"{a!r} is both the start and a destination", at, "to")
        else:
            a, b = _endpoints(check, item, entry, at, names, places, regions)
            points = check.integer(item, "points", entry, at, low=1, high=MAX_POINTS)
            more = ()
        _check_overlap(check, a, (b, *(end for end, _p in more)), regions, entry, at)
        extra = _check_extra(check, "tickets", item, entry, at, fields, places)
        if ident is not None:
            tickets.append((Ticket(ident, a, b, points, extra, more), at))
            check.entry_at.setdefault(("ticket", ident), at)
    _check_ids(check, "ticket", [(t.id, at) for t, at in tickets])
    return tuple(sorted((t for t, _at in tickets), key=lambda t: t.id))


def _destinations(
    check: _Checker,
    item: Mapping[str, Any],
    entry: str,
    at: Where,
    names: set[str],
    places: _Places,
    regions: Mapping[str, tuple[str, ...]],
) -> list[tuple[str, int]]:
    """A ticket's ``to``: a list of ``{ b, points }`` tables, each end a location
    or region named once."""
    raw = item.get("to")
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_DESTINATIONS:
        check.add(
            entry,
            f"'to' must be a list of 1 to {MAX_DESTINATIONS} {{ b, points }} tables, "
            f"not {_show(raw)}",
            at,
            "to",
        )
        return []
    ends: list[tuple[str, int]] = []
    for index, one in enumerate(raw):
        where = f"{entry}, destination {index}"
        if not isinstance(one, Mapping):
            check.add(where, f"must be a {{ b, points }} table, not {_show(one)}", at, "to")
            continue
        check.unknown_keys(one, {"b", "points"}, where, at)
        end = check.string(one, "b", where, at)
        _check_end(check, end, where, at, names, places, regions)
        points = check.integer(one, "points", where, at, low=1, high=MAX_POINTS)
        if any(end == other for other, _p in ends):
            check.add(where, f"{end!r} is a destination twice", at, "to")
        ends.append((end, points))
    return ends if len(ends) == len(raw) else []


def _check_overlap(
    check: _Checker,
    a: str,
    ends: tuple[str, ...],
    regions: Mapping[str, tuple[str, ...]],
    entry: str,
    at: Where,
) -> None:
    """A ticket whose start shares a location with a destination is done before
    anyone plays: reported."""
    start = set(regions.get(a, (a,)))
    for end in ends:
        shared = start & set(regions.get(end, (end,)))
        if shared and end != a and a and end:
            check.add(entry, f"{a!r} and {end!r} share {', '.join(sorted(shared))}", at)


def _check_components(
    check: _Checker,
    declared: Any,
    locations: tuple[Location, ...],
    routes: tuple[Route, ...],
    tickets: tuple[Ticket, ...],
    deck: tuple[int, ...],
) -> None:
    at: Where = ("components",)
    if declared is None:
        return
    if not isinstance(declared, Mapping):
        check.add("[components]", "must be a table of declared counts", at)
        return
    check.unknown_keys(declared, _COMPONENT_KEYS, "[components]", at)
    actual = {
        "locations": len(locations),
        "routes": len(routes),
        "double_pairs": sum(1 for r in routes if r.partner is not None) // 2,
        "spaces": sum(r.length for r in routes),
        "tickets": len(tickets),
        "cards": sum(deck),
    }
    for key, value in declared.items():
        if key in actual and value != actual[key]:
            check.add(
                "[components]",
                f"declares {_show(value)} {key} but the data has {actual[key]}",
                at,
                key,
            )


def _check_enough_components(
    check: _Checker,
    rules: MapRules,
    deck: tuple[int, ...],
    ticket_count: int,
    colors: tuple[str, ...],
    routes: tuple[Route, ...],
) -> None:
    most = rules.max_players
    if sum(deck) < most * rules.starting_hand + rules.display_size:
        check.add(
            "[cards]",
            f"{sum(deck)} cards cannot deal {rules.starting_hand} to {most} players "
            f"and lay {rules.display_size} face up",
            ("cards",),
        )
    if ticket_count and ticket_count < most * rules.start_tickets_dealt:
        check.add(
            "[rules.tickets]",
            f"{ticket_count} tickets cannot deal {rules.start_tickets_dealt} to {most} players",
            ("rules", "tickets"),
        )
    if rules.max_face_up_wilds > rules.display_size:
        check.add(
            "[rules]",
            "max_face_up_wilds must be at most display_size (equal: the display is never "
            "laid out again for its wilds)",
            ("rules",),
            "max_face_up_wilds",
        )
    for route in routes:
        wilds = deck[-1] if wilds_pay(rules, route) else 0
        most_of_a_colour = max(deck[:-1], default=0) + wilds
        if route.color in colors:
            need = route.length
            have = deck[colors.index(route.color)] + wilds
            if have < need:
                check.add(
                    f"route {route.id}",
                    f"needs {need} {route.color} cards; the deck holds {have} with wilds",
                    check.entry_at.get(("route", route.id)),
                )
        elif route.color == GRAY and route.length > most_of_a_colour:
            check.add(
                f"route {route.id}",
                f"needs {route.length} cards of one colour; the deck holds at most "
                f"{most_of_a_colour} with wilds",
                check.entry_at.get(("route", route.id)),
            )

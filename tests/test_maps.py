"""The map format, the map loader and the built-in New York map.

Every expected fact is written into this file. The only files read are the
map files under test: the built-in map (through ``ttr_core.load_map``, plus one
copy of ``maps/newyork.toml`` from this repository) and small maps the tests
write themselves.
"""

from __future__ import annotations

import heapq
import os
import tomllib
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import pytest

import ttr_core
from ttr_core import Board, MapError, MapProblem, Route, UnknownMapError

from . import map_facts

# ---------------------------------------------------------------------------
# New York facts (printed board and cards)
# ---------------------------------------------------------------------------

NY_LOCATIONS = 15
NY_ROUTES = 41
NY_DOUBLE_PAIRS = 11
NY_SINGLE_ROUTES = 19
NY_SPACES = 84
NY_LENGTHS = {1: 9, 2: 22, 3: 9, 4: 1}
NY_TICKETS = 18
NY_TICKET_POINTS = 92
NY_DECK = {
    "blue": 6,
    "green": 6,
    "black": 6,
    "pink": 6,
    "red": 6,
    "orange": 6,
    "wild": 8,
}
NY_ATTRACTIONS = {
    "Central Park",
    "Times Square",
    "United Nations",
    "Empire State Building",
    "Chelsea",
    "Greenwich Village",
    "Chinatown",
    "Wall Street",
    "Brooklyn",
}
NY_OTHER_LOCATIONS = {
    "Lincoln Center",
    "Midtown West",
    "Gramercy Park",
    "East Village",
    "Soho",
    "Lower East Side",
}


@pytest.fixture(scope="module")
def ny() -> Board:
    return ttr_core.load_map("newyork")


def shortest_spaces(board: Board, start: str, goal: str) -> int:
    """Fewest route spaces joining ``start`` to ``goal`` (Dijkstra over all routes)."""
    neighbours: dict[str, list[tuple[str, int]]] = {}
    for route in board.routes:
        neighbours.setdefault(route.a, []).append((route.b, route.length))
        neighbours.setdefault(route.b, []).append((route.a, route.length))
    best = {start: 0}
    queue = [(0, start)]
    while queue:
        dist, here = heapq.heappop(queue)
        if here == goal:
            return dist
        if dist > best[here]:
            continue
        for there, length in neighbours.get(here, []):
            if dist + length < best.get(there, 1 << 30):
                best[there] = dist + length
                heapq.heappush(queue, (dist + length, there))
    raise AssertionError(f"{goal} cannot be reached from {start}")


def route_facts(route: Route) -> tuple[str, str, str, int, int | None]:
    """A route's ends, colour, length and partner (the pair number is arbitrary)."""
    return route.a, route.b, route.color, route.length, route.partner


def find_ticket(board: Board, a: str, b: str) -> ttr_core.Ticket:
    (ticket,) = [t for t in board.tickets if {t.a, t.b} == {a, b}]
    return ticket


# ---------------------------------------------------------------------------
# 1. New York map data
# ---------------------------------------------------------------------------


def test_ny_identity(ny: Board) -> None:
    assert ny.id == "newyork"
    assert ny.name == "Ticket to Ride: New York"
    assert ny.source == "newyork.toml"
    assert {"new-york", "nyc"} <= set(ny.aliases)
    assert "newyork" in ttr_core.available_maps()


def test_ny_locations(ny: Board) -> None:
    assert len(ny.locations) == NY_LOCATIONS
    assert {loc.name for loc in ny.locations} == NY_ATTRACTIONS | NY_OTHER_LOCATIONS
    assert [loc.id for loc in ny.locations] == list(range(NY_LOCATIONS))
    for loc in ny.locations:
        assert ny.location_id(loc.name) == loc.id


def test_ny_attractions_are_exactly_the_nine(ny: Board) -> None:
    """The attraction flag comes from the attractions plugin's map field;
    locations without it get the declared default ``False``."""
    marked = {loc.name for loc in ny.locations if loc.extra["attraction"]}
    assert marked == NY_ATTRACTIONS
    for loc in ny.locations:
        assert loc.extra["attraction"] is (loc.name in NY_ATTRACTIONS)


def test_ny_route_counts(ny: Board) -> None:
    assert len(ny.routes) == NY_ROUTES
    assert [r.id for r in ny.routes] == list(range(NY_ROUTES))
    paired = [r for r in ny.routes if r.partner is not None]
    assert len(paired) == 2 * NY_DOUBLE_PAIRS == 22
    assert len({r.pair for r in paired}) == NY_DOUBLE_PAIRS
    assert sum(1 for r in ny.routes if r.pair is None and r.partner is None) == NY_SINGLE_ROUTES


def test_ny_spaces_and_lengths(ny: Board) -> None:
    assert ny.total_spaces == sum(r.length for r in ny.routes) == NY_SPACES
    assert Counter(r.length for r in ny.routes) == NY_LENGTHS


def test_ny_routes_join_known_locations_in_known_colours(ny: Board) -> None:
    names = {loc.name for loc in ny.locations}
    for route in ny.routes:
        assert route.a in names and route.b in names and route.a != route.b, route
        assert route.color == ttr_core.GRAY or route.color in ny.colors, route
        assert route.length in ny.rules.route_points, route


def test_ny_every_pair_is_consistent(ny: Board) -> None:
    """Partners point at each other and join the same places with the same length."""
    for route in ny.routes:
        if route.partner is None:
            assert route.pair is None, route
            continue
        other = ny.routes[route.partner]
        assert other.partner == route.id
        assert other.pair == route.pair is not None
        assert {other.a, other.b} == {route.a, route.b}
        assert other.length == route.length
        assert other.id != route.id


def test_ny_routes_between_the_same_places_are_pairs(ny: Board) -> None:
    by_ends: dict[frozenset[str], list[int]] = {}
    for route in ny.routes:
        by_ends.setdefault(frozenset((route.a, route.b)), []).append(route.id)
    for ids in by_ends.values():
        if len(ids) == 2:
            assert ny.routes[ids[0]].partner == ids[1]
        else:
            assert len(ids) == 1 and ny.routes[ids[0]].partner is None


def test_ny_spot_check_routes(ny: Board) -> None:
    assert route_facts(ny.routes[22]) == ("Chelsea", "Soho", "pink", 4, None)
    assert ny.routes[22].pair is None
    assert route_facts(ny.routes[33]) == ("Lower East Side", "Brooklyn", "gray", 3, None)
    assert ny.routes[33].pair is None

    assert route_facts(ny.routes[17]) == ("Chelsea", "Empire State Building", "gray", 2, 18)
    assert route_facts(ny.routes[18]) == ("Chelsea", "Empire State Building", "gray", 2, 17)
    assert ny.routes[17].pair == ny.routes[18].pair is not None

    assert route_facts(ny.routes[39]) == ("Wall Street", "Brooklyn", "blue", 3, 40)
    assert route_facts(ny.routes[40]) == ("Wall Street", "Brooklyn", "black", 3, 39)
    assert ny.routes[39].pair == ny.routes[40].pair is not None


def test_ny_tickets(ny: Board) -> None:
    assert len(ny.tickets) == NY_TICKETS
    assert [t.id for t in ny.tickets] == list(range(NY_TICKETS))
    assert sum(t.points for t in ny.tickets) == NY_TICKET_POINTS
    assert len({frozenset((t.a, t.b)) for t in ny.tickets}) == NY_TICKETS


@pytest.mark.parametrize(
    ("a", "b", "points"),
    [
        ("Lower East Side", "Wall Street", 2),
        ("Central Park", "Chinatown", 8),
        ("United Nations", "Wall Street", 8),
    ],
)
def test_ny_spot_check_tickets(ny: Board, a: str, b: str, points: int) -> None:
    assert find_ticket(ny, a, b).points == points


def test_ny_ticket_points_equal_shortest_paths(ny: Board) -> None:
    """On this map every ticket is worth the fewest spaces joining its ends:
    a strong cross-check of the route lengths and endpoints."""
    wrong = {
        (t.id, t.a, t.b, t.points): shortest_spaces(ny, t.a, t.b)
        for t in ny.tickets
        if shortest_spaces(ny, t.a, t.b) != t.points
    }
    assert wrong == {}


def test_ny_deck(ny: Board) -> None:
    assert dict(zip(ny.card_names, ny.deck, strict=True)) == NY_DECK
    assert ny.total_cards == 44
    assert ny.card_names[ny.wild] == ttr_core.WILD
    assert ny.wild_name == "taxi"


def test_ny_rules(ny: Board) -> None:
    rules = ny.rules
    assert (rules.min_players, rules.max_players) == (2, 4)
    assert rules.cars_per_player == 15
    assert rules.starting_hand == 2
    assert rules.display_size == 5
    assert rules.max_face_up_wilds == 2
    assert rules.end_trigger_cars == 2
    assert rules.both_pair_routes_min_players == 3
    assert rules.start_tickets_dealt == 2
    assert rules.start_tickets_keep == 1
    assert rules.draw_tickets == 2
    assert rules.draw_tickets_keep == 1
    assert rules.returned_tickets == "bottom"
    assert dict(rules.route_points) == {1: 1, 2: 2, 3: 4, 4: 7}
    assert rules.start_scores == (0, 0, 0, 0)
    assert rules.default_variants == ("attractions",)


def test_ny_board_is_read_only(ny: Board) -> None:
    """The board is shared by every game: none of it can be changed."""
    with pytest.raises(TypeError):
        ny.locations[1].extra["attraction"] = False  # type: ignore[index]
    with pytest.raises(TypeError):
        ny.rules.route_points[4] = 99  # type: ignore[index]
    with pytest.raises(AttributeError):
        ny.routes[0].length = 9  # type: ignore[misc]


# ---------------------------------------------------------------------------
# 2. Loading by name, alias and path; the cache
# ---------------------------------------------------------------------------

REPO_NY_FILE = Path(__file__).resolve().parents[1] / "maps" / "newyork.toml"


@pytest.mark.parametrize(
    "name", ["newyork", "NEWYORK", "new-york", "New-York", "new_york", "nyc", "NYC", "Nyc", "ny"]
)
def test_load_by_name_or_alias_gives_the_shared_board(ny: Board, name: str) -> None:
    assert ttr_core.load_map(name) is ny


def test_load_by_path(tmp_path: Path, ny: Board) -> None:
    path = tmp_path / "my-copy.toml"
    path.write_text(REPO_NY_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    board = ttr_core.load_map(path)
    assert board is not ny  # another file, another board
    assert board.source == "my-copy.toml"
    assert board.id == "newyork"
    assert board.routes == ny.routes
    assert board.tickets == ny.tickets
    assert board.locations == ny.locations
    assert board.rules == ny.rules
    assert board.deck == ny.deck


def test_same_file_loads_to_the_same_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_MAP, encoding="utf-8")
    first = ttr_core.load_map(path)
    assert ttr_core.load_map(str(path)) is first
    monkeypatch.chdir(tmp_path)
    assert ttr_core.load_map("tiny.toml") is first
    assert ttr_core.load_map(Path("./tiny.toml")) is first


def test_changed_file_is_loaded_again(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_MAP, encoding="utf-8")
    first = ttr_core.load_map(path)
    assert first.name == "Tiny Test Map"

    path.write_text(TINY_MAP.replace("Tiny Test Map", "Tiny Test Map, revised"), "utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))
    second = ttr_core.load_map(path)
    assert second is not first
    assert second.name == "Tiny Test Map, revised"
    assert ttr_core.load_map(path) is second


def test_file_changed_into_a_bad_map_is_not_served_from_the_cache(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_MAP, encoding="utf-8")
    ttr_core.load_map(path)
    path.write_text(TINY_MAP.replace("format = 1", "format = 99"), "utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 2_000_000_000))
    with pytest.raises(MapError, match="'format' must be 1, not 99"):
        ttr_core.load_map(path)


# ---------------------------------------------------------------------------
# 3. Unknown maps
# ---------------------------------------------------------------------------


def test_unknown_name_lists_the_available_maps() -> None:
    with pytest.raises(UnknownMapError) as info:
        ttr_core.load_map("atlantis")
    exc = info.value
    assert isinstance(exc, ttr_core.TtrError) and isinstance(exc, LookupError)
    assert exc.name == "atlantis"
    assert exc.available == ttr_core.available_maps()
    assert "'atlantis'" in str(exc)
    assert "newyork" in str(exc)
    assert ".toml" in str(exc)


def test_missing_toml_path_is_an_unknown_map(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(UnknownMapError) as info:
        ttr_core.load_map(missing)
    assert info.value.name == str(missing)
    assert "newyork" in str(info.value)


def test_directory_is_not_a_map(tmp_path: Path) -> None:
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(UnknownMapError):
        ttr_core.load_map(folder)


def test_new_game_with_unknown_map() -> None:
    with pytest.raises(UnknownMapError):
        ttr_core.new_game("atlantis", players=2)


# ---------------------------------------------------------------------------
# 4. A tiny valid map, and many ways to break it
# ---------------------------------------------------------------------------

ROUTES_ANCHOR = "# more routes"
TICKETS_ANCHOR = "# more tickets"
LOCATIONS_ANCHOR = "# more locations"

TINY_MAP = """\
format = 1

[map]
id = "tiny"
name = "Tiny Test Map"
aliases = ["tiny-test"]
players = [2, 3]
variants = []

[cards]
colors = { red = 8, blue = 8 }
wild = 6
wild_name = "joker"

[rules]
cars_per_player = 6
starting_hand = 3
display_size = 3
max_face_up_wilds = 1
end_trigger_cars = 1
both_pair_routes_min_players = 3

[rules.tickets]
start_dealt = 2
start_keep = 1
draw = 2
draw_keep = 1
returned = "discard"

[rules.route_points]
1 = 1
2 = 2
3 = 4

[components]
locations = 4
routes = 5
double_pairs = 1
spaces = 9
tickets = 6
cards = 22

[board]
locations = [
  { name = "Alpha" },
  { name = "Beta", attraction = true },
  { name = "Gamma" },
  { name = "Delta" },
  # more locations
]
routes = [
  { id = 0, a = "Alpha", b = "Beta", color = "red", length = 1 },
  { id = 1, a = "Beta", b = "Gamma", color = "red", length = 2, pair = 1 },
  { id = 2, a = "Beta", b = "Gamma", color = "blue", length = 2, pair = 1 },
  { id = 3, a = "Gamma", b = "Delta", color = "gray", length = 3 },
  { id = 4, a = "Alpha", b = "Delta", color = "blue", length = 1 },
  # more routes
]
tickets = [
  { id = 0, a = "Alpha", b = "Beta", points = 1 },
  { id = 1, a = "Alpha", b = "Gamma", points = 3 },
  { id = 2, a = "Alpha", b = "Delta", points = 1 },
  { id = 3, a = "Beta", b = "Gamma", points = 2 },
  { id = 4, a = "Beta", b = "Delta", points = 2 },
  { id = 5, a = "Gamma", b = "Delta", points = 3 },
  # more tickets
]
"""


def edited(text: str, edits: list[tuple[str, str]]) -> str:
    """Apply ``(old, new)`` replacements; each ``old`` must occur exactly once."""
    for old, new in edits:
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
        text = text.replace(old, new)
    return text


def add(anchor: str, line: str) -> tuple[str, str]:
    """An edit adding an entry to the array that holds ``anchor``."""
    return anchor, f"{line},\n  {anchor}"


class Breakage(NamedTuple):
    """One way to break the tiny map, and the problems it must cause."""

    name: str
    edits: list[tuple[str, str]]
    expected: list[tuple[str, str]]  # (entry, part of the message)


BREAKAGES = [
    Breakage(
        "unknown route endpoint",
        [('a = "Alpha", b = "Beta", color', 'a = "Alpha", b = "Betta", color')],
        [("route 0", "unknown location 'Betta'")],
    ),
    Breakage(
        "duplicate route id",
        [add(ROUTES_ANCHOR, '{ id = 4, a = "Beta", b = "Delta", color = "red", length = 2 }')],
        [("route 4", "duplicate route id")],
    ),
    Breakage(
        "bad colour",
        [('color = "gray", length = 3', 'color = "purple", length = 3')],
        [("route 3", "bad colour 'purple' (expected gray or one of: red, blue")],
    ),
    Breakage(
        "route length missing from route_points",
        [('b = "Delta", color = "blue", length = 1', 'b = "Delta", color = "blue", length = 5')],
        [("route 4", "length 5 has no entry in [rules.route_points]")],
    ),
    Breakage(
        "pair with mismatching endpoints and length",
        [
            add(
                ROUTES_ANCHOR,
                '{ id = 5, a = "Alpha", b = "Gamma", color = "red", length = 2, pair = 2 }',
            ),
            add(
                ROUTES_ANCHOR,
                '{ id = 6, a = "Gamma", b = "Beta", color = "blue", length = 3, pair = 2 }',
            ),
        ],
        [
            ("pair 2", "routes 5 and 6 join different locations"),
        ],
    ),
    Breakage(
        "pair with three routes",
        [
            add(
                ROUTES_ANCHOR,
                '{ id = 7, a = "Gamma", b = "Beta", color = "gray", length = 2, pair = 1 }',
            )
        ],
        [("pair 1", "a pair needs exactly 2 routes, found 3: [1, 2, 7]")],
    ),
    Breakage(
        "route joining a place to itself",
        [add(ROUTES_ANCHOR, '{ id = 8, a = "Gamma", b = "Gamma", color = "red", length = 1 }')],
        [("route 8", "both ends are 'Gamma'")],
    ),
    Breakage(
        "second route between two places without a pair",
        [add(ROUTES_ANCHOR, '{ id = 9, a = "Delta", b = "Alpha", color = "red", length = 1 }')],
        [("route 9", "duplicates route 4")],
    ),
    Breakage(
        "ticket to an unknown place",
        [('{ id = 5, a = "Gamma", b = "Delta"', '{ id = 5, a = "Gamma", b = "Omega"')],
        [("ticket 5", "unknown location 'Omega'")],
    ),
    Breakage(
        "ticket worth no points",
        [('b = "Beta", points = 1', 'b = "Beta", points = 0')],
        [("ticket 0", "'points' must be a whole number ≥ 1, not 0")],
    ),
    Breakage(
        "ticket entry that is not a table",
        [add(TICKETS_ANCHOR, '"Alpha to Beta"')],
        [("tickets[6]", "must be a table, not 'Alpha to Beta'")],
    ),
    Breakage(
        "declared components contradict the data",
        [("tickets = 6", "tickets = 7"), ("cards = 22", "cards = 20")],
        [
            ("[components]", "declares 7 tickets but the data has 6"),
            ("[components]", "declares 20 cards but the data has"),
        ],
    ),
    Breakage(
        "unknown key (typo) in [rules]",
        [("cars_per_player = 6", "cars_per_player = 6\ncar_per_player = 6")],
        [("[rules]", "unknown key 'car_per_player'")],
    ),
    Breakage(
        "unknown key (typo) in [cards]",
        [("wild = 6", "wild = 6\nwilds = 6")],
        [("[cards]", "unknown key 'wilds'")],
    ),
    Breakage(
        "unknown variant field on a location",
        [('{ name = "Gamma" }', '{ name = "Gamma", atraction = true }')],
        [("location 2 ('Gamma')", "unknown field 'atraction'")],
    ),
    Breakage(
        "wrong type for a declared variant field",
        [('{ name = "Beta", attraction = true }', '{ name = "Beta", attraction = 1 }')],
        [("location 1 ('Beta')", "field 'attraction' must be of type bool, not 1")],
    ),
    Breakage(
        "duplicate location name",
        [add(LOCATIONS_ANCHOR, '{ name = "Alpha" }')],
        [("location 4 ('Alpha')", "duplicate location name")],
    ),
    Breakage(
        "wrong format version",
        [("format = 1", "format = 2")],
        [("file", "'format' must be 1, not 2")],
    ),
    Breakage(
        "start_keep greater than start_dealt",
        [("start_keep = 1", "start_keep = 3")],
        [("[rules.tickets]", "start_keep (3) exceeds start_dealt (2)")],
    ),
    Breakage(
        "tickets returned sideways",
        [('returned = "discard"', 'returned = "sideways"')],
        [
            (
                "[rules.tickets]",
                "'returned' must be one of ('bottom', 'discard', 'box'), not 'sideways'",
            )
        ],
    ),
    Breakage(
        "reserved colour name",
        [("colors = { red = 8, blue = 8 }", "colors = { red = 8, blue = 8, gray = 2 }")],
        [("[cards]", "'gray' is reserved")],
    ),
    Breakage(
        "too many face-up wilds allowed",
        [("max_face_up_wilds = 1", "max_face_up_wilds = 4")],
        [
            (
                "[rules]",
                "max_face_up_wilds must be at most display_size (equal: the display is never "
                "laid out again for its wilds)",
            )
        ],
    ),
    Breakage(
        "too few cards to deal",
        [("starting_hand = 3", "starting_hand = 30")],
        [("[cards]", "cards cannot deal 30 to")],
    ),
    Breakage(
        "players the wrong way round",
        [("players = [2, 3]", "players = [3, 2]")],
        [("[map]", "'players' must be [min, max] with 1 ≤ min ≤ max, not [3, 2]")],
    ),
]


def problem_lines(problems: tuple[MapProblem, ...]) -> str:
    return "\n".join(str(p) for p in problems)


def assert_reported(exc: MapError, source: str, entry: str, fragment: str) -> None:
    """``exc`` lists a problem of ``source`` about ``entry`` whose message has ``fragment``."""
    matching = [
        p for p in exc.problems if p.source == source and p.entry == entry and fragment in p.message
    ]
    assert matching, f"no {entry!r} problem with {fragment!r} in:\n{problem_lines(exc.problems)}"
    for problem in matching:
        where = source if problem.line is None else f"{source}:{problem.line}"
        # The message lists the first few (MapError.SHOWN); report() every one.
        assert f"  - {where}: {entry}: {problem.message}" in exc.report()
        if len(exc.problems) == 1:
            assert str(exc) == exc.report()


def test_tiny_map_is_valid() -> None:
    board = ttr_core.parse_map(TINY_MAP, source="tiny.toml")
    assert (board.id, board.name, board.source) == ("tiny", "Tiny Test Map", "tiny.toml")
    assert board.aliases == ("tiny-test",)
    assert [loc.name for loc in board.locations] == ["Alpha", "Beta", "Gamma", "Delta"]
    assert [loc.extra["attraction"] for loc in board.locations] == [False, True, False, False]
    assert board.colors == ("red", "blue")
    assert board.deck == (8, 8, 6)
    assert board.card_names == ("red", "blue", "wild")
    assert board.wild_name == "joker"
    assert route_facts(board.routes[1]) == ("Beta", "Gamma", "red", 2, 2)
    assert route_facts(board.routes[2]) == ("Beta", "Gamma", "blue", 2, 1)
    assert board.routes[1].pair == board.routes[2].pair == 1
    assert route_facts(board.routes[3]) == ("Gamma", "Delta", "gray", 3, None)
    assert board.total_spaces == 9
    assert len(board.tickets) == 6
    assert board.rules.returned_tickets == "discard"
    assert board.rules.default_variants == ()
    assert board.rules.start_scores == (0, 0, 0)
    assert dict(board.rules.route_points) == {1: 1, 2: 2, 3: 4}


def test_parse_map_names_an_unnamed_source() -> None:
    with pytest.raises(MapError) as info:
        ttr_core.parse_map(TINY_MAP.replace("format = 1", "format = 2"))
    assert [p.source for p in info.value.problems] == ["<map>"]


@pytest.mark.parametrize("breakage", BREAKAGES, ids=[b.name for b in BREAKAGES])
def test_each_breakage_alone_is_reported(breakage: Breakage) -> None:
    text = edited(TINY_MAP, breakage.edits)
    with pytest.raises(MapError) as info:
        ttr_core.parse_map(text, source="broken.toml")
    for entry, fragment in breakage.expected:
        assert_reported(info.value, "broken.toml", entry, fragment)


def test_one_error_lists_every_problem(tmp_path: Path) -> None:
    """All the breakages at once: one MapError, naming the file and each entry."""
    text = edited(TINY_MAP, [edit for b in BREAKAGES for edit in b.edits])
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MapError) as info:
        ttr_core.load_map(path)
    exc = info.value
    assert isinstance(exc, ttr_core.TtrError) and isinstance(exc, ValueError)
    assert all(isinstance(p, MapProblem) for p in exc.problems)
    assert {p.source for p in exc.problems} == {"broken.toml"}
    expected = [item for b in BREAKAGES for item in b.expected]
    for entry, fragment in expected:
        assert_reported(exc, "broken.toml", entry, fragment)
    assert len(exc.problems) >= len(expected)
    assert str(exc).startswith(f"{len(exc.problems)} problems in map data:\n")


def test_problem_string_names_source_and_entry() -> None:
    problem = MapProblem("m.toml", "route 3", "bad colour 'purple'")
    assert str(problem) == "m.toml: route 3: bad colour 'purple'"
    assert str(MapError([problem])) == f"1 problem in map data:\n  - {problem}"


def test_invalid_toml(tmp_path: Path) -> None:
    path = tmp_path / "garbled.toml"
    path.write_text(TINY_MAP.replace('name = "Tiny Test Map"', 'name = "Tiny Test Map'), "utf-8")
    with pytest.raises(MapError) as info:
        ttr_core.load_map(path)
    (problem,) = info.value.problems
    assert (problem.source, problem.entry) == ("garbled.toml", "file")
    assert problem.message.startswith("not valid TOML: ")
    assert problem.line == 5  # the line of the unterminated string
    assert "garbled.toml:5: file: not valid TOML" in str(info.value)


def test_empty_map_reports_every_missing_table() -> None:
    with pytest.raises(MapError) as info:
        ttr_core.parse_map("format = 1\n", source="empty.toml")
    for table in ("map", "cards", "rules", "board"):
        assert_reported(info.value, "empty.toml", f"[{table}]", f"missing table [{table}]")


def test_unknown_top_level_table() -> None:
    text = TINY_MAP + "\n[extras]\nfoo = 1\n"
    with pytest.raises(MapError) as info:
        ttr_core.parse_map(text, source="x.toml")
    assert_reported(info.value, "x.toml", "file", "unknown key 'extras'")


def test_variant_field_on_the_wrong_table_is_unknown() -> None:
    """``attraction`` is declared for locations only, not for routes."""
    text = edited(
        TINY_MAP,
        [('color = "gray", length = 3 }', 'color = "gray", length = 3, attraction = true }')],
    )
    with pytest.raises(MapError) as info:
        ttr_core.parse_map(text, source="x.toml")
    assert_reported(info.value, "x.toml", "route 3", "unknown field 'attraction'")


# ---------------------------------------------------------------------------
# 5. A user map loaded by path can be played
# ---------------------------------------------------------------------------


@pytest.fixture
def tiny_path(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_MAP, encoding="utf-8")
    return path


def test_new_game_on_a_user_map(tiny_path: Path) -> None:
    state = ttr_core.new_game(tiny_path, players=2, seed=1, variants=[])
    assert state.board is ttr_core.load_map(tiny_path)
    assert state.board.id == "tiny"
    assert state.num_players == 2
    assert state.rules.variants == ()
    assert all(p.hand.total == 3 for p in state.players)
    assert len(state.display) == 3
    assert state.pending is not None and state.pending.kind == "start_tickets"
    assert ttr_core.legal_actions(state)


def test_user_map_default_variants_are_none(tiny_path: Path) -> None:
    state = ttr_core.new_game(str(tiny_path), players=3, seed=1)
    assert state.rules.variants == ()


def test_user_map_player_range_is_enforced(tiny_path: Path) -> None:
    with pytest.raises(ttr_core.PlayerCountError):
        ttr_core.new_game(tiny_path, players=4, seed=1)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", range(5))
def test_user_map_plays_to_the_end(tiny_path: Path, players: int, seed: int) -> None:
    result = ttr_core.random_playout(tiny_path, players, seed=seed, variants=[], max_actions=5000)
    assert ttr_core.is_over(result.state)
    assert len(result.scores.sheets) == players


# ---------------------------------------------------------------------------
# Regression tests for loader bugs found in review: each states the behaviour
# the loader promises ("raises one MapError listing all problems, each with
# the file and the entry").
# ---------------------------------------------------------------------------


def test_non_utf8_file_is_a_map_error(tmp_path: Path) -> None:
    # A file in another encoding must be a MapError naming the file, not a
    # UnicodeDecodeError.
    path = tmp_path / "latin1.toml"
    text = TINY_MAP.replace("Tiny Test Map", "Carte d'essai très petite")
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(MapError) as info:
        ttr_core.load_map(path)
    assert info.value.problems[0].source == "latin1.toml"


@pytest.mark.parametrize("version", ["true", "1.0"])
def test_format_version_must_be_the_integer_one(version: str) -> None:
    # True == 1 == 1.0 in Python: the version must be the integer 1 itself.
    text = TINY_MAP.replace("format = 1", f"format = {version}")
    with pytest.raises(MapError, match="'format' must be 1"):
        ttr_core.parse_map(text, source="x.toml")


def test_non_ascii_digit_route_length_is_a_map_error() -> None:
    # str.isdigit() is True for "²" but int("²") fails: must be a MapError.
    text = TINY_MAP.replace("3 = 4\n", '3 = 4\n"²" = 9\n')
    with pytest.raises(MapError) as info:
        ttr_core.parse_map(text, source="x.toml")
    assert_reported(info.value, "x.toml", "[rules.route_points]", "must be a whole number")


def test_route_without_id_is_reported_as_missing_and_not_blamed_on_route_0() -> None:
    # A missing id is reported as missing, and no other route is blamed.
    text = edited(TINY_MAP, [('{ id = 3, a = "Gamma"', '{ a = "Gamma"')])
    with pytest.raises(MapError) as info:
        ttr_core.parse_map(text, source="x.toml")
    assert_reported(info.value, "x.toml", "route #3", "missing 'id'")
    assert [str(p) for p in info.value.problems if p.entry == "route 0"] == []


def test_every_new_york_route_and_ticket_matches_the_printed_game() -> None:
    board = ttr_core.load_map("newyork")
    assert [
        (r.id, r.a, r.b, r.color, r.length, r.pair, None) for r in board.routes
    ] == map_facts.routes(map_facts.NEWYORK_ROUTES)
    assert [(t.id, t.a, t.b, t.points, None) for t in board.tickets] == map_facts.tickets(
        map_facts.NEWYORK_TICKETS
    )


def test_the_index_of_built_in_names_reads_each_maps_own_table() -> None:
    """The index of names parses each file's ``[map]`` table alone (not its
    routes and tickets: issue 32, seven maps loaded for one); the same table as
    the whole file gives, or the whole file's when the table cannot be cut."""
    from ttr_core.mapfiles.reading import _builtin_dir, _map_table

    files = sorted(_builtin_dir().glob("*.toml"))
    assert len(files) >= 7
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert _map_table(text) == tomllib.loads(text)["map"], path.name
    # A line of the table that starts with "[" cuts it short: the whole file is read.
    odd = '[map]\nid = "odd"\naliases = [\n["x"][0:0] and "y",\n]\n'
    whole = '[map]\nid = "odd"\naliases = [\n"y",\n[1],\n]\n[cards]\nn = 1\n'
    assert _map_table(whole) == {"id": "odd", "aliases": ["y", [1]]}
    assert _map_table("# no table\n[cards]\nn = 1\n") == {}
    with pytest.raises(ValueError):
        _map_table(odd)

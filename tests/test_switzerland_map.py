"""Ticket to Ride: Switzerland's map, checked against facts written into the tests.

Every route and city-to-city ticket is locked by ``map_facts.SWITZERLAND_ROUTES``
and ``map_facts.SWITZERLAND_TICKETS``; the tunnels by
``SWITZERLAND_TUNNEL_ROUTES``; the countries and their border points by
``SWITZERLAND_REGIONS``; the 12 country tickets (their destinations and values)
by ``SWITZERLAND_COUNTRY_TICKETS``. The counts below are cross-checks of the
printed board (the routes and spaces of each colour, counted from the reference
data, catch a route given the wrong colour or length; the 34 city-to-city
values equal the fewest spaces between their cities, which catches a
mis-measured route; the country-to-country table is symmetric).

The rules sheet's numbers (2-3 players, 40 trains, locomotives only on tunnels,
a face-up locomotive an ordinary card, unkept tickets to the box) are locked by
``test_rule_numbers``; how they play, by ``test_switzerland_rules.py``.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from pathlib import Path

import pytest

import ttr_core
from ttr_core.cli import main
from ttr_core.testing import play_checked

from . import map_facts

MAP_FILE = Path(__file__).resolve().parents[1] / "maps" / "switzerland.toml"

CITIES = {
    *("Baden", "Basel", "Bellinzona", "Bern", "Brig", "Brusio", "Chur", "Davos"),
    *("Delémont", "Fribourg", "Genève", "Interlaken", "Kreuzlingen", "La Chaux-de-Fonds"),
    *("Lausanne", "Locarno", "Lugano", "Luzern", "Martigny", "Neuchâtel", "Olten"),
    *("Pfäffikon", "Sargans", "Schaffhausen", "Schwyz", "Sion", "Solothurn", "St. Gallen"),
    *("Vaduz", "Wassen", "Winterthur", "Yverdon", "Zug", "Zürich"),
}
BORDER_POINTS = {point for points in map_facts.SWITZERLAND_REGIONS.values() for point in points}
COUNTRIES = ("France", "Deutschland", "Österreich", "Italia")
COLORS = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")
#: Routes and spaces of each colour, counted from the reference data (map_facts).
COLOR_COUNTS = {
    "purple": (9, 18),
    "blue": (9, 19),
    "orange": (10, 19),
    "white": (9, 18),
    "green": (9, 20),
    "yellow": (11, 18),
    "black": (9, 19),
    "red": (8, 18),
    ttr_core.GRAY: (14, 56),
}
#: The printed country-to-country table (each ticket lists one row of it).
COUNTRY_TABLE = {
    frozenset(("France", "Deutschland")): 5,
    frozenset(("France", "Österreich")): 14,
    frozenset(("France", "Italia")): 11,
    frozenset(("Deutschland", "Österreich")): 5,
    frozenset(("Deutschland", "Italia")): 13,
    frozenset(("Österreich", "Italia")): 6,
}


def country_tickets(table: str) -> list[tuple[int, str, tuple[tuple[str, int], ...]]]:
    """``map_facts.SWITZERLAND_COUNTRY_TICKETS`` as ``(id, a, destinations)``."""
    rows = []
    for line in table.strip().splitlines():
        ident, a, destinations = line.split("|")
        ends = []
        for destination in destinations.split(","):
            end, points = destination.split(":")
            ends.append((end, int(points)))
        rows.append((int(ident), a, tuple(ends)))
    return rows


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    return ttr_core.load_map("switzerland")


def test_identity(board: ttr_core.Board) -> None:
    assert board.id == "switzerland"
    assert board.name == "Ticket to Ride: Switzerland"
    assert board.source == "switzerland.toml"
    assert "switzerland" in ttr_core.available_maps()


@pytest.mark.parametrize(
    "name", ["switzerland", "Switzerland", "SWITZERLAND", "swiss", "schweiz", "suisse", "svizzera"]
)
def test_loaded_by_name_or_alias(board: ttr_core.Board, name: str) -> None:
    assert ttr_core.load_map(name) is board


def test_counts(board: ttr_core.Board) -> None:
    assert len(CITIES) == 34 and len(BORDER_POINTS) == 17
    assert len(board.locations) == 51
    assert {loc.name for loc in board.locations} == CITIES | BORDER_POINTS
    assert len(board.routes) == 88
    assert [r.id for r in board.routes] == list(range(88))
    assert len({r.pair for r in board.routes if r.pair is not None}) == 12
    assert sum(1 for r in board.routes if r.partner is None) == 64
    assert len({frozenset((r.a, r.b)) for r in board.routes}) == 76
    assert board.total_spaces == 205
    assert Counter(r.length for r in board.routes) == {1: 31, 2: 21, 3: 18, 4: 14, 5: 2, 6: 2}


def test_routes_and_spaces_of_each_colour(board: ttr_core.Board) -> None:
    counted: dict[str, tuple[int, int]] = {}
    for _, _, _, color, length, _, _ in map_facts.routes(map_facts.SWITZERLAND_ROUTES):
        routes, spaces = counted.get(color, (0, 0))
        counted[color] = (routes + 1, spaces + length)
    assert counted == COLOR_COUNTS  # the table above is the reference data's
    by_color: dict[str, list[int]] = {}
    for route in board.routes:
        by_color.setdefault(route.color, []).append(route.length)
    assert set(by_color) == {*COLORS, ttr_core.GRAY}
    assert {color: (len(ls), sum(ls)) for color, ls in by_color.items()} == COLOR_COUNTS


def test_tunnels(board: ttr_core.Board) -> None:
    tunnels = [r for r in board.routes if r.extra["tunnel"]]
    assert len(tunnels) == 42
    assert [r.id for r in tunnels] == list(range(46, 88))
    assert sum(r.length for r in tunnels) == 105
    assert Counter(r.color for r in tunnels) == {
        **{ttr_core.GRAY: 9, "yellow": 5, "orange": 5, "green": 5},
        **{"white": 4, "red": 4, "black": 4, "purple": 3, "blue": 3},
    }
    # The longest route, Brig–Locarno (6), is a gray tunnel; Genève–Yverdon (6) is not.
    assert {(r.a, r.b) for r in tunnels if r.length == 6} == {("Brig", "Locarno")}
    # The field is written only on tunnels: the others leave it unset.
    assert all(r.extra["tunnel"] is None for r in board.routes if r not in tunnels)
    # No ferries on this map.
    assert not any(r.extra.get("locomotives") for r in board.routes)


def test_double_routes(board: ttr_core.Board) -> None:
    pairs = [r for r in board.routes if r.partner is not None and r.id < r.partner]
    assert len(pairs) == 12
    gray = []
    for route in pairs:
        other = board.routes[route.partner]  # type: ignore[index]
        assert other.partner == route.id and other.pair == route.pair
        assert {other.a, other.b} == {route.a, route.b}
        assert other.length == route.length
        assert other.extra == route.extra  # the same tunnel status
        if route.color == ttr_core.GRAY:
            gray.append((route.a, route.b))
            assert other.color == ttr_core.GRAY
        else:
            assert other.color not in (route.color, ttr_core.GRAY)
    assert sorted(gray) == [("Bellinzona", "Wassen"), ("Bern", "Luzern")]
    assert sorted((r.a, r.b) for r in pairs if r.extra["tunnel"]) == [
        ("Bellinzona", "Lugano"),
        ("Bellinzona", "Wassen"),
        ("Schwyz", "Wassen"),
    ]
    assert max(Counter(frozenset((r.a, r.b)) for r in board.routes).values()) == 2
    # Kreuzlingen's two routes to Germany end at two border points: single routes.
    kreuzlingen = [r for r in board.routes if r.a == "Kreuzlingen" and r.b in BORDER_POINTS]
    assert [(r.b, r.partner) for r in kreuzlingen] == [
        ("Deutschland 3", None),
        ("Deutschland 4", None),
    ]


def test_regions(board: ttr_core.Board) -> None:
    assert dict(board.regions) == {
        country: tuple(points) for country, points in map_facts.SWITZERLAND_REGIONS.items()
    }
    assert tuple(board.regions) == COUNTRIES
    assert [len(points) for points in board.regions.values()] == [4, 5, 3, 5]
    # Every border point is a location, the end of exactly one route, from a city.
    ends = Counter(end for r in board.routes for end in (r.a, r.b))
    assert {point: ends[point] for point in BORDER_POINTS} == dict.fromkeys(BORDER_POINTS, 1)
    border_routes = [r for r in board.routes if {r.a, r.b} & BORDER_POINTS]
    assert len(border_routes) == 17
    assert all(len({r.a, r.b} & CITIES) == 1 for r in border_routes)
    # A country is a ticket end, not a location.
    for country in COUNTRIES:
        with pytest.raises(KeyError, match="no location"):
            board.location(country)


def test_tickets(board: ttr_core.Board) -> None:
    assert len(board.tickets) == 46
    assert [t.id for t in board.tickets] == list(range(46))
    plain = [t for t in board.tickets if not t.more]
    assert [t.id for t in plain] == list(range(34))
    assert all({t.a, t.b} <= CITIES for t in plain)
    assert len({frozenset((t.a, t.b)) for t in plain}) == 34
    assert sum(t.points for t in plain) == 258
    assert Counter(t.points for t in plain) == {
        **{2: 1, 3: 4, 4: 2, 5: 4, 6: 3, 7: 3, 8: 4, 9: 3},
        **{10: 4, 11: 1, 12: 1, 13: 2, 14: 1, 15: 1},
    }


def test_country_tickets(board: ttr_core.Board) -> None:
    country = board.tickets[34:]
    assert [(t.id, t.a, t.destinations) for t in country] == country_tickets(
        map_facts.SWITZERLAND_COUNTRY_TICKETS
    )
    # 4 city-to-country tickets, each to all four countries.
    assert [t.a for t in country[:4]] == ["Bern", "Chur", "Zürich", "Lugano"]
    assert all([end for end, _ in t.destinations] == list(COUNTRIES) for t in country[:4])
    # 4 country-to-country tickets, 2 copies each on consecutive ids.
    assert [t.a for t in country[4:]] == [c for c in COUNTRIES for _ in range(2)]
    for first, copy in zip(country[4::2], country[5::2], strict=True):
        assert (copy.a, copy.destinations) == (first.a, first.destinations)
        assert [end for end, _ in first.destinations] == [c for c in COUNTRIES if c != first.a]
    # The country-to-country table is symmetric.
    table: dict[frozenset[str], list[int]] = {}
    for ticket in country[4:]:
        for end, points in ticket.destinations:
            table.setdefault(frozenset((ticket.a, end)), []).append(points)
    assert {pair: set(points) for pair, points in table.items()} == {
        pair: {points} for pair, points in COUNTRY_TABLE.items()
    }
    # Joined to none, a ticket loses its lowest value.
    assert [t.lost for t in country] == [5, 3, 3, 2, 5, 5, 5, 5, 5, 5, 6, 6]


def test_city_ticket_values_are_the_fewest_spaces(board: ttr_core.Board) -> None:
    spaces = ttr_core.shortest_spaces(board)
    off = {(t.a, t.b): t.points - spaces[t.a, t.b] for t in board.tickets if not t.more}
    assert len(off) == 34
    assert {k: v for k, v in off.items() if v} == {}


def test_country_ticket_values_against_the_nearest_border_point(board: ttr_core.Board) -> None:
    """A cross-check of the border routes: 27 of the 32 country values equal the
    fewest spaces to the nearest border point; the other five, the same in both
    reference tables, differ by one or two."""
    spaces = ttr_core.shortest_spaces(board)

    def points(end: str) -> tuple[str, ...]:
        return board.regions.get(end, (end,))

    off: dict[tuple[str, str], int] = {}
    for ticket in board.tickets[34:]:
        for end, value in ticket.destinations:
            fewest = min(spaces[p, q] for p in points(ticket.a) for q in points(end))
            off[ticket.a, end] = value - fewest
    assert len(off) == 28  # the copies collapse: 16 + 12 ordered pairs
    assert {k: v for k, v in off.items() if v} == {
        ("Chur", "France"): -1,
        ("France", "Italia"): 1,
        ("Deutschland", "Italia"): 2,
        ("Italia", "France"): 1,
        ("Italia", "Deutschland"): 2,
    }


def test_components(board: ttr_core.Board) -> None:
    # [components]: locations 51, routes 88, double_pairs 12, spaces 205, tickets 46, cards 110
    assert len(board.locations) == 51
    assert len(board.routes) == 88
    assert len({r.pair for r in board.routes if r.pair is not None}) == 12
    assert board.total_spaces == 205
    assert len(board.tickets) == 46
    assert board.total_cards == 110
    assert board.colors == COLORS
    assert board.deck == (12,) * 8 + (14,)
    assert board.wild_name == "locomotive"


def test_rule_numbers(board: ttr_core.Board) -> None:
    rules = board.rules
    assert (rules.min_players, rules.max_players) == (2, 3)
    assert rules.cars_per_player == 40
    assert 3 * rules.cars_per_player < board.total_spaces  # the board never fills
    assert rules.starting_hand == 4
    assert rules.display_size == 5
    assert rules.max_face_up_wilds == 2  # the base reset, assumed: the doubt shown below
    assert (rules.start_tickets_dealt, rules.start_tickets_keep) == (5, 2)
    assert (rules.draw_tickets, rules.draw_tickets_keep) == (3, 1)
    assert rules.returned_tickets == "box"
    assert rules.start_returned_tickets == "box"
    assert dict(rules.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    assert set(rules.route_points) == {r.length for r in board.routes}
    assert rules.end_trigger_cars == 2
    assert rules.both_pair_routes_min_players == 3
    assert all(score == 0 for score in rules.start_scores)
    assert rules.wild_routes == ("tunnel",)
    assert rules.face_up_wild == "card"
    assert rules.default_variants == ("tunnels", "longest_route")
    assert dict(board.titles) == {"longest_route": "Longest Continuous Path"}


def test_positions(board: ttr_core.Board) -> None:
    assert board.aspect == 1.55  # 1744 x 1125 px
    pos = {loc.name: loc.pos for loc in board.locations}
    assert pos["Bern"] == (0.3234, 0.4613)
    assert pos["Italia 5"] == (0.5224, 0.9387)
    placed = [p for p in pos.values() if p is not None]
    assert len(placed) == len(set(placed)) == 51  # every location has its own place
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in placed)
    xs = {name: p[0] for name, p in pos.items() if p is not None and name in CITIES}
    ys = {name: p[1] for name, p in pos.items() if p is not None and name in CITIES}
    assert min(xs, key=xs.__getitem__) == "Genève"  # west
    assert max(xs, key=xs.__getitem__) == "Brusio"  # east
    assert min(ys, key=ys.__getitem__) == "Schaffhausen"  # north
    assert max(ys, key=ys.__getitem__) == "Lugano"  # south


@pytest.mark.parametrize(
    ("spelling", "printed"),
    [
        ("Bâle", "Basel"),
        ("Berne", "Bern"),
        ("Geneva", "Genève"),
        ("Genf", "Genève"),
        ("Zurich", "Zürich"),
        ("Saint-Gall", "St. Gallen"),
        ("St Gallen", "St. Gallen"),
        ("Lucerne", "Luzern"),
        ("Zoug", "Zug"),
        ("neuchatel", "Neuchâtel"),
        ("Germany border 1", "Deutschland 1"),
        ("Austria border 2", "Österreich 2"),
    ],
)
def test_french_and_english_spellings_resolve(
    board: ttr_core.Board, spelling: str, printed: str
) -> None:
    assert board.location(spelling).name == printed


def test_loads_without_any_warning(tmp_path: Path) -> None:
    text = MAP_FILE.read_text(encoding="utf-8")
    copy = tmp_path / "switzerland.toml"
    copy.write_text(text, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ttr_core.parse_map(text, source="switzerland.toml")
        ttr_core.load_map(copy)  # a fresh file: not served from the cache


def test_every_route_and_ticket_matches_the_printed_game(board: ttr_core.Board) -> None:
    assert [
        (r.id, r.a, r.b, r.color, r.length, r.pair, None) for r in board.routes
    ] == map_facts.routes(map_facts.SWITZERLAND_ROUTES)
    assert [r.id for r in board.routes if r.extra["tunnel"]] == map_facts.SWITZERLAND_TUNNEL_ROUTES
    assert [
        (t.id, t.a, t.b, t.points, None) for t in board.tickets if not t.more
    ] == map_facts.tickets(map_facts.SWITZERLAND_TICKETS)


@pytest.mark.parametrize("players", [2, 3])
def test_a_random_game_with_the_default_variants_keeps_every_invariant(players: int) -> None:
    state = ttr_core.new_game("switzerland", players, seed=7)
    assert state.rules.variants == ("tunnels", "longest_route")
    chooser = random.Random(7)
    report = play_checked(state, lambda _, legal: chooser.choice(legal))
    assert not report.violations, report.violations
    assert report.play.state.is_over


def test_show_map_gives_the_provenance_and_every_doubt(
    board: ttr_core.Board, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--map", "switzerland", "--show-map"]) == 0
    shown = capsys.readouterr().out
    assert "51 locations, 88 routes (12 double), 205 spaces, 110 cards" in shown
    assert "46 tickets (46 printed, 0 generated)" in shown
    assert "default variants: tunnels, longest_route" in shown
    provenance = board.provenance
    assert provenance is not None and provenance.sources and provenance.verified
    assert f"provenance: {provenance.summary}" in shown
    for source, what in provenance.sources:
        assert f"source {source}: {what}" in shown
    assert len(provenance.unverified) == 9
    for doubt in provenance.unverified:
        assert f"NOT verified: {doubt}" in shown
    (reset,) = [d for d in provenance.unverified if "face-up locomotives reset" in d]
    assert reset.startswith("three face-up locomotives reset the display")
    assert f"NOT verified: {reset}" in shown


def test_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list"]) == 0
    maps_line = next(
        line for line in capsys.readouterr().out.splitlines() if line.startswith("maps:")
    )
    assert "switzerland" in maps_line.split(":", 1)[1].replace(",", " ").split()

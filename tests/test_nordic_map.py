"""Ticket to Ride: Nordic Countries' map, checked against facts written into the tests.

Every route and ticket is locked by ``map_facts.NORDIC_ROUTES`` and
``map_facts.NORDIC_TICKETS``; the tunnels and the ferries' locomotive spaces by
``map_facts.NORDIC_TUNNEL_ROUTES`` and ``NORDIC_FERRY_LOCOMOTIVES``. The counts
below are cross-checks of the printed board (the routes and spaces of each
colour, counted from the reference data, catch a route given the wrong colour
or length; all 46 ticket values equal the fewest spaces between their ends,
which catches a mis-measured route). The map has one data table only (its
provenance says so), so these cross-checks are most of what backs it.

Two double routes have halves of different lengths and kinds
(Kristiansand–Stavanger, Mo I Rana–Trondheim): ``test_unequal_double_routes``
locks them. Murmansk–Lieksa's any-4-cards substitute and the variants' numbers
(``[variants]``) are locked by ``test_murmansk_lieksa`` and
``test_variant_numbers``.
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

MAP_FILE = Path(__file__).resolve().parents[1] / "maps" / "nordiccountries.toml"

CITIES = {
    *("Bergen", "Boden", "Göteborg", "Helsinki", "Honningsvåg", "Imatra", "Kajaani"),
    *("Karlskrona", "Kirkenes", "Kiruna", "Kristiansand", "Kuopio", "København"),
    *("Lahti", "Lieksa", "Lillehammer", "Mo I Rana", "Murmansk", "Narvik", "Norrköping"),
    *("Oslo", "Oulu", "Rovaniemi", "Stavanger", "Stockholm", "Sundsvall", "Tallinn"),
    *("Tampere", "Tornio", "Tromsø", "Trondheim", "Turku", "Umeå", "Vaasa", "Ålborg"),
    *("Åndalsnes", "Århus", "Örebro", "Östersund"),
}
COLORS = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")
#: Routes and spaces of each colour, counted from the reference data (map_facts).
COLOR_COUNTS = {
    "purple": (10, 21),
    "blue": (8, 21),
    "orange": (9, 23),
    "white": (9, 20),
    "green": (9, 22),
    "yellow": (8, 21),
    "black": (9, 21),
    "red": (8, 21),
    ttr_core.GRAY: (11, 37),
}
DEFAULT_VARIANTS = ("tunnels", "ferries", "substitutes", "globetrotter")


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    return ttr_core.load_map("nordiccountries")


def test_identity(board: ttr_core.Board) -> None:
    assert board.id == "nordiccountries"
    assert board.name == "Ticket to Ride: Nordic Countries"
    assert board.source == "nordiccountries.toml"
    assert "nordiccountries" in ttr_core.available_maps()


@pytest.mark.parametrize(
    "name", ["nordiccountries", "NordicCountries", "NORDICCOUNTRIES", "nordic-countries"]
)
def test_loaded_by_name_or_alias(board: ttr_core.Board, name: str) -> None:
    assert ttr_core.load_map(name) is board


def test_counts(board: ttr_core.Board) -> None:
    assert len(CITIES) == 39
    assert len(board.locations) == 39
    assert {loc.name for loc in board.locations} == CITIES
    assert len(board.routes) == 81
    assert [r.id for r in board.routes] == list(range(81))
    assert len({r.pair for r in board.routes if r.pair is not None}) == 14
    assert sum(1 for r in board.routes if r.partner is None) == 53
    assert len({frozenset((r.a, r.b)) for r in board.routes}) == 67
    assert board.total_spaces == 207
    assert Counter(r.length for r in board.routes) == {
        **{1: 17, 2: 28, 3: 20, 4: 11},
        **{5: 3, 6: 1, 9: 1},
    }


def test_routes_and_spaces_of_each_colour(board: ttr_core.Board) -> None:
    counted: dict[str, tuple[int, int]] = {}
    for _, _, _, color, length, _, _ in map_facts.routes(map_facts.NORDIC_ROUTES):
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
    assert len(tunnels) == 10
    assert sum(r.length for r in tunnels) == 26
    # No gray tunnel: purple and green two each, every other colour one.
    assert Counter(r.color for r in tunnels) == {
        **dict.fromkeys(COLORS, 1),
        "purple": 2,
        "green": 2,
    }
    assert all(not r.extra["locomotives"] for r in tunnels)  # never a ferry too
    # The field is written only on tunnels: the others leave it unset.
    assert all(r.extra["tunnel"] is None for r in board.routes if r not in tunnels)


def test_ferries(board: ttr_core.Board) -> None:
    ferries = [r for r in board.routes if r.extra["locomotives"]]
    assert len(ferries) == 24
    assert sum(r.extra["locomotives"] for r in ferries) == 30
    assert sum(r.length for r in ferries) == 69
    assert Counter(r.extra["locomotives"] for r in ferries) == {1: 18, 2: 6}
    # Unlike Europe's, most ferries are coloured: their other spaces take that colour.
    assert Counter(r.color for r in ferries) == {
        **dict.fromkeys(COLORS, 2),
        **{"white": 3, "purple": 3, "green": 3, "blue": 3},
        ttr_core.GRAY: 4,
    }
    assert all(r.extra["locomotives"] <= r.length for r in ferries)
    # All locomotive spaces: the two one-space ferries Århus–København and Vaasa–Umeå.
    assert [(r.a, r.b) for r in ferries if r.extra["locomotives"] == r.length] == [
        ("Århus", "København"),
        ("Vaasa", "Umeå"),
    ]
    # Åndalsnes–Trondheim: white, 2 spaces, 1 locomotive (checked on the art).
    (andalsnes,) = [r for r in ferries if {r.a, r.b} == {"Åndalsnes", "Trondheim"}]
    assert (andalsnes.color, andalsnes.length, andalsnes.extra["locomotives"]) == ("white", 2, 1)
    assert all(r.extra["locomotives"] is None for r in board.routes if r not in ferries)


def test_murmansk_lieksa(board: ttr_core.Board) -> None:
    (route,) = [r for r in board.routes if r.extra["substitute"]]
    assert (route.id, route.a, route.b) == (52, "Lieksa", "Murmansk")
    assert (route.color, route.length, route.extra["substitute"]) == (ttr_core.GRAY, 9, 4)
    assert board.rules.route_points[route.length] == 27
    assert route.partner is None
    assert not route.extra["tunnel"] and not route.extra["locomotives"]
    assert max(r.length for r in board.routes if r is not route) == 6  # the only long one


def test_double_routes(board: ttr_core.Board) -> None:
    pairs = [r for r in board.routes if r.partner is not None and r.id < r.partner]
    assert len(pairs) == 14
    with_gray = []
    for route in pairs:
        other = board.routes[route.partner]  # type: ignore[index]
        assert other.partner == route.id and other.pair == route.pair
        assert {other.a, other.b} == {route.a, route.b}
        assert other.color != route.color or route.color == ttr_core.GRAY
        if ttr_core.GRAY in (route.color, other.color):
            with_gray.append((route.a, route.b, route.color, other.color))
    # Stockholm–Sundsvall is gray twice; Helsinki–Stockholm has one gray half.
    assert sorted(with_gray) == [
        ("Helsinki", "Stockholm", ttr_core.GRAY, "yellow"),
        ("Stockholm", "Sundsvall", ttr_core.GRAY, ttr_core.GRAY),
    ]
    # Halves of one length and kind, but for the two unequal pairs and
    # Helsinki–Stockholm's ferries (2 locomotives on the gray half, 1 on the yellow).
    differ = {
        (route.a, route.b)
        for route in pairs
        if board.routes[route.partner].extra != route.extra  # type: ignore[index]
        or board.routes[route.partner].length != route.length  # type: ignore[index]
    }
    assert differ == {
        ("Helsinki", "Stockholm"),
        ("Kristiansand", "Stavanger"),
        ("Mo I Rana", "Trondheim"),
    }
    assert max(Counter(frozenset((r.a, r.b)) for r in board.routes).values()) == 2


def test_unequal_double_routes(board: ttr_core.Board) -> None:
    unequal = [
        (r.id, r.a, r.b, r.color, r.length, r.partner, r.extra["tunnel"], r.extra["locomotives"])
        for r in board.routes
        if r.partner is not None and board.routes[r.partner].length != r.length
    ]
    assert unequal == [
        (43, "Kristiansand", "Stavanger", "green", 2, 44, True, None),
        (44, "Kristiansand", "Stavanger", "orange", 3, 43, None, 1),
        (54, "Mo I Rana", "Trondheim", "green", 5, 55, True, None),
        (55, "Mo I Rana", "Trondheim", "red", 6, 54, None, 2),
    ]
    assert board.routes[43].pair == board.routes[44].pair == 8
    assert board.routes[54].pair == board.routes[55].pair == 9


def test_tickets(board: ttr_core.Board) -> None:
    assert len(board.tickets) == 46
    assert [t.id for t in board.tickets] == list(range(46))
    assert len({frozenset((t.a, t.b)) for t in board.tickets}) == 46
    assert all({t.a, t.b} <= CITIES and not t.more for t in board.tickets)
    assert sum(t.points for t in board.tickets) == 460
    assert Counter(t.points for t in board.tickets) == {
        **{3: 1, 4: 3, 5: 2, 6: 6, 7: 4, 8: 5, 9: 1, 10: 7, 11: 3, 12: 4},
        **{13: 2, 14: 1, 16: 1, 17: 2, 18: 2, 21: 1, 24: 1},
    }
    (highest,) = [t for t in board.tickets if t.points == 24]
    assert (highest.a, highest.b) == ("København", "Murmansk")


def test_ticket_values_are_the_fewest_spaces(board: ttr_core.Board) -> None:
    spaces = ttr_core.shortest_spaces(board)
    off = {(t.a, t.b): t.points - spaces[t.a, t.b] for t in board.tickets}
    assert len(off) == 46
    assert {k: v for k, v in off.items() if v} == {}


def test_components(board: ttr_core.Board) -> None:
    # [components]: locations 39, routes 81, double_pairs 14, spaces 207, tickets 46, cards 110
    assert len(board.locations) == 39
    assert len(board.routes) == 81
    assert len({r.pair for r in board.routes if r.pair is not None}) == 14
    assert board.total_spaces == 207
    assert len(board.tickets) == 46
    assert board.total_cards == 110
    assert board.colors == COLORS
    assert board.deck == (12,) * 8 + (14,)
    assert board.wild_name == "locomotive"
    assert dict(board.regions) == {}  # no countries: every ticket joins two cities


def test_rule_numbers(board: ttr_core.Board) -> None:
    rules = board.rules
    assert (rules.min_players, rules.max_players) == (2, 3)
    assert rules.cars_per_player == 40
    assert 3 * rules.cars_per_player < board.total_spaces  # the board never fills
    assert rules.starting_hand == 4
    assert rules.display_size == 5
    assert rules.max_face_up_wilds == 5  # never reset: the doubt shown below
    assert (rules.start_tickets_dealt, rules.start_tickets_keep) == (5, 2)
    assert (rules.draw_tickets, rules.draw_tickets_keep) == (3, 1)
    assert rules.returned_tickets == "box"
    assert rules.start_returned_tickets == "box"
    assert dict(rules.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 9: 27}
    assert set(rules.route_points) == {r.length for r in board.routes}
    assert rules.end_trigger_cars == 2
    assert rules.both_pair_routes_min_players == 3
    assert all(score == 0 for score in rules.start_scores)
    assert rules.wild_routes == ("tunnel", "locomotives")
    assert rules.face_up_wild == "card"
    assert rules.default_variants == DEFAULT_VARIANTS  # no longest path bonus
    assert dict(board.titles) == {"globetrotter": "Globetrotter"}


def test_variant_numbers(board: ttr_core.Board) -> None:
    assert {name: dict(data) for name, data in board.variant_data.items()} == {
        "substitutes": {"locomotive": 3},
        "globetrotter": {"points": 10},
    }


def test_positions(board: ttr_core.Board) -> None:
    assert board.aspect == 0.645  # 1125 x 1744 px: the board stands upright
    pos = {loc.name: loc.pos for loc in board.locations}
    assert pos["Oslo"] == (0.3484, 0.7632)
    assert pos["Murmansk"] == (0.7458, 0.0533)
    placed = [p for p in pos.values() if p is not None]
    assert len(placed) == len(set(placed)) == 39  # every location has its own place
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in placed)
    xs = {name: p[0] for name, p in pos.items() if p is not None}
    ys = {name: p[1] for name, p in pos.items() if p is not None}
    assert min(xs, key=xs.__getitem__) == "Bergen"  # west
    assert max(xs, key=xs.__getitem__) == "Imatra"  # east
    assert min(ys, key=ys.__getitem__) == "Honningsvåg"  # north
    assert max(ys, key=ys.__getitem__) == "Århus"  # south


@pytest.mark.parametrize(
    ("spelling", "printed"),
    [
        ("Copenhagen", "København"),
        ("Kobenhavn", "København"),
        ("Gothenburg", "Göteborg"),
        ("Aalborg", "Ålborg"),
        ("Aarhus", "Århus"),
        ("Mo i Rana", "Mo I Rana"),
        ("Tromso", "Tromsø"),
        ("Åbo", "Turku"),
        ("Helsingfors", "Helsinki"),
        ("umea", "Umeå"),
        ("Andalsnes", "Åndalsnes"),
    ],
)
def test_english_and_plain_spellings_resolve(
    board: ttr_core.Board, spelling: str, printed: str
) -> None:
    assert board.location(spelling).name == printed


def test_loads_without_any_warning(tmp_path: Path) -> None:
    text = MAP_FILE.read_text(encoding="utf-8")
    copy = tmp_path / "nordiccountries.toml"
    copy.write_text(text, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ttr_core.parse_map(text, source="nordiccountries.toml")
        ttr_core.load_map(copy)  # a fresh file: not served from the cache


def test_every_route_and_ticket_matches_the_printed_game(board: ttr_core.Board) -> None:
    assert [
        (r.id, r.a, r.b, r.color, r.length, r.pair, None) for r in board.routes
    ] == map_facts.routes(map_facts.NORDIC_ROUTES)
    assert [r.id for r in board.routes if r.extra["tunnel"]] == map_facts.NORDIC_TUNNEL_ROUTES
    assert {
        r.id: r.extra["locomotives"] for r in board.routes if r.extra["locomotives"]
    } == map_facts.NORDIC_FERRY_LOCOMOTIVES
    assert [(t.id, t.a, t.b, t.points, None) for t in board.tickets] == map_facts.tickets(
        map_facts.NORDIC_TICKETS
    )


@pytest.mark.parametrize("players", [2, 3])
def test_a_random_game_with_the_default_variants_keeps_every_invariant(players: int) -> None:
    state = ttr_core.new_game("nordiccountries", players, seed=7)
    assert state.rules.variants == DEFAULT_VARIANTS
    chooser = random.Random(7)
    report = play_checked(state, lambda _, legal: chooser.choice(legal))
    assert not report.violations, report.violations
    assert report.play.state.is_over


def test_show_map_gives_the_provenance_and_every_doubt(
    board: ttr_core.Board, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--map", "nordiccountries", "--show-map"]) == 0
    shown = capsys.readouterr().out
    assert "39 locations, 81 routes (14 double), 207 spaces, 110 cards" in shown
    assert "46 tickets (46 printed, 0 generated)" in shown
    assert "default variants: tunnels, ferries, substitutes, globetrotter" in shown
    provenance = board.provenance
    assert provenance is not None and provenance.sources and provenance.verified
    assert f"provenance: {provenance.summary}" in shown
    for source, what in provenance.sources:
        assert f"source {source}: {what}" in shown
    assert len(provenance.unverified) == 8
    for doubt in provenance.unverified:
        assert f"NOT verified: {doubt}" in shown
    # The display-reset disagreement: the summaries never reset, Board Game Arena
    # resets on three face-up locomotives.
    (reset,) = [d for d in provenance.unverified if "display reset" in d]
    assert reset.startswith("no display reset for face-up locomotives (max_face_up_wilds = 5")
    assert "three of five locomotives discard the display" in reset
    assert f"NOT verified: {reset}" in shown


def test_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list"]) == 0
    maps_line = next(
        line for line in capsys.readouterr().out.splitlines() if line.startswith("maps:")
    )
    assert "nordiccountries" in maps_line.split(":", 1)[1].replace(",", " ").split()

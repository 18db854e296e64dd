"""Ticket to Ride: Pennsylvania's map, checked against facts written into the tests.

Every route and ticket is locked by ``map_facts.PENNSYLVANIA_ROUTES`` and
``TICKETS``; the company logos on the routes by ``ROUTE_COMPANIES``; the
ferries' locomotive spaces by ``FERRY_LOCOMOTIVES``; Ontario's two landings by
``REGIONS``; the positions by ``POSITIONS``; the stock shares' companies by
``COMPANIES``; the card, deal and scoring numbers by the constants there. The
counts below are cross-checks of the printed board (the routes and spaces of
each colour, counted from the reference data, catch a route given the wrong
colour or length; 49 of the 50 ticket values equal the fewest spaces between
their ends, which catches a mis-measured route; the logos of each company,
counted on the routes, catch a logo dropped or added).

The stock shares' table (``[variants.shares]``) and the routes' ``companies``
field are checked here as data; the ``shares`` plugin's rules in
tests/test_pennsylvania_rules.py. The doubts the map's provenance lists (one-source facts above all:
the logos, the majority points, 7 → 18, the ticket draw of 4, doubles closed
to 2-3 players) are checked to be shown by ``ttr --show-map``.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from pathlib import Path

import pytest

import ttr_core
from ttr_core.checking.verify import play_checked
from ttr_core.cli import main

from . import map_facts
from . import map_facts as facts

MAP_FILE = Path(__file__).resolve().parents[1] / "maps" / "pennsylvania.toml"

#: Routes and spaces of each colour, counted from the reference data (the facts).
COLOR_COUNTS = {
    "purple": (9, 34),
    "blue": (9, 33),
    "orange": (9, 33),
    "white": (9, 36),
    "green": (11, 36),
    "yellow": (11, 29),
    "black": (11, 35),
    "red": (8, 33),
    ttr_core.GRAY: (18, 53),
}
#: Routes showing each company's logo (both routes of a double counted),
#: counted in the reference data.
LOGO_COUNTS = {
    **{"PRR": 55, "EL": 32, "B&O": 23, "NYC": 23, "RDG": 18},
    **{"LV": 13, "JCL": 12, "WM": 7, "BR&P": 7},
}
#: The 8 routes without a logo.
NO_LOGO = [
    (0, "Albany", "Binghamton"),
    (16, "Altoona", "Lewiston"),
    (41, "Chambersburg", "Gettysburg"),
    (48, "Dubois", "Oil City"),
    (50, "Dubois", "Williamsport"),
    (61, "Gettysburg", "York"),
    (73, "Morgantown", "Pittsburgh"),
    (92, "Scranton / Wilkes Barre", "Williamsport"),
]
DEFAULT_VARIANTS = ("ferries", "globetrotter", "shares")
LANDINGS = set(facts.PENNSYLVANIA_REGIONS["Ontario"])


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    return ttr_core.load_map("pennsylvania")


def test_identity(board: ttr_core.Board) -> None:
    assert board.id == "pennsylvania"
    assert board.name == "Ticket to Ride: Pennsylvania"
    assert board.source == "pennsylvania.toml"
    assert "pennsylvania" in ttr_core.available_maps()
    assert board.pieces == "trains"


@pytest.mark.parametrize("name", ["pennsylvania", "Pennsylvania", "PENNSYLVANIA"])
def test_loaded_by_name(board: ttr_core.Board, name: str) -> None:
    assert ttr_core.load_map(name) is board


def test_locations(board: ttr_core.Board) -> None:
    assert len(facts.PENNSYLVANIA_CITIES) == len(set(facts.PENNSYLVANIA_CITIES)) == 34
    names = [loc.name for loc in board.locations]
    assert len(names) == 36
    assert set(names) == {*facts.PENNSYLVANIA_CITIES, *LANDINGS}
    assert names == sorted(names)  # listed alphabetically: the ids follow
    # Ontario is a ticket end, not a location.
    with pytest.raises(KeyError, match="no location"):
        board.location("Ontario")


def test_positions(board: ttr_core.Board) -> None:
    assert board.aspect == facts.PENNSYLVANIA_ASPECT
    pos = {loc.name: loc.pos for loc in board.locations}
    assert pos == facts.PENNSYLVANIA_POSITIONS  # every location has one, the reference's
    placed = list(pos.values())
    assert len(set(placed)) == 36  # every location has its own place
    assert all(p is not None and 0 <= p[0] <= 1 and 0 <= p[1] <= 1 for p in placed)
    xs = {name: p[0] for name, p in pos.items() if p is not None}
    ys = {name: p[1] for name, p in pos.items() if p is not None}
    assert min(xs, key=xs.__getitem__) == "Youngstown"  # west
    assert max(xs, key=xs.__getitem__) == "New York"  # east
    assert min(ys, key=ys.__getitem__) == "Ontario 1"  # north: the landings, on the lake
    assert max(ys, key=ys.__getitem__) == "Morgantown"  # south
    # West landing (the Erie ferries) west of the east one (the Buffalo ferries).
    assert xs["Ontario 1"] < xs["Ontario 2"]


@pytest.mark.parametrize(("spelling", "printed"), sorted(facts.PENNSYLVANIA_ALIASES.items()))
def test_other_spellings_resolve(board: ttr_core.Board, spelling: str, printed: str) -> None:
    assert board.location(spelling).name == printed


def test_aliases_are_the_facts(board: ttr_core.Board) -> None:
    written = {alias: loc.name for loc in board.locations for alias in loc.aliases}
    assert written == facts.PENNSYLVANIA_ALIASES


def test_counts(board: ttr_core.Board) -> None:
    assert len(board.routes) == 95
    assert [r.id for r in board.routes] == list(range(95))
    assert len({r.pair for r in board.routes if r.pair is not None}) == 24
    assert sum(1 for r in board.routes if r.partner is None) == 47
    assert len({frozenset((r.a, r.b)) for r in board.routes}) == 71
    assert board.total_spaces == 322
    assert Counter(r.length for r in board.routes) == {
        **{1: 9, 2: 23, 3: 21, 4: 19},
        **{5: 11, 6: 11, 7: 1},
    }
    assert 5 * board.rules.cars_per_player < board.total_spaces  # the board never fills


def test_routes_and_spaces_of_each_colour(board: ttr_core.Board) -> None:
    counted: dict[str, tuple[int, int]] = {}
    for _, _, _, color, length, _, _ in map_facts.routes(facts.PENNSYLVANIA_ROUTES):
        routes, spaces = counted.get(color, (0, 0))
        counted[color] = (routes + 1, spaces + length)
    assert counted == COLOR_COUNTS  # the table above is the reference data's
    by_color: dict[str, list[int]] = {}
    for route in board.routes:
        by_color.setdefault(route.color, []).append(route.length)
    assert set(by_color) == {*facts.PENNSYLVANIA_COLORS, ttr_core.GRAY}
    assert {color: (len(ls), sum(ls)) for color, ls in by_color.items()} == COLOR_COUNTS


def test_double_routes(board: ttr_core.Board) -> None:
    pairs = [r for r in board.routes if r.partner is not None and r.id < r.partner]
    assert len(pairs) == 24
    gray = []
    for route in pairs:
        other = board.routes[route.partner]  # type: ignore[index]
        assert other.partner == route.id and other.pair == route.pair
        assert {other.a, other.b} == {route.a, route.b}
        assert other.length == route.length  # halves always of one length
        assert other.extra == route.extra  # the same logos, the same ferry
        assert other.color != route.color or route.color == ttr_core.GRAY
        if ttr_core.GRAY in (route.color, other.color):
            assert route.color == other.color  # no pair has a single gray half
            gray.append((route.a, route.b, route.length))
    assert sorted(gray) == [
        ("Atlantic City", "Philadelphia", 2),
        ("Buffalo", "Ontario 2", 1),
        ("Erie", "Ontario 1", 3),
        ("Harrisburg", "Lancaster", 2),
        ("New York", "Philadelphia", 6),
    ]
    assert max(Counter(frozenset((r.a, r.b)) for r in board.routes).values()) == 2


def test_the_long_route(board: ttr_core.Board) -> None:
    (route,) = [r for r in board.routes if r.length == 7]
    assert (route.id, route.a, route.b, route.color) == (21, "Baltimore", "Cumberland", "blue")
    assert route.partner is None
    assert board.rules.route_points[7] == 18  # unverified: shown as a doubt


def test_ferries_and_ontario(board: ttr_core.Board) -> None:
    ferries = {r.id: r.extra["locomotives"] for r in board.routes if r.extra["locomotives"]}
    assert ferries == facts.PENNSYLVANIA_FERRY_LOCOMOTIVES
    # Only the four Ontario routes reach a landing, and all four are gray ferries.
    to_ontario = [r for r in board.routes if {r.a, r.b} & LANDINGS]
    assert [r.id for r in to_ontario] == sorted(facts.PENNSYLVANIA_FERRY_LOCOMOTIVES)
    assert all(r.color == ttr_core.GRAY for r in to_ontario)
    assert {(r.a, r.b, r.length) for r in to_ontario} == {
        ("Buffalo", "Ontario 2", 1),
        ("Erie", "Ontario 1", 3),
    }
    # The two landings are not joined: no path runs Buffalo–Ontario–Erie.
    assert not any({r.a, r.b} == LANDINGS for r in board.routes)
    assert all(r.extra["locomotives"] is None for r in board.routes if r.id not in ferries)


def test_regions(board: ttr_core.Board) -> None:
    assert dict(board.regions) == facts.PENNSYLVANIA_REGIONS
    assert board.places("Ontario") == tuple(
        board.location(name).id for name in facts.PENNSYLVANIA_REGIONS["Ontario"]
    )


def test_company_logos(board: ttr_core.Board) -> None:
    logos = {r.id: r.extra["companies"] for r in board.routes}
    expected = facts.route_companies(facts.PENNSYLVANIA_ROUTE_COMPANIES)
    assert len(expected) == 95
    # Routes without a logo leave the field out (None); the facts say ().
    assert {ident: names or None for ident, names in expected.items()} == logos
    bare = [(r.id, r.a, r.b) for r in board.routes if not r.extra["companies"]]
    assert bare == NO_LOGO
    counted = Counter(name for names in expected.values() for name in names)
    assert counted == LOGO_COUNTS  # the table above is the reference data's
    assert Counter(n for r in board.routes for n in r.extra["companies"] or ()) == LOGO_COUNTS
    # Every logo names a company of the shares table, at most once per route,
    # biggest company (most shares) first.
    shares = {ident: count for ident, _, count, _ in facts.PENNSYLVANIA_COMPANIES}
    for route in board.routes:
        names = route.extra["companies"] or ()
        assert set(names) <= set(shares)
        assert len(set(names)) == len(names)
        assert [shares[n] for n in names] == sorted((shares[n] for n in names), reverse=True)


def test_shares_table(board: ttr_core.Board) -> None:
    table = board.variant_data["shares"]
    assert set(table) == {"companies"}
    companies = [(c["id"], c["name"], c["shares"], tuple(c["values"])) for c in table["companies"]]
    assert companies == list(facts.PENNSYLVANIA_COMPANIES)
    assert all(set(c) == {"id", "name", "shares", "values"} for c in table["companies"])
    assert len(companies) == 9
    assert sum(count for _, _, count, _ in companies) == 60
    assert [count for _, _, count, _ in companies] == [15, 10, 8, 7, 6, 5, 4, 3, 2]
    # Paying places per company (the count a second source confirms).
    assert [len(values) for _, _, _, values in companies] == [5, 5, 4, 3, 3, 3, 2, 2, 2]
    assert all(list(v) == sorted(v, reverse=True) and v[-1] > 0 for *_, v in companies)
    by_id = {ident: values for ident, _, _, values in companies}
    assert by_id["PRR"] == (30, 21, 14, 9, 6)
    assert by_id["BR&P"] == (7, 4)


def test_tickets(board: ttr_core.Board) -> None:
    assert [(t.id, t.a, t.b, t.points, None) for t in board.tickets] == map_facts.tickets(
        facts.PENNSYLVANIA_TICKETS
    )
    assert len(board.tickets) == 50
    assert len({frozenset((t.a, t.b)) for t in board.tickets}) == 50
    ends = {end for t in board.tickets for end in (t.a, t.b)}
    assert ends <= {*facts.PENNSYLVANIA_CITIES, "Ontario"}
    assert sum(1 for t in board.tickets if "Ontario" in (t.a, t.b)) == 3
    assert all(not t.more and not t.extra.get(ttr_core.GENERATED) for t in board.tickets)
    assert sum(t.points for t in board.tickets) == 508
    (highest,) = [t for t in board.tickets if t.points == 22]
    assert (highest.a, highest.b) == ("Wheeling", "Albany")


def test_ticket_values_are_the_fewest_spaces_but_one(board: ttr_core.Board) -> None:
    """All but Pittsburgh–Baltimore (13, in both reference tables) equal the
    fewest spaces between their ends, Ontario reached at its nearer landing."""
    spaces = ttr_core.shortest_spaces(board)

    def places(end: str) -> tuple[str, ...]:
        return board.regions.get(end, (end,))

    off = {
        (t.a, t.b): t.points - min(spaces[p, q] for p in places(t.a) for q in places(t.b))
        for t in board.tickets
    }
    assert len(off) == 50
    assert {k: v for k, v in off.items() if v} == {("Pittsburgh", "Baltimore"): 1}


def test_every_route_matches_the_printed_game(board: ttr_core.Board) -> None:
    assert [
        (r.id, r.a, r.b, r.color, r.length, r.pair, None) for r in board.routes
    ] == map_facts.routes(facts.PENNSYLVANIA_ROUTES)


def test_components(board: ttr_core.Board) -> None:
    # [components]: locations 36, routes 95, double_pairs 24, spaces 322, tickets 50, cards 110
    assert board.colors == facts.PENNSYLVANIA_COLORS
    assert board.deck == (facts.PENNSYLVANIA_CARDS_PER_COLOR,) * 8 + (
        facts.PENNSYLVANIA_LOCOMOTIVES,
    )
    assert board.total_cards == 110
    assert board.wild_name == "locomotive"


def test_rule_numbers(board: ttr_core.Board) -> None:
    rules = board.rules
    assert (rules.min_players, rules.max_players) == facts.PENNSYLVANIA_PLAYERS
    assert rules.cars_per_player == facts.PENNSYLVANIA_TRAINS
    assert rules.starting_hand == facts.PENNSYLVANIA_STARTING_HAND
    assert rules.display_size == facts.PENNSYLVANIA_DISPLAY
    assert rules.max_face_up_wilds == 2  # the base reset, assumed: a doubt shown below
    assert rules.end_trigger_cars == facts.PENNSYLVANIA_END_TRIGGER
    assert (rules.start_tickets_dealt, rules.start_tickets_keep) == facts.PENNSYLVANIA_START_TICKETS
    assert (rules.draw_tickets, rules.draw_tickets_keep) == facts.PENNSYLVANIA_DRAW_TICKETS
    assert rules.returned_tickets == facts.PENNSYLVANIA_RETURNED
    assert rules.start_returned_tickets == facts.PENNSYLVANIA_RETURNED
    assert dict(rules.route_points) == facts.PENNSYLVANIA_ROUTE_POINTS
    assert set(rules.route_points) == {r.length for r in board.routes}
    assert rules.both_pair_routes_min_players == facts.PENNSYLVANIA_BOTH_PAIR_ROUTES_MIN_PLAYERS
    assert all(score == 0 for score in rules.start_scores)
    assert rules.wild_routes == ()  # locomotives pay on every route
    assert rules.face_up_wild == "turn"
    assert rules.default_variants == DEFAULT_VARIANTS  # no longest path bonus
    assert dict(board.titles) == {"globetrotter": "Globetrotter"}


def test_globetrotter(board: ttr_core.Board) -> None:
    assert dict(board.variant_data["globetrotter"]) == {"points": facts.PENNSYLVANIA_GLOBETROTTER}
    assert set(board.variant_data) == {"globetrotter", "shares"}


def test_loads_without_any_warning(tmp_path: Path) -> None:
    text = MAP_FILE.read_text(encoding="utf-8")
    copy = tmp_path / "pennsylvania.toml"
    copy.write_text(text, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ttr_core.parse_map(text, source="pennsylvania.toml")
        ttr_core.load_map(copy)  # a fresh file: not served from the cache


@pytest.mark.parametrize("players", [2, 5])
def test_a_random_game_with_the_default_variants_keeps_every_invariant(players: int) -> None:
    state = ttr_core.new_game("pennsylvania", players, seed=7)
    assert state.rules.variants == DEFAULT_VARIANTS
    chooser = random.Random(7)
    report = play_checked(state, lambda _, legal: chooser.choice(legal))
    assert not report.violations, report.violations
    assert report.play.state.is_over


#: Words each doubt the reference and rules files raise must show in an
#: ``unverified`` entry of the map's provenance.
DOUBTS = {
    "ferry locomotives": "the ferries' locomotive spaces",
    "7 -> 18": "route scoring 7 → 18",
    "route points 1-6": "route scoring 1/2/4/7/10/15 for lengths 1-6",
    "logos": "the company logos on the routes",
    "majority points": "the majority points of the 9 companies",
    "Scranton-Williamsport length": "the length of Scranton / Wilkes Barre–Williamsport",
    "route lengths": "every route's length",
    "positions": "positions of the 34 cities and the 2 Ontario landings",
    "ticket draw of 4": "a ticket draw of 4 keeping at least 1",
    "doubles closed to 2-3 players": "double routes: with 2 or 3 players",
    "optional share": "taking a share is optional",
    "display reset, end trigger": "three face-up locomotives reset the display",
    "Ontario landings": "Ontario's two landings are not joined",
    "spellings": "printed spellings",
}


def test_show_map_gives_the_provenance_and_every_doubt(
    board: ttr_core.Board, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--map", "pennsylvania", "--show-map"]) == 0
    shown = capsys.readouterr().out
    assert "36 locations, 95 routes (24 double), 322 spaces, 110 cards" in shown
    assert "50 tickets (50 printed, 0 generated)" in shown
    assert "default variants: ferries, globetrotter, shares\n" in shown
    provenance = board.provenance
    assert provenance is not None and provenance.sources and provenance.verified
    assert f"provenance: {provenance.summary}" in shown
    assert [source for source, _ in provenance.sources] == [
        *("S1", "S2", "W1", "W2", "W3", "W4", "W5", "A1")
    ]
    for source, what in provenance.sources:
        assert f"source {source}: {what}" in shown
    assert len(provenance.unverified) == len(DOUBTS)
    for doubt in provenance.unverified:
        assert f"NOT verified: {doubt}" in shown
    for words in DOUBTS.values():
        (entry,) = [d for d in provenance.unverified if d.startswith(words)]
        assert f"NOT verified: {entry}" in shown
    # The reference's disagreements, named by their labels.
    (logos,) = [d for d in provenance.unverified if "the field companies" in d]
    assert "D3" in logos and "one source (S1)" in logos
    (length,) = [d for d in provenance.unverified if "Williamsport, orange 5" in d]
    assert "D2" in length and "older version has 4" in length
    assert any("D1" in fact for fact in provenance.verified)


def test_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list"]) == 0
    maps_line = next(
        line for line in capsys.readouterr().out.splitlines() if line.startswith("maps:")
    )
    assert "pennsylvania" in maps_line.split(":", 1)[1].replace(",", " ").split()

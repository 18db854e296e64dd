"""The Nederland map data, checked against facts written into this test."""

from __future__ import annotations

from collections import Counter

import pytest

import ttr_core

from . import map_facts

# Tolls of routes 0..96, one digit each, as printed beside the tracks.
TOLLS = (
    "3444221133334441133332222333443311222211112211221134433"
    "114444442233222222223322113322331111221111"
)
# Ticket values, in ticket id order.
TICKET_POINTS = [
    *(7, 9, 10, 10, 12, 12, 12, 13, 13, 13, 14, 14, 14, 14, 14, 14, 15, 15, 15, 16, 16, 17),
    *(18, 18, 19, 19, 20, 20, 21, 21, 21, 22, 22, 23, 24, 24, 26, 26, 29, 31, 31, 32, 33, 34),
]


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    return ttr_core.load_map("nederland")


def test_counts(board: ttr_core.Board) -> None:
    assert len(board.locations) == 30
    assert len(board.routes) == 97
    assert board.total_spaces == 306
    assert sum(1 for r in board.routes if r.partner is not None) == 88  # 44 pairs
    assert len({r.pair for r in board.routes if r.pair is not None}) == 44
    assert sum(1 for r in board.routes if r.partner is None) == 9
    assert len(board.tickets) == 44
    assert Counter(r.length for r in board.routes) == {1: 12, 2: 24, 3: 24, 4: 20, 5: 8, 6: 9}


def test_route_tolls_match_the_board(board: ttr_core.Board) -> None:
    assert len(TOLLS) == 97
    assert [r.extra["toll"] for r in board.routes] == [int(t) for t in TOLLS]
    assert Counter(r.extra["toll"] for r in board.routes) == {1: 26, 2: 30, 3: 25, 4: 16}
    for route in board.routes:
        if route.partner is not None:
            assert board.routes[route.partner].extra["toll"] == route.extra["toll"]


def test_spot_checked_routes(board: ttr_core.Board) -> None:
    def route(rid: int) -> tuple[str, str, str, int, int]:
        r = board.routes[rid]
        return (r.a, r.b, r.color, r.length, r.extra["toll"])

    assert route(1) == ("Waddeneilanden", "Groningen", "yellow", 6, 4)
    assert route(8)[2] == route(9)[2] == "gray"  # Groningen–Emden gray/gray pair
    assert route(38) == ("Enschede", "Duisburg", "white", 6, 1)
    assert route(65) == ("Nijmegen", "Eindhoven", "orange", 3, 3)
    assert route(94) == ("Aarschot", "Liège", "red", 5, 1)
    assert board.routes[94].partner is None


def test_tickets_and_their_neutral_routes(board: ttr_core.Board) -> None:
    assert [t.points for t in board.tickets] == TICKET_POINTS
    neutral = [t.extra["neutral"] for t in board.tickets]
    named = [frozenset(n) for n in neutral if n is not None]
    assert len(named) == 35
    counts = Counter(named)
    assert {pair for pair, n in counts.items() if n == 2} == {
        frozenset({"Amsterdam", "Rotterdam"}),
        frozenset({"Rotterdam", "Antwerpen"}),
    }
    assert len(counts) == 33
    joined = {frozenset((r.a, r.b)): r for r in board.routes}
    for pair in named:
        assert joined[pair].partner is not None  # every neutral route is a double route
    first = board.tickets[0]
    assert (first.a, first.b, first.points, first.extra["neutral"]) == (
        "Breda",
        "Eindhoven",
        7,
        ("Rotterdam", "Antwerpen"),
    )
    assert board.tickets[2].extra["neutral"] is None  # Amsterdam–Rotterdam: a windmill


def test_base_game_components_and_rules(board: ttr_core.Board) -> None:
    assert board.colors == ("purple", "white", "blue", "yellow", "orange", "black", "red", "green")
    assert board.deck == (12,) * 8 + (14,)
    assert board.total_cards == 110
    rules = board.rules
    assert (rules.min_players, rules.max_players) == (2, 5)
    assert rules.cars_per_player == 40
    assert rules.starting_hand == 4
    assert dict(rules.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    assert rules.start_scores == (0, 1, 2, 3, 4)
    assert (rules.start_tickets_dealt, rules.start_tickets_keep) == (5, 3)
    assert (rules.draw_tickets, rules.draw_tickets_keep) == (4, 1)
    assert rules.returned_tickets == "discard"
    assert rules.end_trigger_cars == 2
    assert rules.both_pair_routes_min_players == 4
    assert rules.default_variants == ("tolls",)


def test_printed_city_names_and_their_aliases(board: ttr_core.Board) -> None:
    names = {loc.name for loc in board.locations}
    assert {"'s-Gravenhage", "'s-Hertogenbosch", "Liège", "Waddeneilanden", "Den Helder"} <= names
    for spelling in ("'s-Gravenhage", "’s-Gravenhage", "s-Gravenhage", "Den Haag", "S GRAVENHAGE"):
        assert board.location(spelling).name == "'s-Gravenhage"
    for spelling in ("’s-Hertogenbosch", "s-hertogenbosch", "Den Bosch"):
        assert board.location(spelling).name == "'s-Hertogenbosch"
    assert board.location("Liege").name == "Liège"
    assert board.location("liège").name == "Liège"
    with pytest.raises(KeyError):
        board.location("Dordrecht")


def test_loaded_by_alias() -> None:
    assert ttr_core.load_map("Netherlands") is ttr_core.load_map("nederland")


def test_every_route_and_ticket_matches_the_printed_game(board: ttr_core.Board) -> None:
    assert [
        (r.id, r.a, r.b, r.color, r.length, r.pair, r.extra["toll"]) for r in board.routes
    ] == map_facts.routes(map_facts.NEDERLAND_ROUTES)
    assert [
        (t.id, t.a, t.b, t.points, t.extra["neutral"]) for t in board.tickets
    ] == map_facts.tickets(map_facts.NEDERLAND_TICKETS)

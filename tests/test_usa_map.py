"""The base game's USA map, checked against facts written into this test.

Every route and ticket is locked by ``map_facts.USA_ROUTES`` and
``map_facts.USA_TICKETS``; the counts below are cross-checks of the printed
board (each colour has 7 routes and 27 spaces, which catches a missing or
mis-measured coloured route).
"""

from __future__ import annotations

import warnings
from collections import Counter
from pathlib import Path

import pytest

import ttr_core

from . import map_facts

MAP_FILE = Path(__file__).resolve().parents[1] / "maps" / "usa.toml"

LOCATIONS = {
    *("Atlanta", "Boston", "Calgary", "Charleston", "Chicago", "Dallas"),
    *("Denver", "Duluth", "El Paso", "Helena", "Houston", "Kansas City"),
    *("Las Vegas", "Little Rock", "Los Angeles", "Miami", "Montréal", "Nashville"),
    *("New Orleans", "New York", "Oklahoma City", "Omaha", "Phoenix", "Pittsburgh"),
    *("Portland", "Raleigh", "Saint Louis", "Salt Lake City", "San Francisco", "Santa Fe"),
    *("Sault St. Marie", "Seattle", "Toronto", "Vancouver", "Washington", "Winnipeg"),
}
COLORS = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")
# Lengths of the 7 routes of each colour, sorted.
COLOR_LENGTHS = {
    **dict.fromkeys(("blue", "yellow", "orange", "red", "purple", "black"), (2, 3, 3, 4, 4, 5, 6)),
    **dict.fromkeys(("white", "green"), (2, 2, 3, 4, 5, 5, 6)),
}


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    return ttr_core.load_map("usa")


def test_identity(board: ttr_core.Board) -> None:
    assert board.id == "usa"
    assert board.name == "Ticket to Ride: USA"
    assert board.source == "usa.toml"
    assert {"us", "base"} <= set(board.aliases)
    assert "usa" in ttr_core.available_maps()


@pytest.mark.parametrize("name", ["usa", "USA", "us", "US", "base", "Base"])
def test_loaded_by_name_or_alias(board: ttr_core.Board, name: str) -> None:
    assert ttr_core.load_map(name) is board


def test_counts(board: ttr_core.Board) -> None:
    assert len(board.locations) == 36
    assert {loc.name for loc in board.locations} == LOCATIONS
    assert [loc.id for loc in board.locations] == list(range(36))
    assert len(board.routes) == 100
    assert [r.id for r in board.routes] == list(range(100))
    assert sum(1 for r in board.routes if r.partner is not None) == 44
    assert len({r.pair for r in board.routes if r.pair is not None}) == 22
    assert sum(1 for r in board.routes if r.partner is None) == 56
    assert len({frozenset((r.a, r.b)) for r in board.routes}) == 78
    assert board.total_spaces == sum(r.length for r in board.routes) == 309
    assert Counter(r.length for r in board.routes) == {1: 9, 2: 36, 3: 20, 4: 16, 5: 10, 6: 9}


def test_every_colour_has_seven_routes_and_27_spaces(board: ttr_core.Board) -> None:
    by_color: dict[str, list[int]] = {}
    for route in board.routes:
        by_color.setdefault(route.color, []).append(route.length)
    assert set(by_color) == {*COLORS, ttr_core.GRAY}
    for color in COLORS:
        assert tuple(sorted(by_color[color])) == COLOR_LENGTHS[color], color
        assert sum(by_color[color]) == 27, color
    assert len(by_color[ttr_core.GRAY]) == 44
    assert sum(by_color[ttr_core.GRAY]) == 93


def test_double_routes(board: ttr_core.Board) -> None:
    pairs = [r for r in board.routes if r.partner is not None and r.id < r.partner]
    gray = [r for r in pairs if r.color == board.routes[r.partner].color == ttr_core.GRAY]  # type: ignore[index]
    assert len(pairs) == 22
    assert len(gray) == 10
    for route in pairs:
        other = board.routes[route.partner]  # type: ignore[index]
        assert {other.a, other.b} == {route.a, route.b}
        assert other.length == route.length
        if route.color != ttr_core.GRAY:
            assert other.color != route.color  # a coloured double never repeats a colour
    by_ends = Counter(frozenset((r.a, r.b)) for r in board.routes)
    assert max(by_ends.values()) == 2  # no triple routes


def test_spot_checked_routes(board: ttr_core.Board) -> None:
    def facts(a: str, b: str) -> set[tuple[str, int]]:
        return {(r.color, r.length) for r in board.routes if {r.a, r.b} == {a, b}}

    # the rulebook's worked example: Montréal–New York needs three blue cards,
    # Montréal–Toronto is gray
    assert facts("Montréal", "New York") == {("blue", 3)}
    assert facts("Montréal", "Toronto") == {("gray", 3)}
    assert facts("Salt Lake City", "San Francisco") == {("orange", 5), ("white", 5)}
    assert facts("Calgary", "Winnipeg") == {("white", 6)}
    assert facts("Sault St. Marie", "Winnipeg") == {("gray", 6)}
    assert facts("Seattle", "Vancouver") == {("gray", 1)}
    assert len([r for r in board.routes if {r.a, r.b} == {"Seattle", "Vancouver"}]) == 2


def test_tickets(board: ttr_core.Board) -> None:
    assert len(board.tickets) == 30
    assert [t.id for t in board.tickets] == list(range(30))
    assert sum(t.points for t in board.tickets) == 349
    assert len({frozenset((t.a, t.b)) for t in board.tickets}) == 30
    lowest = min(board.tickets, key=lambda t: t.points)
    highest = max(board.tickets, key=lambda t: t.points)
    assert ({lowest.a, lowest.b}, lowest.points) == ({"Denver", "El Paso"}, 4)
    assert ({highest.a, highest.b}, highest.points) == ({"Seattle", "New York"}, 22)


def test_base_game_components(board: ttr_core.Board) -> None:
    assert board.colors == COLORS
    assert board.deck == (12,) * 8 + (14,)
    assert board.total_cards == 110
    assert board.wild_name == "locomotive"
    assert board.card_names[board.wild] == ttr_core.WILD


def test_rule_numbers(board: ttr_core.Board) -> None:
    rules = board.rules
    assert (rules.min_players, rules.max_players) == (2, 5)
    assert rules.cars_per_player == 45
    assert 5 * rules.cars_per_player < board.total_spaces  # the board never fills
    assert rules.starting_hand == 4
    assert rules.display_size == 5
    assert rules.max_face_up_wilds == 2
    assert (rules.start_tickets_dealt, rules.start_tickets_keep) == (3, 2)
    assert (rules.draw_tickets, rules.draw_tickets_keep) == (3, 1)
    assert rules.returned_tickets == "bottom"
    assert dict(rules.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    assert rules.end_trigger_cars == 2
    assert rules.both_pair_routes_min_players == 4
    assert all(score == 0 for score in rules.start_scores)
    assert rules.default_variants == ("longest_route",)


def test_same_deck_and_display_rules_as_nederland(board: ttr_core.Board) -> None:
    """Nederland is played with the base game's cards: the same deck and display."""
    nl = ttr_core.load_map("nederland")
    assert dict(zip(board.card_names, board.deck, strict=True)) == dict(
        zip(nl.card_names, nl.deck, strict=True)
    )
    assert board.wild_name == nl.wild_name
    for name in ("starting_hand", "display_size", "max_face_up_wilds", "end_trigger_cars"):
        assert getattr(board.rules, name) == getattr(nl.rules, name), name
    assert board.rules.both_pair_routes_min_players == nl.rules.both_pair_routes_min_players


@pytest.mark.parametrize(
    ("spelling", "printed"),
    [
        ("Montréal", "Montréal"),
        ("Montreal", "Montréal"),
        ("montreal", "Montréal"),
        ("Sault St. Marie", "Sault St. Marie"),
        ("Sault Ste. Marie", "Sault St. Marie"),
        ("Sault Ste Marie", "Sault St. Marie"),
        ("sault ste. marie", "Sault St. Marie"),
        ("Saint Louis", "Saint Louis"),
        ("St. Louis", "Saint Louis"),
        ("st louis", "Saint Louis"),
        ("salt lake city", "Salt Lake City"),
        ("Oklahoma City", "Oklahoma City"),
    ],
)
def test_aliases_resolve(board: ttr_core.Board, spelling: str, printed: str) -> None:
    assert board.location(spelling).name == printed


def test_unknown_city(board: ttr_core.Board) -> None:
    with pytest.raises(KeyError):
        board.location("Detroit")


def test_loads_without_any_warning(tmp_path: Path) -> None:
    text = MAP_FILE.read_text(encoding="utf-8")
    copy = tmp_path / "usa.toml"
    copy.write_text(text, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ttr_core.parse_map(text, source="usa.toml")
        ttr_core.load_map(copy)  # a fresh file: not served from the cache


def test_a_new_game_uses_the_map_numbers() -> None:
    state = ttr_core.new_game("usa", 3, seed=4)
    assert state.rules.variants == ("longest_route",)
    assert all(p.cars == 45 and p.hand.total == 4 for p in state.players)
    assert len(state.pending.offered) == 3  # type: ignore[union-attr]
    assert state.rules.both_pair_routes_usable is False
    assert ttr_core.new_game("usa", 4).rules.both_pair_routes_usable is True
    with pytest.raises(ttr_core.PlayerCountError):
        ttr_core.new_game("usa", 6)


def test_every_route_and_ticket_matches_the_printed_game(board: ttr_core.Board) -> None:
    assert [
        (r.id, r.a, r.b, r.color, r.length, r.pair, None) for r in board.routes
    ] == map_facts.routes(map_facts.USA_ROUTES)
    assert [(t.id, t.a, t.b, t.points, None) for t in board.tickets] == map_facts.tickets(
        map_facts.USA_TICKETS
    )

"""The Amsterdam map, checked against facts written into this test.

Every route and the 4 known contracts are locked by
``map_facts.AMSTERDAM_ROUTES``, ``map_facts.AMSTERDAM_CART_ROUTES`` and
``map_facts.AMSTERDAM_TICKETS``. Only 4 of the 24 printed contracts are known:
the loader completes the deck with 20 generated ones and says so with a
``GeneratedTicketsWarning``. Routes 9, 10 and 34 were covered in the only board
photo: their colour (gray) and plain spaces are unverified.
"""

from __future__ import annotations

import warnings
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

import ttr_core

from . import map_facts

LOCATIONS = {
    *("Nieuwe Waal", "Haringpakkerstoren", "Oude Waal", "Montelbaanstoren"),
    *("Noordermarkt", "Korenmetershuisje", "Oude Kerk", "Waag", "Jordaan"),
    *("Jan Roodenpoortstoren", "Dam", "Oost-Indisch Huis", "Westermarkt"),
    *("De Drie Hendricken", "Begijnhof", "Munttoren", "Blauwbrug"),
}
COLORS = ("pink", "blue", "green", "black", "red", "orange")
UNVERIFIED_ROUTES = (9, 10, 34)


def amsterdam_text() -> str:
    packaged = resources.files("ttr_core") / "maps" / "amsterdam.toml"
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (Path(__file__).resolve().parents[1] / "maps" / "amsterdam.toml").read_text("utf-8")


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        return ttr_core.load_map("amsterdam")


def test_identity(board: ttr_core.Board) -> None:
    assert board.id == "amsterdam"
    assert board.name == "Ticket to Ride: Amsterdam"
    assert board.source == "amsterdam.toml"
    assert "ams" in board.aliases
    assert "amsterdam" in ttr_core.available_maps()


@pytest.mark.parametrize("name", ["amsterdam", "Amsterdam", "ams", "AMS"])
def test_loaded_by_name_or_alias(board: ttr_core.Board, name: str) -> None:
    assert ttr_core.load_map(name) is board


def test_counts(board: ttr_core.Board) -> None:
    assert len(board.locations) == 17
    assert {loc.name for loc in board.locations} == LOCATIONS
    assert len(board.routes) == 45
    assert [r.id for r in board.routes] == list(range(45))
    assert len({r.pair for r in board.routes if r.pair is not None}) == 13
    assert sum(1 for r in board.routes if r.partner is not None) == 26
    assert board.total_spaces == sum(r.length for r in board.routes) == 89
    assert Counter(r.length for r in board.routes) == {1: 15, 2: 19, 3: 8, 4: 3}


def test_colours(board: ttr_core.Board) -> None:
    spaces: Counter[str] = Counter()
    routes: Counter[str] = Counter()
    for route in board.routes:
        spaces[route.color] += route.length
        routes[route.color] += 1
    assert spaces == {**dict.fromkeys(COLORS, 9), "red": 10, ttr_core.GRAY: 34}
    assert routes == {**dict.fromkeys(COLORS, 5), "red": 6, ttr_core.GRAY: 14}
    for route in board.routes:
        if route.partner is not None:
            other = board.routes[route.partner]
            assert {other.a, other.b} == {route.a, route.b}
            assert other.length == route.length
            assert other.color != route.color


def test_cart_routes(board: ttr_core.Board) -> None:
    carts = [r for r in board.routes if r.extra["merchandise"]]
    assert len(carts) == 16  # one per merchandise card
    assert sum(r.length for r in carts) == 39
    for ident in UNVERIFIED_ROUTES:
        route = board.routes[ident]
        assert route.color == ttr_core.GRAY
        assert route.extra["merchandise"] is False


def test_contracts(board: ttr_core.Board) -> None:
    assert len(board.tickets) == 24
    assert [t.id for t in board.tickets] == list(range(24))
    printed = board.tickets[:4]
    assert [({t.a, t.b}, t.points) for t in printed] == [
        ({"Dam", "De Drie Hendricken"}, 3),
        ({"Oude Waal", "Blauwbrug"}, 4),
        ({"Jordaan", "Oude Kerk"}, 6),
        ({"Noordermarkt", "Waag"}, 5),
    ]
    assert not any(t.extra.get(ttr_core.GENERATED) for t in printed)
    generated = board.tickets[4:]
    assert len(generated) == 20
    assert all(t.extra[ttr_core.GENERATED] is True for t in generated)
    assert len({frozenset((t.a, t.b)) for t in board.tickets}) == 24


def test_components(board: ttr_core.Board) -> None:
    assert board.colors == COLORS
    assert board.deck == (6,) * 6 + (8,)
    assert board.total_cards == 44
    assert board.wild_name == "joker"
    assert board.card_names[board.wild] == ttr_core.WILD


def test_rule_numbers(board: ttr_core.Board) -> None:
    rules = board.rules
    assert (rules.min_players, rules.max_players) == (2, 4)
    assert rules.cars_per_player == 16
    assert rules.starting_hand == 2
    assert rules.display_size == 5
    assert rules.max_face_up_wilds == 2
    assert (rules.start_tickets_dealt, rules.start_tickets_keep) == (2, 1)
    assert (rules.draw_tickets, rules.draw_tickets_keep) == (2, 1)
    assert rules.returned_tickets == "bottom"
    assert rules.ticket_deck_size == 24
    assert dict(rules.route_points) == {1: 1, 2: 2, 3: 4, 4: 7}
    assert rules.end_trigger_cars == 2
    assert rules.both_pair_routes_min_players == 3
    assert all(score == 0 for score in rules.start_scores)
    assert rules.default_variants == ("merchandise",)


def test_provenance_names_what_is_unverified(board: ttr_core.Board) -> None:
    provenance = board.provenance
    assert provenance is not None
    assert provenance.summary
    assert {ident for ident, _ in provenance.sources} >= {"P1", "C1", "S2", "R"}
    assert provenance.verified
    unverified = " / ".join(provenance.unverified)
    assert "20 of the 24 contracts" in unverified
    assert "routes 9 (Oude Waal–Oude Kerk), 10 (Noordermarkt–Korenmetershuisje)" in unverified
    assert "34 (Dam–Begijnhof)" in unverified
    assert "cart symbol of routes 9, 10 and 34" in unverified


@pytest.mark.parametrize(
    ("spelling", "printed"),
    [
        ("Oost Indisch Huis", "Oost-Indisch Huis"),
        ("oost-indisch huis", "Oost-Indisch Huis"),
        ("de drie hendricken", "De Drie Hendricken"),
        ("JAN ROODENPOORTSTOREN", "Jan Roodenpoortstoren"),
        ("Dam", "Dam"),
    ],
)
def test_location_spellings_resolve(board: ttr_core.Board, spelling: str, printed: str) -> None:
    assert board.location(spelling).name == printed


def test_loads_with_one_generated_tickets_warning() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        board = ttr_core.parse_map(amsterdam_text(), "amsterdam.toml")
    categories = [w.category for w in caught]
    assert categories == [ttr_core.GeneratedTicketsWarning]
    assert not any(issubclass(c, ttr_core.MapWarning) for c in categories)
    assert "4 of the 24" in str(caught[0].message)
    assert len(board.tickets) == 24


def test_a_new_game_uses_the_map_numbers(board: ttr_core.Board) -> None:
    state = ttr_core.new_game(board, 2, seed=3)
    assert state.rules.variants == ("merchandise",)
    assert all(p.cars == 16 and p.hand.total == 2 for p in state.players)
    assert state.rules.both_pair_routes_usable is False
    assert ttr_core.new_game(board, 3, seed=3).rules.both_pair_routes_usable is True
    with pytest.raises(ttr_core.PlayerCountError):
        ttr_core.new_game(board, 5)


def test_every_route_and_contract_matches_the_printed_game(board: ttr_core.Board) -> None:
    assert [
        (r.id, r.a, r.b, r.color, r.length, r.pair, None) for r in board.routes
    ] == map_facts.routes(map_facts.AMSTERDAM_ROUTES)
    assert [r.id for r in board.routes if r.extra["merchandise"]] == (
        map_facts.AMSTERDAM_CART_ROUTES
    )
    assert [(t.id, t.a, t.b, t.points, None) for t in board.tickets[:4]] == map_facts.tickets(
        map_facts.AMSTERDAM_TICKETS
    )

"""Ticket to Ride: Europe's map, checked against facts written into the tests.

Every route and ticket is locked by ``map_facts.EUROPE_ROUTES`` and
``map_facts.EUROPE_TICKETS``; the tunnels, the ferries' locomotive spaces and
the long tickets by ``map_facts.EUROPE_TUNNEL_ROUTES``,
``EUROPE_FERRY_LOCOMOTIVES`` and ``EUROPE_LONG_TICKETS``. The counts below are
cross-checks of the printed board (each colour has 8 routes, which catches a
missing coloured route; 44 of the 46 ticket values equal the fewest spaces
between their ends, which catches a mis-measured route).

The Europe mechanics (tunnels, ferries, stations, long tickets) are variants
not written yet: the map declares their printed data in its own ``[fields]``,
and a game without them plays every route as a plain one.
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
from .helpers import card_total, claim, route_id, started

MAP_FILE = Path(__file__).resolve().parents[1] / "maps" / "europe.toml"

CITIES = {
    *("Amsterdam", "Angora", "Athina", "Barcelona", "Berlin", "Brest", "Brindisi"),
    *("Bruxelles", "Bucuresti", "Budapest", "Cadiz", "Constantinople", "Danzig"),
    *("Dieppe", "Edinburgh", "Erzurum", "Essen", "Frankfurt", "Kharkov", "Kobenhavn"),
    *("Kyiv", "Lisboa", "London", "Madrid", "Marseille", "Moskva", "München"),
    *("Palermo", "Pamplona", "Paris", "Petrograd", "Riga", "Roma", "Rostov"),
    *("Sarajevo", "Sevastopol", "Smolensk", "Smyrna", "Sochi", "Sofia", "Stockholm"),
    *("Venezia", "Warszawa", "Wien", "Wilno", "Zagrab", "Zürich"),
}
COLORS = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    return ttr_core.load_map("europe")


def test_identity(board: ttr_core.Board) -> None:
    assert board.id == "europe"
    assert board.name == "Ticket to Ride: Europe"
    assert board.source == "europe.toml"
    assert "europe" in ttr_core.available_maps()


@pytest.mark.parametrize("name", ["europe", "Europe", "EUROPE", "eu", "europa"])
def test_loaded_by_name_or_alias(board: ttr_core.Board, name: str) -> None:
    assert ttr_core.load_map(name) is board


def test_counts(board: ttr_core.Board) -> None:
    assert len(board.locations) == 47
    assert {loc.name for loc in board.locations} == CITIES
    assert len(board.routes) == 101
    assert [r.id for r in board.routes] == list(range(101))
    assert len({r.pair for r in board.routes if r.pair is not None}) == 11
    assert sum(1 for r in board.routes if r.partner is None) == 79
    assert len({frozenset((r.a, r.b)) for r in board.routes}) == 90
    assert board.total_spaces == 300
    assert Counter(r.length for r in board.routes) == {1: 4, 2: 35, 3: 30, 4: 29, 6: 2, 8: 1}


def test_every_colour_has_eight_routes(board: ttr_core.Board) -> None:
    by_color: dict[str, list[int]] = {}
    for route in board.routes:
        by_color.setdefault(route.color, []).append(route.length)
    assert set(by_color) == {*COLORS, ttr_core.GRAY}
    for color in COLORS:
        assert len(by_color[color]) == 8, color
        assert sum(by_color[color]) == (23 if color in ("blue", "green") else 22), color
    assert sorted(by_color["blue"]) == sorted(by_color["green"]) == [2, 2, 2, 2, 3, 4, 4, 4]
    assert (len(by_color[ttr_core.GRAY]), sum(by_color[ttr_core.GRAY])) == (37, 122)


def test_tunnels(board: ttr_core.Board) -> None:
    tunnels = [r for r in board.routes if r.extra["tunnel"]]
    assert len(tunnels) == 18
    assert sum(r.length for r in tunnels) == 55
    assert Counter(r.color for r in tunnels) == {ttr_core.GRAY: 10, **dict.fromkeys(COLORS, 1)}
    # The longest routes: Budapest–Kyiv (6) and Petrograd–Stockholm (8) are gray tunnels.
    assert {(r.a, r.b, r.length) for r in tunnels if r.length >= 6} == {
        ("Budapest", "Kyiv", 6),
        ("Petrograd", "Stockholm", 8),
    }
    # The field is written only on tunnels: the others leave it unset.
    assert all(r.extra["tunnel"] is None for r in board.routes if r not in tunnels)


def test_ferries(board: ttr_core.Board) -> None:
    ferries = [r for r in board.routes if r.extra["locomotives"]]
    assert len(ferries) == 13
    assert sum(r.extra["locomotives"] for r in ferries) == 17
    assert sum(r.length for r in ferries) == 41
    assert Counter(r.extra["locomotives"] for r in ferries) == {1: 9, 2: 4}
    assert all(r.color == ttr_core.GRAY and not r.extra["tunnel"] for r in ferries)
    assert all(r.extra["locomotives"] <= r.length for r in ferries)
    # Amsterdam–London is all locomotive spaces: two of two.
    assert [(r.a, r.b) for r in ferries if r.extra["locomotives"] == r.length] == [
        ("Amsterdam", "London")
    ]
    # The rulebook's example: Palermo–Smyrna takes 4 cards of one colour + 2 locomotives.
    (example,) = [r for r in ferries if {r.a, r.b} == {"Palermo", "Smyrna"}]
    assert (example.length, example.extra["locomotives"]) == (6, 2)
    assert all(r.extra["locomotives"] is None for r in board.routes if r not in ferries)


def test_double_routes(board: ttr_core.Board) -> None:
    pairs = [r for r in board.routes if r.partner is not None and r.id < r.partner]
    assert len(pairs) == 11
    gray = []
    for route in pairs:
        other = board.routes[route.partner]  # type: ignore[index]
        assert {other.a, other.b} == {route.a, route.b}
        assert other.length == route.length
        assert other.extra == route.extra  # same tunnel and ferry status
        if route.color == ttr_core.GRAY:
            gray.append((route.a, route.b))
            assert other.color == ttr_core.GRAY and route.extra["locomotives"] == 1
        else:
            assert other.color not in (route.color, ttr_core.GRAY)
    assert sorted(gray) == [("Dieppe", "London"), ("Essen", "Kobenhavn")]
    madrid = {
        (r.color, r.extra["tunnel"]) for r in board.routes if {r.a, r.b} == {"Madrid", "Pamplona"}
    }
    assert madrid == {("black", True), ("white", True)}  # the rulebook's two parallel tunnels
    assert max(Counter(frozenset((r.a, r.b)) for r in board.routes).values()) == 2


def test_tickets(board: ttr_core.Board) -> None:
    assert len(board.tickets) == 46
    assert [t.id for t in board.tickets] == list(range(46))
    assert len({frozenset((t.a, t.b)) for t in board.tickets}) == 46
    long = [t for t in board.tickets if t.extra["long"]]
    regular = [t for t in board.tickets if not t.extra["long"]]
    assert [t.id for t in long] == list(range(6))
    assert sorted(t.points for t in long) == [20, 20, 20, 21, 21, 21]
    assert sum(t.points for t in long) == 123
    assert all(t.extra["long"] is None for t in regular)
    assert len(regular) == 40 and sum(t.points for t in regular) == 321
    assert Counter(t.points for t in regular) == {
        **{5: 5, 6: 5, 7: 5, 8: 13, 9: 2},
        **{10: 5, 11: 2, 12: 2, 13: 1},
    }


def test_ticket_values_are_the_fewest_spaces_but_two(board: ttr_core.Board) -> None:
    """44 tickets are worth the fewest spaces between their ends; the other two,
    read clearly on the cards, one more."""
    spaces = ttr_core.shortest_spaces(board)
    off = {(t.a, t.b): t.points - spaces[t.a, t.b] for t in board.tickets}
    assert {k: v for k, v in off.items() if v} == {
        ("Edinburgh", "Athina"): 1,
        ("London", "Wien"): 1,
    }


def test_components(board: ttr_core.Board) -> None:
    assert board.colors == COLORS
    assert board.deck == (12,) * 8 + (14,)
    assert board.total_cards == 110
    assert board.wild_name == "locomotive"


def test_rule_numbers(board: ttr_core.Board) -> None:
    rules = board.rules
    assert (rules.min_players, rules.max_players) == (2, 5)
    assert rules.cars_per_player == 45
    assert 5 * rules.cars_per_player < board.total_spaces  # the board never fills
    assert rules.starting_hand == 4
    assert rules.display_size == 5
    assert rules.max_face_up_wilds == 2
    # 4 dealt (the long-ticket variant makes it 1 long + 3 regular), keep at least 2
    assert (rules.start_tickets_dealt, rules.start_tickets_keep) == (4, 2)
    assert (rules.draw_tickets, rules.draw_tickets_keep) == (3, 1)
    assert rules.returned_tickets == "bottom"
    assert dict(rules.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}
    assert rules.end_trigger_cars == 2
    assert rules.both_pair_routes_min_players == 4
    assert all(score == 0 for score in rules.start_scores)
    assert rules.default_variants == (
        "tunnels",
        "ferries",
        "stations",
        "long_tickets",
        "longest_route",
    )
    assert dict(board.titles) == {"longest_route": "European Express"}


def test_positions(board: ttr_core.Board) -> None:
    assert board.aspect == 1.55  # 1744 x 1125 px
    pos = {loc.name: loc.pos for loc in board.locations}
    assert pos["Edinburgh"] == (0.1445, 0.0516)
    assert pos["Zürich"] == (0.3658, 0.5813)
    assert len(set(pos.values())) == 47
    xs = {name: p[0] for name, p in pos.items() if p is not None}
    ys = {name: p[1] for name, p in pos.items() if p is not None}
    assert min(xs, key=xs.__getitem__) == "Lisboa"  # west
    assert max(xs, key=xs.__getitem__) == "Rostov"  # east
    assert min(ys, key=ys.__getitem__) == "Stockholm"  # north
    assert max(ys, key=ys.__getitem__) == "Cadiz"  # south


@pytest.mark.parametrize(
    ("spelling", "printed"),
    [
        ("Athína", "Athina"),
        ("Cádiz", "Cadiz"),
        ("København", "Kobenhavn"),
        ("Kyïv", "Kyiv"),
        ("Zágráb", "Zagrab"),
        ("Zurich", "Zürich"),
        ("munchen", "München"),
        ("Munich", "München"),
        ("Vienna", "Wien"),
        ("Istanbul", "Constantinople"),
        ("St Petersburg", "Petrograd"),
        ("gdansk", "Danzig"),
    ],
)
def test_card_and_english_spellings_resolve(
    board: ttr_core.Board, spelling: str, printed: str
) -> None:
    assert board.location(spelling).name == printed


def test_loads_without_any_warning(tmp_path: Path) -> None:
    text = MAP_FILE.read_text(encoding="utf-8")
    copy = tmp_path / "europe.toml"
    copy.write_text(text, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ttr_core.parse_map(text, source="europe.toml")
        ttr_core.load_map(copy)  # a fresh file: not served from the cache


def test_every_route_and_ticket_matches_the_printed_game(board: ttr_core.Board) -> None:
    assert [
        (r.id, r.a, r.b, r.color, r.length, r.pair, None) for r in board.routes
    ] == map_facts.routes(map_facts.EUROPE_ROUTES)
    assert [r.id for r in board.routes if r.extra["tunnel"]] == map_facts.EUROPE_TUNNEL_ROUTES
    assert {
        r.id: r.extra["locomotives"] for r in board.routes if r.extra["locomotives"]
    } == map_facts.EUROPE_FERRY_LOCOMOTIVES
    assert [(t.id, t.a, t.b, t.points, None) for t in board.tickets] == map_facts.tickets(
        map_facts.EUROPE_TICKETS
    )
    assert [t.id for t in board.tickets if t.extra["long"]] == map_facts.EUROPE_LONG_TICKETS


def test_a_new_game_uses_the_map_numbers() -> None:
    state = ttr_core.new_game("europe", 3, seed=4)
    assert state.rules.variants == (
        "tunnels",
        "ferries",
        "stations",
        "long_tickets",
        "longest_route",
    )
    assert all(p.cars == 45 and p.hand.total == 4 for p in state.players)
    assert len(state.pending.offered) == 4  # type: ignore[union-attr]
    with pytest.raises(ttr_core.PlayerCountError):
        ttr_core.new_game("europe", 6)


@pytest.mark.parametrize(("players", "both"), [(2, False), (3, False), (4, True), (5, True)])
def test_double_routes_for_2_3_and_4_5_players(players: int, both: bool) -> None:
    state = started(ttr_core.new_game("europe", players, seed=1, variants=()))
    assert state.rules.both_pair_routes_usable is both
    black = route_id(state, "Berlin", "Frankfurt", "black")
    red = route_id(state, "Berlin", "Frankfurt", "red")
    state = claim(state, 0, black, "black")
    if both:
        state = claim(state, 1, red, "red")
        assert state.owners[red] == 1
    else:
        with pytest.raises(ttr_core.IllegalAction):
            claim(state, 1, red, "red")


@pytest.mark.parametrize("players", [2, 5])
def test_a_random_game_without_variants_plays_to_its_end(players: int) -> None:
    for seed in range(3):
        state = ttr_core.new_game("europe", players, seed=seed, variants=())
        chooser = random.Random(seed)
        steps = 0
        while not state.is_over:
            legal = ttr_core.legal_actions(state)
            state = ttr_core.apply(state, chooser.choice(legal))
            steps += 1
            assert steps < 5000
        assert card_total(state) == 110
        sheets = ttr_core.final_scores(state).sheets
        assert len(sheets) == players
        assert not any("European Express" in line.label for s in sheets for line in s.lines)


@pytest.mark.parametrize("players", [2, 5])
def test_a_random_game_keeps_every_invariant(players: int) -> None:
    state = ttr_core.new_game("europe", players, seed=7, variants=())
    chooser = random.Random(7)
    report = play_checked(state, lambda _, legal: chooser.choice(legal))
    assert not report.violations, report.violations
    assert report.play.state.is_over


def test_the_european_express_is_titled_by_the_map() -> None:
    state = ttr_core.new_game("europe", 2, seed=3)
    chooser = random.Random(3)
    while not state.is_over:
        state = ttr_core.apply(state, chooser.choice(ttr_core.legal_actions(state)))
    labels = [line.label for s in ttr_core.final_scores(state).sheets for line in s.lines]
    assert sum(label.startswith("European Express: ") for label in labels) == 2
    assert not any(label.startswith("Longest path") for label in labels)


def test_show_map_gives_the_provenance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--map", "europe", "--show-map"]) == 0
    shown = capsys.readouterr().out
    assert "47 locations, 101 routes (11 double), 300 spaces, 110 cards" in shown
    assert "46 tickets (46 printed, 0 generated)" in shown
    assert "default variants: tunnels, ferries, stations, long_tickets, longest_route" in shown
    assert "provenance: Every route and ticket from two independent data tables" in shown
    assert "source S1: the Board Game Arena implementation" in shown
    assert "NOT verified: positions of the 47 cities" in shown


@pytest.mark.parametrize("name", ttr_core.available_maps())
def test_every_printed_map_gives_its_provenance(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--map", name, "--show-map"]) == 0
    shown = capsys.readouterr().out
    assert "provenance: not given" not in shown
    provenance = ttr_core.load_map(name).provenance
    assert provenance is not None and provenance.sources and provenance.verified
    assert f"provenance: {provenance.summary}" in shown


def test_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list"]) == 0
    maps_line = next(
        line for line in capsys.readouterr().out.splitlines() if line.startswith("maps:")
    )
    assert "europe" in maps_line.split(":", 1)[1].replace(",", " ").split()

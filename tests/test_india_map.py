"""Ticket to Ride: India's map, checked against facts written into the tests.

Every location (its aliases and position), route and ticket is locked by
``map_facts`` (``INDIA_LOCATIONS``, ``INDIA_ROUTES``, ``INDIA_TICKETS``),
the ferries' locomotive spaces by ``INDIA_FERRY_LOCOMOTIVES``, the rule numbers
and the Grand Tour (Mandala) table by the module's constants; that module is
transcribed from the reference tables, not read from ``maps/india.toml``. The
counts below are cross-checks of the printed board (each of the 8 colours
covers 20 spaces, which catches a route given the wrong colour or length; all
58 ticket values equal the fewest spaces between their ends, which catches a
mis-measured route).

The four names the sources spell two ways (Jorhat/Jarhat, Ratlam/Ratiam,
Mormugao/Mormugau, Waltair/Waltain) are locked by
``test_other_spellings_are_aliases`` and must each be a doubt of the
provenance (``test_provenance_lists_every_doubt``). Double routes open both
halves only with 4 players (``test_double_routes_by_player_count``).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from pathlib import Path

import pytest

import ttr_core
from ttr_core import ClaimRoute, IllegalAction
from ttr_core.checking.verify import play_checked
from ttr_core.cli import main

from . import map_facts as facts
from .helpers import claim, route_id, started, with_hand

MAP_FILE = Path(__file__).resolve().parents[1] / "maps" / "india.toml"

LOCATIONS = facts.locations(facts.INDIA_LOCATIONS)
ROUTES = facts.routes(facts.INDIA_ROUTES)
TICKETS = facts.tickets(facts.INDIA_TICKETS)
COLORS = tuple(facts.INDIA_COLORS)
DEFAULT_VARIANTS = ("ferries", "longest_route", "mandala")
#: Routes and spaces of each colour, counted here from the reference data.
COLOR_COUNTS = {
    **dict.fromkeys(("purple", "blue", "white", "green", "black", "red"), (10, 20)),
    **dict.fromkeys(("orange", "yellow"), (9, 20)),
    ttr_core.GRAY: (30, 78),
}
#: Phrases each doubt of the provenance must carry: one per doubt of the
#: reference and rules files (a misprint names both spellings).
DOUBTS = {
    "Jorhat": ("Jorhat", "Jarhat"),
    "Ratlam": ("Ratlam", "Ratiam"),
    "Mormugao": ("Mormugao", "Mormugau"),
    "Waltair": ("Waltair", "Waltain"),
    "positions": ("positions of the 39 cities", "one table"),
    "art": ("nothing was read off the printed board",),
    "scoring": ("route scoring 1/2/4/7/15/21",),
    "grand tour": ("Grand Tour path rule", "share no route"),
    "ticket 17": ("Peshawar–Madras", "17", "16"),
    "base rules": ("reset the display", "2 or fewer trains"),
    "globetrotter": ("no Globetrotter bonus", "S1"),
    "locomotive count": ("12 locomotive spaces", "13", "not counted on the art"),
}


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    return ttr_core.load_map("india")


def test_identity(board: ttr_core.Board) -> None:
    assert board.id == "india"
    assert board.name == "Ticket to Ride: India"
    assert board.source == "india.toml"
    assert board.pieces == "trains"
    assert "india" in ttr_core.available_maps()


@pytest.mark.parametrize("name", ["india", "India", "INDIA"])
def test_loaded_by_name(board: ttr_core.Board, name: str) -> None:
    assert ttr_core.load_map(name) is board


def test_loads_without_any_warning(tmp_path: Path) -> None:
    text = MAP_FILE.read_text(encoding="utf-8")
    copy = tmp_path / "india.toml"
    copy.write_text(text, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ttr_core.parse_map(text, source="india.toml")
        ttr_core.load_map(copy)  # a fresh file: not served from the cache


def test_locations_and_aliases(board: ttr_core.Board) -> None:
    assert len(LOCATIONS) == 39
    assert [(loc.id, loc.name, loc.aliases) for loc in board.locations] == [
        (i, name, aliases) for i, (name, aliases, _) in enumerate(LOCATIONS)
    ]


def test_positions(board: ttr_core.Board) -> None:
    assert board.aspect == 0.645  # 1125 x 1744 px: the board stands upright
    assert [loc.pos for loc in board.locations] == [pos for _, _, pos in LOCATIONS]
    placed = [loc.pos for loc in board.locations if loc.pos is not None]
    assert len(placed) == len(set(placed)) == 39  # every location has its own place
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in placed)
    xs = {loc.name: loc.pos[0] for loc in board.locations if loc.pos is not None}
    ys = {loc.name: loc.pos[1] for loc in board.locations if loc.pos is not None}
    assert min(xs, key=xs.__getitem__) == "Karachi"  # west
    assert max(xs, key=xs.__getitem__) == "Jorhat"  # east
    assert min(ys, key=ys.__getitem__) == "Peshawar"  # north
    assert max(ys, key=ys.__getitem__) == "Quilon"  # south


@pytest.mark.parametrize(("name", "other"), sorted(facts.INDIA_MISPRINTS.items()))
def test_other_spellings_are_aliases(board: ttr_core.Board, name: str, other: str) -> None:
    location = board.location(other)
    assert location.name == name  # the real place's spelling is the name
    assert other in location.aliases  # the other spelling a source writes, an alias
    assert board.location(other.lower()) is location
    assert all(other not in (r.a, r.b) for r in board.routes)  # the file uses the name
    assert sum(name in (r.a, r.b) for r in board.routes) > 0


@pytest.mark.parametrize(
    ("spelling", "printed"),
    [
        ("Mumbai", "Bombay"),
        ("Kolkata", "Calcutta"),
        ("Chennai", "Madras"),
        ("Vijayawada", "Bezwada"),
        ("Kozhikode", "Calicut"),
        ("Nizamabad", "Indur"),
        ("Pune", "Poona"),
        ("Kollam", "Quilon"),
        ("Visakhapatnam", "Waltair"),
    ],
)
def test_modern_names_resolve(board: ttr_core.Board, spelling: str, printed: str) -> None:
    assert board.location(spelling).name == printed


def test_counts(board: ttr_core.Board) -> None:
    assert len(ROUTES) == 108 and len(TICKETS) == 58
    assert len(board.routes) == 108
    assert [r.id for r in board.routes] == list(range(108))
    assert len({r.pair for r in board.routes if r.pair is not None}) == 28
    assert sum(1 for r in board.routes if r.partner is None) == 52
    assert len({frozenset((r.a, r.b)) for r in board.routes}) == 80
    assert board.total_spaces == 238
    assert Counter(r.length for r in board.routes) == {1: 31, 2: 47, 3: 17, 4: 9, 6: 3, 8: 1}
    assert {r.length for r in board.routes} == set(facts.INDIA_ROUTE_POINTS)


def test_routes_and_spaces_of_each_colour(board: ttr_core.Board) -> None:
    counted: dict[str, tuple[int, int]] = {}
    for _, _, _, color, length, _, _ in ROUTES:
        routes, spaces = counted.get(color, (0, 0))
        counted[color] = (routes + 1, spaces + length)
    assert counted == COLOR_COUNTS  # the table above is the reference data's
    by_color: dict[str, list[int]] = {}
    for route in board.routes:
        by_color.setdefault(route.color, []).append(route.length)
    assert set(by_color) == {*COLORS, ttr_core.GRAY}
    assert {color: (len(ls), sum(ls)) for color, ls in by_color.items()} == COLOR_COUNTS


def test_every_route_and_ticket_matches_the_reference(board: ttr_core.Board) -> None:
    assert [(r.id, r.a, r.b, r.color, r.length, r.pair, None) for r in board.routes] == ROUTES
    assert {
        r.id: r.extra["locomotives"] for r in board.routes if r.extra["locomotives"]
    } == facts.INDIA_FERRY_LOCOMOTIVES
    assert [(t.id, t.a, t.b, t.points, None) for t in board.tickets] == TICKETS


def test_ferries(board: ttr_core.Board) -> None:
    ferries = [r for r in board.routes if r.extra["locomotives"]]
    assert len(ferries) == 8
    assert sum(r.extra["locomotives"] for r in ferries) == 12
    assert all(r.color == ttr_core.GRAY for r in ferries)
    assert all(r.extra["locomotives"] < r.length for r in ferries)
    assert sorted({(r.a, r.b, r.length, r.extra["locomotives"]) for r in ferries}) == [
        ("Bombay", "Calicut", 6, 2),
        ("Bombay", "Karachi", 6, 2),
        ("Calcutta", "Chittagong", 2, 1),
        ("Calcutta", "Madras", 8, 2),
        ("Calicut", "Quilon", 2, 1),
    ]
    # Bombay–Karachi, Calcutta–Chittagong and Calicut–Quilon are double ferries.
    assert sum(r.partner is not None for r in ferries) == 6
    # The field is written only on ferries; no tunnels on this board.
    assert all(r.extra["locomotives"] is None for r in board.routes if r not in ferries)
    assert not any(r.extra.get("tunnel") for r in board.routes)


def test_a_ferry_needs_its_locomotives() -> None:
    state = started(ttr_core.new_game("india", 2, seed=1))
    assert "ferries" in state.rules.variants
    madras = route_id(state, "Calcutta", "Madras")
    rich = with_hand(state, 0, red=8, wild=8)
    rich = ttr_core.apply(rich, ClaimRoute(0, madras, "red", 2))  # 6 red + 2 locomotives
    assert rich.owners[madras] == 0
    with pytest.raises(IllegalAction):
        claim(state, 0, madras, "red", wilds=1)


def test_double_routes(board: ttr_core.Board) -> None:
    pairs = [r for r in board.routes if r.partner is not None and r.id < r.partner]
    assert len(pairs) == 28
    for route in pairs:
        other = board.routes[route.partner]  # type: ignore[index]
        assert other.partner == route.id and other.pair == route.pair
        assert {other.a, other.b} == {route.a, route.b}
        assert other.length == route.length and other.extra == route.extra
        assert other.color != route.color or route.color == ttr_core.GRAY
    assert max(Counter(frozenset((r.a, r.b)) for r in board.routes).values()) == 2
    gray_pairs = sorted((r.a, r.b) for r in pairs if r.color == ttr_core.GRAY)
    assert gray_pairs == [
        ("Ambala", "Delhi"),
        ("Bhatinda", "Lahore"),
        ("Bhopal", "Bilaspur"),
        ("Bombay", "Karachi"),
        ("Calcutta", "Chittagong"),
        ("Calcutta", "Dhubri"),
        ("Calicut", "Quilon"),
        ("Dhubri", "Jorhat"),
        ("Katni", "Patna"),
    ]


@pytest.mark.parametrize(("players", "both"), [(2, False), (3, False), (4, True)])
def test_double_routes_by_player_count(players: int, both: bool) -> None:
    state = started(ttr_core.new_game("india", players, seed=1))
    assert state.board.rules.both_pair_routes_min_players == (
        facts.INDIA_BOTH_PAIR_ROUTES_MIN_PLAYERS
    )
    assert state.rules.both_pair_routes_usable is both
    purple = route_id(state, "Agra", "Bhopal", "purple")
    red = route_id(state, "Agra", "Bhopal", "red")
    state = claim(state, 0, purple, "purple")
    if both:
        state = claim(state, 1, red, "red")
        assert state.owners[red] == 1
    else:
        with pytest.raises(IllegalAction):
            claim(state, 1, red, "red")


def test_tickets(board: ttr_core.Board) -> None:
    assert len(board.tickets) == 58
    assert [t.id for t in board.tickets] == list(range(58))
    assert len({frozenset((t.a, t.b)) for t in board.tickets}) == 58
    names = {name for name, _, _ in LOCATIONS}
    assert all({t.a, t.b} <= names and not t.more for t in board.tickets)
    assert sum(t.points for t in board.tickets) == 473
    assert Counter(t.points for t in board.tickets) == {
        **{5: 14, 6: 6, 7: 8, 8: 4, 9: 9, 10: 6},
        **{11: 3, 12: 3, 13: 4, 17: 1},
    }
    (highest,) = [t for t in board.tickets if t.points == 17]
    assert (highest.a, highest.b) == ("Peshawar", "Madras")
    assert dict(board.regions) == {}  # every ticket joins two cities


def test_ticket_values_are_the_fewest_spaces(board: ttr_core.Board) -> None:
    spaces = ttr_core.shortest_spaces(board)
    off = {(t.a, t.b): t.points - spaces[t.a, t.b] for t in board.tickets}
    assert len(off) == 58
    assert {k: v for k, v in off.items() if v} == {}


def test_cards(board: ttr_core.Board) -> None:
    assert board.colors == COLORS
    assert board.deck == (*facts.INDIA_COLORS.values(), facts.INDIA_WILDS)
    assert board.total_cards == 110
    assert board.wild_name == "locomotive"


def test_rule_numbers(board: ttr_core.Board) -> None:
    rules = board.rules
    assert (rules.min_players, rules.max_players) == facts.INDIA_PLAYERS
    assert rules.cars_per_player == facts.INDIA_CARS_PER_PLAYER
    assert rules.starting_hand == facts.INDIA_STARTING_HAND
    assert rules.display_size == facts.INDIA_DISPLAY_SIZE
    assert rules.max_face_up_wilds == facts.INDIA_MAX_FACE_UP_WILDS
    assert rules.end_trigger_cars == facts.INDIA_END_TRIGGER_CARS
    deal = (rules.start_tickets_dealt, rules.start_tickets_keep)
    assert deal == facts.INDIA_TICKET_DEAL
    assert (rules.draw_tickets, rules.draw_tickets_keep) == facts.INDIA_TICKET_DRAW
    assert rules.returned_tickets == facts.INDIA_TICKETS_RETURNED
    assert rules.start_returned_tickets == facts.INDIA_TICKETS_RETURNED
    assert dict(rules.route_points) == facts.INDIA_ROUTE_POINTS
    assert rules.both_pair_routes_min_players == facts.INDIA_BOTH_PAIR_ROUTES_MIN_PLAYERS
    assert all(score == 0 for score in rules.start_scores)
    assert rules.wild_routes == ()  # locomotives pay every route
    assert rules.face_up_wild == "turn"  # a face-up locomotive is the whole draw
    assert rules.default_variants == DEFAULT_VARIANTS
    assert dict(board.titles) == {
        "longest_route": "Indian Express",
        "mandala": "Grand Tour of India",
    }


def test_a_new_game_uses_the_map_numbers() -> None:
    state = ttr_core.new_game("india", 4, seed=4)
    assert state.rules.variants == DEFAULT_VARIANTS
    assert all(p.cars == 45 and p.hand.total == 4 for p in state.players)
    assert len(state.pending.offered) == 4  # type: ignore[union-attr]
    for players in (1, 5):
        with pytest.raises(ttr_core.PlayerCountError):
            ttr_core.new_game("india", players)


def test_mandala_table(board: ttr_core.Board) -> None:
    assert {name: dict(data) for name, data in board.variant_data.items()} == {
        "mandala": {"bonus": facts.INDIA_MANDALA_BONUS},
    }
    assert len(facts.INDIA_MANDALA_BONUS) == 5  # 1, 2, 3, 4, and 5 or more tickets


def test_provenance_lists_every_doubt(board: ttr_core.Board) -> None:
    provenance = board.provenance
    assert provenance is not None and provenance.summary and provenance.verified
    assert [source for source, _ in provenance.sources] == [
        "S1",
        "S2",
        "W1",
        "W2",
        "W3",
        "W4",
        "W5",
    ]
    assert len(provenance.unverified) == len(DOUBTS)
    for doubt, phrases in DOUBTS.items():
        matching = [d for d in provenance.unverified if all(p in d for p in phrases)]
        assert len(matching) == 1, doubt
    for name, other in facts.INDIA_MISPRINTS.items():
        (entry,) = [d for d in provenance.unverified if d.startswith(f"misprint {name}/")]
        assert entry.startswith(f"misprint {name}/{other}:")
        assert f"{other} an alias" in entry
        assert name in provenance.summary and other in provenance.summary


def test_show_map_gives_the_provenance_every_doubt_and_the_misprints(
    board: ttr_core.Board, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--map", "india", "--show-map"]) == 0
    shown = capsys.readouterr().out
    assert "39 locations, 108 routes (28 double), 238 spaces, 110 cards" in shown
    assert "58 tickets (58 printed, 0 generated); 2–4 players, 45 trains each" in shown
    assert "default variants: ferries, longest_route, mandala\n" in shown
    provenance = board.provenance
    assert provenance is not None
    assert f"provenance: {provenance.summary}" in shown
    for source, what in provenance.sources:
        assert f"source {source}: {what}" in shown
    for doubt in provenance.unverified:
        assert f"NOT verified: {doubt}" in shown
    for name, other in facts.INDIA_MISPRINTS.items():
        assert f"NOT verified: misprint {name}/{other}:" in shown


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_random_game_with_the_default_variants_keeps_every_invariant(players: int) -> None:
    state = ttr_core.new_game("india", players, seed=7)
    assert state.rules.variants == DEFAULT_VARIANTS
    chooser = random.Random(7)
    report = play_checked(state, lambda _, legal: chooser.choice(legal))
    assert not report.violations, report.violations
    assert report.play.state.is_over
    assert len(report.play.state.players) == players


def test_the_indian_express_is_titled_by_the_map() -> None:
    state = ttr_core.new_game("india", 2, seed=3, variants=["ferries", "longest_route"])
    chooser = random.Random(3)
    while not state.is_over:
        state = ttr_core.apply(state, chooser.choice(ttr_core.legal_actions(state)))
    labels = [line.label for s in ttr_core.final_scores(state).sheets for line in s.lines]
    assert sum(label.startswith("Indian Express: ") for label in labels) == 2
    assert not any(label.startswith("Longest path") for label in labels)


def test_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list"]) == 0
    maps_line = next(
        line for line in capsys.readouterr().out.splitlines() if line.startswith("maps:")
    )
    assert "india" in maps_line.split(":", 1)[1].replace(",", " ").split()

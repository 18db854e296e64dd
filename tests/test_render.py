"""Board pictures (``ttr_core.render.svg``) and the map positions they are drawn at.

The pictures are parsed as XML and checked for what they must show: every
route with its number of car spaces, the owners' colours, double routes side
by side, the marks of the declared map fields, and for a view nothing that
seat cannot see.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from pathlib import Path
from shutil import which
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ttr_core
from ttr_core import STRS, GameState, MapError, MapWarning
from ttr_core.agents import make_agent
from ttr_core.cli import main
from ttr_core.hooks.manager import declared_map_fields
from ttr_core.render import OTHER_COLORS, SEAT_COLORS, svg
from ttr_core.simulation import play_game
from ttr_core.testing import strategies

from .helpers import new_started

NS = "{http://www.w3.org/2000/svg}"
PLAYERS = {
    "newyork": 3,
    "nederland": 4,
    "usa": 4,
    "amsterdam": 3,
    "switzerland": 3,
    "nordiccountries": 3,
    "pennsylvania": 4,
    "india": 3,
}

Point = tuple[float, float]


def finished(map_name: str, seed: int = 3) -> GameState:
    """A game played to its end by ``route`` bots: a board full of claims."""
    players = PLAYERS[map_name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        state = ttr_core.new_game(map_name, players, seed=seed)
    agents = [make_agent("route") for _ in range(players)]
    return play_game(state, agents, seed=seed).state


@pytest.fixture(scope="module")
def games() -> dict[str, GameState]:
    return {name: finished(name) for name in PLAYERS}


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == f"{NS}svg"
    return root


def groups(root: ET.Element, prefix: str) -> dict[int, ET.Element]:
    found = {}
    for g in root.iter(f"{NS}g"):
        ident = g.get("id", "")
        if ident.startswith(prefix):
            found[int(ident[len(prefix) :])] = g
    return found


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def cars(group: ET.Element) -> list[list[Point]]:
    return [
        [(float(x), float(y)) for x, y in (p.split(",") for p in poly.get("points", "").split())]
        for poly in group.findall(f"{NS}polygon")
        if "car" in classes(poly)
    ]


def marks(group: ET.Element) -> list[ET.Element]:
    return [g for g in group.iter(f"{NS}g") if "mark" in classes(g)]


def all_text(root: ET.Element) -> str:
    return " ".join("".join(t.itertext()) for t in root.iter(f"{NS}text"))


def separated(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """Whether two convex polygons do not overlap (separating axis test)."""
    for poly in (a, b):
        for i, p in enumerate(poly):
            q = poly[(i + 1) % len(poly)]
            axis = (q[1] - p[1], p[0] - q[0])
            span_a = [axis[0] * x + axis[1] * y for x, y in a]
            span_b = [axis[0] * x + axis[1] * y for x, y in b]
            if max(span_a) <= min(span_b) + 1e-6 or max(span_b) <= min(span_a) + 1e-6:
                return True
    return False


# ---------------------------------------------------------------------------
# Positions in the map files
# ---------------------------------------------------------------------------

MINIMAL = """format = 1

[map]
id = "triangle"
name = "Triangle"
players = [2, 3]

[cards]
colors = { red = 8, blue = 8 }
wild = 4

[rules]
cars_per_player = 3
starting_hand = 2
display_size = 3
max_face_up_wilds = 1
end_trigger_cars = 1
both_pair_routes_min_players = 3

[rules.tickets]
start_dealt = 2
start_keep = 1
draw = 2
draw_keep = 1
returned = "bottom"

[rules.route_points]
1 = 1
2 = 2

[board]
locations = [
  { name = "A" },
  { name = "B" },
  { name = "C" },
]
routes = [
  { id = 0, a = "A", b = "B", color = "red", length = 2, pair = 1 },
  { id = 1, a = "A", b = "B", color = "blue", length = 2, pair = 1 },
  { id = 2, a = "B", b = "C", color = "gray", length = 1 },
  { id = 3, a = "A", b = "C", color = "gray", length = 2 },
]
tickets = [
  { id = 0, a = "A", b = "C", points = 3 },
  { id = 1, a = "B", b = "C", points = 2 },
  { id = 2, a = "A", b = "B", points = 2 },
  { id = 3, a = "A", b = "C", points = 4 },
  { id = 4, a = "B", b = "C", points = 3 },
  { id = 5, a = "A", b = "B", points = 1 },
  { id = 6, a = "A", b = "C", points = 2 },
]
"""
LOCATION_LINE = {
    name: next(i for i, line in enumerate(MINIMAL.splitlines(), 1) if f'"{name}" }}' in line)
    for name in "ABC"
}


def with_positions(a: str, b: str = "[0.5, 0.1]", c: str = "[0.9, 0.8]") -> str:
    text = MINIMAL
    for name, pos in (("A", a), ("B", b), ("C", c)):
        if pos:
            text = text.replace(f'{{ name = "{name}" }}', f'{{ name = "{name}", pos = {pos} }}')
    return text


def problems(text: str) -> set[tuple[int | None, str, str]]:
    with pytest.raises(MapError) as caught:
        ttr_core.parse_map(text, "t.toml")
    return {(p.line, p.entry, p.message) for p in caught.value.problems}


def test_every_built_in_location_has_a_position_on_its_board() -> None:
    for name in ttr_core.available_maps():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
            board = ttr_core.load_map(name)
        assert board.aspect is not None and 0.5 < board.aspect < 2, name
        spots = set()
        for loc in board.locations:
            assert loc.pos is not None, (name, loc.name)
            assert all(isinstance(v, float) and 0 <= v <= 1 for v in loc.pos)
            spots.add(loc.pos)
        assert len(spots) == len(board.locations), f"{name}: two locations at one spot"
    usa = ttr_core.load_map("usa")
    # The USA board is wide, New York's upright; Seattle is west of Boston.
    assert usa.aspect == 1.55 and ttr_core.load_map("newyork").aspect == 0.712
    seattle, boston = usa.location("Seattle").pos, usa.location("Boston").pos
    assert seattle == (0.0763, 0.2044)
    assert seattle is not None and boston is not None and seattle[0] < boston[0]


def test_positions_load_as_floats_and_are_optional() -> None:
    board = ttr_core.parse_map(with_positions("[0, 1]"))
    assert board.locations[0].pos == (0.0, 1.0)
    assert isinstance(board.locations[0].pos[0], float)
    bare = ttr_core.parse_map(MINIMAL)
    assert bare.aspect is None and all(loc.pos is None for loc in bare.locations)
    wide = ttr_core.parse_map(MINIMAL.replace("players = [2, 3]", "players = [2, 3]\naspect = 2"))
    assert wide.aspect == 2.0


@pytest.mark.parametrize(
    ("pos", "message"),
    [
        ('"top"', "'pos' must be [x, y]: two numbers from 0 to 1"),
        ("[0.5]", "'pos' must be [x, y]"),
        ("[0.5, 0.5, 0.5]", "'pos' must be [x, y]"),
        ('[0.5, "a"]', "'pos' must be [x, y]"),
        ("[true, 0.5]", "'pos' must be [x, y]"),
        ("{ x = 0.1, y = 0.2 }", "'pos' must be [x, y]"),
        ("[1.5, 0.5]", "'pos' x must be a number from 0 to 1, not 1.5"),
        ("[0.5, -0.1]", "'pos' y must be a number from 0 to 1, not -0.1"),
        ("[nan, 0.5]", "'pos' x must be a number from 0 to 1, not nan"),
        ("[0.5, inf]", "'pos' y must be a number from 0 to 1, not inf"),
        ("[2, 0]", "'pos' x must be a number from 0 to 1, not 2"),
        ("[0, 1" + "0" * 400 + "]", "'pos' y must be a number from 0 to 1, not 1000"),
    ],
)
def test_a_bad_position_is_reported_on_its_line(pos: str, message: str) -> None:
    found = problems(with_positions(pos))
    assert len(found) == 1, found
    ((line, entry, text),) = found
    assert line == LOCATION_LINE["A"] and entry == "location 0 ('A')"
    assert text.startswith(message), text


def test_positions_go_on_every_location_or_none() -> None:
    found = problems(with_positions("[0.1, 0.1]", b="", c=""))
    missing = (
        "missing 'pos': 1 of the 3 locations have one (give every location a position, or none)"
    )
    assert found == {
        (LOCATION_LINE["B"], "location 1 ('B')", missing),
        (LOCATION_LINE["C"], "location 2 ('C')", missing),
    }


def test_pos_is_a_core_key_not_a_field() -> None:
    text = MINIMAL.replace("[board]", '[fields.locations]\npos = "bool"\n\n[board]')
    assert any("field 'pos' is a core key of locations" in msg for _l, _e, msg in problems(text))


@pytest.mark.parametrize(
    "aspect", ["0", "-1.5", "nan", "-inf", '"wide"', "true", "10.5", "[1, 2]", "9" * 500]
)
def test_a_bad_aspect_is_reported(aspect: str) -> None:
    text = MINIMAL.replace("players = [2, 3]", f"players = [2, 3]\naspect = {aspect}")
    ((line, entry, message),) = problems(text)
    assert (line, entry) == (7, "[map]")
    assert message.startswith(
        "'aspect' must be the board's width ÷ height, a number from 0.1 to 10"
    )


def test_two_locations_at_one_spot_give_a_warning() -> None:
    line = LOCATION_LINE["C"]
    with pytest.warns(
        MapWarning, match=rf"t.toml:{line}: location 2 \('C'\): has the same 'pos' as 'A'"
    ):
        ttr_core.parse_map(with_positions("[0.2, 0.3]", c="[0.2, 0.3]"), "t.toml")


# ---------------------------------------------------------------------------
# The pictures
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("map_name", sorted(PLAYERS))
def test_every_route_is_drawn_with_its_spaces_and_owner(
    map_name: str, games: dict[str, GameState]
) -> None:
    state = games[map_name]
    root = parse(svg(state))
    drawn = groups(root, "route-")
    board = state.board
    assert sorted(drawn) == [r.id for r in board.routes]
    assert sorted(groups(root, "location-")) == [loc.id for loc in board.locations]
    unclaimed_fills: dict[str, set[str]] = {}
    claimed = 0
    for route in board.routes:
        group = drawn[route.id]
        spaces = cars(group)
        assert len(spaces) == route.length, route
        assert group.get("data-length") == str(route.length)
        fills = {p.get("fill", "") for p in group.findall(f"{NS}polygon") if "car" in classes(p)}
        owner = state.owner(route.id)
        if owner is None:
            assert "unclaimed" in classes(group)
            if "closed" not in classes(group):  # a closed twin is drawn faded
                unclaimed_fills.setdefault(route.color, set()).update(fills)
        else:
            claimed += 1
            assert {"claimed", f"seat-{owner}"} <= classes(group)
            assert fills == {SEAT_COLORS[owner]}
        title = group.find(f"{NS}title")
        assert title is not None and route.a in (title.text or "") and route.b in (title.text or "")
    assert claimed > len(board.routes) // 3, "the bots should have claimed much of the board"
    # One fill per card colour, a different one for each colour; gray drawn gray.
    assert all(len(f) == 1 for f in unclaimed_fills.values())
    by_color = {color: min(f) for color, f in unclaimed_fills.items()}
    assert len(set(by_color.values())) == len(by_color)
    gray = by_color[ttr_core.GRAY]
    assert gray[1:3] == gray[3:5] == gray[5:7], gray


@pytest.mark.parametrize("map_name", sorted(PLAYERS))
def test_double_routes_lie_side_by_side(map_name: str, games: dict[str, GameState]) -> None:
    state = games[map_name]
    drawn = groups(parse(svg(state)), "route-")
    pairs = [r for r in state.board.routes if r.partner is not None and r.id < r.partner]
    assert pairs or map_name == "none"
    for route in pairs:
        assert route.partner is not None
        mine, theirs = cars(drawn[route.id]), cars(drawn[route.partner])
        for a in mine:
            for b in theirs:
                assert separated(a, b), (route.id, route.partner)
        # ... and close together: the middles of their cars are less than two cars apart.
        middle = [sum(p[0] for p in c) / 4 for c in (mine[0], theirs[0])]
        assert abs(middle[0] - middle[1]) < 60


def test_the_cars_of_a_route_stay_between_its_two_locations(games: dict[str, GameState]) -> None:
    state = games["usa"]
    root = parse(svg(state, width=1400))
    width, height = float(root.get("width", 0)), float(root.get("height", 0))
    for group in groups(root, "route-").values():
        for car in cars(group):
            assert all(0 <= x <= width and 0 <= y <= height for x, y in car)


def field_values(state: GameState) -> Iterator[tuple[str, int, str, Any]]:
    """Each (table, id, field, value) of a declared bool or int field that gets a
    mark, and each word of a declared list[str] field (a label each)."""
    board = state.board
    for field in declared_map_fields():
        if field.type not in (bool, int, STRS) or field.table not in ("locations", "routes"):
            continue
        entries = board.locations if field.table == "locations" else board.routes
        for entry in entries:
            value = entry.extra.get(field.name)
            if field.type == STRS:
                for word in value or ():
                    yield field.table, entry.id, field.name, word
            elif value is True or (field.type is int and isinstance(value, int) and value > 0):
                yield field.table, entry.id, field.name, value


@pytest.mark.parametrize("map_name", sorted(PLAYERS))
def test_the_declared_fields_are_marked(map_name: str, games: dict[str, GameState]) -> None:
    state = games[map_name]
    root = parse(svg(state))
    routes, locations = groups(root, "route-"), groups(root, "location-")
    expected = list(field_values(state))
    for table, ident, name, value in expected:
        if table == "locations":
            found = [m for m in marks(locations[ident]) if m.get("data-field") == name]
        else:  # on the route, or on its partner when one mark stands for the pair
            route = state.board.routes[ident]
            where = [ident] if route.partner is None else [ident, route.partner]
            found = [m for i in where for m in marks(routes[i]) if m.get("data-field") == name]
        shown = [m.get("data-value") for m in found]
        if isinstance(value, str):  # a word of a list: one label among the route's
            assert value in shown, (table, ident, name, value)
        else:
            assert shown[:1] == [str(value)], (table, ident, name)
    # No mark without a field value behind it, and a legend entry for each field drawn.
    plugins = {field.name for field in declared_map_fields()}
    drawn = [m for g in (*routes.values(), *locations.values()) for m in marks(g)]
    assert len([m for m in drawn if m.get("data-field") in plugins]) <= len(expected)
    # A field the map declares itself ([fields], Nordic's substitute) marks the
    # entries whose value it shows, and only those.
    own = [(g, m) for g in routes.values() for m in marks(g) if m.get("data-field") not in plugins]
    for group, mark in own:
        route = state.board.routes[int(group.get("id", "").split("-")[1])]
        name = mark.get("data-field", "")
        shown = {
            str(word)
            for r in (route.id, route.partner)
            if r is not None
            for v in [state.board.routes[r].extra.get(name)]
            for word in (v if isinstance(v, tuple) else (v,))  # a list: a label per word
        }
        assert mark.get("data-value") in shown, (route.id, name)
    legend = " ".join(
        "".join(t.itertext()) for g in root.iter(f"{NS}g") if "legend" in classes(g) for t in g
    )
    for name in {name for _t, _i, name, _v in expected}:
        assert name in legend


def test_the_printed_marks_of_the_built_in_maps(games: dict[str, GameState]) -> None:
    counts = {}
    for map_name, state in games.items():
        root = parse(svg(state))
        counts[map_name] = {
            (m.get("data-field"), g.get("id", "").split("-")[0])
            for g in root.iter(f"{NS}g")
            if g.get("id")
            for m in marks(g)
        }
        attractions = sum(
            1
            for g in groups(root, "location-").values()
            for m in marks(g)
            if m.get("data-field") == "attraction"
        )
        if map_name == "newyork":
            assert attractions == 9  # New York prints 9 tourist attractions
    assert counts["newyork"] == {("attraction", "location")}
    assert counts["nederland"] == {("toll", "route")}
    assert counts["amsterdam"] == {("merchandise", "route")}
    assert counts["usa"] == set()
    assert counts["switzerland"] == set()  # tunnels are drawn as such, not marked
    assert counts["nordiccountries"] == {("substitute", "route")}  # Murmansk–Lieksa's 4


def test_a_view_draws_only_what_its_seat_sees(games: dict[str, GameState]) -> None:
    state = new_started(players=3, seed=5)
    for _ in range(12):  # a few turns into the game
        state = ttr_core.apply(state, ttr_core.legal_actions(state)[0])
    view = ttr_core.player_view(state, 0)
    text = svg(view)
    root = parse(text)
    words = all_text(root)
    board = state.board
    mine = {f"{board.tickets[t].a} – {board.tickets[t].b}" for t in view.tickets}
    for t in mine:
        assert t in words
    for seat in (1, 2):
        for held in state.players[seat].tickets:
            ticket = board.tickets[held]
            if f"{ticket.a} – {ticket.b}" not in mine:
                assert f"{ticket.a} – {ticket.b}" not in words
    hand = next(t for t in root.iter(f"{NS}text") if t.get("class") == "hand")
    for name, count in state.players[0].hand.items():
        if count:  # the wild card by the map's word ("taxi"), as players say it
            shown = board.wild_name if name == ttr_core.WILD else name
            assert f"{shown} {count}" in "".join(hand.itertext())
    # The picture depends on nothing the seat cannot see: any state it cannot
    # tell from this one draws the same picture for it.
    for seed in range(3):
        other = ttr_core.determinize(view, seed)
        assert svg(ttr_core.player_view(other, 0)) == text
    # A state is drawn as everyone sees it: no hand, no ticket.
    public = all_text(parse(svg(state)))
    assert "Your hand" not in public and "Your tickets" not in public
    assert not any(t in public for t in mine)


@settings(max_examples=25)
@given(play=strategies.states(max_actions=150), seat=st.integers(0, 4))
def test_any_game_draws_its_owners_and_a_view_only_what_it_sees(play: Any, seat: int) -> None:
    state = play.state
    seat %= state.num_players
    view = ttr_core.player_view(state, seat)
    for game in (state, view):
        drawn = groups(parse(svg(game, width=600)), "route-")
        for route in state.board.routes:
            owner = state.owner(route.id)
            kind = "unclaimed" if owner is None else f"seat-{owner}"
            if owner is not None and not state.is_seat(owner):
                kind = "other-0"
            assert kind in classes(drawn[route.id])
    assert svg(ttr_core.player_view(ttr_core.determinize(view, 1), seat)) == svg(view)


def test_a_finished_game_shows_the_final_scores(games: dict[str, GameState]) -> None:
    state = games["newyork"]
    scores = ttr_core.final_scores(state)
    root = parse(svg(state))
    for sheet in scores.sheets:
        row = next(
            g for g in root.iter(f"{NS}g") if {"score", f"seat-{sheet.player}"} <= classes(g)
        )
        words = "".join(row.itertext())
        assert f"final score {sheet.total}" in words
        assert ("winner" in words) == (sheet.player in scores.winners)
    view = ttr_core.player_view(state, 1)
    assert "final score" not in all_text(parse(svg(view)))  # the other tickets are hidden
    assert "final score" in all_text(parse(svg(view, scores=scores)))


def test_routes_of_an_owner_that_is_not_a_seat_have_its_colour() -> None:
    result = ttr_core.random_playout("nederland", 2, seed=1, variants=["tolls", "neutral"])
    others = ttr_core.non_seat_owners(result.state)
    assert others and others[0].routes
    for game in (result.state, ttr_core.player_view(result.state, 1)):
        root = parse(svg(game))
        drawn = groups(root, "route-")
        for route in others[0].routes:
            assert {"claimed", "other-0"} <= classes(drawn[route])
            pieces = [p for p in drawn[route].iter(f"{NS}polygon") if "car" in classes(p)]
            assert {p.get("fill") for p in pieces} == {OTHER_COLORS[0]}
        assert others[0].name.capitalize() in all_text(root)


def test_a_custom_map_without_positions_draws_on_a_circle() -> None:
    text = MINIMAL.replace(
        "[board]", '[fields.routes]\nscenic = "bool"\n\n[fields.locations]\nbig = "int"\n\n[board]'
    )
    text = text.replace('{ name = "B" }', '{ name = "B", big = 3 }')
    text = text.replace("length = 1 }", "length = 1, scenic = true }")
    board = ttr_core.parse_map(text)
    state = ttr_core.new_game(board, 2, seed=1)
    root = parse(svg(state, width=400))
    width = float(root.get("width", 0))
    dots = []
    for group in groups(root, "location-").values():
        circle = group.find(f"{NS}circle")
        assert circle is not None
        dots.append((float(circle.get("cx", 0)), float(circle.get("cy", 0))))
    assert len(set(dots)) == 3 and all(0 < x < width and 0 < y < width for x, y in dots)
    centre = (sum(x for x, _ in dots) / 3, sum(y for _, y in dots) / 3)
    radii = {round(math.dist(centre, d)) for d in dots}
    assert max(radii) - min(radii) <= 1  # on a circle
    routes = groups(root, "route-")
    assert [len(cars(routes[i])) for i in range(4)] == [2, 2, 1, 2]
    assert [m.get("data-field") for m in marks(routes[2])] == ["scenic"]
    assert [m.get("data-value") for m in marks(groups(root, "location-")[1])] == ["3"]


def test_names_are_escaped() -> None:
    text = MINIMAL.replace('name = "A"', 'name = "<A & \\"B\\">"').replace(
        'a = "A"', 'a = "<A & \\"B\\">"'
    )
    text = text.replace('name = "Triangle"', 'name = "Tri <angle> & co"')
    board = ttr_core.parse_map(text)
    root = parse(svg(ttr_core.new_game(board, 2)))
    location = groups(root, "location-")[0]
    assert location.findtext(f"{NS}title") == '<A & "B">'
    assert (root.findtext(f"{NS}title") or "").startswith("Tri <angle> & co:")


def test_the_same_game_gives_the_same_bytes(games: dict[str, GameState]) -> None:
    state = games["amsterdam"]
    first = svg(state)
    assert svg(state) == first
    assert svg(finished("amsterdam")) == first
    digest = hashlib.sha256(first.encode()).hexdigest()
    # Another process, with other string hashes, draws the same bytes.
    code = (
        "import hashlib, sys; sys.path.insert(0, sys.argv[1]); "
        "from tests.test_render import finished; from ttr_core.render import svg; "
        "print(hashlib.sha256(svg(finished('amsterdam')).encode()).hexdigest())"
    )
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONWARNINGS": "ignore"}
    out = subprocess.run(
        [sys.executable, "-c", code, root], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == digest
    assert "\r" not in first and first.startswith("<?xml")
    assert not re.search(r"(href|url\(|@import|<image)", first), "nothing to fetch"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: svg(cast(Any, "newyork")), "game must be a GameState or a PlayerView, not str"),
        (lambda s: svg(s.board), "game must be a GameState or a PlayerView, not Board"),
        (lambda s: svg(s, width=100), "width must be from 200 to 20000, not 100"),
        (lambda s: svg(s, width=10**9), "width must be from 200 to 20000"),
        (lambda s: svg(s, width=True), "width must be an int (pixels), not bool"),
        (lambda s: svg(s, width=cast(Any, 800.0)), "width must be an int (pixels), not float"),
        (lambda s: svg(s, scores=cast(Any, {})), "scores must be FinalScores or None, not dict"),
        (
            lambda s: svg(s, scores=ttr_core.random_playout("newyork", 2).scores),
            "scores are the final scores of a finished game: this game is not over",
        ),
    ],
)
def test_bad_arguments_are_typed_errors(call: Any, message: str) -> None:
    state: Any = ttr_core.new_game("newyork", 2)
    with pytest.raises(ttr_core.ArgumentError) as caught:
        call(state)
    assert isinstance(caught.value, ttr_core.TtrError)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda s: svg(s, scores=ttr_core.random_playout("newyork", 3, seed=2).scores),
            "scores must be the final scores of this game (2 seats",
        ),
        (
            lambda s: svg(s, scores=ttr_core.random_playout("newyork", 2, seed=2).scores),
            "scores must be this game's final scores",
        ),
        (
            lambda s: svg(
                ttr_core.player_view(s, 0), scores=ttr_core.random_playout("newyork", 3).scores
            ),
            "scores must be the final scores of this game (2 seats",
        ),
    ],
)
def test_scores_of_another_game_are_refused(call: Any, message: str) -> None:
    state: Any = ttr_core.random_playout("newyork", 2, seed=1).state
    with pytest.raises(ttr_core.ArgumentError) as caught:
        call(state)
    assert isinstance(caught.value, ttr_core.TtrError)
    assert str(caught.value).startswith(message)


def test_importing_the_library_does_not_import_the_renderer() -> None:
    code = "import sys, ttr_core; print('ttr_core.render' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------


def test_ttr_svg_draws_the_final_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "end.svg"
    record = tmp_path / "game.json"
    assert main(["--seed", "4", "--svg", str(picture), "--save", str(record)]) == 0
    root = parse(picture.read_text(encoding="utf-8"))
    assert "game over" in (root.findtext(f"{NS}title") or "")
    played = ttr_core.replay(ttr_core.from_json(record.read_text(), ttr_core.GameRecord))
    final = list(played)[-1]
    assert picture.read_text(encoding="utf-8") == svg(final)
    capsys.readouterr()
    assert main(["--games", "2", "--svg", str(tmp_path / "two.svg")]) == 2
    assert "--svg draws the board of one game: use it with --games 1" in capsys.readouterr().err
    assert not (tmp_path / "two.svg").exists()


def test_ttr_replay_svg_draws_every_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    assert main(["--seed", "2", "--save", str(record)]) == 0
    folder = tmp_path / "turns"
    assert main(["replay", str(record), "--svg", str(folder)]) == 0
    states = list(ttr_core.replay(ttr_core.from_json(record.read_text(), ttr_core.GameRecord)))
    final = states[-1]
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"turn-{t:03d}.svg" for t in range(final.turn + 1)]
    assert f"{len(names)} pictures written to {folder}" in capsys.readouterr().out
    first = parse((folder / names[0]).read_text(encoding="utf-8"))
    assert not any("claimed" in classes(g) for g in groups(first, "route-").values())
    assert (folder / names[-1]).read_text(encoding="utf-8") == svg(final)
    claimed = [
        sum("claimed" in classes(g) for g in groups(parse(p.read_text()), "route-").values())
        for p in sorted(folder.iterdir())
    ]
    assert claimed == sorted(claimed) and claimed[-1] == sum(o >= 0 for o in final.owners)
    # A folder that cannot be made is an error of the command, not a crash.
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["replay", str(record), "--svg", str(blocker / "sub")]) == 2
    assert "ttr replay:" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# A real browser (skipped where no Chromium is installed)
# ---------------------------------------------------------------------------

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "board_pictures.py"
BROWSER = next(
    (path for name in ("chromium", "chromium-browser", "google-chrome") if (path := which(name))),
    None,
)


@pytest.mark.skipif(BROWSER is None, reason="no Chromium on the PATH")
@pytest.mark.skipif(not SCRIPT.is_file(), reason="scripts/ is not here (an installed package)")
def test_the_pictures_script_screenshots_a_board_in_chromium(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--maps",
            "newyork",
            "--width",
            "600",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    picture = (tmp_path / "newyork.svg").read_text(encoding="utf-8")
    assert picture == svg(finished("newyork"), width=600)
    png = (tmp_path / "newyork.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    root = parse(picture)
    assert (width, height) == (int(root.get("width", 0)), int(root.get("height", 0)))
    assert len(png) > 15_000, "the screenshot is (nearly) blank"

"""Routes a variant draws its own way (hook ``ttr_route_styles``, ``RouteStyle``).

Issue 21, item 5: the SVG draws Europe's tunnels outlined and its ferries
with locomotive marks, in place of the generic marks of the map's
``tunnel`` and ``locomotives`` fields, with a legend line each; a game
whose variants style no route draws the same bytes as before the hook
existed; bad hook results are refused naming the variant; a seat's view
draws the same styles as the state.
"""

from __future__ import annotations

import hashlib
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator

import pytest
from ttr_plugins import ferries, tunnels

import ttr_core
from ttr_core import Board, GameState, PluginError, RouteStyle, hookimpl
from ttr_core.render import svg

NS = "{http://www.w3.org/2000/svg}"


def _europe(variants: Iterable[str], players: int = 3, seed: int = 7) -> GameState:
    """A Europe game played to its end at random with ``variants`` only (so that
    variants still being written, stations and long tickets, play no part)."""
    return ttr_core.random_playout("europe", players, seed=seed, variants=tuple(variants)).state


@pytest.fixture(scope="module")
def styled() -> GameState:
    return _europe(("tunnels", "ferries"))


def parse(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def route_groups(root: ET.Element) -> dict[int, ET.Element]:
    return {
        int(g.get("id", "")[len("route-") :]): g
        for g in root.iter(f"{NS}g")
        if g.get("id", "").startswith("route-")
    }


def outlines(group: ET.Element) -> list[ET.Element]:
    return [p for p in group.findall(f"{NS}polygon") if "outline" in classes(p)]


def wild_marks(group: ET.Element) -> list[ET.Element]:
    return [g for g in group.findall(f"{NS}g") if "wild-space" in classes(g)]


def field_marks(root: ET.Element) -> list[str]:
    return [g.get("data-field", "") for g in root.iter(f"{NS}g") if "mark" in classes(g)]


def style_legends(root: ET.Element) -> list[str]:
    return [
        "".join(g.find(f"{NS}text").itertext())  # type: ignore[union-attr]
        for g in root.iter(f"{NS}g")
        if "style-legend" in classes(g)
    ]


# ---------------------------------------------------------------------------
# Europe: tunnels outlined, ferries with locomotives
# ---------------------------------------------------------------------------


def test_tunnels_are_outlined_and_no_other_route(styled: GameState) -> None:
    board = styled.board
    groups = route_groups(parse(svg(styled)))
    assert len(groups) == len(board.routes) == 101
    tunnel_ids = [r.id for r in board.routes if tunnels.is_tunnel(board, r.id)]
    assert len(tunnel_ids) == 18
    for route in board.routes:
        group = groups[route.id]
        if route.id in tunnel_ids:
            assert "outlined" in classes(group)
            assert len(outlines(group)) == route.length  # one frame per space
        else:
            assert "outlined" not in classes(group)
            assert outlines(group) == []


def test_ferries_have_a_locomotive_in_each_space_they_need(styled: GameState) -> None:
    board = styled.board
    groups = route_groups(parse(svg(styled)))
    needs = {r.id: ferries.locomotives(board, r.id) for r in board.routes}
    assert sum(1 for n in needs.values() if n) == 13
    assert sum(needs.values()) == 17
    for route in board.routes:
        group, need = groups[route.id], needs[route.id]
        assert len(wild_marks(group)) == need
        if need:
            assert "wild-spaces" in classes(group)
            assert group.get("data-wild-spaces") == str(need)
        else:
            assert "wild-spaces" not in classes(group)
            assert group.get("data-wild-spaces") is None


def test_a_claimed_ferry_shows_white_locomotives_in_place_of_pegs(styled: GameState) -> None:
    board = styled.board
    claimed = [r for r in ferries.ferry_routes(board) if styled.owner(r) is not None]
    assert claimed
    groups = route_groups(parse(svg(styled)))
    for route in claimed:
        group = groups[route]
        pegs = group.findall(f"{NS}circle")  # the pegs are the group's own circles
        need = ferries.locomotives(board, route)
        assert len(pegs) == board.routes[route].length - need
        assert {g.get("fill") for g in wild_marks(group)} == {"#ffffff"}
    fresh = ttr_core.new_game("europe", 3, seed=7, variants=("tunnels", "ferries"))
    groups = route_groups(parse(svg(fresh)))
    for route in ferries.ferry_routes(board):  # free: dark locomotives, no pegs
        group = groups[route]
        assert group.findall(f"{NS}circle") == []
        assert {g.get("fill") for g in wild_marks(group)} == {"#1d1d1d"}


def test_the_generic_marks_of_the_styled_fields_are_not_drawn_twice(styled: GameState) -> None:
    root = parse(svg(styled))
    assert field_marks(root) == []
    legends = style_legends(root)
    assert legends == [
        "tunnel: outlined; a claim turns up 3 cards: each locomotive or card of its colour "
        "asks 1 more",
        "ferry: each space with a locomotive must be paid with a locomotive",
    ]
    # Without the variants the same fields are drawn by their generic marks.
    plain = parse(svg(_europe(())))
    assert {"tunnel", "locomotives"} <= set(field_marks(plain))
    assert style_legends(plain) == []
    assert not any(outlines(g) or wild_marks(g) for g in route_groups(plain).values())


def test_a_style_hides_only_the_field_it_stands_for() -> None:
    root = parse(svg(_europe(("tunnels",))))  # ferries off: their badges stay
    marks = field_marks(root)
    assert "tunnel" not in marks
    assert marks.count("locomotives") >= 11  # 13 ferries, a shared badge per double pair
    assert all(g.get("data-value") != "0" for g in root.iter(f"{NS}g") if "mark" in classes(g))
    assert len(style_legends(root)) == 1


def test_the_tunnel_legend_follows_the_reveal_option() -> None:
    state = ttr_core.random_playout(
        "europe", 2, seed=1, variants=("tunnels",), options={"tunnels": {"reveal": 1}}
    ).state
    assert style_legends(parse(svg(state)))[0].startswith(
        "tunnel: outlined; a claim turns up 1 card:"
    )


def test_a_view_draws_the_same_styles(styled: GameState) -> None:
    state_groups = route_groups(parse(svg(styled)))
    for seat in range(styled.num_players):
        root = parse(svg(ttr_core.player_view(styled, seat)))
        view_groups = route_groups(root)
        for route, group in state_groups.items():
            assert ET.tostring(view_groups[route]) == ET.tostring(group)
        assert len(style_legends(root)) == 2


def test_the_europe_picture_with_the_maps_variants_draws_the_styles() -> None:
    """The default variants of the map (as ``scripts/board_pictures.py`` plays
    it): tunnels and ferries styled, whatever the other variants draw."""
    state = ttr_core.random_playout("europe", 2, seed=2).state
    root = parse(svg(state))
    groups = route_groups(root)
    board = state.board
    assert sum(len(outlines(g)) for g in groups.values()) == sum(
        r.length for r in board.routes if tunnels.is_tunnel(board, r.id)
    )
    assert sum(len(wild_marks(g)) for g in groups.values()) == 17
    assert "tunnel" not in field_marks(root) and "locomotives" not in field_marks(root)


# ---------------------------------------------------------------------------
# A game without styles: the same bytes as before the hook
# ---------------------------------------------------------------------------

#: sha256 of ``svg(state)`` and ``svg(player_view(state, 1), width=640)`` for a
#: random game (seed 7) on each map, taken before route styles existed. A
#: change of the renderer's output for these games must be deliberate.
BEFORE = {
    ("newyork", 3): (
        "b04ae864e29a4094c8d6649ed2d4973a2d5611d11306f6354dc299acf33c5c9e",
        "d717304473b6291bc300feb9bb74365ab4715c482a461cb40bcd08ed80379266",
    ),
    ("nederland", 4): (
        "a3d7f2e840914f255e7b5428dc695360d4d0ac915c9b496014e3fda0b63e9941",
        "8fdba6b4e302d5534ae8f5a32cf714cc1e502f617b7d005feee82e391827f131",
    ),
    ("usa", 4): (
        "c0a6455547ee74d9e3cc57507f3be7afb5abc06ff2369aa9661ef576bf2e5434",
        "bd4943cb5c9540af4c75a699300ae6c47f06ec7858d02d8ac460b0b648cf06ea",
    ),
    ("amsterdam", 3): (
        "92458dff7cb99d4b51dc51f95a07665fd2eabd83b6fce6298e578f9e4d9c29be",
        "1919cf6c7d2e4218c13ae2ae0cfacc2c2227aad4c7c483ace4734a5e8ae8c791",
    ),
    # Europe without its variants: the tunnel and ferry fields as generic marks.
    ("europe", 3): ("9011acad953972e85895799837267b64180f5d69cb326bb4a2e275e21ce33832", None),
}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize(("map_name", "players"), list(BEFORE))
def test_a_game_without_styles_draws_the_same_bytes_as_before(map_name: str, players: int) -> None:
    variants = () if map_name == "europe" else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        state = ttr_core.random_playout(map_name, players, seed=7, variants=variants).state
    whole, view = BEFORE[(map_name, players)]
    assert _sha(svg(state)) == whole
    if view is not None:
        assert _sha(svg(ttr_core.player_view(state, 1), width=640)) == view


# ---------------------------------------------------------------------------
# Test plugins: the hook's contract
# ---------------------------------------------------------------------------


class Styles:
    """Returns what the test sets, and counts its calls."""

    def __init__(self, result: object = None) -> None:
        self.result = result
        self.calls = 0

    @hookimpl
    def ttr_route_styles(self, board: Board) -> object:
        self.calls += 1
        return self.result


@pytest.fixture
def variant() -> Iterator[list[str]]:
    """Register test plugins by name for one test; forgotten after it."""
    names: list[str] = []
    yield names
    for name in names:
        ttr_core.unregister_variant(name)


def _game(names: list[str], **plugins: object) -> GameState:
    for name, plugin in plugins.items():
        ttr_core.register_variant(name, plugin)
        names.append(name)
    return ttr_core.new_game("newyork", players=2, seed=1, variants=list(plugins))


def test_no_styles_from_the_hook_draw_the_same_bytes(variant: list[str]) -> None:
    plain = ttr_core.new_game("newyork", players=2, seed=1)
    for result in (None, [], [RouteStyle(2)], (s for s in [RouteStyle(3, field="x")])):
        name = f"nostyle{len(variant)}_test"
        state = _game(variant, **{name: Styles(result)})
        assert svg(state) == svg(plain)
        assert svg(ttr_core.player_view(state, 0)) == svg(ttr_core.player_view(plain, 0))


def test_the_hook_is_called_once_per_picture_never_in_play(variant: list[str]) -> None:
    plugin = Styles([RouteStyle(0, outline=True)])
    _game(variant, counting_test=plugin)
    played = ttr_core.random_playout("newyork", 2, seed=3, variants=["counting_test"])
    state = played.state
    assert state.is_over and plugin.calls == 0  # a whole game, no picture: no call
    svg(state)
    assert plugin.calls == 1
    svg(ttr_core.player_view(state, 1))
    assert plugin.calls == 2


def test_styles_of_several_variants_merge_on_a_route(variant: list[str]) -> None:
    state = _game(
        variant,
        outline_test=Styles([RouteStyle(4, outline=True)]),
        wilds_test=Styles([RouteStyle(4, wild_spaces=1), RouteStyle(4, wild_spaces=2)]),
    )
    root = parse(svg(state))
    group = route_groups(root)[4]
    length = state.board.routes[4].length
    assert {"outlined", "wild-spaces"} <= classes(group)
    assert len(outlines(group)) == length
    assert len(wild_marks(group)) == min(2, length)
    # Without legends of their own: the variant's name and what is drawn.
    assert style_legends(root) == [
        "outline_test: outlined",
        "wilds_test: a wild card in each marked space",
    ]


def _bad_results(board_routes: int) -> list[tuple[object, str]]:
    return [
        ("tunnel", "must return an iterable of RouteStyle"),
        (3, "must return an iterable of RouteStyle"),
        (["x"], "must return RouteStyle objects"),
        ([RouteStyle(board_routes)], "not a route id of the map"),
        ([RouteStyle(-1)], "not a route id of the map"),
        ([RouteStyle("3")], "not a route id of the map"),  # type: ignore[arg-type]
        ([RouteStyle(True)], "not a route id of the map"),  # type: ignore[arg-type]
        ([RouteStyle(0, outline=1)], "True or False"),  # type: ignore[arg-type]
        ([RouteStyle(0, wild_spaces=99)], "from 0 to its"),
        ([RouteStyle(0, wild_spaces=-1)], "from 0 to its"),
        ([RouteStyle(0, wild_spaces=1.0)], "from 0 to its"),  # type: ignore[arg-type]
        ([RouteStyle(0, field="no such")], "a field name or None"),
        ([RouteStyle(0, field=3)], "a field name or None"),  # type: ignore[arg-type]
        ([RouteStyle(0, legend="two\nlines")], "one line"),
        ([RouteStyle(0, legend="x" * 101)], "one line"),
        ([RouteStyle(0, legend=None)], "one line"),  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize("index", range(len(_bad_results(0))))
def test_bad_styles_are_refused_naming_the_variant(variant: list[str], index: int) -> None:
    routes = len(ttr_core.load_map("newyork").routes)
    result, message = _bad_results(routes)[index]
    state = _game(variant, badstyle_test=Styles(result))
    for game in (state, ttr_core.player_view(state, 0)):
        with pytest.raises(PluginError, match=message) as caught:
            svg(game)
        assert caught.value.variant == "badstyle_test"
        assert caught.value.hook == "ttr_route_styles"
        assert "badstyle_test" in str(caught.value)


def test_a_wild_space_count_above_the_length_names_the_route(variant: list[str]) -> None:
    board = ttr_core.load_map("newyork")
    route = board.routes[5]
    state = _game(variant, long_test=Styles([RouteStyle(5, wild_spaces=route.length + 1)]))
    with pytest.raises(PluginError, match=rf"for route 5: .* its {route.length} spaces"):
        svg(state)
    assert svg(_game(variant, exact_test=Styles([RouteStyle(5, wild_spaces=route.length)])))


class Raising:
    @hookimpl
    def ttr_route_styles(self, board: Board) -> Iterator[RouteStyle]:
        yield RouteStyle(0, outline=True)
        raise KeyError("oops")


def test_a_hook_that_raises_is_a_plugin_error(variant: list[str]) -> None:
    state = _game(variant, raising_test=Raising())
    with pytest.raises(PluginError, match=r"raising_test.*KeyError") as caught:
        svg(state)
    assert caught.value.variant == "raising_test"

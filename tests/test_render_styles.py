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
from ttr_core_plugins import ferries, tunnels

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
        # The pegs (the player's number on each piece, or a white dot where it
        # would not fit) are the group's own children of class "peg".
        pegs = [e for e in group if "peg" in classes(e)]
        need = ferries.locomotives(board, route)
        assert len(pegs) == board.routes[route].length - need
        assert {g.get("fill") for g in wild_marks(group)} == {"#ffffff"}
    fresh = ttr_core.new_game("europe", 3, seed=7, variants=("tunnels", "ferries"))
    groups = route_groups(parse(svg(fresh)))
    for route in ferries.ferry_routes(board):  # free: dark locomotives, no pegs
        group = groups[route]
        assert [e for e in group if "peg" in classes(e)] == []
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
#: random game (seed 7) on each map. Taken before route styles existed, and
#: taken again, deliberately, for issue 22's readable pictures (train pieces
#: in seat colours no route uses, names off the routes, marks on their
#: routes, closed partners, the frame fitted to the locations, the legend in
#: words). A change of the renderer's output for these games must be deliberate.
BEFORE = {
    ("newyork", 3): (
        "c26714c6dac5b036609a6a51f000e1072e9c4595f1baaa1a569ba6eb38c89311",
        "0b024d0d9f2c7a45870a72babc6993caf7df15a92c0cca0e5a1f7942d072ccea",
    ),
    ("nederland", 4): (
        "d25276b43a48c3b958e165d08af25679e4fed52809b771f172f66e3c3e0381d1",
        "6223fd8de49158a4a9f02f7aafc5c5dfe6f3654d5dc339b21dea632a88970c61",
    ),
    ("usa", 4): (
        "a2ca7f2bf0348012f2a30cc4c8891236772c3a70969332e441b94ad2f9f728d1",
        "e55e0c523403ae25ca9ed4bf9d5478a9059a3adb99d933b690a894532cee0fc3",
    ),
    ("amsterdam", 3): (
        "1ea6bcfbf7ab629c53b6c65e92831bb29dcf20916fa89ae7415f83072110265b",
        "b8fe6ef21a8c5e2037a47b73f17e92aeb557a060b1b0dad1ad4190964c820b9f",
    ),
    # Europe without its variants: the tunnel and ferry fields as generic marks.
    ("europe", 3): ("e3a14e68bd354197192d8fe735c36f88c44193255c6a140f4c45434506f8ecbe", None),
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

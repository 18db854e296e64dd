"""Action ids for variant actions: declared once (hook ``ttr_action_space``),
appended after the core's ids in the game's variant order."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest
from ttr_core_plugins.neutral import ChooseNeutralRoute

import ttr_core
from ttr_core import (
    Action,
    ActionTemplate,
    Board,
    GameState,
    IllegalAction,
    PluginError,
    hookimpl,
)
from ttr_core.errors import UnsupportedVariantError
from ttr_core.rules.action_ids import check_all_numbered

from .helpers import started


def _swap_declares() -> bool:
    try:
        from ttr_example_variant import ttr_action_space  # noqa: F401
    except ImportError:
        return False
    return True


needs_swap = pytest.mark.skipif(
    not _swap_declares(), reason="the installed ttr-example-variant predates ttr_action_space"
)

#: Configurations whose games list variant actions: (map, players, variants).
CONFIGS = [
    ("nederland", 2, ("tolls", "neutral")),
    pytest.param("newyork", 2, ("swap",), marks=needs_swap),
    pytest.param("newyork", 3, ("swap",), marks=needs_swap),
]


def check_ids(state: GameState, space: ttr_core.ActionSpace) -> int:
    """Check every id of ``state``'s legal actions; return how many are variant ids."""
    legal = ttr_core.legal_actions(state)
    ids = ttr_core.legal_action_ids(state)
    assert len(set(ids)) == len(ids) == len(legal)
    assert all(0 <= aid < space.size for aid in ids)
    for action, aid in zip(legal, ids, strict=True):
        assert ttr_core.action_id(state, action) == aid
        assert ttr_core.action_from_id(state, aid) == action
    mask = ttr_core.legal_action_mask(state)
    assert len(mask) == space.size
    assert [i for i, legal_id in enumerate(mask) if legal_id] == sorted(ids)
    return sum(aid >= space.core_size for aid in ids)


@pytest.mark.parametrize(("map_name", "players", "variants"), CONFIGS)
def test_every_legal_action_round_trips_along_random_games(
    map_name: str, players: int, variants: tuple[str, ...]
) -> None:
    space = ttr_core.action_space(ttr_core.load_map(map_name), players, variants)
    variant_ids = 0
    for seed in range(3):
        state = ttr_core.new_game(map_name, players, seed=seed, variants=variants)
        assert ttr_core.action_space(state.board, players, variants) is space
        chooser = random.Random(seed)
        while not state.is_over:
            variant_ids += check_ids(state, space)
            legal = ttr_core.legal_actions(state)
            state = ttr_core.apply(state, legal[chooser.randrange(len(legal))])
    assert variant_ids > 0  # the games did meet variant actions


@pytest.mark.parametrize(("map_name", "players", "variants"), CONFIGS)
def test_ids_are_dense_unique_and_after_the_cores(
    map_name: str, players: int, variants: tuple[str, ...]
) -> None:
    board = ttr_core.load_map(map_name)
    core = ttr_core.action_space(board, players, [])
    space = ttr_core.action_space(board, players, variants)
    # The core's ids are those of a game without variants, unchanged.
    assert space.core_size == core.size == core.core_size
    assert (space.keep_base, space.keep_bits) == (core.keep_base, core.keep_bits)
    assert [space.template(i) for i in range(core.keep_base)] == [
        core.template(i) for i in range(core.keep_base)
    ]
    # The variants' ids follow, one range per declaring variant, with no gap.
    first = core.size
    for variant, start, stop in space.variant_ranges:
        assert variant in variants and start == first and stop > start
        first = stop
    assert first == space.size
    state = ttr_core.new_game(board, players, seed=0, variants=variants)
    made = [ttr_core.action_from_id(state, aid) for aid in range(core.size, space.size)]
    assert len(set(made)) == len(made)  # each id its own action
    assert [ttr_core.action_id(state, action) for action in made] == list(
        range(core.size, space.size)
    )
    assert all(action.player == state.current_player for action in made)


def test_the_neutral_players_ids_are_the_routes_printed_on_tickets() -> None:
    board = ttr_core.load_map("nederland")
    space = ttr_core.action_space(board, 2, ["tolls", "neutral"])
    ((variant, start, stop),) = space.variant_ranges
    printed = sorted(
        {r.id for t in board.tickets if t.extra.get("neutral") for r in _pair(board, t)}
    )
    assert variant == "neutral" and stop - start == len(printed)
    state = ttr_core.new_game(board, 2, seed=1, variants=["tolls", "neutral"])
    assert [ttr_core.action_from_id(state, aid).route for aid in range(start, stop)] == printed
    # The same ids in every game of the configuration, whatever the seed or seat.
    other = ttr_core.new_game(board, 2, seed=99, variants=["tolls", "neutral"])
    for route in printed:
        aid = ttr_core.action_id(state, ChooseNeutralRoute(0, route))
        assert ttr_core.action_id(other, ChooseNeutralRoute(1, route)) == aid
    # A route no ticket prints has no id; neither has a field of the wrong type.
    unprinted = next(r.id for r in board.routes if r.id not in printed)
    junk: list[Any] = [unprinted, True, [1]]
    for bad in (ChooseNeutralRoute(0, value) for value in junk):
        with pytest.raises(IllegalAction) as caught:
            ttr_core.action_id(state, bad)
        assert caught.value.reason == "unknown_action"


def _pair(board: Board, ticket: ttr_core.Ticket) -> list[ttr_core.Route]:
    places = set(ticket.extra["neutral"])
    return [r for r in board.routes if {r.a, r.b} == places]


@needs_swap
def test_the_variant_order_orders_the_ranges() -> None:
    board = ttr_core.load_map("nederland")
    one = ttr_core.action_space(board, 2, ["tolls", "neutral", "swap"])
    two = ttr_core.action_space(board, 2, ["swap", "tolls", "neutral"])
    assert [v for v, _, _ in one.variant_ranges] == ["neutral", "swap"]
    assert [v for v, _, _ in two.variant_ranges] == ["swap", "neutral"]
    assert one.size == two.size and one.core_size == two.core_size


# ---------------------------------------------------------------------------
# Plugins of the tests' own
# ---------------------------------------------------------------------------


@attrs.frozen
class Shout(Action):
    """Say a number (a variant action of the tests)."""

    loud: bool
    number: int


class Shouting:
    """A variant adding ``Shout`` actions on every turn, declared by ``templates``."""

    def __init__(self, templates: object = None, listed: Sequence[tuple[bool, int]] = ()) -> None:
        self.templates = templates
        self.listed = listed

    @hookimpl
    def ttr_extra_actions(self, state: GameState) -> Sequence[Action] | None:
        pending = state.pending
        if pending is None or pending.kind != "turn":
            return None
        return [Shout(pending.player, loud, n) for loud, n in self.listed]

    @hookimpl
    def ttr_apply_action(self, state: GameState, action: Action) -> GameState | None:
        return ttr_core.end_turn(state) if isinstance(action, Shout) else None


class DeclaringShouts(Shouting):
    @hookimpl
    def ttr_action_space(self, board: Board, players: int) -> Any:
        return self.templates


@pytest.fixture
def register() -> Iterator[Any]:
    names: list[str] = []

    def add(name: str, plugin: object) -> str:
        ttr_core.register_variant(name, plugin)
        names.append(name)
        return name

    yield add
    for name in names:
        ttr_core.unregister_variant(name)


def test_a_declared_test_variant_is_numbered_with_fields_in_any_order(register: Any) -> None:
    template = ActionTemplate(Shout, {"number": range(3), "loud": (False, True)})
    register("shout", DeclaringShouts([template], listed=[(True, 2), (False, 0)]))
    state = ttr_core.new_game("newyork", 2, seed=1, variants=["shout"])
    check_all_numbered(state.rules, "a test")
    space = ttr_core.action_space(state.board, 2, ["shout"])
    assert space.variant_ranges == (("shout", space.core_size, space.core_size + 6),)
    # The last field declared varies fastest.
    base = space.core_size
    made = [ttr_core.action_from_id(state, base + i) for i in range(6)]
    assert [(a.number, a.loud) for a in made] == [
        (n, loud) for n in range(3) for loud in (False, True)
    ]
    chooser = random.Random(1)
    for _ in range(40):
        assert check_ids(state, space) == (2 if state.pending.kind == "turn" else 0)
        legal = ttr_core.legal_actions(state)
        state = ttr_core.apply(state, legal[chooser.randrange(len(legal))])
    # True is not 1: a value of another type than declared has no id.
    with pytest.raises(IllegalAction):
        ttr_core.action_id(state, Shout(0, 1, 2))  # type: ignore[arg-type]


def test_a_variant_with_actions_and_no_declaration_is_refused_naming_the_hook(
    register: Any,
) -> None:
    register("mute", Shouting(listed=[(True, 1)]))
    state = ttr_core.new_game("newyork", 2, seed=1, variants=["mute"])
    with pytest.raises(UnsupportedVariantError, match="ttr_action_space") as caught:
        check_all_numbered(state.rules, "a test")
    assert caught.value.variant == "mute"
    state = started(state)
    shout = ttr_core.legal_actions(state)[-1]
    assert isinstance(shout, Shout)
    with pytest.raises(PluginError, match="ttr_action_space"):
        ttr_core.legal_action_ids(state)
    with pytest.raises(PluginError, match="ttr_action_space"):
        ttr_core.action_id(state, shout)


def test_an_action_no_template_covers_has_no_id(register: Any) -> None:
    # Declared, but the variant lists a value outside its domain: its own bug.
    register("half", DeclaringShouts([ActionTemplate(Shout, {"loud": [True], "number": [1]})]))
    state = ttr_core.new_game("newyork", 2, seed=1, variants=["half"])
    with pytest.raises(IllegalAction):
        ttr_core.action_id(state, Shout(0, False, 1))
    assert (
        ttr_core.action_id(state, Shout(0, True, 1))
        == ttr_core.action_space(state.board, 2, ["half"]).core_size
    )


@pytest.mark.parametrize(
    ("templates", "match"),
    [
        ("Shout", "expected a list"),
        ([Shout], "ActionTemplate items"),
        ([ActionTemplate(ttr_core.DrawBlind, {})], "of the variant's own"),
        ([ActionTemplate(int, {})], "of the variant's own"),  # type: ignore[arg-type]
        ([ActionTemplate(Shout, {"loud": [True]})], "each of loud, number"),
        ([ActionTemplate(Shout, {"loud": [True], "number": [1], "x": [1]})], "each of"),
        ([ActionTemplate(Shout, [("loud", [True])])], "map field names"),  # type: ignore[arg-type]
        ([ActionTemplate(Shout, {"loud": [True], "number": "12"})], "a domain is a list"),
        ([ActionTemplate(Shout, {"loud": [True], "number": [1, 1]})], "listed twice"),
        ([ActionTemplate(Shout, {"loud": [True], "number": [[1]]})], "hashable"),
        (
            [ActionTemplate(Shout, {"loud": [True], "number": [1, 2]})] * 2,
            "declared twice",
        ),
        (
            [ActionTemplate(Shout, {"loud": range(2**11), "number": range(2**10)})],
            "more than",
        ),
    ],
)
def test_a_malformed_declaration_is_a_plugin_error_naming_the_variant(
    register: Any, templates: object, match: str
) -> None:
    register("badly", DeclaringShouts(templates))
    state = ttr_core.new_game("newyork", 2, seed=1, variants=["badly"])
    with pytest.raises(PluginError, match=match) as caught:
        check_all_numbered(state.rules, "a test")
    assert caught.value.variant == "badly"
    assert caught.value.hook == "ttr_action_space"


def test_a_game_without_declaring_variants_keeps_the_core_space() -> None:
    board = ttr_core.load_map("nederland")
    core = ttr_core.action_space(board, 2, [])
    assert ttr_core.action_space(board, 2) is core  # the map's defaults (tolls) add none
    assert ttr_core.action_space(board, 2, ["tolls"]) is core
    assert core.variant_ranges == () and core.size == core.core_size

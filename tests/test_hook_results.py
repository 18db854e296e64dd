"""Every hook's result is checked: a bad one is a PluginError naming the variant and the hook."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import Action, GameState, PluginError, ScoreLine, hookimpl
from ttr_core.hooks import calls

from .helpers import claim, new_started, route_id, started


@attrs.frozen
class Extra(Action):
    """A variant action used by the tests below."""


class Plugin:
    """A plugin whose one hook is the function given to it."""

    def __init__(self, hook: str, function: Callable[..., Any]) -> None:
        setattr(self, hook, hookimpl(function))


@pytest.fixture
def install() -> Iterator[Callable[[str, Callable[..., Any]], None]]:
    names: list[str] = []

    def register(hook: str, function: Callable[..., Any]) -> None:
        ttr_core.register_variant("bad", Plugin(hook, function))
        names.append("bad")

    yield register
    for name in names:
        ttr_core.unregister_variant(name)


def assert_named(err: pytest.ExceptionInfo[PluginError], hook: str, fragment: str) -> None:
    assert err.value.variant == "bad"
    assert err.value.hook == hook
    assert "'bad'" in str(err.value) and hook in str(err.value)
    assert fragment in str(err.value)


def game(variants: list[str] | None = None, players: int = 2) -> GameState:
    chosen = ["bad"] if variants is None else variants
    return ttr_core.new_game("newyork", players, seed=1, variants=chosen)


# -- setup, and chained state hooks ---------------------------------------------


def test_setup_returning_a_non_state(install: Any) -> None:
    install("ttr_setup", lambda state: "not a state")
    with pytest.raises(PluginError) as err:
        game()
    assert_named(err, "ttr_setup", "must return a GameState or None, not str")


def test_setup_storing_an_unhashable_variant_state(install: Any) -> None:
    def setup(state: GameState) -> GameState:
        slots = (*state.variant_state, ("bad", [1, 2]))
        return attrs.evolve(state, variant_state=slots)

    install("ttr_setup", setup)
    with pytest.raises(PluginError) as err:
        game()
    assert_named(err, "ttr_setup", "unhashable value under variant state key 'bad'")


def test_with_variant_refuses_an_unhashable_value_at_once() -> None:
    state = game(variants=[])
    with pytest.raises(PluginError, match=r"'demo\.x' must be immutable and hashable"):
        state.with_variant("demo.x", {"a": 1})


def test_setup_creating_a_key_of_another_variant(install: Any) -> None:
    install("ttr_setup", lambda state: state.with_variant("tolls", 1))
    with pytest.raises(PluginError) as err:
        game()
    assert_named(err, "ttr_setup", "keys start with the variant name")


def test_setup_losing_cards(install: Any) -> None:
    install("ttr_setup", lambda state: attrs.evolve(state, deck=state.deck[1:]))
    with pytest.raises(PluginError) as err:
        game()
    assert_named(err, "ttr_setup", "holding 43 cards")


def test_setup_returning_a_state_of_another_game(install: Any) -> None:
    other = ttr_core.new_game("newyork", 3, variants=[])
    install("ttr_setup", lambda state: other)
    with pytest.raises(PluginError) as err:
        game()
    assert_named(err, "ttr_setup", "another game")


def test_after_claim_returning_a_non_state_always_checked(install: Any) -> None:
    install("ttr_after_claim", lambda state: 42)
    previous = ttr_core.set_strict(False)
    try:
        state = new_started(variants=["bad"])
        with pytest.raises(PluginError) as err:
            claim(state, 0, route_id(state, "Chelsea", "Soho"), "pink")
    finally:
        ttr_core.set_strict(previous)
    assert_named(err, "ttr_after_claim", "not int 42")


def test_after_claim_breaking_card_conservation_is_caught_in_strict_mode(install: Any) -> None:
    def lose_a_card(state: GameState) -> GameState:
        return attrs.evolve(state, deck=state.deck[1:])

    install("ttr_after_claim", lose_a_card)
    state = new_started(variants=["bad"])
    rid = route_id(state, "Chelsea", "Soho")
    previous = ttr_core.set_strict(True)
    try:
        with pytest.raises(PluginError) as err:
            claim(state, 0, rid, "pink")
        assert_named(err, "ttr_after_claim", "cards")
        # The cheap per-move check alone lets it through: that is what strict mode is for.
        ttr_core.set_strict(False)
        claim(state, 0, rid, "pink")
    finally:
        ttr_core.set_strict(previous)


def test_between_turns_returning_a_non_state(install: Any) -> None:
    install("ttr_between_turns", lambda state: [state])
    state = new_started(variants=["bad"])
    with pytest.raises(PluginError) as err:
        claim(state, 0, route_id(state, "Chelsea", "Soho"), "pink")
    assert_named(err, "ttr_between_turns", "must return a GameState")


def test_game_over_must_leave_the_game_over(install: Any) -> None:
    def revive(state: GameState) -> GameState:
        return attrs.evolve(state, pending=ttr_core.Pending("turn", 0), termination=None)

    install("ttr_game_over", revive)
    with pytest.raises(PluginError) as err:
        ttr_core.random_playout("newyork", 2, seed=3, variants=["bad"])
    assert_named(err, "ttr_game_over", "no longer over")


# -- actions ------------------------------------------------------------------------


def test_extra_action_for_the_wrong_seat(install: Any) -> None:
    install("ttr_extra_actions", lambda state: [Extra(1)])
    state = new_started(variants=["bad"])
    assert state.current_player == 0
    with pytest.raises(PluginError) as err:
        ttr_core.legal_actions(state)
    assert_named(err, "ttr_extra_actions", "seat 0 is to decide")


def test_extra_action_that_is_not_an_action(install: Any) -> None:
    install("ttr_extra_actions", lambda state: ["draw please"])
    with pytest.raises(PluginError) as err:
        ttr_core.legal_actions(new_started(variants=["bad"]))
    assert_named(err, "ttr_extra_actions", "ttr_core.Action objects")


def test_extra_actions_that_are_not_a_sequence(install: Any) -> None:
    install("ttr_extra_actions", lambda state: Extra(0))
    with pytest.raises(PluginError) as err:
        ttr_core.legal_actions(new_started(variants=["bad"]))
    assert_named(err, "ttr_extra_actions", "must return a sequence of actions")


def test_unhashable_extra_action(install: Any) -> None:
    @attrs.frozen
    class Mutable(Action):
        items: list[int]

    install("ttr_extra_actions", lambda state: [Mutable(0, [1])])
    with pytest.raises(PluginError) as err:
        ttr_core.legal_actions(new_started(variants=["bad"]))
    assert_named(err, "ttr_extra_actions", "unhashable action")


def test_apply_action_returning_a_non_state(install: Any) -> None:
    install("ttr_apply_action", lambda state, action: "done")
    with pytest.raises(PluginError) as err:
        ttr_core.apply(new_started(variants=["bad"]), Extra(0))
    assert_named(err, "ttr_apply_action", "must return a GameState")


def test_veto_returning_a_non_string(install: Any) -> None:
    install("ttr_veto_action", lambda state, action: True)
    with pytest.raises(PluginError) as err:
        ttr_core.legal_actions(new_started(variants=["bad"]))
    assert_named(err, "ttr_veto_action", "a reason (a non-empty string) or None, not bool")


def test_filter_adding_actions(install: Any) -> None:
    install("ttr_filter_actions", lambda state, actions: [*actions, Extra(0)])
    with pytest.raises(PluginError) as err:
        ttr_core.legal_actions(new_started(variants=["bad"]))
    assert_named(err, "ttr_filter_actions", "it may only remove")


def test_filter_swapping_in_a_foreign_action_is_caught_in_strict_mode(install: Any) -> None:
    install("ttr_filter_actions", lambda state, actions: [Extra(0), *actions[1:]])
    previous = ttr_core.set_strict(True)
    try:
        with pytest.raises(PluginError) as err:
            ttr_core.legal_actions(new_started(variants=["bad"]))
    finally:
        ttr_core.set_strict(previous)
    assert_named(err, "ttr_filter_actions", "not one of the candidates")


def test_filter_returning_a_non_sequence(install: Any) -> None:
    install("ttr_filter_actions", lambda state, actions: 3)
    with pytest.raises(PluginError) as err:
        ttr_core.legal_actions(new_started(variants=["bad"]))
    assert_named(err, "ttr_filter_actions", "sequence of actions")


# -- scoring and views ----------------------------------------------------------------


def test_score_lines_for_the_wrong_number_of_seats(install: Any) -> None:
    install("ttr_score_lines", lambda state: [[ScoreLine("bad", "x", 1)]])
    with pytest.raises(PluginError) as err:
        ttr_core.score_sheets(game())
    assert_named(err, "ttr_score_lines", "lines for 1 seats; the game has 2")


def test_score_lines_that_are_not_score_lines(install: Any) -> None:
    install("ttr_score_lines", lambda state: [[("bonus", 3)], []])
    with pytest.raises(PluginError) as err:
        ttr_core.score_sheets(game())
    assert_named(err, "ttr_score_lines", "not a ScoreLine")


def test_score_lines_with_fractional_points(install: Any) -> None:
    install("ttr_score_lines", lambda state: [[ScoreLine("bad", "half", 0.5)], []])  # type: ignore[arg-type]
    with pytest.raises(PluginError) as err:
        ttr_core.score_sheets(game())
    assert_named(err, "ttr_score_lines", "whole numbers")


def test_tie_break_naming_a_seat_that_is_not_tied(install: Any) -> None:
    install("ttr_tie_break", lambda state, sheets, tied: [5])
    with pytest.raises(PluginError) as err:
        ttr_core.final_scores(tied_game(["bad"]))
    assert_named(err, "ttr_tie_break", "non-empty subset of the tied seats (0, 1)")


def test_tie_break_removing_everyone(install: Any) -> None:
    install("ttr_tie_break", lambda state, sheets, tied: [])
    with pytest.raises(PluginError) as err:
        ttr_core.final_scores(tied_game(["bad"]))
    assert_named(err, "ttr_tie_break", "non-empty subset")


def tied_game(variants: list[str]) -> GameState:
    """A finished 2-player game with equal totals and no ticket done by either."""
    state = started(ttr_core.new_game("newyork", 2, seed=1, variants=variants))
    return attrs.evolve(
        state,
        players=tuple(attrs.evolve(p, tickets=()) for p in state.players),
        pending=None,
        termination=ttr_core.Termination.CARS,
    )


def test_view_key_without_the_variant_prefix(install: Any) -> None:
    install("ttr_player_view", lambda state, player: {"secret": 1})
    with pytest.raises(PluginError) as err:
        ttr_core.player_view(game(), 0)
    assert_named(err, "ttr_player_view", "keys start with 'bad.'")


def test_view_that_is_not_a_mapping(install: Any) -> None:
    install("ttr_player_view", lambda state, player: [("bad.x", 1)])
    with pytest.raises(PluginError) as err:
        ttr_core.player_view(game(), 0)
    assert_named(err, "ttr_player_view", "must return a mapping")


def test_clashing_view_keys_name_both_variants() -> None:
    class First:
        @hookimpl
        def ttr_player_view(self) -> dict[str, int]:
            return {"bad.x": 1}

    class Second:
        @hookimpl
        def ttr_player_view(self) -> dict[str, int]:
            return {"bad.x": 2}

    # "bad.x" is a legal key for variant "bad" and for variant "bad.x" alike.
    ttr_core.register_variant("bad", First())
    ttr_core.register_variant("bad.x", Second())
    try:
        with pytest.raises(PluginError) as err:
            ttr_core.player_view(game(["bad", "bad.x"]), 0)
    finally:
        ttr_core.unregister_variant("bad")
        ttr_core.unregister_variant("bad.x")
    assert err.value.variant == "bad.x"
    assert "which variant 'bad' shows already" in str(err.value)


# -- declarations and map hooks ----------------------------------------------------------


def test_map_fields_of_the_wrong_shape_are_refused_at_registration() -> None:
    class Fields:
        @hookimpl
        def ttr_map_fields(self) -> list[str]:
            return ["toll"]

    with pytest.raises(PluginError) as err:
        ttr_core.register_variant("bad", Fields())
    assert (err.value.variant, err.value.hook) == ("bad", "ttr_map_fields")
    assert "bad" not in ttr_core.available_variants()


def test_map_field_on_an_unknown_table() -> None:
    class Fields:
        @hookimpl
        def ttr_map_fields(self) -> list[ttr_core.MapField]:
            return [ttr_core.MapField("cities", "x", bool, False)]

    with pytest.raises(PluginError, match="unknown table 'cities'") as err:
        ttr_core.register_variant("bad", Fields())
    assert err.value.hook == "ttr_map_fields"


def test_validate_map_returning_non_strings_marks_the_plugin_broken(install: Any) -> None:
    install("ttr_validate_map", lambda board: [1, 2])
    board = ttr_core.parse_map(newyork_text(), "ny.toml")  # the map still loads
    assert board.id == "newyork"
    broken = ttr_core.broken_variants()
    assert "variant 'bad': hook ttr_validate_map must return problem messages" in broken["bad"]
    assert "bad" not in ttr_core.available_variants()
    with pytest.raises(PluginError, match="installed but broken"):
        game()
    ttr_core.random_playout("newyork", 2, seed=1)  # every other game plays


def test_validate_map_messages_name_the_variant(install: Any) -> None:
    install("ttr_validate_map", lambda board: ["the map is too small"])
    with pytest.raises(ttr_core.MapError) as err:
        ttr_core.parse_map(newyork_text(), "ny.toml")
    (problem,) = err.value.problems
    assert problem.message == "the map is too small (variant 'bad')"


def newyork_text() -> str:
    from importlib import resources

    packaged = resources.files("ttr_core") / "maps" / "newyork.toml"
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    from pathlib import Path

    return (Path(__file__).resolve().parents[1] / "maps" / "newyork.toml").read_text("utf-8")


def test_both_pair_routes_usable_returning_a_non_bool(install: Any) -> None:
    install("ttr_both_pair_routes_usable", lambda: "yes")
    with pytest.raises(PluginError) as err:
        game()
    assert_named(err, "ttr_both_pair_routes_usable", "True, False or None")


def test_an_exception_inside_a_hook_names_the_variant_and_the_hook(install: Any) -> None:
    def broken(state: GameState) -> GameState:
        return state.players[7]  # type: ignore[return-value]

    install("ttr_setup", broken)
    with pytest.raises(PluginError) as err:
        game()
    assert_named(err, "ttr_setup", "raised IndexError")
    assert isinstance(err.value.__cause__, IndexError)


def test_a_ttr_error_from_a_hook_passes_through_unchanged(install: Any) -> None:
    def refuse(state: GameState, action: Action) -> GameState:
        raise ttr_core.IllegalAction("bad:nope", "not now")

    install("ttr_apply_action", refuse)
    with pytest.raises(ttr_core.IllegalAction) as err:
        ttr_core.apply(new_started(variants=["bad"]), Extra(0))
    assert err.value.reason == "bad:nope"


# -- configuration check and non-seat owners ------------------------------------


def test_check_game_refusing_is_a_game_config_error_naming_the_variant(install: Any) -> None:
    install("ttr_check_game", lambda players: f"not with {players} players")
    with pytest.raises(ttr_core.GameConfigError, match="variant 'bad': not with 3 players") as err:
        game(players=3)
    assert err.value.variant == "bad"


def test_check_game_returning_a_non_sentence(install: Any) -> None:
    install("ttr_check_game", lambda: 3)
    with pytest.raises(PluginError) as err:
        game()
    assert_named(err, "ttr_check_game", "must return a reason (a non-empty string) or None")


@pytest.mark.parametrize(
    ("owners", "fragment"),
    [
        ("neutral", "must return a sequence of NonSeatOwner objects, not str"),
        (["neutral"], "must return NonSeatOwner objects, not str"),
        ([ttr_core.NonSeatOwner(1, "neutral")], "from 2 up (0 to 1 are the seats)"),
        ([ttr_core.NonSeatOwner(True, "neutral")], "declared owner True"),
        ([ttr_core.NonSeatOwner(2, "a"), ttr_core.NonSeatOwner(2, "b")], "declared owner 2 twice"),
        ([ttr_core.NonSeatOwner(2, "")], "the name must be a non-empty string"),
        ([ttr_core.NonSeatOwner(2, "n", cars=-1)], "cars must be a whole number ≥ 0 or None"),
        ([ttr_core.NonSeatOwner(2, "n", routes=(1,))], "leave routes empty"),
    ],
)
def test_non_seat_owners_bad_results(install: Any, owners: object, fragment: str) -> None:
    install("ttr_non_seat_owners", lambda: owners)
    state = game()
    with pytest.raises(PluginError) as err:
        ttr_core.non_seat_owners(state)
    assert_named(err, "ttr_non_seat_owners", fragment)


def test_non_seat_owners_get_their_routes_from_the_core(install: Any) -> None:
    install("ttr_non_seat_owners", lambda: [ttr_core.NonSeatOwner(5, "ghost", cars=None)])
    state = started(game())
    assert ttr_core.non_seat_owners(state) == (ttr_core.NonSeatOwner(5, "ghost"),)
    state = ttr_core.effects.claim_route(state, 3, 5)
    (ghost,) = ttr_core.player_view(state, 0).others
    assert ghost.routes == (3,) and ghost.cars is None


# -- declarations for saves -------------------------------------------------------


@pytest.mark.parametrize(
    ("hook", "result", "fragment"),
    [
        ("ttr_action_types", ["bad.extra"], "must return a mapping name → action class"),
        ("ttr_action_types", {"other.extra": Extra}, "names start with 'bad.'"),
        ("ttr_action_types", {"bad.extra": dict}, "not an attrs subclass of Action"),
        ("ttr_variant_state_types", {"tolls": int}, "names start with 'bad.'"),
    ],
)
def test_save_declarations_are_checked(
    install: Any, hook: str, result: object, fragment: str
) -> None:
    install(hook, lambda: result)
    state = game()
    with pytest.raises(PluginError) as err:
        if hook == "ttr_action_types":
            ttr_core.to_json(Extra(0))
        else:
            ttr_core.to_json(state.with_variant("bad", 1))
    assert_named(err, hook, fragment)


# -- advice for bots --------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "fragment"),
    [
        ("cheap", "must return a sequence of"),
        ("short", "one number per route"),
        ("nan", "costs are finite numbers"),
        ("text", "costs are finite numbers"),
        ("bool", "costs are finite numbers"),
    ],
)
def test_bad_advice_for_bots(install: Any, result: str, fragment: str) -> None:
    def advise(view: ttr_core.PlayerView) -> object:
        routes = len(view.board.routes)
        bad = {"nan": float("nan"), "text": "1", "bool": True}
        if result in bad:
            return [0.0] * (routes - 1) + [bad[result]]
        return "cheap" if result == "cheap" else [1.0, 2.0]

    install("ttr_agent_route_costs", advise)
    state = game()
    with pytest.raises(PluginError) as err:
        calls.run_agent_route_costs(state.rules, ttr_core.player_view(state, 0))
    assert_named(err, "ttr_agent_route_costs", fragment)


def test_advice_for_bots_is_summed_over_variants(install: Any) -> None:
    install("ttr_agent_route_costs", lambda view: [1] * len(view.board.routes))
    state = ttr_core.new_game("nederland", 2, seed=1, variants=["bad", "tolls"])  # a map with tolls
    view = ttr_core.player_view(state, 0)
    tolls = [route.extra.get("toll", 0) for route in state.board.routes]
    assert calls.run_agent_route_costs(state.rules, view) == [1 + toll / 3 for toll in tolls]

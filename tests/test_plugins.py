"""The hook system: entry points, resolved rule sets, and every extension point."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import (
    Action,
    DrawTickets,
    GameState,
    IllegalAction,
    Pending,
    Reason,
    ScoreLine,
    hookimpl,
)

from .helpers import claim, new_started, route_id


def test_builtin_plugins_register_through_the_public_entry_point_group() -> None:
    found = {ep.name: ep.value for ep in entry_points(group="ttr_core.plugins")}
    assert found["attractions"] == "ttr_core_plugins.attractions"
    assert "attractions" in ttr_core.available_variants()


def _code_without_docs(source: str) -> str:
    """The code of a module with comments and docstrings dropped."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            body[0] = ast.Pass()
    return ast.unparse(tree).lower()


def test_the_core_never_names_a_variant() -> None:
    core = Path(ttr_core.__file__).parent
    variants = ttr_core.available_variants()
    assert variants
    for source in core.glob("*.py"):
        code = _code_without_docs(source.read_text(encoding="utf-8"))
        for variant in variants:
            assert variant not in code, f"{source.name} names variant {variant!r}"
            assert variant.rstrip("s") not in code, f"{source.name} names variant {variant!r}"


def test_hooks_no_plugin_implements_cost_nothing_per_move() -> None:
    rules = ttr_core.new_game("newyork", 2).rules
    assert rules.variants == ("attractions",)
    assert rules.setup == rules.after_claim == rules.between_turns == rules.game_over == ()
    assert rules.veto == rules.filter == rules.extra_actions == rules.apply_action == ()
    assert [impl.variant for impl in rules.score_lines] == ["attractions"]
    bare = ttr_core.new_game("newyork", 2, variants=[]).rules
    assert bare.score_lines == ()


def test_rule_sets_are_resolved_once_per_configuration() -> None:
    a = ttr_core.new_game("newyork", 2, seed=1)
    b = ttr_core.new_game("newyork", 2, seed=2)
    assert a.rules is b.rules
    assert ttr_core.new_game("newyork", 3).rules is not a.rules


@attrs.frozen
class Bonus(Action):
    """A variant action: take one point and end the turn."""


@attrs.frozen
class Choose(Action):
    """A variant decision the plugin makes pending."""

    option: int


class DemoPlugin:
    """Implements every hook, recording what it sees in its variant state."""

    @hookimpl
    def ttr_setup(self, state: GameState) -> GameState:
        return state.with_variant("demo.claims", 0).with_variant("demo.secret", "hidden")

    @hookimpl
    def ttr_both_pair_routes_usable(self, board: ttr_core.Board, players: int) -> bool:
        return True

    @hookimpl
    def ttr_veto_action(self, state: GameState, action: Action) -> str | None:
        if isinstance(action, DrawTickets):
            return "the demo variant has no tickets to draw"
        return None

    @hookimpl
    def ttr_extra_actions(self, state: GameState) -> Sequence[Action]:
        assert state.pending is not None
        if state.pending.kind == "turn":
            return [Bonus(state.pending.player)]
        if state.pending.kind == "demo:choose":
            return [Choose(state.pending.player, 1), Choose(state.pending.player, 2)]
        return []

    @hookimpl
    def ttr_apply_action(self, state: GameState, action: Action) -> GameState | None:
        if isinstance(action, Bonus):
            if state.pending is None or state.pending.kind != "turn":
                raise IllegalAction("demo:not_now", "bonus only on a turn")
            seat = action.player
            player = attrs.evolve(state.players[seat], score=state.players[seat].score + 1)
            players = (*state.players[:seat], player, *state.players[seat + 1 :])
            return attrs.evolve(state, players=players, pending=Pending("demo:choose", seat))
        if isinstance(action, Choose):
            return ttr_core.end_turn(state.with_variant("demo.choice", action.option))
        return None

    @hookimpl
    def ttr_after_claim(self, state: GameState, player: int, route: int) -> GameState:
        return state.with_variant("demo.claims", state.variant("demo.claims") + 1)

    @hookimpl
    def ttr_between_turns(self, state: GameState) -> GameState:
        return state.with_variant("demo.next", state.current_player)

    @hookimpl
    def ttr_score_lines(self, state: GameState) -> Sequence[Sequence[ScoreLine]]:
        return [[ScoreLine("demo", "Demo bonus", 100 + seat)] for seat in range(state.num_players)]

    @hookimpl
    def ttr_player_view(self, state: GameState, player: int) -> dict[str, Any]:
        return {"demo.claims": state.variant("demo.claims")}


class TracePlugin:
    """A second chained plugin: appends to a trace to show the chain order."""

    @hookimpl
    def ttr_after_claim(self, state: GameState) -> GameState:
        return state.with_variant("trace.claims", state.variant("demo.claims"))


@pytest.fixture
def demo() -> Iterator[None]:
    ttr_core.register_variant("demo", DemoPlugin())
    ttr_core.register_variant("trace", TracePlugin())
    yield
    ttr_core.unregister_variant("demo")
    ttr_core.unregister_variant("trace")


@pytest.mark.usefixtures("demo")
def test_setup_hook_creates_variant_state() -> None:
    state = ttr_core.new_game("newyork", 2, variants=["demo"])
    assert state.variant("demo.claims") == 0
    assert state.variant("missing", "default") == "default"


@pytest.mark.usefixtures("demo")
def test_veto_removes_the_action_and_apply_refuses_it() -> None:
    state = new_started(variants=["demo"])
    assert DrawTickets(0) not in ttr_core.legal_actions(state)
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, DrawTickets(0))
    assert err.value.reason == Reason.VETOED
    assert "no tickets" in str(err.value)


@pytest.mark.usefixtures("demo")
def test_double_route_policy_can_be_overridden_for_the_game() -> None:
    state = new_started(players=2, variants=["demo"])
    green = route_id(state, "Lincoln Center", "Times Square", "green")
    blue = route_id(state, "Lincoln Center", "Times Square", "blue")
    state = claim(state, 0, green, "green")
    state = claim(state, 1, blue, "blue")
    assert state.owner(blue) == 1
    # ... but one player still never owns both
    other = route_id(state, "Chinatown", "Wall Street", "green")
    state = claim(state, 0, other, "green")
    with pytest.raises(IllegalAction) as err:
        claim(state, 0, state.board.routes[other].partner, "pink")
    assert err.value.reason == Reason.OWNS_PARALLEL_ROUTE


@pytest.mark.usefixtures("demo")
def test_after_claim_hooks_chain_in_variant_order() -> None:
    state = new_started(variants=["demo", "trace"])
    state = claim(state, 0, route_id(state, "Chelsea", "Soho"), "pink")
    assert state.variant("demo.claims") == 1
    assert state.variant("trace.claims") == 1  # saw demo's update
    reverse = new_started(variants=["trace", "demo"])
    reverse = claim(reverse, 0, route_id(reverse, "Chelsea", "Soho"), "pink")
    assert reverse.variant("trace.claims") == 0  # ran before demo's update


@pytest.mark.usefixtures("demo")
def test_between_turns_runs_after_each_turn_with_the_next_seat() -> None:
    state = new_started(variants=["demo"])
    state = claim(state, 0, route_id(state, "Chelsea", "Soho"), "pink")
    assert state.variant("demo.next") == 1


@pytest.mark.usefixtures("demo")
def test_variant_actions_and_variant_pending_decisions() -> None:
    state = new_started(variants=["demo"])
    assert Bonus(0) in ttr_core.legal_actions(state)
    state = ttr_core.apply(state, Bonus(0))
    assert state.pending.kind == "demo:choose"
    assert set(ttr_core.legal_actions(state)) == {Choose(0, 1), Choose(0, 2)}
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ttr_core.DrawBlind(0))
    assert err.value.reason == Reason.WRONG_PHASE
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, Bonus(0))
    assert err.value.reason == "demo:not_now"
    state = ttr_core.apply(state, Choose(0, 2))
    assert state.variant("demo.choice") == 2
    assert state.current_player == 1 and state.turn == 1


@pytest.mark.usefixtures("demo")
def test_score_lines_and_views_of_variant_state() -> None:
    state = new_started(variants=["demo"])
    sheets = ttr_core.score_sheets(state)
    assert [s.lines[-1] for s in sheets] == [
        ScoreLine("demo", "Demo bonus", 100),
        ScoreLine("demo", "Demo bonus", 101),
    ]
    view = ttr_core.player_view(state, 1)
    assert dict(view.variants) == {"demo.claims": 0}  # demo.secret stays hidden


def test_a_plugin_with_a_misspelled_hook_is_refused() -> None:
    class Typo:
        @hookimpl
        def ttr_after_clam(self, state: GameState) -> None:
            return None

    with pytest.raises(ttr_core.PluginError) as err:
        ttr_core.register_variant("typo", Typo())
    assert "ttr_after_clam" in str(err.value)
    assert "typo" not in ttr_core.available_variants()


def test_trace_env_switch_prints_hook_calls(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    from ttr_core.hooks import manager

    monkeypatch.setenv("TTR_TRACE_HOOKS", "1")
    manager._plugins_changed()  # the rule sets resolved before are left behind
    try:
        state = ttr_core.new_game("newyork", 2)
        ttr_core.score_sheets(state)
        assert "ttr_score_lines" in capsys.readouterr().err
    finally:
        manager._plugins_changed()


class VetoAll:
    @hookimpl
    def ttr_veto_action(self, state: GameState, action: Action) -> str:
        return "nothing is allowed"


def test_a_turn_with_every_action_vetoed_can_still_be_passed() -> None:
    ttr_core.register_variant("vetoall", VetoAll())
    try:
        state = ttr_core.new_game("newyork", 2, variants=["vetoall"])
        # the starting choice has no action left at all: a plugin bug, named
        with pytest.raises(ttr_core.PluginError, match="start_tickets"):
            ttr_core.legal_actions(state)
        state = attrs.evolve(state, pending=Pending("turn", 0), start_offers=())
        assert ttr_core.legal_actions(state) == (ttr_core.Pass(0),)
        after = ttr_core.apply(state, ttr_core.Pass(0))
        assert after.current_player == 1
    finally:
        ttr_core.unregister_variant("vetoall")


@pytest.mark.usefixtures("demo")
def test_a_vetoed_action_in_the_wrong_phase_is_reported_as_the_wrong_phase() -> None:
    state = ttr_core.apply(new_started(variants=["demo"]), ttr_core.DrawBlind(0))
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, DrawTickets(0))
    assert err.value.reason == Reason.WRONG_PHASE


def test_hooks_refuse_ordering_markers() -> None:
    class Eager:
        @hookimpl(tryfirst=True)
        def ttr_after_claim(self, state: GameState) -> None:
            return None

    with pytest.raises(ttr_core.PluginError, match="variant order") as err:
        ttr_core.register_variant("eager", Eager())
    assert (err.value.variant, err.value.hook) == ("eager", "ttr_after_claim")
    assert "eager" not in ttr_core.available_variants()


def test_two_plugins_declaring_the_same_map_field_conflict() -> None:
    class Copycat:
        @hookimpl
        def ttr_map_fields(self) -> list[ttr_core.MapField]:
            return [ttr_core.MapField("locations", "attraction", bool, False)]

    with pytest.raises(ttr_core.PluginError, match=r"'attraction'.*'attractions'") as err:
        ttr_core.register_variant("copycat", Copycat())
    assert (err.value.variant, err.value.hook) == ("copycat", "ttr_map_fields")
    assert "copycat" not in ttr_core.available_variants()
    ttr_core.load_map("newyork")  # every map still loads


def test_a_plugin_registered_later_sees_maps_loaded_again_with_its_fields() -> None:
    before = ttr_core.load_map("newyork")

    class Extra:
        @hookimpl
        def ttr_map_fields(self) -> list[ttr_core.MapField]:
            return [ttr_core.MapField("routes", "scenic", bool, False)]

    ttr_core.register_variant("extra", Extra())
    try:
        after = ttr_core.load_map("newyork")
        assert after is not before
        assert after.routes[0].extra["scenic"] is False
    finally:
        ttr_core.unregister_variant("extra")

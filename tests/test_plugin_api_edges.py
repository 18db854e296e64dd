"""Edges of the plugin API: what a careless or hostile plugin can do, refused with a name."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import (
    Action,
    ClaimRoute,
    DrawBlind,
    GameState,
    IllegalAction,
    MapField,
    Pending,
    PluginError,
    Reason,
    VariantOption,
    effects,
    hookimpl,
)
from ttr_core.cli import main
from ttr_core.hooks.resolve import _resolve

from .helpers import claim, new_started, route_id, started, with_hand
from .test_hook_results import Plugin, newyork_text


@pytest.fixture
def install() -> Iterator[Callable[..., None]]:
    names: list[str] = []

    def register(hook: str, function: Callable[..., Any], name: str = "edge") -> None:
        ttr_core.register_variant(name, Plugin(hook, function))
        names.append(name)

    yield register
    for name in names:
        ttr_core.unregister_variant(name)


@pytest.fixture
def lax() -> Iterator[None]:
    """The cheap default checks only (strict mode off)."""
    previous = ttr_core.set_strict(False)
    yield
    ttr_core.set_strict(previous)


def named(err: pytest.ExceptionInfo[PluginError], hook: str, variant: str = "edge") -> None:
    assert (err.value.variant, err.value.hook) == (variant, hook)
    assert f"variant {variant!r}" in str(err.value) and hook in str(err.value)


# -- filters -----------------------------------------------------------------------------


def test_a_filter_cannot_edit_its_candidates_in_place(install: Any) -> None:
    def sneaky(actions: Any) -> Any:
        actions.remove(actions[0])  # a tuple: there is nothing to edit
        return actions

    install("ttr_filter_actions", sneaky)
    with pytest.raises(PluginError) as err:
        ttr_core.legal_actions(new_started(variants=["edge"]))
    named(err, "ttr_filter_actions")
    assert "AttributeError" in str(err.value)


def test_a_filter_returning_unhashable_items_is_named(install: Any, lax: None) -> None:
    install("ttr_filter_actions", lambda actions: [["x"]])
    with pytest.raises(PluginError) as err:
        ttr_core.legal_actions(new_started(variants=["edge"]))
    named(err, "ttr_filter_actions")
    assert "not one of the candidate actions" in str(err.value)


def test_a_filter_returning_an_action_twice_is_named(install: Any, lax: None) -> None:
    install("ttr_filter_actions", lambda actions: [actions[0], actions[0]])
    with pytest.raises(PluginError, match="an action twice") as err:
        ttr_core.legal_actions(new_started(variants=["edge"]))
    named(err, "ttr_filter_actions")


def test_a_filter_of_equal_length_keeps_the_candidates_outside_strict_mode(
    install: Any, lax: None
) -> None:
    # Garbage of the same length as the candidates means nothing was removed:
    # the engine keeps its own list rather than trust the result.
    install("ttr_filter_actions", lambda actions: ["junk"] * len(actions))
    state = new_started(variants=["edge"])
    plain = ttr_core.legal_actions(new_started(variants=[]))
    assert ttr_core.legal_actions(state) == plain
    ttr_core.set_strict(True)
    with pytest.raises(PluginError, match="not one of the candidate actions"):
        ttr_core.legal_actions(new_started(variants=["edge"]))


class Recorder:
    def __init__(self) -> None:
        self.claims: list[int] = []

    @hookimpl
    def ttr_after_claim(self, route: int) -> None:
        self.claims.append(route)


def test_apply_refuses_a_filtered_action_before_any_of_its_effects(install: Any) -> None:
    recorder = Recorder()
    ttr_core.register_variant("recorder", recorder)
    install("ttr_filter_actions", lambda actions: [a for a in actions if type(a) is not ClaimRoute])
    try:
        state = with_hand(new_started(variants=["recorder", "edge"]), 0, pink=4)
        rid = route_id(state, "Chelsea", "Soho")
        with pytest.raises(IllegalAction) as err:
            ttr_core.apply(state, ClaimRoute(0, rid, "pink", 0))
        assert err.value.reason == Reason.VETOED
        assert recorder.claims == []  # the claim's after-claim hook never ran
    finally:
        ttr_core.unregister_variant("recorder")


# -- errors raised by the library inside a hook ---------------------------------------------


def test_an_unhashable_with_variant_inside_a_hook_names_the_variant(install: Any) -> None:
    install("ttr_after_claim", lambda state: state.with_variant("edge", [1]))
    state = new_started(variants=["edge"])
    with pytest.raises(PluginError) as err:
        claim(state, 0, route_id(state, "Chelsea", "Soho"), "pink")
    named(err, "ttr_after_claim")
    assert "must be immutable and hashable" in str(err.value)


def test_an_effect_helper_refusal_inside_a_hook_names_the_variant(install: Any) -> None:
    install("ttr_between_turns", lambda state: effects.add_points(state, 9, 1))
    state = new_started(variants=["edge"])
    with pytest.raises(PluginError) as err:
        claim(state, 0, route_id(state, "Chelsea", "Soho"), "pink")
    named(err, "ttr_between_turns")
    assert "seat must be 0 to 1" in str(err.value)


def test_a_veto_of_an_empty_reason_is_refused(install: Any) -> None:
    install("ttr_veto_action", lambda action: "")
    with pytest.raises(PluginError, match="non-empty string") as err:
        ttr_core.legal_actions(new_started(variants=["edge"]))
    named(err, "ttr_veto_action")


# -- states returned by hooks -------------------------------------------------------------


def test_a_state_waiting_for_no_seat_is_refused_even_outside_strict_mode(
    install: Any, lax: None
) -> None:
    install("ttr_between_turns", lambda state: attrs.evolve(state, pending=Pending("turn", 7)))
    state = new_started(variants=["edge"])
    with pytest.raises(PluginError, match="waiting for seat 7") as err:
        claim(state, 0, route_id(state, "Chelsea", "Soho"), "pink")
    named(err, "ttr_between_turns")


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda s: attrs.evolve(s, pending=None), "no pending decision that is not over"),
        (lambda s: attrs.evolve(s, players=(1, 2)), "not PlayerState objects"),
        (
            lambda s: attrs.evolve(s, variant_state=(("edge.b", 1), ("edge.a", 2))),
            "not sorted and unique",
        ),
        (
            lambda s: attrs.evolve(
                s,
                players=(
                    attrs.evolve(
                        s.players[0],
                        hand=ttr_core.Hand((-1, *s.players[0].hand.counts[1:]), s.board.card_names),
                    ),
                    s.players[1],
                ),
                deck=(*s.deck, 0),
            ),
            "negative counts",
        ),
        (lambda s: attrs.evolve(s, ticket_deck=s.ticket_deck[1:]), "tickets are not each"),
        (
            lambda s: attrs.evolve(s, ticket_deck=(*s.ticket_deck, s.ticket_deck[0])),
            "tickets are not each",
        ),
        (
            lambda s: attrs.evolve(s, rules=ttr_core.new_game(s.board, 2, variants=[]).rules),
            "another game",
        ),
        (lambda s: attrs.evolve(s, deck=s.deck[1:]), "cards"),
    ],
)
def test_strict_mode_checks_every_state_a_per_move_hook_returns(
    install: Any, change: Callable[[GameState], GameState], fragment: str
) -> None:
    install("ttr_between_turns", lambda state: change(state))
    state = new_started(variants=["edge"])
    rid = route_id(state, "Chelsea", "Soho")
    with pytest.raises(PluginError, match=fragment) as err:
        claim(state, 0, rid, "pink")
    named(err, "ttr_between_turns")


def test_strict_mode_covers_apply_action_and_game_over(install: Any) -> None:
    @attrs.frozen
    class Lose(Action):
        """Loses a card: a plugin bug."""

    def lose(state: GameState, action: Action) -> GameState:
        return attrs.evolve(state, deck=state.deck[1:])

    install("ttr_apply_action", lose)
    with pytest.raises(PluginError, match="cards") as err:
        ttr_core.apply(new_started(variants=["edge"]), Lose(0))
    named(err, "ttr_apply_action")
    ttr_core.set_strict(False)
    try:
        ttr_core.apply(new_started(variants=["edge"]), Lose(0))  # only strict mode sees it
    finally:
        ttr_core.set_strict(True)


def test_game_over_is_always_checked_in_full(install: Any, lax: None) -> None:
    install("ttr_game_over", lambda state: attrs.evolve(state, deck=state.deck[1:]))
    with pytest.raises(PluginError, match="cards") as err:
        ttr_core.random_playout("newyork", 2, seed=2, variants=["edge"])
    named(err, "ttr_game_over")


# -- declarations ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "fragment"),
    [
        (VariantOption("not valid", int, 1), "names are identifiers"),
        (VariantOption("n", list, []), "unsupported type"),
        ("n", "VariantOption objects"),
    ],
)
def test_bad_option_declarations_are_refused(option: Any, fragment: str) -> None:
    class Declares:
        @hookimpl
        def ttr_options(self) -> list[Any]:
            return [option]

    with pytest.raises(PluginError, match=fragment) as err:
        ttr_core.register_variant("edge", Declares())
    named(err, "ttr_options")


@pytest.mark.parametrize(
    ("field", "fragment"),
    [
        (MapField("routes", "not valid", bool, False), "names are identifiers"),
        (MapField("routes", "x", float, 0.0), "unknown type"),
        (MapField("routes", "x", int, "not an int"), "default of the wrong type"),
        (MapField("routes", "x", int, True), "default of the wrong type"),
        (MapField("tickets", "x", ttr_core.ROUTE, "A"), "default of the wrong type"),
    ],
)
def test_bad_map_field_declarations_are_refused(field: MapField, fragment: str) -> None:
    class Declares:
        @hookimpl
        def ttr_map_fields(self) -> list[MapField]:
            return [field]

    with pytest.raises(PluginError, match=fragment) as err:
        ttr_core.register_variant("edge", Declares())
    named(err, "ttr_map_fields")


@pytest.mark.parametrize("marker", [{"trylast": True}, {"wrapper": True}, {"hookwrapper": True}])
def test_every_ordering_marker_is_refused(marker: dict[str, bool]) -> None:
    class Marked:
        @hookimpl(**marker)
        def ttr_score_lines(self) -> Any:
            yield

    with pytest.raises(PluginError, match="variant order") as err:
        ttr_core.register_variant("edge", Marked())
    named(err, "ttr_score_lines")


# -- scoring ---------------------------------------------------------------------------------


def test_score_lines_of_none_add_nothing(install: Any) -> None:
    install("ttr_score_lines", lambda: None)
    state = new_started(variants=["edge"])
    plain = ttr_core.score_sheets(new_started(variants=[]))
    assert ttr_core.score_sheets(state) == plain


def test_tie_break_winners_come_in_seat_order(install: Any) -> None:
    install("ttr_tie_break", lambda tied: list(reversed(tied)))
    state = started(ttr_core.new_game("newyork", 3, seed=1, variants=["edge"]))
    players = tuple(attrs.evolve(p, tickets=(), score=5) for p in state.players)
    over = attrs.evolve(state, players=players, pending=None, termination="cars")
    assert ttr_core.final_scores(over).winners == (0, 1, 2)


def test_points_added_during_play_have_their_own_score_line() -> None:
    state = new_started()
    after = effects.add_points(effects.add_points(state, 0, 7), 0, -2)
    assert after.players[0].play_points == 5
    sheet = ttr_core.score_sheets(after)[0]
    (line,) = [line for line in sheet.lines if line.kind == "play"]
    assert (line.points, line.label) == (5, "Points scored during play")
    assert sheet.total == sum(line.points for line in sheet.lines)
    assert not [ln for ln in ttr_core.score_sheets(state)[0].lines if ln.kind == "play"]


# -- rule sets and the command line ------------------------------------------------------


def test_rule_sets_kept_per_board_are_bounded() -> None:
    class Tunable:
        @hookimpl
        def ttr_options(self) -> list[VariantOption]:
            return [VariantOption("n", int, 0)]

    ttr_core.register_variant("tunable", Tunable())
    try:
        board = ttr_core.parse_map(newyork_text(), "bound.toml")
        for n in range(_resolve.PER_BOARD + 20):
            ttr_core.new_game(board, 2, variants=["tunable"], options={"tunable": {"n": n}})
        kept = [k for k in board.derived if isinstance(k, tuple) and k[0] == "rules"]
        assert len(kept) == _resolve.PER_BOARD
        newest = ttr_core.new_game(board, 2, variants=["tunable"], options={"tunable": {"n": 83}})
        assert newest.rules.option("tunable", "n") == 83
    finally:
        ttr_core.unregister_variant("tunable")


def test_the_command_line_reads_false_for_a_bool_option(capsys: pytest.CaptureFixture[str]) -> None:
    class Flag:
        @hookimpl
        def ttr_options(self) -> list[VariantOption]:
            return [VariantOption("loud", bool, True)]

    ttr_core.register_variant("flag", Flag())
    try:
        for text, shown in (("off", "False"), ("false", "False"), ("1", "True")):
            assert main(["--variants", "flag", "--option", f"flag.loud={text}"]) == 0
            assert f"flag.loud={shown}" in capsys.readouterr().out
        assert main(["--variants", "flag", "--option", "flag.loud=maybe"]) == 2
        assert "expected true or false" in capsys.readouterr().err
    finally:
        ttr_core.unregister_variant("flag")


def test_end_turn_and_set_pending_refuse_a_finished_game() -> None:
    over = ttr_core.random_playout("newyork", 2, seed=1).state
    with pytest.raises(IllegalAction) as err:
        ttr_core.end_turn(over)
    assert err.value.reason == Reason.GAME_OVER
    with pytest.raises(IllegalAction) as err:
        effects.set_pending(over, "edge.pick", 0)
    assert err.value.reason == Reason.GAME_OVER


def test_core_actions_are_never_filtered_when_no_filter_runs() -> None:
    state = new_started(variants=[])
    assert DrawBlind(0) in ttr_core.legal_actions(state)
    assert state._filtered_out is None

"""Errors are typed, name what was wrong, and never change the input state."""

from __future__ import annotations

import copy

import pytest

import ttr_core
from ttr_core import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    IllegalAction,
    KeepTickets,
    Reason,
)

from .helpers import new_started, route_id, with_hand


def test_every_error_is_a_ttr_error() -> None:
    for cls in (
        ttr_core.IllegalAction,
        ttr_core.MapError,
        ttr_core.UnknownMapError,
        ttr_core.UnknownVariantError,
        ttr_core.PlayerCountError,
        ttr_core.PluginError,
        ttr_core.GameNotOverError,
    ):
        assert issubclass(cls, ttr_core.TtrError)
    assert issubclass(IllegalAction, ValueError)


def test_acting_out_of_turn_is_refused() -> None:
    state = new_started()
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, DrawBlind(1))
    assert err.value.reason == Reason.NOT_YOUR_TURN
    assert "seat 0" in str(err.value)


def test_unknown_action_objects_are_refused() -> None:
    state = new_started()

    class Dance(ttr_core.Action):
        pass

    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, Dance(0))
    assert err.value.reason == Reason.UNKNOWN_ACTION


@pytest.mark.parametrize("slot", [-1, 5, "1", True])
def test_bad_face_up_slots_are_refused(slot: object) -> None:
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(new_started(), DrawFaceUp(0, slot))  # type: ignore[arg-type]
    assert err.value.reason == Reason.BAD_SLOT


def test_keeping_tickets_outside_a_ticket_choice_is_the_wrong_phase() -> None:
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(new_started(), KeepTickets(0, [0]))
    assert err.value.reason == Reason.WRONG_PHASE


def test_claiming_during_a_ticket_choice_is_the_wrong_phase() -> None:
    state = ttr_core.apply(new_started(), DrawTickets(0))
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ClaimRoute(0, 0, "orange", 0))
    assert err.value.reason == Reason.WRONG_PHASE


def test_a_refused_action_leaves_the_state_untouched() -> None:
    state = new_started()
    rid = route_id(state, "Chelsea", "Soho")
    state = with_hand(state, 0, pink=2)
    snapshot = copy.deepcopy(state)
    legal_before = ttr_core.legal_actions(state)
    for bad in (
        ClaimRoute(0, rid, "pink", 0),
        DrawBlind(1),
        KeepTickets(0, [1]),
        ttr_core.Pass(0),
    ):
        with pytest.raises(IllegalAction):
            ttr_core.apply(state, bad)
        assert state == snapshot
        assert ttr_core.legal_actions(state) == legal_before


def test_states_and_actions_are_frozen() -> None:
    import attrs

    state = new_started()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.turn = 5  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.players[0].cars = 1  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        DrawBlind(0).player = 1  # type: ignore[misc]
    assert isinstance(state.players, tuple) and isinstance(state.deck, tuple)


def test_apply_returns_a_new_state_and_keeps_the_old_one() -> None:
    state = new_started()
    snapshot = copy.deepcopy(state)
    after = ttr_core.apply(state, DrawBlind(0))
    assert after is not state
    assert state == snapshot


@pytest.mark.parametrize("players", [1, 5, 0])
def test_wrong_player_count_is_refused(players: object) -> None:
    with pytest.raises(ttr_core.PlayerCountError) as err:
        ttr_core.new_game("newyork", players)  # type: ignore[arg-type]
    assert "2 to 4" in str(err.value)


@pytest.mark.parametrize("players", ["2", True])
def test_a_player_count_that_is_no_int_is_an_argument_error(players: object) -> None:
    with pytest.raises(ttr_core.ArgumentError, match="players must be a whole number"):
        ttr_core.new_game("newyork", players)  # type: ignore[arg-type]


def test_unknown_map_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ttr_core.UnknownMapError) as err:
        ttr_core.new_game("atlantis", 2)
    assert "newyork" in str(err.value)


def test_unknown_variant_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ttr_core.UnknownVariantError) as err:
        ttr_core.new_game("newyork", 2, variants=["attraction"])
    assert "attractions" in str(err.value)


def test_states_pickle_and_play_on_identically() -> None:
    import pickle

    state = new_started(players=3, seed=4)
    clone = pickle.loads(pickle.dumps(state))
    assert clone == state
    action = ttr_core.legal_actions(state)[0]
    assert ttr_core.apply(clone, action) == ttr_core.apply(state, action)


@pytest.mark.parametrize("junk", ["junk", None, 3, object()])
def test_something_that_is_not_an_action_is_refused(junk: object) -> None:
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(new_started(), junk)  # type: ignore[arg-type]
    assert err.value.reason == Reason.UNKNOWN_ACTION


def test_keeping_tickets_of_the_wrong_type_is_refused_not_crashed() -> None:
    state = ttr_core.apply(new_started(), DrawTickets(0))
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, KeepTickets(0, ["a", 99]))  # type: ignore[list-item]
    assert err.value.reason == Reason.NOT_OFFERED


def test_show_quotes_ints_exactly_up_to_200_bits_and_never_fails() -> None:
    from ttr_core.errors import show

    assert show(-(10**42)) == repr(-(10**42))  # a seat number a hostile client sends
    assert show(2**199) == repr(2**199)  # 60 digits: exact
    cut = show(10**400)
    assert cut.startswith("1000") and "..." in cut and len(cut) <= 60
    assert show(10**5000) == f"an int of {(10**5000).bit_length()} bits"
    deep: list[object] = []
    for _ in range(10_000):
        deep = [deep]
    assert show(deep).startswith("[[[")

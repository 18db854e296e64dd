"""A fixed action-id space per configuration: every core action has an id, and back."""

from __future__ import annotations

import random

import attrs
import pytest

import ttr_core
from ttr_core import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    IllegalAction,
    KeepTickets,
    Pass,
    PluginError,
    Reason,
)

from .helpers import new_started


@pytest.mark.parametrize(("map_name", "players"), [("newyork", 2), ("nederland", 4), ("usa", 5)])
def test_ids_round_trip_for_every_legal_action_of_whole_games(map_name: str, players: int) -> None:
    for seed in range(3):
        state = ttr_core.new_game(map_name, players, seed=seed)
        space = ttr_core.action_space(state.board, players)
        chooser = random.Random(seed)
        while state.pending is not None:
            legal = ttr_core.legal_actions(state)
            ids = ttr_core.legal_action_ids(state)
            assert len(set(ids)) == len(ids) == len(legal)
            assert all(0 <= aid < space.size for aid in ids)
            for action, aid in zip(legal, ids, strict=True):
                assert ttr_core.action_id(state, action) == aid
                assert ttr_core.action_from_id(state, aid) == action
            mask = ttr_core.legal_action_mask(state)
            assert len(mask) == space.size and sum(mask) == len(ids)
            state = ttr_core.apply(state, legal[chooser.randrange(len(legal))])


def test_the_id_space_is_fixed_by_board_and_player_count() -> None:
    a = ttr_core.new_game("usa", 2, seed=1)
    b = ttr_core.new_game("usa", 2, seed=99)
    space = ttr_core.action_space(a.board, 2)
    board = a.board
    # 1 blind + 5 face-up + tickets + pass, then every claim payment, then 2**3 keeps
    claims = sum(
        (len(board.colors) if r.color == "gray" else 1) * r.length + 1 for r in board.routes
    )
    assert space.size == 8 + claims + 2**3
    assert space.keep_base == 8 + claims
    # the same action has the same id in any state, for any seat
    for action in (DrawBlind(0), DrawFaceUp(0, 4), DrawTickets(0), Pass(0)):
        other = attrs.evolve(action, player=1)
        assert ttr_core.action_id(a, action) == ttr_core.action_id(b, other)
    assert [ttr_core.action_id(a, x(0)) for x in (DrawBlind, DrawTickets, Pass)] == [0, 6, 7]
    first_claim = ttr_core.action_id(a, ClaimRoute(0, 0, "purple", 0))  # route 0 is gray
    assert first_claim == 8
    assert ttr_core.action_id(a, ClaimRoute(0, 0, None, 2)) == 8 + len(board.colors) * 2


def test_a_keep_id_names_positions_of_the_offer() -> None:
    state = ttr_core.new_game("newyork", 2, seed=3)
    offer = state.pending.offered
    space = ttr_core.action_space(state.board, 2)
    keep_second = ttr_core.action_id(state, KeepTickets(0, [offer[1]]))
    assert keep_second == space.keep_base + 0b10
    assert ttr_core.action_from_id(state, keep_second) == KeepTickets(0, [offer[1]])
    assert space.size == space.keep_base + 2**2  # New York offers 2 tickets at most
    with pytest.raises(IllegalAction) as err:
        ttr_core.action_from_id(state, space.keep_base + 0b100)
    assert err.value.reason == Reason.UNKNOWN_ACTION
    short = attrs.evolve(state, pending=ttr_core.Pending("keep_tickets", 0, offer[:1], 1))
    with pytest.raises(IllegalAction) as err:
        ttr_core.action_from_id(short, space.keep_base + 0b10)  # a second ticket: none offered
    assert err.value.reason == Reason.NOT_OFFERED
    turn = new_started()
    with pytest.raises(IllegalAction) as err:
        ttr_core.action_from_id(turn, space.keep_base + 1)
    assert err.value.reason == Reason.WRONG_PHASE


@pytest.mark.parametrize("bad", [-1, 10**6, 1.0, True, "3", None])
def test_bad_ids_are_refused_with_the_typed_error(bad: object) -> None:
    with pytest.raises(IllegalAction) as err:
        ttr_core.action_from_id(new_started(), bad)  # type: ignore[arg-type]
    assert err.value.reason == Reason.UNKNOWN_ACTION


def test_actions_without_an_id() -> None:
    state = new_started()
    with pytest.raises(IllegalAction):
        ttr_core.action_id(state, ClaimRoute(0, 999, "red", 0))
    with pytest.raises(IllegalAction):
        ttr_core.action_id(state, DrawFaceUp(0, 17))

    @attrs.frozen
    class Special(Action):
        pass

    with pytest.raises(PluginError, match="variant action"):
        ttr_core.action_id(state, Special(0))
    over = ttr_core.random_playout("newyork", 2, seed=1).state
    with pytest.raises(IllegalAction) as err:
        ttr_core.action_from_id(over, 0)
    assert err.value.reason == Reason.GAME_OVER
    assert ttr_core.legal_action_ids(over) == ()

"""Servers' guards on apply: seat-bound moves and the move counter (issue 19).

Found: ``apply`` trusted ``action.player``, so a server that forgot its own
seat check let a client act as the deciding seat, and the refusals then
depended on that seat's hidden cards (``tickets 1 were not offered
(offered: [6, 4])``); and nothing counted actions, so a client's retried
``DrawBlind`` was applied twice.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import (
    ArgumentError,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    IllegalAction,
    KeepTickets,
    Pass,
    Reason,
    StaleMoveError,
)

CONFIGS: list[tuple[str, int, Any]] = [
    ("newyork", 2, None),
    ("newyork", 4, None),
    ("nederland", 3, None),
    ("nederland", 2, ["tolls", "neutral"]),
    ("amsterdam", 3, None),
    ("usa", 5, None),
]


def _positions(map_name: str, players: int, variants: Any, seed: int, every: int = 7) -> list[Any]:
    """States along a random game (every ``every``-th, the start included)."""
    state = ttr_core.new_game(map_name, players, seed=seed, variants=variants)
    rng = random.Random(seed)
    found = []
    while not state.is_over:
        if state.ply % every == 0:
            found.append(state)
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
    return found


def _forged(state: Any, deciding: int, rng: random.Random) -> list[Any]:
    """Actions in the deciding seat's name: legal ones and junk alike."""
    actions = list(ttr_core.legal_actions(state))
    actions += [
        DrawBlind(deciding),
        DrawFaceUp(deciding, rng.randrange(8)),
        DrawTickets(deciding),
        KeepTickets(deciding, frozenset({rng.randrange(40)})),
        ClaimRoute(deciding, rng.randrange(len(state.board.routes)), "red", 0),
        Pass(deciding),
    ]
    return actions


@pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")
@pytest.mark.parametrize(("map_name", "players", "variants"), CONFIGS)
def test_a_forged_seat_gets_the_same_refusal_whatever_the_hidden_cards(
    map_name: str, players: int, variants: Any
) -> None:
    rng = random.Random(19)
    for state in _positions(map_name, players, variants, seed=3):
        deciding = state.current_player
        for attacker in range(players):
            if attacker == deciding:
                continue
            view = ttr_core.player_view(state, attacker)
            # Alternatives the attacker cannot tell from the real state.
            worlds = [state] + [ttr_core.determinize(view, seed) for seed in range(4)]
            for action in _forged(state, deciding, rng):
                outcomes = set()
                for world in worlds:
                    with pytest.raises(IllegalAction) as refused:
                        ttr_core.apply(world, action, seat=attacker)
                    outcomes.add((refused.value.reason, str(refused.value)))
                assert len(outcomes) == 1, (action, outcomes)
                ((reason, message),) = outcomes
                assert reason == Reason.WRONG_SEAT
                assert message == (
                    f"seat {attacker} may only act in its own name, not as seat {deciding}"
                )


def test_the_seats_own_moves_apply_as_without_the_guard() -> None:
    state = ttr_core.new_game("newyork", 3, seed=5)
    rng = random.Random(5)
    while not state.is_over:
        action = rng.choice(ttr_core.legal_actions(state))
        guarded = ttr_core.apply(state, action, seat=action.player, expect_ply=state.ply)
        assert guarded == ttr_core.apply(state, action)
        state = guarded


def test_a_seat_acting_out_of_turn_in_its_own_name_is_told_it_is_not_its_turn() -> None:
    state = ttr_core.new_game("newyork", 2, seed=1)
    with pytest.raises(IllegalAction) as refused:
        ttr_core.apply(state, DrawBlind(1), seat=1)
    assert refused.value.reason == Reason.NOT_YOUR_TURN


@pytest.mark.parametrize("seat", [-1, 2, True, 0.0, "0", None, 2**100])
def test_a_seat_that_is_no_seat_is_an_argument_error(seat: Any) -> None:
    state = ttr_core.new_game("newyork", 2, seed=1)
    action = ttr_core.legal_actions(state)[0]
    if seat is None:  # no guard at all: applies
        ttr_core.apply(state, action, seat=seat)
        return
    with pytest.raises(ArgumentError, match="seat must be a seat from 0 to 1"):
        ttr_core.apply(state, action, seat=seat)


def test_malformed_seats_in_the_action_are_refused_as_wrong_seat() -> None:
    state = ttr_core.new_game("newyork", 2, seed=1)
    for player in ("0", 0.0, True, None, 2**200):
        action = attrs.evolve(DrawBlind(0), player=player)
        with pytest.raises(IllegalAction) as refused:
            ttr_core.apply(state, action, seat=0)
        assert refused.value.reason == Reason.WRONG_SEAT
        assert len(str(refused.value)) < 120
    with pytest.raises(IllegalAction) as refused:
        ttr_core.apply(state, "draw", seat=0)  # type: ignore[arg-type]
    assert refused.value.reason == Reason.WRONG_SEAT


def test_ply_counts_every_action_and_travels_in_views_and_saves() -> None:
    for map_name, players, variants in CONFIGS:
        state = ttr_core.new_game(map_name, players, seed=11, variants=variants)
        assert state.ply == 0
        rng = random.Random(11)
        count = 0
        while not state.is_over:
            state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
            count += 1
            assert state.ply == count
            if count % 13 == 0:
                view = ttr_core.player_view(state, count % players)
                assert view.ply == count
                read = ttr_core.from_json(ttr_core.to_json(view), ttr_core.PlayerView)
                assert read.ply == count
                assert ttr_core.from_json(ttr_core.to_json(state), ttr_core.GameState) == state


def test_a_state_saved_before_ply_existed_reads_with_ply_zero() -> None:
    import json

    state = ttr_core.new_game("newyork", 2, seed=4)
    data = json.loads(ttr_core.to_json(state))
    del data["ply"], data["forfeit"]
    read = ttr_core.from_json(json.dumps(data), ttr_core.GameState)
    assert read.ply == 0 and read.forfeit is None


def test_a_retried_move_is_refused_by_expect_ply() -> None:
    state = started_newyork()
    ply = state.ply
    once = ttr_core.apply(state, DrawBlind(state.current_player), expect_ply=ply)
    # The retry reaches the server after the first copy was applied: the
    # second blind draw would be legal, and must not be applied.
    assert DrawBlind(once.current_player) in ttr_core.legal_actions(once)
    with pytest.raises(StaleMoveError) as stale:
        ttr_core.apply(once, DrawBlind(once.current_player), expect_ply=ply)
    assert stale.value.reason == Reason.STALE_MOVE
    assert (stale.value.expected, stale.value.actual) == (ply, ply + 1)
    assert isinstance(stale.value, IllegalAction)
    assert f"at ply {ply}, but the game is at ply {ply + 1}" in str(stale.value)


def test_expect_ply_is_checked_before_the_seat_and_the_game_end() -> None:
    state = started_newyork()
    with pytest.raises(StaleMoveError):
        ttr_core.apply(state, DrawBlind(1 - state.current_player), seat=0, expect_ply=999)
    with pytest.raises(StaleMoveError):
        ttr_core.apply(state, DrawBlind(0), expect_ply=-(10**50))
    for bad in (1.0, "3", True, [1]):
        with pytest.raises(ArgumentError, match="expect_ply must be an int"):
            ttr_core.apply(state, DrawBlind(0), expect_ply=bad)  # type: ignore[arg-type]


def started_newyork() -> Any:
    state = ttr_core.new_game("newyork", 2, seed=8)
    while state.pending is not None and state.pending.kind == "start_tickets":
        pending = state.pending
        state = ttr_core.apply(state, KeepTickets(pending.player, frozenset(pending.offered)))
    return state

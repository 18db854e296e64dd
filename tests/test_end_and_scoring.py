"""End of game (final round, E8; stalemate, E1/E2) and final scoring with breakdown."""

from __future__ import annotations

import attrs
import pytest

import ttr_core
from ttr_core import DrawBlind, GameNotOverError, IllegalAction, Pass, Reason, Termination
from ttr_core.rules.scoring import winners

from .helpers import claim, new_started, route_id


def with_cars(state: ttr_core.GameState, seat: int, cars: int) -> ttr_core.GameState:
    player = attrs.evolve(state.players[seat], cars=cars)
    return attrs.evolve(state, players=(*state.players[:seat], player, *state.players[seat + 1 :]))


def draw_turn(state: ttr_core.GameState) -> ttr_core.GameState:
    seat = state.current_player
    state = ttr_core.apply(state, DrawBlind(seat))
    if state.pending is not None and state.pending.kind == "second_card":
        state = ttr_core.apply(state, DrawBlind(seat))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_final_round_every_player_including_the_trigger_plays_one_more_turn(
    players: int,
) -> None:
    state = with_cars(new_started(players=players), 0, 4)
    rid = route_id(state, "Lincoln Center", "Central Park")  # length 2: 4 -> 2 cars
    state = claim(state, 0, rid, "orange")
    assert state.players[0].cars == 2
    assert state.final_turns == players
    played = []
    while not ttr_core.is_over(state):
        played.append(state.current_player)
        state = draw_turn(state)
    assert played == [*range(1, players), 0]
    assert state.termination == Termination.CARS
    assert state.current_player is None
    assert ttr_core.legal_actions(state) == ()
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, DrawBlind(0))
    assert err.value.reason == Reason.GAME_OVER


def test_three_cars_left_does_not_trigger_the_end() -> None:
    state = with_cars(new_started(), 0, 5)
    state = claim(state, 0, route_id(state, "Lincoln Center", "Central Park"), "orange")
    assert state.players[0].cars == 3
    assert state.final_turns == -1


def test_a_claim_in_the_final_round_does_not_restart_it() -> None:
    state = with_cars(new_started(), 0, 3)
    state = claim(state, 0, route_id(state, "Midtown West", "Times Square"), "red")
    assert state.final_turns == 2
    state = with_cars(state, 1, 2)
    state = claim(state, 1, route_id(state, "Lincoln Center", "Central Park"), "orange")
    assert state.final_turns == 1
    state = draw_turn(state)
    assert ttr_core.is_over(state)


def no_action_state(players: int = 2) -> ttr_core.GameState:
    """No card to draw anywhere, empty hands, no tickets left (E1)."""
    state = new_started(players=players)
    board = state.board
    # Cards are not conserved here: this edge case needs no card anywhere.
    empty = ttr_core.Hand((0,) * len(board.card_names), board.card_names)
    players_ = tuple(attrs.evolve(p, hand=empty) for p in state.players)
    return attrs.evolve(
        state,
        players=players_,
        deck=(),
        discard=(0,) * len(board.card_names),
        display=(None,) * 5,
        ticket_deck=(),
    )


def test_pass_is_the_only_action_when_nothing_else_is_legal() -> None:
    state = no_action_state()
    assert ttr_core.legal_actions(state) == (Pass(0),)


def test_pass_is_illegal_when_another_action_is_legal() -> None:
    state = new_started()
    assert Pass(0) not in ttr_core.legal_actions(state)
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, Pass(0))
    assert err.value.reason == Reason.PASS_NOT_ALLOWED


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_full_round_of_passes_ends_the_game(players: int) -> None:
    state = no_action_state(players)
    for seat in range(players):
        assert not ttr_core.is_over(state)
        state = ttr_core.apply(state, Pass(seat))
    assert state.termination == Termination.STALEMATE
    scores = ttr_core.final_scores(state)
    assert scores.termination == Termination.STALEMATE


def test_a_non_pass_action_between_passes_restarts_the_count() -> None:
    state = no_action_state(3)
    state = ttr_core.apply(state, Pass(0))
    assert state.passes == 1
    # seat 1 gets a card to act with: the round of passes is broken
    state = attrs.evolve(state, display=(state.board.card_index("red"), None, None, None, None))
    state = ttr_core.apply(state, ttr_core.DrawFaceUp(1, 0))
    assert state.passes == 0
    state = ttr_core.apply(state, Pass(2))
    state = ttr_core.apply(state, Pass(0))
    assert not ttr_core.is_over(state)


def finished(state: ttr_core.GameState) -> ttr_core.GameState:
    return attrs.evolve(state, pending=None, termination=Termination.CARS)


def test_tickets_score_plus_when_joined_by_own_routes_and_minus_otherwise() -> None:
    state = new_started(variants=[])
    board = state.board
    done = next(t for t in board.tickets if {t.a, t.b} == {"Lower East Side", "Wall Street"})
    failed = next(t for t in board.tickets if {t.a, t.b} == {"Central Park", "Midtown West"})
    state = attrs.evolve(
        state,
        players=(
            attrs.evolve(state.players[0], tickets=(done.id, failed.id)),
            attrs.evolve(state.players[1], tickets=()),
        ),
    )
    state = claim(state, 0, route_id(state, "Lower East Side", "Chinatown"), "blue")
    state = claim(state, 1, route_id(state, "Central Park", "Times Square", "black"), "black")
    state = claim(state, 0, route_id(state, "Chinatown", "Wall Street", "green"), "green")
    # seat 1 joins Midtown West to Central Park, but seat 0's ticket needs seat 0's routes
    state = claim(state, 1, route_id(state, "Midtown West", "Times Square"), "red")
    sheet = ttr_core.final_scores(finished(state)).sheets[0]
    tickets = {line.ref: line.points for line in sheet.lines if line.kind == "ticket"}
    assert tickets == {done.id: 2, failed.id: -3}
    assert sheet.tickets_completed == 1 and sheet.tickets_failed == 1
    assert sheet.total == 1 + 1 + 2 - 3


def test_attractions_score_one_each_once_per_player_and_for_every_player() -> None:
    state = new_started(players=3)
    # seat 0: Times Square-Empire State (both attractions) and Empire State-Gramercy Park
    state = claim(
        state, 0, route_id(state, "Times Square", "Empire State Building", "pink"), "pink"
    )
    state = claim(
        state, 1, route_id(state, "Times Square", "Empire State Building", "orange"), "orange"
    )
    state = claim(state, 2, route_id(state, "Lincoln Center", "Midtown West"), "red")
    state = claim(state, 0, route_id(state, "Empire State Building", "Gramercy Park", "red"), "red")
    sheets = ttr_core.final_scores(finished(state)).sheets
    lines = [next(line for line in s.lines if line.kind == "attractions") for s in sheets]
    assert [line.points for line in lines] == [2, 2, 0]
    assert lines[0].detail == ("Empire State Building", "Times Square")


def test_attractions_are_not_scored_when_the_variant_is_off() -> None:
    state = new_started(variants=[])
    state = claim(
        state, 0, route_id(state, "Times Square", "Empire State Building", "pink"), "pink"
    )
    sheet = ttr_core.final_scores(finished(state)).sheets[0]
    assert [line.kind for line in sheet.lines] == ["routes", *["ticket"] * len(sheet.lines[1:])]
    assert "attractions" not in {line.kind for line in sheet.lines}


def test_scoring_order_is_routes_then_tickets_then_attractions() -> None:
    state = new_started()
    state = claim(state, 0, route_id(state, "Chelsea", "Soho"), "pink")
    sheet = ttr_core.final_scores(finished(state)).sheets[0]
    kinds = [line.kind for line in sheet.lines]
    assert kinds[0] == "routes"
    assert kinds[-1] == "attractions"
    assert set(kinds[1:-1]) == {"ticket"}
    assert sheet.total == sum(line.points for line in sheet.lines)


def scored(totals_and_tickets: list[tuple[int, int]]) -> tuple[int, ...]:
    """Winners for players whose (total, completed tickets) are given."""
    sheets = tuple(
        ttr_core.ScoreSheet(seat, (), total, done, 0)
        for seat, (total, done) in enumerate(totals_and_tickets)
    )
    return winners(sheets)


def test_highest_total_wins() -> None:
    assert scored([(10, 0), (12, 0)]) == (1,)


def test_tie_goes_to_most_completed_tickets() -> None:
    assert scored([(10, 3), (10, 2), (4, 5)]) == (0,)


def test_tie_on_tickets_too_is_shared() -> None:
    assert scored([(10, 2), (10, 2), (9, 2)]) == (0, 1)


def test_final_scores_need_a_finished_game() -> None:
    state = new_started()
    with pytest.raises(GameNotOverError):
        ttr_core.final_scores(state)
    sheets = ttr_core.score_sheets(state)  # provisional count is fine
    assert len(sheets) == 2


@pytest.mark.parametrize(
    ("values", "eligible", "ranks"),
    [
        ([5, 3, 1], [True, True, True], [1, 2, 3]),
        ([5, 5, 1], [True, True, True], [1, 1, 3]),  # a tie skips the place it fills
        ([2, 5, 5, 5], [True, True, True, True], [4, 1, 1, 1]),
        ([9, 1, 4], [False, True, True], [None, 2, 1]),  # excluded: no rank, no effect
        ([0, 0], [False, False], [None, None]),
    ],
)
def test_ranked_bonuses_use_standard_competition_ranking(
    values: list[int], eligible: list[bool], ranks: list[int | None]
) -> None:
    """E16, as a helper for every ranked bonus."""
    table = (10, 6, 3)
    result = ttr_core.rank_bonus(values, table, eligible)
    assert [rank for rank, _ in result] == ranks
    assert [points for _, points in result] == [
        0 if r is None or r > len(table) else table[r - 1] for r in ranks
    ]

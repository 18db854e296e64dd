"""Claiming routes: exact payment choices, car limit, double routes."""

from __future__ import annotations

import attrs
import pytest

import ttr_core
from ttr_core import ClaimRoute, IllegalAction, Reason

from .helpers import NY_CARDS, card_total, claim, new_started, route_id, with_hand


def claims_for(state: ttr_core.GameState, rid: int) -> set[ClaimRoute]:
    return {
        a for a in ttr_core.legal_actions(state) if isinstance(a, ClaimRoute) and a.route == rid
    }


def test_claiming_pays_cards_places_cars_and_scores_at_once() -> None:
    state = new_started()
    rid = route_id(state, "Chelsea", "Soho")  # pink 4
    state = with_hand(state, 0, pink=3, wild=1, red=1)
    discard = sum(state.discard)
    after = ttr_core.apply(state, ClaimRoute(0, rid, "pink", 1))
    player = after.players[0]
    assert player.hand["pink"] == 0 and player.hand["wild"] == 0 and player.hand["red"] == 1
    assert player.cars == 15 - 4
    assert player.score == 7  # length 4 scores 7
    assert player.routes == (rid,)
    assert after.owner(rid) == 0
    assert sum(after.discard) == discard + 4
    assert card_total(after) == NY_CARDS
    assert after.current_player == 1  # one route per turn: the turn is over


@pytest.mark.parametrize(("length", "points"), [(1, 1), (2, 2), (3, 4), (4, 7)])
def test_route_points_follow_the_maps_scoring_table(length: int, points: int) -> None:
    state = new_started()
    route = next(r for r in state.board.routes if r.length == length and r.color != "gray")
    after = claim(state, 0, route.id, route.color)
    assert after.players[0].score == points


def test_payment_choices_for_a_coloured_route_are_exact() -> None:
    state = new_started()
    rid = route_id(state, "Chinatown", "Brooklyn", "red")  # red 3
    state = with_hand(state, 0, red=2, wild=2, blue=3)
    assert claims_for(state, rid) == {
        ClaimRoute(0, rid, "red", 1),
        ClaimRoute(0, rid, "red", 2),
    }


def test_payment_choices_for_a_gray_route_list_each_colour_and_wilds_alone() -> None:
    state = new_started()
    rid = route_id(state, "Times Square", "United Nations")  # gray 2
    state = with_hand(state, 0, red=2, blue=1, wild=2)
    assert claims_for(state, rid) == {
        ClaimRoute(0, rid, "red", 0),
        ClaimRoute(0, rid, "red", 1),
        ClaimRoute(0, rid, "blue", 1),
        ClaimRoute(0, rid, None, 2),
    }
    after = ttr_core.apply(state, ClaimRoute(0, rid, None, 2))
    assert after.players[0].hand["wild"] == 0


def test_a_gray_route_takes_one_colour_only() -> None:
    state = new_started()
    rid = route_id(state, "Lower East Side", "Brooklyn")  # gray 3
    state = with_hand(state, 0, red=2, blue=1)
    assert claims_for(state, rid) == set()
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ClaimRoute(0, rid, "red", 0))
    assert err.value.reason == Reason.CARDS_DO_NOT_PAY


def test_cards_of_the_wrong_colour_do_not_pay() -> None:
    state = new_started()
    rid = route_id(state, "Chelsea", "Soho")  # pink 4
    state = with_hand(state, 0, red=4)
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ClaimRoute(0, rid, "red", 0))
    assert err.value.reason == Reason.CARDS_DO_NOT_PAY
    assert "pink" in str(err.value)


def test_too_few_cards_do_not_pay() -> None:
    state = new_started()
    rid = route_id(state, "Chelsea", "Soho")
    state = with_hand(state, 0, pink=2, wild=1)
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ClaimRoute(0, rid, "pink", 1))
    assert err.value.reason == Reason.CARDS_DO_NOT_PAY


@pytest.mark.parametrize(
    ("color", "wilds"), [("pink", 5), ("pink", -1), (None, 1), ("purple", 0), ("pink", 4)]
)
def test_malformed_payments_are_refused(color: str | None, wilds: int) -> None:
    state = new_started()
    rid = route_id(state, "Chelsea", "Soho")
    state = with_hand(state, 0, pink=4, wild=4)
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ClaimRoute(0, rid, color, wilds))
    assert err.value.reason == Reason.BAD_PAYMENT


def test_a_route_longer_than_the_cars_left_cannot_be_claimed() -> None:
    state = new_started()
    rid = route_id(state, "Chelsea", "Soho")
    state = with_hand(state, 0, pink=4)
    state = attrs.evolve(state, players=(attrs.evolve(state.players[0], cars=3), state.players[1]))
    assert claims_for(state, rid) == set()
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ClaimRoute(0, rid, "pink", 0))
    assert err.value.reason == Reason.NOT_ENOUGH_CARS


def test_a_claimed_route_cannot_be_claimed_again() -> None:
    state = new_started()
    rid = route_id(state, "Chelsea", "Soho")
    state = claim(state, 0, rid, "pink")
    state = with_hand(state, 1, pink=4)
    assert claims_for(state, rid) == set()
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ClaimRoute(1, rid, "pink", 0))
    assert err.value.reason == Reason.ROUTE_CLAIMED


def test_any_open_route_may_be_claimed_without_connecting() -> None:
    state = new_started()
    state = claim(state, 0, route_id(state, "Lincoln Center", "Central Park"), "orange")
    state = claim(state, 1, route_id(state, "Wall Street", "Brooklyn", "blue"), "blue")
    after = claim(state, 0, route_id(state, "Chinatown", "Wall Street", "green"), "green")
    assert len(after.players[0].routes) == 2


def test_with_two_players_claiming_one_route_of_a_pair_closes_the_other() -> None:
    state = new_started(players=2)
    green = route_id(state, "Lincoln Center", "Times Square", "green")
    blue = route_id(state, "Lincoln Center", "Times Square", "blue")
    state = claim(state, 0, green, "green")
    state = with_hand(state, 1, blue=2)
    assert claims_for(state, blue) == set()
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ClaimRoute(1, blue, "blue", 0))
    assert err.value.reason == Reason.PARALLEL_ROUTE_CLOSED


@pytest.mark.parametrize("players", [3, 4])
def test_with_three_or_more_players_another_player_may_take_the_parallel_route(
    players: int,
) -> None:
    state = new_started(players=players)
    green = route_id(state, "Lincoln Center", "Times Square", "green")
    blue = route_id(state, "Lincoln Center", "Times Square", "blue")
    state = claim(state, 0, green, "green")
    state = with_hand(state, 1, blue=2)
    assert claims_for(state, blue) == {ClaimRoute(1, blue, "blue", 0)}
    after = ttr_core.apply(state, ClaimRoute(1, blue, "blue", 0))
    assert after.owner(green) == 0 and after.owner(blue) == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_player_may_own_both_routes_of_a_pair(players: int) -> None:
    state = new_started(players=players)
    a = route_id(state, "Chelsea", "Empire State Building")
    b = state.board.routes[a].partner
    state = claim(state, 0, a, "red")
    state = attrs.evolve(state, pending=ttr_core.Pending("turn", 0))
    state = with_hand(state, 0, red=2)
    assert claims_for(state, b) == set()
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ClaimRoute(0, b, "red", 0))
    assert err.value.reason == Reason.OWNS_PARALLEL_ROUTE


def test_unknown_route_is_refused() -> None:
    state = new_started()
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ClaimRoute(0, 41, "red", 0))
    assert err.value.reason == Reason.UNKNOWN_ROUTE

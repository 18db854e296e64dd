"""Bridge tolls and loans (Nederland): every rule of the "tolls" variant."""

from __future__ import annotations

import attrs
import pytest
from ttr_core_plugins.tolls import LOAN_PENALTY, START_VALUE, TOLL_BONUS, TollState, tolls

import ttr_core
from ttr_core import ClaimRoute, IllegalAction, Reason, rank_bonus

from .helpers import claim, new_started, route_id


def nl(players: int = 3, variants: list[str] | None = None) -> ttr_core.GameState:
    return new_started(players=players, map="nederland", variants=variants)


def with_tolls(state: ttr_core.GameState, holdings: tuple[int, ...]) -> ttr_core.GameState:
    current = tolls(state)
    return state.with_variant("tolls", attrs.evolve(current, holdings=holdings))


def pair(state: ttr_core.GameState, a: str, b: str) -> tuple[int, int]:
    first = route_id(state, a, b)
    partner = state.board.routes[first].partner
    assert partner is not None
    return first, partner


def test_each_player_starts_with_toll_value_30_and_no_loan() -> None:
    state = nl(5)
    assert START_VALUE == 30
    assert tolls(state) == TollState((30,) * 5, (0,) * 5)


def test_first_route_of_a_pair_pays_its_toll_to_the_bank() -> None:
    state = nl()
    first, _ = pair(state, "Nijmegen", "Eindhoven")  # toll 3
    state = claim(state, 0, first, "orange")
    assert tolls(state).holdings == (27, 30, 30)
    assert tolls(state).bank_received == 3


def test_a_single_route_pays_its_toll_to_the_bank() -> None:
    state = nl()
    rid = route_id(state, "Aarschot", "Liège")  # single, toll 1
    state = claim(state, 1, rid, "red")
    assert tolls(state).holdings == (30, 29, 30)
    assert tolls(state).bank_received == 1


def test_second_route_of_a_pair_pays_the_owner_of_the_first() -> None:
    state = nl()
    first, second = pair(state, "Nijmegen", "Eindhoven")
    state = claim(state, 0, first, "orange")
    state = claim(state, 2, second, "black")
    assert tolls(state).holdings == (27 + 3, 30, 27)
    assert tolls(state).bank_received == 3


def test_a_player_who_cannot_pay_in_full_takes_a_loan_and_pays_nothing() -> None:
    state = with_tolls(nl(), (2, 30, 30))
    rid = route_id(state, "Waddeneilanden", "Groningen")  # single, toll 4
    state = claim(state, 0, rid, "yellow")
    current = tolls(state)
    assert current.holdings == (2, 30, 30)  # the 2 left are not paid
    assert current.loans == (1, 0, 0)
    assert current.bank_received == 0


def test_on_a_loaned_second_route_the_bank_pays_the_owner() -> None:
    state = nl()
    first, second = pair(state, "Groningen", "Zwolle")  # toll 4
    state = claim(state, 1, first, "green")
    state = with_tolls(state, (3, 26, 30))
    state = claim(state, 0, second, "white")
    current = tolls(state)
    assert current.loans == (1, 0, 0)
    assert current.holdings == (3, 30, 30)
    assert current.bank_paid == 4


def test_no_loan_when_the_player_can_pay_exactly() -> None:
    state = with_tolls(nl(), (4, 30, 30))
    rid = route_id(state, "Waddeneilanden", "Groningen")  # toll 4
    state = claim(state, 0, rid, "yellow")
    assert tolls(state).holdings[0] == 0
    assert tolls(state).loans == (0, 0, 0)


def test_a_loan_is_never_a_choice_there_is_no_loan_action() -> None:
    state = with_tolls(nl(), (0, 30, 30))
    kinds = {type(a) for a in ttr_core.legal_actions(state)}
    assert kinds <= {ttr_core.DrawBlind, ttr_core.DrawFaceUp, ClaimRoute, ttr_core.DrawTickets}


@pytest.mark.parametrize("players", [2, 3])
def test_with_tolls_both_routes_of_a_pair_are_usable_with_2_and_3_players(players: int) -> None:
    state = nl(players)
    first, second = pair(state, "Haarlem", "Amsterdam")
    state = claim(state, 0, first, "green")
    state = claim(state, 1, second, "black")
    assert state.owner(first) == 0 and state.owner(second) == 1


@pytest.mark.parametrize("players", [2, 3])
def test_without_tolls_only_one_route_of_a_pair_is_usable_with_2_and_3_players(
    players: int,
) -> None:
    state = nl(players, variants=[])
    assert state.variant("tolls") is None
    first, second = pair(state, "Haarlem", "Amsterdam")
    state = claim(state, 0, first, "green")
    with pytest.raises(IllegalAction) as err:
        claim(state, 1, second, "black")
    assert err.value.reason == Reason.PARALLEL_ROUTE_CLOSED


@pytest.mark.parametrize("players", [4, 5])
def test_without_tolls_both_routes_are_usable_with_4_and_5_players(players: int) -> None:
    state = nl(players, variants=[])
    first, second = pair(state, "Haarlem", "Amsterdam")
    state = claim(state, 0, first, "green")
    state = claim(state, 1, second, "black")
    assert state.owner(second) == 1


@pytest.mark.parametrize("variants", [None, []])
def test_one_player_never_owns_both_routes_of_a_pair(variants: list[str] | None) -> None:
    state = nl(4, variants=variants)
    first, second = pair(state, "Haarlem", "Amsterdam")
    state = claim(state, 0, first, "green")
    with pytest.raises(IllegalAction) as err:
        claim(state, 0, second, "black")
    assert err.value.reason == Reason.OWNS_PARALLEL_ROUTE


def bonus_points(holdings: list[int], loans: list[int]) -> list[int]:
    return [
        points
        for _rank, points in rank_bonus(
            holdings, TOLL_BONUS[len(holdings)], [n == 0 for n in loans]
        )
    ]


def test_toll_bonus_tables_by_player_count() -> None:
    assert bonus_points([9, 5], [0, 0]) == [35, 0]
    assert bonus_points([9, 5, 1], [0, 0, 0]) == [55, 35, 0]
    assert bonus_points([9, 5, 3, 1], [0, 0, 0, 0]) == [55, 35, 20, 0]
    assert bonus_points([9, 5, 3, 2, 1], [0, 0, 0, 0, 0]) == [55, 35, 20, 10, 0]


def test_rulebook_example_ties_share_and_skip_and_a_loan_excludes() -> None:
    """4 players: 9, 9, 3 with a loan, 1 -> 55, 55, nothing, 20 (third)."""
    assert bonus_points([9, 9, 3, 1], [0, 0, 1, 0]) == [55, 55, 0, 20]
    ranks = rank_bonus([9, 9, 3, 1], TOLL_BONUS[4], [True, True, False, True])
    assert [rank for rank, _ in ranks] == [1, 1, None, 3]


@pytest.mark.parametrize(
    ("holdings", "loans", "expected"),
    [
        ([4, 4], [0, 0], [35, 35]),  # 2 players tied: both first
        ([4, 9], [0, 1], [35, 0]),  # 2 players: the one with a loan scores nothing
        ([7, 7, 7], [0, 0, 0], [55, 55, 55]),
        ([7, 3, 3], [0, 0, 0], [55, 35, 35]),
        ([1, 8, 8], [0, 2, 0], [35, 0, 55]),
        ([5, 5, 5, 5, 1], [0, 0, 0, 0, 0], [55, 55, 55, 55, 0]),
        ([9, 6, 6, 2, 2], [0, 0, 0, 0, 0], [55, 35, 35, 10, 10]),
        ([9, 6, 5, 4, 3], [1, 0, 0, 0, 1], [0, 55, 35, 20, 0]),
    ],
)
def test_toll_bonus_ties_and_loans(
    holdings: list[int], loans: list[int], expected: list[int]
) -> None:
    assert bonus_points(holdings, loans) == expected


def test_final_scoring_lines_bonus_then_loan_penalty() -> None:
    state = nl(4)
    current = TollState((9, 9, 3, 1), (0, 0, 1, 0))
    state = state.with_variant("tolls", current)
    state = attrs.evolve(state, pending=None, termination=ttr_core.Termination.CARS)
    sheets = ttr_core.final_scores(state).sheets
    for sheet in sheets:
        kinds = [line.kind for line in sheet.lines]
        assert kinds[-2:] == ["toll_bonus", "loans"]
        assert sheet.total == sum(line.points for line in sheet.lines)
    assert [s.lines[-2].points for s in sheets] == [55, 55, 0, 20]
    assert [s.lines[-1].points for s in sheets] == [0, 0, -LOAN_PENALTY, 0]
    # staggered start scores by seat
    assert [s.lines[0].points if s.lines[0].kind == "start" else 0 for s in sheets] == [0, 1, 2, 3]


def test_no_longest_route_or_most_tickets_bonus() -> None:
    state = nl(2)
    state = attrs.evolve(state, pending=None, termination=ttr_core.Termination.CARS)
    kinds = {line.kind for sheet in ttr_core.final_scores(state).sheets for line in sheet.lines}
    assert kinds <= {"start", "routes", "ticket", "toll_bonus", "loans"}


def test_without_tolls_there_is_no_bonus_or_loan_line() -> None:
    state = nl(3, variants=[])
    state = attrs.evolve(state, pending=None, termination=ttr_core.Termination.CARS)
    kinds = {line.kind for sheet in ttr_core.final_scores(state).sheets for line in sheet.lines}
    assert kinds <= {"start", "routes", "ticket"}


def test_holdings_are_secret_and_loans_public_in_views() -> None:
    state = with_tolls(nl(3), (11, 22, 30))
    state = state.with_variant("tolls", attrs.evolve(tolls(state), loans=(0, 1, 0)))
    view = ttr_core.player_view(state, 1)
    assert view.variants["tolls.holdings"] == 22
    assert view.variants["tolls.loans"] == (0, 1, 0)
    assert 11 not in view.variants.values()


def test_the_variant_refuses_a_player_count_without_a_bonus_table() -> None:
    board = ttr_core.load_map("nederland")
    six = attrs.evolve(board, rules=attrs.evolve(board.rules, max_players=6, start_scores=(0,) * 6))
    with pytest.raises(ttr_core.GameConfigError, match="2 to 5 players, not 6") as refused:
        ttr_core.new_game(six, 6, variants=["tolls"])
    assert refused.value.variant == "tolls"
    assert ttr_core.new_game(six, 6, variants=[]).num_players == 6


def test_loans_are_unlimited_and_each_costs_five_points() -> None:
    """E12: there is always a Loan card; two loans cost 10 points."""
    state = with_tolls(nl(3), (0, 30, 30))
    state = claim(state, 0, route_id(state, "Waddeneilanden", "Groningen"), "yellow")
    state = claim(state, 1, route_id(state, "Emmen", "Zwolle"), "red")
    state = claim(state, 2, route_id(state, "Utrecht", "Rotterdam"), "red")
    state = claim(state, 0, route_id(state, "Aarschot", "Liège"), "red")
    assert tolls(state).loans == (2, 0, 0)
    state = attrs.evolve(state, pending=None, termination=ttr_core.Termination.CARS)
    sheet = ttr_core.final_scores(state).sheets[0]
    assert [(line.kind, line.points) for line in sheet.lines[-2:]] == [
        ("toll_bonus", 0),
        ("loans", -10),
    ]


@pytest.mark.parametrize(
    ("holdings", "loans", "expected"),
    [
        ((4, 4), (0, 0), [35, 35]),
        ((4, 9), (0, 1), [35, 0]),
        ((7, 3, 3), (0, 0, 0), [55, 35, 35]),
        ((1, 8, 8), (0, 2, 0), [35, 0, 55]),
        ((9, 9, 3, 1), (0, 0, 1, 0), [55, 55, 0, 20]),
        ((9, 6, 6, 2, 2), (0, 0, 0, 0, 0), [55, 35, 35, 10, 10]),
        ((9, 6, 5, 4, 3), (1, 0, 0, 0, 1), [0, 55, 35, 20, 0]),
    ],
)
def test_the_toll_bonus_on_the_score_sheet_for_each_player_count(
    holdings: tuple[int, ...], loans: tuple[int, ...], expected: list[int]
) -> None:
    state = nl(len(holdings)).with_variant("tolls", TollState(holdings, loans))
    state = attrs.evolve(state, pending=None, termination=ttr_core.Termination.CARS)
    sheets = ttr_core.final_scores(state).sheets
    assert [s.lines[-2].points for s in sheets] == expected
    assert [s.lines[-1].points for s in sheets] == [-LOAN_PENALTY * n for n in loans]

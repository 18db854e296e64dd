"""Europe's ferries (plugin ``ferries``, rules ../shared/rules/europe.md "Ferries"):
a ferry's claim includes at least as many locomotives as its locomotive spaces."""

from __future__ import annotations

import attrs
import pytest
from ttr_core_plugins import ferries

import ttr_core
from ttr_core import Action, ClaimRoute, GameState, IllegalAction, Reason

from . import map_facts
from .helpers import route_id, started, with_hand

VARIANTS = ["tunnels", "ferries"]


def game(seed: int = 1) -> GameState:
    return started(ttr_core.new_game("europe", 2, seed=seed, variants=VARIANTS))


def claims_of(state: GameState, route: int) -> list[ClaimRoute]:
    return [
        a for a in ttr_core.legal_actions(state) if isinstance(a, ClaimRoute) and a.route == route
    ]


def test_ferry_locomotive_counts() -> None:
    board = ttr_core.load_map("europe")
    needs = {r: ferries.locomotives(board, r) for r in ferries.ferry_routes(board)}
    assert needs == map_facts.EUROPE_FERRY_LOCOMOTIVES
    assert len(needs) == 13 and sum(needs.values()) == 17
    assert all(ferries.locomotives(board, r.id) == 0 for r in board.routes if r.id not in needs)


@pytest.mark.parametrize("route", ferries.ferry_routes(ttr_core.load_map("europe")))
def test_ferry_needs_its_locomotives(route: int) -> None:
    state = game()
    board = state.board
    need = ferries.locomotives(board, route)
    length = board.routes[route].length
    # Plenty of red and locomotives: every payment listed has at least ``need`` of them,
    # and the fewest is exactly ``need``.
    rich = with_hand(state, 0, red=length, wild=length)
    listed = claims_of(rich, route)
    assert listed and min(a.wilds for a in listed) == need
    assert all(a.wilds >= need for a in listed)
    # One locomotive short: the ferry cannot be claimed at all.
    short = with_hand(state, 0, red=length, wild=need - 1)
    assert claims_of(short, route) == []
    for wilds in range(need):
        with pytest.raises(IllegalAction) as err:
            ttr_core.apply(rich, ClaimRoute(0, route, "red", wilds))
        assert err.value.reason == Reason.VETOED
        assert "ferries" in str(err.value)


def test_ferry_with_two_locomotives_of_six() -> None:
    # The rulebook's example: Palermo–Smyrna, 4 cards of one colour + 2 locomotives.
    state = game()
    route = route_id(state, "Palermo", "Smyrna")
    done = ttr_core.apply(with_hand(state, 0, blue=4, wild=2), ClaimRoute(0, route, "blue", 2))
    assert done.owners[route] == 0 and done.players[0].hand.total == 0


def test_ferry_of_locomotive_spaces_only() -> None:
    state = game()
    route = route_id(state, "Amsterdam", "London")  # 2 spaces, both locomotives
    assert [(a.color, a.wilds) for a in claims_of(with_hand(state, 0, red=2, wild=2), route)] == [
        (None, 2)
    ]


def test_other_routes_are_left_alone() -> None:
    state = with_hand(game(), 0, red=8, wild=8)
    candidates = tuple(a for a in ttr_core.legal_actions(state) if not isinstance(a, ClaimRoute))
    assert ferries.ttr_filter_actions(state, candidates) is None
    plain = route_id(state, "Danzig", "Warszawa")  # gray, no ferry
    assert min(a.wilds for a in claims_of(state, plain) if a.color == "red") == 0


def test_the_filter_keeps_the_candidates_themselves() -> None:
    state = with_hand(game(), 0, red=8, wild=1)
    core = ttr_core.new_game("europe", 2, seed=1, variants=[])
    core = attrs.evolve(
        started(core), players=state.players, deck=state.deck, discard=state.discard
    )
    candidates = ttr_core.legal_actions(core)
    kept = ferries.ttr_filter_actions(state, candidates)
    assert kept is not None and type(kept) is list
    removed = [a for a in candidates if not any(a is k for k in kept)]
    assert removed and all(
        isinstance(a, ClaimRoute) and a.wilds < ferries.locomotives(state.board, a.route)
        for a in removed
    )
    assert [a for a in candidates if any(a is k for k in kept)] == kept  # same order


def test_a_map_without_ferries_is_refused() -> None:
    with pytest.raises(ttr_core.GameConfigError, match="ferr"):
        ttr_core.new_game("usa", 2, variants=["ferries"])


def test_a_ferry_longer_than_its_route_is_a_map_problem() -> None:
    board = ttr_core.load_map("europe")
    route = board.routes[ferries.ferry_routes(board)[0]]
    bad = attrs.evolve(route, extra={**route.extra, "locomotives": route.length + 1})
    problems = list(ferries.ttr_validate_map(attrs.evolve(board, routes=(bad, *board.routes[1:]))))
    assert len(problems) == 1 and "locomotives" in problems[0]
    assert list(ferries.ttr_validate_map(board)) == []


def test_bots_weigh_the_locomotives_a_ferry_needs() -> None:
    state = with_hand(game(), 0, red=3)
    costs = ferries.ttr_agent_route_costs(ttr_core.player_view(state, 0))
    board = state.board
    for route in board.routes:
        need = ferries.locomotives(board, route.id)
        assert (costs[route.id] > 0) == (need > 0)
    one, two = (
        max(costs[r] for r in ferries.ferry_routes(board) if ferries.locomotives(board, r) == n)
        for n in (1, 2)
    )
    assert two > one
    held = ferries.ttr_agent_route_costs(ttr_core.player_view(with_hand(state, 0, wild=2), 0))
    assert all(held[r] < costs[r] for r in ferries.ferry_routes(board))


def test_the_transition_check_catches_a_ferry_short_of_locomotives() -> None:
    state = game()
    route = route_id(state, "Palermo", "Smyrna")
    claim = ClaimRoute(0, route, "blue", 1)
    owners = tuple(0 if r == route else o for r, o in enumerate(state.owners))
    after = attrs.evolve(state, owners=owners)
    problems = list(ferries.ttr_check_transition(state, claim, after))
    assert len(problems) == 1 and "fewer than its 2" in problems[0]
    good: Action = ClaimRoute(0, route, "blue", 2)
    assert list(ferries.ttr_check_transition(state, good, after)) == []

"""The per-state filter hook, the tie-break hook and the end-of-game hook."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import Action, ClaimRoute, DrawBlind, GameState, IllegalAction, Reason, hookimpl

from .helpers import new_started, started, with_hand


class NoBlindDraws:
    """Removes the blind draw; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def ttr_filter_actions(self, actions: Sequence[Action]) -> list[Action]:
        self.calls += 1
        return [a for a in actions if not isinstance(a, DrawBlind)]


class KeepEverything:
    @hookimpl
    def ttr_filter_actions(self, actions: Sequence[Action]) -> None:
        return None


class ShortClaimsOnly:
    """Sees what the previous filter kept: removes claims of 3 or more."""

    def __init__(self) -> None:
        self.seen: list[int] = []

    @hookimpl
    def ttr_filter_actions(self, state: GameState, actions: Sequence[Action]) -> list[Action]:
        self.seen.append(len(actions))
        routes = state.board.routes
        return [
            a for a in actions if not (isinstance(a, ClaimRoute) and routes[a.route].length >= 3)
        ]


@pytest.fixture
def filters() -> Iterator[tuple[NoBlindDraws, ShortClaimsOnly]]:
    blind, short = NoBlindDraws(), ShortClaimsOnly()
    ttr_core.register_variant("noblind", blind)
    ttr_core.register_variant("short", short)
    ttr_core.register_variant("keepall", KeepEverything())
    yield blind, short
    for name in ("noblind", "short", "keepall"):
        ttr_core.unregister_variant(name)


def test_filter_removes_actions_once_per_state_and_apply_refuses_them(filters: Any) -> None:
    blind, _ = filters
    state = new_started(variants=["noblind"])
    calls = blind.calls
    legal = ttr_core.legal_actions(state)
    assert DrawBlind(0) not in legal and any(isinstance(a, ttr_core.DrawFaceUp) for a in legal)
    ttr_core.legal_actions(state)
    assert blind.calls == calls + 1  # one call per state, not per action
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, DrawBlind(0))
    assert err.value.reason == Reason.VETOED
    assert "'noblind'" in str(err.value)


def test_apply_refuses_a_filtered_action_even_before_legal_actions_is_asked(filters: Any) -> None:
    state = new_started(variants=["noblind"])
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, DrawBlind(0))
    assert err.value.reason == Reason.VETOED
    # an action the filter keeps is applied as usual
    ttr_core.apply(new_started(variants=["noblind"]), ttr_core.DrawFaceUp(0, 0))


def test_filters_chain_in_variant_order(filters: Any) -> None:
    _, short = filters
    state = with_hand(new_started(variants=["noblind", "short"]), 0, red=4, wild=2)
    core = ttr_core.legal_actions(with_hand(new_started(variants=[]), 0, red=4, wild=2))
    legal = ttr_core.legal_actions(state)
    assert short.seen[-1] == len(core) - 1  # it saw the list without the blind draw
    routes = state.board.routes
    assert not any(isinstance(a, ClaimRoute) and routes[a.route].length >= 3 for a in legal)
    assert any(isinstance(a, ClaimRoute) for a in legal)
    long_claim = next(a for a in core if isinstance(a, ClaimRoute) and routes[a.route].length >= 3)
    with pytest.raises(IllegalAction, match="'short'"):
        ttr_core.apply(state, long_claim)


def test_a_filter_that_keeps_everything_changes_nothing(filters: Any) -> None:
    for seed in range(3):
        plain = ttr_core.random_playout("newyork", 3, seed=seed, variants=["attractions"])
        kept = ttr_core.random_playout("newyork", 3, seed=seed, variants=["attractions", "keepall"])
        assert kept.scores.totals == plain.scores.totals
        assert kept.actions == plain.actions


def test_a_turn_whose_every_action_is_filtered_can_be_passed() -> None:
    class Nothing:
        @hookimpl
        def ttr_filter_actions(self, actions: Sequence[Action]) -> list[Action]:
            return []

    ttr_core.register_variant("nothing", Nothing())
    try:
        state = ttr_core.new_game("newyork", 2, variants=["nothing"])
        with pytest.raises(ttr_core.PluginError, match="start_tickets"):
            ttr_core.legal_actions(state)
        state = attrs.evolve(state, pending=ttr_core.Pending("turn", 0), start_offers=())
        assert ttr_core.legal_actions(state) == (ttr_core.Pass(0),)
        assert ttr_core.apply(state, ttr_core.Pass(0)).current_player == 1
    finally:
        ttr_core.unregister_variant("nothing")


# -- tie-break ----------------------------------------------------------------------


def finished_tie(variants: list[str]) -> GameState:
    """A finished 2-player game: equal totals, no tickets, seat 1 with more routes."""
    state = started(ttr_core.new_game("newyork", 2, seed=1, variants=variants))
    players = tuple(attrs.evolve(p, tickets=(), score=5) for p in state.players)
    players = (players[0], attrs.evolve(players[1], routes=(0,)))
    return attrs.evolve(state, players=players, pending=None, termination=ttr_core.Termination.CARS)


class MostRoutes:
    """Tie-break: the most routes claimed wins."""

    @hookimpl
    def ttr_tie_break(self, state: GameState, tied: Sequence[int]) -> list[int]:
        best = max(len(state.players[s].routes) for s in tied)
        return [s for s in tied if len(state.players[s].routes) == best]


class Seat0Wins:
    def __init__(self) -> None:
        self.called = 0

    @hookimpl
    def ttr_tie_break(self, tied: Sequence[int]) -> list[int]:
        self.called += 1
        return [tied[0]]


@pytest.fixture
def tie_breaks() -> Iterator[Seat0Wins]:
    seat0 = Seat0Wins()
    ttr_core.register_variant("mostroutes", MostRoutes())
    ttr_core.register_variant("seat0", seat0)
    yield seat0
    ttr_core.unregister_variant("mostroutes")
    ttr_core.unregister_variant("seat0")


def sheet_with(state: GameState, seat: int, total: int) -> ttr_core.ScoreSheet:
    return ttr_core.ScoreSheet(seat, (), total, 0, 0)


def test_without_a_tie_break_a_tie_is_shared(tie_breaks: Any) -> None:
    state = finished_tie([])
    assert ttr_core.final_scores(state).winners == (0, 1)


def test_a_tie_break_decides_a_tie_the_core_leaves(tie_breaks: Any) -> None:
    state = finished_tie(["mostroutes"])
    # route points differ, so make the totals equal through the running scores
    sheets = ttr_core.score_sheets(state)
    assert sheets[0].total == sheets[1].total
    assert ttr_core.final_scores(state).winners == (1,)


def test_tie_breaks_chain_and_stop_once_one_seat_is_left(tie_breaks: Any) -> None:
    seat0 = tie_breaks
    assert ttr_core.final_scores(finished_tie(["mostroutes", "seat0"])).winners == (1,)
    assert seat0.called == 0  # nothing left to break
    assert ttr_core.final_scores(finished_tie(["seat0", "mostroutes"])).winners == (0,)
    assert seat0.called == 1


def test_the_core_tickets_rule_comes_before_any_tie_break(tie_breaks: Any) -> None:
    seat0 = tie_breaks
    state = finished_tie(["seat0"])
    sheets = [sheet_with(state, 0, 10), ttr_core.ScoreSheet(1, (), 10, 1, 0)]
    from ttr_core.rules.scoring import winners

    assert winners(sheets, state) == (1,)
    assert seat0.called == 0


# -- end of game ----------------------------------------------------------------------


class Finale:
    """Records, once, the turn on which the game ended."""

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def ttr_game_over(self, state: GameState) -> GameState:
        self.calls += 1
        assert state.termination is not None and state.pending is None
        return state.with_variant("finale", state.turn)


def test_the_end_of_game_hook_runs_once_on_the_final_state() -> None:
    finale = Finale()
    ttr_core.register_variant("finale", finale)
    try:
        result = ttr_core.random_playout("newyork", 2, seed=4, variants=["finale"])
    finally:
        ttr_core.unregister_variant("finale")
    assert finale.calls == 1
    assert result.state.variant("finale") == result.state.turn
    assert ttr_core.is_over(result.state)

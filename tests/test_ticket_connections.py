"""The ticket connectivity hook (``ttr_ticket_connections``): a variant lets a
seat use routes besides its own to join its tickets' ends, and every place that
decides ticket completion agrees — the score sheet's ticket lines and counts,
the core's tie-break, ``final_scores``, the bots' ticket progress,
``ttr simulate``'s per-game statistics and the SVG panel.

The station-like plugin below keeps, per seat, one route of another seat the
seat may use (``-1``: none), set directly with ``state.with_variant`` or, at the
end of the game, chosen as Europe's stations are: the route that scores the
seat most.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import GameRecord, GameState, PlayerView, PluginError, Termination, hookimpl
from ttr_core.agents.seen import Seen
from ttr_core.checking.registry import check_state
from ttr_core.hooks import calls
from ttr_core.model.state import UNCLAIMED
from ttr_core.render import svg
from ttr_core.simulation import simulate

from .helpers import claim, new_started, route_id

NAME = "station"


class Station:
    """Per seat, the route of another seat it may use for its tickets (public)."""

    @hookimpl
    def ttr_setup(self, state: GameState) -> GameState:
        return state.with_variant(NAME, (-1,) * state.num_players)

    @hookimpl
    def ttr_variant_state_types(self) -> Mapping[str, Any]:
        return {NAME: tuple[int, ...]}

    @hookimpl
    def ttr_view_types(self, players: int) -> Mapping[str, Any]:
        return {NAME: tuple.__class_getitem__((int,) * players)}

    @hookimpl
    def ttr_player_view(self, state: GameState) -> Mapping[str, Any]:
        return {NAME: state.variant(NAME)}  # stations are public

    @hookimpl
    def ttr_determinize(self, state: GameState, view: PlayerView) -> GameState:
        return state.with_variant(NAME, tuple(view.variants[NAME]))

    @hookimpl
    def ttr_ticket_connections(self, state: GameState, seat: int) -> Iterable[int] | None:
        route: int = state.variant(NAME)[seat]
        return None if route < 0 else (route,)

    @hookimpl
    def ttr_game_over(self, state: GameState) -> GameState:
        """Each seat without a route chosen (-1) takes the other seats' route that
        scores it most, if any scores it more than none (public API only)."""
        for seat in range(state.num_players):
            if state.variant(NAME)[seat] != -1:
                continue
            best, chosen = ttr_core.score_sheets(state)[seat].total, -1
            for route, owner in enumerate(state.owners):
                if owner in (UNCLAIMED, seat):
                    continue
                total = ttr_core.score_sheets(_lend(state, seat, route))[seat].total
                if total > best:
                    best, chosen = total, route
            state = _lend(state, seat, chosen)
        return state


def _lend(state: GameState, seat: int, route: int) -> GameState:
    chosen = list(state.variant(NAME))
    chosen[seat] = route
    return state.with_variant(NAME, tuple(chosen))


@pytest.fixture(scope="module", autouse=True)
def station() -> Iterator[None]:
    ttr_core.register_variant(NAME, Station())
    yield
    ttr_core.unregister_variant(NAME)


def _ticket(state: GameState, a: str, b: str) -> int:
    return next(t.id for t in state.board.tickets if {t.a, t.b} == {a, b})


def _position(lend: bool) -> tuple[GameState, int, int]:
    """A finished 2-seat New York game: seat 0 holds Lower East Side – Wall
    Street (2 points) and owns Lower East Side – Chinatown; seat 1 owns
    Chinatown – Wall Street, which the station lends seat 0 when ``lend``.
    Seat 1's play points make the totals equal when the ticket is completed.
    Returns the state, the ticket and the lent route."""
    state = new_started(variants=[NAME])
    ticket = _ticket(state, "Lower East Side", "Wall Street")
    held = [t for p in state.players for t in p.tickets]
    state = attrs.evolve(  # every other ticket back in the deck: a state a view can give
        state,
        players=(
            attrs.evolve(state.players[0], tickets=(ticket,)),
            attrs.evolve(state.players[1], tickets=()),
        ),
        ticket_deck=tuple(t for t in (*state.ticket_deck, *held) if t != ticket),
    )
    state = claim(state, 0, route_id(state, "Lower East Side", "Chinatown"), "blue")
    lent = route_id(state, "Chinatown", "Wall Street", "green")
    state = claim(state, 1, lent, "green")
    gap = ttr_core.score_sheets(_lend(state, 0, lent))[0].total - state.players[1].score
    bonus = attrs.evolve(state.players[1], score=state.players[1].score + gap, play_points=gap)
    state = attrs.evolve(state, players=(state.players[0], bonus))
    # -2 at the end: a station chosen at the end must not lend seat 1 anything.
    state = state.with_variant(NAME, (lent if lend else -1, -2))
    return attrs.evolve(state, pending=None, termination=Termination.CARS), ticket, lent


def test_a_ticket_joined_through_a_lent_route_scores_completed_with_no_correction_line() -> None:
    state, ticket, _ = _position(lend=True)
    scores = ttr_core.final_scores(state)
    sheet = scores.sheets[0]
    assert [line.kind for line in sheet.lines] == ["routes", "ticket"]  # no correction line
    (line,) = [line for line in sheet.lines if line.kind == "ticket"]
    assert line.ref == ticket and line.points == 2 and line.label.endswith(": completed")
    assert (sheet.tickets_completed, sheet.tickets_failed) == (1, 0)
    assert sheet.total == sum(line.points for line in sheet.lines)
    # The totals are equal; the core's tie-break (most completed tickets) counts
    # the ticket completed through the station.
    assert scores.totals[0] == scores.totals[1]
    assert scores.winners == (0,)
    assert ttr_core.score_sheets(state) == scores.sheets
    assert not check_state(state)


def test_without_the_lent_route_the_same_ticket_fails() -> None:
    state, _, _ = _position(lend=False)
    state = state.with_variant(NAME, (-2, -2))  # nothing lent, nothing chosen at the end
    scores = ttr_core.final_scores(state)
    sheet = scores.sheets[0]
    assert (sheet.tickets_completed, sheet.tickets_failed) == (0, 1)
    assert [line.points for line in sheet.lines if line.kind == "ticket"] == [-2]
    assert scores.winners == (1,)


def test_the_game_over_choice_lends_the_route_in_a_played_ending() -> None:
    """The station chosen by ``ttr_game_over`` when the game ends by ``apply``."""
    state, _, lent = _position(lend=False)
    assert state.variant(NAME)[0] == -1
    chosen = Station().ttr_game_over(state)
    assert chosen.variant(NAME) == (lent, -2)
    assert ttr_core.final_scores(chosen).sheets[0].tickets_completed == 1


def test_the_svg_panel_counts_the_ticket_completed() -> None:
    state, _, _ = _position(lend=True)
    picture = svg(state)
    assert "tickets: 1 completed, 0 failed" in picture
    unlent = svg(state.with_variant(NAME, (-2, -2)))
    assert "tickets: 0 completed, 1 failed" in unlent


def test_the_bots_see_the_ticket_done_through_their_own_view() -> None:
    state, ticket, lent = _position(lend=True)
    playing = attrs.evolve(state, pending=ttr_core.Pending("turn", 0), termination=None)
    view = ttr_core.player_view(playing, 0)
    assert view.variants[NAME][0] == lent  # what the seat may know: public here
    seen = Seen(view, random.Random(0), {})
    assert lent in seen.joined and seen.done(ticket) and seen.open_tickets() == []
    unlent = ttr_core.player_view(playing.with_variant(NAME, (-1, -1)), 0)
    seen = Seen(unlent, random.Random(0), {})
    assert lent not in seen.joined and seen.open_tickets() == [ticket]


def test_simulate_counts_the_tickets_completed_through_stations() -> None:
    result = simulate(
        "newyork", 2, ["route"], 4, seed=3, workers=1, variants=[NAME], per_game=True, records=True
    )
    through_stations = 0
    for game in result.games:
        assert game.record is not None
        record: GameRecord = ttr_core.from_json(game.record, GameRecord)
        final = list(ttr_core.replay(record))[-1]
        assert final.is_over
        for seat, player in enumerate(final.players):
            own = _done(final, player.routes, player.tickets)
            lent = final.variant(NAME)[seat]
            joined = _done(final, (*player.routes, *([lent] if lent >= 0 else [])), player.tickets)
            assert game.tickets_completed[seat] == joined
            through_stations += joined - own
    assert through_stations > 0  # the statistics count the stations' tickets


def _done(state: GameState, routes: Iterable[int], tickets: Iterable[int]) -> int:
    """Tickets joined by ``routes`` (a plain search, not the core's union-find)."""
    board = state.board
    near: dict[str, set[str]] = {}
    for r in routes:
        a, b = board.routes[r].a, board.routes[r].b
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    count = 0
    for t in tickets:
        ticket = board.tickets[t]
        seen, todo = {ticket.a}, [ticket.a]
        while todo:
            for nxt in near.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        count += ticket.b in seen
    return count


@pytest.mark.filterwarnings("ignore::ttr_core.TtrWarning")
def test_no_variant_implements_the_hook_by_default() -> None:
    for name in ("newyork", "usa", "amsterdam", "nederland"):
        assert ttr_core.new_game(name, 2, seed=0).rules.ticket_connections == ()


class OneHook:
    def __init__(self, result: Any) -> None:
        self.result = result

    @hookimpl
    def ttr_ticket_connections(self) -> Any:
        return self.result() if callable(self.result) else self.result


def _forever() -> Iterator[int]:
    while True:
        yield 0


@pytest.mark.parametrize(
    ("result", "fragment"),
    [
        (7, "must return an iterable of route ids or None, not int 7"),
        ("12", "must return an iterable of route ids or None"),
        ({1: 2}, "must return an iterable of route ids or None"),
        ([True], "returned bool True: a route id is a whole number"),
        ([-1], "returned int -1: a route id"),
        ([10**6], "a route id is a whole number 0 to"),
        ([1.0], "returned float 1.0"),
        (_forever, "returned more than"),
    ],
)
def test_results_are_checked_like_other_hook_results(result: Any, fragment: str) -> None:
    ttr_core.register_variant("oddlink", OneHook(result))
    try:
        state = new_started(variants=["oddlink"])
        with pytest.raises(PluginError) as err:
            ttr_core.score_sheets(state)
        assert err.value.variant == "oddlink" and err.value.hook == "ttr_ticket_connections"
        assert fragment in str(err.value)
    finally:
        ttr_core.unregister_variant("oddlink")


def test_any_iterable_of_routes_is_accepted() -> None:
    ttr_core.register_variant("oddlink", OneHook(lambda: iter(range(3))))
    try:
        state = new_started(variants=["oddlink"])
        rules = state.rules
        assert calls.run_ticket_connections(rules, state, 0) == {0, 1, 2}
    finally:
        ttr_core.unregister_variant("oddlink")

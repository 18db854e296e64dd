"""The core's one ticket check (issue 32, finding 1): tickets whose end is a region
(any of its locations), tickets with several destinations (the best one joined
scores; none joined loses the fewest points), and a variant's own ticket ends
(hook ``ttr_ticket_ends``) — read the same way by the score sheets, their
counts, the tie-break, the stations and the bots."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

import ttr_core
import ttr_core.testing
from ttr_core import (
    Board,
    GameState,
    PluginError,
    ScoreLine,
    Ticket,
    TicketEnds,
    TicketGoal,
    TicketOutcome,
    hookimpl,
)

MAP = str(Path(__file__).with_name("data") / "regions.toml")


@pytest.fixture(scope="module")
def board() -> Board:
    return ttr_core.load_map(MAP)


def holding(board: Board, routes: Sequence[int], tickets: Sequence[int], **kw: Any) -> GameState:
    """A started 2-seat game on the test map where seat 0 holds ``routes`` and
    ``tickets`` (and seat 1 nothing)."""
    state = ttr_core.new_game(board, 2, seed=1, **kw)
    owners = list(state.owners)
    for route in routes:
        owners[route] = 0
    seat = attrs.evolve(state.players[0], routes=tuple(routes), tickets=tuple(tickets))
    other = attrs.evolve(state.players[1], tickets=())
    return attrs.evolve(state, owners=tuple(owners), players=(seat, other))


def outcome(board: Board, routes: Sequence[int], ticket: int, **kw: Any) -> TicketOutcome:
    (found,) = ttr_core.ticket_outcomes(holding(board, routes, [ticket], **kw), 0)
    return found


def test_a_region_is_reached_at_any_of_its_locations(board: Board) -> None:
    # Home–Mid, then Mid–East 2: East reached at its second location.
    assert outcome(board, [0, 2], 1) == TicketOutcome(1, True, 5, "East")
    # Home–Mid–North–East 1: at its first location, by another way.
    assert outcome(board, [0, 4, 6], 1) == TicketOutcome(1, True, 5, "East")


def test_the_best_destination_joined_scores(board: Board) -> None:
    assert outcome(board, [3], 1) == TicketOutcome(1, True, 3, "West")
    assert outcome(board, [3, 0, 2], 1) == TicketOutcome(1, True, 5, "East")


def test_none_joined_loses_the_fewest_points(board: Board) -> None:
    assert outcome(board, [], 1) == TicketOutcome(1, False, -3, None)
    assert outcome(board, [], 6) == TicketOutcome(6, False, -2, None)
    assert board.tickets[1].lost == 3 and board.tickets[0].lost == 1


def test_a_region_may_start_a_ticket(board: Board) -> None:
    # East 2 – Mid – Home – West 1.
    assert outcome(board, [2, 0, 3], 2) == TicketOutcome(2, True, 7, "West")
    assert outcome(board, [1, 0], 2) == TicketOutcome(2, False, -7, None)


def test_plain_tickets_are_as_before(board: Board) -> None:
    assert outcome(board, [0], 0) == TicketOutcome(0, True, 1, "Mid")
    assert outcome(board, [3], 0) == TicketOutcome(0, False, -1, None)


def test_the_score_sheet_counts_through_the_one_check(board: Board) -> None:
    state = holding(board, [0, 2], [1, 6, 4])
    sheet = ttr_core.score_sheets(state)[0]
    tickets = [line for line in sheet.lines if line.kind == "ticket"]
    assert [(line.ref, line.points) for line in tickets] == [(1, 5), (6, 6), (4, -4)]
    assert tickets[0].label == "Ticket Home – East 5 / West 3: East reached"
    assert tickets[2].label == "Ticket West – North (4): failed"
    assert (sheet.tickets_completed, sheet.tickets_failed) == (2, 1)
    none = ttr_core.score_sheets(holding(board, [], [1]))[0]
    assert [line.label for line in none.lines if line.kind == "ticket"] == [
        "Ticket Home – East 5 / West 3: none reached"
    ]


def test_the_tie_break_counts_tickets_reached_at_any_location(board: Board) -> None:
    """Two seats of equal totals: the one whose country ticket is joined at a
    border point no plain two-place check would look at wins on tickets."""
    state = holding(board, [0, 6, 4], [1])  # East reached at East 1, through North
    owners = list(state.owners)
    owners[3] = 1
    seat1 = attrs.evolve(state.players[1], routes=(3,), tickets=(5,))
    state = attrs.evolve(state, owners=tuple(owners), players=(state.players[0], seat1))
    sheets = ttr_core.score_sheets(state)
    assert [s.tickets_completed for s in sheets] == [1, 0]
    padded = (sheets[0], attrs.evolve(sheets[1], total=sheets[0].total))
    assert ttr_core.rules.scoring.winners(padded) == (0,)


def test_ticket_ends_are_the_maps(board: Board) -> None:
    state = ttr_core.new_game(board, 2, seed=0)
    ends = ttr_core.ticket_ends(state)
    east, west = board.places("East"), board.places("West")
    assert ends[1] == TicketEnds(
        board.places("Home"), [TicketGoal(east, 5, "East"), TicketGoal(west, 3, "West")], 3
    )
    assert ends[2].start == east
    with pytest.raises(ttr_core.ArgumentError):
        ttr_core.ticket_outcomes(state, 2)
    with pytest.raises(ttr_core.ArgumentError):
        ttr_core.ticket_ends("state")  # type: ignore[arg-type]


def test_scored_refuses_a_root_that_names_no_component() -> None:
    ends = TicketEnds((0,), (TicketGoal((3,), 2, "D"),), 2)
    assert ends.scored([0, 0, 0, 0]) == (2, TicketGoal((3,), 2, "D"))
    assert ends.scored([0, 1, 2, 3]) == (-2, None)
    with pytest.raises(ttr_core.ArgumentError):
        ends.scored([0, 0])


# -- a lent route (ttr_ticket_connections): with stations or without -----------------------


class Lends:
    """Lends seat 0 route 6 (North–East 1) for its tickets, as a station would."""

    @hookimpl
    def ttr_ticket_connections(self, state: GameState, seat: int) -> tuple[int, ...]:
        return (6,) if seat == 0 else ()


@pytest.fixture
def lends() -> Iterator[None]:
    ttr_core.register_variant("lends", Lends())
    yield
    ttr_core.unregister_variant("lends")


def test_a_lent_route_reaches_another_location_of_the_region(board: Board, lends: None) -> None:
    # Home–Mid–North are the seat's; North–East 1 is lent: East reached at East 1.
    assert outcome(board, [0, 4], 1, variants=["lends"]) == TicketOutcome(1, True, 5, "East")
    assert outcome(board, [0, 4], 1) == TicketOutcome(1, False, -3, None)


def test_the_stations_lend_the_route_that_scores_most() -> None:
    """Europe's stations choose the lent route by the core's ticket values: a
    ticket with several destinations counts its best one (EU3)."""
    from ttr_core_plugins.stations import _choose

    board = ttr_core.load_map(MAP)
    state = ttr_core.new_game(board, 2, seed=0)
    ends = ttr_core.ticket_ends(state)
    owners = [-1] * len(board.routes)
    owners[2] = owners[3] = 1  # Mid–East 2 and Home–West 1 are the other seat's
    # Seat 0 holds Home–Mid; a station at Mid may lend Mid–East 2 (East: 5 or 6).
    lent = _choose(board, tuple(owners), 0, (board.location_id("Mid"),), (0,), (ends[1], ends[6]))
    assert lent == (2,)
    # At Home it may lend Home–West 1 only: ticket 1 scores West (3) rather than lose 3.
    lent = _choose(board, tuple(owners), 0, (board.location_id("Home"),), (0,), (ends[1],))
    assert lent == (3,)


# -- a variant's own ticket ends (hook ttr_ticket_ends) -------------------------------------


class Doubled:
    """Tickets of 4 points or more may also be completed at North, for double."""

    @hookimpl
    def ttr_ticket_ends(self, board: Board, ticket: Ticket) -> TicketEnds | None:
        if ticket.points < 4 or ticket.more:
            return None
        north = TicketGoal(board.places("North"), 2 * ticket.points, "North (doubled)")
        goals = [TicketGoal(board.places(ticket.b), ticket.points, ticket.b), north]
        return TicketEnds(board.places(ticket.a), goals, ticket.points)


@pytest.fixture
def doubled() -> Iterator[None]:
    ttr_core.register_variant("doubled", Doubled())
    yield
    ttr_core.unregister_variant("doubled")


def test_a_variant_decides_a_tickets_ends(board: Board, doubled: None) -> None:
    # Ticket 2 (East–West, 7): reaching North from East scores 14 with the variant.
    assert outcome(board, [6], 2, variants=["doubled"]) == TicketOutcome(
        2, True, 14, "North (doubled)"
    )
    assert outcome(board, [6], 2) == TicketOutcome(2, False, -7, None)
    # The map's own answer stands for the tickets the variant leaves.
    assert outcome(board, [0], 0, variants=["doubled"]) == TicketOutcome(0, True, 1, "Mid")


@pytest.mark.parametrize(
    ("answer", "fragment"),
    [
        ("junk", "must return a ttr_core.TicketEnds or None"),
        (TicketEnds((), (TicketGoal((1,), 2, "x"),), 1), "at least one location id"),
        (TicketEnds((0,), (), 1), "1 to 50 TicketGoals"),
        (TicketEnds((0,), (TicketGoal((99,), 2, "x"),), 1), "ids are 0 to 5"),
        (TicketEnds((0,), (TicketGoal((1,), 0, "x"),), 1), "goal points"),
        (TicketEnds((0,), (TicketGoal((1,), 2, ""),), 1), "a name of 1 to 100"),
        (TicketEnds((0,), (TicketGoal((1,), 2, "x"),), -1), "returned lost"),
        (TicketEnds([0], ["goal"], 1), "no TicketGoal"),  # type: ignore[list-item]
    ],
)
def test_a_bad_answer_is_refused_by_name(board: Board, answer: Any, fragment: str) -> None:
    class Bad:
        @hookimpl
        def ttr_ticket_ends(self, board: Board, ticket: Ticket) -> Any:
            return answer

    ttr_core.register_variant("badends", Bad())
    try:
        state = holding(board, [0], [0], variants=["badends"])
        with pytest.raises(PluginError) as err:
            ttr_core.score_sheets(state)
        assert (err.value.variant, err.value.hook) == ("badends", "ttr_ticket_ends")
        assert fragment in str(err.value)
    finally:
        ttr_core.unregister_variant("badends")


def test_sheets_agree_with_the_outcomes_over_random_games(board: Board) -> None:
    """Every seat's ticket lines equal its outcomes, whatever is reached."""
    import random

    for seed in range(20):
        state = ttr_core.new_game(board, 3, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
        for sheet in ttr_core.final_scores(state).sheets:
            outcomes = ttr_core.ticket_outcomes(state, sheet.player)
            lines: list[ScoreLine] = [line for line in sheet.lines if line.kind == "ticket"]
            assert [(line.ref, line.points) for line in lines] == [
                (o.ticket, o.points) for o in outcomes
            ]
            assert sheet.tickets_completed == sum(o.completed for o in outcomes)


# -- the third-party package's coast tickets (public API only) ------------------------------


def test_a_third_party_variant_makes_coast_tickets() -> None:
    """tests/thirdparty's ``tp_coasts``: its own ticket check through the public
    hook, from its own map table and list-valued fields; the core's counts,
    score lines and invariants follow it."""
    from . import thirdparty

    thirdparty.register()
    try:
        board = ttr_core.load_map(thirdparty.MAP)
        assert board.tickets[6].extra["coasts"] == ("West", "East")
        state = ttr_core.new_game(board, 2, seed=0, variants=["tp_coasts"])

        def route(a: str, b: str) -> int:
            return next(r.id for r in board.routes if {r.a, r.b} == {a, b})

        # Denver – Phoenix – Los Angeles reaches the West coast (7); none: -7.
        west = [route("Denver", "Phoenix"), route("Phoenix", "Los Angeles")]
        state = attrs.evolve(
            state, owners=tuple(0 if r in west else -1 for r in range(len(board.routes)))
        )
        seat = attrs.evolve(state.players[0], routes=tuple(west), tickets=(6, 11))
        state = attrs.evolve(state, players=(seat, state.players[1]))
        assert ttr_core.ticket_outcomes(state, 0) == (
            TicketOutcome(6, True, 7, "West coast"),
            TicketOutcome(11, False, -9, None),
        )
        sheet = ttr_core.score_sheets(state)[0]
        assert (sheet.tickets_completed, sheet.tickets_failed) == (1, 1)
        report = ttr_core.testing.verify(board, ["tp_coasts"], games=6, seed=2)
        assert report.ok, [str(v) for f in report.failures for v in f.violations]
    finally:
        thirdparty.unregister()


def test_the_coast_tickets_check_their_map_data() -> None:
    from . import thirdparty

    thirdparty.register()
    try:
        text = Path(thirdparty.MAP).read_text(encoding="utf-8")
        bad = text.replace('coasts = ["East"], values = [9]', 'coasts = ["North"], values = [9]')
        with pytest.raises(ttr_core.MapError) as err:
            ttr_core.parse_map(bad, source="rockies.toml")
        assert "no coast 'North'" in str(err.value)
    finally:
        thirdparty.unregister()


def test_a_view_tells_the_same_ends_and_rules_as_its_state(board: Board, doubled: None) -> None:
    """``ticket_ends(view)`` and ``view_rules(view)``: what a bot that sees a view
    only asks (issue 33: the mandala bots' second paths), a variant's own ends
    included."""
    for variants in (["doubled"], []):
        state = ttr_core.new_game(board, 2, seed=0, variants=variants)
        for seat in range(2):
            view = ttr_core.player_view(state, seat)
            assert ttr_core.ticket_ends(view) == ttr_core.ticket_ends(state)
            assert ttr_core.view_rules(view) == state.rules
    doubled_view = ttr_core.player_view(
        ttr_core.new_game(board, 2, seed=0, variants=["doubled"]), 0
    )
    plain_view = ttr_core.player_view(ttr_core.new_game(board, 2, seed=0, variants=[]), 0)
    assert ttr_core.ticket_ends(doubled_view) != ttr_core.ticket_ends(plain_view)
    usa = ttr_core.new_game("usa", 2, seed=0)
    assert not ttr_core.view_rules(ttr_core.player_view(usa, 0)).both_pair_routes_usable
    usa4 = ttr_core.new_game("usa", 4, seed=0)
    assert ttr_core.view_rules(ttr_core.player_view(usa4, 1)).both_pair_routes_usable


@pytest.mark.parametrize("junk", [None, "view", 3, object()])
def test_view_rules_and_ticket_ends_refuse_what_is_no_game(junk: Any) -> None:
    with pytest.raises(ttr_core.ArgumentError, match="view must be a PlayerView"):
        ttr_core.view_rules(junk)
    with pytest.raises(ttr_core.ArgumentError, match="a GameState or a PlayerView"):
        ttr_core.ticket_ends(junk)

"""Ticket to Ride: Switzerland's rules (the rules file's every line, and the
engine decisions CH1–CH3): locomotives only on tunnels, a face-up locomotive as an
ordinary card, country tickets reached at any border point and scoring their
highest country, unkept tickets to the box, double routes by player count."""

from __future__ import annotations

import attrs
import pytest
from ttr_core_plugins.longest_route import path_lengths
from ttr_core_plugins.tunnels import PayTunnel

import ttr_core
from ttr_core import (
    ClaimRoute,
    DrawFaceUp,
    DrawTickets,
    GameState,
    IllegalAction,
    KeepTickets,
    Pending,
    PlayerCountError,
    Reason,
    TicketOutcome,
)

from .helpers import set_deck, set_display, started, with_hand

MAP = "switzerland"


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    return ttr_core.load_map(MAP)


def game(players: int = 2, seed: int = 0, variants: list[str] | None = None) -> GameState:
    return started(ttr_core.new_game(MAP, players, seed=seed, variants=variants))


def turn_of(state: GameState, seat: int = 0) -> GameState:
    return attrs.evolve(state, pending=Pending("turn", seat))


def route_between(board: ttr_core.Board, a: str, b: str) -> int:
    for route in board.routes:
        if {route.a, route.b} == {a, b}:
            return route.id
    raise LookupError((a, b))


def owning(state: GameState, seat: int, routes: list[int], tickets: list[int]) -> GameState:
    owners = list(state.owners)
    for route in routes:
        owners[route] = seat
    player = attrs.evolve(state.players[seat], routes=tuple(routes), tickets=tuple(tickets))
    players = tuple(player if s == seat else p for s, p in enumerate(state.players))
    return attrs.evolve(state, owners=tuple(owners), players=players)


def test_two_or_three_players() -> None:
    for players in (2, 3):
        assert ttr_core.new_game(MAP, players, seed=0).num_players == players
    for players in (1, 4):
        with pytest.raises(PlayerCountError):
            ttr_core.new_game(MAP, players, seed=0)


def test_the_setup_deals_4_cards_and_5_tickets_keep_2(board: ttr_core.Board) -> None:
    state = ttr_core.new_game(MAP, 3, seed=4)
    assert all(p.hand.total == 4 and p.cars == 40 for p in state.players)
    assert board.total_cards == 110 and board.deck == (12,) * 8 + (14,)
    assert state.pending is not None and len(state.pending.offered) == 5
    assert state.pending.min_keep == 2


def test_unkept_starting_and_drawn_tickets_go_to_the_box() -> None:
    state = ttr_core.new_game(MAP, 2, seed=1)
    assert state.pending is not None
    offered = state.pending.offered
    state = ttr_core.apply(state, KeepTickets(0, offered[:2]))
    assert state.boxed_tickets == offered[2:]
    state = started(state)
    state = turn_of(state)
    drawn = ttr_core.apply(state, DrawTickets(0))
    assert drawn.pending is not None and len(drawn.pending.offered) == 3
    assert drawn.pending.min_keep == 1
    kept = ttr_core.apply(drawn, KeepTickets(0, drawn.pending.offered[:1]))
    assert set(drawn.pending.offered[1:]) <= set(kept.boxed_tickets)
    assert not set(drawn.pending.offered[1:]) & set(kept.ticket_deck)


def test_locomotives_pay_only_on_tunnels(board: ttr_core.Board) -> None:
    plain = next(r for r in board.routes if r.color != "gray" and not r.extra["tunnel"])
    tunnel = next(r for r in board.routes if r.color != "gray" and r.extra["tunnel"])
    state = turn_of(with_hand(game(), 0, **{plain.color: 1, tunnel.color: 1, "wild": 6}))
    listed = [a for a in ttr_core.legal_actions(state) if type(a) is ClaimRoute]
    assert not [a for a in listed if a.route == plain.id]  # one card of its colour is short
    assert ClaimRoute(0, tunnel.id, tunnel.color, tunnel.length - 1) in listed
    assert ClaimRoute(0, tunnel.id, None, tunnel.length) in listed
    assert all(a.wilds == 0 for a in listed if not board.routes[a.route].extra["tunnel"])
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ClaimRoute(0, plain.id, plain.color, plain.length - 1))
    assert err.value.reason == Reason.CARDS_DO_NOT_PAY


def test_locomotives_pay_a_tunnels_extra_cards(board: ttr_core.Board) -> None:
    tunnel = next(r for r in board.routes if r.color != "gray" and r.extra["tunnel"])
    state = turn_of(with_hand(game(), 0, **{tunnel.color: tunnel.length, "wild": 2}))
    state = set_deck(state, "wild", tunnel.color, *(["red"] if tunnel.color != "red" else ["blue"]))
    waiting = ttr_core.apply(state, ClaimRoute(0, tunnel.id, tunnel.color, 0))
    assert PayTunnel(0, 2) in ttr_core.legal_actions(waiting)  # two extra, both locomotives
    done = ttr_core.apply(waiting, PayTunnel(0, 2))
    assert done.owners[tunnel.id] == 0 and done.players[0].hand["wild"] == 0


def test_a_face_up_locomotive_is_an_ordinary_card() -> None:
    state = turn_of(set_display(game(), "wild", "wild", "red", "blue", "green"))
    first = ttr_core.apply(state, DrawFaceUp(0, 0))
    assert first.pending == Pending("second_card", 0)
    wild_slot = first.display.index(first.board.wild)
    assert DrawFaceUp(0, wild_slot) in ttr_core.legal_actions(first)
    second = ttr_core.apply(first, DrawFaceUp(0, wild_slot))
    assert second.players[0].hand["wild"] == state.players[0].hand["wild"] + 2


def test_ch1_three_face_up_locomotives_reset_the_display() -> None:
    state = turn_of(set_deck(set_display(game(), "wild", "wild", "red", "blue", "green"), "wild"))
    after = ttr_core.apply(state, DrawFaceUp(0, 2))
    # The refill was a third locomotive: the display was laid out again.
    assert after.display.count(after.board.wild) <= 2
    assert sum(after.discard) > sum(state.discard)


def test_ch1_is_listed_among_the_maps_doubts(board: ttr_core.Board) -> None:
    assert board.provenance is not None
    doubts = " ".join(board.provenance.unverified).lower()
    assert "three face-up locomotives" in doubts or "3 face-up" in doubts


@pytest.mark.parametrize(("players", "both"), [(2, False), (3, True)])
def test_double_routes_by_player_count(board: ttr_core.Board, players: int, both: bool) -> None:
    pair = next(r for r in board.routes if r.partner is not None and r.color != "gray")
    partner = board.routes[pair.partner]  # type: ignore[index]
    state = turn_of(with_hand(game(players), 0, **{pair.color: pair.length}))
    state = ttr_core.apply(state, ClaimRoute(0, pair.id, pair.color, 0))
    other = turn_of(with_hand(state, 1, **{partner.color: partner.length}), 1)
    listed = {a.route for a in ttr_core.legal_actions(other) if type(a) is ClaimRoute}
    assert (partner.id in listed) is both
    # Never both routes of a pair by one seat.
    mine = turn_of(with_hand(state, 0, **{partner.color: partner.length}))
    assert partner.id not in {
        a.route for a in ttr_core.legal_actions(mine) if type(a) is ClaimRoute
    }


def test_route_points(board: ttr_core.Board) -> None:
    assert dict(board.rules.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}


def _country_ticket(board: ttr_core.Board, start: str) -> ttr_core.Ticket:
    return next(t for t in board.tickets if t.a == start and t.more)


def test_ch2_a_country_ticket_scores_its_highest_country_once(board: ttr_core.Board) -> None:
    ticket = _country_ticket(board, "Lugano")
    values = dict(ticket.destinations)
    italia = route_between(board, "Lugano", "Italia 3")
    state = owning(game(), 0, [italia], [ticket.id])
    assert ttr_core.ticket_outcomes(state, 0) == (
        TicketOutcome(ticket.id, True, values["Italia"], "Italia"),
    )
    # Reaching more countries scores only the highest joined, once.
    path = [italia, route_between(board, "Lugano", "Bellinzona")]
    path += [
        route_between(board, "Bellinzona", "Locarno"),
        route_between(board, "Locarno", "Italia 4"),
    ]
    state = owning(game(), 0, path, [ticket.id])
    (outcome,) = ttr_core.ticket_outcomes(state, 0)
    assert outcome.points == values["Italia"]
    sheet = ttr_core.score_sheets(state)[0]
    assert [line.points for line in sheet.lines if line.kind == "ticket"] == [values["Italia"]]


def test_ch2_no_country_joined_loses_the_lowest_value(board: ttr_core.Board) -> None:
    ticket = _country_ticket(board, "Bern")
    state = owning(game(), 0, [], [ticket.id])
    (outcome,) = ttr_core.ticket_outcomes(state, 0)
    assert outcome == TicketOutcome(ticket.id, False, -min(p for _e, p in ticket.destinations))
    assert ttr_core.score_sheets(state)[0].tickets_failed == 1


def test_a_country_is_reached_at_any_of_its_border_points(board: ttr_core.Board) -> None:
    """Zürich to Deutschland through Kreuzlingen, whose two routes to Germany end
    at two different border points: either one completes the ticket."""
    ticket = _country_ticket(board, "Zürich")
    values = dict(ticket.destinations)
    borders = [
        r for r in board.routes if "Kreuzlingen" in (r.a, r.b) and "Deutschland" in r.a + r.b
    ]
    assert len({r.a + r.b for r in borders}) == 2
    way = [
        route_between(board, "Zürich", "Winterthur"),
        route_between(board, "Kreuzlingen", "Winterthur"),
    ]
    for border in borders:
        state = owning(game(), 0, [*way, border.id], [ticket.id])
        assert ttr_core.ticket_outcomes(state, 0) == (
            TicketOutcome(ticket.id, True, values["Deutschland"], "Deutschland"),
        )
    state = owning(game(), 0, way, [ticket.id])
    assert not ttr_core.ticket_outcomes(state, 0)[0].completed


def test_a_country_to_country_ticket_between_two_border_points(board: ttr_core.Board) -> None:
    ticket = next(t for t in board.tickets if t.a == "Österreich")
    values = dict(ticket.destinations)
    # Davos touches both Österreich 3 and Italia 1.
    path = [
        route_between(board, "Davos", "Österreich 3"),
        route_between(board, "Davos", "Italia 1"),
    ]
    state = owning(game(), 0, path, [ticket.id])
    assert ttr_core.ticket_outcomes(state, 0) == (
        TicketOutcome(ticket.id, True, values["Italia"], "Italia"),
    )


def test_a_station_lends_the_route_to_another_border_point() -> None:
    """With the stations variant (not the map's, but any game may play it), a
    route of another seat lent by a station completes a country ticket by the
    core's check: with stations or without, the same check."""
    from ttr_core_plugins.stations import NAME, Station

    board = ttr_core.load_map(MAP)
    ticket = _country_ticket(board, "Lugano")
    state = game(variants=["stations"])
    lugano_italia = route_between(board, "Lugano", "Italia 3")
    state = owning(state, 1, [lugano_italia], [])
    state = owning(state, 0, [], [ticket.id])
    (before,) = ttr_core.ticket_outcomes(state, 0)
    assert not before.completed
    state = state.with_variant(NAME, (Station(board.location_id("Lugano"), 0, "red", 0, 1),))
    (after,) = ttr_core.ticket_outcomes(state, 0)
    assert after.completed and after.reached == "Italia"


def test_ch3_a_route_to_a_border_point_counts_in_the_longest_path(board: ttr_core.Board) -> None:
    path = [
        route_between(board, "Lugano", "Italia 3"),
        route_between(board, "Lugano", "Bellinzona"),
    ]
    state = owning(game(), 0, path, [])
    spaces = sum(board.routes[r].length for r in path)
    assert path_lengths(state)[0] == spaces


def test_the_longest_path_bonus_is_10_and_titled_by_the_map(board: ttr_core.Board) -> None:
    assert "globetrotter" not in board.rules.default_variants
    state = owning(game(), 0, [route_between(board, "Lugano", "Bellinzona")], [])
    sheet = ttr_core.score_sheets(state)[0]
    (line,) = [line for line in sheet.lines if line.kind == "longest_route"]
    assert line.points == 10 and line.label.startswith("Longest Continuous Path")

"""The neutral player of 2-player Nederland (variant "neutral"): every rule of
``rules/nederland.md`` ("Neutral player") and engine decisions E9-E11."""

from __future__ import annotations

import os
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ttr_core_plugins.neutral import (
    CARS,
    CHOOSE,
    OUT_OF_TRAINS,
    TICKETS_RAN_OUT,
    ChooseNeutralRoute,
    NeutralState,
    neutral,
    ticket_routes,
)
from ttr_core_plugins.tolls import START_VALUE, tolls

import ttr_core
from ttr_core import (
    DrawBlind,
    GameConfigError,
    GameState,
    IllegalAction,
    Pending,
    Reason,
    TtrError,
)
from ttr_core.cli import main
from ttr_core.testing import Invariant, invariants_for, play_checked

from .helpers import claim, new_started, route_id

NEUTRAL = 2  # the neutral player's owner number: the player count
#: Tickets by what is printed at their bottom (checked in test_the_tickets_used_here).
NO_ROUTE = 2  # Amsterdam-Rotterdam ticket: a windmill
AMSTERDAM_ROTTERDAM = 8  # Emmen-Lelystad ticket: Amsterdam-Rotterdam printed
ROTTERDAM_ANTWERPEN = (0, 5)  # two tickets print Rotterdam-Antwerpen


def game(seed: int = 0) -> GameState:
    return new_started(players=2, seed=seed, map="nederland", variants=["tolls", "neutral"])


def on_top(state: GameState, *tickets: int) -> GameState:
    """Put ``tickets`` on top of the ticket deck, in order; a ticket a seat holds
    or the discard pile has changes places with a deck ticket (none is lost)."""
    deck = [t for t in state.ticket_deck if t not in tickets]
    discard = list(state.ticket_discard)
    players = list(state.players)
    for ticket in tickets:
        if ticket in discard:
            discard.remove(ticket)
        else:
            for seat, player in enumerate(players):
                if ticket in player.tickets:
                    swap = deck.pop()
                    held = tuple(swap if t == ticket else t for t in player.tickets)
                    players[seat] = attrs.evolve(player, tickets=held)
    return attrs.evolve(
        state,
        ticket_deck=(*tickets, *deck),
        ticket_discard=tuple(discard),
        players=tuple(players),
    )


def draw_two(state: GameState) -> GameState:
    """The seat to play draws two blind cards: a turn that changes nothing on the board."""
    seat = state.current_player
    assert seat is not None and state.pending is not None and state.pending.kind == "turn"
    state = ttr_core.apply(state, DrawBlind(seat))
    return ttr_core.apply(state, DrawBlind(seat))


def before_last_turn_of_round(state: GameState, round_: int) -> GameState:
    """The state where seat 1 is about to play the last turn of round ``round_``."""
    return attrs.evolve(state, turn=2 * round_ - 1, pending=Pending("turn", 1))


def end_of_round(state: GameState, round_: int) -> GameState:
    """Seat 1 plays the last turn of round ``round_`` (two blind draws)."""
    return draw_two(before_last_turn_of_round(state, round_))


def pair(state: GameState, a: str, b: str) -> tuple[int, int]:
    first = route_id(state, a, b)
    partner = state.board.routes[first].partner
    assert partner is not None
    return first, partner


def test_the_tickets_used_here() -> None:
    board = game().board
    assert ticket_routes(board, NO_ROUTE) == ()
    assert len(ticket_routes(board, AMSTERDAM_ROTTERDAM)) == 2
    assert {board.routes[r].a for r in ticket_routes(board, AMSTERDAM_ROTTERDAM)} <= {
        "Amsterdam",
        "Rotterdam",
    }
    first, second = ROTTERDAM_ANTWERPEN
    assert ticket_routes(board, first) == ticket_routes(board, second)


def test_every_printed_neutral_route_is_one_route_of_a_double_pair() -> None:
    board = game().board
    printed = [t.id for t in board.tickets if t.extra["neutral"] is not None]
    assert len(printed) == 35
    for ticket in printed:
        routes = ticket_routes(board, ticket)
        assert len(routes) == 2
        assert board.routes[routes[0]].partner == routes[1]


# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------


def test_the_neutral_player_is_off_by_default() -> None:
    state = new_started(players=2, map="nederland")
    assert state.rules.variants == ("tolls",)
    assert state.variant("neutral") is None
    assert ttr_core.non_seat_owners(state) == ()


def test_the_neutral_player_needs_two_players() -> None:
    with pytest.raises(GameConfigError, match="only in 2-player games, not with 3") as caught:
        ttr_core.new_game("nederland", 3, variants=["tolls", "neutral"])
    assert caught.value.variant == "neutral"
    assert isinstance(caught.value, TtrError) and isinstance(caught.value, ValueError)


def test_the_neutral_player_needs_tolls() -> None:
    with pytest.raises(GameConfigError, match="switch on the 'tolls' variant"):
        ttr_core.new_game("nederland", 2, variants=["neutral"])


def test_the_neutral_player_starts_with_its_trains_and_the_second_seat_holds_the_marker() -> None:
    state = game()
    assert neutral(state) == NeutralState(owner=NEUTRAL, cars=CARS, marker=1)
    assert CARS == 40
    assert not state.is_seat(NEUTRAL)
    option = ttr_core.new_game(
        "nederland", 2, variants=["tolls", "neutral"], options={"neutral": {"cars": 12}}
    )
    assert neutral(option).cars == 12


# ---------------------------------------------------------------------------
# When the neutral player plays
# ---------------------------------------------------------------------------


def test_rounds_1_to_5_are_idle_and_round_6_ends_with_a_neutral_turn() -> None:
    state = on_top(game(), NO_ROUTE)
    tickets = len(state.ticket_deck)
    for round_ in range(1, 6):
        state = draw_two(draw_two(state))
        assert state.turn == 2 * round_
        assert len(state.ticket_deck) == tickets and neutral(state).revealed is None
    state = draw_two(state)  # seat 0 in round 6: the round is not over
    assert len(state.ticket_deck) == tickets
    state = draw_two(state)  # seat 1 ends round 6: the neutral turn follows
    assert neutral(state).revealed == NO_ROUTE
    assert len(state.ticket_deck) == tickets - 1
    assert state.pending == Pending("turn", 0)


def test_a_ticket_with_no_route_is_discarded_and_the_holder_keeps_the_marker() -> None:
    state = end_of_round(on_top(game(), NO_ROUTE), 6)
    assert state.ticket_discard[-1] == NO_ROUTE
    assert neutral(state).marker == 1
    assert ttr_core.non_seat_owners(state)[0].routes == ()
    assert state.pending == Pending("turn", 0)


def test_a_free_pair_is_chosen_by_the_holder_and_the_marker_passes() -> None:
    state = end_of_round(on_top(game(), AMSTERDAM_ROTTERDAM), 6)
    first, second = ticket_routes(state.board, AMSTERDAM_ROTTERDAM)
    # The holder (seat 1) has a real decision, listed like any other.
    assert state.pending is not None and state.pending.kind == CHOOSE
    assert state.current_player == 1
    assert ttr_core.legal_actions(state) == (
        ChooseNeutralRoute(1, first),
        ChooseNeutralRoute(1, second),
    )
    with pytest.raises(IllegalAction) as wrong_phase:
        ttr_core.apply(state, DrawBlind(1))
    assert wrong_phase.value.reason == Reason.WRONG_PHASE
    with pytest.raises(IllegalAction) as not_yours:
        ttr_core.apply(state, ChooseNeutralRoute(0, first))
    assert not_yours.value.reason == Reason.NOT_YOUR_TURN
    other = route_id(state, "Zwolle", "Enschede")
    with pytest.raises(IllegalAction, match="not another") as bad_route:
        ttr_core.apply(state, ChooseNeutralRoute(1, other))
    assert bad_route.value.reason == Reason.UNKNOWN_ROUTE
    held = tolls(state)
    after = ttr_core.apply(state, ChooseNeutralRoute(1, second))
    assert after.owner(second) == NEUTRAL and after.owner(first) is None
    assert neutral(after).cars == CARS - state.board.routes[second].length
    assert neutral(after).marker == 0
    assert after.pending == Pending("turn", 0)
    assert tolls(after) == held  # a first route: the neutral pays nothing, no one is paid
    assert after.ticket_discard[-1] == AMSTERDAM_ROTTERDAM


def test_one_route_of_the_pair_taken_the_neutral_claims_the_other_and_the_bank_pays_the_toll() -> (
    None
):
    state = before_last_turn_of_round(on_top(game(), AMSTERDAM_ROTTERDAM), 6)
    first, second = ticket_routes(state.board, AMSTERDAM_ROTTERDAM)
    toll = state.board.routes[first].extra["toll"]
    # Even the marker holder's own route counts: seat 1 claims one, ending round 6.
    state = claim(state, 1, first, state.board.routes[first].color)
    assert state.owner(first) == 1 and state.owner(second) == NEUTRAL
    assert tolls(state).holdings == (START_VALUE, START_VALUE - toll + toll)
    assert tolls(state).bank_paid == toll and tolls(state).bank_received == toll
    assert neutral(state).marker == 1  # no choice was made
    assert state.pending == Pending("turn", 0)


def test_the_neutral_owning_a_route_printed_twice_treats_the_second_ticket_as_no_route() -> None:
    once, twice = ROTTERDAM_ANTWERPEN
    state = end_of_round(on_top(game(), once, twice), 6)
    first, second = ticket_routes(state.board, once)
    state = ttr_core.apply(state, ChooseNeutralRoute(1, first))
    assert neutral(state).marker == 0
    state = draw_two(draw_two(state))  # round 7: the second ticket comes up
    assert neutral(state).revealed == twice
    assert state.owner(second) is None
    assert neutral(state).marker == 0
    assert state.pending == Pending("turn", 0)


def test_both_routes_of_the_pair_claimed_is_no_route() -> None:
    state = on_top(game(), AMSTERDAM_ROTTERDAM)
    first, second = ticket_routes(state.board, AMSTERDAM_ROTTERDAM)
    state = claim(state, 0, first, state.board.routes[first].color)
    state = before_last_turn_of_round(state, 6)
    state = claim(state, 1, second, state.board.routes[second].color)
    assert neutral(state).revealed == AMSTERDAM_ROTTERDAM
    assert (state.owner(first), state.owner(second)) == (0, 1)
    assert neutral(state).cars == CARS and neutral(state).marker == 1


def test_a_seat_claiming_the_second_route_after_the_neutral_pays_the_bank() -> None:
    state = end_of_round(on_top(game(), AMSTERDAM_ROTTERDAM), 6)
    first, second = ticket_routes(state.board, AMSTERDAM_ROTTERDAM)
    state = ttr_core.apply(state, ChooseNeutralRoute(1, first))
    toll = state.board.routes[second].extra["toll"]
    before = tolls(state)
    state = claim(state, 0, second, state.board.routes[second].color)
    assert tolls(state).holdings == (before.holdings[0] - toll, before.holdings[1])
    assert tolls(state).bank_received == before.bank_received + toll  # E11


# ---------------------------------------------------------------------------
# When the neutral player stops
# ---------------------------------------------------------------------------


def with_cars(state: GameState, cars: int) -> GameState:
    return state.with_variant("neutral", attrs.evolve(neutral(state), cars=cars))


def test_trains_running_short_stop_the_neutral_player_for_good() -> None:
    state = with_cars(on_top(game(), AMSTERDAM_ROTTERDAM, NO_ROUTE), 3)  # the pair needs 4
    state = end_of_round(state, 6)
    assert neutral(state).stopped == OUT_OF_TRAINS
    assert state.pending == Pending("turn", 0)
    assert all(owner != NEUTRAL for owner in state.owners)
    deck = state.ticket_deck
    state = draw_two(draw_two(state))  # round 7: no neutral turn
    assert state.ticket_deck == deck and neutral(state).revealed == AMSTERDAM_ROTTERDAM


def test_the_last_trains_placed_stop_the_neutral_player() -> None:
    state = with_cars(on_top(game(), AMSTERDAM_ROTTERDAM), 4)
    state = end_of_round(state, 6)
    first, _ = ticket_routes(state.board, AMSTERDAM_ROTTERDAM)
    state = ttr_core.apply(state, ChooseNeutralRoute(1, first))
    assert neutral(state).cars == 0 and neutral(state).stopped == OUT_OF_TRAINS
    assert state.final_turns == -1  # its trains never trigger the end (E9)


def test_an_exhausted_ticket_deck_stops_it_and_the_discard_pile_becomes_a_new_deck() -> None:
    state = on_top(game(), NO_ROUTE)
    # Only the top ticket is left in the deck; the rest lie on the discard pile.
    state = attrs.evolve(
        state,
        ticket_deck=state.ticket_deck[:1],
        ticket_discard=state.ticket_discard + state.ticket_deck[1:],
    )
    discarded = set(state.ticket_discard) | {NO_ROUTE}
    state = end_of_round(state, 6)
    assert neutral(state).revealed == NO_ROUTE
    assert neutral(state).stopped == TICKETS_RAN_OUT
    assert set(state.ticket_deck) == discarded and state.ticket_discard == ()
    # The seats draw from the new deck; the neutral player plays no more.
    state = draw_two(draw_two(state))
    assert len(state.ticket_deck) == len(discarded)


def test_a_seat_emptying_the_ticket_deck_stops_the_neutral_player() -> None:
    state = game()
    state = attrs.evolve(
        state,
        ticket_deck=state.ticket_deck[:2],
        ticket_discard=state.ticket_discard + state.ticket_deck[2:],
        pending=Pending("turn", 0),
        turn=2,
    )
    state = ttr_core.apply(state, ttr_core.DrawTickets(0))
    offered = state.pending.offered if state.pending else ()
    assert len(offered) == 2 and state.ticket_deck == ()
    state = ttr_core.apply(state, ttr_core.KeepTickets(0, offered[:1]))
    assert neutral(state).stopped == TICKETS_RAN_OUT
    assert len(state.ticket_deck) > 0 and state.ticket_discard == ()


def test_no_neutral_turn_once_the_end_is_triggered() -> None:
    state = on_top(game(), AMSTERDAM_ROTTERDAM)
    state = before_last_turn_of_round(state, 6)
    one = next(r.id for r in state.board.routes if r.length == 1 and r.color != "gray")
    players = list(state.players)
    players[1] = attrs.evolve(players[1], cars=3)
    state = attrs.evolve(state, players=tuple(players))
    deck = state.ticket_deck
    state = claim(state, 1, one, state.board.routes[one].color)  # 2 cars left: the end
    assert state.final_turns >= 0
    assert state.ticket_deck == deck and neutral(state).revealed is None  # E9


# ---------------------------------------------------------------------------
# What people see
# ---------------------------------------------------------------------------


def test_views_show_the_marker_the_round_the_neutral_routes_and_the_revealed_ticket() -> None:
    state = end_of_round(on_top(game(), AMSTERDAM_ROTTERDAM), 6)
    first, _ = ticket_routes(state.board, AMSTERDAM_ROTTERDAM)
    state = ttr_core.apply(state, ChooseNeutralRoute(1, first))
    length = state.board.routes[first].length
    for seat in (0, 1):
        view = ttr_core.player_view(state, seat)
        assert view.variants["neutral.marker"] == 0
        assert view.variants["neutral.round"] == 7
        assert view.variants["neutral.routes"] == (first,)
        assert view.variants["neutral.cars"] == CARS - length
        assert view.variants["neutral.revealed"] == AMSTERDAM_ROTTERDAM
        assert view.variants["neutral.stopped"] == ""
        assert view.ticket_discard[-1] == AMSTERDAM_ROTTERDAM
        (other,) = view.others
        assert (other.owner, other.name, other.cars, other.routes) == (
            NEUTRAL,
            "neutral",
            CARS - length,
            (first,),
        )
        assert len(view.seats) == 2


def test_the_holders_choice_is_shown_as_a_pending_neutral_decision() -> None:
    state = end_of_round(on_top(game(), AMSTERDAM_ROTTERDAM), 6)
    assert ttr_core.player_view(state, 1).pending == CHOOSE
    assert ttr_core.player_view(state, 0).current_player == 1


def test_final_scores_show_the_neutral_player_who_scores_nothing_and_cannot_win() -> None:
    result = ttr_core.random_playout("nederland", 2, seed=3, variants=["tolls", "neutral"])
    scores = result.scores
    (other,) = scores.others
    assert other.name == "neutral" and other.owner == NEUTRAL
    assert other.routes == tuple(r for r, o in enumerate(result.state.owners) if o == NEUTRAL)
    assert other.routes, "a whole game gives the neutral player routes"
    assert other.cars == CARS - sum(result.state.board.routes[r].length for r in other.routes)
    assert len(scores.sheets) == 2 and set(scores.winners) <= {0, 1}


def test_the_demo_plays_it_and_shows_the_neutral_routes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--map", "nederland", "--players", "2", "--variants", "tolls,neutral"]) == 0
    out = capsys.readouterr().out
    assert "variants: tolls, neutral" in out
    assert "Neutral (not a seat; scores nothing):" in out
    assert main(["--map", "nederland", "--players", "3", "--variants", "tolls,neutral"]) == 2
    assert "only in 2-player games" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# Whole games
# ---------------------------------------------------------------------------


def neutral_turn_due(before: GameState, after: GameState) -> bool:
    """Whether a neutral turn had to follow the action that led from ``before`` to ``after``."""
    return (
        after.turn == before.turn + 1
        and after.turn % 2 == 0
        and after.turn // 2 >= 6
        and after.termination is None
        and after.final_turns < 0
        and not neutral(before).stopped
        and bool(before.ticket_deck)
    )


def check_neutral(before: GameState | None, after: GameState) -> None:
    board = after.board
    now = neutral(after)
    owned = [r for r, o in enumerate(after.owners) if o == NEUTRAL]
    assert now.cars == CARS - sum(board.routes[r].length for r in owned) >= 0
    for r in owned:
        partner = board.routes[r].partner
        assert partner is not None  # every neutral route is one of a pair
        assert after.owners[partner] != NEUTRAL  # never both of a pair
    assert set(after.owners) <= {-1, 0, 1, NEUTRAL}
    value = tolls(after)
    assert sum(value.holdings) + value.bank_received - value.bank_paid == 2 * START_VALUE
    legal = ttr_core.legal_actions(after)
    pending = after.pending
    if pending is not None and pending.kind == CHOOSE:
        assert pending.player == now.marker
        assert now.revealed is not None
        routes = ticket_routes(board, now.revealed)
        assert all(after.owners[r] == -1 for r in routes)
        assert legal == tuple(ChooseNeutralRoute(pending.player, r) for r in routes)
    else:
        assert not any(isinstance(a, ChooseNeutralRoute) for a in legal)
    if before is None:
        return
    was = neutral(before)
    if before.pending is not None and before.pending.kind == CHOOSE:
        # The holder's choice: one claim (even if the reveal just stopped it).
        assert len(owned) == sum(1 for o in before.owners if o == NEUTRAL) + 1
        assert now.marker == 1 - was.marker
    elif was.stopped:
        assert now == was
    elif neutral_turn_due(before, after):
        assert now.revealed is not None and now.revealed != was.revealed
        routes = ticket_routes(board, now.revealed)
        free_pair = len(routes) == 2 and all(after.owners[r] == -1 for r in routes)
        long_enough = bool(routes) and was.cars >= board.routes[routes[0]].length
        # The holder's decision appears exactly when a free pair comes up.
        chooses = pending is not None and pending.kind == CHOOSE
        assert chooses == (free_pair and long_enough)
    else:
        assert (now.revealed, now.marker, now.cars) == (was.revealed, was.marker, was.cars)


def _neutral_rules(before: GameState, action: object, after: GameState) -> None:
    check_neutral(before, after)


#: The neutral player's rules, restated above, as an invariant for the kit.
NEUTRAL_RULES = Invariant(
    "neutral_rules",
    "transition",
    _neutral_rules,
    "the neutral player's rules",
    frozenset({"neutral"}),
)
#: The kit's cheaper invariants and the neutral player's rules: thousands of games
#: here (tests/test_properties.py runs every invariant of the kit on fewer).
CHECKED = (
    "cards_conserved",
    "tickets_conserved",
    "car_accounting",
    "route_ownership",
    "running_score",
    "score_breakdown",
    "display_rules",
    "decision",
    "terminates",
    "tolls.check_state",
    "neutral.check_state",
    "neutral_rules",
)


# Thousands of games: the players' choices come from a seeded generator (an
# integer hypothesis shrinks), which keeps a game to a few milliseconds. The
# default run plays half of 2,000 (TTR_PROPERTY_SHARE, as tests/test_properties.py;
# nox -s properties plays them all).
@settings(
    max_examples=max(100, round(2000 * float(os.environ.get("TTR_PROPERTY_SHARE") or 0.5))),
    deadline=None,
)
@given(seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_random_games_with_the_neutral_player_keep_every_invariant(seed: int, choices: int) -> None:
    state = ttr_core.new_game("nederland", 2, seed=seed, variants=["tolls", "neutral"])
    check_neutral(None, state)
    chooser = random.Random(choices)
    checked = invariants_for(state.rules, only=CHECKED, extra=[NEUTRAL_RULES])
    assert {inv.name for inv in checked} == set(CHECKED)
    report = play_checked(state, lambda _, legal: chooser.choice(legal), invariants=checked)
    assert report.ok, report.failure()
    assert report.play.state.is_over

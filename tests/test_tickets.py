"""Drawing destination tickets: keep minimums, returns to the bottom, short decks (E6)."""

from __future__ import annotations

import attrs
import pytest

import ttr_core
from ttr_core import DrawTickets, IllegalAction, KeepTickets, Reason

from .helpers import new_started


def test_drawing_offers_the_top_two_and_the_turn_waits_for_the_choice() -> None:
    state = new_started()
    top = state.ticket_deck[:2]
    state = ttr_core.apply(state, DrawTickets(0))
    assert state.pending.kind == "keep_tickets"
    assert state.pending.offered == top
    assert state.pending.min_keep == 1
    assert state.current_player == 0
    assert set(ttr_core.legal_actions(state)) == {
        KeepTickets(0, [top[0]]),
        KeepTickets(0, [top[1]]),
        KeepTickets(0, top),
    }


def test_at_least_one_ticket_must_be_kept() -> None:
    state = ttr_core.apply(new_started(), DrawTickets(0))
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, KeepTickets(0, []))
    assert err.value.reason == Reason.TOO_FEW_TICKETS_KEPT
    assert "at least 1" in str(err.value)


def test_returned_tickets_go_to_the_bottom_of_the_deck() -> None:
    state = new_started()
    held = state.players[0].tickets
    state = ttr_core.apply(state, DrawTickets(0))
    first, second = state.pending.offered
    after = ttr_core.apply(state, KeepTickets(0, [second]))
    assert after.players[0].tickets == (*held, second)
    assert after.ticket_deck[-1] == first
    assert after.current_player == 1


def test_keeping_both_returns_nothing() -> None:
    state = ttr_core.apply(new_started(), DrawTickets(0))
    deck = state.ticket_deck
    after = ttr_core.apply(state, KeepTickets(0, state.pending.offered))
    assert after.ticket_deck == deck


def test_a_ticket_not_offered_cannot_be_kept() -> None:
    state = ttr_core.apply(new_started(), DrawTickets(0))
    stranger = state.ticket_deck[0]
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, KeepTickets(0, [stranger]))
    assert err.value.reason == Reason.NOT_OFFERED


def test_with_one_ticket_left_it_is_drawn_and_must_be_kept() -> None:
    state = new_started()
    state = attrs.evolve(state, ticket_deck=state.ticket_deck[:1])
    state = ttr_core.apply(state, DrawTickets(0))
    assert len(state.pending.offered) == 1 and state.pending.min_keep == 1
    assert ttr_core.legal_actions(state) == (KeepTickets(0, state.pending.offered),)


def test_with_no_ticket_left_drawing_tickets_is_illegal() -> None:
    state = attrs.evolve(new_started(), ticket_deck=())
    assert DrawTickets(0) not in ttr_core.legal_actions(state)
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, DrawTickets(0))
    assert err.value.reason == Reason.NO_TICKETS_LEFT


def test_kept_tickets_are_secret_in_other_players_views() -> None:
    state = new_started()
    mine = ttr_core.player_view(state, 0)
    theirs = ttr_core.player_view(state, 1)
    assert mine.tickets == state.players[0].tickets
    assert theirs.tickets == state.players[1].tickets
    assert theirs.seats[0].tickets_held == len(state.players[0].tickets)
    assert not hasattr(theirs.seats[0], "tickets")

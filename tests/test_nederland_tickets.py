"""Nederland's ticket rules: 5 dealt keep 3, draw 4 keep 1, a ticket discard pile."""

from __future__ import annotations

import attrs
import pytest

import ttr_core
from ttr_core import DrawTickets, IllegalAction, KeepTickets, Reason

from .helpers import new_started


def test_start_five_dealt_keep_at_least_three_returns_to_the_discard_pile() -> None:
    state = ttr_core.new_game("nederland", 2, seed=3)
    offered = state.pending.offered
    assert len(offered) == 5 and state.pending.min_keep == 3
    legal = ttr_core.legal_actions(state)
    assert len(legal) == 10 + 5 + 1
    assert all(len(a.tickets) >= 3 for a in legal)
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, KeepTickets(0, offered[:2]))
    assert err.value.reason == Reason.TOO_FEW_TICKETS_KEPT
    deck = state.ticket_deck
    after = ttr_core.apply(state, KeepTickets(0, offered[:3]))
    assert after.ticket_discard == offered[3:]
    assert after.ticket_deck == deck


def test_draw_four_keep_at_least_one_returns_to_the_discard_pile() -> None:
    state = new_started(players=2, map="nederland")
    discard = state.ticket_discard
    top = state.ticket_deck[:4]
    state = ttr_core.apply(state, DrawTickets(0))
    assert state.pending.offered == top and state.pending.min_keep == 1
    assert len(ttr_core.legal_actions(state)) == 15
    after = ttr_core.apply(state, KeepTickets(0, top[1:2]))
    assert after.ticket_discard == (*discard, top[0], top[2], top[3])
    assert top[1] in after.players[0].tickets


def test_a_draw_with_fewer_than_four_left_takes_what_is_left() -> None:
    state = new_started(players=2, map="nederland")
    state = attrs.evolve(
        state, ticket_deck=state.ticket_deck[:2], ticket_discard=state.ticket_deck[2:5]
    )
    discard = state.ticket_discard  # returned tickets wait there, not mixed in
    state = ttr_core.apply(state, DrawTickets(0))
    assert len(state.pending.offered) == 2
    assert state.ticket_deck == ()
    assert state.ticket_discard == discard


def test_the_discard_pile_is_shuffled_into_a_new_deck_when_the_deck_is_empty() -> None:
    state = new_started(players=2, map="nederland")
    pile = state.ticket_discard + state.ticket_deck[:3]
    state = attrs.evolve(state, ticket_deck=(), ticket_discard=pile)
    assert DrawTickets(0) in ttr_core.legal_actions(state)
    after = ttr_core.apply(state, DrawTickets(0))
    assert after.shuffles == state.shuffles + 1
    assert after.ticket_discard == ()
    drawn = after.pending.offered
    assert len(drawn) == min(4, len(pile))
    assert sorted(drawn + after.ticket_deck) == sorted(pile)
    assert drawn + after.ticket_deck != pile  # shuffled, not taken in pile order


def test_no_ticket_anywhere_makes_the_draw_illegal() -> None:
    state = attrs.evolve(new_started(players=2, map="nederland"), ticket_deck=(), ticket_discard=())
    assert DrawTickets(0) not in ttr_core.legal_actions(state)
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, DrawTickets(0))
    assert err.value.reason == Reason.NO_TICKETS_LEFT


def test_the_deal_is_four_cards_and_forty_trains_with_staggered_scores() -> None:
    state = ttr_core.new_game("nederland", 5, seed=1)
    assert [p.hand.total for p in state.players] == [4] * 5
    assert [p.cars for p in state.players] == [40] * 5
    assert [p.score for p in state.players] == [0, 1, 2, 3, 4]


def test_the_ticket_discard_pile_is_face_up_in_every_view() -> None:
    state = ttr_core.new_game("nederland", 2, seed=3)
    offered = state.pending.offered
    state = ttr_core.apply(state, KeepTickets(0, offered[:3]))
    for seat in (0, 1):
        view = ttr_core.player_view(state, seat)
        assert view.ticket_discard == offered[3:]
        assert view.ticket_deck_size == len(state.ticket_deck)

"""Player views (E17): own hand, tickets and offer; counts only for the others."""

from __future__ import annotations

import attrs
import pytest

import ttr_core
from ttr_core import DrawTickets

from .helpers import new_started, with_hand


def test_each_seat_sees_its_own_hand_and_tickets_and_counts_for_the_others() -> None:
    state = new_started(players=3)
    state = with_hand(state, 1, red=3, wild=1)
    for seat in range(3):
        view = ttr_core.player_view(state, seat)
        assert view.viewer == seat
        assert view.hand == state.players[seat].hand
        assert view.tickets == state.players[seat].tickets
        for other in view.seats:
            player = state.players[other.seat]
            assert (other.hand_size, other.tickets_held, other.cars, other.routes, other.score) == (
                player.hand.total,
                len(player.tickets),
                player.cars,
                player.routes,
                player.score,
            )
    assert ttr_core.player_view(state, 1).hand["red"] == 3


def test_a_view_holds_no_other_hand_no_deck_order_and_no_other_offer() -> None:
    state = ttr_core.apply(new_started(players=2), DrawTickets(0))
    view = ttr_core.player_view(state, 1)
    fields = {f.name for f in attrs.fields(type(view))}
    assert not {"deck", "ticket_deck", "players", "discard"} & fields
    assert view.offered == ()
    assert view.deck_size == len(state.deck)
    assert ttr_core.player_view(state, 0).offered == state.pending.offered
    values = [getattr(view, name) for name in fields if name != "board"]
    assert state.players[0].hand not in values
    assert state.deck not in values


def test_the_display_is_shown_by_card_name() -> None:
    state = new_started()
    view = ttr_core.player_view(state, 0)
    assert view.display == tuple(state.board.card_names[c] for c in state.display)


@pytest.mark.parametrize("seat", [-1, 2, "0", True])
def test_a_view_for_a_seat_that_does_not_exist_is_refused(seat: object) -> None:
    with pytest.raises(ttr_core.ArgumentError, match="seat"):
        ttr_core.player_view(new_started(), seat)  # type: ignore[arg-type]

"""Setup: hands, display, starting tickets chosen one seat at a time (E7)."""

from __future__ import annotations

import pytest

import ttr_core
from ttr_core import IllegalAction, KeepTickets, Reason

from .helpers import NY_CARDS, card_total, started


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_seat_is_dealt_the_map_numbers(players: int) -> None:
    state = ttr_core.new_game("newyork", players, seed=3)
    rules = state.board.rules
    assert len(state.display) == rules.display_size == 5
    assert all(card is not None for card in state.display)
    for player in state.players:
        assert player.hand.total == rules.starting_hand == 2
        assert player.cars == 15
        assert player.tickets == ()
        assert player.routes == ()
        assert player.score == 0
    assert card_total(state) == NY_CARDS
    # every seat has been dealt 2 tickets; the rest form the ticket deck
    offered = [state.pending.offered, *state.start_offers]
    assert [len(o) for o in offered] == [2] * players
    dealt = {t for o in offered for t in o}
    assert len(dealt) == 2 * players
    assert dealt.isdisjoint(state.ticket_deck)
    assert len(state.ticket_deck) == 18 - 2 * players


def test_starting_choice_is_made_in_seat_order_before_the_first_turn() -> None:
    state = ttr_core.new_game("newyork", 3, seed=5)
    order = []
    while state.pending.kind == "start_tickets":
        order.append(state.current_player)
        # each seat sees only its own offer (E7)
        for seat in range(3):
            view = ttr_core.player_view(state, seat)
            assert view.offered == (state.pending.offered if seat == state.current_player else ())
        state = ttr_core.apply(state, KeepTickets(state.current_player, state.pending.offered[:1]))
    assert order == [0, 1, 2]
    assert state.pending.kind == "turn"
    assert state.current_player == 0
    assert state.turn == 0
    assert all(len(p.tickets) == 1 for p in state.players)


def test_starting_choice_must_keep_the_minimum_and_returns_go_to_the_bottom() -> None:
    state = ttr_core.new_game("newyork", 2, seed=1)
    first, second = state.pending.offered
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, KeepTickets(0, []))
    assert err.value.reason == Reason.TOO_FEW_TICKETS_KEPT
    after = ttr_core.apply(state, KeepTickets(0, [second]))
    assert after.players[0].tickets == (second,)
    assert after.ticket_deck == (*state.ticket_deck, first)
    # the legal choices are exactly the non-empty subsets
    assert set(ttr_core.legal_actions(state)) == {
        KeepTickets(0, [first]),
        KeepTickets(0, [second]),
        KeepTickets(0, [first, second]),
    }


def test_the_same_seed_sets_up_the_same_game_and_another_seed_differs() -> None:
    a = ttr_core.new_game("newyork", 4, seed=11)
    b = ttr_core.new_game("newyork", 4, seed=11)
    c = ttr_core.new_game("newyork", 4, seed=12)
    assert a == b
    assert (a.deck, a.ticket_deck) != (c.deck, c.ticket_deck)


def test_setup_resets_a_display_showing_three_wilds() -> None:
    """Some seeds turn up 3+ taxis at setup: those 5 go to the discard pile."""
    reset_seen = 0
    wild = None
    for seed in range(300):
        state = ttr_core.new_game("newyork", 2, seed=seed)
        wild = state.board.wild
        assert state.display.count(wild) <= 2
        if sum(state.discard):
            reset_seen += 1
            assert sum(state.discard) % 5 == 0
            assert state.discard[wild] >= 3
        assert card_total(state) == NY_CARDS
    assert reset_seen > 0


def test_started_helper_reaches_the_first_turn() -> None:
    state = started(ttr_core.new_game("newyork", 2, seed=0))
    assert state.pending.kind == "turn" and state.current_player == 0


@pytest.mark.parametrize(("map_name", "keep"), [("newyork", 1), ("nederland", 3)])
def test_every_seat_must_keep_the_starting_minimum(map_name: str, keep: int) -> None:
    state = ttr_core.new_game(map_name, 3, seed=2)
    for seat in range(3):
        assert state.current_player == seat
        assert state.pending.min_keep == keep
        offered = state.pending.offered
        with pytest.raises(IllegalAction) as err:
            ttr_core.apply(state, KeepTickets(seat, offered[: keep - 1]))
        assert err.value.reason == Reason.TOO_FEW_TICKETS_KEPT
        assert all(len(a.tickets) >= keep for a in ttr_core.legal_actions(state))
        state = ttr_core.apply(state, KeepTickets(seat, offered[:keep]))


def test_games_with_different_variants_are_different_states() -> None:
    with_attractions = ttr_core.new_game("newyork", 2, seed=0)
    without = ttr_core.new_game("newyork", 2, seed=0, variants=[])
    assert with_attractions != without
    assert with_attractions == ttr_core.new_game("newyork", 2, seed=0)

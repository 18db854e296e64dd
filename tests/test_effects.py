"""The effect helpers keep every core invariant: cards conserved, E3/E4 display rules."""

from __future__ import annotations

from collections.abc import Iterator

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ttr_core
from ttr_core import GameState, IllegalAction, PluginError, Reason, effects, hookimpl

from .helpers import (
    NY_CARDS,
    card_total,
    new_started,
    route_id,
    set_deck,
    set_display,
    with_hand,
)
from .test_draw_cards import holding_everything_else, names


def display_ok(state: GameState) -> bool:
    """E4: no slot is empty while a card could fill it. E3: no more wilds than the
    limit shown while deck, discard and display hold enough other cards to do better."""
    board = state.board
    if None in state.display and (state.deck or any(state.discard)):
        return False
    limit = board.rules.max_face_up_wilds
    wild = board.wild
    if state.display.count(wild) <= limit:
        return True
    shown = [c for c in state.display if c is not None]
    pool = len(state.deck) + sum(state.discard) + len(shown)
    pool_wild = state.deck.count(wild) + state.discard[wild] + shown.count(wild)
    return pool - pool_wild < min(len(state.display), pool) - limit


# -- cards -----------------------------------------------------------------------------


def test_show_cards_makes_cards_known_until_they_are_played() -> None:
    """A seat shows cards of its hand: every view knows it holds at least that
    many of each (issue 32: a claim laid down before its payment is complete);
    paying them takes them from the known ones again."""
    state = with_hand(new_started(), 0, red=3, blue=1, wild=1)
    shown = effects.show_cards(state, 0, {"red": 2, "wild": 1})
    names = state.board.card_names
    known = dict(zip(names, shown.players[0].known, strict=True))
    assert known["red"] == 2 and known["wild"] == 1 and known["blue"] == 0
    assert shown.players[0].hand == state.players[0].hand  # nothing moves
    assert shown.deck == state.deck and shown.pending == state.pending
    assert dict(ttr_core.player_view(shown, 1).seats[0].known) == {"red": 2, "wild": 1}
    # Known already: at least that many, not more.
    again = effects.show_cards(shown, 0, {"red": 1})
    assert again is shown
    more = effects.show_cards(shown, 0, {"red": 3, "blue": 1})
    assert dict(zip(names, more.players[0].known, strict=True))["red"] == 3
    # Paid: the known ones go first.
    paid = effects.discard_cards(more, 0, {"red": 3})
    assert dict(zip(names, paid.players[0].known, strict=True))["red"] == 0
    # Cards the hand lacks are refused, the state unchanged.
    with pytest.raises(IllegalAction) as refused:
        effects.show_cards(state, 0, {"blue": 2})
    assert refused.value.reason == Reason.CARDS_DO_NOT_PAY
    with pytest.raises(PluginError):
        effects.show_cards(state, 0, {"purple-ish": 1})
    # A determinized state from another seat's view deals the shown cards to the hand.
    for seed in range(20):
        dealt = ttr_core.determinize(ttr_core.player_view(shown, 1), seed=seed)
        hand = dealt.players[0].hand
        assert hand["red"] >= 2 and hand["wild"] >= 1


def test_draw_cards_takes_the_top_of_the_deck() -> None:
    state = set_deck(new_started(), "red", "blue", "wild")
    hand = state.players[1].hand
    after = effects.draw_cards(state, 1, 3)
    for name in ("red", "blue", "wild"):
        assert after.players[1].hand[name] == hand[name] + 1
    assert after.deck == state.deck[3:]
    assert card_total(after) == NY_CARDS
    assert after.pending == state.pending  # the turn goes on


def test_draw_cards_shuffles_the_discard_pile_in_and_refuses_too_many() -> None:
    state = new_started()
    pile = list(state.discard)
    for card in state.deck[1:]:
        pile[card] += 1
    state = attrs.evolve(state, deck=state.deck[:1], discard=tuple(pile))
    available = 1 + sum(pile)
    after = effects.draw_cards(state, 0, 3)
    assert after.shuffles == state.shuffles + 1
    assert len(after.deck) == available - 3 and sum(after.discard) == 0
    assert card_total(after) == NY_CARDS
    with pytest.raises(IllegalAction) as err:
        effects.draw_cards(state, 0, available + 1)
    assert err.value.reason == Reason.NO_CARD_TO_DRAW


def test_take_face_up_refills_the_slot_and_resets_a_third_wild() -> None:
    state = set_display(new_started(), "wild", "wild", "green", "black", "pink")
    state = set_deck(state, "wild", "red", "red", "blue", "blue", "orange")
    green = state.players[0].hand["green"]
    after = effects.take_face_up(state, 0, 2)
    assert after.players[0].hand["green"] == green + 1
    # the refill turned up a third wild: E3 reset the whole display
    assert names(after, after.display) == ["red", "red", "blue", "blue", "orange"]
    assert card_total(after) == NY_CARDS and display_ok(after)


def test_take_face_up_leaves_a_slot_empty_only_when_no_card_is_left() -> None:
    state = holding_everything_else(new_started(), {}, ("red", "blue", "red", "blue", "green"), {})
    after = effects.take_face_up(state, 0, 4)
    assert after.display == (*state.display[:4], None)
    assert card_total(after) == NY_CARDS and display_ok(after)
    with pytest.raises(IllegalAction) as err:
        effects.take_face_up(after, 0, 4)
    assert err.value.reason == Reason.EMPTY_SLOT
    with pytest.raises(IllegalAction) as err:
        effects.take_face_up(after, 0, 9)
    assert err.value.reason == Reason.BAD_SLOT


def test_discard_cards_refills_empty_slots_at_once() -> None:
    state = holding_everything_else(
        new_started(), {"orange": 2}, (None, None, "red", "red", "blue"), {}
    )
    after = effects.discard_cards(state, 0, {"orange": 2})
    assert after.players[0].hand["orange"] == 0
    assert sorted(n for n in names(after, after.display) if n) == [
        "blue",
        "orange",
        "orange",
        "red",
        "red",
    ]
    assert card_total(after) == NY_CARDS and display_ok(after)


def test_discard_cards_makes_the_waiting_wild_reset() -> None:
    state = holding_everything_else(
        new_started(), {"orange": 3}, ("wild", "wild", "wild", "red", "blue"), {}
    )
    assert not display_ok(attrs.evolve(state, discard=(0, 0, 0, 0, 0, 3, 0)))
    after = effects.discard_cards(state, 0, {"orange": 3})
    assert after.display.count(after.board.wild) <= 2
    assert card_total(after) == NY_CARDS and display_ok(after)


def test_discard_cards_refuses_cards_not_held_and_unknown_names() -> None:
    state = holding_everything_else(new_started(), {"orange": 1}, ("red",) * 5, {})
    with pytest.raises(IllegalAction) as err:
        effects.discard_cards(state, 0, {"orange": 2})
    assert err.value.reason == Reason.CARDS_DO_NOT_PAY
    with pytest.raises(PluginError, match="no card 'purple'"):
        effects.discard_cards(state, 0, {"purple": 1})
    with pytest.raises(PluginError, match="seat must be 0 to 1"):
        effects.discard_cards(state, 2, {"orange": 1})


@given(st.data())
def test_card_helpers_keep_every_card_and_the_display_rules(data: st.DataObject) -> None:
    state = new_started(players=3, seed=data.draw(st.integers(0, 50)))
    for _ in range(data.draw(st.integers(1, 25))):
        seat = data.draw(st.integers(0, 2))
        move = data.draw(st.sampled_from(["draw", "face_up", "discard"]))
        try:
            if move == "draw":
                state = effects.draw_cards(state, seat, data.draw(st.integers(0, 4)))
            elif move == "face_up":
                state = effects.take_face_up(state, seat, data.draw(st.integers(0, 4)))
            else:
                hand = state.players[seat].hand
                cards = {n: data.draw(st.integers(0, hand[n])) for n in hand if hand[n]}
                state = effects.discard_cards(state, seat, cards)
        except IllegalAction:
            continue
        assert card_total(state) == NY_CARDS
        assert display_ok(state)
        assert all(n >= 0 for p in state.players for n in p.hand.counts)


# -- routes ------------------------------------------------------------------------------


class Recorder:
    """Records every after-claim call it sees."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    @hookimpl
    def ttr_after_claim(self, state: GameState, player: int, route: int) -> None:
        self.calls.append((player, route))


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    plugin = Recorder()
    ttr_core.register_variant("recorder", plugin)
    yield plugin
    ttr_core.unregister_variant("recorder")


def test_claim_route_with_a_payment_of_the_variants_choosing(recorder: Recorder) -> None:
    state = new_started(variants=["recorder"])
    rid = route_id(state, "Chelsea", "Soho")
    length = state.board.routes[rid].length
    state = holding_everything_else(state, {"wild": 1}, (None, "red", "red", "blue", "blue"), {})
    after = effects.claim_route(state, rid, 0, {"wild": 1})  # a "ferry": one wild pays
    assert after.owner(rid) == 0
    assert after.players[0].routes == (rid,)
    assert after.players[0].cars == state.players[0].cars - length
    points = state.board.rules.route_points[length]
    assert after.players[0].score == state.players[0].score + points
    assert after.players[0].hand.total == 0
    assert None not in after.display  # the wild discarded refilled the empty slot (E4)
    assert card_total(after) == NY_CARDS and display_ok(after)
    assert recorder.calls == [(0, rid)]
    assert after.pending == state.pending  # the turn is not ended


def test_claim_route_keeps_the_double_route_rules(recorder: Recorder) -> None:
    state = new_started(players=2, variants=["recorder"])
    green = route_id(state, "Lincoln Center", "Times Square", "green")
    blue = route_id(state, "Lincoln Center", "Times Square", "blue")
    owned = effects.claim_route(effects.draw_cards(state, 0, 0), green, 0, {})
    for owner, reason in ((0, Reason.OWNS_PARALLEL_ROUTE), (1, Reason.PARALLEL_ROUTE_CLOSED)):
        with pytest.raises(IllegalAction) as err:
            effects.claim_route(owned, blue, owner, {})
        assert err.value.reason == reason
    with pytest.raises(IllegalAction) as err:
        effects.claim_route(owned, green, 1, {})
    assert err.value.reason == Reason.ROUTE_CLAIMED
    poor = attrs.evolve(state, players=(attrs.evolve(state.players[0], cars=1), state.players[1]))
    with pytest.raises(IllegalAction) as err:
        effects.claim_route(poor, green, 0, {})
    assert err.value.reason == Reason.NOT_ENOUGH_CARS


def test_claim_route_for_an_owner_that_is_not_a_seat(recorder: Recorder) -> None:
    state = new_started(players=3, variants=["recorder"])
    rid = route_id(state, "Chelsea", "Soho")
    neutral = state.num_players
    after = effects.claim_route(state, rid, neutral, None)
    assert after.owner(rid) == neutral and not after.is_seat(after.owner(rid))
    assert after.players == state.players and after.discard == state.discard
    assert recorder.calls == [(neutral, rid)]
    assert all(a.route != rid for a in ttr_core.legal_actions(after) if hasattr(a, "route"))
    with pytest.raises(PluginError, match="pays no cards"):
        effects.claim_route(state, rid, neutral, {"pink": 2})


def test_tolls_the_bank_pays_a_seat_when_a_non_seat_owner_claims_the_second_route() -> None:
    from ttr_core_plugins.tolls import START_VALUE, tolls

    state = new_started(players=2, map="nederland")
    pair = next(r for r in state.board.routes if r.partner is not None and r.extra["toll"])
    toll = pair.extra["toll"]
    first = effects.claim_route(effects.draw_cards(state, 0, 0), pair.id, 0, None)
    assert tolls(first).holdings == (START_VALUE - toll, START_VALUE)
    second = effects.claim_route(first, pair.partner, 2, None)  # a neutral player
    assert tolls(second).holdings == (START_VALUE, START_VALUE)  # the bank paid seat 0
    assert tolls(second).bank_paid == toll and tolls(second).bank_received == toll
    held = sum(tolls(second).holdings)
    assert held + tolls(second).bank_received - tolls(second).bank_paid == 2 * START_VALUE
    # a non-seat owner on a free pair pays nothing and is paid nothing
    lone = effects.claim_route(state, pair.id, 2, None)
    assert tolls(lone) == tolls(state)


# -- tickets, points and decisions ----------------------------------------------------------


def ticket_total(state: GameState, limbo: tuple[int, ...] = ()) -> int:
    offered = state.pending.offered if state.pending is not None else ()
    held = sum(len(p.tickets) for p in state.players)
    waiting = sum(len(o) for o in state.start_offers)
    return (
        len(state.ticket_deck) + len(state.ticket_discard) + held + len(offered) + waiting
    ) + len(limbo)


def test_ticket_helpers_conserve_tickets_and_return_them_as_the_map_says() -> None:
    for map_name, returned in (("newyork", "bottom"), ("nederland", "discard")):
        state = new_started(map=map_name)
        total = ticket_total(state)
        drawn_state, drawn = effects.draw_tickets(state, 3)
        assert drawn == state.ticket_deck[:3]
        assert ticket_total(drawn_state, drawn) == total
        kept = effects.give_tickets(drawn_state, 1, drawn[:1])
        assert kept.players[1].tickets == (*state.players[1].tickets, drawn[0])
        back = effects.return_tickets(kept, drawn[1:])
        assert ticket_total(back) == total
        if returned == "bottom":
            assert back.ticket_deck[-2:] == drawn[1:]
        else:
            assert back.ticket_discard[-2:] == drawn[1:]


def test_draw_tickets_reshuffles_the_ticket_discard_pile() -> None:
    state = new_started(map="nederland")
    state = attrs.evolve(state, ticket_deck=(), ticket_discard=state.ticket_deck)
    after, drawn = effects.draw_tickets(state, 2)
    assert len(drawn) == 2 and after.shuffles == state.shuffles + 1
    assert sorted((*after.ticket_deck, *drawn)) == sorted(state.ticket_discard)


def test_offer_tickets_asks_the_seat_and_keep_ends_the_turn() -> None:
    state = new_started()
    offered = effects.offer_tickets(state, 0, count=2, min_keep=2)
    assert offered.pending.kind == "keep_tickets" and offered.pending.min_keep == 2
    choices = ttr_core.legal_actions(offered)
    assert choices == (ttr_core.KeepTickets(0, offered.pending.offered),)
    after = ttr_core.apply(offered, choices[0])
    assert after.current_player == 1 and ticket_total(after) == ticket_total(state)
    empty = attrs.evolve(state, ticket_deck=(), ticket_discard=())
    with pytest.raises(IllegalAction) as err:
        effects.offer_tickets(empty, 0)
    assert err.value.reason == Reason.NO_TICKETS_LEFT


def test_add_points_and_set_pending() -> None:
    state = new_started()
    assert effects.add_points(state, 1, -4).players[1].score == state.players[1].score - 4
    with pytest.raises(PluginError):
        effects.add_points(state, 1, 1.5)  # type: ignore[arg-type]
    waiting = effects.set_pending(state, "demo.pick", 1, data=(1, 2))
    assert waiting.pending == ttr_core.Pending("demo.pick", 1, data=(1, 2))
    assert waiting.current_player == 1
    with pytest.raises(PluginError, match="offer_tickets"):
        effects.set_pending(state, "keep_tickets", 0)
    with pytest.raises(PluginError, match="hashable"):
        effects.set_pending(state, "demo.pick", 0, data=[1])


def test_end_turn_is_the_cores() -> None:
    state = new_started()
    assert effects.end_turn is ttr_core.end_turn
    assert effects.end_turn(state).current_player == 1


def test_claim_route_resets_a_waiting_third_wild_once_its_cards_allow(recorder: Recorder) -> None:
    state = new_started(variants=["recorder"])
    rid = route_id(state, "Chelsea", "Soho")
    length = state.board.routes[rid].length
    state = holding_everything_else(
        state, {"pink": length}, ("wild", "wild", "wild", "red", "blue"), {}
    )
    assert not display_ok(attrs.evolve(state, discard=(0, 0, 0, length, 0, 0, 0)))
    after = effects.claim_route(state, rid, 0, {"pink": length})
    assert after.display.count(after.board.wild) <= 2  # E3: reset with the pink just paid
    assert card_total(after) == NY_CARDS and display_ok(after)


def test_claim_route_refuses_a_payment_the_hand_lacks_or_that_makes_no_sense() -> None:
    state = holding_everything_else(new_started(), {"pink": 1}, ("red",) * 5, {})
    rid = route_id(state, "Chelsea", "Soho")
    with pytest.raises(IllegalAction) as err:
        effects.claim_route(state, rid, 0, {"pink": 2})
    assert err.value.reason == Reason.CARDS_DO_NOT_PAY
    with pytest.raises(PluginError, match="whole number ≥ 0"):
        effects.claim_route(state, rid, 0, {"pink": -1})
    with pytest.raises(PluginError, match="owner must be"):
        effects.claim_route(state, rid, -2, None)
    with pytest.raises(IllegalAction) as err:
        effects.claim_route(state, 999, 0, None)
    assert err.value.reason == Reason.UNKNOWN_ROUTE


def test_ticket_helpers_never_put_a_ticket_in_two_places() -> None:
    state = new_started()
    held = state.players[1].tickets[0]
    on_deck = state.ticket_deck[0]
    for call in (
        lambda: effects.give_tickets(state, 0, [on_deck]),
        lambda: effects.give_tickets(state, 0, [held]),
        lambda: effects.return_tickets(state, [held]),
        lambda: effects.return_tickets(state, [on_deck]),
    ):
        with pytest.raises(PluginError, match="not a drawn ticket"):
            call()
    drawn_state, drawn = effects.draw_tickets(state, 2)
    with pytest.raises(PluginError, match="twice"):
        effects.give_tickets(drawn_state, 0, [drawn[0], drawn[0]])
    with pytest.raises(PluginError, match="seat must be"):
        effects.give_tickets(drawn_state, 5, drawn)
    with pytest.raises(PluginError, match="no ticket 99"):
        effects.return_tickets(drawn_state, [99])


def test_end_turn_refuses_to_drop_tickets_on_offer() -> None:
    offered = effects.offer_tickets(new_started(), 0)
    with pytest.raises(PluginError, match="tickets on offer"):
        effects.end_turn(offered)


# -- shuffle: a variant's own chance (issue 33) ---------------------------------------


def test_shuffle_draws_from_the_games_seed_and_counts_a_shuffle() -> None:
    state = ttr_core.new_game("newyork", 2, seed=5)
    items = list(range(20))
    after, order = effects.shuffle(state, items)
    assert sorted(order) == items and order != tuple(items)
    assert after.shuffles == state.shuffles + 1
    assert effects.shuffle(state, tuple(items)) == (after, order)  # the same chance again
    again, second = effects.shuffle(after, items)  # the next shuffle: fresh chance
    assert second != order and again.shuffles == state.shuffles + 2
    other = attrs.evolve(state, seed=6)
    assert effects.shuffle(other, items)[1] != order
    assert items == list(range(20))  # the caller's list is left alone


@pytest.mark.parametrize("items", [range(3), "abc", {1: 2}, iter([1, 2]), None, [0] * 10_001])
def test_shuffle_takes_a_list_or_a_tuple_of_few_items(items: object) -> None:
    state = ttr_core.new_game("newyork", 2, seed=5)
    with pytest.raises(ttr_core.PluginError, match=r"list or a tuple|at most"):
        effects.shuffle(state, items)  # type: ignore[arg-type]

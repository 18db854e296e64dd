"""Drawing transportation cards: the two-card draw as explicit sub-steps."""

from __future__ import annotations

import attrs
import pytest

import ttr_core
import ttr_core.rules.kernel.work
from ttr_core import DrawBlind, DrawFaceUp, IllegalAction, Reason

from .helpers import NY_CARDS, card_total, new_started, set_deck, set_display, with_hand


def names(state: ttr_core.GameState, cards: tuple[int | None, ...]) -> list[str | None]:
    return [None if c is None else state.board.card_names[c] for c in cards]


def test_blind_draw_takes_the_top_card_then_a_second_card() -> None:
    state = set_deck(new_started(), "red", "blue")
    state = ttr_core.apply(state, DrawBlind(0))
    assert state.players[0].hand["red"] >= 1
    assert state.pending.kind == "second_card" and state.current_player == 0
    before_blue = state.players[0].hand["blue"]
    state = ttr_core.apply(state, DrawBlind(0))
    assert state.players[0].hand["blue"] == before_blue + 1
    assert state.pending.kind == "turn" and state.current_player == 1
    assert state.turn == 1


def test_face_up_card_is_replaced_at_once_from_the_deck() -> None:
    state = set_display(new_started(), "red", "blue", "green", "black", "pink")
    state = set_deck(state, "orange")
    red = state.players[0].hand["red"]
    state = ttr_core.apply(state, DrawFaceUp(0, 0))
    assert state.players[0].hand["red"] == red + 1
    assert names(state, state.display) == ["orange", "blue", "green", "black", "pink"]
    assert state.pending.kind == "second_card"


def test_a_face_up_wild_taken_first_is_the_whole_draw() -> None:
    state = set_display(new_started(), "wild", "blue", "green", "black", "pink")
    state = set_deck(state, "red")
    state = ttr_core.apply(state, DrawFaceUp(0, 0))
    assert state.players[0].hand["wild"] >= 1
    assert state.pending.kind == "turn" and state.current_player == 1


def test_a_face_up_wild_cannot_be_the_second_card() -> None:
    state = set_display(new_started(), "wild", "blue", "green", "black", "pink")
    state = set_deck(state, "red", "orange")
    state = ttr_core.apply(state, DrawFaceUp(0, 1))
    assert state.pending.kind == "second_card"
    legal = ttr_core.legal_actions(state)
    assert DrawFaceUp(0, 0) not in legal
    assert set(legal) == {DrawBlind(0), *(DrawFaceUp(0, s) for s in range(1, 5))}
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, DrawFaceUp(0, 0))
    assert err.value.reason == Reason.WILD_AS_SECOND_CARD


def test_a_wild_turned_up_as_replacement_cannot_be_the_second_card() -> None:
    state = set_display(new_started(), "red", "blue", "green", "black", "pink")
    state = set_deck(state, "wild")
    state = ttr_core.apply(state, DrawFaceUp(0, 0))
    assert names(state, state.display)[0] == "wild"
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, DrawFaceUp(0, 0))
    assert err.value.reason == Reason.WILD_AS_SECOND_CARD


def test_a_blind_wild_is_an_ordinary_card() -> None:
    state = set_deck(new_started(), "wild", "red")
    state = ttr_core.apply(state, DrawBlind(0))
    assert state.pending.kind == "second_card"
    state = ttr_core.apply(state, DrawBlind(0))
    assert state.current_player == 1


def test_a_face_up_wild_as_second_is_refused_but_a_blind_second_may_be_wild() -> None:
    state = set_deck(new_started(), "red", "wild")
    state = ttr_core.apply(state, DrawBlind(0))
    wilds = state.players[0].hand["wild"]
    state = ttr_core.apply(state, DrawBlind(0))
    assert state.players[0].hand["wild"] == wilds + 1


def test_three_face_up_wilds_reset_the_display() -> None:
    state = set_display(new_started(), "wild", "wild", "green", "black", "pink")
    state = set_deck(state, "wild", "red", "red", "blue", "blue", "orange")
    discard_before = sum(state.discard)
    state = ttr_core.apply(state, DrawFaceUp(0, 2))
    # green taken, wild turned up -> 3 wilds -> all 5 discarded, 5 new laid
    assert names(state, state.display) == ["red", "red", "blue", "blue", "orange"]
    assert sum(state.discard) == discard_before + 5
    assert state.discard[state.board.wild] >= 3
    assert card_total(state) == NY_CARDS


def test_a_reset_that_cannot_help_is_not_made() -> None:
    """E3: with too few non-wild cards left anywhere, the display keeps its wilds."""
    state = new_started()
    wild = state.board.wild
    # Everything but 3 wilds and 1 red is in seat 1's hand; deck and discard empty.
    board = state.board
    hand = list(board.deck)
    hand[wild] -= 3
    hand[board.card_index("red")] -= 1
    display = (wild, wild, wild, board.card_index("red"), None)
    players = (
        attrs.evolve(state.players[0], hand=ttr_core.Hand((0,) * 7, board.card_names)),
        attrs.evolve(state.players[1], hand=ttr_core.Hand(tuple(hand), board.card_names)),
    )
    state = attrs.evolve(state, players=players, deck=(), discard=(0,) * 7, display=display)
    assert card_total(state) == NY_CARDS
    after = ttr_core.apply(state, DrawFaceUp(0, 3))
    assert after.display == (wild, wild, wild, None, None)
    assert after.shuffles == state.shuffles  # no pointless reshuffle was made
    assert after.discard == state.discard
    assert after.current_player == 1  # no second card is possible (E5)


def test_the_discard_pile_is_shuffled_into_a_new_deck_when_the_deck_runs_out() -> None:
    state = new_started()
    all_in_discard = list(state.discard)
    for card in state.deck:
        all_in_discard[card] += 1
    state = attrs.evolve(state, deck=(), discard=tuple(all_in_discard))
    total_discard = sum(all_in_discard)
    after = ttr_core.apply(state, DrawBlind(0))
    assert sum(after.discard) == 0
    assert len(after.deck) == total_discard - 1
    assert after.shuffles == state.shuffles + 1
    assert card_total(after) == NY_CARDS


def test_no_blind_draw_when_deck_and_discard_are_empty() -> None:
    """E4: blind draw is illegal; an emptied face-up slot stays empty."""
    state = new_started()
    hand = list(state.players[1].hand.counts)
    for card in state.deck:
        hand[card] += 1
    players = (
        state.players[0],
        attrs.evolve(state.players[1], hand=ttr_core.Hand(tuple(hand), state.board.card_names)),
    )
    state = attrs.evolve(state, players=players, deck=(), discard=(0,) * 7)
    assert DrawBlind(0) not in ttr_core.legal_actions(state)
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, DrawBlind(0))
    assert err.value.reason == Reason.NO_CARD_TO_DRAW
    slot = next(i for i, c in enumerate(state.display) if c != state.board.wild)
    after = ttr_core.apply(state, DrawFaceUp(0, slot))
    assert after.display[slot] is None
    assert DrawFaceUp(after.current_player, slot) not in ttr_core.legal_actions(after)
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(after, DrawFaceUp(after.current_player, slot))
    assert err.value.reason == Reason.EMPTY_SLOT
    assert card_total(after) == NY_CARDS


def test_the_draw_ends_after_one_card_when_no_second_card_may_be_taken() -> None:
    """E5: only face-up wilds left and no deck: the turn ends after the first card."""
    state = new_started()
    board = state.board
    wild = board.wild
    red = board.card_index("red")
    hand = list(board.deck)
    hand[wild] -= 2
    hand[red] -= 1
    players = (
        attrs.evolve(state.players[0], hand=ttr_core.Hand((0,) * 7, board.card_names)),
        attrs.evolve(state.players[1], hand=ttr_core.Hand(tuple(hand), board.card_names)),
    )
    state = attrs.evolve(
        state, players=players, deck=(), discard=(0,) * 7, display=(red, wild, wild, None, None)
    )
    after = ttr_core.apply(state, DrawFaceUp(0, 0))
    assert after.current_player == 1
    assert after.pending.kind == "turn"


def test_hand_size_is_unlimited() -> None:
    state = with_hand(new_started(), 0, red=4, blue=4, green=4, black=4, wild=4)
    after = ttr_core.apply(ttr_core.apply(state, DrawBlind(0)), DrawBlind(0))
    assert after.players[0].hand.total == 22


def test_card_actions_in_the_second_step_are_only_draws() -> None:
    state = ttr_core.apply(new_started(), DrawBlind(0))
    assert all(isinstance(a, DrawBlind | DrawFaceUp) for a in ttr_core.legal_actions(state))
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ttr_core.DrawTickets(0))
    assert err.value.reason == Reason.WRONG_PHASE


def test_a_display_left_with_three_wilds_resets_once_discards_make_it_possible() -> None:
    """E3: the reset waits until it can succeed, e.g. until a claim discards cards."""
    state = new_started()
    board = state.board
    wild, red, blue = board.wild, board.card_index("red"), board.card_index("blue")
    rid = next(r.id for r in board.routes if r.color == "orange" and r.length == 2)
    # Seat 0 holds 2 orange; seat 1 holds every other card but 3 wilds + 1 red
    # (shown) and 1 blue (shown). Deck and discard are empty: no reset can help.
    other = list(board.deck)
    orange = board.card_index("orange")
    other[orange] -= 2
    other[wild] -= 3
    other[red] -= 1
    other[blue] -= 1
    mine = [0] * 7
    mine[orange] = 2
    players = (
        attrs.evolve(state.players[0], hand=ttr_core.Hand(tuple(mine), board.card_names)),
        attrs.evolve(state.players[1], hand=ttr_core.Hand(tuple(other), board.card_names)),
    )
    state = attrs.evolve(
        state,
        players=players,
        deck=(),
        discard=(0,) * 7,
        display=(wild, wild, wild, red, blue),
    )
    assert card_total(state) == NY_CARDS
    after = ttr_core.apply(state, ttr_core.ClaimRoute(0, rid, "orange", 0))
    # the 2 orange discarded make a display of at most 2 wilds possible: it was reset
    assert after.display.count(wild) <= 2
    assert card_total(after) == NY_CARDS


def holding_everything_else(
    state: ttr_core.GameState,
    seat0: dict[str, int],
    display: tuple[str | None, ...],
    discard: dict[str, int],
) -> ttr_core.GameState:
    """Seat 0 holds ``seat0``, the display and discard are as given, the deck is
    empty and seat 1 holds every other card (so cards are conserved)."""
    board = state.board
    names = board.card_names
    mine = [seat0.get(n, 0) for n in names]
    pile = [discard.get(n, 0) for n in names]
    shown = [None if n is None else names.index(n) for n in display]
    other = list(board.deck)
    for i in range(len(names)):
        other[i] -= mine[i] + pile[i] + shown.count(i)
    assert min(other) >= 0
    players = (
        attrs.evolve(state.players[0], hand=ttr_core.Hand(tuple(mine), names)),
        attrs.evolve(state.players[1], hand=ttr_core.Hand(tuple(other), names)),
    )
    return attrs.evolve(state, players=players, deck=(), discard=tuple(pile), display=tuple(shown))


def test_empty_slots_are_refilled_as_soon_as_cards_come_back() -> None:
    """E4: a slot stays empty only while no card can refill it."""
    state = holding_everything_else(
        new_started(), {"orange": 2}, (None, None, "red", "red", "blue"), {}
    )
    rid = next(r.id for r in state.board.routes if r.color == "orange" and r.length == 2)
    after = ttr_core.apply(state, ttr_core.ClaimRoute(0, rid, "orange", 0))
    assert None not in after.display
    assert sorted(n for n in names(after, after.display) if n) == [
        "blue",
        "orange",
        "orange",
        "red",
        "red",
    ]
    assert card_total(after) == NY_CARDS


@pytest.mark.parametrize("max_resets", [0, 100])
@pytest.mark.parametrize("seed", range(200))
def test_a_reset_that_can_succeed_always_does(
    seed: int, max_resets: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """E3 with a small pool rich in wilds: 8 wilds and 3 reds can always show at
    most 2 wilds, however unlucky the shuffles (after MAX_DISPLAY_RESETS
    redraws the engine lays a legal display from the shuffled cards)."""
    state = holding_everything_else(
        new_started(), {"red": 1}, ("wild", "wild", "wild", "red", "red"), {"wild": 5}
    )
    state = attrs.evolve(state, seed=seed)
    # With no redraw allowed the engine goes straight to laying a legal display.
    monkeypatch.setattr(ttr_core.rules.kernel.work, "MAX_DISPLAY_RESETS", max_resets)
    gray_one = next(r.id for r in state.board.routes if r.color == "gray" and r.length == 1)
    after = ttr_core.apply(state, ttr_core.ClaimRoute(0, gray_one, "red", 0))
    assert after.display.count(state.board.wild) <= 2
    assert None not in after.display
    assert card_total(after) == NY_CARDS

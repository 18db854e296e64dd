"""Publicly known cards: a card taken face up stays known to everyone until played.

``PlayerState.known`` holds them by card index (``()`` when none is known);
every seat's ``player_view`` shows them as ``SeatView.known`` (card name →
count). A face-up take adds the card; a blind draw adds nothing; paying cards
(a claim, ``effects.claim_route``, ``effects.discard_cards``) takes the cards
paid from the known ones first.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ttr_core
from ttr_core import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    GameState,
    Pending,
    effects,
)

from .helpers import new_started, set_deck, set_display, with_hand


def known(state: GameState, seat: int) -> dict[str, int]:
    """``PlayerState.known`` of ``seat`` by card name (non-zero entries)."""
    names = state.board.card_names
    return {names[c]: n for c, n in enumerate(state.players[seat].known) if n}


def views_agree(state: GameState) -> None:
    """Every seat's view shows every seat's known cards, as the state has them."""
    for viewer in range(state.num_players):
        view = ttr_core.player_view(state, viewer)
        for seat, seat_view in enumerate(view.seats):
            assert dict(seat_view.known) == known(state, seat)


def turn_of(state: GameState, seat: int) -> GameState:
    return attrs.evolve(state, pending=Pending("turn", seat))


def test_a_card_taken_face_up_is_known_to_every_seat() -> None:
    state = set_display(new_started(), "red", "blue", "green", "black", "pink")
    state = set_deck(state, "orange", "red", "blue")
    assert state.players[0].known == ()
    state = ttr_core.apply(state, DrawFaceUp(0, 0))  # red; orange comes up in slot 0
    assert known(state, 0) == {"red": 1}
    state = ttr_core.apply(state, DrawFaceUp(0, 0))  # orange
    assert known(state, 0) == {"red": 1, "orange": 1}
    assert state.players[0].known == (0, 0, 0, 0, 1, 1, 0)
    assert known(state, 1) == {} and state.players[1].known == ()
    views_agree(state)
    view = ttr_core.player_view(state, 1)
    assert view.seats[0].known == {"red": 1, "orange": 1}
    assert view.seats[1].known == {}
    hash(view)  # the view stays immutable and hashable


def test_a_blind_draw_is_not_known() -> None:
    state = set_deck(new_started(), "red", "blue")
    state = ttr_core.apply(state, DrawBlind(0))
    state = ttr_core.apply(state, DrawBlind(0))
    assert state.players[0].known == ()
    assert ttr_core.player_view(state, 1).seats[0].known == {}


def test_a_face_up_wild_and_a_blind_second_card() -> None:
    state = set_display(new_started(), "blue", "wild", "green", "black", "pink")
    state = set_deck(state, "red", "orange")
    after_wild = ttr_core.apply(state, DrawFaceUp(0, 1))
    assert known(after_wild, 0) == {"wild": 1}
    first = ttr_core.apply(state, DrawFaceUp(0, 0))  # blue; red comes up
    second = ttr_core.apply(first, DrawBlind(0))  # orange, unseen
    assert known(second, 0) == {"blue": 1}
    views_agree(second)


def face_up_reds(state: GameState, seat: int, count: int) -> GameState:
    """``seat`` takes ``count`` red cards face up (a turn of its own for each)."""
    for _ in range(count):
        state = set_display(turn_of(state, seat), "red", "blue", "green", "black", "pink")
        state = set_deck(state, "orange")
        state = ttr_core.apply(state, DrawFaceUp(seat, 0))
        state = ttr_core.apply(state, DrawBlind(seat))
    return state


def test_paying_takes_the_cards_paid_from_the_known_ones() -> None:
    state = with_hand(new_started(), 0, red=1, wild=2)
    state = face_up_reds(state, 0, 2)
    hand = state.players[0].hand
    assert hand["red"] == 3 and known(state, 0) == {"red": 2}
    # Chelsea–Greenwich Village, red 3: one red and two wilds paid.
    paid = ttr_core.apply(turn_of(state, 0), ClaimRoute(0, 21, "red", 2))
    assert known(paid, 0) == {"red": 1}
    views_agree(paid)
    # Three reds paid: none known is left, and known is empty again.
    paid = ttr_core.apply(turn_of(state, 0), ClaimRoute(0, 21, "red", 0))
    assert paid.players[0].known == ()
    assert ttr_core.player_view(paid, 1).seats[0].known == {}


def test_paying_other_cards_leaves_the_known_ones() -> None:
    state = with_hand(new_started(), 0, blue=0, wild=3)
    state = face_up_reds(state, 0, 1)
    # Wilds alone pay a 3-long route: the known red stays known.
    paid = ttr_core.apply(turn_of(state, 0), ClaimRoute(0, 21, None, 3))
    assert known(paid, 0) == {"red": 1}


def test_the_effect_helpers_keep_known_cards() -> None:
    state = set_display(new_started(), "red", "blue", "green", "black", "pink")
    state = set_deck(state, "orange", "red")
    state = effects.take_face_up(state, 1, 0)  # red
    assert known(state, 1) == {"red": 1}
    state = effects.draw_cards(state, 1, 1)  # orange, blind
    assert known(state, 1) == {"red": 1}
    state = effects.take_face_up(state, 1, 0)  # orange, now face up in slot 0
    assert known(state, 1) == {"red": 1, "orange": 1}
    discarded = effects.discard_cards(state, 1, {"orange": 1})
    assert known(discarded, 1) == {"red": 1}
    held = discarded.players[1].hand
    assert held["red"] >= 1
    state = with_hand(discarded, 1, red=held["red"], wild=3)
    claimed = effects.claim_route(state, 21, 1, {"red": 1, "wild": 2})
    assert claimed.players[1].known == ()
    views_agree(claimed)
    # An owner that is not a seat pays nothing: the seats' known cards stay.
    neutral = effects.claim_route(state, 21, 7)
    assert known(neutral, 1) == {"red": 1}


# -- the property over random games ---------------------------------------------------


def expected_known(before: GameState, action: Action) -> list[tuple[int, ...]]:
    """What every seat's ``known`` must be once ``action`` (a legal one) is applied."""
    board = before.board
    kinds = len(board.card_names)
    rows = [list(p.known) or [0] * kinds for p in before.players]
    if type(action) is DrawFaceUp:
        card = before.display[action.slot]
        assert card is not None
        rows[action.player][card] += 1
    elif type(action) is ClaimRoute:
        route = board.routes[action.route]
        paid = {board.wild: action.wilds}
        if action.color is not None:
            paid[board.colors.index(action.color)] = route.length - action.wilds
        row = rows[action.player]
        for card, n in paid.items():
            row[card] = max(0, row[card] - n)
    return [tuple(row) if any(row) else () for row in rows]


def check_known(state: GameState) -> None:
    kinds = len(state.board.card_names)
    for player in state.players:
        assert player.known == () or (len(player.known) == kinds and any(player.known))
        for k, held in zip(player.known, player.hand.counts, strict=False):
            assert 0 <= k <= held


CONFIGS = [
    ("newyork", 2, None),
    ("newyork", 4, None),
    ("nederland", 3, None),
    ("nederland", 5, []),
    ("nederland", 2, ["tolls", "neutral"]),
    ("usa", 2, None),
    ("usa", 5, None),
    ("amsterdam", 3, None),
]


def play_and_check(map_name: str, players: int, variants: list[str] | None, seed: int) -> int:
    state = ttr_core.new_game(map_name, players, seed=seed, variants=variants)
    chooser = random.Random(seed)
    face_up = 0
    while not ttr_core.is_over(state):
        legal = ttr_core.legal_actions(state)
        # Face-up draws and claims more often than at random: they are what is tested.
        preferred = [a for a in legal if type(a) in (DrawFaceUp, ClaimRoute)]
        action = chooser.choice(preferred if preferred and chooser.random() < 0.7 else legal)
        expected = expected_known(state, action)
        state = ttr_core.apply(state, action)
        face_up += type(action) is DrawFaceUp
        assert [p.known for p in state.players] == expected, action
        check_known(state)
        if chooser.random() < 0.2:
            views_agree(state)
    views_agree(state)
    return face_up


@pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")
@pytest.mark.parametrize(("map_name", "players", "variants"), CONFIGS)
def test_known_cards_follow_the_rules_in_random_games(
    map_name: str, players: int, variants: list[str] | None
) -> None:
    assert sum(play_and_check(map_name, players, variants, seed) for seed in range(3)) > 0


@pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")
@settings(max_examples=25)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32))
def test_known_cards_never_exceed_the_hand(
    config: tuple[str, int, list[str] | None], seed: int
) -> None:
    play_and_check(*config, seed)

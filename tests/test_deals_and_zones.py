"""Deals and zones (issue 20): the ``ttr_deal_tickets`` hook, the box
(``GameState.boxed_tickets``, tickets out of the game, face down) and the
effects ``box_tickets`` and ``reveal_cards``.

The long-ticket plugin below deals as Europe does, through the public API
only: each seat's starting deal is one long ticket (here: worth 20 points or
more) and regular ones; long tickets not dealt, and those a seat does not
keep, go to the box; a ``DrawTickets`` deals regular tickets only (from the
bottom of the deck, so that the hook's choice is seen).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ttr_core
from ttr_core import GameState, PlayerView, PluginError, effects, hookimpl
from ttr_core.checking.probes import hidden_changes, reachable
from ttr_core.checking.registry import check_state
from ttr_core.hooks.checks import ticket_places

NAME = "longdeal"
MAP = "usa"


def is_long(state: GameState, ticket: int) -> bool:
    return state.board.tickets[ticket].points >= 20


class LongDeal:
    """Europe's long tickets, by the public API."""

    @hookimpl
    def ttr_deal_tickets(
        self, state: GameState, seat: int, count: int, start: bool
    ) -> Sequence[int] | None:
        deck = state.ticket_deck
        regular = [t for t in deck if not is_long(state, t)]
        want = min(count, len(deck))
        if not start:
            return None if len(regular) < want else regular[len(regular) - want :]
        longs = [t for t in deck if is_long(state, t)]
        if not longs or len(regular) < want - 1:
            return None
        return [longs[0], *regular[: want - 1]]

    @hookimpl
    def ttr_setup(self, state: GameState) -> GameState:
        return _box_longs(state)

    @hookimpl
    def ttr_between_turns(self, state: GameState) -> GameState:
        return _box_longs(state)

    @hookimpl
    def ttr_determinize(
        self, state: GameState, view: PlayerView, rng: random.Random
    ) -> GameState | None:
        """The tickets the viewer cannot see (other seats', the deck's, the box's)
        re-dealt as the game deals them, once the starting choices are over: the
        box holds long tickets only, the deck regular ones, and each other seat
        at most one long ticket (the long ones left over, one each)."""
        if not state.turn:
            return None
        others = [s for s in range(state.num_players) if s != view.viewer]
        hidden = [t for s in others for t in state.players[s].tickets]
        hidden += [*state.ticket_deck, *state.boxed_tickets]
        longs = [t for t in hidden if is_long(state, t)]
        regular = [t for t in hidden if not is_long(state, t)]
        rng.shuffle(longs)
        rng.shuffle(regular)
        box = longs[: len(state.boxed_tickets)]
        held_longs = longs[len(box) :]
        lucky = rng.sample(others, len(held_longs))
        players = list(state.players)
        for seat in others:
            count = len(players[seat].tickets)
            mine = [held_longs[lucky.index(seat)]] if seat in lucky else []
            mine += [regular.pop() for _ in range(count - len(mine))]
            players[seat] = attrs.evolve(players[seat], tickets=tuple(mine))
        return attrs.evolve(
            state, players=tuple(players), ticket_deck=tuple(regular), boxed_tickets=tuple(box)
        )


def _box_longs(state: GameState) -> GameState:
    """Every long ticket on the ticket deck or pile into the box."""
    piles = (*state.ticket_deck, *state.ticket_discard)
    longs = [t for t in piles if is_long(state, t)]
    return effects.box_tickets(state, longs) if longs else state


@pytest.fixture(scope="module", autouse=True)
def longdeal() -> Iterator[None]:
    ttr_core.register_variant(NAME, LongDeal())
    yield
    ttr_core.unregister_variant(NAME)


def _game(seed: int = 1, players: int = 3) -> GameState:
    return ttr_core.new_game(MAP, players, seed=seed, variants=[NAME])


def _play(state: GameState, seed: int, actions: int) -> Iterator[GameState]:
    rng = random.Random(seed)
    yield state
    for _ in range(actions):
        if state.is_over:
            return
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
        yield state


# ---------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------


def test_starting_deal_is_one_long_and_regular_ones() -> None:
    state = _game()
    offers = [state.pending.offered, *state.start_offers] if state.pending else []
    assert len(offers) == 3
    for offer in offers:
        assert len(offer) == state.board.rules.start_tickets_dealt
        assert [is_long(state, t) for t in offer] == [True, False, False]
    # Every other long ticket is in the box, and only those.
    longs = {t for t in range(len(state.board.tickets)) if is_long(state, t)}
    assert set(state.boxed_tickets) == longs - {o[0] for o in offers}
    assert sorted(ticket_places(state)) == list(range(len(state.board.tickets)))
    assert check_state(state) == []


def test_without_the_variant_the_deal_is_the_core_s() -> None:
    plain = ttr_core.new_game(MAP, 3, seed=1)
    assert plain.boxed_tickets == ()
    assert plain.rules.deal_tickets == ()


def test_draw_tickets_asks_the_hook() -> None:
    state = _game()
    while state.pending is not None and state.pending.kind == "start_tickets":
        state = ttr_core.apply(
            state, ttr_core.KeepTickets(state.pending.player, frozenset(state.pending.offered))
        )
    deck = state.ticket_deck
    seat = state.current_player
    assert seat is not None
    state = ttr_core.apply(state, ttr_core.DrawTickets(seat))
    regular = [t for t in deck if not is_long(state, t)]
    assert state.pending is not None
    assert state.pending.offered == tuple(regular[-3:])
    assert state.ticket_deck == tuple(t for t in deck if t not in regular[-3:])


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("abc", "sequence of ticket ids"),
        ([0], "dealt 1 ticket"),
        ([-1, 0, 1], "not a ticket id on the ticket deck"),
        (None, ""),
    ],
)
def test_a_bad_deal_is_refused(answer: Any, message: str) -> None:
    class Bad:
        @hookimpl
        def ttr_deal_tickets(self, state: GameState) -> Any:
            return answer

    ttr_core.register_variant("baddeal", Bad())
    try:
        if answer is None:
            hooked = ttr_core.new_game(MAP, 2, seed=3, variants=["baddeal"])
            plain = ttr_core.new_game(MAP, 2, seed=3)
            assert (hooked.pending, hooked.start_offers, hooked.ticket_deck) == (
                plain.pending,
                plain.start_offers,
                plain.ticket_deck,
            )
        else:
            with pytest.raises(PluginError, match=message):
                ttr_core.new_game(MAP, 2, seed=3, variants=["baddeal"])
    finally:
        ttr_core.unregister_variant("baddeal")


def test_a_deal_naming_a_ticket_twice_is_refused() -> None:
    class Twice:
        @hookimpl
        def ttr_deal_tickets(self, state: GameState) -> Any:
            return [state.ticket_deck[0]] * 3

    ttr_core.register_variant("twicedeal", Twice())
    try:
        with pytest.raises(PluginError, match="twice"):
            ttr_core.new_game(MAP, 2, seed=3, variants=["twicedeal"])
    finally:
        ttr_core.unregister_variant("twicedeal")


# ---------------------------------------------------------------------------
# Conservation and secrecy over random games
# ---------------------------------------------------------------------------


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), actions=st.integers(0, 120))
def test_conservation_and_secrecy_over_random_games(seed: int, players: int, actions: int) -> None:
    everything = list(range(30))
    rng = random.Random(seed)
    for state in _play(_game(seed, players), seed, actions):
        assert sorted(ticket_places(state)) == everything
        assert check_state(state) == []
        for player in state.players:
            assert sum(is_long(state, t) for t in player.tickets) <= 1
        assert all(is_long(state, t) for t in state.boxed_tickets)
        boxed = set(state.boxed_tickets)
        viewer = rng.randrange(players)
        view = ttr_core.player_view(state, viewer)
        assert view.boxed_tickets_size == len(boxed)
        shown = {
            *view.ticket_discard,
            *view.tickets,
            *view.offered,
        }
        assert not shown & boxed
        for path, value in reachable(view):
            assert not (len(boxed) >= 2 and value == state.boxed_tickets), path
        # Exchanging a boxed ticket with a hidden one changes no view.
        for what, changed in hidden_changes(state, viewer, rng):
            if what.startswith("the box"):
                assert changed.boxed_tickets != state.boxed_tickets
                assert ttr_core.player_view(changed, viewer) == view


def test_the_box_is_never_drawn_from() -> None:
    start = _game(seed=5, players=2)
    boxed = set(start.boxed_tickets)
    assert boxed
    for state in _play(start, 5, 400):
        if state.pending is not None and state.pending.kind == "keep_tickets":
            assert not set(state.pending.offered) & boxed


# ---------------------------------------------------------------------------
# Saves and determinize
# ---------------------------------------------------------------------------


def _midgame() -> GameState:
    *_, state = _play(_game(seed=7), 7, 40)
    assert state.boxed_tickets and not state.is_over
    return state


def test_save_round_trip_keeps_the_box() -> None:
    state = _midgame()
    data = ttr_core.to_data(state)
    assert data["boxed_tickets"] == list(state.boxed_tickets)
    assert ttr_core.from_data(data, GameState) == state


def test_old_saves_without_the_key_load_with_an_empty_box() -> None:
    state = ttr_core.new_game(MAP, 2, seed=4)
    data = ttr_core.to_data(state)
    del data["boxed_tickets"]
    assert ttr_core.from_data(data, GameState) == state


def test_a_save_that_loses_a_boxed_ticket_is_refused() -> None:
    state = _midgame()
    data = ttr_core.to_data(state)
    data["boxed_tickets"] = data["boxed_tickets"][1:]
    with pytest.raises(ttr_core.DataError, match="tickets"):
        ttr_core.from_data(data, GameState)


def test_determinize_deals_the_box_consistently() -> None:
    state = _midgame()
    for viewer in range(state.num_players):
        view = ttr_core.player_view(state, viewer)
        for seed in range(5):
            dealt = ttr_core.determinize(view, seed)
            assert len(dealt.boxed_tickets) == len(state.boxed_tickets)
            assert sorted(ticket_places(dealt)) == list(range(30))
            assert ttr_core.player_view(dealt, viewer) == view
            assert check_state(dealt) == []
            # The variant's own rule, kept by its ttr_determinize: one long per seat.
            for player in dealt.players:
                assert sum(is_long(dealt, t) for t in player.tickets) <= 1
            assert all(is_long(dealt, t) for t in dealt.boxed_tickets)


def test_a_view_read_back_keeps_the_box_size() -> None:
    state = _midgame()
    view = ttr_core.player_view(state, 0)
    data = ttr_core.to_data(view)
    assert data["boxed_tickets_size"] == len(state.boxed_tickets)
    assert ttr_core.from_data(data, ttr_core.PlayerView) == view


# ---------------------------------------------------------------------------
# The effects
# ---------------------------------------------------------------------------


def test_box_tickets_refuses_held_and_unknown_tickets() -> None:
    state = _midgame()
    held = state.players[0].tickets[0]
    with pytest.raises(PluginError, match="not a drawn ticket"):
        effects.box_tickets(state, [held])
    with pytest.raises(PluginError, match="no ticket"):
        effects.box_tickets(state, [99])
    with pytest.raises(PluginError, match="twice"):
        effects.box_tickets(state, [state.ticket_deck[0]] * 2)


def test_box_tickets_from_a_draw() -> None:
    state = ttr_core.new_game(MAP, 2, seed=4)
    state, drawn = effects.draw_tickets(state, 2)
    state = effects.box_tickets(state, drawn)
    assert state.boxed_tickets == drawn
    assert sorted(ticket_places(state)) == list(range(30))


def _cards(state: GameState) -> int:
    return len(state.deck) + sum(state.discard) + sum(p.hand.total for p in state.players)


@pytest.mark.parametrize("to", ["discard", "deck"])
def test_reveal_cards(to: str) -> None:
    state = _midgame()
    before = _cards(state) + sum(c is not None for c in state.display)
    after, shown = effects.reveal_cards(state, 3, to=to)
    names = state.board.card_names
    assert shown == tuple(names[c] for c in state.deck[:3])
    assert _cards(after) + sum(c is not None for c in after.display) == before
    assert after.players == state.players  # no hand, no known card changes
    if to == "deck":
        assert after.deck == state.deck and after.discard == state.discard
    else:
        assert after.deck == state.deck[3:]
        assert sum(after.discard) == sum(state.discard) + 3
    assert check_state(after) == []


def test_reveal_cards_reshuffles_and_stops_when_nothing_is_left() -> None:
    state = _midgame()
    # Two cards in the deck, the rest of the deck in the discard pile.
    discard = list(state.discard)
    for card in state.deck[2:]:
        discard[card] += 1
    state = attrs.evolve(state, deck=state.deck[:2], discard=tuple(discard))
    total = 2 + sum(discard)
    after, shown = effects.reveal_cards(state, 3)
    assert after.shuffles == state.shuffles + 1
    assert len(shown) == 3 and len(after.deck) + sum(after.discard) == total
    assert check_state(after) == []
    everything, shown = effects.reveal_cards(state, total + 5)
    assert len(shown) == total and not everything.deck
    assert sum(everything.discard) == total


def test_reveal_cards_refuses_junk() -> None:
    state = ttr_core.new_game(MAP, 2, seed=4)
    with pytest.raises(PluginError):
        effects.reveal_cards(state, -1)
    with pytest.raises(PluginError):
        effects.reveal_cards(state, 1, to="hand")

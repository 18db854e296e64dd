"""Views an app can send (E17): nothing a seat may not see is reachable from its view.

Two ways of checking. A walk over everything reachable from the view (attrs
fields, mappings, sequences; the board is public map data and is skipped)
finds no game state, no other seat's hand or tickets. And states that differ
only in what a seat cannot see — another hand's cards against the deck, the
deck's order, the discard pile, another seat's tickets and offers, another
seat's toll value, the seed — give that seat equal views.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ttr_core_plugins.long_tickets import is_long
from ttr_core_plugins.tolls import tolls

import ttr_core
from ttr_core import ArgumentError, GameRules, GameState, Hand, Pending, PlayerState
from ttr_core.checking.probes import (
    exchange_hand_and_deck,
    exchange_seat_ticket,
    hidden_changes,
    reachable,
)

from .test_determinize import BOARDS, CONFIGS, IDS, play_randomly

#: Every map's configurations, and Europe with its default variants (long tickets
#: and the box, tunnel reveals, stations).
SECRET_CONFIGS = [*CONFIGS, ("europe", 2, None), ("europe", 4, None)]
SECRET_IDS = [*IDS, "europe-2", "europe-4"]
EUROPE = ttr_core.load_map("europe")


def play(
    map: str, players: int, variants: Sequence[str] | None, seed: int, actions: int
) -> GameState:
    """``play_randomly`` on any map of :data:`SECRET_CONFIGS`."""
    if map != "europe":
        return play_randomly(map, players, variants, seed, actions)
    state = ttr_core.new_game(EUROPE, players, seed=seed, variants=variants)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            break
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
    return state


# ---------------------------------------------------------------------------
# Walking the view
# ---------------------------------------------------------------------------


def hidden_values(state: GameState, viewer: int) -> dict[str, object]:
    """Values a view for ``viewer`` must not hold. Short tuples are left out: they
    may equal a public one by chance (a seat's routes, the ticket discard pile)."""
    found: dict[str, object] = {}
    for seat, player in enumerate(state.players):
        if seat != viewer:
            if player.hand.total:
                found[f"hand of seat {seat}"] = player.hand
                found[f"hand counts of seat {seat}"] = player.hand.counts
            if len(player.tickets) >= 2:
                found[f"tickets of seat {seat}"] = player.tickets
                found[f"tickets of seat {seat}, sorted"] = tuple(sorted(player.tickets))
    if len(state.deck) >= 3:
        found["deck"] = state.deck
        found["deck, sorted"] = tuple(sorted(state.deck))
    if any(state.discard):
        found["discard pile"] = state.discard
    pending = state.pending
    if pending is not None and pending.player != viewer and len(pending.offered) >= 2:
        found["offer of another seat"] = pending.offered
    for seat, offer in enumerate(state.start_offers):
        if len(offer) >= 2:
            found[f"starting offer {seat}"] = offer
    if len(state.ticket_deck) >= 3:
        found["ticket deck"] = state.ticket_deck
    if len(state.boxed_tickets) >= 2:
        found["the box"] = state.boxed_tickets
        found["the box, sorted"] = tuple(sorted(state.boxed_tickets))
    return found


def public_values(view: Any) -> list[object]:
    """What the view shows anyway: a hidden value equal to one of these is a coincidence."""
    shown: list[object] = [view.hand, view.hand.counts, view.tickets, view.offered]
    shown += [view.ticket_discard, *(seat.routes for seat in view.seats)]
    shown += [other.routes for other in view.others]
    # Public by the rules (every seat sees them), and small tuples of counts or
    # ids that may equal a hidden tuple by chance: merchandise cards held, loans.
    # The cards a tunnel turned up, per card (they go to the discard pile: onto an
    # empty pile they are all of it).
    shown += [
        view.variants.get(key) for key in ("merchandise.held", "tolls.loans", "tunnels.turned_up")
    ]
    return shown


@pytest.mark.parametrize(("map", "players", "variants"), SECRET_CONFIGS, ids=SECRET_IDS)
@settings(max_examples=20)
@given(seed=st.integers(0, 2**32), actions=st.integers(0, 400))
def test_nothing_hidden_is_reachable_from_a_view(
    map: str, players: int, variants: Sequence[str] | None, seed: int, actions: int
) -> None:
    state = play(map, players, variants, seed, actions)
    for viewer in range(players):
        view = ttr_core.player_view(state, viewer)
        secrets = hidden_values(state, viewer)
        public = public_values(view)
        for path, value in reachable(view):
            assert not isinstance(value, GameState | PlayerState | Pending | GameRules), path
            assert not isinstance(value, Hand) or path == "view.hand", path
            for what, secret in secrets.items():
                if type(value) is type(secret) and value == secret and value not in public:
                    pytest.fail(f"{path} holds {what}: {value!r}")
        if "tolls" in state.rules.variants:
            shown = {k: v for k, v in view.variants.items() if k.startswith("tolls")}
            assert shown == {
                "tolls.holdings": tolls(state).holdings[viewer],
                "tolls.loans": tolls(state).loans,
            }


def test_the_view_has_no_field_for_a_deck_or_another_seats_things() -> None:
    fields = {f.name for f in attrs.fields(ttr_core.PlayerView)}
    assert not fields & {"deck", "ticket_deck", "players", "discard", "seed", "start_offers"}
    seat_fields = {f.name for f in attrs.fields(ttr_core.SeatView)}
    assert not seat_fields & {"hand", "tickets", "offered", "holdings"}


# ---------------------------------------------------------------------------
# States that differ only in what the viewer cannot see
# ---------------------------------------------------------------------------


def _replace(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1 :])


def move_toll_value(state: GameState, viewer: int, rng: random.Random) -> GameState | None:
    """Move toll value between two other seats (or one and the bank): totals kept."""
    if "tolls" not in state.rules.variants:
        return None
    current = tolls(state)
    others = [s for s in range(state.num_players) if s != viewer]
    seat = rng.choice(others)
    holdings = list(current.holdings)
    partners = [s for s in others if s != seat]
    amount = rng.randint(1, 5)
    if partners:
        partner = rng.choice(partners)
        if holdings[partner] < amount:
            return None
        holdings[partner] -= amount
        holdings[seat] += amount
        new = attrs.evolve(current, holdings=tuple(holdings))
    else:
        holdings[seat] += amount
        new = attrs.evolve(current, holdings=tuple(holdings), bank_paid=current.bank_paid + amount)
    return state.with_variant("tolls", new)


def exchange_long_ticket_and_box(
    state: GameState, seat: int, rng: random.Random
) -> GameState | None:
    """Exchange the long ticket ``seat`` kept with a boxed one (Europe), if it kept one."""
    if "long_tickets" not in state.rules.variants or not state.boxed_tickets:
        return None
    player = state.players[seat]
    for i, ticket in enumerate(player.tickets):
        if is_long(state.board, ticket):
            j = rng.randrange(len(state.boxed_tickets))
            tickets = _replace(player.tickets, i, state.boxed_tickets[j])
            return attrs.evolve(
                state,
                players=_replace(state.players, seat, attrs.evolve(player, tickets=tickets)),
                boxed_tickets=_replace(state.boxed_tickets, j, ticket),
            )
    return None


def hidden_variants(
    state: GameState, viewer: int, rng: random.Random
) -> Iterator[tuple[str, GameState]]:
    """``state`` changed in each way the viewer cannot see (where the state allows it):
    the kit's hidden changes, and another seat's toll value."""
    changes = [*hidden_changes(state, viewer, rng)]
    tolled = move_toll_value(state, viewer, rng)
    if tolled is not None:
        changes.append(("another seat's toll value", tolled))
    others = [seat for seat in range(state.num_players) if seat != viewer]
    for seat in rng.sample(others, len(others)):
        boxed = exchange_long_ticket_and_box(state, seat, rng)
        if boxed is not None:
            changes.append(("another seat's long ticket against the box", boxed))
            break
    for name, changed in changes:
        assert changed != state
        yield name, changed


@pytest.mark.parametrize(("map", "players", "variants"), SECRET_CONFIGS, ids=SECRET_IDS)
@settings(max_examples=20)
@given(seed=st.integers(0, 2**32), actions=st.integers(0, 400), change=st.integers(0, 2**32))
def test_states_that_differ_only_in_hidden_information_give_equal_views(
    map: str, players: int, variants: Sequence[str] | None, seed: int, actions: int, change: int
) -> None:
    state = play(map, players, variants, seed, actions)
    rng = random.Random(change)
    for viewer in range(players):
        view = ttr_core.player_view(state, viewer)
        text = ttr_core.to_json(view)
        for what, changed in hidden_variants(state, viewer, rng):
            seen = ttr_core.player_view(changed, viewer)
            assert seen == view, what
            # What a server sends is the same text: nothing hidden in the JSON either.
            assert ttr_core.to_json(seen) == text, what


def test_the_check_has_teeth_a_change_the_viewer_can_see_changes_the_view() -> None:
    state = play_randomly("nederland", 3, None, seed=5, actions=60)
    assert state.pending is not None and state.pending.kind == "turn"
    rng = random.Random(0)
    names: set[str] = set()
    for viewer in range(3):
        view = ttr_core.player_view(state, viewer)
        # The viewer's own hand, tickets and toll value are seen, and so are hand sizes.
        mine = exchange_hand_and_deck(state, viewer, rng)
        assert mine is not None and ttr_core.player_view(mine, viewer) != view
        ticket = exchange_seat_ticket(state, viewer, rng)
        assert ticket is not None and ttr_core.player_view(ticket, viewer) != view
        current = tolls(state)
        holdings = _replace(current.holdings, viewer, current.holdings[viewer] + 1)
        richer = state.with_variant("tolls", attrs.evolve(current, holdings=holdings))
        assert ttr_core.player_view(richer, viewer) != view
        other = (viewer + 1) % 3
        player = state.players[other]
        counts = list(player.hand.counts)
        card = next(c for c, n in enumerate(counts) if n)
        counts[card] -= 1
        smaller = attrs.evolve(
            state,
            players=_replace(
                state.players,
                other,
                attrs.evolve(player, hand=Hand(tuple(counts), player.hand.names)),
            ),
            deck=(*state.deck, card),
        )
        assert ttr_core.player_view(smaller, viewer) != view
        # ... and the hidden changes apply to this state (no offer is pending).
        names |= {name for name, _ in hidden_variants(state, viewer, rng)}
    assert names == {
        "another seat's hand against the deck",
        "the deck's order",
        "the discard pile against the deck",
        "another seat's tickets",
        "another seat's toll value",
        "the seed",
    }


def _europe_tunnel_waiting() -> GameState:
    """A random 4-player Europe game stopped at a tunnel's reveal, two other seats
    holding a long ticket each and the box not empty."""
    for seed in range(500):
        state = ttr_core.new_game(EUROPE, 4, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
            pending = state.pending
            if pending is not None and pending.kind == "tunnels.pay":
                holders = [
                    s
                    for s, p in enumerate(state.players)
                    if any(is_long(EUROPE, t) for t in p.tickets)
                ]
                if len(holders) >= 3 and state.boxed_tickets and state.deck:
                    return state
    pytest.fail("no random Europe game reached a tunnel reveal with long tickets kept")


def test_europe_views_hide_the_box_long_tickets_and_unrevealed_cards() -> None:
    state = _europe_tunnel_waiting()
    wait = state.pending.data  # type: ignore[union-attr]
    rng = random.Random(1)
    names: set[str] = set()
    for viewer in range(4):
        view = ttr_core.player_view(state, viewer)
        text = ttr_core.to_json(view)
        # The revealed cards are public; the deck under them, the box and the
        # other seats' long tickets are not.
        assert view.variants["tunnels.pay"] == wait
        assert view.boxed_tickets_size == len(state.boxed_tickets)
        for what, changed in hidden_variants(state, viewer, rng):
            names.add(what)
            assert ttr_core.player_view(changed, viewer) == view, what
            assert ttr_core.to_json(ttr_core.player_view(changed, viewer)) == text, what
        # Teeth: the viewer's own long ticket against the box is seen.
        mine = exchange_long_ticket_and_box(state, viewer, rng)
        if mine is not None:
            names.add("own long ticket")
            assert ttr_core.player_view(mine, viewer) != view
    assert {
        "the deck's order",
        "the box against the ticket deck",
        "another seat's long ticket against the box",
        "own long ticket",
    } <= names


def test_cards_taken_face_up_stay_visible_and_the_rest_of_the_hand_does_not() -> None:
    state = play_randomly("newyork", 2, None, seed=1, actions=2)  # the starting choices made
    assert state.pending is not None and state.pending.kind == "turn"
    seat = state.pending.player
    state = ttr_core.apply(state, ttr_core.DrawFaceUp(seat, 0))
    card = state.board.card_names[state.players[seat].known.index(1)]
    other = 1 - seat
    view = ttr_core.player_view(state, other)
    assert view.seats[seat].known == {card: 1}
    # Only the known card is fixed: the rest may be anything the viewer cannot see.
    changed = exchange_hand_and_deck(state, seat, random.Random(0))
    assert changed is not None and ttr_core.player_view(changed, other) == view


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 2, 5, True, False, 1.0, "0", None])
def test_a_view_for_a_seat_that_does_not_exist_is_an_argument_error(seat: object) -> None:
    state = ttr_core.new_game(BOARDS["newyork"], 2, seed=0)
    with pytest.raises(ArgumentError, match="player must be a seat from 0 to 1"):
        ttr_core.player_view(state, seat)  # type: ignore[arg-type]


def test_a_view_of_something_that_is_not_a_state_is_an_argument_error() -> None:
    with pytest.raises(ArgumentError, match="GameState"):
        ttr_core.player_view("newyork", 0)  # type: ignore[arg-type]

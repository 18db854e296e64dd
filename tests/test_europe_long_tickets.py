"""Europe's long tickets (plugin ``long_tickets``): one long ticket dealt to each
seat with its regular ones, the undealt and unkept long ones boxed and hidden
in every view and JSON, never drawn later."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import attrs
import pytest
from ttr_core_plugins.long_tickets import NAME, is_long, long_ids

import ttr_core
from ttr_core import DrawTickets, GameState, KeepTickets
from ttr_core.checking.registry import check_state, check_transition
from ttr_core.hooks.checks import ticket_places

MAP = "europe"
VARIANTS = (NAME,)


def _game(players: int = 3, seed: int = 1) -> GameState:
    return ttr_core.new_game(MAP, players, seed=seed, variants=VARIANTS)


def _offers(state: GameState) -> list[tuple[int, ...]]:
    assert state.pending is not None and state.pending.kind == "start_tickets"
    return [state.pending.offered, *state.start_offers]


def _choose(state: GameState, keep_long: bool) -> GameState:
    """Every seat keeps its regular tickets, and its long one if ``keep_long``."""
    while state.pending is not None and state.pending.kind == "start_tickets":
        offer = state.pending.offered
        kept = [t for t in offer if keep_long or not is_long(state.board, t)]
        state = ttr_core.apply(state, KeepTickets(state.pending.player, kept))
    return state


def _play(state: GameState, seed: int, actions: int) -> Iterator[GameState]:
    rng = random.Random(seed)
    yield state
    for _ in range(actions):
        if state.is_over:
            return
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
        yield state


def _longs(state: GameState) -> set[int]:
    return set(long_ids(state.board))


def test_the_map_has_6_long_tickets() -> None:
    board = ttr_core.load_map(MAP)
    assert len(long_ids(board)) == 6
    assert len(board.tickets) - 6 == 40


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_long_tickets_dealt_one_each(players: int) -> None:
    state = _game(players)
    offers = _offers(state)
    assert len(offers) == players
    for offer in offers:
        assert len(offer) == 4
        assert sum(is_long(state.board, t) for t in offer) == 1  # 1 long + 3 regular
    assert state.pending is not None and state.pending.min_keep == 2
    dealt = {t for offer in offers for t in offer if is_long(state.board, t)}
    # The undealt long tickets are in the box, and nothing else is.
    assert set(state.boxed_tickets) == _longs(state) - dealt
    assert len(state.boxed_tickets) == 6 - players
    assert not _longs(state) & set(state.ticket_deck)
    assert sorted(ticket_places(state)) == list(range(46))


def test_the_deal_differs_by_seed_and_takes_any_long_ticket() -> None:
    dealt = {t for seed in range(12) for o in _offers(_game(2, seed)) for t in o}
    assert _longs(_game()) <= dealt


def test_unkept_long_ticket_boxed() -> None:
    state = _choose(_game(3), keep_long=False)
    longs = _longs(state)
    # Seats kept their 3 regular tickets; the 3 long ones went to the box at
    # once, each at its seat's choice (map rule start_returned = "box").
    assert all(len(p.tickets) == 3 and not longs & set(p.tickets) for p in state.players)
    assert set(state.boxed_tickets) == longs
    assert not longs & set(state.ticket_deck)
    drawn = ttr_core.apply(state, DrawTickets(0))
    assert drawn.pending is not None and not longs & set(drawn.pending.offered)
    state = ttr_core.apply(drawn, KeepTickets(0, drawn.pending.offered[:1]))
    assert state.turn == 1
    assert set(state.boxed_tickets) == longs
    assert not longs & set(state.ticket_deck)
    # Tickets not kept from a later draw go under the ticket deck.
    assert state.ticket_deck[-2:] == drawn.pending.offered[1:]
    assert not check_state(state)


def test_kept_long_tickets_stay_with_their_seats() -> None:
    state = _choose(_game(3), keep_long=True)
    state = ttr_core.apply(state, DrawTickets(0))
    assert state.pending is not None
    state = ttr_core.apply(state, KeepTickets(0, state.pending.offered))
    assert [sum(is_long(state.board, t) for t in p.tickets) for p in state.players] == [1, 1, 1]
    assert len(state.boxed_tickets) == 3


def test_draws_take_regular_tickets_only() -> None:
    state = _choose(_game(2), keep_long=False)
    deck = state.ticket_deck
    regular = [t for t in deck if not is_long(state.board, t)]
    state = ttr_core.apply(state, DrawTickets(0))
    assert state.pending is not None
    assert state.pending.offered == tuple(regular[:3])  # the top regular tickets


def test_long_tickets_never_drawn_later() -> None:
    for seed in range(3):
        start = _game(4, seed)
        box = None
        for state in _play(start, seed, 600):
            pending = state.pending
            if pending is not None and pending.kind == "keep_tickets":
                assert not _longs(state) & set(pending.offered)
            # No long ticket is ever in the deck, from set-up on.
            assert not _longs(state) & set(state.ticket_deck)
            if not state.start_offers and (pending is None or pending.kind != "start_tickets"):
                # Once the starting choices are made the box never changes again.
                box = state.boxed_tickets if box is None else box
                assert state.boxed_tickets == box
            for player in state.players:
                assert sum(is_long(state.board, t) for t in player.tickets) <= 1
            assert sorted(ticket_places(state)) == list(range(46))


def _ticket_ids_shown(data: object, key: str = "") -> set[int]:
    """Every ticket id the JSON data shows: the ints under a key naming tickets."""
    found: set[int] = set()
    if isinstance(data, dict):
        for name, value in data.items():
            found |= _ticket_ids_shown(value, name)
    elif isinstance(data, list):
        for value in data:
            found |= _ticket_ids_shown(value, key)
    elif (
        isinstance(data, int)
        and ("ticket" in key or key == "offered")
        and not key.endswith(("_size", "_held"))  # counts, not ids
    ):
        found.add(data)
    return found


def test_unkept_and_undealt_ones_boxed_and_hidden_in_every_view_and_json() -> None:
    state = _choose(_game(3, seed=4), keep_long=True)
    *_, state = _play(state, 4, 30)
    assert state.boxed_tickets and not state.is_over
    boxed = set(state.boxed_tickets)
    for viewer in range(3):
        view = ttr_core.player_view(state, viewer)
        data = json.loads(ttr_core.to_json(view))
        assert data["boxed_tickets_size"] == len(boxed)
        assert "boxed_tickets" not in data and "ticket_deck" not in data and "deck" not in data
        # The ticket ids the view shows are the viewer's own tickets and the discard
        # pile: no boxed ticket, no other seat's ticket (long or not), none of the deck.
        shown = _ticket_ids_shown(data)
        offered = state.pending.offered if state.current_player == viewer else ()  # type: ignore[union-attr]
        mine = {*state.players[viewer].tickets, *offered}
        assert shown == mine | set(state.ticket_discard)
        assert not shown & boxed
        assert _ticket_ids_shown(data["seats"]) == set()
        assert set(view.tickets) == set(state.players[viewer].tickets)
        # Swapping a boxed ticket with another seat's long ticket changes no view.
        other = (viewer + 1) % 3
        theirs = next(t for t in state.players[other].tickets if is_long(state.board, t))
        box_one = state.boxed_tickets[0]
        players = list(state.players)
        players[other] = attrs.evolve(
            players[other],
            tickets=tuple(box_one if t == theirs else t for t in players[other].tickets),
        )
        swapped = attrs.evolve(
            state,
            players=tuple(players),
            boxed_tickets=(theirs, *state.boxed_tickets[1:]),
        )
        assert ttr_core.to_json(ttr_core.player_view(swapped, viewer)) == ttr_core.to_json(view)
        # The save holds the box (it is the whole state); a view read back is the view.
        assert ttr_core.from_json(ttr_core.to_json(view), ttr_core.PlayerView) == view
    assert ttr_core.from_json(ttr_core.to_json(state), GameState) == state


def test_determinize_keeps_one_long_per_seat_and_none_in_the_deck() -> None:
    """At every step of random games, each seat's view gives states (and reads
    back from JSON) dealt by the rule: the hidden offers of other seats re-dealt
    (one long ticket per starting offer, none in a draw), the box as big as the
    view says (the undealt long tickets at least), no seat two long tickets,
    none in the deck."""
    hidden_offers = 0
    for seed in range(3):
        for step, now in enumerate(_play(_game(4, seed), seed, 80)):
            if step % 3:
                continue
            for viewer in range(4):
                view = ttr_core.player_view(now, viewer)
                assert ttr_core.from_json(ttr_core.to_json(view), ttr_core.PlayerView) == view
                dealt = ttr_core.determinize(view, step)
                assert ttr_core.player_view(dealt, viewer) == view
                assert sorted(ticket_places(dealt)) == list(range(46))
                for player in dealt.players:
                    assert sum(is_long(dealt.board, t) for t in player.tickets) <= 1
                for offer in dealt.start_offers:
                    assert sum(is_long(dealt.board, t) for t in offer) == 1
                pending = dealt.pending
                assert pending is not None
                if pending.kind == "start_tickets":
                    assert sum(is_long(dealt.board, t) for t in pending.offered) == 1
                if pending.kind == "keep_tickets":
                    assert not _longs(dealt) & set(pending.offered)
                hidden_offers += bool(dealt.start_offers) or (
                    pending.player != viewer and bool(pending.offered)
                )
                assert len(dealt.boxed_tickets) == view.boxed_tickets_size
                assert sum(is_long(dealt.board, t) for t in dealt.boxed_tickets) >= 2
                assert not _longs(dealt) & set(dealt.ticket_deck)
                assert not [v for v in check_state(dealt) if v.invariant.startswith(NAME)]
    assert hidden_offers >= 20


def test_a_map_without_long_tickets_is_refused() -> None:
    with pytest.raises(ttr_core.GameConfigError, match="long"):
        ttr_core.new_game("usa", 2, variants=[NAME])


def test_a_broken_deal_is_caught_by_the_invariant() -> None:
    """Steps no play of the rules takes: our invariants name each."""
    state = _choose(_game(3), keep_long=True)
    before = ttr_core.apply(state, DrawTickets(0))
    assert before.pending is not None
    action = KeepTickets(0, before.pending.offered)
    after = ttr_core.apply(before, action)
    assert not check_state(after) and not check_transition(before, action, after)
    regular = after.ticket_deck[0]
    boxed = after.boxed_tickets[0]
    broken = {
        "a regular ticket in the box": attrs.evolve(
            after,
            boxed_tickets=(regular, *after.boxed_tickets[1:]),
            ticket_deck=(boxed, *after.ticket_deck[1:]),
        ),
        "a long ticket drawable": attrs.evolve(
            after,
            ticket_deck=(*after.ticket_deck, boxed),
            boxed_tickets=after.boxed_tickets[1:],
        ),
    }
    for what, bad in broken.items():
        found = check_transition(before, action, bad)
        assert [v for v in found if v.invariant == f"{NAME}.check_transition"], what
    # Two long tickets in one hand: refused in any state, a save too.
    two = attrs.evolve(
        after,
        players=(
            attrs.evolve(after.players[0], tickets=(*after.players[0].tickets, boxed)),
            *after.players[1:],
        ),
        boxed_tickets=after.boxed_tickets[1:],
    )
    assert [v for v in check_state(two) if v.invariant == f"{NAME}.check_state"]
    with pytest.raises(ttr_core.DataError):
        ttr_core.from_json(ttr_core.to_json(two), GameState)


def test_the_map_plays_it_by_default() -> None:
    state = ttr_core.new_game(MAP, 2, seed=3)
    assert NAME in state.rules.variants
    assert len(state.boxed_tickets) == 4

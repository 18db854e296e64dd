"""Helpers for building exact game situations in tests.

States are frozen attrs classes, so a test builds the situation it needs with
``attrs.evolve``; these helpers keep that short and readable.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Iterable, Iterator, Mapping

import attrs

import ttr_core
from ttr_core import GameState, Hand, KeepTickets

NY_CARDS = 44


@contextlib.contextmanager
def cpu_clock() -> Iterator[Callable[[], float]]:
    """Time a block by the CPU time of this process (a busy machine does not
    count), spent on the block's own work: what earlier tests left alive is
    frozen out of the garbage collector meanwhile, since a full collection
    that happened to fall in the block would scan it all (in the whole suite
    about 1.5 million objects, most of a second). Yields a function giving
    the seconds so far."""
    gc.freeze()
    start = time.process_time()
    try:
        yield lambda: time.process_time() - start
    finally:
        gc.unfreeze()


def started(state: GameState) -> GameState:
    """Play the starting ticket choice: every seat keeps all tickets offered."""
    while state.pending is not None and state.pending.kind == "start_tickets":
        state = ttr_core.apply(state, KeepTickets(state.pending.player, state.pending.offered))
    return state


def new_started(
    players: int = 2, seed: int = 0, variants: Iterable[str] | None = None, map: str = "newyork"
) -> GameState:
    return started(ttr_core.new_game(map, players, seed=seed, variants=variants))


def hand_counts(state: GameState, cards: Mapping[str, int]) -> tuple[int, ...]:
    names = state.board.card_names
    unknown = set(cards) - set(names)
    assert not unknown, unknown
    return tuple(cards.get(name, 0) for name in names)


def with_hand(state: GameState, seat: int, **cards: int) -> GameState:
    """Give ``seat`` exactly ``cards`` (colour=count; ``wild`` for wilds).

    The cards come out of (or go back to) the deck, or else the discard pile,
    so that the total number of cards stays the same.
    """
    counts = hand_counts(state, cards)
    old = state.players[seat].hand.counts
    deck = list(state.deck)
    discard = list(state.discard)
    for card, (want, have) in enumerate(zip(counts, old, strict=True)):
        for _ in range(have - want):
            deck.append(card)
        for _ in range(want - have):
            if card in deck:
                deck.remove(card)
            else:
                assert discard[card] > 0, f"no {state.board.card_names[card]} card left"
                discard[card] -= 1
    player = attrs.evolve(state.players[seat], hand=Hand(counts, state.board.card_names))
    players = (*state.players[:seat], player, *state.players[seat + 1 :])
    return attrs.evolve(state, players=players, deck=tuple(deck), discard=tuple(discard))


def set_display(state: GameState, *cards: str | None) -> GameState:
    """Lay out the display from card names, keeping the card total: the old
    display returns to the deck and the new cards come out of it."""
    names = state.board.card_names
    deck = list(state.deck) + [c for c in state.display if c is not None]
    display = []
    for name in cards:
        if name is None:
            display.append(None)
        else:
            card = names.index(name)
            deck.remove(card)
            display.append(card)
    return attrs.evolve(state, display=tuple(display), deck=tuple(deck))


def set_deck(state: GameState, *cards: str) -> GameState:
    """Put the named cards on top of the deck, in order (taken from the rest of the deck)."""
    names = state.board.card_names
    deck = list(state.deck)
    top = []
    for name in cards:
        card = names.index(name)
        deck.remove(card)
        top.append(card)
    return attrs.evolve(state, deck=tuple(top + deck))


def card_total(state: GameState) -> int:
    return (
        len(state.deck)
        + sum(1 for c in state.display if c is not None)
        + sum(state.discard)
        + sum(p.hand.total for p in state.players)
    )


def route_id(state: GameState, a: str, b: str, color: str | None = None) -> int:
    for route in state.board.routes:
        if {route.a, route.b} == {a, b} and (color is None or route.color == color):
            return route.id
    raise LookupError((a, b, color))


def claim(state: GameState, seat: int, rid: int, color: str | None, wilds: int = 0) -> GameState:
    """Give the seat the exact cards and claim the route with them."""
    route = state.board.routes[rid]
    cards = {"wild": wilds}
    if color is not None:
        cards[color] = route.length - wilds
    state = attrs.evolve(state, pending=ttr_core.Pending("turn", seat))
    state = with_hand(state, seat, **cards)
    return ttr_core.apply(state, ttr_core.ClaimRoute(seat, rid, color, wilds))

"""Long tickets (variant ``tp_long``), dealt as Europe deals them.

The map marks its long tickets (``long = true``, a ticket field). Each
seat's starting deal is one long ticket and regular ones (hook
``ttr_deal_tickets``); the long tickets not dealt go out of the game, face
down (``effects.box_tickets``), in ``ttr_setup``, and so do the long ones
seats return from their starting deal, at the end of the first turn
(``ttr_between_turns``). A ticket draw deals regular tickets only. Its
``ttr_determinize`` re-deals the tickets a seat cannot see so that these
rules still hold: the box holds long tickets only, each other seat at most
one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import attrs

from ttr_core import Board, GameState, PlayerView, effects, hookimpl

NAME = "tp_long"


def is_long(board: Board, ticket: int) -> bool:
    """Whether the map marks ``ticket`` as a long ticket."""
    return bool(board.tickets[ticket].extra.get("long"))


def _box_longs(state: GameState) -> GameState | None:
    """Every long ticket of the ticket deck and its discard pile into the box."""
    board = state.board
    longs = [t for t in (*state.ticket_deck, *state.ticket_discard) if is_long(board, t)]
    return effects.box_tickets(state, longs) if longs else None


class LongTickets:
    """Long tickets: one per seat at the start, the others boxed."""

    description = "long tickets: one long ticket dealt to each seat, the others boxed"

    @hookimpl
    def ttr_deal_tickets(self, state: GameState, count: int, start: bool) -> Sequence[int] | None:
        board, deck = state.board, state.ticket_deck
        want = min(count, len(deck))
        regular = [t for t in deck if not is_long(board, t)]
        if not start:
            return regular[:want] if len(regular) >= want else None
        longs = [t for t in deck if is_long(board, t)]
        if not longs or not want or len(regular) < want - 1:
            return None
        return [longs[0], *regular[: want - 1]]

    @hookimpl
    def ttr_setup(self, state: GameState) -> GameState | None:
        return _box_longs(state)

    @hookimpl
    def ttr_between_turns(self, state: GameState) -> GameState | None:
        return _box_longs(state)

    @hookimpl
    def ttr_determinize(
        self, state: GameState, view: PlayerView, rng: random.Random
    ) -> GameState | None:
        """The tickets the viewer cannot see -- other seats' tickets and hidden
        offers, the ticket deck and the box -- re-dealt as the game deals them:
        a starting offer one long ticket and regular ones, a later draw regular
        ones only, the box long ones only, each other seat holding at most one
        long ticket, and after the first turn the deck regular ones only."""
        board = state.board
        others = [s for s in range(state.num_players) if s != view.viewer]
        pending = state.pending
        # Offers the viewer cannot see: every starting offer still queued (a view
        # shows their sizes only) and another seat's offer waiting for its choice.
        queued = list(state.start_offers)
        waiting = pending if pending is not None and pending.player != view.viewer else None
        waiting_offer = waiting.offered if waiting is not None else ()
        hidden = [t for s in others for t in state.players[s].tickets]
        hidden += [t for offer in queued for t in offer]
        hidden += [*waiting_offer, *state.ticket_deck, *state.boxed_tickets]
        longs = [t for t in hidden if is_long(board, t)]
        regular = [t for t in hidden if not is_long(board, t)]
        rng.shuffle(longs)
        rng.shuffle(regular)
        # A starting offer holds exactly one long ticket, the box only long ones;
        # the rest go to seats holding at most one, or (first turn) to the deck.
        starting = waiting is not None and waiting.kind == "start_tickets" and waiting_offer
        offers = [[longs.pop()] if offer and longs else [] for offer in queued]
        first = [longs.pop()] if starting and longs else []
        box = [longs.pop() for _ in range(len(state.boxed_tickets))]
        holders = [s for s in others if state.players[s].tickets]
        places: list[int | None] = [*holders, *([None] * len(longs) if not state.turn else [])]
        held: dict[int, list[int]] = {s: [] for s in others}
        deck: list[int] = []
        for place, ticket in zip(rng.sample(places, len(longs)), longs, strict=True):
            (deck if place is None else held[place]).append(ticket)
        players = list(state.players)
        for seat in others:
            mine = held[seat]
            mine += [regular.pop() for _ in range(len(players[seat].tickets) - len(mine))]
            players[seat] = attrs.evolve(players[seat], tickets=tuple(mine))
        for offer, size in zip(offers, map(len, queued), strict=True):
            offer += [regular.pop() for _ in range(size - len(offer))]
        if waiting is not None and waiting_offer:
            first += [regular.pop() for _ in range(len(waiting_offer) - len(first))]
            pending = attrs.evolve(waiting, offered=tuple(first))
        deck += regular
        rng.shuffle(deck)
        return attrs.evolve(
            state,
            players=tuple(players),
            start_offers=tuple(map(tuple, offers)),
            pending=pending,
            ticket_deck=tuple(deck),
            boxed_tickets=tuple(box),
        )

    @hookimpl
    def ttr_check_state(self, state: GameState) -> Iterator[str]:
        board = state.board
        if any(not is_long(board, t) for t in state.boxed_tickets):
            yield f"{NAME}: a regular ticket is in the box: {state.boxed_tickets}"
        for seat, player in enumerate(state.players):
            held = [t for t in player.tickets if is_long(board, t)]
            if len(held) > 1:
                yield f"{NAME}: seat {seat} holds {len(held)} long tickets {held}"
        if state.turn and any(
            is_long(board, t) for t in (*state.ticket_deck, *state.ticket_discard)
        ):
            yield f"{NAME}: a long ticket is still to be drawn after the first turn"

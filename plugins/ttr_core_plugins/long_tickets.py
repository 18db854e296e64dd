"""Long tickets (Ticket to Ride: Europe).

The map marks some tickets long (ticket field ``long``, declared in the map's
own ``[fields]``: a game on a map without long tickets is refused). They form
a deck apart:

* The starting deal gives each seat one long ticket and regular ones to make
  the map's ``start_dealt`` (Europe: 1 long + 3 regular, keep at least 2,
  any mix). The long tickets nobody was dealt go to the box, face down, when
  the game is set up.
* A long ticket a seat does not keep goes to the box too. The core puts the
  unkept starting tickets under the ticket deck; this variant boxes the long
  ones among them at the end of the first turn (hook ``ttr_between_turns``,
  the first hook after the starting choices) — until then no draw can reach
  them, since draws deal regular tickets only. Unkept regular tickets stay
  under the deck, as the rules say.
* Every later ticket draw deals regular tickets only (the top ones of the
  deck).

Boxed tickets are out of the game: no view shows them (only how many), no
draw deals them again. ``determinize`` keeps the rule: the tickets a seat
cannot see (other seats' tickets and hidden offers, the deck, the box) are
re-dealt so that the box holds long tickets only, every starting offer one
and every other seat at most one.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Sequence

import attrs

from ttr_core import Board, GameState, PlayerView, effects, hookimpl

#: The variant name this plugin is registered under.
NAME = "long_tickets"
#: The map's ticket field marking a long ticket.
FIELD = "long"


@functools.lru_cache(maxsize=16)
def long_ids(board: Board) -> frozenset[int]:
    """The ids of the board's long tickets (boards hash by identity)."""
    return frozenset(t.id for t in board.tickets if t.extra.get(FIELD))


def is_long(board: Board, ticket: int) -> bool:
    """Whether ``ticket`` is one of the map's long tickets."""
    return ticket in long_ids(board)


@hookimpl
def ttr_check_game(board: Board, players: int) -> str | None:
    longs = len(long_ids(board))
    if not longs:
        return (
            f"the map {board.id!r} marks no long ticket (ticket field {FIELD!r}, as "
            "Europe's map declares it in its [fields])"
        )
    if longs < players:
        return f"the map has {longs} long tickets: too few to deal one to each of {players} seats"
    regular = len(board.tickets) - longs
    wanted = players * max(board.rules.start_tickets_dealt - 1, 0)
    if regular < wanted:
        return f"the map has {regular} regular tickets, {wanted} are dealt at the start"
    return None


@hookimpl
def ttr_deal_tickets(state: GameState, count: int, start: bool) -> Sequence[int]:
    longs = long_ids(state.board)
    deck = state.ticket_deck
    want = min(count, len(deck))
    regular = [t for t in deck if t not in longs]
    if start and want:
        first = next((t for t in deck if t in longs), None)
        if first is not None:
            return [first, *regular[: want - 1]]
    # A draw takes the top regular tickets; a long one only if nothing else is
    # left (never after the first turn: the box has them all by then).
    return [*regular, *(t for t in deck if t in longs)][:want]


def _box_longs(state: GameState) -> GameState | None:
    """Every long ticket on the ticket deck or its discard pile into the box."""
    longs = long_ids(state.board)
    loose = [t for t in (*state.ticket_deck, *state.ticket_discard) if t in longs]
    return effects.box_tickets(state, loose) if loose else None


@hookimpl
def ttr_setup(state: GameState) -> GameState | None:
    return _box_longs(state)  # the long tickets nobody was dealt


@hookimpl
def ttr_between_turns(state: GameState) -> GameState | None:
    return _box_longs(state)  # the long tickets not kept at the start


@hookimpl
def ttr_determinize(state: GameState, view: PlayerView, rng: random.Random) -> GameState:
    """Re-deal the tickets the viewer cannot see -- other seats' tickets, the
    starting offers still queued (a view shows their sizes only), another
    seat's offer waiting for its choice, the ticket deck and the box -- by the
    rule: a starting offer holds one long ticket, a draw none, the box long
    tickets only, each other seat at most one; the long tickets left go to
    seats holding tickets or, during the first turn (returned ones wait there
    until it ends), to the ticket deck."""
    longs = long_ids(state.board)
    others = [s for s in range(state.num_players) if s != view.viewer]
    pending = state.pending
    waiting = pending if pending is not None and pending.player != view.viewer else None
    waiting_offer = waiting.offered if waiting is not None else ()
    queued = list(state.start_offers)
    hidden = [t for s in others for t in state.players[s].tickets]
    hidden += [t for offer in queued for t in offer]
    hidden += [*waiting_offer, *state.ticket_deck, *state.boxed_tickets]
    long_pool = [t for t in hidden if t in longs]
    regular = [t for t in hidden if t not in longs]
    rng.shuffle(long_pool)
    rng.shuffle(regular)
    # Exactly one long ticket per starting offer, then the box; the rest where
    # a long ticket may be.
    offers = [[long_pool.pop()] if offer and long_pool else [] for offer in queued]
    starting = waiting is not None and waiting.kind == "start_tickets"
    first = [long_pool.pop()] if starting and waiting_offer and long_pool else []
    box = [long_pool.pop() for _ in range(min(len(state.boxed_tickets), len(long_pool)))]
    players = list(state.players)
    holders = [s for s in others if players[s].tickets]
    places: list[int | None] = [*holders, *([None] * len(long_pool) if not state.turn else [])]
    rng.shuffle(places)
    held: dict[int, list[int]] = {s: [] for s in others}
    deck: list[int] = []
    for place in places[: len(long_pool)]:
        (deck if place is None else held[place]).append(long_pool.pop())
    regular += long_pool  # only in a state no game reaches: the checks say so
    rng.shuffle(regular)
    while len(box) < len(state.boxed_tickets):
        box.append(regular.pop())
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
def ttr_check_state(state: GameState) -> Iterator[str]:
    """The deal and the box, in any state a game reaches (a state dealt by
    ``determinize`` or read by ``from_json`` included)."""
    longs = long_ids(state.board)
    if len(state.boxed_tickets) > len(longs):
        yield f"{NAME}: {len(state.boxed_tickets)} tickets boxed, the map has {len(longs)} long"
    for seat, player in enumerate(state.players):
        held = [t for t in player.tickets if t in longs]
        if len(held) > 1:
            yield f"{NAME}: seat {seat} holds {len(held)} long tickets {held}"
    for ticket in state.ticket_discard:
        if ticket in longs:
            yield f"{NAME}: long ticket {ticket} is on the ticket discard pile"
    yield from dealt_by_the_rule(state)


def dealt_by_the_rule(state: GameState) -> Iterator[str]:
    """What the deal and the box keep: the box holds long tickets only; each
    starting offer one long ticket; no draw offers a long ticket; none is left
    in the ticket deck once the first turn is over."""
    longs = long_ids(state.board)
    regular = [t for t in state.boxed_tickets if t not in longs]
    if regular:
        yield f"{NAME}: regular tickets {regular} are in the box"
    pending = state.pending
    offers = list(state.start_offers)
    if pending is not None and pending.kind == "start_tickets":
        offers.append(pending.offered)
    for offer in offers:
        if sum(t in longs for t in offer) != 1:
            yield f"{NAME}: the starting offer {list(offer)} holds not exactly one long ticket"
    if pending is not None and pending.kind == "keep_tickets":
        offered = [t for t in pending.offered if t in longs]
        if offered:
            yield f"{NAME}: long tickets {offered} are offered by a draw"
    if state.turn > 0:
        stray = [t for t in state.ticket_deck if t in longs]
        if stray:
            yield f"{NAME}: long tickets {stray} are still in the ticket deck after the first turn"


@hookimpl
def ttr_check_transition(before: GameState, after: GameState) -> Iterator[str]:
    lost = set(before.boxed_tickets) - set(after.boxed_tickets)
    if lost:
        yield f"{NAME}: tickets {sorted(lost)} left the box"
    if before.turn > 0 and after.boxed_tickets != before.boxed_tickets:
        yield f"{NAME}: the box changed after the first turn"

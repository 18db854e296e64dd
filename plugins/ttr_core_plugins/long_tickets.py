"""Long tickets (Ticket to Ride: Europe).

The map marks some tickets long (ticket field ``long``, declared in the map's
own ``[fields]``: a game on a map without long tickets is refused). They form
a deck apart:

* The starting deal gives each seat one long ticket and regular ones to make
  the map's ``start_dealt`` (Europe: 1 long + 3 regular, keep at least 2,
  any mix). The long tickets nobody was dealt go to the box, face down, when
  the game is set up.
* Every starting ticket a seat does not keep, long or regular, goes to the
  box at once. The map says so (``[rules.tickets] start_returned = "box"``)
  and the core does it; a map using this variant without that rule is
  refused, since an unkept long ticket must never reach the deck.
* Every later ticket draw deals regular tickets only (the top ones of the
  deck); those not kept go where the map's ``returned`` says (Europe: under
  the deck).

Boxed tickets are out of the game: no view shows them (only how many), no
draw deals them again. From set-up on, every long ticket is in a starting
offer (one in each), in a seat's hands (at most one each) or in the box, and
never in the ticket deck or its discard pile; the box holds regular tickets
too once seats have put some away. ``determinize`` keeps the rule: the
tickets a seat cannot see (other seats' tickets and hidden offers, the deck,
the box) are re-dealt so that every starting offer holds one long ticket,
every other seat at most one, the deck none, and the box the long tickets
left with regular ones to make up its size.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Sequence

import attrs

from ttr_core import Board, GameRules, GameState, NativeRule, PlayerView, effects, hookimpl

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
    where = board.rules.start_returned_tickets
    if where != "box":
        # Unkept long tickets must leave play at once: in the deck a draw could deal them.
        return (
            f"the map {board.id!r} puts unkept starting tickets {where!r}: long tickets "
            'need [rules.tickets] start_returned = "box" (every unkept starting ticket '
            "to the box, as Europe's rules say)"
        )
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
    # A draw takes the top regular tickets (no long one is in the deck after
    # set-up: the checks say so).
    return regular[:want]


@hookimpl
def ttr_native_rules(rules: GameRules) -> list[NativeRule]:
    """All this variant does during play, in the compiled engine's terms: draws
    deal regular tickets only. (Set-up and the starting deal are new_game's,
    in Python.)"""
    return [NativeRule("regular_draws", tickets=tuple(sorted(long_ids(rules.board))))]


@hookimpl
def ttr_setup(state: GameState) -> GameState | None:
    """The long tickets nobody was dealt into the box (the unkept ones follow at
    each seat's choice, by the map's ``start_returned``)."""
    longs = long_ids(state.board)
    loose = [t for t in (*state.ticket_deck, *state.ticket_discard) if t in longs]
    return effects.box_tickets(state, loose) if loose else None


@hookimpl
def ttr_determinize(state: GameState, view: PlayerView, rng: random.Random) -> GameState:
    """Re-deal the tickets the viewer cannot see -- other seats' tickets, the
    starting offers still queued (a view shows their sizes only), another
    seat's offer waiting for its choice, the ticket deck and the box -- by the
    rule: a starting offer holds one long ticket, a draw none, the deck none;
    each long ticket left goes to another seat holding tickets (one each) or
    to the box, and regular tickets make up the box's size (the starting
    tickets put away may be regular ones)."""
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
    # Exactly one long ticket per starting offer; the rest where a long ticket may be.
    offers = [[long_pool.pop()] if offer and long_pool else [] for offer in queued]
    starting = waiting is not None and waiting.kind == "start_tickets"
    first = [long_pool.pop()] if starting and waiting_offer and long_pool else []
    players = list(state.players)
    holders = [s for s in others if players[s].tickets]
    # A place per seat holding tickets and per boxed ticket: the state the view
    # came from fills some of them with the long tickets left, so they fit.
    places: list[int | None] = [*holders, *([None] * len(state.boxed_tickets))]
    rng.shuffle(places)
    held: dict[int, list[int]] = {s: [] for s in others}
    box: list[int] = []
    for place in places[: len(long_pool)]:
        (box if place is None else held[place]).append(long_pool.pop())
    regular += long_pool  # only in a state no game reaches: the checks say so
    rng.shuffle(regular)
    while len(box) < len(state.boxed_tickets):
        box.append(regular.pop())
    rng.shuffle(box)
    for seat in others:
        mine = held[seat]
        mine += [regular.pop() for _ in range(len(players[seat].tickets) - len(mine))]
        players[seat] = attrs.evolve(players[seat], tickets=tuple(mine))
    for offer, size in zip(offers, map(len, queued), strict=True):
        offer += [regular.pop() for _ in range(size - len(offer))]
    if waiting is not None and waiting_offer:
        first += [regular.pop() for _ in range(len(waiting_offer) - len(first))]
        pending = attrs.evolve(waiting, offered=tuple(first))
    return attrs.evolve(
        state,
        players=tuple(players),
        start_offers=tuple(map(tuple, offers)),
        pending=pending,
        ticket_deck=tuple(regular),
        boxed_tickets=tuple(box),
    )


@hookimpl
def ttr_check_state(state: GameState) -> Iterator[str]:
    """The deal and the box, in any state a game reaches (a state dealt by
    ``determinize`` or read by ``from_json`` included)."""
    longs = long_ids(state.board)
    for seat, player in enumerate(state.players):
        held = [t for t in player.tickets if t in longs]
        if len(held) > 1:
            yield f"{NAME}: seat {seat} holds {len(held)} long tickets {held}"
    yield from dealt_by_the_rule(state)


def dealt_by_the_rule(state: GameState) -> Iterator[str]:
    """What the deal and the box keep from set-up on: each starting offer holds
    one long ticket; no draw offers a long ticket; no long ticket is in the
    ticket deck or its discard pile (the undealt ones were boxed at set-up,
    the unkept ones at their seat's choice); the box holds the undealt long
    tickets and at most what the seats that chose put away."""
    longs = long_ids(state.board)
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
    for pile, tickets in (("deck", state.ticket_deck), ("discard pile", state.ticket_discard)):
        stray = [t for t in tickets if t in longs]
        if stray:
            yield f"{NAME}: long tickets {stray} are in the ticket {pile} (they go to the box)"
    yield from _box_size(state, longs, len(offers))


def _box_size(state: GameState, longs: frozenset[int], unchosen: int) -> Iterator[str]:
    """The box: the long tickets nobody was dealt, and what the seats that made
    their starting choice put away (``start_dealt - start_keep`` each at most;
    a game ended during the choices boxes the offers left whole)."""
    mr = state.board.rules
    seats = state.num_players
    undealt = len(longs) - seats
    boxed_longs = sum(t in longs for t in state.boxed_tickets)
    if boxed_longs < undealt:
        yield (
            f"{NAME}: the box holds {boxed_longs} long tickets, fewer than the {undealt} "
            "nobody was dealt"
        )
    ended_choosing = state.pending is None and state.turn == 0
    chosen = seats - unchosen
    most = undealt + chosen * max(mr.start_tickets_dealt - mr.start_tickets_keep, 0)
    if ended_choosing:
        most = undealt + seats * mr.start_tickets_dealt
    if len(state.boxed_tickets) > most:
        yield (
            f"{NAME}: the box holds {len(state.boxed_tickets)} tickets, more than the {most} "
            f"it may ({undealt} long ones nobody was dealt and what {chosen} seats that "
            "chose put away)"
        )


@hookimpl
def ttr_check_transition(before: GameState, after: GameState) -> Iterator[str]:
    lost = set(before.boxed_tickets) - set(after.boxed_tickets)
    if lost:
        yield f"{NAME}: tickets {sorted(lost)} left the box"
    added = set(after.boxed_tickets) - set(before.boxed_tickets)
    pending = before.pending
    if pending is not None and pending.kind == "start_tickets":
        kept = set(after.players[pending.player].tickets)
        put_away = {t for t in pending.offered if t not in kept}
        if added != put_away:
            yield (
                f"{NAME}: a starting choice boxed {sorted(added)}, not the tickets put "
                f"away {sorted(put_away)}"
            )
    elif added:
        yield f"{NAME}: tickets {sorted(added)} were boxed after the starting choices"

"""What the checks change to probe a state: hidden information exchanged
(another deal a seat cannot tell apart, to check that views and bots do not
depend on it), values reachable from a view, and illegal actions made from
legal ones.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

import attrs

from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_core.model.board import Board
from ttr_core.model.gamerules import GameRules
from ttr_core.model.state import (
    UNCLAIMED,
    GameState,
    Hand,
    PlayerState,
)
from ttr_core.rules.engine import legal_actions

__all__ = ["hidden_changes", "illegal_candidates", "mutants_of", "reachable"]


def _rng(state: GameState, salt: str) -> random.Random:
    """A generator fixed by the state (so that a check repeats exactly)."""
    pending = state.pending
    key = (state.seed, state.turn, state.shuffles, len(state.deck), state.owners.count(UNCLAIMED))
    return random.Random(f"{salt}:{key}:{pending.kind if pending else None}")


def reachable(value: object, path: str = "view") -> Iterator[tuple[str, object]]:
    """Every value reachable from ``value`` (attrs fields, mapping keys and
    values, sequence and set items), with its path. Boards and rule sets are
    public configuration and are not entered; a :class:`~ttr_core.Hand` is
    not entered either (its card counts are the value itself). What the
    checks of view secrecy walk: no game state may be among these."""
    yield path, value
    if isinstance(value, Board | GameRules | Hand):
        return
    if attrs.has(type(value)):
        for field in attrs.fields(cast(Any, type(value))):
            yield from reachable(getattr(value, field.name), f"{path}.{field.name}")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from reachable(key, f"{path}[{key!r}] (key)")
            yield from reachable(item, f"{path}[{key!r}]")
    elif isinstance(value, tuple | list | set | frozenset):
        for i, item in enumerate(value):
            yield from reachable(item, f"{path}[{i}]")


def _replace(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1 :])


def _unknown_cards(player: PlayerState) -> list[int]:
    known = player.known or (0,) * len(player.hand.counts)
    return [
        card
        for card, (n, k) in enumerate(zip(player.hand.counts, known, strict=True))
        for _ in range(n - k)
    ]


def exchange_hand_and_deck(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """Exchange one of ``seat``'s unknown cards with a deck card of another colour."""
    player = state.players[seat]
    cards = _unknown_cards(player)
    for card in rng.sample(cards, len(cards)):
        for i, other in enumerate(state.deck):
            if other != card:
                counts = list(player.hand.counts)
                counts[card] -= 1
                counts[other] += 1
                new = attrs.evolve(player, hand=Hand(tuple(counts), player.hand.names))
                return attrs.evolve(
                    state,
                    players=_replace(state.players, seat, new),
                    deck=_replace(state.deck, i, card),
                )
    return None


def _reorder_deck(state: GameState, rng: random.Random) -> GameState | None:
    deck = list(state.deck)
    rng.shuffle(deck)
    return None if tuple(deck) == state.deck else attrs.evolve(state, deck=tuple(deck))


def _exchange_discard_and_deck(state: GameState, rng: random.Random) -> GameState | None:
    discard = list(state.discard)
    held = [card for card, n in enumerate(discard) if n]
    for card in rng.sample(held, len(held)):
        for i, other in enumerate(state.deck):
            if other != card:
                discard[card] -= 1
                discard[other] += 1
                return attrs.evolve(
                    state, discard=tuple(discard), deck=_replace(state.deck, i, card)
                )
    return None


def exchange_seat_ticket(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """Exchange one of ``seat``'s tickets with one of the ticket deck."""
    player = state.players[seat]
    if not player.tickets or not state.ticket_deck:
        return None
    i = rng.randrange(len(player.tickets))
    j = rng.randrange(len(state.ticket_deck))
    tickets = _replace(player.tickets, i, state.ticket_deck[j])
    return attrs.evolve(
        state,
        players=_replace(state.players, seat, attrs.evolve(player, tickets=tickets)),
        ticket_deck=_replace(state.ticket_deck, j, player.tickets[i]),
    )


def _exchange_offer(state: GameState, viewer: int, rng: random.Random) -> GameState | None:
    pending = state.pending
    if not state.ticket_deck:
        return None
    j = rng.randrange(len(state.ticket_deck))
    if pending is not None and pending.player != viewer and pending.offered:
        i = rng.randrange(len(pending.offered))
        offered = _replace(pending.offered, i, state.ticket_deck[j])
        return attrs.evolve(
            state,
            pending=attrs.evolve(pending, offered=offered),
            ticket_deck=_replace(state.ticket_deck, j, pending.offered[i]),
        )
    if state.start_offers and state.start_offers[0]:
        offer = state.start_offers[0]
        i = rng.randrange(len(offer))
        return attrs.evolve(
            state,
            start_offers=_replace(state.start_offers, 0, _replace(offer, i, state.ticket_deck[j])),
            ticket_deck=_replace(state.ticket_deck, j, offer[i]),
        )
    return None


def _exchange_box(state: GameState, rng: random.Random) -> GameState | None:
    """Exchange a boxed ticket (face down, out of the game) with one of the ticket deck."""
    boxed, deck = state.boxed_tickets, state.ticket_deck
    if not boxed or not deck:
        return None
    i, j = rng.randrange(len(boxed)), rng.randrange(len(deck))
    return attrs.evolve(
        state, boxed_tickets=_replace(boxed, i, deck[j]), ticket_deck=_replace(deck, j, boxed[i])
    )


def _other(state: GameState, viewer: int, rng: random.Random) -> int:
    return rng.choice([seat for seat in range(state.num_players) if seat != viewer])


_HIDDEN: dict[str, Callable[[GameState, int, random.Random], GameState | None]] = {
    "another seat's hand against the deck": lambda s, v, r: exchange_hand_and_deck(
        s, _other(s, v, r), r
    ),
    "the deck's order": lambda s, v, r: _reorder_deck(s, r),
    "the discard pile against the deck": lambda s, v, r: _exchange_discard_and_deck(s, r),
    "another seat's tickets": lambda s, v, r: exchange_seat_ticket(s, _other(s, v, r), r),
    "another seat's ticket offer": _exchange_offer,
    "the box against the ticket deck": lambda s, v, r: _exchange_box(s, r),
    "the seed": lambda s, v, r: attrs.evolve(s, seed=r.randrange(2**62)),
}


def hidden_changes(
    state: GameState, viewer: int, rng: random.Random
) -> Iterator[tuple[str, GameState]]:
    """``state`` changed in each way seat ``viewer`` cannot see, where the state
    allows it: (what was changed, the changed state). Variant state is left as
    it is (a variant's hidden parts are its own to check). A change that cannot
    apply gives ``None`` and is left out."""
    for what, change in _HIDDEN.items():
        changed = change(state, viewer, rng)
        if changed is not None:
            yield what, changed


def illegal_candidates(state: GameState, rng: random.Random, limit: int = 12) -> list[Action]:
    """Up to ``limit`` well-formed actions around the legal ones that ``legal_actions``
    does not list (each of the right types): listed actions for other seats or with
    a field moved by one (variants' actions first), and random core actions for any
    seat, route and payment."""
    legal = legal_actions(state)
    listed = set(legal)
    # Variants' actions first (they are few and the least tested), then core ones.
    own = [a for a in legal if type(a) not in _CORE_ACTIONS]
    first = [m for action in rng.sample(own, min(len(own), 4)) for m in mutants_of(state, action)]
    core = [a for a in legal if type(a) in _CORE_ACTIONS]
    pool = [m for action in rng.sample(core, min(len(core), 3)) for m in mutants_of(state, action)]
    pool.extend(_random_core_action(state, rng) for _ in range(limit))
    rng.shuffle(first)
    rng.shuffle(pool)
    pool = first + pool
    found: list[Action] = []
    seen: set[Action] = set()
    for action in pool:
        if action not in listed and action not in seen:
            seen.add(action)
            found.append(action)
            if len(found) >= limit:
                break
    return found


_CORE_ACTIONS = (DrawBlind, DrawFaceUp, ClaimRoute, DrawTickets, KeepTickets, Pass)


def mutants_of(state: GameState, action: Action) -> Iterator[Action]:
    """``action`` with one field changed: another seat, an int moved by one, another
    card name, a ticket set grown or shrunk."""
    cls = type(action)
    if not attrs.has(cls):
        return
    names = state.board.card_names
    for field in attrs.fields(cast(Any, cls)):
        value = getattr(action, field.name)
        changes: list[Any] = []
        if field.name == "player":
            changes = [s for s in range(state.num_players) if s != value]
        elif isinstance(value, bool):
            changes = [not value]
        elif isinstance(value, int):
            changes = [value - 1, value + 1]
        elif isinstance(value, str):
            changes = [c for c in (*names, None) if c != value]
        elif value is None:
            changes = list(names)
        elif isinstance(value, frozenset):
            offered = state.pending.offered if state.pending is not None else ()
            changes = [value - {t} for t in value] + [value | {t} for t in offered]
            changes.append(value | {len(state.board.tickets)})
        for change in changes:
            try:
                yield attrs.evolve(action, **{field.name: change})
            except (TypeError, ValueError):
                continue


def _random_core_action(state: GameState, rng: random.Random) -> Action:
    board = state.board
    seat = rng.randrange(state.num_players)
    kind = rng.randrange(6)
    if kind == 0:
        return DrawBlind(seat)
    if kind == 1:
        return DrawFaceUp(seat, rng.randrange(-1, board.rules.display_size + 1))
    if kind == 2:
        return DrawTickets(seat)
    if kind == 3:
        return Pass(seat)
    if kind == 4:
        route = board.routes[rng.randrange(len(board.routes))]
        color = rng.choice([*board.colors, None])
        wilds = rng.randrange(route.length + 1)
        return ClaimRoute(seat, route.id, color, wilds)
    pending = state.pending
    offered = list(pending.offered) if pending is not None else []
    tickets = rng.sample(offered, rng.randrange(len(offered) + 1))
    if rng.random() < 0.3:
        tickets.append(rng.randrange(len(board.tickets) + 1))
    return KeepTickets(seat, tickets)

"""Determinization: a full game state that agrees with one seat's view.

For information-set search (ISMCTS and the like) a player's bot must reason
about states it cannot see. :func:`determinize` builds one: everything the
view shows is kept as it is, and what the seat cannot see — other hands,
the discard pile, the order of the deck, other seats' tickets and ticket
offers, the ticket deck, a variant's hidden state — is dealt at random, from
a seed, out of what that seat cannot see.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from .board import Board
from .engine import SEED_LIMIT
from .errors import ArgumentError, PluginError, TtrError, show
from .plugin_manager import GameRules, game_rules
from .state import UNCLAIMED, GameState, Hand, Pending, PendingKind, PlayerState
from .views import PlayerView, SeatView, player_view

#: The core's kinds of pending decision, by their string.
_CORE_KINDS: Mapping[str, PendingKind] = {str(kind): kind for kind in PendingKind}


def determinize(view: PlayerView, seed: int) -> GameState:
    """A full game state that agrees with ``view``, what the seat cannot see dealt at random.

    The state is one the seat ``view.viewer`` cannot tell from the real one:
    ``player_view(determinize(view, seed), view.viewer) == view``. Kept from
    the view: the board, the variants and their options, the viewer's hand,
    tickets and ticket offer, the display, the ticket discard pile, every
    seat's cars, routes, score and known cards, the sizes of every hand,
    ticket holding, deck and pile, whose decision of what kind, the turn and
    the end. Dealt at random (from ``seed``) out of the cards the viewer
    cannot see (the game's cards less its hand, the display and the other
    seats' known cards): the rest of each other hand, the discard pile and
    the deck, in a random order; out of the tickets it cannot see (less its
    tickets, its offer and the ticket discard pile): the other seats' tickets,
    their ticket offers (pending or starting) and the ticket deck. Each
    variant rebuilds its own state with its hook ``ttr_determinize`` (hidden
    parts, such as other seats' toll holdings, drawn at random too). The
    state's ``seed``, which drives the game's future shuffles, is drawn from
    ``seed`` too: the real one is secret.

    The same view and seed always give the same state; different seeds give
    different deals. Raises :class:`ArgumentError` for an argument that is
    not a :class:`PlayerView` or an ``int`` seed from 0 to ``2**256 - 1`` (as
    :func:`new_game` takes), or a view that no state
    could give (counts that do not add up); :class:`PluginError` if a
    variant of the game keeps state but has no ``ttr_determinize`` hook, or
    its hook rebuilds state that the seat would see differently.
    """
    if not isinstance(view, PlayerView):
        raise ArgumentError(f"view must be a PlayerView, not {type(view).__name__}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentError(f"seed must be an int, not {show(seed)}")
    if not 0 <= seed < SEED_LIMIT:
        # The same range as new_game's: a seed is a whole number of 256 bits.
        raise ArgumentError(f"seed must be a whole number from 0 to 2**256 - 1, not {show(seed)}")
    rules = _rules(view)
    rebuilt = {impl.variant for impl in rules.determinize}
    for impl in rules.setup:
        if impl.variant not in rebuilt:
            raise PluginError(
                f"variant {impl.variant!r} keeps state (it has a ttr_setup hook) but has no "
                "ttr_determinize hook, so its games cannot be determinized",
                variant=impl.variant,
                hook="ttr_determinize",
            )
    rng = random.Random(f"ttr-core:determinize:{seed}")
    try:
        state = _core_state(view, rules, rng)
    except TtrError:
        raise
    except (TypeError, ValueError, LookupError, AttributeError) as exc:
        raise ArgumentError(
            f"view is not one that player_view gives: {type(exc).__name__}: {exc}"
        ) from exc
    if rules.determinize:
        state = rules.run_determinize(state, view, rng)
    _check_agreement(state, view, rules)
    return state


def _rules(view: PlayerView) -> GameRules:
    """The rule set of the view's game (``ArgumentError`` for a view that names none)."""
    board = view.board
    if not isinstance(board, Board):
        raise ArgumentError(f"view.board must be a Board, not {type(board).__name__}")
    seats = view.seats
    if not isinstance(seats, tuple) or not seats:
        raise ArgumentError(f"view.seats must be a non-empty tuple of SeatViews, not {seats!r}")
    try:
        options = {variant: dict(values) for variant, values in view.options}
    except (TypeError, ValueError) as exc:
        raise ArgumentError(f"view.options is not a game's options: {view.options!r}") from exc
    variants = view.variant_names
    if not isinstance(variants, tuple) or not all(isinstance(v, str) for v in variants):
        raise ArgumentError(f"view.variant_names must be a tuple of names, not {variants!r}")
    return game_rules(board, len(seats), variants, options)


def _known(seat: SeatView, names: Sequence[str]) -> tuple[int, ...]:
    """``seat``'s cards that every player knows of, as ``PlayerState.known`` holds them:
    a count per card index, or ``()`` when none is known (``SeatView.known``)."""
    known = seat.known
    if not known:
        return ()
    for name, count in known.items():
        if name not in names or isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ArgumentError(f"seat {seat.seat}: known cards {known!r} are not card counts")
    return tuple(known.get(name, 0) for name in names)


def _counts(cards: Sequence[int], size: int) -> tuple[int, ...]:
    counts = [0] * size
    for card in cards:
        counts[card] += 1
    return tuple(counts)


class _Pile:
    """Shuffled cards or tickets dealt from the top (the viewer cannot see them)."""

    def __init__(self, items: list[int], rng: random.Random, what: str) -> None:
        rng.shuffle(items)
        self.items = items
        self.what = what

    def deal(self, count: int) -> tuple[int, ...]:
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ArgumentError(f"the view has {count!r} {self.what} where a count is expected")
        if count > len(self.items):
            raise ArgumentError(
                f"the view's {self.what} do not add up: {count} more are shown held than "
                f"the {len(self.items)} it cannot see"
            )
        dealt = tuple(self.items[:count])
        del self.items[:count]
        return dealt


def _core_state(view: PlayerView, rules: GameRules, rng: random.Random) -> GameState:
    """The state without variant state: the view's facts, the unseen dealt at random."""
    board = view.board
    names = board.card_names
    index = {name: i for i, name in enumerate(names)}
    seats = view.seats
    n = len(seats)
    viewer = view.viewer
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < n:
        raise ArgumentError(f"view.viewer must be a seat from 0 to {n - 1}, not {viewer!r}")
    for i, seat in enumerate(seats):
        if not isinstance(seat, SeatView) or seat.seat != i:
            raise ArgumentError(f"view.seats[{i}] must be the SeatView of seat {i}, not {seat!r}")
    seed = rng.randrange(2**53)

    # Transportation cards: the game's cards less what the viewer sees.
    hand = tuple(view.hand.counts)
    if len(hand) != len(names) or seats[viewer].hand_size != sum(hand):
        raise ArgumentError("view.hand does not match the viewer's hand size or the board's cards")
    display = tuple(None if name is None else index[name] for name in view.display)
    known = [_known(seat, names) for seat in seats]
    unseen = [total - held for total, held in zip(board.deck, hand, strict=True)]
    for card in display:
        if card is not None:
            unseen[card] -= 1
    for other in range(n):
        if other != viewer:
            for card, count in enumerate(known[other]):
                unseen[card] -= count
    if any(count < 0 for count in unseen):
        over = [names[card] for card, count in enumerate(unseen) if count < 0]
        raise ArgumentError(f"the view shows more {', '.join(over)} cards than the game has")
    cards = _Pile([c for c, k in enumerate(unseen) for _ in range(k)], rng, "cards")
    hands = []
    for seat in seats:
        if seat.seat == viewer:
            hands.append(hand)
        else:
            mine = known[seat.seat]
            dealt = _counts(cards.deal(seat.hand_size - sum(mine)), len(names))
            hands.append(
                tuple(a + b for a, b in zip(mine or (0,) * len(names), dealt, strict=True))
            )
    discard = _counts(cards.deal(view.discard_size), len(names))
    deck = cards.deal(view.deck_size)
    if cards.items:
        raise ArgumentError(
            f"the view's cards do not add up: {len(cards.items)} cards the viewer cannot see "
            "are in no hand, pile or deck"
        )

    # Tickets: every ticket less those the viewer sees.
    pending_kind = view.pending
    mine_offer = pending_kind is not None and view.current_player == viewer
    visible = (*view.tickets, *view.ticket_discard, *(view.offered if mine_offer else ()))
    unseen_tickets = set(range(len(board.tickets)))
    for ticket in visible:
        if ticket not in unseen_tickets:
            raise ArgumentError(f"the view shows ticket {ticket!r} twice, or one the game lacks")
        unseen_tickets.discard(ticket)
    tickets = _Pile(sorted(unseen_tickets), rng, "tickets")
    held = [
        tuple(view.tickets) if seat.seat == viewer else tickets.deal(seat.tickets_held)
        for seat in seats
    ]
    if seats[viewer].tickets_held != len(view.tickets):
        raise ArgumentError("view.tickets does not match the viewer's number of tickets held")
    if (pending_kind is None) != (view.termination is not None):
        raise ArgumentError(
            f"view.pending is {pending_kind!r} and view.termination {view.termination!r}: "
            "a game waits for a decision exactly while it is not over"
        )
    pending = None
    if pending_kind is not None:
        player = view.current_player
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise ArgumentError(f"view.current_player must be a seat, not {player!r}")
        kind: str = _CORE_KINDS.get(pending_kind, pending_kind)
        if mine_offer:
            offered, min_keep = tuple(view.offered), view.min_keep
        else:
            offered, min_keep = tickets.deal(view.offer_size), view.offer_min_keep
        pending = Pending(kind, player, offered, min_keep)
    start_offers = tuple(tickets.deal(size) for size in view.start_offer_sizes)
    ticket_deck = tickets.deal(view.ticket_deck_size)
    if tickets.items:
        raise ArgumentError(
            f"the view's tickets do not add up: {len(tickets.items)} tickets the viewer "
            "cannot see are in no hand, offer or deck"
        )

    owners = [UNCLAIMED] * len(board.routes)
    for owner, routes in [(s.seat, s.routes) for s in seats] + [
        (o.owner, o.routes) for o in view.others
    ]:
        for route in routes:
            if owners[route] != UNCLAIMED:
                raise ArgumentError(f"the view shows route {route} claimed twice")
            owners[route] = owner
    mr = board.rules
    players = []
    for seat in seats:
        start = mr.start_scores[seat.seat] if seat.seat < len(mr.start_scores) else 0
        routes_points = sum(mr.route_points[board.routes[r].length] for r in seat.routes)
        players.append(
            PlayerState(
                hand=Hand(hands[seat.seat], names),
                tickets=held[seat.seat],
                cars=seat.cars,
                routes=tuple(seat.routes),
                score=seat.score,
                # The running score is the start score, the routes' points and these.
                play_points=seat.score - start - routes_points,
                known=known[seat.seat],
            )
        )
    return GameState(
        board=board,
        rules=rules,
        seed=seed,
        players=tuple(players),
        deck=deck,
        display=display,
        discard=discard,
        ticket_deck=ticket_deck,
        ticket_discard=tuple(view.ticket_discard),
        owners=tuple(owners),
        pending=pending,
        start_offers=start_offers,
        final_turns=view.final_turns,
        passes=view.passes,
        turn=view.turn,
        shuffles=view.shuffles,
        termination=view.termination,
        ply=view.ply,
        forfeit=view.forfeit,
    )


def _owner(rules: GameRules, key: str) -> str | None:
    """The variant whose view key ``key`` is."""
    for variant in rules.variants:
        if key == variant or key.startswith(variant + "."):
            return variant
    return None


def _check_agreement(state: GameState, view: PlayerView, rules: GameRules) -> None:
    """The seat must see ``state`` exactly as ``view``: else name who rebuilt it wrong."""
    seen = player_view(state, view.viewer)
    if seen == view:
        return
    keys = set(seen.variants) | set(view.variants)
    wrong = sorted(
        k for k in keys if seen.variants.get(k, _MISSING) != view.variants.get(k, _MISSING)
    )
    if wrong:
        variant = _owner(rules, wrong[0])
        raise PluginError(
            f"variant {variant!r}: hook ttr_determinize rebuilt variant state that the seat "
            f"sees differently (view keys {', '.join(wrong)})",
            variant=variant,
            hook="ttr_determinize",
        )
    if seen.others != view.others and rules.non_seat_owners:
        variant = rules.non_seat_owners[0].variant
        raise PluginError(
            f"variant {variant!r}: hook ttr_determinize rebuilt a non-seat owner that the "
            "seat sees differently",
            variant=variant,
            hook="ttr_determinize",
        )
    fields = [
        f.name
        for f in attrs.fields(PlayerView)
        if f.name != "variants" and getattr(seen, f.name) != getattr(view, f.name)
    ]
    raise ArgumentError(
        f"view is not one that player_view gives: a state built from it shows "
        f"{', '.join(fields)} differently"
    )


_MISSING: Any = object()

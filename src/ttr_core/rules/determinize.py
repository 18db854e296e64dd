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

from ttr_core.errors import ArgumentError, DataError, PluginError, TtrError, show
from ttr_core.hooks import calls
from ttr_core.hooks.resolve import game_rules
from ttr_core.model.board import Board
from ttr_core.model.gamerules import GameRules
from ttr_core.model.state import UNCLAIMED, GameState, Hand, Pending, PendingKind, PlayerState
from ttr_core.model.views import PlayerView, SeatView
from ttr_core.rules.consistency import _check_state, car_accounting, route_ownership
from ttr_core.rules.setup import SEED_LIMIT
from ttr_core.rules.views import player_view

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
    :func:`new_game` takes), or a view that no state could give: counts that
    do not add up, or a state rebuilt from it that breaks a rule every state
    keeps (checked as ``from_json`` checks a loaded state: cars, routes and
    their pairs, scores, decisions, counters, each variant's own state) or
    that shows the seat another view. :class:`PluginError` if a variant of
    the game keeps state but has no ``ttr_determinize`` hook, or its hook
    fails or rebuilds state that the seat would see differently.
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
    return _rebuilt(view, rules, _rng(seed), loading=False)


def check_view(view: PlayerView) -> None:
    """Refuse ``view`` unless some state could give it: what ``from_json`` checks
    of a :class:`PlayerView` it reads (``data.views._structure_view``).

    A state is rebuilt from the view as :func:`determinize` builds it (the
    unseen cards and tickets dealt in order: any deal will do), under the
    loader's state checks, and must show the seat the very view.
    Raises :class:`ArgumentError` whose ``field`` names the view's field at
    fault (a path, ``""`` when none can be named), a variant's own problems
    included (``variants.<key>``); :class:`PluginError` if a variant's hook
    fails on it. A game whose variant keeps state without a
    ``ttr_determinize`` hook cannot be rebuilt: only the core's counts are
    checked then.
    """
    rules = _rules(view)
    rng = random.Random(0)  # any deal will do (an int seeds faster than text)
    if _missing_hook(rules) is not None:
        _core(view, rules, rng, shuffle=False)
        return
    _rebuilt(view, rules, rng, loading=True)


class _Unreal(ArgumentError):
    """A view no state could give; ``field`` names the view's field at fault (a path)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"view is not one that player_view gives: {message}")
        self.field = field


def _rng(seed: int) -> random.Random:
    return random.Random(f"ttr-core:determinize:{seed}")


def _missing_hook(rules: GameRules) -> str | None:
    """A variant of the game that keeps state but cannot rebuild it, if any."""
    rebuilt = {impl.variant for impl in rules.determinize}
    return next((impl.variant for impl in rules.setup if impl.variant not in rebuilt), None)


def _core(
    view: PlayerView, rules: GameRules, rng: random.Random, shuffle: bool = True
) -> GameState:
    """:func:`_core_state`, whatever the view holds: typed errors only."""
    try:
        return _core_state(view, rules, rng, shuffle)
    except TtrError:
        raise
    except (TypeError, ValueError, LookupError, AttributeError) as exc:
        raise _Unreal("", f"{type(exc).__name__}: {show(str(exc), 200)}") from exc


def _rebuilt(view: PlayerView, rules: GameRules, rng: random.Random, loading: bool) -> GameState:
    """The state determinized from ``view``, checked like a loaded state and
    against the view (``loading``: every disagreement is the view's fault)."""
    # Checking a view, any deal will do: the unseen are dealt in order, unshuffled.
    state = _core(view, rules, rng, shuffle=not loading)
    if rules.determinize:
        state = calls.run_determinize(rules, state, view, rng)
    _check_rebuilt(state, view)
    _check_agreement(state, view, rules, loading)
    return state


def _check_rebuilt(state: GameState, view: PlayerView) -> None:
    """The rules every state keeps, on a state rebuilt from ``view``: the loader's
    checks (``rules.consistency._check_state``, the variants' own ``ttr_check_state``
    included), then the testing kit's cheap invariants on what the view shows
    (both routes of a pair claimed where only one may be, which the loader
    leaves out; cars and the end trigger)."""
    try:
        _check_state(state)
    except DataError as exc:
        raise _Unreal(_view_path(exc.path, view), f"{exc.path}: {exc.message}") from None
    for check, field in ((route_ownership, "seats"), (car_accounting, "final_turns")):
        for problem in check(state):
            raise _Unreal(field, problem)


#: Fields of a state (``DataError.path`` heads) → the view's fields that show them.
_SHOWN_AS = {
    "players": "seats",
    "owners": "seats",
    "deck": "deck_size",
    "discard": "discard_size",
    "ticket_deck": "ticket_deck_size",
    "boxed_tickets": "boxed_tickets_size",
    "start_offers": "start_offer_sizes",
}
#: A seat's fields in a state → in its :class:`SeatView`.
_SEAT_SHOWN_AS = {"hand": "hand_size", "tickets": "tickets_held", "play_points": "score"}
_VIEW_FIELDS = frozenset(f.name for f in attrs.fields(PlayerView))


def _view_path(path: str, view: PlayerView) -> str:
    """The view's field that shows what a state's ``path`` names (best effort)."""
    cut = min((i for i in (path.find("."), path.find("[")) if i >= 0), default=len(path))
    head, rest = path[:cut], path[cut:]
    if head == "variant_state":
        key = rest[1:]
        return f"variants.{key}" if key in view.variants else "variants"
    if head == "pending":
        mine = bool(view.offered)
        return {
            ".player": "current_player",
            ".offered": "offered" if mine else "offer_size",
            ".min_keep": "min_keep" if mine else "offer_min_keep",
        }.get(rest.split("[")[0], "pending")
    if head == "players" and "]." in rest:
        index, _, field = rest.partition("].")
        name, sep, tail = field.partition("[")
        return f"seats{index}].{_SEAT_SHOWN_AS.get(name, name)}{sep}{tail}"
    head = _SHOWN_AS.get(head, head)
    return head + rest if head in _VIEW_FIELDS else ""


def _rules(view: PlayerView) -> GameRules:
    """The rule set of the view's game (``ArgumentError`` for a view that names none)."""
    board = view.board
    if not isinstance(board, Board):
        raise _Unreal("board", f"expected a Board, not {type(board).__name__}")
    seats = view.seats
    if not isinstance(seats, tuple) or not seats:
        raise _Unreal("seats", f"expected a non-empty tuple of SeatViews, not {show(seats)}")
    try:
        options = {variant: dict(values) for variant, values in view.options}
    except (TypeError, ValueError) as exc:
        raise _Unreal("options", f"not a game's options: {show(view.options)}") from exc
    variants = view.variant_names
    if not isinstance(variants, tuple) or not all(isinstance(v, str) for v in variants):
        raise _Unreal("variant_names", f"expected a tuple of names, not {show(variants)}")
    return game_rules(board, len(seats), variants, options)


def _known(seat: SeatView, names: Sequence[str]) -> tuple[int, ...]:
    """``seat``'s cards that every player knows of, as ``PlayerState.known`` holds them:
    a count per card index, or ``()`` when none is known (``SeatView.known``)."""
    known = dict(seat.known)  # one copy: a FrozenMap's look-ups are slow
    if not known:
        return ()
    for name, count in known.items():
        if name not in names or isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise _Unreal(f"seats[{seat.seat}].known", f"{show(known)} are not card counts")
    return tuple(known.get(name, 0) for name in names)


def _counts(cards: Sequence[int], size: int) -> tuple[int, ...]:
    return tuple(map(cards.count, range(size)))


class _Pile:
    """Shuffled cards or tickets dealt from the top (the viewer cannot see them)."""

    def __init__(self, items: list[int], rng: random.Random, what: str, shuffle: bool) -> None:
        if shuffle:
            rng.shuffle(items)
        self.items = items
        self.what = what

    def deal(self, count: int, field: str) -> tuple[int, ...]:
        """``count`` from the top, for the view's ``field`` (named when they do not add up)."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise _Unreal(field, f"{show(count)} {self.what} where a count is expected")
        if count > len(self.items):
            raise _Unreal(
                field,
                f"the view's {self.what} do not add up: {show(count)} more are shown held "
                f"than the {len(self.items)} it cannot see",
            )
        dealt = tuple(self.items[:count])
        del self.items[:count]
        return dealt


def _core_state(
    view: PlayerView, rules: GameRules, rng: random.Random, shuffle: bool = True
) -> GameState:
    """The state without variant state: the view's facts, the unseen dealt at random
    (in order, without ``shuffle``)."""
    board = view.board
    names = board.card_names
    index = {name: i for i, name in enumerate(names)}
    seats = view.seats
    n = len(seats)
    viewer = view.viewer
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < n:
        raise _Unreal("viewer", f"the viewer must be a seat from 0 to {n - 1}, not {show(viewer)}")
    for i, seat in enumerate(seats):
        if not isinstance(seat, SeatView) or seat.seat != i:
            raise _Unreal(f"seats[{i}]", f"expected the SeatView of seat {i}, not {show(seat)}")
    seed = rng.randrange(2**53)

    # Transportation cards: the game's cards less what the viewer sees.
    hand = tuple(view.hand.counts)
    if len(hand) != len(names) or seats[viewer].hand_size != sum(hand):
        raise _Unreal("hand", "the hand does not match the viewer's hand size or the map's cards")
    if not all(name is None or name in index for name in view.display):
        raise _Unreal("display", f"expected the map's card names, not {show(view.display)}")
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
        raise _Unreal("hand", f"the view shows more {', '.join(over)} cards than the game has")
    cards = _Pile([c for c, k in enumerate(unseen) for _ in range(k)], rng, "cards", shuffle)
    wild = board.wild
    if display.count(wild) > board.rules.max_face_up_wilds:
        # The engine lays such a display only when no reset could help (E3): the
        # pile and the deck, dealt last, take the hidden wilds first (a stable sort).
        cards.items.sort(key=lambda card: card == wild)
    hands = []
    for seat in seats:
        if seat.seat == viewer:
            hands.append(hand)
        else:
            mine = known[seat.seat]
            dealt = _counts(
                cards.deal(seat.hand_size - sum(mine), f"seats[{seat.seat}].hand_size"), len(names)
            )
            hands.append(
                tuple(a + b for a, b in zip(mine or (0,) * len(names), dealt, strict=True))
            )
    discard = _counts(cards.deal(view.discard_size, "discard_size"), len(names))
    deck = cards.deal(view.deck_size, "deck_size")
    if cards.items:
        raise _Unreal(
            "deck_size",
            f"the view's cards do not add up: {len(cards.items)} cards the viewer cannot see "
            "are in no hand, pile or deck",
        )

    # Tickets: every ticket less those the viewer sees.
    pending_kind = view.pending
    mine_offer = pending_kind is not None and view.current_player == viewer
    visible = (*view.tickets, *view.ticket_discard, *(view.offered if mine_offer else ()))
    unseen_tickets = set(range(len(board.tickets)))
    for ticket in visible:
        if ticket not in unseen_tickets:
            raise _Unreal(
                "tickets", f"the view shows ticket {show(ticket)} twice, or one the game lacks"
            )
        unseen_tickets.discard(ticket)
    tickets = _Pile(sorted(unseen_tickets), rng, "tickets", shuffle)
    held = [
        tuple(view.tickets)
        if seat.seat == viewer
        else tickets.deal(seat.tickets_held, f"seats[{seat.seat}].tickets_held")
        for seat in seats
    ]
    if seats[viewer].tickets_held != len(view.tickets):
        raise _Unreal("tickets", "the tickets do not match the viewer's number of tickets held")
    if (pending_kind is None) != (view.termination is not None):
        raise _Unreal(
            "pending",
            f"the pending decision is {show(pending_kind)} and the termination "
            f"{show(view.termination)}: a game waits for a decision exactly while it is not over",
        )
    pending = None
    if pending_kind is not None:
        player = view.current_player
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise _Unreal("current_player", f"{show(player)} is not a seat (0 to {n - 1})")
        kind: str = _CORE_KINDS.get(pending_kind, pending_kind)
        if mine_offer:
            offered, min_keep = tuple(view.offered), view.min_keep
        else:
            offered, min_keep = tickets.deal(view.offer_size, "offer_size"), view.offer_min_keep
        pending = Pending(kind, player, offered, min_keep)
    start_offers = tuple(
        tickets.deal(size, f"start_offer_sizes[{i}]")
        for i, size in enumerate(view.start_offer_sizes)
    )
    ticket_deck = tickets.deal(view.ticket_deck_size, "ticket_deck_size")
    # The box is face down: any unseen tickets may be in it (a variant's
    # ttr_determinize may re-deal them by its own rule, e.g. long tickets).
    boxed = tickets.deal(view.boxed_tickets_size, "boxed_tickets_size")
    if tickets.items:
        raise _Unreal(
            "ticket_deck_size",
            f"the view's tickets do not add up: {len(tickets.items)} tickets the viewer "
            "cannot see are in no hand, offer, deck or box",
        )

    owners = [UNCLAIMED] * len(board.routes)
    for where, owner, routes in [(f"seats[{s.seat}]", s.seat, s.routes) for s in seats] + [
        (f"others[{i}]", o.owner, o.routes) for i, o in enumerate(view.others)
    ]:
        for i, route in enumerate(routes):
            # Checked here, not only in the state's check: -1 would index the last route.
            if type(route) is not int or not 0 <= route < len(owners):
                raise _Unreal(f"{where}.routes[{i}]", f"there is no route {show(route)}")
            if owners[route] != UNCLAIMED:
                raise _Unreal(f"{where}.routes[{i}]", f"the view shows route {route} claimed twice")
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
        boxed_tickets=boxed,
    )


def _owner(rules: GameRules, key: str) -> str | None:
    """The variant whose view key ``key`` is."""
    for variant in rules.variants:
        if key == variant or key.startswith(variant + "."):
            return variant
    return None


def _check_agreement(
    state: GameState, view: PlayerView, rules: GameRules, loading: bool = False
) -> None:
    """The seat must see ``state`` exactly as ``view``: else name who rebuilt it
    wrong (a loaded view: the view, which no state gives)."""
    seen = player_view(state, view.viewer)
    if seen == view:
        return
    keys = set(seen.variants) | set(view.variants)
    wrong = sorted(
        k for k in keys if seen.variants.get(k, _MISSING) != view.variants.get(k, _MISSING)
    )
    if wrong and loading:
        raise _Unreal(
            f"variants.{wrong[0]}",
            f"a state built from it shows variant entries {', '.join(wrong)} differently",
        )
    if seen.others != view.others and loading:
        raise _Unreal("others", "a state built from it shows the non-seat owners differently")
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
    raise _Unreal(
        fields[0] if fields else "",
        f"a state built from it shows {', '.join(fields)} differently",
    )


_MISSING: Any = object()

"""Effect helpers: the core's own state changes, for plugins to reuse.

Each helper takes a state and returns a new one (states are immutable) and
keeps every invariant the core keeps: every card is in exactly one place
(deck, display, discard pile or a hand), an emptied face-up slot is refilled
and the wild limit is enforced (engine decisions E3/E4), a reshuffle draws
its chance from the game's seed. A move the rules forbid raises
:class:`~ttr_core.IllegalAction` (the state given is unchanged); a call a
plugin should never make (no such seat, an unknown card name) raises
:class:`~ttr_core.PluginError`, and a ``state`` that is not a game state
:class:`~ttr_core.ArgumentError`.

Cards taken face up become known to every player (``PlayerState.known``)
until they are played: :func:`take_face_up` adds the card taken,
:func:`show_cards` the cards a seat shows,
:func:`discard_cards` and :func:`claim_route` take the cards paid from the
known ones first; :func:`draw_cards` (blind) adds nothing.

None of them ends the turn: a plugin action that completes a turn ends with
:func:`end_turn`. Card names are a map's colours and ``"wild"``.

    from ttr_core import effects

    state = effects.discard_cards(state, seat, {"red": 2})
    state = effects.take_face_up(state, seat, slot)
    return effects.end_turn(state)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from ttr_core.errors import DataError, IllegalAction, PluginError, Reason, items_argument, show
from ttr_core.hooks.checks import ticket_places
from ttr_core.model.actions import ClaimRoute
from ttr_core.model.board import Board
from ttr_core.model.state import GameState, Pending, PendingKind, check_state
from ttr_core.rules.checks import _claim_error, face_up_card, route_claim_error
from ttr_core.rules.engine import (
    _CORE_KINDS,
    _finish_turn,
    _replace_player,
    claim_for,
    claim_payment,
    end_turn,
    ticket_draw,
    ticket_return,
)
from ttr_core.rules.kernel import rules as kernel
from ttr_core.rules.kernel.work import Work, shuffler

__all__ = [
    "add_points",
    "box_tickets",
    "cancel_claim",
    "claim_cards",
    "claim_error",
    "claim_route",
    "complete_claim",
    "discard_cards",
    "draw_cards",
    "draw_tickets",
    "end_turn",
    "give_tickets",
    "offer_tickets",
    "return_tickets",
    "reveal_cards",
    "set_pending",
    "show_cards",
    "shuffle",
    "take_face_up",
]


def _seat(state: GameState, seat: object) -> int:
    check_state(state)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise PluginError(f"seat must be 0 to {state.num_players - 1}, not {show(seat)}")
    return seat


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PluginError(f"{name} must be a whole number ≥ 0, not {show(value)}")
    return value


def _card_counts(board: Board, cards: Mapping[str, int]) -> list[int]:
    """A hand-sized list of counts from ``{card name: count}``."""
    if not isinstance(cards, Mapping):
        raise PluginError(f"cards must be a mapping card name → count, not {show(cards)}")
    counts = [0] * len(board.deck)
    for name, count in cards.items():
        if type(name) is not str or name not in board.card_names:
            known = ", ".join(board.card_names)
            raise PluginError(f"no card {show(name)} on {board.id} (cards: {known})")
        index = board.card_index(name)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise PluginError(
                f"card count for {name!r} must be a whole number ≥ 0, not {show(count)}"
            )
        counts[index] += count
    return counts


def _check_held(state: GameState, seat: int, counts: list[int]) -> None:
    hand = state.players[seat].hand.counts
    for card, need in enumerate(counts):
        if need > hand[card]:
            name = state.board.card_names[card]
            raise IllegalAction(
                Reason.CARDS_DO_NOT_PAY,
                f"seat {seat} holds {hand[card]} {name} card(s), not the {show(need)} needed",
            )


# ---------------------------------------------------------------------------
# Transportation cards
# ---------------------------------------------------------------------------


def draw_cards(state: GameState, seat: int, count: int = 1) -> GameState:
    """``seat`` takes the top ``count`` cards of the deck.

    When the deck runs out the discard pile is shuffled into a new deck.
    Raises :class:`IllegalAction` (``no_card_to_draw``) if fewer than
    ``count`` cards are left in deck and discard pile together.
    """
    seat = _seat(state, seat)
    count = _count("count", count)
    available = len(state.deck) + sum(state.discard)
    if available < count:
        raise IllegalAction(
            Reason.NO_CARD_TO_DRAW,
            f"{show(count)} cards asked for; deck and discard hold {available}",
        )
    work = Work(state)
    kernel.draw_cards(work, seat, count)
    return work.published()


def take_face_up(state: GameState, seat: int, slot: int) -> GameState:
    """``seat`` takes the face-up card in ``slot``; the slot is refilled and the
    wild limit enforced, exactly as when the core's draw takes it.

    No rule on what may be taken (a wild as second card ...) is checked here:
    that is the calling rule's business. The card becomes known to every
    player (``PlayerState.known``).
    """
    seat = _seat(state, seat)
    face_up_card(state, slot)  # the slot exists and holds a card
    work = Work(state)
    kernel.take_face_up(work, seat, slot)
    return work.published()


def discard_cards(state: GameState, seat: int, cards: Mapping[str, int]) -> GameState:
    """``seat`` puts ``cards`` (``{name: count}``) from its hand on the discard pile.

    Face-up slots left empty are then filled, and a display with too many
    wilds reset, as soon as the discarded cards allow (E3/E4). Raises
    :class:`IllegalAction` (``cards_do_not_pay``) if the hand lacks them.
    """
    seat = _seat(state, seat)
    paid = _card_counts(state.board, cards)
    _check_held(state, seat, paid)
    work = Work(state)
    kernel.discard(work, seat, enumerate(paid))
    work.fill_empty()
    return work.published()


def claim_cards(state: GameState, claim: ClaimRoute) -> dict[str, int]:
    """The cards ``claim`` pays, by name (``{colour: n, "wild": m}``): for
    :func:`show_cards` when a claim is laid down and waits
    (``ttr_before_claim``). :class:`PluginError` for a claim that is no
    well-formed ``ClaimRoute`` of the game's map."""
    claim = _claim(state, claim)
    board = state.board
    if (
        not 0 <= claim.route < len(board.routes)
        or (claim.color is not None and claim.color not in board.colors)
        or not 0 <= claim.wilds <= board.routes[claim.route].length
    ):
        raise PluginError(f"claim {show(claim)} names no route, colour or payment of {board.id}")
    names = board.card_names
    return {names[card]: n for card, n in claim_payment(state, claim) if n}


def show_cards(state: GameState, seat: int, cards: Mapping[str, int]) -> GameState:
    """``seat`` shows ``cards`` (``{name: count}``) of its hand to every player:
    the seat is known to hold at least that many of each (``PlayerState.known``)
    until it plays them, as a card taken face up is.

    For a payment laid down before it is complete (a claim that waits for
    more cards): another seat's view then knows the hand holds them, and a
    state dealt from that view (:func:`ttr_core.determinize`) deals them to
    the hand. Cards known already count among those shown. Raises
    :class:`IllegalAction` (``cards_do_not_pay``) if the hand lacks them.
    """
    seat = _seat(state, seat)
    shown = _card_counts(state.board, cards)
    _check_held(state, seat, shown)
    known = state.players[seat].known
    if all(n <= (known[card] if known else 0) for card, n in enumerate(shown)):
        return state
    work = Work(state)
    mine = work.seat(seat).own_known()
    for card, n in enumerate(shown):
        if n > mine[card]:
            mine[card] = n
    return work.published()


# ---------------------------------------------------------------------------
# Routes
# ---------------------------------------------------------------------------


def claim_route(
    state: GameState, route: int, owner: int, payment: Mapping[str, int] | None = None
) -> GameState:
    """Claim ``route`` for ``owner``, with the core's bookkeeping and after-claim chain.

    ``owner`` is a seat, or a number from ``state.num_players`` up for an
    owner that is not a seat (a neutral player). A seat pays ``payment``
    (``{card name: count}``, any cards at all: the variant decides what a
    route costs) from its hand into the discard pile, places the route's
    cars and scores its points, as a core claim does; a non-seat owner pays
    nothing and has no cars here (its plugin keeps count). Then the display
    is refilled if needed (E3/E4) and ``ttr_after_claim`` runs with
    ``player=owner``. The turn is not ended.

    The route must be free, and the double-route rules hold: an owner never
    holds both routes of a pair, and a pair's second route is closed when
    the game uses one route of a pair. Raises :class:`IllegalAction` when
    they forbid the claim, the seat lacks the cars or the cards.
    """
    check_state(state)
    if isinstance(owner, bool) or not isinstance(owner, int) or owner < 0:
        raise PluginError(f"owner must be a seat or a non-seat owner number, not {show(owner)}")
    error = route_claim_error(state, route, owner)
    if error is not None:
        raise error
    if not state.is_seat(owner):
        if payment is not None and any(_card_counts(state.board, payment)):
            raise PluginError(f"an owner that is not a seat ({show(owner)}) pays no cards")
        return _not_waiting(state, claim_for(state, owner, route, ()))
    paid = _card_counts(state.board, {} if payment is None else payment)
    _check_held(state, owner, paid)
    pairs = [(card, n) for card, n in enumerate(paid) if n]
    return _not_waiting(state, claim_for(state, owner, route, pairs))


def route_error(state: GameState, route: int, owner: int) -> IllegalAction | None:
    """Why the core refuses ``route`` to ``owner`` whatever is paid, or ``None``.

    The route exists and is free, the double-route rules hold (an owner never
    holds both routes of a pair; a pair's second route is closed when the
    game uses one route of a pair) and a seat has the cars: what
    :func:`claim_route` checks before the payment. For a variant that offers
    claims paid its own way (substitute cards) and lists only those the core
    would allow. Returned, not raised. :class:`PluginError` for an ``owner``
    that is no whole number from 0.
    """
    check_state(state)
    if isinstance(owner, bool) or not isinstance(owner, int) or owner < 0:
        raise PluginError(f"owner must be a seat or a non-seat owner number, not {show(owner)}")
    return route_claim_error(state, route, owner)


def _not_waiting(before: GameState, after: GameState) -> GameState:
    """``after``, a claim made by :func:`claim_route`, unless the after-claim
    chain opened a decision: the variant that made the claim would go on (and
    end the turn) without it, so the combination is refused, never dropped."""
    if _opened(before, after):
        assert after.pending is not None
        raise PluginError(
            f"ttr_after_claim opened a {after.pending.kind!r} decision after a claim made "
            "by effects.claim_route; only a core claim or effects.complete_claim can wait "
            "for a decision opened after it"
        )
    return after


# ---------------------------------------------------------------------------
# The claim pipeline
# ---------------------------------------------------------------------------


def _claim(state: GameState, claim: object) -> ClaimRoute:
    """``claim`` checked to be a ``ClaimRoute`` by a seat of ``state``."""
    check_state(state)
    if type(claim) is not ClaimRoute:
        raise PluginError(f"claim must be a ttr_core.ClaimRoute, not {show(claim)}")
    _seat(state, claim.player)
    if (
        type(claim.route) is not int
        or type(claim.wilds) is not int
        or (claim.color is not None and type(claim.color) is not str)
    ):
        raise PluginError(f"claim {show(claim)} has a field of the wrong type")
    return claim


def claim_error(state: GameState, claim: ClaimRoute) -> IllegalAction | None:
    """Why the core refuses ``claim`` in ``state``, or ``None`` if it allows it.

    The core's own checks of a ``ClaimRoute``, whoever's decision is
    pending: the route exists and is free, the double-route rules, the
    seat's cars, and a payment that pays the route from the seat's hand.
    Returned, not raised (raise it to refuse). Raises :class:`PluginError`
    for a ``claim`` that is no ``ClaimRoute`` of a seat with fields of the
    right types.
    """
    return _claim_error(state, _claim(state, claim))


def _waiting_for(state: GameState, claim: ClaimRoute) -> None:
    pending = state.pending
    if pending is None:
        raise IllegalAction(Reason.GAME_OVER, "the game is over: no claim can be finished")
    if pending.player != claim.player or pending.kind in _CORE_KINDS:
        raise PluginError(
            f"a claim of seat {claim.player} is finished during a variant decision of that "
            f"seat (see ttr_before_claim), not during {pending!r}"
        )


def complete_claim(
    state: GameState, claim: ClaimRoute, extra_paid: Mapping[str, int] | None = None
) -> GameState:
    """Carry out a ``claim`` that waited (``ttr_before_claim``), and end the turn.

    The core's bookkeeping of a claim, exactly as ``apply`` does it: the
    claim's payment and ``extra_paid`` (``{card name: count}``) go from the
    hand to the discard pile, the route's owner is recorded, its cars placed,
    its points scored, the display refilled (E3/E4), ``ttr_after_claim``
    runs, then the turn ends — unless ``ttr_after_claim`` opened a decision:
    the state returned waits for it, and the variant that settles it ends the
    turn (:func:`end_turn`). ``state`` must wait for a variant decision of
    the claiming seat. Raises :class:`IllegalAction` if the core's checks
    (:func:`claim_error`) now refuse the claim or the hand lacks the cards.
    """
    claim = _claim(state, claim)
    _waiting_for(state, claim)
    error = _claim_error(state, claim)
    if error is not None:
        raise error
    paid = _card_counts(state.board, {} if extra_paid is None else extra_paid)
    for card, n in claim_payment(state, claim):
        paid[card] += n
    _check_held(state, claim.player, paid)
    pairs = [(card, n) for card, n in enumerate(paid) if n]
    claimed = claim_for(state, claim.player, claim.route, pairs)
    if _opened(state, claimed):
        return claimed  # a decision opened after the claim: its variant ends the turn
    return _finish_turn(claimed)


def _opened(before: GameState, after: GameState) -> bool:
    """Whether the after-claim chain opened a decision (``ttr_after_claim``):
    the claim made nothing else change the pending decision."""
    return after.pending is not before.pending and after.pending != before.pending


def cancel_claim(state: GameState, claim: ClaimRoute) -> GameState:
    """Give up a ``claim`` that waited (``ttr_before_claim``): the turn ends.

    Nothing is claimed or paid: the seat keeps its cards and cars, the route
    stays free. ``state`` must wait for a variant decision of the claiming
    seat; a variant that takes something for giving up does so first.
    """
    claim = _claim(state, claim)
    _waiting_for(state, claim)
    return _finish_turn(state)


# ---------------------------------------------------------------------------
# Destination tickets
# ---------------------------------------------------------------------------


def draw_tickets(state: GameState, count: int) -> tuple[GameState, tuple[int, ...]]:
    """Take up to ``count`` tickets off the ticket deck: ``(new state, ticket ids)``.

    An empty ticket deck is refilled from the shuffled ticket discard pile
    first. The tickets drawn are in no one's hands until the plugin gives
    them (:func:`give_tickets`), returns them (:func:`return_tickets`) or
    offers them (:func:`offer_tickets` does all of this for a player's choice).
    """
    check_state(state)
    count = _count("count", count)
    changes, drawn = ticket_draw(state, count)
    return attrs.evolve(state, **changes), drawn


def _ticket_ids(state: GameState, tickets: object) -> tuple[int, ...]:
    """``tickets`` read as ids of the map's tickets, each once (``PluginError`` for
    anything else: no hang on an endless iterable, no error of its own)."""
    ids = items_argument(
        "tickets", tickets, len(state.board.tickets), "an iterable of ticket ids", PluginError
    )
    for ticket in ids:
        if (
            isinstance(ticket, bool)
            or not isinstance(ticket, int)
            or not 0 <= ticket < len(state.board.tickets)
        ):
            raise PluginError(f"there is no ticket {show(ticket)} on {show(state.board.id)}")
    if len(set(ids)) != len(ids):
        raise PluginError(f"tickets {show(list(ids))} name a ticket twice")
    return ids


def _drawn_ticket_ids(state: GameState, tickets: Iterable[int]) -> tuple[int, ...]:
    """``tickets`` checked to be tickets of the map that were drawn and are in no
    one's hands (a ticket is never in two places)."""
    check_state(state)
    ids = _ticket_ids(state, tickets)
    placed = set(ticket_places(state))
    for ticket in ids:
        if ticket in placed:
            raise PluginError(
                f"ticket {ticket} is not a drawn ticket: it is in a deck, a pile, a hand or "
                "an offer already (take it with draw_tickets first)"
            )
    return ids


def return_tickets(state: GameState, tickets: Iterable[int]) -> GameState:
    """Return ``tickets`` as the map says: to the bottom of the ticket deck, to
    the ticket discard pile, or to the box (``[rules.tickets] returned``)."""
    return attrs.evolve(state, **ticket_return(state, _drawn_ticket_ids(state, tickets)))


def give_tickets(state: GameState, seat: int, tickets: Iterable[int]) -> GameState:
    """``seat`` keeps ``tickets`` (ids, already drawn), scored at the end like any other."""
    seat = _seat(state, seat)
    ids = _drawn_ticket_ids(state, tickets)
    player = state.players[seat]
    new = attrs.evolve(player, tickets=player.tickets + ids)
    return attrs.evolve(state, players=_replace_player(state.players, seat, new))


def offer_tickets(
    state: GameState, seat: int, count: int | None = None, min_keep: int | None = None
) -> GameState:
    """Draw ``count`` tickets (the map's ``draw`` by default) and ask ``seat`` to
    keep at least ``min_keep`` (the map's ``draw_keep``): the core's
    ``keep_tickets`` decision, which ends the turn once answered.

    Raises :class:`IllegalAction` (``no_tickets_left``) if none can be drawn,
    and :class:`PluginError` for a ``count`` above the map's ``draw`` or a
    ``min_keep`` below its ``draw_keep``: a decision no save of the game could
    hold (:func:`~ttr_core.from_json` checks loaded states the same way).
    """
    seat = _seat(state, seat)
    if min_keep is not None:
        min_keep = _count("min_keep", min_keep)
    rules = state.board.rules
    state, offered = draw_tickets(state, rules.draw_tickets if count is None else count)
    if not offered:
        raise IllegalAction(Reason.NO_TICKETS_LEFT, "no destination tickets are left to draw")
    keep = min(rules.draw_tickets_keep if min_keep is None else min_keep, len(offered))
    pending = Pending(PendingKind.KEEP_TICKETS, seat, offered, keep)
    return _decided(attrs.evolve(state, pending=pending))


def _decided(state: GameState) -> GameState:
    """``state`` once its pending decision is checked as a loaded one is
    (:func:`~ttr_core.from_json` would refuse a save of it otherwise)."""
    from ttr_core.rules.consistency import _check_pending

    try:
        _check_pending(state, any_kind=True)
    except DataError as exc:
        raise PluginError(f"the decision made is not one the rules allow: {exc}") from None
    return state


# ---------------------------------------------------------------------------
# Score and decisions
# ---------------------------------------------------------------------------


def add_points(state: GameState, seat: int, points: int) -> GameState:
    """Add ``points`` (may be negative) to ``seat``'s running score; the score
    sheet shows them on a line "Points scored during play"."""
    seat = _seat(state, seat)
    if isinstance(points, bool) or not isinstance(points, int):
        raise PluginError(f"points must be a whole number, not {show(points)}")
    player = state.players[seat]
    new = attrs.evolve(player, score=player.score + points, play_points=player.play_points + points)
    return attrs.evolve(state, players=_replace_player(state.players, seat, new))


def set_pending(state: GameState, kind: str, seat: int, *, data: Any = None) -> GameState:
    """Make the game wait for ``seat``'s decision of ``kind``.

    A variant's own kind (a string starting with its name) makes its
    ``ttr_extra_actions`` the only legal actions; ``"turn"`` hands the seat
    a core turn. ``data`` is free for the variant (it must be hashable).
    """
    seat = _seat(state, seat)
    if not isinstance(kind, str) or not kind:
        raise PluginError(f"a pending decision's kind is a non-empty string, not {show(kind)}")
    if kind in (PendingKind.START_TICKETS, PendingKind.KEEP_TICKETS):
        raise PluginError(f"a {kind!r} decision needs tickets on offer: use offer_tickets()")
    try:
        hash(data)
    except TypeError:
        raise PluginError(f"pending data must be hashable, not {type(data).__name__}") from None
    if state.pending is None:
        raise IllegalAction(Reason.GAME_OVER, "the game is over: no decision can be pending")
    return _decided(attrs.evolve(state, pending=Pending(kind, seat, data=data)))


# ---------------------------------------------------------------------------
# Reveals and the box (issue 20: tunnels, long tickets)
# ---------------------------------------------------------------------------


def reveal_cards(
    state: GameState, count: int, *, to: str = "discard"
) -> tuple[GameState, tuple[str, ...]]:
    """Turn up the top ``count`` cards of the deck for everyone to see:
    ``(new state, card names in the order turned up)``.

    The deck is refilled from the shuffled discard pile when it runs out, as
    for a draw; fewer cards are revealed when deck and discard pile run out
    together. ``to="discard"`` (a tunnel's reveal) lays them on the discard
    pile once all are turned up, then fills any face-up slot left empty
    (E4); ``to="deck"`` puts them back on top of the deck in the same order.
    No hand changes, so no seat's known cards do. The cards are public: a
    variant that needs them later keeps them in its own state.
    """
    check_state(state)
    count = _count("count", count)
    if type(to) is not str or to not in ("discard", "deck"):
        raise PluginError(f"to must be 'discard' or 'deck', not {show(to)}")
    work = Work(state)
    shown: list[int] = []
    for _ in range(count):
        card = work.draw()
        if card is None:
            break
        shown.append(card)
    if to == "deck":
        work.deck = [*shown, *work.deck]
        work.fresh = False
    else:
        pile = work.own_discard()
        for card in shown:
            pile[card] += 1
        work.fill_empty()
    names = state.board.card_names
    return work.published(), tuple(names[c] for c in shown)


def box_tickets(state: GameState, tickets: Iterable[int]) -> GameState:
    """Put ``tickets`` out of the game, face down (``GameState.boxed_tickets``):
    no view shows them (only their number), no draw deals them again, and
    ``determinize`` deals unseen tickets into the box as it does into the deck.

    Each ticket must be on the ticket deck or the ticket discard pile (e.g.
    tickets just returned from a choice: box the unkept ones after the
    ``KeepTickets``), or drawn and in no one's hands (:func:`draw_tickets`).
    ``PluginError`` for a ticket anywhere else (held, on offer), twice, or not
    of the map.
    """
    check_state(state)
    ids = _ticket_ids(state, tickets)
    piles = {*state.ticket_deck, *state.ticket_discard}
    _drawn_ticket_ids(state, [t for t in ids if t not in piles])  # the rest: drawn, loose
    chosen = set(ids)
    return attrs.evolve(
        state,
        ticket_deck=tuple(t for t in state.ticket_deck if t not in chosen),
        ticket_discard=tuple(t for t in state.ticket_discard if t not in chosen),
        boxed_tickets=state.boxed_tickets + ids,
    )


# ---------------------------------------------------------------------------
# Chance (issue 33: the shares' dummy reveals half its shares at random)
# ---------------------------------------------------------------------------

#: Most items one call of :func:`shuffle` orders (a variant's few pieces, not data).
MOST_SHUFFLED = 10_000


def shuffle(
    state: GameState, items: list[Any] | tuple[Any, ...]
) -> tuple[GameState, tuple[Any, ...]]:
    """Put ``items`` in a random order drawn from the game's chance:
    ``(new state, the items shuffled)``.

    The order comes from the game's seed and its shuffle count, exactly as
    the core's own reshuffles (the count goes up by one), so a game replays
    the same from its seed and actions, and a state dealt from a seat's view
    (:func:`ttr_core.determinize`, which draws a new seed) does not know the
    order in advance. Use it for a variant's own chance (the Pennsylvania
    dummy's shares, revealed at random); never ``random`` directly, whose
    draws a replay cannot repeat. ``items`` is a list or a tuple of at most
    :data:`MOST_SHUFFLED` items (``PluginError`` otherwise).
    """
    check_state(state)
    if type(items) not in (list, tuple):  # exactly: no code of the caller's runs here
        raise PluginError(f"items must be a list or a tuple, not {show(items)}")
    if len(items) > MOST_SHUFFLED:
        raise PluginError(f"shuffle orders at most {MOST_SHUFFLED} items, not {len(items)}")
    order = list(items)
    shuffler(state.seed, state.shuffles).shuffle(order)
    return attrs.evolve(state, shuffles=state.shuffles + 1), tuple(order)

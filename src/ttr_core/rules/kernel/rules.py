"""The core's transitions, on a :class:`~ttr_core.rules.kernel.work.Work`.

Each function carries out one checked action (or one effect a plugin asks
for) in place: the checks that refuse an action are the engine's
(:func:`ttr_core.apply`), made on the frozen state before the work is loaded,
so that a refused action changes nothing. The only refusals made here are
those found while carrying an action out (no card left to draw, no ticket
left), before anything is written.

A plugin's hook runs on a frozen state: the work publishes itself, runs the
hook and goes on from the state the hook returns (:meth:`Work.run_hook`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ttr_core.errors import IllegalAction, Reason
from ttr_core.hooks import calls
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
from ttr_core.model.state import Pending, PendingKind, Termination, replace_state
from ttr_core.rules.kernel.tables import after_claim
from ttr_core.rules.kernel.work import Work, can_take_second, shuffler

_TURN = PendingKind.TURN
_SECOND = PendingKind.SECOND_CARD
_KEEP = PendingKind.KEEP_TICKETS
_START = PendingKind.START_TICKETS


# ---------------------------------------------------------------------------
# Transportation cards
# ---------------------------------------------------------------------------


def draw_blind(work: Work, seat: int, second: bool) -> None:
    """``seat`` draws the top card of the deck (its first or ``second`` card)."""
    card = work.draw()
    if card is None:
        raise IllegalAction(Reason.NO_CARD_TO_DRAW, "the deck and the discard pile are both empty")
    work.seat(seat).counts[card] += 1
    # A blind wild is an ordinary card: the draw goes on (unless this was the second).
    if not second and can_take_second(work.deck, work.discard, work.display, work.table.turn_wild):
        work.pending = work.table.second[seat]
        work.ply += 1
    else:
        finish_turn(work, passed=False)


def take_face_up(work: Work, seat: int, slot: int) -> int:
    """``seat`` takes the card in face-up ``slot`` (which holds one); the slot is
    refilled and the wild limit enforced (E3). Returns the card taken, which
    every player saw (``PlayerState.known``)."""
    card = work.display[slot]
    assert card is not None
    work.refill(slot)
    part = work.seat(seat)
    part.counts[card] += 1
    part.own_known()[card] += 1
    return card


def draw_face_up(work: Work, seat: int, slot: int, second: bool) -> None:
    """``seat`` draws the face-up card in ``slot`` (its first or ``second`` card)."""
    card = take_face_up(work, seat, slot)
    # A face-up wild taken first is the whole draw (unless the map makes it an
    # ordinary card: turn_wild); a second card ends it too.
    wild = work.table.turn_wild
    if not second and card != wild and can_take_second(work.deck, work.discard, work.display, wild):
        work.pending = work.table.second[seat]
        work.ply += 1
    else:
        finish_turn(work, passed=False)


def draw_cards(work: Work, seat: int, count: int) -> None:
    """``seat`` takes the top ``count`` cards of the deck (there are as many)."""
    counts = work.seat(seat).counts
    for _ in range(count):
        card = work.draw()
        assert card is not None
        counts[card] += 1


def discard(work: Work, seat: int, paid: Iterable[tuple[int, int]]) -> None:
    """``seat`` puts ``paid`` (``(card index, count)`` pairs, held) on the discard
    pile. Its known cards of the kinds paid go first, as far as they go (a card
    paid may be one every player saw it take, or not: the known ones are
    counted as paid first), and none is known once all are paid."""
    part = work.seat(seat)
    counts = part.counts
    pile = work.own_discard()
    known = part.own_known() if part.known else None
    for card, n in paid:
        counts[card] -= n
        pile[card] += n
        if known:
            have = known[card]
            known[card] = have - n if have > n else 0
    if known is not None and not any(known):
        part.known = None


def settle_display(work: Work) -> None:
    """Fill slots left empty (E4) and reset a display with too many wilds (E3),
    as far as the cards available allow."""
    board = work.board
    display = work.display
    if None in display or display.count(board.wild) > board.rules.max_face_up_wilds:
        work.fill_empty()


# ---------------------------------------------------------------------------
# Routes
# ---------------------------------------------------------------------------


def claim_payment(board: Board, action: ClaimRoute) -> tuple[tuple[int, int], ...]:
    """The ``(card index, count)`` pairs a checked ``action`` pays: wilds, and the colour."""
    paid: tuple[tuple[int, int], ...] = ((board.wild, action.wilds),)
    if action.color is not None:
        length = board.routes[action.route].length
        paid = ((board.colors.index(action.color), length - action.wilds), *paid)
    return paid


def claim(work: Work, action: ClaimRoute) -> None:
    """A checked claim: the claim pipeline, the claim, the after-claim chain, the turn's end."""
    rules = work.rules
    if rules.before_claim:
        # A variant may make the claim wait for a decision of the claiming seat
        # (docs/hooks.md); it completes or cancels it later.
        waiting = calls.run_before_claim(rules, work.published(), action)
        if waiting is not None:
            work.load(waiting)
            return
    if not claim_for(work, action.player, action.route, claim_payment(work.board, action)):
        finish_turn(work, passed=False)


def claim_for(work: Work, owner: int, rid: int, paid: Iterable[tuple[int, int]]) -> bool:
    """Record ``owner``'s claim of route ``rid`` and run the after-claim chain.

    A seat pays ``paid`` (``(card index, count)`` pairs) from its hand into
    the discard pile, places the route's cars and scores its points; an owner
    that is not a seat pays and places nothing here. Empty slots and too many
    face-up wilds are then dealt with as soon as the discarded cards allow
    (E3/E4). The caller has checked that the claim is allowed.

    Whether the after-claim chain opened a decision (``ttr_after_claim``
    returned a state waiting for a variant decision of the seat that was
    deciding): the turn then goes on until the variant settles it and ends
    the turn itself. Any other change of the pending decision is refused
    (:class:`PluginError` naming the hook), never dropped.
    """
    record_claim(work, owner, rid, paid)
    rules = work.rules
    if not rules.after_claim:
        return False
    before = work.pending
    work.run_hook(calls.run_after_claim, owner, rid)
    # The chain checked any change: a variant decision of the deciding seat.
    after = work.pending
    return after is not before and after != before


def record_claim(work: Work, owner: int, rid: int, paid: Iterable[tuple[int, int]]) -> None:
    """The claim itself, without the after-claim chain (see :func:`claim_for`)."""
    work.own_owners()[rid] = owner
    table = work.table
    seats = len(work.players)
    masks = work.masks
    if masks is not None:
        masks[0], masks[1], masks[2] = after_claim(table, masks[0], masks[1], masks[2], rid, owner)
    elif work.claims is None:
        work.claims = [(rid, owner)]
    else:
        work.claims.append((rid, owner))
    if not 0 <= owner < seats:
        return
    board = work.board
    route = board.routes[rid]
    discard(work, owner, paid)
    part = work.seat(owner)
    part.cars -= route.length
    part.routes = (*part.routes, rid)
    part.score += board.rules.route_points[route.length]
    settle_display(work)


# ---------------------------------------------------------------------------
# Destination tickets
# ---------------------------------------------------------------------------


def _tickets(
    work: Work, count: int, seat: int | None
) -> tuple[tuple[int, ...], Sequence[int], Sequence[int], int]:
    """What a draw of up to ``count`` tickets takes, written nowhere: the tickets,
    then the ticket deck, discard pile and shuffle count it leaves."""
    deck: Sequence[int] = work.ticket_deck
    pile: Sequence[int] = work.ticket_discard
    shuffles = work.shuffles
    if not deck and pile:
        refilled = list(pile)
        shuffler(work.seed, shuffles).shuffle(refilled)
        deck, pile, shuffles = refilled, (), shuffles + 1
    rules = work.rules
    if seat is not None and rules.deal_tickets:
        asked = replace_state(
            work.published(), ticket_deck=tuple(deck), ticket_discard=tuple(pile), shuffles=shuffles
        )
        chosen = calls.run_deal_tickets(rules, asked, seat, count, False)
        if chosen is not None:
            taken = set(chosen)
            return chosen, [t for t in deck if t not in taken], pile, shuffles
    return tuple(deck[:count]), deck[count:], pile, shuffles


def take_tickets(work: Work, count: int, seat: int | None = None) -> tuple[int, ...]:
    """Up to ``count`` tickets off the top of the ticket deck, an empty deck first
    refilled from the shuffled ticket discard pile (even for none: a variant
    may ask for 0 to have the pile become the deck). With a ``seat`` (a
    ``DrawTickets``), the variants' ``ttr_deal_tickets`` may choose them."""
    drawn, rest, pile, shuffles = _tickets(work, count, seat)
    work.ticket_deck, work.ticket_discard, work.shuffles = rest, pile, shuffles
    work.fresh = False
    return drawn


def returned_tickets(
    deck: Sequence[int], pile: Sequence[int], returned: Sequence[int], where: str
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ticket deck and discard pile once ``returned`` go back as the map says
    (``where``: ``"discard"``, or the bottom of the deck; the box is the
    caller's: ``GameState.boxed_tickets``)."""
    # tuple + tuple, not a new tuple: with nothing returned it is the same tuple.
    if where == "discard":
        return tuple(deck), tuple(pile) + tuple(returned)
    return tuple(deck) + tuple(returned), tuple(pile)


def draw_tickets(work: Work, seat: int) -> None:
    """``seat`` draws destination tickets to choose from."""
    mr = work.board.rules
    # Refused before anything is written (a deal hook may give none).
    offered, rest, pile, shuffles = _tickets(work, mr.draw_tickets, seat)
    if not offered:
        raise IllegalAction(Reason.NO_TICKETS_LEFT, "no destination tickets are left to draw")
    work.ticket_deck, work.ticket_discard, work.shuffles = rest, pile, shuffles
    work.fresh = False
    work.pending = Pending(_KEEP, seat, offered, min(mr.draw_tickets_keep, len(offered)))
    work.ply += 1


def keep_tickets(work: Work, seat: int, chosen: frozenset[int]) -> None:
    """``seat`` keeps the checked choice ``chosen`` of the tickets on offer."""
    pending = work.pending
    assert pending is not None
    offered = pending.offered
    kept = tuple(t for t in offered if t in chosen)
    returned = tuple(t for t in offered if t not in chosen)
    part = work.seat(seat)
    part.tickets = part.tickets + kept
    mr = work.board.rules
    where = mr.returned_tickets if pending.kind == _KEEP else mr.start_returned_tickets
    if where == "box":  # out of the game at once (Europe's starting tickets)
        work.boxed_tickets = work.boxed_tickets + returned
    else:
        work.ticket_deck, work.ticket_discard = returned_tickets(
            work.ticket_deck, work.ticket_discard, returned, where
        )
    if pending.kind == _KEEP:
        finish_turn(work, passed=False)
        return
    # Starting choice: the next seat chooses, or the first turn begins (E7).
    offers = work.start_offers
    if offers:
        keep = min(work.board.rules.start_tickets_keep, len(offers[0]))
        work.pending = Pending(_START, seat + 1, offers[0], keep)
        work.start_offers = offers[1:]
    else:
        work.pending = work.table.turn[0]
    work.ply += 1


# ---------------------------------------------------------------------------
# Turns
# ---------------------------------------------------------------------------


def finish_turn(work: Work, passed: bool) -> None:
    """End the current seat's turn: final-round and stalemate bookkeeping, next seat."""
    pending = work.pending
    assert pending is not None
    seat = pending.player
    n = len(work.players)
    final = work.final_turns
    if final < 0:
        if work.cars(seat) <= work.board.rules.end_trigger_cars:
            final = n  # every seat, the trigger included, plays one more turn (E8)
    else:
        final -= 1
    passes = work.passes + 1 if passed else 0
    termination = None
    if final == 0:
        termination = Termination.CARS
    elif passes >= n:
        termination = Termination.STALEMATE  # a full round of passes (E2)
    work.fresh = False
    work.final_turns = final
    work.passes = passes
    work.turn += 1
    work.ply += 1
    work.termination = termination
    work.pending = None if termination else work.table.turn[(seat + 1) % n]
    rules = work.rules
    if termination is None:
        if rules.between_turns:
            work.run_hook(calls.run_between_turns)
    elif rules.game_over:
        work.run_hook(calls.run_game_over)


# ---------------------------------------------------------------------------
# A listed action, carried out
# ---------------------------------------------------------------------------
# An action that is one of the objects the legal actions listed needs none of
# the checks (it was listed because it passes them): the pure API and the
# playout both send it here, by its type: (work, action, second card?).


def _draw_blind(work: Work, action: Action, second: bool) -> None:
    draw_blind(work, action.player, second)


def _draw_face_up(work: Work, action: Action, second: bool) -> None:
    draw_face_up(work, action.player, action.slot, second)  # type: ignore[attr-defined]


def _claim(work: Work, action: Action, second: bool) -> None:
    claim(work, action)  # type: ignore[arg-type]


def _draw_tickets(work: Work, action: Action, second: bool) -> None:
    draw_tickets(work, action.player)


def _keep(work: Work, action: Action, second: bool) -> None:
    keep_tickets(work, action.player, action.tickets)  # type: ignore[attr-defined]


def _pass(work: Work, action: Action, second: bool) -> None:
    finish_turn(work, passed=True)


#: A core action's transition: (work, checked action, second card?).
Carry = Callable[[Work, Action, bool], None]

#: The kernel's transition for each core action type.
CARRY: dict[type[Action], Carry] = {
    DrawBlind: _draw_blind,
    DrawFaceUp: _draw_face_up,
    ClaimRoute: _claim,
    DrawTickets: _draw_tickets,
    KeepTickets: _keep,
    Pass: _pass,
}

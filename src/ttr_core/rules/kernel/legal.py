"""The core's legal actions, from the few facts that decide them.

One copy of the rule for both callers: :func:`ttr_core.legal_actions` feeds it
a frozen state's fields, a :class:`~ttr_core.Playout` its working state's (with
claimable routes kept up to date claim by claim). The actions handed out are
the shared objects of the :class:`~ttr_core.rules.kernel.tables.ActionTable`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.errors import PluginError
from ttr_core.model.actions import Action
from ttr_core.model.state import PendingKind
from ttr_core.rules.kernel.tables import ActionTable


def turn_actions(
    table: ActionTable,
    seat: int,
    counts: Sequence[int],
    cars: int,
    claimable: int,
    display: Sequence[int | None],
    can_draw: bool,
    can_draw_tickets: bool,
) -> list[Action]:
    """The core's actions for ``seat``'s turn, in the core's order: the blind draw,
    the face-up draws by slot, the claims by route id (each route's payments
    in the order of :func:`ttr_core.model.payment.payment_ranges`), the ticket draw.

    ``counts`` is the seat's hand (card counts, the wilds last), ``claimable``
    the routes it may claim whatever it pays (bits by route id), ``can_draw``
    whether the deck or the discard pile holds a card, ``can_draw_tickets``
    whether the ticket deck or its discard pile holds a ticket.
    """
    acts: list[Action] = []
    if can_draw:
        acts.append(table.blind[seat])
    if None in display:
        face_up = table.face_up[seat]
        acts += [face_up[slot] for slot, card in enumerate(display) if card is not None]
    else:  # every slot of the display (a sound state has the map's display size)
        acts += table.face_up[seat]
    wilds = counts[-1]
    # The routes this seat can pay for: per colour, those no longer than its
    # cards of that colour plus its wilds (and its cars); gray ones by its
    # best colour. Only those of them it may claim are visited, by route id.
    # These look-ups assume a sound state (no negative count; the game's own
    # cards and cars, or more if a variant dealt extra: capped at ``top``).
    within_cars = table.within_cars
    top = len(within_cars) - 1
    if sum(counts) <= top:
        payable = table.gray_reach[max(counts[:-1]) + wilds]
        # strict=False: counts ends with the wilds, which have no row.
        for n, row in zip(counts, table.reach, strict=False):
            payable |= row[n + wilds]
    else:
        payable = table.gray_reach[min(max(counts[:-1]) + wilds, top)]
        for n, row in zip(counts, table.reach, strict=False):
            payable |= row[min(n + wilds, top)]
    no_wild = table.no_wild
    if no_wild:
        # Routes wilds do not pay for ([rules.cards] wild_routes): by the colour alone.
        plain = table.gray_reach[min(max(counts[:-1]), top)]
        for n, row in zip(counts, table.reach, strict=False):
            plain |= row[min(n, top)]
        payable = (payable & ~no_wild) | (plain & no_wild)
    payable &= within_cars[cars if cars < top else top] if cars > 0 else 0
    payable &= claimable
    if payable and no_wild:
        _claims_some_wild(acts, table, seat, counts, payable, no_wild)
    elif payable:
        # The hot path (wilds pay on every route): kept apart from
        # _claims_some_wild, whose extra tests cost every map's playouts 2 %.
        colour_length = table.colour_length
        colored = table.colored[seat]
        gray = table.gray[seat]
        all_wild = table.all_wild[seat]
        held: list[tuple[int, int]] | None = None
        # For gray routes: per length, the colours that can pay, with their capped counts.
        options_by_length: dict[int, list[tuple[int, int]]] = {}
        while payable:
            low = payable & -payable
            payable ^= low
            rid = low.bit_length() - 1
            colour, length = colour_length[rid]
            capped_wilds = wilds if wilds < length else length
            if colour >= 0:
                have = counts[colour]
                acts += colored[rid][have if have < length else length][capped_wilds]  # type: ignore[index]
                continue
            options = options_by_length.get(length)
            if options is None:
                if held is None:
                    held = [(c, n) for c, n in enumerate(counts[:-1]) if n]
                options = options_by_length[length] = [
                    (c, n if n < length else length) for c, n in held if n + capped_wilds >= length
                ]
            by_colour = gray[rid]
            for c, capped in options:
                acts += by_colour[c][capped][capped_wilds]  # type: ignore[index]
            if capped_wilds == length:
                acts.append(all_wild[rid])
    if can_draw_tickets:
        acts.append(table.tickets[seat])
    return acts


def _claims_some_wild(
    acts: list[Action],
    table: ActionTable,
    seat: int,
    counts: Sequence[int],
    payable: int,
    no_wild: int,
) -> None:
    """Add to ``acts`` the claims of the ``payable`` routes (bits by route id, in
    route id order) on a map where wilds pay for some routes only: none on the
    routes of ``no_wild`` (bits by route id)."""
    wilds = counts[-1]
    colour_length = table.colour_length
    colored = table.colored[seat]
    gray = table.gray[seat]
    all_wild = table.all_wild[seat]
    held: list[tuple[int, int]] | None = None
    # For gray routes: per length and wilds usable, the colours that can pay,
    # with their capped counts.
    options_by_length: dict[tuple[int, int], list[tuple[int, int]]] = {}
    while payable:
        low = payable & -payable
        payable ^= low
        rid = low.bit_length() - 1
        colour, length = colour_length[rid]
        # No wild pays on a route of no_wild; elsewhere as many as the length.
        capped_wilds = 0 if low & no_wild else (wilds if wilds < length else length)
        if colour >= 0:
            have = counts[colour]
            acts += colored[rid][have if have < length else length][capped_wilds]  # type: ignore[index]
            continue
        options = options_by_length.get((length, capped_wilds))
        if options is None:
            if held is None:
                held = [(c, n) for c, n in enumerate(counts[:-1]) if n]
            options = options_by_length[(length, capped_wilds)] = [
                (c, n if n < length else length) for c, n in held if n + capped_wilds >= length
            ]
        by_colour = gray[rid]
        for c, capped in options:
            acts += by_colour[c][capped][capped_wilds]  # type: ignore[index]
        if capped_wilds == length:
            acts.append(all_wild[rid])


def second_card_actions(
    table: ActionTable, seat: int, display: Sequence[int | None], wild: int, can_draw: bool
) -> list[Action]:
    """The core's actions for ``seat``'s second card: the blind draw, then every
    face-up card but ``wild`` (``ttr_core.model.board.turn_wild``: the wild,
    or no card on a map where a face-up wild is an ordinary one; ``can_draw``
    as for :func:`turn_actions`)."""
    acts: list[Action] = []
    if can_draw:
        acts.append(table.blind[seat])
    if None in display or wild in display:
        face_up = table.face_up[seat]
        acts += [face_up[s] for s, card in enumerate(display) if card is not None and card != wild]
    else:
        acts += table.face_up[seat]
    return acts


def or_pass(
    acts: list[Action], table: ActionTable, kind: str, seat: int, variants: Sequence[str]
) -> list[Action]:
    """``acts``, or the turn's ``Pass`` when there are none (E1): only a turn can
    be passed, and any other decision left without a choice would stall the
    game, which only a plugin can cause (:class:`PluginError`, naming the game's
    ``variants``)."""
    if acts:
        return acts
    if kind != PendingKind.TURN:
        raise PluginError(
            f"no legal action for the pending {kind!r} decision of seat {seat}: "
            f"variants {', '.join(variants) or 'none'} filtered, vetoed or offered none"
        )
    return [table.passes[seat]]

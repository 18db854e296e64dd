"""Tables built once per board and player count: every action that can ever be
legal (shared objects, so listing legal actions allocates none), the routes
each hand can pay for, and what the routes' owners leave claimable.

Nothing here belongs to one game: the tables hang on the board (see
:func:`ttr_core.model.board.derive`), and the claimable-routes cache is keyed by
the ``owners`` tuple of the frozen states it was worked out for.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ttr_core.model.actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, Pass
from ttr_core.model.board import GRAY, NO_CARD, Board, derive, turn_wild, wilds_pay
from ttr_core.model.payment import ANY_COLOR
from ttr_core.model.state import UNCLAIMED, Pending, PendingKind

_TURN = PendingKind.TURN
_SECOND = PendingKind.SECOND_CARD


#: A route's claims for one seat and one hand: ``[h][w]`` (colour cards and
#: wilds held, each capped at the route's length) -> the actions, in order.
PayTable = tuple[tuple[tuple[ClaimRoute, ...], ...], ...]


#: What :func:`claimable` keeps for one ``owners`` tuple: the tuple itself
#: (so that its ``id`` is not reused while kept), the ``key`` of the action
#: table it was worked out with (right for that board and player count only),
#: the unclaimed routes, the routes whose partner nobody holds, and per seat
#: every route but the partners of its own (all bits by route id).
Claimable = tuple[tuple[int, ...], object, int, int, tuple[int, ...]]


@attrs.frozen(eq=False)
class ActionTable:
    """Every action that can ever be legal with a board and a player count, built
    once: listing legal actions hands out these shared objects, in tuples. It
    holds nothing of any game: it is kept on the board, which every state and
    view of every game on that board carries (see :data:`CLAIMABLE`)."""

    blind: tuple[DrawBlind, ...]
    face_up: tuple[tuple[DrawFaceUp, ...], ...]
    tickets: tuple[DrawTickets, ...]
    passes: tuple[Pass, ...]
    turn: tuple[Pending, ...]
    second: tuple[Pending, ...]
    # colored[seat][route]: a coloured route's PayTable (its colour's payments,
    # then the all-wild one); None for a gray route.
    colored: tuple[tuple[PayTable | None, ...], ...]
    # gray[seat][route][colour]: a gray route's PayTable for that colour (the
    # all-wild payment excluded); None for a coloured route.
    gray: tuple[tuple[tuple[PayTable, ...] | None, ...], ...]
    # all_wild[seat][route]: the claim paid with wilds alone.
    all_wild: tuple[tuple[ClaimRoute, ...], ...]
    # reach[c][k]: the routes (a bit per route id) of colour index c whose
    # length is at most k, for k up to every card of the game; gray_reach[k]
    # the same for the gray routes, within_cars[k] for every route.
    reach: tuple[tuple[int, ...], ...]
    gray_reach: tuple[int, ...]
    within_cars: tuple[int, ...]
    # colour_length[route]: the route's (colour index or ANY_COLOR, length).
    colour_length: tuple[tuple[int, int], ...]
    # partner_bit[route]: the bit of the route's partner (0 if it has none).
    partner_bit: tuple[int, ...]
    # The routes wild cards do not pay for (a bit per route id; ``[rules.cards]
    # wild_routes``): 0 on a map whose wilds pay everywhere.
    no_wild: int = 0
    # The card whose face-up card is the whole draw (``turn_wild``), looked up
    # once here: the hot path asks it at every card drawn.
    turn_wild: int = NO_CARD
    # What the entries of CLAIMABLE worked out with this table hold (an object
    # of its own: nothing else, so that they keep neither table nor board alive).
    key: object = attrs.field(factory=object)


def action_table(board: Board, players: int) -> ActionTable:
    """The preallocated actions of ``board`` with ``players`` seats, kept on the board
    (built once: threads asking at once all get the table kept)."""
    table: ActionTable | None = board.derived.get(players)
    if table is None:
        table = derive(board, players, lambda: build_action_table(board, players))
    return table


def pay_table(claims: Sequence[ClaimRoute], length: int, all_wild: ClaimRoute | None) -> PayTable:
    """The payments in one colour (``claims[w]`` pays ``w`` wilds) for every capped
    hand: exactly what ``payment.payment_ranges`` lists, in the same order."""
    rows = []
    for held in range(length + 1):
        row = []
        for wilds in range(length + 1):
            found: tuple[ClaimRoute, ...] = ()
            if held and held + wilds >= length:
                fewest = length - held
                most = wilds if wilds < length - 1 else length - 1
                found = tuple(claims[fewest : most + 1])
            if all_wild is not None and wilds == length:
                found = (*found, all_wild)
            row.append(found)
        rows.append(tuple(row))
    return tuple(rows)


def build_action_table(board: Board, players: int) -> ActionTable:
    """Every action that can ever be legal on ``board`` with ``players`` seats,
    and the look-up tables of the claims (see :class:`ActionTable`)."""
    names = board.colors
    # Indexed by a hand's count of a colour plus its wilds, or a seat's cars:
    # neither exceeds the cards of the game or the cars dealt unless a variant
    # adds some (then _turn_actions caps them at ``top``, which no route's
    # length exceeds, so a capped count still reaches every route it did).
    top = max(sum(board.deck), board.rules.cars_per_player, *(r.length for r in board.routes))
    reach_rows = [[0] * (top + 1) for _ in range(len(names) + 1)]
    for r in board.routes:
        # The map loader numbers routes by position: bits by route id are by index.
        assert board.routes[r.id] is r
        row = reach_rows[len(names) if r.color == GRAY else names.index(r.color)]
        for k in range(r.length, top + 1):
            row[k] |= 1 << r.id
    within_cars = [0] * (top + 1)
    for row in reach_rows:
        within_cars = [a | b for a, b in zip(within_cars, row, strict=True)]
    colored: list[tuple[PayTable | None, ...]] = []
    gray: list[tuple[tuple[PayTable, ...] | None, ...]] = []
    all_wild: list[tuple[ClaimRoute, ...]] = []
    for p in range(players):
        wild_claims = tuple(ClaimRoute(p, r.id, None, r.length) for r in board.routes)
        seat_colored: list[PayTable | None] = []
        seat_gray: list[tuple[PayTable, ...] | None] = []
        for r in board.routes:
            by_colour = [
                [ClaimRoute(p, r.id, names[c], w) for w in range(r.length)]
                for c in range(len(names))
            ]
            if r.color == GRAY:
                seat_colored.append(None)
                seat_gray.append(tuple(pay_table(cl, r.length, None) for cl in by_colour))
            else:
                colour = names.index(r.color)
                seat_colored.append(pay_table(by_colour[colour], r.length, wild_claims[r.id]))
                seat_gray.append(None)
        colored.append(tuple(seat_colored))
        gray.append(tuple(seat_gray))
        all_wild.append(wild_claims)
    return ActionTable(
        blind=tuple(DrawBlind(p) for p in range(players)),
        face_up=tuple(
            tuple(DrawFaceUp(p, s) for s in range(board.rules.display_size)) for p in range(players)
        ),
        tickets=tuple(DrawTickets(p) for p in range(players)),
        passes=tuple(Pass(p) for p in range(players)),
        turn=tuple(Pending(_TURN, p) for p in range(players)),
        second=tuple(Pending(_SECOND, p) for p in range(players)),
        colored=tuple(colored),
        gray=tuple(gray),
        all_wild=tuple(all_wild),
        reach=tuple(tuple(row) for row in reach_rows[:-1]),
        gray_reach=tuple(reach_rows[-1]),
        within_cars=tuple(within_cars),
        colour_length=tuple(
            (ANY_COLOR if r.color == GRAY else names.index(r.color), r.length) for r in board.routes
        ),
        partner_bit=tuple(0 if r.partner is None else 1 << r.partner for r in board.routes),
        no_wild=sum(1 << r.id for r in board.routes if not wilds_pay(board.rules, r)),
        turn_wild=turn_wild(board),
    )


#: Board positions whose claimable routes :data:`CLAIMABLE` keeps (then it
#: starts afresh): a playout needs one at a time, a search over a game tree
#: many. An entry is under a kilobyte on the largest built-in map.
CLAIMABLE_KEPT = 1024

#: ``id(owners)`` -> what :func:`claimable` needs for that ``owners`` tuple, for
#: every board and player count. Kept here, not on the board's action table:
#: the board is shared by every game played on it and carried by their views,
#: so whatever hangs on it would be reachable from another game's view
#: (issue 24). Here it is reachable by an import only (as every object of the
#: process is, through ``gc``): a view carries no game but its own, though
#: code run in the same process can read anything; a bot that must not is
#: run in another process and sent its views (``to_json``).
CLAIMABLE: dict[int, Claimable] = {}


def owner_masks(
    owners: Sequence[int], table: ActionTable, seats: int
) -> tuple[int, int, tuple[int, ...]]:
    """What the routes' ``owners`` leave claimable, as bits by route id: the
    unclaimed routes, the routes whose partner nobody holds, and per seat
    every route but the partners of its own. Partners are mutual (the map
    loader checks it), so "the partner of a claimed route" is the same as "a
    route whose partner is claimed"."""
    unclaimed = 0
    partner_of_any = 0
    partner_of_seat = [0] * seats
    partner_bit = table.partner_bit
    for rid, owner in enumerate(owners):
        if owner == UNCLAIMED:
            unclaimed |= 1 << rid
        else:
            partner = partner_bit[rid]
            partner_of_any |= partner
            if 0 <= owner < seats:  # an owner that is no seat holds no hand
                partner_of_seat[owner] |= partner
    return unclaimed, ~partner_of_any, tuple(~mine for mine in partner_of_seat)


def claimable(
    owners: tuple[int, ...], table: ActionTable, seats: int, seat: int, both_usable: bool
) -> int:
    """The routes ``seat`` may claim whatever it pays, as bits by route id: free,
    not the partner of one of its own routes, nor, when the rules allow one
    route of a pair only (not ``both_usable``), the partner of anyone's.

    The routes' owners decide it; :data:`CLAIMABLE` keeps what it takes for
    each ``owners`` tuple seen last (states share the tuple until a route is
    claimed), so a turn looks at no route's owner.
    """
    kept = CLAIMABLE.get(id(owners))
    if kept is None or kept[0] is not owners or kept[1] is not table.key:
        kept = keep_claimable(table, owners, *owner_masks(owners, table, seats))
    return claimable_bits(kept[2], kept[3], kept[4][seat], both_usable)


def claimable_bits(unclaimed: int, unpartnered: int, mine: int, both_usable: bool) -> int:
    """The routes a seat may claim, from the masks of :func:`owner_masks` (``mine``:
    the seat's own): free, not the partner of its own routes, and, unless the
    rules let both routes of a pair be used, not the partner of anyone's."""
    if both_usable:
        return unclaimed & mine
    return unclaimed & unpartnered & mine


def after_claim(
    table: ActionTable,
    unclaimed: int,
    unpartnered: int,
    mine: tuple[int, ...],
    rid: int,
    owner: int,
) -> tuple[int, int, tuple[int, ...]]:
    """The masks of :func:`owner_masks` once ``owner`` (a seat or not) has
    claimed route ``rid``: worked out from the masks before, not from every
    route."""
    unclaimed &= ~(1 << rid)
    partner = table.partner_bit[rid]
    if partner:
        unpartnered &= ~partner
        if 0 <= owner < len(mine):  # an owner that is no seat holds no hand
            mine = (*mine[:owner], mine[owner] & ~partner, *mine[owner + 1 :])
    return unclaimed, unpartnered, mine


def keep_claimable(
    table: ActionTable,
    owners: tuple[int, ...],
    unclaimed: int,
    unpartnered: int,
    masks: tuple[int, ...],
) -> Claimable:
    """Keep the masks of :func:`owner_masks` worked out for ``owners`` (with
    ``table``) in :data:`CLAIMABLE`, and return the entry."""
    # Safe between threads without a lock: every step is one atomic dict
    # operation (no look over the dict), an entry is an immutable tuple holding
    # its owners tuple and its table's key (so a reader checks it is the tuple
    # it asked for, worked out for its board and player count, and the tuple's
    # id is not reused while kept), and an entry is right whoever stores it.
    # Threads storing at once may pass the bound by one entry each.
    kept = CLAIMABLE
    if len(kept) >= CLAIMABLE_KEPT:
        kept.clear()  # not an eviction of the oldest: that would look over the dict
    entry = kept[id(owners)] = (owners, table.key, unclaimed, unpartnered, masks)
    return entry


def claimed(
    owners: tuple[int, ...],
    table: ActionTable,
    rid: int,
    owner: int,
    new_owners: tuple[int, ...],
) -> None:
    """Keep what :func:`claimable` takes for ``new_owners``, the routes' owners
    once ``owner`` (a seat or not) has claimed route ``rid`` from ``owners``,
    from what is kept for ``owners`` (if anything is), without a look at
    every route.

    Harmless if the claim is refused after all (a veto, a plugin's error): the
    entry is right for ``new_owners``, whatever becomes of that tuple.
    """
    kept = CLAIMABLE.get(id(owners))
    if kept is None or kept[0] is not owners or kept[1] is not table.key:
        return  # worked out when first needed
    keep_claimable(table, new_owners, *after_claim(table, kept[2], kept[3], kept[4], rid, owner))

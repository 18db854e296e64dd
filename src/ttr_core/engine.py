"""The rules engine: set up a game, list legal actions, apply an action.

Pure functions over frozen states. Chance comes only from the seed carried
in the state: every shuffle uses a generator seeded by ``(seed, number of
shuffles so far)``, so ``(map, players, variants, seed, actions)`` reproduce a
game exactly.
"""

from __future__ import annotations

import itertools
import operator
import os
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from .actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    keep_choices,
)
from .board import GRAY, Board, derive
from .errors import (
    ArgumentError,
    IllegalAction,
    PlayerCountError,
    PluginError,
    Reason,
    StaleMoveError,
    printable,
    show,
    what,
)
from .maploader import board_with_tickets, load_map
from .payment import ANY_COLOR
from .plugin_manager import FilteredOut, game_rules, resolve_variants
from .state import (
    UNCLAIMED,
    GameState,
    Hand,
    Pending,
    PendingKind,
    PlayerState,
    Termination,
    check_state,
    replace_player,
    replace_state,
)

#: Most consecutive display resets done for one trigger (engine decision E3).
MAX_DISPLAY_RESETS = 100

#: Seeds are whole numbers from 0 to ``SEED_LIMIT - 1`` (256 bits); ``new_game``
#: draws a fresh 128-bit one from the operating system when none is given.
SEED_LIMIT = 2**256

_TURN = PendingKind.TURN
_SECOND = PendingKind.SECOND_CARD
_KEEP = PendingKind.KEEP_TICKETS
_START = PendingKind.START_TICKETS
_CORE_KINDS = frozenset(PendingKind)


def _rng(seed: int, shuffles: int) -> random.Random:
    # A string seed is hashed (SHA-512) by random.Random: stable across runs
    # and platforms, and independent for each (seed, shuffle number).
    return random.Random(f"ttr-core:{seed}:{shuffles}")


# ---------------------------------------------------------------------------
# Preallocated actions: legal_actions hands out shared objects, no allocation
# ---------------------------------------------------------------------------


#: A route's claims for one seat and one hand: ``[h][w]`` (colour cards and
#: wilds held, each capped at the route's length) -> the actions, in order.
_PayTable = tuple[tuple[tuple[ClaimRoute, ...], ...], ...]


#: What :func:`_claimable` keeps for one ``owners`` tuple: the tuple itself
#: (so that its ``id`` is not reused while kept), the ``key`` of the action
#: table it was worked out with (right for that board and player count only),
#: the unclaimed routes, the routes whose partner nobody holds, and per seat
#: every route but the partners of its own (all bits by route id).
_Claimable = tuple[tuple[int, ...], object, int, int, tuple[int, ...]]


@attrs.frozen(eq=False)
class _ActionTable:
    """Every action that can ever be legal with a board and a player count, built
    once: listing legal actions hands out these shared objects, in tuples. It
    holds nothing of any game: it is kept on the board, which every state and
    view of every game on that board carries (see :data:`_CLAIMABLE`)."""

    blind: tuple[DrawBlind, ...]
    face_up: tuple[tuple[DrawFaceUp, ...], ...]
    tickets: tuple[DrawTickets, ...]
    passes: tuple[Pass, ...]
    turn: tuple[Pending, ...]
    second: tuple[Pending, ...]
    # colored[seat][route]: a coloured route's _PayTable (its colour's payments,
    # then the all-wild one); None for a gray route.
    colored: tuple[tuple[_PayTable | None, ...], ...]
    # gray[seat][route][colour]: a gray route's _PayTable for that colour (the
    # all-wild payment excluded); None for a coloured route.
    gray: tuple[tuple[tuple[_PayTable, ...] | None, ...], ...]
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
    # What the entries of _CLAIMABLE worked out with this table hold (an object
    # of its own: nothing else, so that they keep neither table nor board alive).
    key: object = attrs.field(factory=object)


def _action_table(board: Board, players: int) -> _ActionTable:
    """The preallocated actions of ``board`` with ``players`` seats, kept on the board
    (built once: threads asking at once all get the table kept)."""
    table: _ActionTable | None = board.derived.get(players)
    if table is None:
        table = derive(board, players, lambda: _build_action_table(board, players))
    return table


def _pay_table(claims: Sequence[ClaimRoute], length: int, all_wild: ClaimRoute | None) -> _PayTable:
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


def _build_action_table(board: Board, players: int) -> _ActionTable:
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
    colored: list[tuple[_PayTable | None, ...]] = []
    gray: list[tuple[tuple[_PayTable, ...] | None, ...]] = []
    all_wild: list[tuple[ClaimRoute, ...]] = []
    for p in range(players):
        wild_claims = tuple(ClaimRoute(p, r.id, None, r.length) for r in board.routes)
        seat_colored: list[_PayTable | None] = []
        seat_gray: list[tuple[_PayTable, ...] | None] = []
        for r in board.routes:
            by_colour = [
                [ClaimRoute(p, r.id, names[c], w) for w in range(r.length)]
                for c in range(len(names))
            ]
            if r.color == GRAY:
                seat_colored.append(None)
                seat_gray.append(tuple(_pay_table(cl, r.length, None) for cl in by_colour))
            else:
                colour = names.index(r.color)
                seat_colored.append(_pay_table(by_colour[colour], r.length, wild_claims[r.id]))
                seat_gray.append(None)
        colored.append(tuple(seat_colored))
        gray.append(tuple(seat_gray))
        all_wild.append(wild_claims)
    return _ActionTable(
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
    )


#: Board positions whose claimable routes :data:`_CLAIMABLE` keeps (then it
#: starts afresh): a playout needs one at a time, a search over a game tree
#: many. An entry is under a kilobyte on the largest built-in map.
_CLAIMABLE_KEPT = 1024

#: ``id(owners)`` -> what :func:`_claimable` needs for that ``owners`` tuple, for
#: every board and player count. Kept here, not on the board's action table:
#: the board is shared by every game played on it and carried by their views,
#: so whatever hangs on it would be reachable from another game's view
#: (issue 24). Here it is reachable by an import only (as every object of the
#: process is, through ``gc``): a view carries no game but its own, though
#: code run in the same process can read anything; a bot that must not is
#: run in another process and sent its views (``to_json``).
_CLAIMABLE: dict[int, _Claimable] = {}


def _claimable(state: GameState, table: _ActionTable, seat: int) -> int:
    """The routes ``seat`` may claim whatever it pays, as bits by route id: free,
    not the partner of one of its own routes, nor, when the rules allow one
    route of a pair only, the partner of anyone's.

    The routes' owners decide it; :data:`_CLAIMABLE` keeps what it takes for
    each ``owners`` tuple seen last (states share the tuple until a route is
    claimed), so a turn looks at no route's owner. Partners are mutual (the
    map loader checks it), so "the partner of a claimed route" is the same
    as "a route whose partner is claimed".
    """
    owners = state.owners
    kept = _CLAIMABLE.get(id(owners))
    if kept is None or kept[0] is not owners or kept[1] is not table.key:
        unclaimed = 0
        partner_of_any = 0
        partner_of_seat = [0] * len(state.players)
        partner_bit = table.partner_bit
        seats = len(partner_of_seat)
        for rid, owner in enumerate(owners):
            if owner == UNCLAIMED:
                unclaimed |= 1 << rid
            else:
                partner = partner_bit[rid]
                partner_of_any |= partner
                if 0 <= owner < seats:  # an owner that is no seat holds no hand
                    partner_of_seat[owner] |= partner
        masks = tuple(~mine for mine in partner_of_seat)
        kept = _keep_claimable(table, owners, unclaimed, ~partner_of_any, masks)
    if state.rules.both_pair_routes_usable:
        return kept[2] & kept[4][seat]
    return kept[2] & kept[3] & kept[4][seat]


def _keep_claimable(
    table: _ActionTable,
    owners: tuple[int, ...],
    unclaimed: int,
    unpartnered: int,
    masks: tuple[int, ...],
) -> _Claimable:
    # Safe between threads without a lock: every step is one atomic dict
    # operation (no look over the dict), an entry is an immutable tuple holding
    # its owners tuple and its table's key (so a reader checks it is the tuple
    # it asked for, worked out for its board and player count, and the tuple's
    # id is not reused while kept), and an entry is right whoever stores it.
    # Threads storing at once may pass the bound by one entry each.
    kept = _CLAIMABLE
    if len(kept) >= _CLAIMABLE_KEPT:
        kept.clear()  # not an eviction of the oldest: that would look over the dict
    entry = kept[id(owners)] = (owners, table.key, unclaimed, unpartnered, masks)
    return entry


def _claimed(
    state: GameState, table: _ActionTable, rid: int, owner: int, new_owners: tuple[int, ...]
) -> None:
    """Keep what :func:`_claimable` takes for ``new_owners``, the owners of
    ``state``'s routes once ``owner`` (a seat or not) has claimed route ``rid``,
    from what is kept for ``state``'s own (if anything is), without a look at
    every route.

    Harmless if the claim is refused after all (a veto, a plugin's error): the
    entry is right for ``new_owners``, whatever becomes of that tuple.
    """
    owners = state.owners
    kept = _CLAIMABLE.get(id(owners))
    if kept is None or kept[0] is not owners or kept[1] is not table.key:
        return  # worked out when first needed
    unclaimed = kept[2] & ~(1 << rid)
    unpartnered = kept[3]
    masks = kept[4]
    partner = table.partner_bit[rid]
    if partner:
        unpartnered &= ~partner
        if 0 <= owner < len(masks):  # an owner that is no seat holds no hand
            masks = (*masks[:owner], masks[owner] & ~partner, *masks[owner + 1 :])
    _keep_claimable(table, new_owners, unclaimed, unpartnered, masks)


# ---------------------------------------------------------------------------
# Card supply
# ---------------------------------------------------------------------------


@attrs.define
class _Supply:
    """The transportation cards in play during one ``apply`` (mutable scratch)."""

    seed: int
    deck: tuple[int, ...]
    display: tuple[int | None, ...]
    discard: list[int]
    shuffles: int

    def draw(self) -> int | None:
        """The top card of the deck, shuffling the discard pile in when the deck is empty."""
        if not self.deck:
            if not any(self.discard):
                return None
            cards = [card for card, n in enumerate(self.discard) for _ in range(n)]
            _rng(self.seed, self.shuffles).shuffle(cards)
            self.shuffles += 1
            self.deck = tuple(cards)
            self.discard = [0] * len(self.discard)
        card = self.deck[0]
        self.deck = self.deck[1:]
        return card

    def refill(self, slot: int, board: Board) -> None:
        """Turn up a card in an emptied slot, then enforce the wild limit."""
        display = list(self.display)
        display[slot] = self.draw()
        self.display = tuple(display)
        self.check_wilds(board)

    def state_fields(self) -> dict[str, Any]:
        """The supply as ``GameState`` fields, for ``attrs.evolve``."""
        return {
            "deck": self.deck,
            "display": self.display,
            "discard": tuple(self.discard),
            "shuffles": self.shuffles,
        }

    def fill_empty(self, board: Board) -> None:
        """Turn up cards in slots left empty while no card was available (E4),
        then enforce the wild limit."""
        if None in self.display:
            self.display = tuple(self.draw() if c is None else c for c in self.display)
        self.check_wilds(board)

    def check_wilds(self, board: Board) -> None:
        """Reset the display while it shows too many wilds and a reset can help (E3)."""
        wild = board.wild
        limit = board.rules.max_face_up_wilds
        resets = 0
        while self.display.count(wild) > limit:
            shown = [c for c in self.display if c is not None]
            pool = len(self.deck) + sum(self.discard) + len(shown)
            pool_wild = self.deck.count(wild) + self.discard[wild] + shown.count(wild)
            size = min(len(self.display), pool)
            if pool - pool_wild < size - limit:
                return  # no display with fewer wilds can be made: leave it
            if resets == MAX_DISPLAY_RESETS:
                self._deal_within_limit(board)
                return
            for card in shown:
                self.discard[card] += 1
            self.display = tuple(self.draw() for _ in self.display)
            resets += 1

    def _deal_within_limit(self, board: Board) -> None:
        """Shuffle every available card and lay a display within the wild limit.

        Reached only after ``MAX_DISPLAY_RESETS`` unlucky resets in a row (a
        small pool rich in wilds): a reset that can succeed then always does,
        and the display is still laid from freshly shuffled cards.
        """
        wild = board.wild
        limit = board.rules.max_face_up_wilds
        pool = [*self.deck, *(c for c, n in enumerate(self.discard) for _ in range(n))]
        pool += [c for c in self.display if c is not None]
        _rng(self.seed, self.shuffles).shuffle(pool)
        self.shuffles += 1
        size = min(len(self.display), len(pool))
        display: list[int] = []
        rest: list[int] = []
        wilds = 0
        for card in pool:
            if len(display) < size and (card != wild or wilds < limit):
                display.append(card)
                wilds += card == wild
            else:
                rest.append(card)
        self.display = (*display, *(None,) * (len(self.display) - len(display)))
        self.deck = tuple(rest)
        self.discard = [0] * len(self.discard)


def _can_take_second(
    deck: tuple[int, ...], discard: Sequence[int], display: tuple[int | None, ...], wild: int
) -> bool:
    if deck or any(discard):
        return True
    return any(card is not None and card != wild for card in display)


# ---------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------


def new_game(
    map: str | os.PathLike[str] | Board,
    players: int,
    seed: int | None = None,
    variants: Iterable[str] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    tickets: str | os.PathLike[str] | None = None,
) -> GameState:
    """Set up a new game.

    ``map`` is a built-in map name, a map file path or a loaded :class:`Board`.
    ``seed`` is the source of all chance: a whole number from 0 to ``2**256 -
    1``. Without one (``None``) a fresh 128-bit seed is drawn from the
    operating system (:mod:`secrets`), so that nobody can guess the deck
    order; it is kept in ``state.seed``, which a server keeps secret. Give a
    seed to replay a game (tests, research). ``variants`` names the variants to
    switch on; ``None`` means the map's defaults and ``[]`` none at all.
    ``options`` gives variant options as ``{variant: {option: value}}`` (see
    :func:`variant_options`); options not given take their defaults.
    ``tickets`` is the path of a ticket deck file to play instead of the
    map's tickets (see ``docs/map-format.md``). The state returned waits for
    the first seat's starting ticket choice (engine decision E7).

    Raises :class:`UnknownMapError`, :class:`MapError`,
    :class:`UnknownVariantError`, :class:`PlayerCountError`,
    :class:`OptionError`, :class:`PluginError` (a variant that is installed
    but broken), or :class:`ArgumentError` for an argument of the wrong type
    (a seed that is not a whole number in range, a map that is not a name,
    a path or a board).
    """
    if seed is None:
        seed = secrets.randbits(128)
    elif type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        if type(seed) is int:
            raise ArgumentError(
                f"seed must be a whole number from 0 to 2**256 - 1, not {show(seed)}"
            )
        raise ArgumentError(f"seed must be an int (or None for a fresh one), not {what(seed)}")
    if not isinstance(map, str | os.PathLike | Board):
        raise ArgumentError(
            f"map must be a map name, the path of a map file or a Board, not {what(map)}"
        )
    if tickets is not None and not isinstance(tickets, str | os.PathLike):
        raise ArgumentError(
            f"tickets must be the path of a ticket deck file (or None), not {what(tickets)}"
        )
    board = map if isinstance(map, Board) else load_map(map)
    if tickets is not None:
        board = board_with_tickets(board, tickets)
    low, high = board.rules.min_players, board.rules.max_players
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise PlayerCountError(board.id, printable(players), low, high)
    rules = game_rules(board, players, resolve_variants(board, variants), options)
    mr = board.rules

    cards = [card for card, n in enumerate(board.deck) for _ in range(n)]
    _rng(seed, 0).shuffle(cards)
    hands = [[0] * len(board.deck) for _ in range(players)]
    for _ in range(mr.starting_hand):
        for hand in hands:
            hand[cards.pop(0)] += 1
    supply = _Supply(seed, (), (), [0] * len(board.deck), 2)
    display_cards = cards[: mr.display_size]
    supply.deck = tuple(cards[mr.display_size :])
    supply.display = tuple(display_cards)
    supply.check_wilds(board)

    ticket_ids = list(range(len(board.tickets)))
    _rng(seed, 1).shuffle(ticket_ids)
    offers = []
    for _ in range(players):
        offers.append(tuple(ticket_ids[: mr.start_tickets_dealt]))
        del ticket_ids[: mr.start_tickets_dealt]

    names = board.card_names
    start_scores = mr.start_scores
    state = GameState(
        board=board,
        rules=rules,
        seed=seed,
        players=tuple(
            PlayerState(
                hand=Hand(tuple(hands[p]), names),
                tickets=(),
                cars=mr.cars_per_player,
                routes=(),
                score=start_scores[p] if p < len(start_scores) else 0,
            )
            for p in range(players)
        ),
        deck=supply.deck,
        display=supply.display,
        discard=tuple(supply.discard),
        ticket_deck=tuple(ticket_ids),
        ticket_discard=(),
        owners=(UNCLAIMED,) * len(board.routes),
        pending=Pending(_START, 0, offers[0], min(mr.start_tickets_keep, len(offers[0]))),
        start_offers=tuple(offers[1:]),
        shuffles=supply.shuffles,
    )
    if rules.deal_tickets:
        state = _hook_deal(state)
    if rules.setup:
        state = rules.run_setup(state)
    return state


def _hook_deal(state: GameState) -> GameState:
    """The starting deal redone seat by seat through ``ttr_deal_tickets``, from the
    same shuffled tickets (a seat the hook leaves to the core gets the top ones)."""
    assert state.pending is not None
    count = state.board.rules.start_tickets_dealt
    pool = [*state.pending.offered, *(t for o in state.start_offers for t in o)]
    deck = (*pool, *state.ticket_deck)
    offers = []
    for seat in range(state.num_players):
        asked = replace_state(state, ticket_deck=deck)
        chosen = state.rules.run_deal_tickets(asked, seat, count, True)
        if chosen is None:
            chosen = deck[:count]
        taken = set(chosen)
        deck = tuple(t for t in deck if t not in taken)
        offers.append(chosen)
    pending = Pending(_START, 0, offers[0], state.pending.min_keep)
    return replace_state(state, ticket_deck=deck, pending=pending, start_offers=tuple(offers[1:]))


# ---------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every action the player to decide may take, exactly.

    Each action listed applies without error; every other action is refused
    by :func:`apply`. Empty once the game is over. ``Pass`` is listed only
    when nothing else is legal (E1). Cached on the (immutable) state.
    Raises :class:`ArgumentError` if ``state`` is not a :class:`GameState`.
    """
    if type(state) is not GameState:
        check_state(state)  # a subclass passes; anything else is refused
    cached = state._legal_cache
    if cached is None:
        cached = _compute_legal(state)
        object.__setattr__(state, "_legal_cache", cached)
    return cached


def _compute_legal(state: GameState) -> tuple[Action, ...]:
    pending = state.pending
    if pending is None:
        return ()
    rules = state.rules
    kind = pending.kind
    seat = pending.player
    if kind == _TURN:
        acts = _turn_actions(state, seat)
    elif kind == _SECOND:
        acts = _second_card_actions(state, seat)
    elif kind in (_START, _KEEP):
        acts = keep_choices(seat, pending.offered, pending.min_keep)
    else:
        acts = []
    if rules.filter:
        acts, removed = rules.run_filter(state, acts)
        if removed:
            object.__setattr__(state, "_filtered_out", removed)
    if rules.veto:
        acts = [a for a in acts if rules.run_veto(state, a) is None]
    if rules.extra_actions:
        # A new list: after a filter ``acts`` may be the list the plugin returned.
        acts = [*acts, *rules.run_extra_actions(state)]
    if not acts:
        if kind != _TURN:
            # Only a turn can be passed; any other decision left without a
            # choice would stall the game, which only a plugin can cause.
            raise PluginError(
                f"no legal action for the pending {kind!r} decision of seat {seat}: "
                f"variants {', '.join(rules.variants) or 'none'} filtered, vetoed or offered none"
            )
        acts = [_action_table(state.board, state.num_players).passes[seat]]
    return tuple(acts)


def _turn_actions(state: GameState, seat: int) -> list[Action]:
    table = _action_table(state.board, state.num_players)
    acts: list[Action] = []
    if state.deck or any(state.discard):
        acts.append(table.blind[seat])
    display = state.display
    if None in display:
        face_up = table.face_up[seat]
        acts += [face_up[slot] for slot, card in enumerate(display) if card is not None]
    else:  # every slot of the display (a sound state has the map's display size)
        acts += table.face_up[seat]
    player = state.players[seat]
    counts = player.hand.counts
    cars = player.cars
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
    payable &= within_cars[cars if cars < top else top] if cars > 0 else 0
    payable &= _claimable(state, table, seat)
    if payable:
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
    if state.ticket_deck or state.ticket_discard:
        acts.append(table.tickets[seat])
    return acts


def _second_card_actions(state: GameState, seat: int) -> list[Action]:
    table = _action_table(state.board, state.num_players)
    acts: list[Action] = []
    if state.deck or any(state.discard):
        acts.append(table.blind[seat])
    wild = state.board.wild
    display = state.display
    if None in display or wild in display:
        face_up = table.face_up[seat]
        acts += [face_up[s] for s, card in enumerate(display) if card is not None and card != wild]
    else:
        acts += table.face_up[seat]
    return acts


# ---------------------------------------------------------------------------
# Apply
# ---------------------------------------------------------------------------


def apply(
    state: GameState,
    action: Action,
    *,
    seat: int | None = None,
    expect_ply: int | None = None,
) -> GameState:
    """The state after ``action``. Pure: ``state`` is never changed.

    Raises :class:`IllegalAction` (with a :class:`Reason`) for an action the
    rules do not allow here, a malformed one included (a field of the wrong
    type: ``malformed_action`` for the seat, else the field's own reason), and
    :class:`ArgumentError` if ``state`` is not a :class:`GameState`.

    The seat is checked first: an action in the name of a seat that is not
    to decide is refused (``not_your_turn``) before anything else is looked
    at, so no message can quote that seat's hand or ticket offer.

    For servers, two guards, both checked before anything else:

    - ``seat``: the seat the move came from (the client's authenticated
      seat). An action in another seat's name is refused (``wrong_seat``)
      with a message that depends only on the two seat numbers, so a client
      can never act as, or probe the hidden cards of, the seat to decide.
    - ``expect_ply``: the :attr:`GameState.ply` the client saw when it chose
      the move. On a state at another ply the move is refused with
      :class:`StaleMoveError` (``stale_move``): a retried or outdated move is
      never applied twice.
    """
    if type(state) is not GameState:
        check_state(state)
    if expect_ply is not None:
        if type(expect_ply) is not int:
            raise ArgumentError(f"expect_ply must be an int (or None), not {what(expect_ply)}")
        if expect_ply != state.ply:
            raise StaleMoveError(printable_ply(expect_ply), state.ply)
    if seat is not None:
        _check_seat(state, action, seat)
    pending = state.pending
    if pending is None:
        raise IllegalAction(Reason.GAME_OVER, "the game is over: no action can be taken")
    if not isinstance(action, Action):
        raise IllegalAction(
            Reason.UNKNOWN_ACTION, f"expected a ttr_core.Action, not {type(action).__name__}"
        )
    try:
        player = action.player
    except AttributeError:  # an Action built without __init__
        player = None
    # Exactly an int: 0.0, False and "0" compare (or hash) like seat 0 but are
    # no seat, and would break the game further on.
    if type(player) is not int:
        raise IllegalAction(
            Reason.MALFORMED_ACTION,
            f"an action's player is a seat number (an int), not {what(player)}",
        )
    if player != pending.player:
        raise IllegalAction(
            Reason.NOT_YOUR_TURN,
            f"it is seat {pending.player}'s decision, not seat {show(player)}'s",
        )
    handler = _HANDLERS.get(type(action))
    rules = state.rules
    if handler is None:
        if rules.apply_action:
            result = rules.run_apply_action(state, action)
            if result is not None:
                return result if result.ply == state.ply + 1 else _counted(result, state)
        raise IllegalAction(Reason.UNKNOWN_ACTION, f"no rule applies {show(action)}")
    if pending.kind not in _CORE_KINDS:
        raise IllegalAction(
            Reason.WRONG_PHASE,
            f"the game waits for a {pending.kind!r} decision, not {show(action)}",
        )
    # An action a filter removed is one the core listed, so refusing it before
    # the core's checks reports the same reason, and runs none of its effects.
    if rules.filter and type(action) is not Pass:
        if state._legal_cache is None:
            legal_actions(state)  # runs the filters, noting what they removed
        removed = state._filtered_out
        # One of the objects listed (what play applies: one identity scan, in C)
        # is none of the removed actions: see _filtered_out_by.
        if removed is not None and not any(
            map(operator.is_, state._legal_cache or (), itertools.repeat(action))
        ):
            variant = _filtered_out_by(state, removed, action)
            if variant is not None:
                raise IllegalAction(
                    Reason.VETOED, f"{show(action)} is not allowed by variant {variant!r}"
                )
    new = handler(state, action)
    # Vetoes are asked only of actions the core allows (so a wrong phase is
    # reported as such); Pass, the action of last resort, is exempt.
    if rules.veto and type(action) is not Pass:
        reason = rules.run_veto(state, action)
        if reason is not None:
            raise IllegalAction(Reason.VETOED, reason)
    # The core's handlers count the action themselves; a hook that built its
    # state from another one may not have.
    return new if new.ply == state.ply + 1 else _counted(new, state)


def _filtered_out_by(state: GameState, removed: FilteredOut, action: Action) -> str | None:
    """The variant whose filter removed ``action`` from ``state``'s legal actions
    (``removed``: see :data:`~ttr_core.plugin_manager.FilteredOut`), or ``None``.

    For an action that is none of the objects listed (``apply`` looks for it
    there first: those are candidates the filters kept, and the core's
    candidates are distinct, so none of them is a removed one). No action is
    hashed: ``action`` is compared with the few removed ones, by identity,
    then by value once its fields are checked (so that the comparison runs
    nothing but the core's own code).
    """
    kind = type(action)
    variant = ""
    checked = False
    for out in removed:
        if type(out) is str:
            variant = out
        elif out is action:
            return variant
        elif type(out) is kind:
            if not checked:
                malformed = _field_error(state, action)
                if malformed is not None:
                    raise malformed
                checked = True
            if out == action:
                return variant
    return None


def _counted(new: GameState, before: GameState) -> GameState:
    """``new`` as the state one action after ``before`` (its ``ply`` set)."""
    return replace_state(new, ply=before.ply + 1)


def printable_ply(value: int) -> int:
    """A ply to quote in a message: a huge int is clamped (it is no ply anyway)."""
    return value if -(10**12) < value < 10**12 else (10**12 if value > 0 else -(10**12))


def _check_seat(state: GameState, action: object, seat: object) -> None:
    """``apply``'s ``seat`` guard: ``ArgumentError`` for a seat that is no seat of
    the game, ``IllegalAction(wrong_seat)`` for an action in another seat's name.
    Nothing but the two seat numbers is looked at (nothing hidden)."""
    if type(seat) is not int or not 0 <= seat < len(state.players):
        raise ArgumentError(
            f"seat must be a seat from 0 to {len(state.players) - 1}, not {show(seat)}"
        )
    player = getattr(action, "player", None) if isinstance(action, Action) else None
    if player != seat or type(player) is not int:
        raise IllegalAction(
            Reason.WRONG_SEAT,
            f"seat {seat} may only act in its own name, not as {_named_seat(player)}",
        )


def _named_seat(player: object) -> str:
    if type(player) is int:
        return f"seat {printable_ply(player)}"
    return "an action without a seat" if player is None else f"seat {show(player, 20)}"


def _wrong_phase(state: GameState, action: Action) -> IllegalAction:
    assert state.pending is not None
    return IllegalAction(
        Reason.WRONG_PHASE,
        f"{type(action).__name__} is not allowed now: the game waits for "
        f"{state.pending.kind.replace('_', ' ')}",
    )


def _field_error(state: GameState, action: Action) -> IllegalAction | None:
    """Why a core action's fields (other than its seat) have the wrong types, or
    ``None``: each field must be exactly of its declared type (an ``int`` is not
    a bool or a float), so that no field of a refused action is ever used as an
    index, hashed or compared. The reason is the field's own (``bad_slot``,
    ``unknown_route``, ``bad_payment``, ``ticket_not_offered``)."""
    kind = type(action)
    if kind is DrawFaceUp:
        assert isinstance(action, DrawFaceUp)
        if type(action.slot) is not int:
            return IllegalAction(
                Reason.BAD_SLOT, f"a face-up slot is an int, not {what(action.slot)}"
            )
    elif kind is ClaimRoute:
        assert isinstance(action, ClaimRoute)
        if type(action.route) is not int:
            return IllegalAction(
                Reason.UNKNOWN_ROUTE, f"a route is an int (its id), not {what(action.route)}"
            )
        if type(action.wilds) is not int:
            return IllegalAction(
                Reason.BAD_PAYMENT, f"wilds is an int (a count), not {what(action.wilds)}"
            )
        color = action.color
        if color is not None and type(color) is not str:
            return IllegalAction(
                Reason.BAD_PAYMENT,
                f"color is a card colour name (a str) or None, not {what(color)}",
            )
    elif kind is KeepTickets:
        assert isinstance(action, KeepTickets)
        chosen = action.tickets
        if type(chosen) is not frozenset:
            return IllegalAction(
                Reason.MALFORMED_ACTION,
                f"KeepTickets.tickets is a frozenset of ticket ids, not {what(chosen)}",
            )
        stray = [t for t in chosen if type(t) is not int]
        if stray:
            return IllegalAction(
                Reason.NOT_OFFERED,
                f"tickets are ids (ints): {_some(stray)} cannot have been offered",
            )
    return None


def _refused_fields(state: GameState, action: Action) -> IllegalAction:
    """The error of an action whose field types a handler found wrong."""
    error = _field_error(state, action)
    assert error is not None
    return error


def _some(values: Iterable[object], most: int = 5) -> str:
    """Up to ``most`` values for a message (``...`` if there are more)."""
    shown = [show(v) for v in itertools.islice(values, most + 1)]
    if len(shown) > most:
        return f"{', '.join(shown[:most])} ..."
    return ", ".join(shown)


def _supply(state: GameState) -> _Supply:
    return _Supply(state.seed, state.deck, state.display, list(state.discard), state.shuffles)


def _with_hand(player: PlayerState, counts: list[int], **changes: Any) -> PlayerState:
    return replace_player(player, hand=Hand(tuple(counts), player.hand.names), **changes)


def _replace_player(
    players: tuple[PlayerState, ...], seat: int, new: PlayerState
) -> tuple[PlayerState, ...]:
    return (*players[:seat], new, *players[seat + 1 :])


def _apply_draw_blind(state: GameState, action: Action) -> GameState:
    assert state.pending is not None
    kind = state.pending.kind
    if kind != _TURN and kind != _SECOND:
        raise _wrong_phase(state, action)
    seat = action.player
    deck = state.deck
    if deck:
        # The common case, without the supply machinery: the top card, no reshuffle.
        card = deck[0]
        changes: dict[str, Any] = {
            "players": _with_card(state.players, seat, card),
            "deck": deck[1:],
        }
        if kind == _TURN and _can_take_second(
            changes["deck"], state.discard, state.display, state.board.wild
        ):
            changes["pending"] = _action_table(state.board, state.num_players).second[seat]
            return replace_state(state, ply=state.ply + 1, **changes)
        return _finish_turn(state, changes, passed=False)
    supply = _supply(state)
    drawn = supply.draw()
    if drawn is None:
        raise IllegalAction(Reason.NO_CARD_TO_DRAW, "the deck and the discard pile are both empty")
    # A blind wild is an ordinary card: the draw goes on (unless this was the second).
    return _take_card_blind(state, supply, seat, drawn, second=kind == _SECOND)


def _with_card(
    players: tuple[PlayerState, ...], seat: int, card: int, seen: bool = False
) -> tuple[PlayerState, ...]:
    """``players`` with one more card of index ``card`` in ``seat``'s hand; a card
    every player ``seen`` taken (face up) is known too."""
    player = players[seat]
    hand = player.hand
    # list, add, tuple: cheaper than slicing a new tuple together.
    more = list(hand.counts)
    more[card] += 1
    if seen:  # known_plus, inlined: this is the hot path of face-up draws
        known = list(player.known or _no_known(len(more)))
        known[card] += 1
        new = replace_player(player, hand=Hand(tuple(more), hand.names), known=tuple(known))
    else:
        new = replace_player(player, hand=Hand(tuple(more), hand.names))
    return (*players[:seat], new, *players[seat + 1 :])


def _no_known(kinds: int) -> tuple[int, ...]:
    """``PlayerState.known`` with no card known, written out (``kinds`` zeros)."""
    return (0,) * kinds


def known_plus(known: tuple[int, ...], card: int, kinds: int) -> tuple[int, ...]:
    """``PlayerState.known`` once card ``card`` was taken face up (``kinds``: cards
    of the map)."""
    more = list(known or _no_known(kinds))
    more[card] += 1
    return tuple(more)


def known_minus(known: tuple[int, ...], paid: Iterable[tuple[int, int]]) -> tuple[int, ...]:
    """``PlayerState.known`` once ``paid`` (``(card index, count)`` pairs) left the
    hand: the cards paid are taken from the known ones first, as far as they go
    (``()`` once none is known)."""
    if not known:
        return known
    left = list(known)
    for card, n in paid:
        have = left[card]
        left[card] = have - n if have > n else 0
    return tuple(left) if any(left) else ()


def _take_card_blind(
    state: GameState, supply: _Supply, seat: int, card: int, second: bool
) -> GameState:
    counts = list(state.players[seat].hand.counts)
    counts[card] += 1
    changes = _card_changes(state, supply, seat, counts)
    if not second and _can_take_second(
        supply.deck, supply.discard, supply.display, state.board.wild
    ):
        changes["pending"] = _action_table(state.board, state.num_players).second[seat]
        return replace_state(state, ply=state.ply + 1, **changes)
    return _finish_turn(state, changes, passed=False)


def _card_changes(
    state: GameState,
    supply: _Supply,
    seat: int,
    counts: list[int],
    known: tuple[int, ...] | None = None,
) -> dict[str, Any]:
    """The state fields once ``seat``'s hand holds ``counts`` (and, if given, its
    ``known`` cards are those) and the supply is as ``supply`` has it."""
    player = state.players[seat]
    new = _with_hand(player, counts) if known is None else _with_hand(player, counts, known=known)
    return {"players": _replace_player(state.players, seat, new), **supply.state_fields()}


def _apply_draw_face_up(state: GameState, action: Action) -> GameState:
    assert state.pending is not None and isinstance(action, DrawFaceUp)
    slot = action.slot
    if type(slot) is not int:
        raise _refused_fields(state, action)
    kind = state.pending.kind
    if kind != _TURN and kind != _SECOND:
        raise _wrong_phase(state, action)
    card = face_up_card(state, slot)
    wild = state.board.wild
    if kind == _SECOND and card == wild:
        raise IllegalAction(
            Reason.WILD_AS_SECOND_CARD, "a face-up wild cannot be taken as the second card"
        )
    seat = action.player
    deck = state.deck
    display = state.display
    board = state.board
    if deck:
        refilled = (*display[:slot], deck[0], *display[slot + 1 :])
        if refilled.count(wild) <= board.rules.max_face_up_wilds:
            # The common case, without the supply machinery: refilled from the
            # top of the deck, no reset (E3) needed.
            changes: dict[str, Any] = {
                "players": _with_card(state.players, seat, card, seen=True),
                "deck": deck[1:],
                "display": refilled,
            }
            return _after_face_up(state, changes, kind, card, seat)
    supply = _supply(state)
    supply.refill(slot, board)
    player = state.players[seat]
    counts = list(player.hand.counts)
    counts[card] += 1
    known = known_plus(player.known, card, len(counts))
    return _after_face_up(
        state, _card_changes(state, supply, seat, counts, known), kind, card, seat
    )


def face_up_card(state: GameState, slot: object) -> int:
    """The card in face-up ``slot`` (``IllegalAction`` for no such slot, or an empty one)."""
    if type(slot) is not int or not 0 <= slot < len(state.display):
        raise IllegalAction(
            Reason.BAD_SLOT,
            f"slot {show(slot)} does not exist: slots are 0 to {len(state.display) - 1}",
        )
    card = state.display[slot]
    if card is None:
        raise IllegalAction(Reason.EMPTY_SLOT, f"face-up slot {slot} is empty")
    return card


def _after_face_up(
    state: GameState, changes: dict[str, Any], kind: str, card: int, seat: int
) -> GameState:
    """The draw goes on to a second card, or the turn ends."""
    wild = state.board.wild
    # A face-up wild taken first is the whole draw; a second card ends it too.
    if (
        kind == _TURN
        and card != wild
        and _can_take_second(
            changes["deck"], changes.get("discard", state.discard), changes["display"], wild
        )
    ):
        changes["pending"] = _action_table(state.board, state.num_players).second[seat]
        return replace_state(state, ply=state.ply + 1, **changes)
    return _finish_turn(state, changes, passed=False)


def _who(state: GameState, owner: int) -> str:
    return f"seat {owner}" if state.is_seat(owner) else f"owner {owner} (not a seat)"


def route_claim_error(state: GameState, rid: object, owner: int) -> IllegalAction | None:
    """Why ``owner`` may not claim route ``rid`` whatever it pays, or ``None``.

    The route must exist and be free; an owner never holds both routes of a
    pair, and a pair's second route is closed when the game uses one route of
    a pair; a seat must have the cars.
    """
    board = state.board
    if type(rid) is not int or not 0 <= rid < len(board.routes):
        return IllegalAction(Reason.UNKNOWN_ROUTE, f"there is no route {show(rid)} on {board.id}")
    route = board.routes[rid]
    desc = f"route {rid} ({route.a}–{route.b}, {route.color} {route.length})"
    if state.owners[rid] != UNCLAIMED:
        return IllegalAction(
            Reason.ROUTE_CLAIMED,
            f"{desc} is already claimed by {_who(state, state.owners[rid])}",
        )
    if route.partner is not None:
        partner_owner = state.owners[route.partner]
        if partner_owner == owner:
            return IllegalAction(
                Reason.OWNS_PARALLEL_ROUTE,
                f"{_who(state, owner)} owns route {route.partner}, the parallel route of {desc}",
            )
        if partner_owner != UNCLAIMED and not state.rules.both_pair_routes_usable:
            return IllegalAction(
                Reason.PARALLEL_ROUTE_CLOSED,
                f"{desc} is closed: its parallel route {route.partner} is claimed and with "
                f"{state.num_players} players only one route of a pair is used",
            )
    if 0 <= owner < len(state.players) and state.players[owner].cars < route.length:
        return IllegalAction(
            Reason.NOT_ENOUGH_CARS,
            f"{desc} needs {route.length} cars; seat {owner} has {state.players[owner].cars}",
        )
    return None


def _claim_error(state: GameState, action: ClaimRoute) -> IllegalAction | None:
    """Why ``action`` may not be applied, or ``None`` if it may."""
    seat = action.player
    error = route_claim_error(state, action.route, seat)
    if error is not None:
        return error
    board = state.board
    rid = action.route
    route = board.routes[rid]
    desc = f"route {rid} ({route.a}–{route.b}, {route.color} {route.length})"
    player = state.players[seat]
    wilds = action.wilds
    if type(wilds) is not int or not 0 <= wilds <= route.length:
        return IllegalAction(
            Reason.BAD_PAYMENT, f"wilds must be 0 to {route.length}, not {show(wilds)}"
        )
    color = action.color
    counts = player.hand.counts
    if wilds == route.length:
        if color is not None:
            return IllegalAction(
                Reason.BAD_PAYMENT, "a payment with wilds alone names no colour (color=None)"
            )
    else:
        if type(color) is not str or color not in board.colors:
            return IllegalAction(
                Reason.BAD_PAYMENT,
                f"colour {show(color)} is not a card colour "
                f"(expected one of {', '.join(board.colors)})",
            )
        if route.color != GRAY and color != route.color:
            return IllegalAction(
                Reason.CARDS_DO_NOT_PAY, f"{desc} must be paid in {route.color}, not {color}"
            )
        need = route.length - wilds
        have = counts[board.colors.index(color)]
        if have < need:
            return IllegalAction(
                Reason.CARDS_DO_NOT_PAY,
                f"paying {desc} needs {need} {color} cards; seat {seat} has {have}",
            )
    if counts[board.wild] < wilds:
        return IllegalAction(
            Reason.CARDS_DO_NOT_PAY,
            f"paying {desc} needs {wilds} wilds; seat {seat} has {counts[board.wild]}",
        )
    return None


def _apply_claim(state: GameState, action: Action) -> GameState:
    assert state.pending is not None and isinstance(action, ClaimRoute)
    color = action.color
    if (
        type(action.route) is not int
        or type(action.wilds) is not int
        or (color is not None and type(color) is not str)
    ):
        raise _refused_fields(state, action)
    if state.pending.kind != _TURN:
        raise _wrong_phase(state, action)
    error = _claim_error(state, action)
    if error is not None:
        raise error
    rules = state.rules
    if rules.before_claim:
        # The claim pipeline: a variant may make the claim wait for a decision
        # of the claiming seat (docs/hooks.md); it completes or cancels it later.
        waiting = rules.run_before_claim(state, action)
        if waiting is not None:
            return waiting
    changes = _claim_changes(state, action.player, action.route, claim_payment(state, action))
    if rules.after_claim:
        claimed = rules.run_after_claim(
            replace_state(state, **changes), action.player, action.route
        )
        return _finish_turn(claimed, {}, passed=False)
    return _finish_turn(state, changes, passed=False)


def claim_payment(state: GameState, action: ClaimRoute) -> tuple[tuple[int, int], ...]:
    """The ``(card index, count)`` pairs a checked ``action`` pays: wilds, and the colour."""
    board = state.board
    paid: tuple[tuple[int, int], ...] = ((board.wild, action.wilds),)
    if action.color is not None:
        length = board.routes[action.route].length
        paid = ((board.colors.index(action.color), length - action.wilds), *paid)
    return paid


def claim_for(
    state: GameState, owner: int, route_id: int, paid: Iterable[tuple[int, int]]
) -> GameState:
    """Record ``owner``'s claim of a route and run the after-claim chain; the turn goes on.

    The caller has checked that the claim is allowed. ``paid`` gives ``(card
    index, count)`` pairs; see :func:`_claim_changes`.
    """
    claimed = replace_state(state, **_claim_changes(state, owner, route_id, paid))
    if state.rules.after_claim:
        claimed = state.rules.run_after_claim(claimed, owner, route_id)
    return claimed


def _claim_changes(
    state: GameState, owner: int, route_id: int, paid: Iterable[tuple[int, int]]
) -> dict[str, Any]:
    """The state fields a claim changes.

    A seat pays ``paid`` (``(card index, count)`` pairs) from its hand into
    the discard pile (its known cards of the kinds paid go first, see
    :func:`known_minus`), places the route's cars and scores its points; an
    owner that is not a seat pays and places nothing here. Empty slots and
    too many face-up wilds are then dealt with as soon as the discarded cards
    allow (E3/E4).
    """
    owners = list(state.owners)
    owners[route_id] = owner
    new_owners = tuple(owners)
    changes: dict[str, Any] = {"owners": new_owners}
    _claimed(state, _action_table(state.board, len(state.players)), route_id, owner, new_owners)
    if not 0 <= owner < len(state.players):
        return changes
    board = state.board
    route = board.routes[route_id]
    player = state.players[owner]
    counts = list(player.hand.counts)
    discard = list(state.discard)
    known = player.known
    if known:  # known_minus, inlined (the claim's hot path)
        left = list(known)
        for card, n in paid:
            counts[card] -= n
            discard[card] += n
            have = left[card]
            left[card] = have - n if have > n else 0
        known = tuple(left) if any(left) else ()
    else:
        for card, n in paid:
            counts[card] -= n
            discard[card] += n
    new_player = _with_hand(
        player,
        counts,
        cars=player.cars - route.length,
        routes=(*player.routes, route_id),
        score=player.score + board.rules.route_points[route.length],
        known=known,
    )
    changes["players"] = _replace_player(state.players, owner, new_player)
    changes["discard"] = tuple(discard)
    display = state.display
    if None in display or display.count(board.wild) > board.rules.max_face_up_wilds:
        # Slots left empty (E4) are filled, and a display left with too many
        # wilds (E3) is reset, as soon as the cards just discarded allow it.
        supply = _Supply(state.seed, state.deck, display, discard, state.shuffles)
        supply.fill_empty(board)
        changes.update(supply.state_fields())
    return changes


def ticket_draw(
    state: GameState, count: int, seat: int | None = None
) -> tuple[dict[str, Any], tuple[int, ...]]:
    """Up to ``count`` tickets from the top of the ticket deck, as ``(changes, ids)``.

    An empty ticket deck is first refilled from the shuffled ticket discard
    pile. ``changes`` are the ticket-deck fields of the new state. With a
    ``seat`` (a ``DrawTickets``), the variants' ``ttr_deal_tickets`` may
    choose the tickets instead of the top of the deck.
    """
    deck = state.ticket_deck
    discard = state.ticket_discard
    shuffles = state.shuffles
    if not deck and discard:
        pile = list(discard)
        _rng(state.seed, shuffles).shuffle(pile)
        deck, discard, shuffles = tuple(pile), (), shuffles + 1
    if seat is not None and state.rules.deal_tickets:
        asked = replace_state(state, ticket_deck=deck, ticket_discard=discard, shuffles=shuffles)
        chosen = state.rules.run_deal_tickets(asked, seat, count, False)
        if chosen is not None:
            taken = set(chosen)
            rest = tuple(t for t in deck if t not in taken)
            return {"ticket_deck": rest, "ticket_discard": discard, "shuffles": shuffles}, chosen
    drawn = deck[:count]
    changes = {"ticket_deck": deck[count:], "ticket_discard": discard, "shuffles": shuffles}
    return changes, drawn


def ticket_return(state: GameState, returned: tuple[int, ...]) -> dict[str, Any]:
    """The ticket-deck fields once ``returned`` go back as the map says (bottom or pile)."""
    if state.board.rules.returned_tickets == "discard":
        return {"ticket_discard": state.ticket_discard + returned}
    return {"ticket_deck": state.ticket_deck + returned}


def _apply_draw_tickets(state: GameState, action: Action) -> GameState:
    assert state.pending is not None
    if state.pending.kind != _TURN:
        raise _wrong_phase(state, action)
    rules = state.board.rules
    changes, offered = ticket_draw(state, rules.draw_tickets, action.player)
    if not offered:
        raise IllegalAction(Reason.NO_TICKETS_LEFT, "no destination tickets are left to draw")
    keep = min(rules.draw_tickets_keep, len(offered))
    return replace_state(
        state, pending=Pending(_KEEP, action.player, offered, keep), ply=state.ply + 1, **changes
    )


def _apply_keep(state: GameState, action: Action) -> GameState:
    pending = state.pending
    assert pending is not None and isinstance(action, KeepTickets)
    chosen = action.tickets
    if type(chosen) is not frozenset:
        raise _refused_fields(state, action)
    for ticket in chosen:  # a loop: cheaper than any() over a generator
        if type(ticket) is not int:
            raise _refused_fields(state, action)
    if pending.kind != _KEEP and pending.kind != _START:
        raise _wrong_phase(state, action)
    stray = sorted(t for t in chosen if t not in pending.offered)
    if stray:
        raise IllegalAction(
            Reason.NOT_OFFERED,
            f"tickets {_some(stray)} were not offered (offered: {list(pending.offered)})",
        )
    if len(chosen) < pending.min_keep:
        raise IllegalAction(
            Reason.TOO_FEW_TICKETS_KEPT,
            f"must keep at least {pending.min_keep} of {len(pending.offered)} tickets, "
            f"not {len(chosen)}",
        )
    kept = tuple(t for t in pending.offered if t in chosen)
    returned = tuple(t for t in pending.offered if t not in chosen)
    seat = action.player
    player = state.players[seat]
    changes: dict[str, Any] = {
        "players": _replace_player(
            state.players, seat, replace_player(player, tickets=player.tickets + kept)
        ),
        **ticket_return(state, returned),
    }
    if pending.kind == _KEEP:
        return _finish_turn(state, changes, passed=False)
    # Starting choice: the next seat chooses, or the first turn begins (E7).
    offers = state.start_offers
    if offers:
        keep = min(state.board.rules.start_tickets_keep, len(offers[0]))
        changes["pending"] = Pending(_START, seat + 1, offers[0], keep)
        changes["start_offers"] = offers[1:]
    else:
        changes["pending"] = _action_table(state.board, state.num_players).turn[0]
    return replace_state(state, ply=state.ply + 1, **changes)


def _apply_pass(state: GameState, action: Action) -> GameState:
    if legal_actions(state) != (action,):
        raise IllegalAction(
            Reason.PASS_NOT_ALLOWED, "pass is allowed only when no other action is legal"
        )
    return _finish_turn(state, {}, passed=True)


def _finish_turn(state: GameState, changes: dict[str, Any], passed: bool) -> GameState:
    """End the current seat's turn: final-round and stalemate bookkeeping, next seat."""
    assert state.pending is not None
    seat = state.pending.player
    n = state.num_players
    players = changes.get("players", state.players)
    final = state.final_turns
    if final < 0:
        if players[seat].cars <= state.board.rules.end_trigger_cars:
            final = n  # every seat, the trigger included, plays one more turn (E8)
    else:
        final -= 1
    passes = state.passes + 1 if passed else 0
    termination = None
    if final == 0:
        termination = Termination.CARS
    elif passes >= n:
        termination = Termination.STALEMATE  # a full round of passes (E2)
    changes["final_turns"] = final
    changes["passes"] = passes
    changes["turn"] = state.turn + 1
    changes["ply"] = state.ply + 1
    changes["termination"] = termination
    changes["pending"] = None if termination else _action_table(state.board, n).turn[(seat + 1) % n]
    new = replace_state(state, **changes)
    rules = state.rules
    if termination is None:
        if rules.between_turns:
            new = rules.run_between_turns(new)
    elif rules.game_over:
        new = rules.run_game_over(new)
    return new


_HANDLERS = {
    DrawBlind: _apply_draw_blind,
    DrawFaceUp: _apply_draw_face_up,
    ClaimRoute: _apply_claim,
    DrawTickets: _apply_draw_tickets,
    KeepTickets: _apply_keep,
    Pass: _apply_pass,
}


def end_turn(state: GameState) -> GameState:
    """End the current seat's turn as the core does after any turn action.

    For plugins whose own actions (``ttr_apply_action``) complete a turn: the
    final-round count, the next seat and the between-turns hooks all follow.
    Raises :class:`ArgumentError` if ``state`` is not a :class:`GameState`.
    """
    check_state(state)
    if state.pending is None:
        raise IllegalAction(Reason.GAME_OVER, "the game is over: no turn can end")
    if state.pending.kind in (_KEEP, _START):
        raise PluginError(
            f"end_turn() with tickets on offer ({state.pending.kind}): the offered "
            "tickets would be lost; let the seat keep them or return them first"
        )
    return _finish_turn(state, {}, passed=False)


def is_over(state: GameState) -> bool:
    """Whether the game has ended (no player has a decision to make).

    Raises :class:`ArgumentError` if ``state`` is not a :class:`GameState`.
    """
    if type(state) is not GameState:
        check_state(state)
    return state.termination is not None

"""The working state: one game's state, mutable, that the rules change in place.

A :class:`Work` is loaded from a frozen :class:`~ttr_core.GameState` and
published back as one. It owns nothing until it writes: a field holds the
state's own tuple until a rule changes it, then a list the work owns (copy on
write), so loading is a few references and publishing rebuilds only what
changed; what did not change is shared with the state it was loaded from.
A seat's hand, cars, routes and score are loaded the same way, seat by seat.

The public API never hands a ``Work`` out: :func:`ttr_core.apply` loads one,
runs one rule on it and publishes the result; a :class:`~ttr_core.Playout`
keeps one across actions and publishes only when asked.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ttr_core.model.board import Board
from ttr_core.model.gamerules import GameRules
from ttr_core.model.state import GameState, Hand, PlayerState
from ttr_core.rules.kernel.tables import (
    CLAIMABLE,
    ActionTable,
    action_table,
    claimed,
    keep_claimable,
    owner_masks,
)

#: Most consecutive display resets done for one trigger (engine decision E3).
MAX_DISPLAY_RESETS = 100


#: The string each shuffle's generator is seeded with (the compiled engine
#: seeds its own the same way: ``ttr_core.native.engine.shuffle_key``).
SHUFFLE_SEED = "ttr-core:{seed}:{number}"


def shuffler(seed: int, shuffles: int) -> random.Random:
    """The generator of shuffle number ``shuffles`` of the game seeded ``seed``."""
    # A string seed is hashed (SHA-512) by random.Random: stable across runs
    # and platforms, and independent for each (seed, shuffle number).
    return random.Random(SHUFFLE_SEED.format(seed=seed, number=shuffles))


def can_take_second(
    deck: Sequence[int], discard: Sequence[int], display: Sequence[int | None], wild: int
) -> bool:
    """Whether a second card can be drawn from this supply: blind, or a face-up
    card that is no wild."""
    if deck or any(discard):
        return True
    return any(card is not None and card != wild for card in display)


class Seat:
    """One seat's part of a :class:`Work`: its ``PlayerState``, writable."""

    __slots__ = ("base", "cars", "counts", "dirty", "known", "routes", "score", "tickets")

    def __init__(self, player: PlayerState) -> None:
        self.base = player
        self.counts = list(player.hand.counts)
        #: Cards every player saw it take (the state's tuple until written);
        #: ``None`` while none is known.
        self.known: Sequence[int] | None = player.known or None
        self.tickets = player.tickets
        self.cars = player.cars
        self.routes = player.routes
        self.score = player.score
        self.dirty = False

    def own_known(self) -> list[int]:
        """The seat's known cards, writable (all zeros if none was known)."""
        known = self.known
        if type(known) is not list:
            known = self.known = list(known) if known else [0] * len(self.counts)
        return known

    def publish(self) -> PlayerState:
        """The seat as a frozen ``PlayerState`` (the one loaded if nothing changed)."""
        if self.dirty:
            base = self.base
            known = self.known
            counts = tuple(self.counts)
            hand = base.hand
            if counts != hand.counts:  # an unchanged hand is shared, not copied
                hand = Hand(counts, hand.names)
            self.base = PlayerState(
                hand,
                self.tickets,
                self.cars,
                self.routes,
                self.score,
                base.play_points,
                tuple(known) if known else (),
            )
            self.known = self.base.known or None
            self.dirty = False
        return self.base


class Work:
    """A game's state, mutable: what the kernel's rules change in place.

    ``deck``, ``display``, ``discard``, ``ticket_deck``, ``ticket_discard`` and
    ``owners`` hold the frozen state's tuples until an ``own_*`` method turns
    them into lists the work owns. ``seats[s]`` is ``None`` until
    :meth:`seat` loads seat ``s``. ``masks``, when kept (:meth:`keep_masks`),
    are the claimable routes of :func:`~ttr_core.rules.kernel.tables.owner_masks`,
    updated claim by claim.
    """

    __slots__ = (
        "base",
        "board",
        "boxed_tickets",
        "claims",
        "deck",
        "discard",
        "display",
        "final_turns",
        "forfeit",
        "fresh",
        "masks",
        "owners",
        "passes",
        "pending",
        "players",
        "ply",
        "rules",
        "seats",
        "seed",
        "shuffles",
        "start_offers",
        "table",
        "termination",
        "ticket_deck",
        "ticket_discard",
        "touched",
        "turn",
        "variant_state",
    )

    board: Board
    rules: GameRules
    table: ActionTable
    deck: Sequence[int]
    display: Sequence[int | None]
    discard: Sequence[int]
    ticket_deck: Sequence[int]
    ticket_discard: Sequence[int]
    owners: Sequence[int]
    seats: list[Seat | None]
    touched: list[int]
    masks: list[Any] | None
    claims: list[tuple[int, int]] | None

    def __init__(self, state: GameState) -> None:
        self.masks = None
        self.load(state)

    def load(self, state: GameState) -> None:
        """Start again from ``state`` (what a plugin's hook returned, say)."""
        # Masks kept stay right for a state with the same owners (a hook that
        # claimed nothing returns the tuple it was given).
        same_owners = self.masks is not None and state.owners is getattr(self, "owners", None)
        self.base = state
        board = self.board = state.board
        self.rules = state.rules
        players = self.players = state.players
        seats = len(players)
        table = board.derived.get(seats)  # action_table, inlined: every apply loads one
        self.table = table if table is not None else action_table(board, seats)
        self.seed = state.seed
        self.seats = [None] * seats
        #: Seats written since the load or the last publish.
        self.touched = []
        self.deck = state.deck
        self.display = state.display
        self.discard = state.discard
        self.ticket_deck = state.ticket_deck
        self.ticket_discard = state.ticket_discard
        self.owners = state.owners
        self.pending = state.pending
        self.start_offers = state.start_offers
        self.final_turns = state.final_turns
        self.passes = state.passes
        self.turn = state.turn
        self.shuffles = state.shuffles
        self.termination = state.termination
        self.variant_state = state.variant_state
        self.ply = state.ply
        self.forfeit = state.forfeit
        self.boxed_tickets = state.boxed_tickets
        #: Claims since the load, for the claimable cache of the published state.
        self.claims = None
        #: Nothing written since the load or the last publish: ``base`` is the state.
        self.fresh = True
        if self.masks is not None:
            # A playout: every seat loaded, and the deck a list it draws from
            # (its content is the state's: the work is as fresh as before).
            self.seats = [Seat(player) for player in state.players]
            self.deck = list(state.deck)
            if not same_owners:
                self.keep_masks()

    def keep_masks(self) -> None:
        """Keep the claimable routes up to date claim by claim, and every seat
        loaded (what a playout's legal actions read; :func:`ttr_core.apply`
        needs neither). The masks come from the claimable-routes cache when it
        holds the state's owners (a clone's, or a position the pure API has
        listed), else from every route's owner."""
        owners = self.owners
        table = self.table
        kept = CLAIMABLE.get(id(owners))
        if kept is not None and kept[0] is owners and kept[1] is table.key:
            unclaimed, unpartnered, seats = kept[2], kept[3], kept[4]
        else:
            unclaimed, unpartnered, seats = owner_masks(owners, table, len(self.players))
        self.masks = [unclaimed, unpartnered, seats]
        for seat, part in enumerate(self.seats):
            if part is None:
                self.seats[seat] = Seat(self.players[seat])

    def share_masks(self) -> None:
        """Put the masks kept in the claimable-routes cache, for the owners of the
        state published last (what a clone of a playout loads them from)."""
        masks = self.masks
        owners = self.base.owners
        if masks is not None and owners is self.owners:
            keep_claimable(self.table, owners, masks[0], masks[1], masks[2])

    # -- copy on write ------------------------------------------------------

    def seat(self, seat: int) -> Seat:
        """Seat ``seat``'s part, loaded, marked as changed."""
        part = self.seats[seat]
        if part is None:
            part = self.seats[seat] = Seat(self.players[seat])
        if not part.dirty:
            part.dirty = True
            self.touched.append(seat)
            self.fresh = False
        return part

    def counts(self, seat: int) -> Sequence[int]:
        """Seat ``seat``'s card counts (read only)."""
        part = self.seats[seat]
        return self.players[seat].hand.counts if part is None else part.counts

    def cars(self, seat: int) -> int:
        """Seat ``seat``'s cars left."""
        part = self.seats[seat]
        return self.players[seat].cars if part is None else part.cars

    def own_display(self) -> list[int | None]:
        """The display, writable (copied from the state's tuple at the first write)."""
        display = self.display
        if type(display) is not list:
            display = self.display = list(display)
            self.fresh = False
        return display

    def own_discard(self) -> list[int]:
        """The discard, writable (copied from the state's tuple at the first write)."""
        discard = self.discard
        if type(discard) is not list:
            discard = self.discard = list(discard)
            self.fresh = False
        return discard

    def own_owners(self) -> list[int]:
        """The routes' owners, writable (copied from the state's tuple at the first write)."""
        owners = self.owners
        if type(owners) is not list:
            owners = self.owners = list(owners)
            self.fresh = False
        return owners

    # -- publishing ---------------------------------------------------------

    def publish(self, going_on: bool = True) -> GameState:
        """The working state as a frozen ``GameState``, sharing every part that did
        not change with the state loaded (or published) last.

        The work goes on from the published state: its lists become that
        state's tuples, and are copied again at the next write. Not
        ``going_on``: the work is done with (``apply``'s last step), and is
        left as it is.
        """
        base = self.base
        players = self.players
        touched = self.touched
        if touched:
            changed = list(players)
            seats = self.seats
            for seat in touched:
                part = seats[seat]
                assert part is not None
                changed[seat] = part.publish()
            players = tuple(changed)
            touched.clear()
        deck = self.deck if type(self.deck) is tuple else tuple(self.deck)
        display = self.display if type(self.display) is tuple else tuple(self.display)
        discard = self.discard if type(self.discard) is tuple else tuple(self.discard)
        ticket_deck = self.ticket_deck
        if type(ticket_deck) is not tuple:
            ticket_deck = tuple(ticket_deck)
        ticket_discard = self.ticket_discard
        if type(ticket_discard) is not tuple:
            ticket_discard = tuple(ticket_discard)
        owners = self.owners
        if type(owners) is not tuple:
            owners = tuple(owners)
            claims = self.claims
            if claims is not None and len(claims) == 1 and type(base.owners) is tuple:
                # The claimable cache of the new owners, from the old ones'.
                claimed(base.owners, self.table, claims[0][0], claims[0][1], owners)
        state = GameState(
            self.board,
            self.rules,
            self.seed,
            players,
            deck,
            display,
            discard,
            ticket_deck,
            ticket_discard,
            owners,
            self.pending,
            self.start_offers,
            self.final_turns,
            self.passes,
            self.turn,
            self.shuffles,
            self.termination,
            self.variant_state,
            self.ply,
            self.forfeit,
            self.boxed_tickets,
        )
        if not going_on:
            return state
        self.base = state
        self.players = players
        self.deck = deck
        self.display = display
        self.discard = discard
        self.ticket_deck = ticket_deck
        self.ticket_discard = ticket_discard
        self.owners = owners
        self.claims = None
        self.fresh = True
        return state

    def published(self, going_on: bool = True) -> GameState:
        """The working state, frozen: the state loaded or published last if nothing
        was written since (the same object, its cached legal actions kept)."""
        return self.base if self.fresh else self.publish(going_on)

    def run_hook(self, call: Any, *args: Any) -> None:
        """Run a plugin hook (``call``, one of :mod:`ttr_core.hooks.calls`) on the
        published state and go on from what it returns."""
        self.load(call(self.rules, self.publish(), *args))

    # -- the card supply ----------------------------------------------------

    def draw(self) -> int | None:
        """The top card of the deck, shuffling the discard pile in when the deck is
        empty; ``None`` when neither holds a card."""
        if not self.deck:
            discard = self.discard
            if not any(discard):
                return None
            cards = [card for card, n in enumerate(discard) for _ in range(n)]
            shuffler(self.seed, self.shuffles).shuffle(cards)
            self.shuffles += 1
            self.deck = cards
            self.discard = [0] * len(discard)
            self.fresh = False
        deck = self.deck
        if type(deck) is tuple:  # not owned: a slice is cheaper than a copy
            top: int = deck[0]
            self.deck = deck[1:]
            self.fresh = False
            return top
        assert type(deck) is list
        card: int = deck.pop(0)
        self.fresh = False
        return card

    def refill(self, slot: int) -> None:
        """Turn up a card in an emptied slot, then enforce the wild limit."""
        card = self.draw()
        self.own_display()[slot] = card
        self.check_wilds()

    def fill_empty(self) -> None:
        """Turn up cards in slots left empty while no card was available (E4),
        then enforce the wild limit."""
        if None in self.display:
            display = self.own_display()
            for slot, card in enumerate(display):
                if card is None:
                    display[slot] = self.draw()
        self.check_wilds()

    def check_wilds(self) -> None:
        """Reset the display while it shows too many wilds and a reset can help (E3)."""
        board = self.board
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
                self._deal_within_limit()
                return
            discard = self.own_discard()
            for card in shown:
                discard[card] += 1
            self.display = [self.draw() for _ in self.display]
            resets += 1

    def _deal_within_limit(self) -> None:
        """Shuffle every available card and lay a display within the wild limit.

        Reached only after ``MAX_DISPLAY_RESETS`` unlucky resets in a row (a
        small pool rich in wilds): a reset that can succeed then always does,
        and the display is still laid from freshly shuffled cards.
        """
        wild = self.board.wild
        limit = self.board.rules.max_face_up_wilds
        pool = [*self.deck, *(c for c, n in enumerate(self.discard) for _ in range(n))]
        pool += [c for c in self.display if c is not None]
        shuffler(self.seed, self.shuffles).shuffle(pool)
        self.shuffles += 1
        self.fresh = False
        size = min(len(self.display), len(pool))
        display: list[int | None] = []
        rest: list[int] = []
        wilds = 0
        for card in pool:
            if len(display) < size and (card != wild or wilds < limit):
                display.append(card)
                wilds += card == wild
            else:
                rest.append(card)
        self.display = [*display, *(None,) * (len(self.display) - len(display))]
        self.deck = rest
        self.discard = [0] * len(self.discard)

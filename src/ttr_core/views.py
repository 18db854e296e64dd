"""Player views: what one seat may see of a game (engine decision E17).

A view shows the viewer's own hand, tickets and ticket offer; of the other
seats only counts and public facts (cards in hand, tickets held, cars,
claimed routes, running score); never the order of any deck. Variant state is
shown only as far as its plugin allows (hook ``ttr_player_view``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import attrs

from .board import Board, FrozenMap
from .errors import ArgumentError, show
from .hookspecs import NonSeatOwner
from .state import GameState, Hand, Pending, PlayerState, Termination, check_state


@attrs.frozen
class SeatView:
    """The public facts about one seat.

    ``known`` is the part of its hand every player knows of: cards it took
    face up and has not played yet, as card name → count (only cards it
    holds; empty when none is known).
    """

    seat: int
    hand_size: int
    tickets_held: int
    cars: int
    routes: tuple[int, ...]
    score: int
    known: Mapping[str, int] = attrs.field(factory=FrozenMap)

    @staticmethod
    def _known(
        known: tuple[int, ...], hand: tuple[int, ...], names: tuple[str, ...]
    ) -> Mapping[str, int]:
        """``PlayerState.known`` as a view shows it (never more than the hand holds)."""
        if not known:
            return _NONE_KNOWN
        return FrozenMap(
            (name, count)
            for name, count in zip(names, known_shown(known, hand), strict=False)
            if count
        )


_NONE_KNOWN: Mapping[str, int] = FrozenMap()


def known_shown(known: Sequence[int], hand: Sequence[int]) -> tuple[int, ...]:
    """``PlayerState.known`` as every player sees it, card by card: never more
    than the hand holds (0: nothing shown of that card). One rule for the view
    (``SeatView.known``) and for the observation written without one."""
    return tuple(map(min, known, hand))  # card by card, as far as both go


@attrs.frozen
class PlayerView:
    """What seat ``viewer`` may see. ``display`` gives card names (``None``: empty slot).

    A view holds no part of the game state itself, only values (the board
    is public map data), so an app may send it to that seat as it is. It
    carries every public fact :func:`ttr_core.determinize` needs to rebuild
    a whole state from it.
    """

    viewer: int
    board: Board = attrs.field(repr=False)
    current_player: int | None
    pending: str | None
    hand: Hand
    tickets: tuple[int, ...]
    offered: tuple[int, ...]
    min_keep: int
    display: tuple[str | None, ...]
    deck_size: int
    discard_size: int
    ticket_deck_size: int
    ticket_discard_size: int
    #: The ticket discard pile, face up (maps that return tickets to a pile).
    ticket_discard: tuple[int, ...]
    seats: tuple[SeatView, ...]
    turn: int
    final_turns: int
    is_over: bool
    variants: Mapping[str, Any] = attrs.field(factory=FrozenMap)
    #: Owners of routes that are not seats (a neutral player), with their routes.
    others: tuple[NonSeatOwner, ...] = ()
    # The public facts below let ``determinize`` rebuild a full state from a view.
    #: The game's variants, in the game's order (``state.rules.variants``).
    variant_names: tuple[str, ...] = ()
    #: The game's variant options, every one with its value (``state.rules.options``):
    #: ``((variant, ((name, value), ...)), ...)``.
    options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    #: Tickets on offer in the pending decision, whoever decides (only their number).
    offer_size: int = 0
    #: How many of those must be kept, whoever decides.
    offer_min_keep: int = 0
    #: Tickets dealt to each seat still to make its starting choice (only their number),
    #: in seat order after the seat deciding now.
    start_offer_sizes: tuple[int, ...] = ()
    #: Consecutive passes (engine decision E2).
    passes: int = 0
    #: Shuffles done so far.
    shuffles: int = 0
    #: How the game ended, or ``None`` while it goes on.
    termination: Termination | None = None
    #: Actions applied so far (``GameState.ply``): send it with a move as
    #: ``apply(..., expect_ply=)`` to have a stale or repeated move refused.
    ply: int = 0
    #: The seat that resigned or ran out of time (``GameState.forfeit``).
    forfeit: int | None = None
    #: Tickets out of the game (``GameState.boxed_tickets``): face down, so only their number.
    boxed_tickets_size: int = 0


def player_view(state: GameState, player: int) -> PlayerView:
    """What ``player`` may see of ``state``.

    Raises :class:`ArgumentError` if ``state`` is not a :class:`GameState` or
    ``player`` is not one of its seats (an ``int`` from 0; not a bool or float).
    """
    check_seat_argument(state, player)
    pending = state.pending
    offered, min_keep = offer_seen(state, player)
    board = state.board
    names = board.card_names
    rules = state.rules
    variants = FrozenMap(rules.run_player_view(state, player)) if rules.player_view else _NONE
    me = state.players[player]
    return PlayerView(
        viewer=player,
        board=board,
        current_player=state.current_player,
        pending=None if pending is None else str(pending.kind),
        hand=me.hand,
        tickets=me.tickets,
        offered=offered,
        min_keep=min_keep,
        display=_display_names(state.display, names),
        deck_size=len(state.deck),
        discard_size=sum(state.discard),
        ticket_deck_size=len(state.ticket_deck),
        ticket_discard_size=len(state.ticket_discard),
        ticket_discard=state.ticket_discard,
        seats=tuple([_seat_view(seat, p, names) for seat, p in enumerate(state.players)]),
        turn=state.turn,
        final_turns=state.final_turns,
        is_over=state.is_over,
        variants=variants,
        others=non_seat_owners(state) if rules.non_seat_owners else (),
        variant_names=rules.variants,
        options=rules.options,
        offer_size=0 if pending is None else len(pending.offered),
        offer_min_keep=0 if pending is None else pending.min_keep,
        start_offer_sizes=tuple([len(offer) for offer in state.start_offers])
        if state.start_offers
        else (),
        passes=state.passes,
        shuffles=state.shuffles,
        termination=state.termination,
        ply=state.ply,
        forfeit=state.forfeit,
        boxed_tickets_size=len(state.boxed_tickets),
    )


_NONE: Mapping[str, Any] = FrozenMap()

# What the views of recent positions share: a seat's SeatView per PlayerState
# object (consecutive states share a seat's PlayerState until it changes, so a
# view rebuilds only the seats that changed) and the display's card names per
# display tuple. Keyed by id(), each entry holding the object it was built
# from, so the id is not reused while the entry is kept and a reader checks it
# got its own object (and board's card names, and seat); an entry holds only
# values (no board, no state), and the views that share a SeatView share an
# immutable value equal to what they would build, so a view still carries no
# other game (tests/test_view_reach.py). Safe between threads without a lock,
# as kernel.tables.CLAIMABLE is: every step is one atomic dict operation, an
# entry is an immutable tuple and right whoever stores it; cleared when full
# (threads storing at once may pass the bound by one entry each).

#: Entries kept in each of the view caches before it starts afresh.
VIEW_CACHE_KEPT = 4096

_SEATS: dict[int, tuple[PlayerState, int, tuple[str, ...], SeatView]] = {}
_DISPLAYS: dict[int, tuple[tuple[int | None, ...], tuple[str, ...], tuple[str | None, ...]]] = {}


def _seat_view(seat: int, player: PlayerState, names: tuple[str, ...]) -> SeatView:
    """The public facts of ``player``, sitting at ``seat`` (kept per PlayerState)."""
    kept = _SEATS.get(id(player))
    if kept is not None and kept[0] is player and kept[1] == seat and kept[2] is names:
        return kept[3]
    hand = player.hand
    view = SeatView(
        seat,
        hand.total,
        len(player.tickets),
        player.cars,
        player.routes,
        player.score,
        SeatView._known(player.known, hand.counts, names),
    )
    cache = _SEATS
    if len(cache) >= VIEW_CACHE_KEPT:
        cache.clear()  # not an eviction of the oldest: that would look over the dict
    cache[id(player)] = (player, seat, names, view)
    return view


def _display_names(
    display: tuple[int | None, ...], names: tuple[str, ...]
) -> tuple[str | None, ...]:
    """The display's cards by name (kept per display tuple)."""
    kept = _DISPLAYS.get(id(display))
    if kept is not None and kept[0] is display and kept[1] is names:
        return kept[2]
    shown = tuple([None if c is None else names[c] for c in display])
    cache = _DISPLAYS
    if len(cache) >= VIEW_CACHE_KEPT:
        cache.clear()
    cache[id(display)] = (display, names, shown)
    return shown


class Deciding(Protocol):
    """What :func:`offer_seen` reads: a :class:`GameState`, or the rules
    kernel's working state (the observation tracker's)."""

    @property
    def pending(self) -> Pending | None: ...


def offer_seen(state: Deciding, player: int) -> tuple[tuple[int, ...], int]:
    """The tickets on offer, and how many must be kept, as ``player`` sees them:
    only the seat that decides sees its offer (``((), 0)`` for any other seat,
    which sees only the offer's size: ``PlayerView.offer_size``). One rule for
    the view, the observation written without one and the tracker's."""
    pending = state.pending
    if pending is None or pending.player != player:
        return (), 0
    return pending.offered, pending.min_keep


def check_seat_argument(state: object, player: object) -> None:
    """``ArgumentError`` unless ``state`` is a :class:`GameState` and ``player``
    one of its seats (an ``int``; not a bool or float)."""
    if not isinstance(state, GameState):
        raise ArgumentError(f"state must be a GameState, not {type(state).__name__}")
    if (
        isinstance(player, bool)
        or not isinstance(player, int)
        or not 0 <= player < state.num_players
    ):
        raise ArgumentError(
            f"player must be a seat from 0 to {state.num_players - 1}, not {show(player)}"
        )


def non_seat_owners(state: GameState) -> tuple[NonSeatOwner, ...]:
    """The owners of routes that are not seats (a neutral player) that the game's
    variants declare, each with the routes it owns, in owner order."""
    rules = check_state(state).rules
    if not rules.non_seat_owners:
        return ()
    owned: dict[int, list[int]] = {}
    for route, owner in enumerate(state.owners):
        owned.setdefault(owner, []).append(route)
    declared = sorted(rules.run_non_seat_owners(state), key=lambda o: o.owner)
    return tuple(attrs.evolve(o, routes=tuple(owned.get(o.owner, ()))) for o in declared)

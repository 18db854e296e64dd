"""What one seat may see of a game (engine decision E17): the
:class:`PlayerView` and :class:`SeatView` values, and the rules of what they
show that need no hook (:func:`known_shown`, :func:`offer_seen`).
:func:`ttr_core.rules.views.player_view` builds a view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import attrs

from ttr_core.errors import ArgumentError, show
from ttr_core.model.board import Board, FrozenMap
from ttr_core.model.declarations import NonSeatOwner
from ttr_core.model.state import GameState, Hand, Pending, Termination

#: A seat's known cards when none is known (shared: it is read only).
_NONE_KNOWN: Mapping[str, int] = FrozenMap()


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

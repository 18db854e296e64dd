"""The game state: frozen, flat, and shared structurally between moves.

Cards are card indices (see :class:`ttr_core.model.board.Board`): ``deck`` is the
draw pile with its top at index 0, ``display`` the face-up slots (``None`` for
a slot that could not be refilled), ``discard`` the discard pile as counts per
card index (its order never matters: it is shuffled before reuse).
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from ttr_core.errors import ArgumentError, PluginError, show, what
from ttr_core.model.actions import Action
from ttr_core.model.board import Board
from ttr_core.model.gamerules import GameRules

#: ``GameState.owners`` value of a route nobody has claimed.
UNCLAIMED = -1


@attrs.frozen(repr=False)
class Hand(Mapping[str, int]):
    """A player's transportation cards: a mapping colour name → count.

    ``counts`` is the same data by card index (colours, then wild), which is
    what the engine works with.
    """

    counts: tuple[int, ...]
    names: tuple[str, ...] = attrs.field(eq=False, hash=False)

    def __getitem__(self, name: str) -> int:
        try:
            return self.counts[self.names.index(name)]
        except ValueError:
            raise KeyError(name) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    @property
    def total(self) -> int:
        """Number of cards in the hand."""
        return sum(self.counts)

    def __repr__(self) -> str:
        held = ", ".join(f"{n}={c}" for n, c in zip(self.names, self.counts, strict=True) if c)
        return f"Hand({held})"


@attrs.frozen
class PlayerState:
    """One seat: hand, kept tickets (ids), cars left, routes claimed (ids), score.

    ``score`` is the running score: the seat's start score plus the points of
    its claimed routes plus ``play_points``, the points variants awarded
    during play (``effects.add_points``), which the score sheet shows as a
    line of their own.
    """

    hand: Hand
    tickets: tuple[int, ...]
    cars: int
    routes: tuple[int, ...]
    score: int
    play_points: int = 0
    #: Cards in the hand every player knows of, as a count per card index
    #: (cards taken face up stay known until played: the engine adds a card
    #: taken face up and takes cards paid from the known ones first); ``()``
    #: when none are. Never more of a card than the hand holds.
    known: tuple[int, ...] = ()


class PendingKind(enum.StrEnum):
    """The core's kinds of pending decision. Variants use their own strings."""

    START_TICKETS = "start_tickets"
    TURN = "turn"
    SECOND_CARD = "second_card"
    KEEP_TICKETS = "keep_tickets"


@attrs.frozen
class Pending:
    """The decision the game waits for: who decides, and what kind it is.

    For ticket choices, ``offered`` holds the ticket ids on offer and
    ``min_keep`` how many must be kept. ``data`` is free for a variant's own
    pending decisions.
    """

    kind: str
    player: int
    offered: tuple[int, ...] = ()
    min_keep: int = 0
    data: Any = None


class Termination(enum.StrEnum):
    """How a game ended."""

    #: The final round after a player ran low on cars was played out.
    CARS = "cars"
    #: Every player passed in turn for a full round (engine decision E2).
    STALEMATE = "stalemate"
    # Ended early, by :func:`ttr_core.end_game` (never by ``apply``); see
    # docs/rules.md, "Ending a game early".
    #: A seat resigned (``GameState.forfeit``): it loses.
    RESIGNATION = "resignation"
    #: A seat ran out of time (``GameState.forfeit``): it loses.
    TIMEOUT = "timeout"
    #: The game was given up by everyone (or a server stopped it): nobody wins.
    ABANDONED = "abandoned"


#: The terminations :func:`ttr_core.end_game` makes, and whether each names a seat.
EARLY_ENDINGS: dict[Termination, bool] = {
    Termination.RESIGNATION: True,
    Termination.TIMEOUT: True,
    Termination.ABANDONED: False,
}


def _check_key(key: object) -> None:
    """``ArgumentError`` unless ``key`` names variant state (a ``str``)."""
    if not isinstance(key, str):
        raise ArgumentError(
            f"key must be a variant state key (str), not {type(key).__name__} {show(key)}"
        )


@attrs.frozen(repr=False)
class GameState:
    """Everything that changes during a game. Immutable: ``apply`` returns a new one.

    The stable attributes and methods are listed in ``docs/api.md`` ("Stable
    API"); the other fields are the engine's and may change between versions.
    Plugins change states through :mod:`ttr_core.effects`, ``with_variant``
    and ``attrs.evolve``.
    """

    board: Board = attrs.field(eq=False)
    #: Compared by configuration (map id, players, variants).
    rules: GameRules
    seed: int
    players: tuple[PlayerState, ...]
    deck: tuple[int, ...]
    display: tuple[int | None, ...]
    discard: tuple[int, ...]
    ticket_deck: tuple[int, ...]
    ticket_discard: tuple[int, ...]
    #: Owner seat of each route by id, or ``UNCLAIMED``.
    owners: tuple[int, ...]
    pending: Pending | None
    #: Tickets dealt at setup to seats that have not yet made their choice.
    start_offers: tuple[tuple[int, ...], ...] = ()
    #: Turns left in the final round; ``-1`` until the end is triggered.
    final_turns: int = -1
    #: Consecutive passes (engine decision E2).
    passes: int = 0
    #: Turns completed (the starting ticket choice is not a turn).
    turn: int = 0
    #: Shuffles done so far: each reshuffle draws fresh chance from ``seed``.
    shuffles: int = 0
    termination: Termination | None = None
    #: Variant state: sorted ``(key, value)`` pairs owned by plugins.
    variant_state: tuple[tuple[str, Any], ...] = ()
    #: Actions applied so far (the starting ticket choices included): a move
    #: counter for servers (``apply(..., expect_ply=)`` refuses a stale move).
    ply: int = 0
    #: The seat that resigned or ran out of time (``Termination.RESIGNATION``,
    #: ``TIMEOUT``); ``None`` otherwise.
    forfeit: int | None = None
    #: Tickets out of the game (the box): face down, in no view (only their
    #: number is public). The core puts there the starting tickets not kept on
    #: a map with ``start_returned = "box"``; variants use ``effects.box_tickets``.
    boxed_tickets: tuple[int, ...] = ()
    _legal_cache: tuple[Action, ...] | None = attrs.field(
        default=None, init=False, eq=False, hash=False
    )
    #: Core actions the variants' filters removed from ``_legal_cache``, after
    #: the variant that removed them (``None`` while none was removed): a
    #: ``hooks.calls.FilteredOut``.
    _filtered_out: list[Any] | None = attrs.field(default=None, init=False, eq=False, hash=False)

    @property
    def current_player(self) -> int | None:
        """The seat whose decision the game waits for; ``None`` once it is over."""
        pending = self.pending
        return None if pending is None else pending.player

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.players)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.termination is not None

    def owner(self, route: int) -> int | None:
        """The owner of route ``route``, or ``None`` if it is unclaimed.

        An owner is a seat (``0`` to ``num_players - 1``) or, for a route a
        variant claimed for someone who is not a seat (a neutral player), a
        number from ``num_players`` up (see :meth:`is_seat`). ``ArgumentError``
        unless ``route`` is a route id (an ``int``, not a bool).
        """
        if type(route) is not int or not 0 <= route < len(self.owners):
            raise ArgumentError(
                f"route must be a route id from 0 to {len(self.owners) - 1}, "
                f"not {type(route).__name__} {show(route)}"
            )
        owner = self.owners[route]
        return None if owner == UNCLAIMED else owner

    def is_seat(self, owner: int | None) -> bool:
        """Whether ``owner`` (as :meth:`owner` gives it) is a seat of the game
        (``False`` for anything but an ``int``)."""
        return type(owner) is int and 0 <= owner < len(self.players)

    def variant(self, key: str, default: Any = None) -> Any:
        """The variant state stored under ``key`` (``default`` if none);
        ``ArgumentError`` if ``key`` is not a ``str``."""
        if type(key) is not str:
            _check_key(key)
        for k, value in self.variant_state:
            if k == key:
                return value
        return default

    def with_variant(self, key: str, value: Any) -> GameState:
        """A copy of this state with variant state ``key`` set to ``value``
        (``PluginError`` unless ``value`` is hashable; ``ArgumentError`` if
        ``key`` is not a ``str``)."""
        _check_key(key)
        try:
            hash(value)
        except Exception:  # unhashable, or a __hash__ that raises
            raise PluginError(
                f"variant state {show(key)} must be immutable and hashable (a frozen attrs "
                f"class, tuple, int, str ...), not {type(value).__name__}"
            ) from None
        slots = dict(self.variant_state)
        slots[key] = value
        # replace_state, not attrs.evolve: a plugin's state changes on the hot
        # path (a toll paid on every claim), and evolve costs twice as much.
        return replace_state(self, variant_state=tuple(sorted(slots.items())))

    def __repr__(self) -> str:
        status = (
            f"over ({self.termination})"
            if self.termination
            else f"seat {self.current_player} to {self.pending.kind if self.pending else '?'}"
        )
        return (
            f"<GameState {self.board.id} {self.num_players}p turn {self.turn}: {status}, "
            f"scores {[p.score for p in self.players]}>"
        )


def check_state(state: object, name: str = "state") -> GameState:
    """``state`` if it is a :class:`GameState`, else :class:`ArgumentError`."""
    if not isinstance(state, GameState):
        raise ArgumentError(f"{name} must be a ttr_core.GameState, not {what(state)}")
    return state


# ---------------------------------------------------------------------------
# Copies with changes, for the engine's hot path
# ---------------------------------------------------------------------------

#: "Leave this field as it is" (no field of a state is ever this object).
_SAME: Any = object()


def cards_outside_hands(state: GameState) -> list[int]:
    """Cards of each kind (by card index) in the discard pile, the deck and the
    display: with the hands', every card of the game (what conservation checks add up)."""
    totals = list(state.discard)
    for card in state.deck:
        totals[card] += 1
    for slot in state.display:
        if slot is not None:
            totals[slot] += 1
    return totals


# Written out field by field: about half the cost of ``attrs.evolve``, which
# looks the fields up and builds a dict on every call. ``test_state`` checks
# that they know every field.
def replace_state(
    state: GameState,
    *,
    board: Any = _SAME,
    rules: Any = _SAME,
    seed: Any = _SAME,
    players: Any = _SAME,
    deck: Any = _SAME,
    display: Any = _SAME,
    discard: Any = _SAME,
    ticket_deck: Any = _SAME,
    ticket_discard: Any = _SAME,
    owners: Any = _SAME,
    pending: Any = _SAME,
    start_offers: Any = _SAME,
    final_turns: Any = _SAME,
    passes: Any = _SAME,
    turn: Any = _SAME,
    shuffles: Any = _SAME,
    termination: Any = _SAME,
    variant_state: Any = _SAME,
    ply: Any = _SAME,
    forfeit: Any = _SAME,
    boxed_tickets: Any = _SAME,
) -> GameState:
    """A copy of ``state`` with the fields given changed: ``attrs.evolve``, for the hot path."""
    return GameState(
        state.board if board is _SAME else board,
        state.rules if rules is _SAME else rules,
        state.seed if seed is _SAME else seed,
        state.players if players is _SAME else players,
        state.deck if deck is _SAME else deck,
        state.display if display is _SAME else display,
        state.discard if discard is _SAME else discard,
        state.ticket_deck if ticket_deck is _SAME else ticket_deck,
        state.ticket_discard if ticket_discard is _SAME else ticket_discard,
        state.owners if owners is _SAME else owners,
        state.pending if pending is _SAME else pending,
        state.start_offers if start_offers is _SAME else start_offers,
        state.final_turns if final_turns is _SAME else final_turns,
        state.passes if passes is _SAME else passes,
        state.turn if turn is _SAME else turn,
        state.shuffles if shuffles is _SAME else shuffles,
        state.termination if termination is _SAME else termination,
        state.variant_state if variant_state is _SAME else variant_state,
        state.ply if ply is _SAME else ply,
        state.forfeit if forfeit is _SAME else forfeit,
        state.boxed_tickets if boxed_tickets is _SAME else boxed_tickets,
    )


def replace_player(
    player: PlayerState,
    *,
    hand: Any = _SAME,
    tickets: Any = _SAME,
    cars: Any = _SAME,
    routes: Any = _SAME,
    score: Any = _SAME,
    play_points: Any = _SAME,
    known: Any = _SAME,
) -> PlayerState:
    """A copy of ``player`` with the fields given changed: ``attrs.evolve``, for the hot path."""
    return PlayerState(
        player.hand if hand is _SAME else hand,
        player.tickets if tickets is _SAME else tickets,
        player.cars if cars is _SAME else cars,
        player.routes if routes is _SAME else routes,
        player.score if score is _SAME else score,
        player.play_points if play_points is _SAME else play_points,
        player.known if known is _SAME else known,
    )

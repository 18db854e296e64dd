"""Player views: what one seat may see of a game (engine decision E17).

A view shows the viewer's own hand, tickets and ticket offer; of the other
seats only counts and public facts (cards in hand, tickets held, cars,
claimed routes, running score); never the order of any deck. Variant state is
shown only as far as its plugin allows (hook ``ttr_player_view``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from .board import Board, FrozenMap
from .hookspecs import NonSeatOwner
from .state import GameState, Hand


@attrs.frozen
class SeatView:
    """The public facts about one seat."""

    seat: int
    hand_size: int
    tickets_held: int
    cars: int
    routes: tuple[int, ...]
    score: int


@attrs.frozen
class PlayerView:
    """What seat ``viewer`` may see. ``display`` gives card names (``None``: empty slot)."""

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


def player_view(state: GameState, player: int) -> PlayerView:
    """What ``player`` may see of ``state``."""
    if (
        isinstance(player, bool)
        or not isinstance(player, int)
        or not 0 <= player < state.num_players
    ):
        raise ValueError(f"player must be a seat from 0 to {state.num_players - 1}, not {player!r}")
    pending = state.pending
    mine = pending is not None and pending.player == player
    names = state.board.card_names
    rules = state.rules
    variants = rules.run_player_view(state, player) if rules.player_view else {}
    me = state.players[player]
    return PlayerView(
        viewer=player,
        board=state.board,
        current_player=state.current_player,
        pending=None if pending is None else str(pending.kind),
        hand=me.hand,
        tickets=me.tickets,
        offered=pending.offered if mine and pending is not None else (),
        min_keep=pending.min_keep if mine and pending is not None else 0,
        display=tuple(None if c is None else names[c] for c in state.display),
        deck_size=len(state.deck),
        discard_size=sum(state.discard),
        ticket_deck_size=len(state.ticket_deck),
        ticket_discard_size=len(state.ticket_discard),
        ticket_discard=state.ticket_discard,
        seats=tuple(
            SeatView(seat, p.hand.total, len(p.tickets), p.cars, p.routes, p.score)
            for seat, p in enumerate(state.players)
        ),
        turn=state.turn,
        final_turns=state.final_turns,
        is_over=state.is_over,
        variants=FrozenMap(variants),
        others=non_seat_owners(state),
    )


def non_seat_owners(state: GameState) -> tuple[NonSeatOwner, ...]:
    """The owners of routes that are not seats (a neutral player) that the game's
    variants declare, each with the routes it owns, in owner order."""
    rules = state.rules
    if not rules.non_seat_owners:
        return ()
    owned: dict[int, list[int]] = {}
    for route, owner in enumerate(state.owners):
        owned.setdefault(owner, []).append(route)
    declared = sorted(rules.run_non_seat_owners(state), key=lambda o: o.owner)
    return tuple(attrs.evolve(o, routes=tuple(owned.get(o.owner, ()))) for o in declared)

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

from ttr_core.hooks import calls
from ttr_core.model.board import FrozenMap
from ttr_core.model.declarations import NonSeatOwner
from ttr_core.model.state import GameState, PlayerState, check_state
from ttr_core.model.views import PlayerView, SeatView, check_seat_argument, offer_seen


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
    variants = (
        FrozenMap(calls.run_player_view(rules, state, player)) if rules.player_view else _NONE
    )
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


def non_seat_owners(state: GameState) -> tuple[NonSeatOwner, ...]:
    """The owners of routes that are not seats (a neutral player) that the game's
    variants declare, each with the routes it owns, in owner order."""
    rules = check_state(state).rules
    if not rules.non_seat_owners:
        return ()
    owned: dict[int, list[int]] = {}
    for route, owner in enumerate(state.owners):
        owned.setdefault(owner, []).append(route)
    declared = sorted(calls.run_non_seat_owners(rules, state), key=lambda o: o.owner)
    return tuple(attrs.evolve(o, routes=tuple(owned.get(o.owner, ()))) for o in declared)

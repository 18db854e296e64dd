"""Ferries (Ticket to Ride: Europe): locomotives needed on ferry routes.

Some gray routes carry locomotive symbols (map field ``locomotives`` of the
routes, an ``int``, written only on ferries). To claim a ferry the player
must play at least that many locomotives (the map's wild card) among its
cards; the other spaces are paid as for any gray route (one colour,
locomotives allowed). Paying with locomotives alone always qualifies.

The plugin removes from the core's candidate claims those of a ferry paid
with fewer locomotives (``ttr_filter_actions``), so ``legal_actions`` never
lists them and ``apply`` refuses them (reason ``vetoed_by_variant``). It
keeps no state and adds no action. Pictures draw a locomotive in as many of
a ferry's spaces as it needs (hook ``ttr_route_styles``).

The field is the map's own (Europe declares it in its ``[fields]`` table):
the plugin does not declare it, so that installing it changes no map's
fingerprint. A game with ferries on a map without any ferry is refused.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence

from ttr_core import (
    Action,
    Board,
    ClaimRoute,
    GameRules,
    GameState,
    NativeRule,
    PlayerView,
    RouteStyle,
    hookimpl,
)

#: The variant name this plugin is registered under.
NAME = "ferries"
#: The map field (on routes) giving a ferry's locomotive spaces.
FIELD = "locomotives"
#: For bots: what a locomotive a ferry forces the seat to spend is worth, in points
#: (the bots spend a wild only where no colour card will do).
LOCOMOTIVE_COST = 1.0
#: For bots: what each locomotive the seat still lacks for a ferry costs (the
#: draws it takes to get one).
MISSING_COST = 1.5


def locomotives(board: Board, route: int) -> int:
    """The locomotives a claim of ``route`` must include: 0 for a route that is no ferry."""
    value = board.routes[route].extra.get(FIELD)
    return value if type(value) is int and value > 0 else 0


@functools.lru_cache(maxsize=16)
def _needs(board: Board) -> tuple[int, ...]:
    """Per route id, the locomotives its claim needs (boards compare by identity)."""
    return tuple(locomotives(board, route.id) for route in board.routes)


def ferry_routes(board: Board) -> tuple[int, ...]:
    """The ids of the ferry routes of ``board``."""
    return tuple(route for route, need in enumerate(_needs(board)) if need)


def _short(needs: tuple[int, ...], action: Action) -> bool:
    return type(action) is ClaimRoute and action.wilds < needs[action.route]


@hookimpl
def ttr_validate_map(board: Board) -> Iterable[str]:
    for route in board.routes:
        value = route.extra.get(FIELD)
        # Only an int is this plugin's field: another map may use the name otherwise.
        if type(value) is int and not 0 <= value <= route.length:
            yield (
                f"route {route.id} ({route.a}–{route.b}): a ferry's {FIELD} must be 0 to its "
                f"length {route.length}, not {value}"
            )


@hookimpl
def ttr_check_game(board: Board) -> str | None:
    if not ferry_routes(board):
        return (
            f"ferries need ferry routes (the routes field {FIELD!r} above 0), and map "
            f"{board.id!r} has none"
        )
    return None


@hookimpl
def ttr_route_styles(board: Board) -> list[RouteStyle]:
    """Pictures: a locomotive in as many of each ferry's spaces as it needs, as
    printed, in place of the field's generic badge."""
    legend = "ferry: each space with a locomotive must be paid with a locomotive"
    return [
        RouteStyle(route, wild_spaces=need, field=FIELD, legend=legend)
        for route, need in enumerate(_needs(board))
        if need
    ]


@hookimpl
def ttr_move_notes(view: PlayerView, action: Action) -> list[str] | None:
    """A ferry claim's locomotives, before it is made."""
    if not isinstance(action, ClaimRoute):
        return None
    need = locomotives(view.board, action.route)
    if not need:
        return None
    return [f"ferry: {need} {view.board.wild_name}{'' if need == 1 else 's'} needed"]


@hookimpl
def ttr_filter_actions(state: GameState, actions: Sequence[Action]) -> list[Action] | None:
    """Remove the claims of a ferry paid with too few locomotives.

    The core's filter path is on every state: keep nothing (``None``) unless
    some candidate is removed, and then return the kept candidates, the same
    objects in the same order (the core's fast path).
    """
    needs = _needs(state.board)
    for action in actions:
        if _short(needs, action):
            return [a for a in actions if not _short(needs, a)]
    return None


@hookimpl
def ttr_native_rules(rules: GameRules) -> list[NativeRule]:
    """All this variant does, in the compiled engine's terms: the locomotives each
    ferry's claim must include."""
    return [NativeRule("claim_min_wilds", per_route=_needs(rules.board))]


@hookimpl
def ttr_check_transition(before: GameState, action: Action, after: GameState) -> Iterator[str]:
    if type(action) is not ClaimRoute or after.owners[action.route] != action.player:
        return
    if before.owners[action.route] == action.player:
        return
    need = locomotives(before.board, action.route)
    if action.wilds < need:
        yield (
            f"{NAME}: seat {action.player} claimed ferry {action.route} with {action.wilds} "
            f"locomotive(s), fewer than its {need}"
        )


@hookimpl
def ttr_agent_route_costs(view: PlayerView) -> list[float]:
    """For bots: a ferry costs the locomotives it forces the seat to spend, and more
    for each of them the seat does not hold yet."""
    board = view.board
    held = view.hand.counts[board.wild]
    costs = []
    for need in _needs(board):
        missing = need - held if need > held else 0
        costs.append(LOCOMOTIVE_COST * need + MISSING_COST * missing)
    return costs

"""Tourist attractions (Ticket to Ride: New York).

Locations marked ``attraction = true`` in the map file are tourist
attractions. At the end each player scores :data:`POINTS_PER_ATTRACTION` for
every attraction that at least one of their own routes touches, i.e. that is
an endpoint of one of their claimed routes (engine decision E14). An
attraction counts once per player; several players can each score it.

Option (``new_game(..., options={"attractions": {...}})``):
``points_per_attraction``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core import (
    Action,
    Board,
    ClaimRoute,
    GameRules,
    GameState,
    MapField,
    NativeRule,
    PlayerView,
    ScoreLine,
    VariantOption,
    hookimpl,
    view_rules,
)

#: The variant name this plugin is registered under.
NAME = "attractions"
#: Points per attraction touched, by default.
POINTS_PER_ATTRACTION = 1


@hookimpl
def ttr_options() -> Sequence[VariantOption]:
    return [
        VariantOption(
            "points_per_attraction",
            int,
            POINTS_PER_ATTRACTION,
            "points for each attraction one of a player's routes touches",
            low=0,
            high=100,
        )
    ]


@hookimpl
def ttr_map_fields() -> Sequence[MapField]:
    return [
        MapField(
            table="locations",
            name="attraction",
            type=bool,
            default=False,
            doc="the location is a tourist attraction (New York)",
            needed=True,  # without attractions the variant scores nothing
        )
    ]


def attractions_touched(state: GameState, player: int) -> frozenset[str]:
    """Names of the attractions at an end of one of ``player``'s routes."""
    return _touched(state.board, state.players[player].routes)


def _touched(board: Board, routes: Sequence[int]) -> frozenset[str]:
    attractions = {loc.name for loc in board.locations if loc.extra.get("attraction")}
    touched: set[str] = set()
    for route_id in routes:
        route = board.routes[route_id]
        touched.update(end for end in (route.a, route.b) if end in attractions)
    return frozenset(touched)


@hookimpl
def ttr_view_words(view: PlayerView) -> list[str]:
    """The attractions the viewer's routes touch (every seat's are public)."""
    mine = sorted(_touched(view.board, view.seats[view.viewer].routes))
    points = view_rules(view).option(NAME, "points_per_attraction")
    total = sum(1 for loc in view.board.locations if loc.extra.get("attraction"))
    each = f"{points} point{'' if points == 1 else 's'} each"
    return [
        f"Attractions ({each}, {total} on the map): you touch "
        + (", ".join(mine) if mine else "none yet")
    ]


@hookimpl
def ttr_move_notes(view: PlayerView, action: Action) -> list[str] | None:
    """A claim that reaches an attraction the viewer's routes do not touch yet."""
    if not isinstance(action, ClaimRoute):
        return None
    mine = view.seats[view.viewer].routes
    new = _touched(view.board, (*mine, action.route)) - _touched(view.board, mine)
    if not new:
        return None
    return [
        f"reaches {'an attraction' if len(new) == 1 else 'attractions'}: {', '.join(sorted(new))}"
    ]


@hookimpl
def ttr_check_state(state: GameState) -> list[str]:
    """The attractions line never counts more than the map holds: each seat's line
    names attractions of the map only, and scores ``points_per_attraction`` for each."""
    points = state.rules.option(NAME, "points_per_attraction")
    on_map = {loc.name for loc in state.board.locations if loc.extra.get("attraction")}
    problems = []
    for seat, lines in enumerate(ttr_score_lines(state)):
        for line in lines:
            if not set(line.detail) <= on_map:
                problems.append(f"{NAME}: seat {seat} is credited with attractions not on the map")
            if line.points != points * len(line.detail) or line.points > points * len(on_map):
                problems.append(
                    f"{NAME}: seat {seat} scores {line.points} for {len(line.detail)} of the "
                    f"{len(on_map)} attractions at {points} each"
                )
    return problems


@hookimpl
def ttr_score_lines(state: GameState) -> Sequence[Sequence[ScoreLine]]:
    points = state.rules.option(NAME, "points_per_attraction")
    sheets = []
    for seat in range(state.num_players):
        touched = attractions_touched(state, seat)
        sheets.append(
            [
                ScoreLine(
                    kind=NAME,
                    label=f"Tourist attractions touched: {len(touched)}",
                    points=points * len(touched),
                    detail=tuple(sorted(touched)),
                )
            ]
        )
    return sheets


@hookimpl
def ttr_native_rules(rules: GameRules) -> list[NativeRule]:
    """All this variant does, in the compiled engine's terms: points per attraction touched."""
    places = tuple(loc.name for loc in rules.board.locations if loc.extra.get("attraction"))
    return [NativeRule("places_touched", rules.option(NAME, "points_per_attraction"), places)]

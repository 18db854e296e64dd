"""Station-like connections (variant ``tp_stations``).

A turn action, :class:`BuildStation`: a seat places one of its
:data:`STATIONS` stations on a location no station holds, paying ``n`` cards
of one colour for its ``n``-th station (wilds make up for missing ones; a
payment with ``color`` the wild is wilds alone). Each station lends its
owner one route of another owner at its location for its tickets (hook
``ttr_ticket_connections``): the route, or with several stations the
routes, that complete the most ticket points, chosen whenever tickets are
counted (so at the end too). Each station not built scores
:data:`KEPT_POINTS` at the end. Stations are public: every view shows
them, ``determinize`` copies them back, and pictures draw them
(``ttr_tokens``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from ttr_core import (
    WILD,
    Action,
    ActionTemplate,
    Board,
    BuildsToken,
    GameState,
    IllegalAction,
    PendingKind,
    PlayerView,
    ScoreLine,
    Token,
    effects,
    hookimpl,
)

NAME = "tp_stations"
#: Stations per seat.
STATIONS = 2
#: Points for each station a seat has not built, at the end.
KEPT_POINTS = 3


@attrs.frozen
class BuildStation(Action):
    """Place a station on ``location``, paying with cards of ``color``."""

    location: int
    color: str


def stations(state: GameState) -> tuple[tuple[int, ...], ...]:
    """Per seat, the locations of its stations, in the order built."""
    value: tuple[tuple[int, ...], ...] = state.variant(NAME)
    return value


def payment(state: GameState, seat: int, color: str) -> dict[str, int]:
    """The cards the seat's next station costs, paid with ``color``."""
    count = len(stations(state)[seat]) + 1
    held = 0 if color == WILD else min(state.players[seat].hand[color], count)
    return {name: n for name, n in ((color, held), (WILD, count - held)) if n}


def completed_points(board: Board, tickets: Iterable[int], routes: Iterable[int]) -> int:
    """The points of the tickets whose ends ``routes`` join."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for r in routes:
        route = board.routes[r]
        parent[find(route.a)] = find(route.b)
    return sum(t.points for t in map(board.tickets.__getitem__, tickets) if find(t.a) == find(t.b))


def lent_routes(state: GameState, seat: int) -> tuple[int, ...]:
    """One route of another owner at each of the seat's stations: the choice that
    completes the most ticket points (the fewest routes, then the lowest ids,
    among equals); nothing when no choice completes more than none."""
    mine = stations(state)[seat]
    if not mine:
        return ()
    board, owners = state.board, state.owners
    own = state.players[seat].routes
    tickets = state.players[seat].tickets
    choices = []
    for location in mine:
        name = board.locations[location].name
        near = [r.id for r in board.routes if owners[r.id] not in (-1, seat) and name in (r.a, r.b)]
        choices.append([None, *near])
    best: tuple[int, ...] = ()
    most = completed_points(board, tickets, own)
    for combo in itertools.product(*choices):
        lent = tuple(sorted({r for r in combo if r is not None}))
        points = completed_points(board, tickets, (*own, *lent))
        if points > most or (points == most and best and (len(lent), lent) < (len(best), best)):
            best, most = lent, points
    return best


class Stations:
    """Stations: turn actions that lend their owner a route for its tickets."""

    description = "stations: a station lends its owner one route of another owner there"

    # -- declarations ---------------------------------------------------------

    @hookimpl
    def ttr_action_types(self) -> Mapping[str, type[Action]]:
        return {f"{NAME}.build": BuildStation}

    @hookimpl
    def ttr_action_space(self, board: Board) -> Sequence[ActionTemplate]:
        return [
            ActionTemplate(
                BuildStation, {"location": range(len(board.locations)), "color": board.card_names}
            )
        ]

    @hookimpl
    def ttr_variant_state_types(self) -> Mapping[str, Any]:
        return {NAME: tuple[tuple[int, ...], ...]}

    @hookimpl
    def ttr_view_types(self) -> Mapping[str, Any]:
        return {NAME: tuple[tuple[int, ...], ...]}

    @hookimpl
    def ttr_setup(self, state: GameState) -> GameState:
        return state.with_variant(NAME, ((),) * state.num_players)

    # -- the action -----------------------------------------------------------

    @hookimpl
    def ttr_extra_actions(self, state: GameState) -> Sequence[Action] | None:
        pending = state.pending
        if pending is None or pending.kind != PendingKind.TURN:
            return None
        seat, board = pending.player, state.board
        built = stations(state)
        count = len(built[seat]) + 1
        if count > STATIONS:
            return None
        hand = state.players[seat].hand
        colors = [c for c in board.colors if hand[c] and hand[c] + hand[WILD] >= count]
        colors += [WILD] if hand[WILD] >= count else []
        taken = {x for mine in built for x in mine}
        free = [x for x in range(len(board.locations)) if x not in taken]
        return [BuildStation(seat, x, c) for x in free for c in colors]

    @hookimpl
    def ttr_apply_action(self, state: GameState, action: Action) -> GameState | None:
        if not isinstance(action, BuildStation):
            return None
        if action not in (self.ttr_extra_actions(state) or ()):
            raise IllegalAction(f"{NAME}.cannot_build", f"{action!r}: no such station now")
        seat = action.player
        state = effects.discard_cards(state, seat, payment(state, seat, action.color))
        built = list(stations(state))
        built[seat] = (*built[seat], action.location)
        return effects.end_turn(state.with_variant(NAME, tuple(built)))

    # -- tickets and score ----------------------------------------------------

    @hookimpl
    def ttr_ticket_connections(self, state: GameState, seat: int) -> Iterable[int]:
        return lent_routes(state, seat)

    @hookimpl
    def ttr_score_lines(self, state: GameState) -> Sequence[Sequence[ScoreLine]]:
        return [
            [ScoreLine(NAME, "Stations kept", KEPT_POINTS * (STATIONS - len(mine)))]
            for mine in stations(state)
        ]

    # -- views and pictures ---------------------------------------------------

    @hookimpl
    def ttr_player_view(self, state: GameState) -> Mapping[str, Any]:
        return {NAME: stations(state)}

    @hookimpl
    def ttr_determinize(self, state: GameState, view: PlayerView) -> GameState:
        return state.with_variant(NAME, tuple(tuple(mine) for mine in view.variants[NAME]))

    @hookimpl
    def ttr_tokens(self, game: GameState | PlayerView) -> Iterator[Token]:
        built = game.variants[NAME] if isinstance(game, PlayerView) else stations(game)
        for seat, mine in enumerate(built):
            for location in mine:
                yield Token(location, seat, "station")

    # -- bots and words -------------------------------------------------------

    @hookimpl
    def ttr_agent_action_purpose(self, view: PlayerView, action: Action) -> BuildsToken | None:
        if not isinstance(action, BuildStation):
            return None
        cards = len(view.variants[NAME][view.viewer]) + 1
        return BuildsToken(action.location, cost=KEPT_POINTS + 0.5 * cards)

    @hookimpl
    def ttr_describe_action(self, state: GameState, action: Action) -> str | None:
        if not isinstance(action, BuildStation):
            return None
        paid = payment(state, action.player, action.color)
        cards = " and ".join(f"{n} {name}" for name, n in paid.items())
        return f"built a station at {state.board.locations[action.location].name}, paying {cards}"

    # -- invariants -----------------------------------------------------------

    @hookimpl
    def ttr_check_state(self, state: GameState) -> Iterator[str]:
        built = state.variant(NAME)
        if not isinstance(built, tuple) or len(built) != state.num_players:
            yield f"{NAME}: one tuple of stations per seat expected, not {built!r}"
            return
        every = [x for mine in built for x in mine]
        if len(every) != len(set(every)):
            yield f"{NAME}: a location holds two stations: {built}"
        for seat, mine in enumerate(built):
            if len(mine) > STATIONS:
                yield f"{NAME}: seat {seat} built {len(mine)} stations, more than {STATIONS}"
            if any(x not in range(len(state.board.locations)) for x in mine):
                yield f"{NAME}: seat {seat}'s stations {mine} name no location"

    @hookimpl
    def ttr_check_transition(
        self, before: GameState, action: Action, after: GameState
    ) -> Iterator[str]:
        """Stations change only by a station built: the seat's list grows by its
        location and its hand by exactly the station's price in cards."""
        was, now = stations(before), stations(after)
        if not isinstance(action, BuildStation):
            if was != now:
                yield f"{NAME}: {action!r} changed the stations from {was} to {now}"
            return
        seat = action.player
        if now[seat] != (*was[seat], action.location) or any(
            now[s] != was[s] for s in range(before.num_players) if s != seat
        ):
            yield f"{NAME}: {action!r} changed the stations from {was} to {now}"
        spent = before.players[seat].hand.total - after.players[seat].hand.total
        if spent != len(was[seat]) + 1:
            yield f"{NAME}: station {len(was[seat]) + 1} cost {spent} card(s)"

"""The neutral player (Ticket to Ride: Nederland, 2 players with tolls).

A third, non-seat owner of routes that adds pressure to a 2-player game:

* It has :data:`CARS` trains of its own (option ``cars``) and no cards,
  tickets or toll tokens. It is not a seat: it never takes a seat's turn,
  scores nothing and cannot win. Its owner number in ``GameState.owners`` is
  the player count (2).
* The second seat starts with the *neutral marker*.
* Rounds count from the first regular turn. In rounds 1 to
  ``FIRST_ROUND - 1`` it does nothing. From round :data:`FIRST_ROUND` on,
  after both seats have played, it has a turn: the top ticket of the ticket
  deck is revealed and returned as the map returns tickets (Nederland: face
  up onto the ticket discard pile). Then, by the route printed at the
  bottom of the ticket (map field ``neutral`` of the tickets):

  - no route printed, both routes of the pair claimed, or the neutral
    player already owns one of the pair: nothing happens (engine decision
    E10); the holder keeps the marker;
  - both routes of the pair free: the marker holder chooses which one the
    neutral player claims (a decision of kind :data:`CHOOSE`, answered with
    :class:`ChooseNeutralRoute`), and the marker passes to the other seat;
  - one route of the pair already claimed by a seat: the neutral player
    claims the other, the bank pays its toll to that seat (the ``tolls``
    variant does this for any owner that is not a seat), and the holder
    keeps the marker (no choice was made).

* It stops for good when its trains run short (fewer left than the route it
  would claim needs, or none), or when the ticket deck runs out; the ticket
  discard pile is then shuffled into a new ticket deck for the seats. It
  plays no turn once the end of the game is triggered, and its own train
  count never triggers it (engine decision E9).
* A seat claiming the second route of a pair whose first the neutral player
  owns pays the toll to the bank (E11, in ``tolls``).

Allowed only with 2 players and with ``tolls`` on. Everything about it is
public: each player's view shows the marker holder, the round, its routes,
cars, the last ticket revealed and whether (and why) it stopped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from ttr_core import (
    ROUTE,
    Action,
    ActionTemplate,
    Board,
    ClosesRoute,
    GameRules,
    GameState,
    IllegalAction,
    MapField,
    MoveWords,
    NativeRule,
    NonSeatOwner,
    Pending,
    PendingKind,
    PlayerView,
    PluginError,
    Reason,
    VariantOption,
    effects,
    hookimpl,
    player_name,
)

#: The variant name this plugin is registered under.
NAME = "neutral"
#: Kind of the marker holder's decision: which route of a free pair to claim.
CHOOSE = f"{NAME}.choose"
#: The neutral player's trains, by default.
CARS = 40
#: The first round with a neutral turn (rounds 1–5 are idle).
FIRST_ROUND = 6
#: Why the neutral player stopped (``NeutralState.stopped``).
OUT_OF_TRAINS = "out of trains"
TICKETS_RAN_OUT = "the ticket deck ran out"


@attrs.frozen
class ChooseNeutralRoute(Action):
    """The marker holder's choice: the neutral player claims ``route``, one of the
    free pair printed on the revealed ticket."""

    route: int


@attrs.frozen
class NeutralState:
    """The variant's state, stored under the key ``"neutral"`` (all of it public).

    ``owner`` is the neutral player's number in ``GameState.owners``;
    ``marker`` the seat holding the neutral marker; ``revealed`` the last
    ticket revealed (``None`` before the first neutral turn); ``stopped`` why
    it stopped for good (empty while it plays).
    """

    owner: int
    cars: int
    marker: int
    revealed: int | None = None
    stopped: str = ""


def neutral(state: GameState) -> NeutralState:
    """The neutral player's state in a game played with this variant."""
    value = state.variant(NAME)
    if not isinstance(value, NeutralState):
        raise PluginError(f"the game has no {NAME!r} state: is the variant switched on?")
    return value


def ticket_routes(board: Board, ticket: int) -> tuple[int, ...]:
    """The ids of the routes joining the places printed at the bottom of ``ticket``
    (the two routes of a double pair), or ``()`` when none is printed."""
    printed = board.tickets[ticket].extra.get(NAME)
    if printed is None:
        return ()
    places = set(printed)
    return tuple(r.id for r in board.routes if {r.a, r.b} == places)


def round_number(state: GameState) -> int:
    """The round being played (rounds count from the first regular turn, from 1)."""
    return state.turn // state.num_players + 1


@hookimpl
def ttr_action_types() -> Mapping[str, type[Action]]:
    return {f"{NAME}.choose_route": ChooseNeutralRoute}


@hookimpl
def ttr_action_space(board: Board) -> Sequence[ActionTemplate]:
    """Action ids for the marker holder's choice: one per route printed on a ticket."""
    printed = sorted({r for t in range(len(board.tickets)) for r in ticket_routes(board, t)})
    return [ActionTemplate(ChooseNeutralRoute, {"route": printed})]


@hookimpl
def ttr_agent_action_purpose(view: PlayerView, action: Action) -> ClosesRoute | None:
    """For bots: choosing a route gives it to the neutral player, closing it to the seats."""
    return ClosesRoute(action.route) if isinstance(action, ChooseNeutralRoute) else None


@hookimpl
def ttr_variant_state_types() -> Mapping[str, Any]:
    return {NAME: NeutralState, CHOOSE: tuple[tuple[int, ...], Pending]}


@hookimpl
def ttr_view_types() -> Mapping[str, Any]:
    return {
        f"{NAME}.marker": int,
        f"{NAME}.round": int,
        f"{NAME}.cars": int,
        f"{NAME}.routes": tuple[int, ...],
        f"{NAME}.revealed": int | None,
        f"{NAME}.stopped": str,
    }


@hookimpl
def ttr_options() -> Sequence[VariantOption]:
    return [
        VariantOption("cars", int, CARS, "trains of the neutral player", low=1, high=200),
    ]


@hookimpl
def ttr_map_fields() -> Sequence[MapField]:
    return [
        MapField(
            table="tickets",
            name=NAME,
            type=ROUTE,
            default=None,
            doc="the route printed at the bottom of the ticket for the 2-player neutral "
            "player (Nederland); absent where a windmill is printed",
        )
    ]


@hookimpl
def ttr_check_game(players: int, variants: Sequence[str]) -> str | None:
    if players != 2:
        return f"the neutral player is used only in 2-player games, not with {players} players"
    if "tolls" not in variants:
        return (
            "the neutral player is played with bridge tolls (the bank pays the tolls of its "
            "claims): switch on the 'tolls' variant too, e.g. variants=['tolls', 'neutral']"
        )
    return None


#: ``NeutralState.stopped`` by the compiled engine's number (0: still playing).
_STOPPED = ("", OUT_OF_TRAINS, TICKETS_RAN_OUT)


def _native_state(owner: int, cars: int, marker: int, revealed: int | None, stopped: int) -> Any:
    return NeutralState(owner, cars, marker, revealed, _STOPPED[stopped])


def _native_numbers(value: NeutralState) -> dict[str, Any]:
    return {
        "owner": value.owner,
        "cars": value.cars,
        "marker": value.marker,
        "revealed": value.revealed,
        "stopped": _STOPPED.index(value.stopped),
    }


@hookimpl
def ttr_native_rules(rules: GameRules) -> list[NativeRule]:
    """All this variant does, in the compiled engine's terms: its turns between
    rounds, the marker holder's choice (its actions by route id) and its stops."""
    board = rules.board
    per_ticket = tuple(ticket_routes(board, t) for t in range(len(board.tickets)))
    printed = sorted({r for routes in per_ticket for r in routes})
    return [
        NativeRule(
            "neutral_owner",
            count=rules.option(NAME, "cars"),
            round=FIRST_ROUND,
            per_ticket=per_ticket,
            decision=CHOOSE,
            key=NAME,
            record=_native_state,
            read=_native_numbers,
            actions=tuple(ChooseNeutralRoute(0, route) for route in printed),
            views=(
                (f"{NAME}.cars", "cars"),
                (f"{NAME}.marker", "marker"),
                (f"{NAME}.round", "round"),
            ),
        )
    ]


@hookimpl
def ttr_setup(state: GameState) -> GameState:
    cars = state.rules.option(NAME, "cars")
    # The second seat starts with the marker.
    return state.with_variant(NAME, NeutralState(owner=state.num_players, cars=cars, marker=1))


def _stop(state: GameState, current: NeutralState, why: str) -> GameState:
    """The neutral player stops for good; an emptied ticket deck is renewed for the seats."""
    state = state.with_variant(NAME, attrs.evolve(current, stopped=why))
    if not state.ticket_deck and state.ticket_discard:
        # Drawing no ticket from an empty deck shuffles the discard pile into a new deck.
        state, _ = effects.draw_tickets(state, 0)
    return state


def _claim(state: GameState, current: NeutralState, route: int, marker: int) -> GameState:
    """The neutral player claims ``route``; ``marker`` holds the marker afterwards."""
    cars = current.cars - state.board.routes[route].length
    current = attrs.evolve(current, cars=cars, marker=marker)
    state = effects.claim_route(state.with_variant(NAME, current), route, current.owner)
    return _stop(state, current, OUT_OF_TRAINS) if cars == 0 else state


@hookimpl
def ttr_between_turns(state: GameState) -> GameState | None:
    current = neutral(state)
    if current.stopped:
        return None
    if not state.ticket_deck:
        return _stop(state, current, TICKETS_RAN_OUT)
    if state.final_turns >= 0:
        return None  # the end is triggered: no more neutral turns (E9)
    rounds_done, seats_to_play = divmod(state.turn, state.num_players)
    if seats_to_play or rounds_done < FIRST_ROUND:
        return None  # the round is not over yet, or it is one of rounds 1-5 (idle)
    return _neutral_turn(state, current)


def _neutral_turn(state: GameState, current: NeutralState) -> GameState:
    """Reveal the top ticket and act on the route printed on it."""
    state, drawn = effects.draw_tickets(state, 1)
    (ticket,) = drawn
    state = effects.return_tickets(state, drawn)  # discarded, face up: public
    current = attrs.evolve(current, revealed=ticket)
    routes = ticket_routes(state.board, ticket)
    owners = state.owners
    free = tuple(r for r in routes if owners[r] == -1)
    if not free or any(owners[r] == current.owner for r in routes):
        # No route printed, all claimed, or the neutral owns one already (E10).
        new = state.with_variant(NAME, current)
    elif current.cars < state.board.routes[free[0]].length:
        new = _stop(state, current, OUT_OF_TRAINS)
    elif len(free) == 1:
        # The other route is a seat's: no choice is made, the holder keeps the marker.
        new = _claim(state, current, free[0], current.marker)
    else:
        # Both free: the holder chooses; the turn that was next waits in the data.
        new = effects.set_pending(
            state.with_variant(NAME, current), CHOOSE, current.marker, data=(free, state.pending)
        )
    if not new.ticket_deck and not neutral(new).stopped:
        new = _stop(new, neutral(new), TICKETS_RAN_OUT)
    return new


def _choice(state: GameState) -> tuple[tuple[int, ...], Pending] | None:
    pending = state.pending
    if pending is None or pending.kind != CHOOSE:
        return None
    routes, resume = pending.data
    return routes, resume


@hookimpl
def ttr_extra_actions(state: GameState) -> Sequence[Action] | None:
    choice = _choice(state)
    if choice is None:
        return None
    assert state.pending is not None
    return [ChooseNeutralRoute(state.pending.player, route) for route in choice[0]]


@hookimpl
def ttr_apply_action(state: GameState, action: Action) -> GameState | None:
    if not isinstance(action, ChooseNeutralRoute):
        return None
    choice = _choice(state)
    if choice is None:
        raise IllegalAction(
            Reason.WRONG_PHASE, "no neutral route is to be chosen now (no free pair was revealed)"
        )
    routes, resume = choice
    if type(action.route) is not int or action.route not in routes:
        # The message quotes only the choices: the value given may be anything.
        raise IllegalAction(
            Reason.UNKNOWN_ROUTE,
            f"the neutral player claims route {routes[0]} or {routes[1]} (the pair on the "
            "revealed ticket), not another",
        )
    current = neutral(state)
    # A choice was made: the marker passes to the other seat.
    state = _claim(state, current, action.route, 1 - current.marker)
    return attrs.evolve(state, pending=resume)


@hookimpl
def ttr_describe_action(
    state: GameState, action: Action, after: GameState, full: bool
) -> str | None:
    """The marker holder's choice in words (all of it public, so ``full`` changes nothing)."""
    if not isinstance(action, ChooseNeutralRoute):
        return None
    route = state.board.routes[action.route]
    where = f"{route.a}–{route.b} ({route.color} {route.length})"
    return f"chose the route {where} for the {NAME} player"


@hookimpl
def ttr_move_words(view: PlayerView, action: Action) -> MoveWords | None:
    """The marker holder's choice, route by route (click the route)."""
    if not isinstance(action, ChooseNeutralRoute):
        return None
    route = view.board.routes[action.route]
    where = f"{route.a}–{route.b} ({route.color} {route.length})"
    return MoveWords(
        f"Give {where} to the {NAME} player",
        f"Choose the {NAME} player's route",
        route=route.id,
        choice=f"give it to the {NAME} player",
        command="n",
    )


@hookimpl
def ttr_view_words(view: PlayerView) -> list[str]:
    """The neutral player: its trains, who holds the marker, the last ticket."""
    shown = view.variants
    board = view.board
    holder = player_name(shown["neutral.marker"], view.viewer)
    line = f"Neutral player: {shown['neutral.cars']} {board.pieces} left; marker: {holder}"
    revealed = shown["neutral.revealed"]
    if revealed is not None:
        line += f"; last ticket revealed: {board.tickets[revealed].text('–')}"
    if shown["neutral.stopped"]:
        line += f"; stopped: {shown['neutral.stopped']}"
    elif shown["neutral.round"] < FIRST_ROUND:
        line += f"; first plays in round {FIRST_ROUND}"
    return [line]


@hookimpl
def ttr_non_seat_owners(state: GameState) -> Sequence[NonSeatOwner]:
    current = neutral(state)
    return [NonSeatOwner(current.owner, NAME, current.cars)]


@hookimpl
def ttr_player_view(state: GameState) -> Mapping[str, Any]:
    current = neutral(state)
    return {
        "neutral.marker": current.marker,
        "neutral.round": round_number(state),
        "neutral.cars": current.cars,
        "neutral.routes": tuple(r for r, o in enumerate(state.owners) if o == current.owner),
        "neutral.revealed": current.revealed,
        "neutral.stopped": current.stopped,
    }


@hookimpl
def ttr_determinize(state: GameState, view: PlayerView) -> GameState:
    """Everything about the neutral player is public: rebuild it from the view.

    A pending :data:`CHOOSE` decision gets its data back too: the free pair
    printed on the revealed ticket, and the turn that waits (the next seat's).
    """
    shown = view.variants
    current = NeutralState(
        owner=state.num_players,
        cars=shown[f"{NAME}.cars"],
        marker=shown[f"{NAME}.marker"],
        revealed=shown[f"{NAME}.revealed"],
        stopped=shown[f"{NAME}.stopped"],
    )
    state = state.with_variant(NAME, current)
    pending = state.pending
    if pending is not None and pending.kind == CHOOSE and current.revealed is not None:
        routes = ticket_routes(state.board, current.revealed)
        free = tuple(r for r in routes if state.owners[r] == -1)
        # The neutral player plays after a round: the turn that waits is the next seat's.
        resume = Pending(PendingKind.TURN, state.turn % state.num_players)
        state = attrs.evolve(state, pending=attrs.evolve(pending, data=(free, resume)))
    return state


@hookimpl
def ttr_check_state(state: GameState) -> list[str]:
    current = state.variant(NAME)
    if not isinstance(current, NeutralState):
        return [f"{NAME}: the variant's state is missing"]
    problems = []
    if current.owner != state.num_players:
        problems.append(f"{NAME}: its owner number is {state.num_players}, not {current.owner}")
    if current.marker not in range(state.num_players):
        problems.append(f"{NAME}: the marker must be held by a seat, not {current.marker}")
    if current.revealed is not None and current.revealed not in range(len(state.board.tickets)):
        problems.append(f"{NAME}: there is no ticket {current.revealed}")
    if current.stopped not in ("", OUT_OF_TRAINS, TICKETS_RAN_OUT):
        problems.append(f"{NAME}: unknown reason for stopping {current.stopped!r}")
    owned = [r for r, o in enumerate(state.owners) if o == current.owner]
    placed = sum(state.board.routes[r].length for r in owned)
    cars = state.rules.option(NAME, "cars")
    if current.cars != cars - placed:
        problems.append(
            f"{NAME}: {current.cars} trains left, but {cars} less the {placed} placed "
            f"is {cars - placed}"
        )
    for route in owned:
        partner = state.board.routes[route].partner
        if partner is not None and state.owners[partner] == current.owner:
            problems.append(f"{NAME}: it owns both routes of a pair ({route}, {partner})")
    pending = state.pending
    if pending is not None and pending.kind == CHOOSE:
        routes, resume = pending.data
        if pending.player != current.marker or any(state.owners[r] != -1 for r in routes):
            problems.append(f"{NAME}: the pending choice is not the marker holder's free pair")
        if not isinstance(resume, Pending) or resume.kind == CHOOSE:
            problems.append(f"{NAME}: the pending choice must resume a turn")
    return problems

"""Train stations (Ticket to Ride: Europe).

Each player has :data:`STATIONS` stations (option ``stations``). As a turn, a
player may build one (:class:`BuildStation`) on any city that has none yet —
one station per city in the whole game, whoever owns it; the city need not
touch a route of theirs. The first station costs 1 card, the second 2, the
third 3, all of one colour, locomotives standing for any colour; the cards go
to the discard pile and the turn ends.

At the end each station lets its owner use **one** route of another owner
that starts or ends in its city, as if it were theirs, to complete tickets
(hook ``ttr_ticket_connections``). Engine decision EU3: for each station, one
adjacent route of another owner or none; the choice that gives the seat the
most ticket points, then the most completed tickets, wins (a brute force over
at most 3 stations; equal choices: the fewest routes, then the lowest route
ids). The choice follows from public facts (stations, owners) and the seat's
own tickets, so it is worked out wherever tickets are counted — the score
sheets (also a provisional count during play), a seat's view dealt by
``determinize`` for the bots — and nothing is stored (:func:`station_routes`
tells it).

EU4: stations are not pieces on routes. They score nothing themselves, never
block a claim, and do not count for the longest path (the European Express
reads the seat's own routes only).

Each station a player never built is worth :data:`POINTS` points (option
``points``), on a score line "Unused stations"; a 0-point line per station
built names the route it lends ("Station in Wien lends München–Wien (orange
3)", kind :data:`ROUTE_LINE`, shown to its own seat until the end: the
choice follows from its tickets). A tie for the win that the most completed
tickets leaves goes to the tied seats with the fewest
stations built (hook ``ttr_tie_break``; the map lists this variant before
``longest_route``, so the Express holder decides last).

Everything about stations is public: every view shows them all.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from ttr_core import (
    Action,
    ActionTemplate,
    Board,
    BuildsToken,
    GameRules,
    GameState,
    IllegalAction,
    MoveWords,
    NativeRule,
    PlayerView,
    Reason,
    ScoreLine,
    ScoreSheet,
    TicketEnds,
    Token,
    VariantOption,
    connected_components,
    effects,
    hookimpl,
    payment_options,
    player_name,
    ticket_ends,
    view_rules,
)

#: The variant name this plugin is registered under.
NAME = "stations"
#: The view key showing the stations as numbers, per location (see ttr_player_view).
AT = f"{NAME}.at"
#: Stations per player, by default.
STATIONS = 3
#: Points for each station a player never built, by default.
POINTS = 4
#: The token kind the pictures draw.
TOKEN = "station"
#: Kind of the 0-point score line naming the route a station lends (EU3).
ROUTE_LINE = "station_route"
#: ``IllegalAction`` reason codes of the variant.
NO_STATION_LEFT = f"{NAME}.none_left"
CITY_TAKEN = f"{NAME}.city_taken"
#: For bots: what a wild card spent on a station costs beyond a coloured card, in points.
WILD_COST = 1.5


@attrs.frozen
class BuildStation(Action):
    """Build a station on location ``location``, paying ``wilds`` wild cards and the
    rest in ``color`` (``None`` exactly when wilds alone pay), as for a gray route
    as long as the station's cost (1, 2 or 3 cards for a seat's 1st, 2nd, 3rd)."""

    location: int
    color: str | None
    wilds: int


@attrs.frozen
class Station:
    """One station built: ``location`` id, ``owner`` seat, and the payment —
    ``cards`` in all (1, 2, 3 for the owner's 1st, 2nd, 3rd), ``wilds`` of them
    wild, the rest ``color`` (``None`` when wilds alone paid)."""

    location: int
    owner: int
    color: str | None
    wilds: int
    cards: int


def stations(game: GameState | PlayerView) -> tuple[Station, ...]:
    """Every station built, in build order, from a state or from any seat's view."""
    if isinstance(game, PlayerView):
        shown: tuple[Station, ...] = tuple(game.variants.get(NAME, ()))
        return shown
    value = game.variant(NAME, ())
    built: tuple[Station, ...] = value
    return built


def built_by(game: GameState | PlayerView, seat: int) -> tuple[int, ...]:
    """The locations of ``seat``'s stations, in build order."""
    return tuple(s.location for s in stations(game) if s.owner == seat)


def station_routes(state: GameState, seat: int) -> tuple[int | None, ...]:
    """The route each of ``seat``'s stations lends it (EU3), in build order, ``None``
    for a station that lends none: the choice the score sheets count with."""
    mine = built_by(state, seat)
    if not mine:
        return ()
    player = state.players[seat]
    ends = ticket_ends(state)
    held = tuple(ends[t] for t in player.tickets)
    return _choose(state.board, state.owners, seat, mine, player.routes, held)


@functools.lru_cache(maxsize=16)
def _adjacency(board: Board) -> tuple[tuple[int, ...], ...]:
    """Route ids at each location (boards hash by identity)."""
    near: list[list[int]] = [[] for _ in board.locations]
    for route in board.routes:
        a, b = board.location_id(route.a), board.location_id(route.b)
        near[a].append(route.id)
        if b != a:
            near[b].append(route.id)
    return tuple(tuple(r) for r in near)


@functools.lru_cache(maxsize=16)
def _ends(board: Board) -> tuple[tuple[int, int], ...]:
    return tuple((board.location_id(r.a), board.location_id(r.b)) for r in board.routes)


# Called for each seat whenever sheets are counted (every provisional count, the
# bots' every decision): the same facts give the same choice, so it is cached.
@functools.lru_cache(maxsize=4096)
def _choose(
    board: Board,
    owners: tuple[int, ...],
    seat: int,
    locations: tuple[int, ...],
    routes: tuple[int, ...],
    tickets: tuple[TicketEnds, ...],
) -> tuple[int | None, ...]:
    """EU3: the route (or ``None``) each station at ``locations`` lends ``seat``,
    chosen for the most ticket points, then the most tickets completed.
    ``tickets``: the ends of the seat's tickets (``ttr_core.ticket_ends``), so
    a ticket with several destinations (a region's) counts as the core does."""
    ends = _ends(board)
    root = connected_components(len(board.locations), (ends[r] for r in routes))
    # Only tickets the seat's own routes leave short of their best can change.
    open_tickets = [t for t in tickets if t.scored(root)[0] < max(g.points for g in t.goals)]
    nothing: tuple[int | None, ...] = (None,) * len(locations)
    if not open_tickets:
        return nothing
    adjacency = _adjacency(board)
    options: list[list[tuple[int, int, int] | None]] = []
    for location in locations:
        # Routes joining the same two components of the seat's network are alike:
        # keep the lowest id of each; a route inside one component helps nothing.
        found: dict[frozenset[int], tuple[int, int, int]] = {}
        for route in adjacency[location]:
            if owners[route] in (-1, seat):
                continue
            a, b = root[ends[route][0]], root[ends[route][1]]
            key = frozenset((a, b))
            if a != b and key not in found:
                found[key] = (route, a, b)
        options.append([None, *found.values()])
    # What the tickets score with no route lent: a choice must do better.
    best = _score(open_tickets, root)
    chosen = nothing
    for combination in itertools.product(*options):
        links = [(item[1], item[2]) for item in combination if item is not None]
        if not links:
            continue
        # Components of the seat's components (links join their roots).
        merged = connected_components(len(board.locations), links)
        points, count = _score(open_tickets, [merged[r] for r in root])
        if (points, count) > best:
            best = (points, count)
            chosen = tuple(None if item is None else item[0] for item in combination)
    return chosen


def _score(tickets: Sequence[TicketEnds], root: Sequence[int]) -> tuple[int, int]:
    """The ticket points and completed tickets of ``tickets`` with locations in
    components ``root``."""
    points = count = 0
    for ticket in tickets:
        value, goal = ticket.scored(root)
        points += value
        count += goal is not None
    return points, count


def cost_of(state: GameState, seat: int) -> int:
    """The cards ``seat``'s next station costs: 1, 2, 3 for the 1st, 2nd, 3rd."""
    return len(built_by(state, seat)) + 1


def _payment(color: str | None, wilds: int, cards: int) -> dict[str, int]:
    """The cards a payment discards, by card name."""
    pay = {"wild": wilds} if wilds else {}
    if color is not None and cards > wilds:
        pay[color] = cards - wilds
    return pay


# ---------------------------------------------------------------------------
# Declarations
# ---------------------------------------------------------------------------


@hookimpl
def ttr_options() -> Sequence[VariantOption]:
    return [
        VariantOption("stations", int, STATIONS, "train stations per player", low=0, high=5),
        VariantOption("points", int, POINTS, "points for each station never built", low=0),
    ]


@hookimpl
def ttr_action_types() -> Mapping[str, type[Action]]:
    return {f"{NAME}.build": BuildStation}


@hookimpl
def ttr_variant_state_types() -> Mapping[str, Any]:
    return {NAME: tuple[Station, ...]}


@hookimpl
def ttr_view_types(board: Board) -> Mapping[str, Any]:
    return {NAME: tuple[Station, ...], AT: tuple.__class_getitem__((int,) * len(board.locations))}


@hookimpl
def ttr_action_space(board: Board, rules: GameRules) -> Sequence[ActionTemplate]:
    """One id per (city, colour or ``None``, wilds); the 3rd station costs 3 cards."""
    most = rules.option(NAME, "stations")
    return [
        ActionTemplate(
            BuildStation,
            {
                "location": range(len(board.locations)),
                "color": (*board.colors, None),
                "wilds": range(max(most, 1) + 1),
            },
        )
    ]


@hookimpl
def ttr_native_rules(rules: GameRules) -> list[NativeRule]:
    """All this variant does, in the compiled engine's terms: the builds (its
    actions by location, colour, wilds: the order of its action space), the
    routes lent at the end (EU3), the unused stations' points and the
    tie-break."""
    board = rules.board
    most = rules.option(NAME, "stations")
    colours = (*board.colors, None)
    return [
        NativeRule(
            "stations",
            points=rules.option(NAME, "points"),
            tie_break=True,
            count=most,
            key=NAME,
            record=Station,
            actions=tuple(
                BuildStation(0, location, colour, wilds)
                for location in range(len(board.locations))
                for colour in colours
                for wilds in range(max(most, 1) + 1)
            ),
            views=((AT, "at"),),
        )
    ]


# ---------------------------------------------------------------------------
# Play
# ---------------------------------------------------------------------------


@hookimpl
def ttr_setup(state: GameState) -> GameState:
    return state.with_variant(NAME, ())


@hookimpl
def ttr_extra_actions(state: GameState) -> Sequence[Action] | None:
    pending = state.pending
    if pending is None or pending.kind != "turn":
        return None
    seat = pending.player
    built = stations(state)
    mine = sum(1 for s in built if s.owner == seat)
    if mine >= state.rules.option(NAME, "stations"):
        return None
    board = state.board
    # Only what the hand can pay: one action per (city, colour, wilds).
    payments = payment_options(-1, mine + 1, state.players[seat].hand.counts, board.wild)
    if not payments:
        return None
    taken = {s.location for s in built}
    paid = [(None if c is None else board.card_names[c], w) for c, w in payments]
    return [
        BuildStation(seat, location, color, wilds)
        for location in range(len(board.locations))
        if location not in taken
        for color, wilds in paid
    ]


@hookimpl
def ttr_apply_action(state: GameState, action: Action) -> GameState | None:
    if not isinstance(action, BuildStation):
        return None
    pending = state.pending
    if pending is None or pending.kind != "turn":
        raise IllegalAction(Reason.WRONG_PHASE, "a station is built as a turn, not now")
    board, seat = state.board, action.player
    built = stations(state)
    most = state.rules.option(NAME, "stations")
    cards = sum(1 for s in built if s.owner == seat) + 1
    if cards > most:
        raise IllegalAction(NO_STATION_LEFT, f"seat {seat} has built all its {most} stations")
    location = action.location
    if type(location) is not int or not 0 <= location < len(board.locations):
        raise IllegalAction(
            Reason.MALFORMED_ACTION,
            f"a station is built on a location id 0 to {len(board.locations) - 1}",
        )
    if any(s.location == location for s in built):
        raise IllegalAction(
            CITY_TAKEN, f"{board.locations[location].name} has a station already (one per city)"
        )
    color, wilds = action.color, action.wilds
    if (
        type(wilds) is not int
        or not 0 <= wilds <= cards
        or (color is None) != (wilds == cards)
        or (color is not None and color not in board.colors)
    ):
        raise IllegalAction(
            Reason.BAD_PAYMENT,
            f"station {cards} costs {cards} card(s) of one colour, wild cards standing in "
            "(colour None exactly when wild cards alone pay)",
        )
    try:
        state = effects.discard_cards(state, seat, _payment(color, wilds, cards))
    except IllegalAction as error:
        raise IllegalAction(Reason.CARDS_DO_NOT_PAY, f"the hand cannot pay: {error}") from None
    state = state.with_variant(NAME, (*built, Station(location, seat, color, wilds, cards)))
    return effects.end_turn(state)


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------


@hookimpl
def ttr_ticket_connections(state: GameState, seat: int) -> Iterable[int] | None:
    lent = {r for r in station_routes(state, seat) if r is not None}
    return lent or None


@hookimpl
def ttr_score_lines(state: GameState) -> Sequence[Sequence[ScoreLine]]:
    most = state.rules.option(NAME, "stations")
    points = state.rules.option(NAME, "points")
    title = state.rules.title(NAME, "Unused stations")
    built = stations(state)
    lines = []
    for seat in range(state.num_players):
        unused = most - sum(1 for s in built if s.owner == seat)
        lines.append(
            [ScoreLine(NAME, f"{title}: {unused}", unused * points), *_lent_lines(state, seat)]
        )
    return lines


def _lent_lines(state: GameState, seat: int) -> list[ScoreLine]:
    """One 0-point line per station of ``seat`` naming the route it lends (EU3), so
    a score sheet (``ttr replay``, the demo) tells the choice in words. The choice
    follows from the seat's tickets: shown to its own seat only until the end."""
    board = state.board
    lines = []
    for location, route in zip(built_by(state, seat), station_routes(state, seat), strict=True):
        city = board.locations[location].name
        if route is None:
            lent = "lends no route"
        else:
            r = board.routes[route]
            lent = f"lends {r.a}–{r.b} ({r.color} {r.length})"
        lines.append(ScoreLine(ROUTE_LINE, f"Station in {city} {lent}", 0, shown="owner"))
    return lines


@hookimpl
def ttr_tie_break(
    state: GameState, sheets: Sequence[ScoreSheet], tied: Sequence[int]
) -> Sequence[int] | None:
    """The fewest stations built among the tied seats."""
    built = stations(state)
    count = {seat: sum(1 for s in built if s.owner == seat) for seat in tied}
    fewest = min(count.values())
    return [seat for seat in tied if count[seat] == fewest]


# ---------------------------------------------------------------------------
# Views, words and pictures
# ---------------------------------------------------------------------------


@hookimpl
def ttr_player_view(state: GameState, player: int) -> Mapping[str, Any]:
    # Public. AT repeats it as numbers, which observation encoders read (they
    # skip the Station records): per location 0, or 1 + the owner's seat
    # counted from the viewer (1: the viewer's own station).
    built = stations(state)
    seats = state.num_players
    at = [0] * len(state.board.locations)
    for station in built:
        at[station.location] = 1 + (station.owner - player) % seats
    return {NAME: built, AT: tuple(at)}


@hookimpl
def ttr_determinize(state: GameState, view: PlayerView) -> GameState:
    return state.with_variant(NAME, stations(view))


@hookimpl
def ttr_tokens(game: GameState | PlayerView) -> Sequence[Token]:
    return [Token(s.location, s.owner, TOKEN) for s in stations(game)]


def _cards_in_words(board: Board, color: str | None, wilds: int, cards: int) -> str:
    parts = [f"{cards - wilds} {color}"] if color is not None and cards > wilds else []
    if wilds:
        parts.append(f"{wilds} {board.wild_name}{'s' if wilds != 1 else ''}")
    return " and ".join(parts)


@hookimpl
def ttr_describe_action(state: GameState, action: Action) -> str | None:
    """The station in words, e.g. "built a station in Berlin with 2 red" (all public)."""
    if not isinstance(action, BuildStation):
        return None
    board = state.board
    cards = cost_of(state, action.player)
    where = board.locations[action.location].name
    paid = _cards_in_words(board, action.color, action.wilds, cards)
    return f"built a station in {where} with {paid}"


@hookimpl
def ttr_move_words(view: PlayerView, action: Action) -> MoveWords | None:
    """A station to build, for the person choosing: click the city, then pay."""
    if not isinstance(action, BuildStation):
        return None
    board = view.board
    cards = len(built_by(view, action.player)) + 1
    paid = _cards_in_words(board, action.color, action.wilds, cards)
    where = board.locations[action.location].name
    return MoveWords(
        f"Build a station in {where} with {paid}",
        "Build a station",
        place=action.location,
        choice=paid,
        command="st",
    )


@hookimpl
def ttr_view_words(view: PlayerView) -> list[str]:
    """Each seat's stations left and where it built them."""
    board = view.board
    most = view_rules(view).option(NAME, "stations")
    parts = []
    for seat in range(len(view.seats)):
        mine = built_by(view, seat)
        where = ", ".join(board.locations[loc].name for loc in mine)
        who = player_name(seat, view.viewer)
        parts.append(f"{who} {most - len(mine)} left" + (f" (built in {where})" if where else ""))
    return ["Stations: " + "; ".join(parts)]


@hookimpl
def ttr_agent_action_purpose(view: PlayerView, action: Action) -> BuildsToken | None:
    """For bots: a station places a token; it costs the points of an unused station
    and its cards (wild cards dearer)."""
    if not isinstance(action, BuildStation):
        return None
    points = dict(dict(view.options).get(NAME, ())).get("points", POINTS)
    cards = len(built_by(view, action.player)) + 1
    return BuildsToken(action.location, cost=points + 0.5 * cards + WILD_COST * action.wilds)


# ---------------------------------------------------------------------------
# Invariants
# ---------------------------------------------------------------------------


@hookimpl
def ttr_check_state(state: GameState) -> Iterator[str]:
    built = state.variant(NAME)
    if not isinstance(built, tuple) or not all(isinstance(s, Station) for s in built):
        yield f"{NAME}: expected a tuple of Station, not {type(built).__name__}"
        return
    board = state.board
    most = state.rules.option(NAME, "stations")
    seen: set[int] = set()
    per_seat = [0] * state.num_players
    for index, s in enumerate(built):
        where = f"{NAME}[{index}]"
        if s.owner not in range(state.num_players):
            yield f"{where}: owner {s.owner!r} is not a seat"
            continue
        if s.location not in range(len(board.locations)):
            yield f"{where}: no location {s.location!r}"
        elif s.location in seen:
            yield f"{where}: a second station in {board.locations[s.location].name}"
        seen.add(s.location)
        per_seat[s.owner] += 1
        if s.cards != per_seat[s.owner]:
            yield (
                f"{where}: seat {s.owner}'s station {per_seat[s.owner]} was paid "
                f"{s.cards} card(s), not {per_seat[s.owner]}"
            )
        if not 0 <= s.wilds <= s.cards or (s.color is None) != (s.wilds == s.cards):
            yield f"{where}: a payment of {s.cards} with {s.wilds} wild(s) in {s.color!r}"
        if s.color is not None and s.color not in board.colors:
            yield f"{where}: no card colour {s.color!r}"
    for seat, count in enumerate(per_seat):
        if count > most:
            yield f"{NAME}: seat {seat} built {count} stations, more than {most}"


@hookimpl
def ttr_check_transition(before: GameState, action: Action, after: GameState) -> Iterator[str]:
    old, new = stations(before), stations(after)
    if not isinstance(action, BuildStation):
        if new != old:
            yield f"{NAME}: the stations changed on {type(action).__name__}"
        return
    cards = cost_of(before, action.player)
    expected = Station(action.location, action.player, action.color, action.wilds, cards)
    if new != (*old, expected):
        yield f"{NAME}: building {expected} left the stations {new}"
    names = before.board.card_names
    hand_before = before.players[action.player].hand.counts
    hand_after = after.players[action.player].hand.counts
    spent = {names[i]: b - a for i, (b, a) in enumerate(zip(hand_before, hand_after, strict=True))}
    paid = {k: v for k, v in spent.items() if v}
    owed = _payment(action.color, action.wilds, cards)
    if paid != owed:
        yield f"{NAME}: station {cards} was paid {paid}, it costs {owed}"

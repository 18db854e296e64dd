"""The Grand Tour bonus, or Mandala (Ticket to Ride: India).

At the end of the game each of a seat's tickets **qualifies** when its two
ends are joined by two continuous paths of the seat's own routes that share
no route: the paths may meet or cross at cities, but no train is used twice
(docs/rules.md, "India", from the rules file ``india.md``: the official
rules text, Board Game Arena's rules summary "may intersect, but cannot
share trains", the wiki). The halves of a double route are two routes, but a seat never owns
both. A qualifying ticket is necessarily a completed one; the ticket's own
value is scored by the core as usual.

Each seat scores a bonus for how many of its tickets qualify, from the map's
table (``[variants.mandala] bonus``: the points for 1, 2, 3, ... qualifying
tickets, the last entry for that many or more; none for no ticket)::

    [variants.mandala]
    bonus = [5, 10, 20, 30, 40]

India prints 5, 10, 20, 30, 40 (capped at 40 for 5 or more), which is also
:data:`BONUS`, the table of a map that gives none. It is not a race: every
seat scores its own count. The line is shown to its own seat only during
play (``shown="owner"``): tickets are secret until the end. A map may title
it (``[rules.titles] mandala = "Grand Tour of India"``).

The test (engine note IN1): the ticket's start places are contracted into
one node and its goal places into another (a region end stands for any of
its locations; a ticket with several destinations qualifies if any one
does). By Menger's theorem two route-disjoint paths exist exactly when the
two nodes are joined and no single route's removal parts them; such a route
lies on every path, so trying each route of one path found is enough
(:func:`two_disjoint_paths`).

The variant keeps no state: the bonus follows from the routes and tickets at
scoring, so ``determinize`` needs no hook of it. For the bots it advises a
gain on the routes that would give a completed ticket its second path
(:func:`ttr_agent_route_costs`).
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Collection, Hashable, Iterable, Sequence

from ttr_core import (
    ArgumentError,
    Board,
    GameState,
    PlayerView,
    ScoreLine,
    TicketEnds,
    connected_components,
    hookimpl,
    ticket_ends,
    view_rules,
)

#: The variant name this plugin is registered under.
NAME = "mandala"
#: The bonus for 1, 2, 3, 4, 5-or-more qualifying tickets when the map gives no table (India's).
BONUS: tuple[int, ...] = (5, 10, 20, 30, 40)
#: The most points one entry of the map's table may give.
MOST = 1000
#: The most entries the map's table may have.
ENTRIES = 20
#: How much of the bonus a plan is worth to the bots: advice guides, it does not dominate.
ADVICE_SCALE = 0.5


def two_disjoint_paths(
    edges: Sequence[tuple[Hashable, Hashable]],
    start: Collection[Hashable],
    goal: Collection[Hashable],
) -> bool:
    """Whether two paths over ``edges`` that share no edge join ``start`` to ``goal``.

    ``edges`` are ``(a, b)`` pairs of any hashable nodes; two pairs joining
    the same nodes are two edges (the halves of a double route). ``start``
    and ``goal`` are sets of nodes, each contracted into one end (a region:
    a path from any start node to any goal node will do). The paths may
    share nodes. An empty end is never joined; ends that share a node are
    joined already, by two empty paths. Linear in the edges for each edge of
    one path found (engine note IN1).
    """
    starts, goals = set(start), set(goal)
    if not starts or not goals:
        return False
    if starts & goals:
        return True
    adjacency = _contracted(edges, starts, goals)
    path = _path(adjacency, None)
    if path is None:
        return False
    # A route whose removal parts the ends lies on every path, so on this one.
    return all(_path(adjacency, edge) is not None for edge in path)


def _contracted(
    edges: Iterable[tuple[Hashable, Hashable]],
    starts: Collection[Hashable],
    goals: Collection[Hashable],
    usable: Sequence[bool] | None = None,
) -> list[list[tuple[int, int]]]:
    """Adjacency lists ``node -> [(edge index, other node)]`` with every start
    node contracted into node 0 and every goal node into node 1; edges left
    with both ends in one node (and those not ``usable``) are dropped."""
    index: dict[Hashable, int] = dict.fromkeys(starts, 0)
    index.update(dict.fromkeys(goals, 1))
    adjacency: list[list[tuple[int, int]]] = [[], []]
    for edge, (a, b) in enumerate(edges):
        if usable is not None and not usable[edge]:
            continue
        u = index.get(a)
        if u is None:
            u = index[a] = len(adjacency)
            adjacency.append([])
        v = index.get(b)
        if v is None:
            v = index[b] = len(adjacency)
            adjacency.append([])
        if u != v:
            adjacency[u].append((edge, v))
            adjacency[v].append((edge, u))
    return adjacency


def _path(adjacency: Sequence[Sequence[tuple[int, int]]], banned: int | None) -> list[int] | None:
    """The edges of one path from node 0 to node 1 avoiding edge ``banned``
    (breadth first), or ``None`` when there is none."""
    came: dict[int, tuple[int, int]] = {0: (-1, -1)}
    frontier = [0]
    while frontier:
        following = []
        for u in frontier:
            for edge, v in adjacency[u]:
                if edge == banned or v in came:
                    continue
                came[v] = (edge, u)
                if v == 1:
                    path = []
                    while v != 0:
                        edge, v = came[v]
                        path.append(edge)
                    return path
                following.append(v)
        frontier = following
    return None


def cheapest_two_paths(
    edges: Sequence[tuple[Hashable, Hashable]],
    costs: Sequence[float | None],
    start: Collection[Hashable],
    goal: Collection[Hashable],
) -> tuple[int, ...] | None:
    """The edges of two edge-disjoint paths from ``start`` to ``goal`` of the
    least total cost, or ``None`` when no two such paths exist.

    ``edges`` and the ends are as for :func:`two_disjoint_paths`; ``costs``
    gives each edge's cost, a number of at least 0, or ``None`` for an edge
    that may not be used. Returns the indices of the edges used, sorted
    (``()`` when the ends share a node); their costs add up to the least
    total. A minimum-cost flow of two units with unit capacities (successive
    shortest paths, Dijkstra on reduced costs): an edge walked both ways
    cancels out, so the two paths found never share an edge.
    """
    starts, goals = set(start), set(goal)
    if not starts or not goals:
        return None
    if starts & goals:
        return ()
    adjacency = _contracted(edges, starts, goals, [cost is not None for cost in costs])
    # Each edge carrying flow, by the node it was entered from.
    tail: dict[int, int] = {}
    potential: list[float] | None = None
    for _ in range(2):
        dist, came = _dijkstra(adjacency, costs, tail, potential)
        if came[1] is None:
            return None
        node = 1
        while node != 0:
            step = came[node]
            assert step is not None  # every node of the path was reached
            edge, before = step
            if edge in tail:
                del tail[edge]  # walked back: the flow cancels
            else:
                tail[edge] = before
            node = before
        potential = dist
    return tuple(sorted(tail))


def _dijkstra(
    adjacency: Sequence[Sequence[tuple[int, int]]],
    costs: Sequence[float | None],
    tail: dict[int, int],
    potential: Sequence[float] | None,
) -> tuple[list[float], list[tuple[int, int] | None]]:
    """Shortest distances from node 0 in the residual graph of the flow
    ``tail`` (reduced by ``potential``: then no cost is negative), and the
    step (edge, previous node) that reaches each node (``None``: unreached)."""
    inf = float("inf")
    dist = [inf] * len(adjacency)
    came: list[tuple[int, int] | None] = [None] * len(adjacency)
    dist[0] = 0.0
    heap = [(0.0, 0)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for edge, v in adjacency[u]:
            cost = costs[edge]
            assert cost is not None  # unusable edges are not in the adjacency
            entered = tail.get(edge)
            if entered == u:
                continue  # the edge's one unit already flows this way
            step = cost if entered is None else -cost
            if potential is not None:
                step += potential[u] - potential[v]
            total = d + step if step > 0.0 else d  # reduced costs are >= 0 (rounding aside)
            if total < dist[v]:
                dist[v] = total
                came[v] = (edge, u)
                heapq.heappush(heap, (total, v))
    return dist, came


def bonus(board: Board, count: int) -> int:
    """The bonus for ``count`` qualifying tickets on ``board``: 0 for none,
    else the map's ``[variants.mandala] bonus`` entry for that count, the
    last entry for more (:data:`BONUS` when the map gives no table)."""
    if count <= 0:
        return 0
    table = _table(board)
    return table[min(count, len(table)) - 1]


def _table(board: Board) -> tuple[int, ...]:
    """The map's bonus table, or :data:`BONUS` (a map that failed the checks never loads)."""
    value = board.variant_data.get(NAME, {}).get("bonus", BONUS)
    return tuple(value) if value else BONUS


def ticket_name(board: Board, ticket: int) -> str:
    """A ticket in words, as the score sheets' details write it: ``"Delhi–Bombay"``
    (a ticket with several destinations: ``"Lugano–France 13/Italia 2"``)."""
    found = board.tickets[ticket]
    return f"{found.a}–{found.b}" if not found.more else found.text("–")


def qualifying(state: GameState, seat: int) -> tuple[int, ...]:
    """The ids of ``seat``'s tickets (those it kept, in the order held) whose
    ends its own routes join by two paths that share no route.

    Ends are the core's (``ttr_core.ticket_ends``: a region is any of its
    locations; a ticket with several destinations qualifies when one of them
    does). Only the seat's own routes count: a route another variant lends
    for tickets (a station's) does not. ``ArgumentError`` if ``seat`` is not
    a seat of ``state``.
    """
    if type(seat) is not int or not 0 <= seat < state.num_players:
        raise ArgumentError(f"seat must be a seat from 0 to {state.num_players - 1}, not {seat!r}")
    board = state.board
    player = state.players[seat]
    ends = ticket_ends(state)
    ids = _route_ends(board)
    edges = [ids[route] for route in player.routes]
    return tuple(
        ticket
        for ticket in player.tickets
        if any(
            two_disjoint_paths(edges, ends[ticket].start, goal.places)
            for goal in ends[ticket].goals
        )
    )


@functools.lru_cache(maxsize=16)
def _route_ends(board: Board) -> tuple[tuple[int, int], ...]:
    """Each route's ends as location ids (boards hash by identity)."""
    loc = board.location_id
    return tuple((loc(route.a), loc(route.b)) for route in board.routes)


@hookimpl
def ttr_validate_map(board: Board) -> Iterable[str]:
    table = board.variant_data.get(NAME)
    if table is None:
        return
    for key in table:
        if key != "bonus":
            yield f"[variants.{NAME}]: unknown key {key!r} (expected: bonus)"
    if "bonus" not in table:
        return
    value = table["bonus"]
    expected = (
        f"a list of 1 to {ENTRIES} whole numbers from 0 to {MOST}, the points for "
        "1, 2, 3, ... qualifying tickets (the last for that many or more)"
    )
    if not isinstance(value, list | tuple) or not 1 <= len(value) <= ENTRIES:
        # The loader keeps a TOML array as a tuple: show it as the file writes it.
        shown = list(value) if isinstance(value, tuple) else value
        yield f"[variants.{NAME}]: bonus must be {expected}, not {shown!r}"
        return
    for place, points in enumerate(value):
        if type(points) is not int or not 0 <= points <= MOST:
            yield (
                f"[variants.{NAME}]: bonus[{place}] must be a whole number from 0 to {MOST}, "
                f"not {points!r} (bonus is {expected})"
            )


@hookimpl
def ttr_score_lines(state: GameState) -> Sequence[Sequence[ScoreLine]]:
    board = state.board
    title = state.rules.title(NAME, "Grand Tour")
    sheets = []
    for seat in range(state.num_players):
        tickets = qualifying(state, seat)
        count = len(tickets)
        label = f"{title}: {count} ticket{'' if count == 1 else 's'} with two separate paths"
        names = tuple(ticket_name(board, ticket) for ticket in tickets)
        # Tickets are secret: only the seat sees its line during play.
        sheets.append([ScoreLine(NAME, label, bonus(board, count), detail=names, shown="owner")])
    return sheets


@hookimpl
def ttr_agent_route_costs(view: PlayerView) -> list[float]:
    """Advice for bots (docs/bots.md): for each completed ticket of the seat
    that does not qualify yet, the cheapest second path (the seat's routes
    free, open routes their length, routes of others unusable:
    :func:`cheapest_two_paths`); each open route of it gains a share of what
    the next qualifying ticket adds to the bonus, times :data:`ADVICE_SCALE`.
    Reads only the view: the seat's own tickets, whose routes are whose, the
    cars it has left, the game's ticket ends and double-route rule (both
    asked of the view: ``ttr_core.ticket_ends(view)``, ``ttr_core.view_rules``)."""
    seat = view.seats[view.viewer]
    board = view.board
    return list(
        _advice(
            board,
            view.viewer,
            view.tickets,
            tuple(other.routes for other in view.seats),
            tuple(other.routes for other in view.others),
            seat.cars,
            view_rules(view).both_pair_routes_usable,
            ticket_ends(view),
        )
    )


@functools.lru_cache(maxsize=64)
def _advice(
    board: Board,
    me: int,
    tickets: tuple[int, ...],
    held: tuple[tuple[int, ...], ...],
    others: tuple[tuple[int, ...], ...],
    cars: int,
    both: bool,
    ends: tuple[TicketEnds, ...],
) -> tuple[float, ...]:
    """:func:`ttr_agent_route_costs` from the facts it reads (cached: a bot
    asks at every decision, and most decisions change none of them)."""
    routes = board.routes
    advice = [0.0] * len(routes)
    if not tickets:
        return tuple(advice)
    owner = [-1] * len(routes)
    for seat, owned in enumerate(held):
        for rid in owned:
            owner[rid] = seat
    for owned in others:
        for rid in owned:
            owner[rid] = -2
    costs: list[float | None] = []
    for route in routes:
        if owner[route.id] == me:
            costs.append(0.0)
            continue
        open_ = owner[route.id] == -1 and route.length <= cars
        if open_ and route.partner is not None:
            # A seat never owns both halves; with few players a taken half closes the other.
            taken = owner[route.partner]
            open_ = taken != me and (taken == -1 or both)
        costs.append(float(route.length) if open_ else None)
    edges = _route_ends(board)
    mine = [edges[r] for r in held[me]]
    root = connected_components(len(board.locations), mine)
    done = 0
    plans: list[tuple[int, ...]] = []
    for ticket in tickets:
        start, goals = ends[ticket].start, [goal.places for goal in ends[ticket].goals]
        joined = {root[place] for place in start}
        if not any(root[place] in joined for places in goals for place in places):
            continue  # not completed: the bots' own plans see to that
        if any(two_disjoint_paths(mine, start, places) for places in goals):
            done += 1  # qualifies already (a quick test over the seat's routes only)
            continue
        best: tuple[float, tuple[int, ...]] | None = None
        for places in goals:
            found = cheapest_two_paths(edges, costs, start, places)
            if found is None:
                continue
            new = tuple(edge for edge in found if owner[edge] != me)
            length = sum(routes[edge].length for edge in new)
            if best is None or length < best[0]:
                best = (length, new)
        if best is not None and best[0] <= cars:
            plans.append(best[1])
    if plans:
        gain = (bonus(board, done + 1) - bonus(board, done)) * ADVICE_SCALE
        for new in plans:
            for rid in new:
                advice[rid] -= gain / len(new)
    return tuple(advice)

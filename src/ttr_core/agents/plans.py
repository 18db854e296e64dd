"""Plans: the cheapest paths that complete a seat's tickets over the routes it
may still claim (Dijkstra over route costs), and the cards they need.
"""

from __future__ import annotations

import heapq
import operator
from collections.abc import Collection, Iterable, Mapping, Sequence

import attrs

from ttr_core.agents.base import _INF
from ttr_core.agents.seen import BoardGraph, Seen


@attrs.frozen
class Plan:
    """Routes to claim for a set of tickets.

    ``routes`` are the routes still to claim (each paired route stands for
    either of its pair), ``spaces`` their total length, ``paths`` the routes
    still to claim for each ticket pursued, ``dropped`` the tickets given up
    (no path left, or over the budget of cars).
    """

    routes: tuple[int, ...]
    spaces: int
    paths: Mapping[int, tuple[int, ...]]
    dropped: tuple[int, ...]

    def has(self, g: BoardGraph, route: int) -> bool:
        """Whether the plan claims ``route`` or the other route of its pair."""
        return route in self.routes or g.partner[route] in self.routes


def shortest_path(
    seen: Seen, starts: Iterable[int], goals: Collection[int], cost: Sequence[float]
) -> list[int] | None:
    """The routes of the cheapest path from any location of ``starts`` to any of
    ``goals`` (``cost`` per route; ``inf`` cuts it), or ``None`` when none is
    left. A ticket's end may be several places (a region)."""
    g = seen.g
    adjacency = g.adjacency
    best = [_INF] * len(adjacency)
    via = [-1] * len(adjacency)
    heap = []
    for start in starts:
        best[start] = 0.0
        heap.append((0.0, start))
    heapq.heapify(heap)
    pop, push, inf = heapq.heappop, heapq.heappush, _INF
    reached = -1
    while heap:
        dist, node = pop(heap)
        if dist > best[node]:
            continue
        if node in goals:
            reached = node
            break
        for route, other in adjacency[node]:
            step = cost[route]
            if step == inf:
                continue
            total = dist + step
            if total < best[other]:
                best[other] = total
                via[other] = route
                push(heap, (total, other))
    if reached < 0:
        return None
    path = []
    node = reached
    while via[node] >= 0:
        route = via[node]
        path.append(route)
        x, y = g.ends[route]
        node = x if y == node else y
    return path


def ticket_path(seen: Seen, ticket: int, cost: Sequence[float]) -> list[int] | None:
    """The path a plan takes for ``ticket``: to its destination worth most for
    the cost of reaching it (the first of equal worth), or ``None`` when no
    destination can be reached."""
    ends = seen.ends[ticket]
    if len(ends.goals) == 1:
        return shortest_path(seen, ends.start, frozenset(ends.goals[0].places), cost)
    best: tuple[float, list[int]] | None = None
    for goal in ends.goals:
        path = shortest_path(seen, ends.start, frozenset(goal.places), cost)
        if path is None:
            continue
        worth = goal.points - sum(cost[r] for r in path)
        if best is None or worth > best[0]:
            best = (worth, path)
    return None if best is None else best[1]


def make_plan(seen: Seen, tickets: Sequence[int], cost: Sequence[float], budget: int) -> Plan:
    """Greedy paths for ``tickets``, the most valuable first: each ticket's cheapest
    path, given the routes owned and those planned already (which cost nothing);
    a ticket whose path would take the plan over ``budget`` spaces is dropped."""
    return _make_plan(seen, tickets, cost, budget)[0]


def _make_plan(
    seen: Seen, tickets: Sequence[int], cost: Sequence[float], budget: int
) -> tuple[Plan, set[int]]:
    """:func:`make_plan`, and the routes of every path it found (dropped or not)."""
    g = seen.g
    found: set[int] = set()
    costs = list(cost)
    mine = seen.joined | seen.lent
    planned: list[int] = []
    spaces = 0
    paths: dict[int, tuple[int, ...]] = {}
    dropped: list[int] = []
    for ticket in sorted(tickets, key=lambda t: (-seen.ticket_points[t], t)):
        path = ticket_path(seen, ticket, costs)
        if path is None:
            dropped.append(ticket)
            continue
        found.update(path)
        new = [r for r in path if r not in mine and r not in planned]
        extra = sum(g.length[r] for r in new)
        if spaces + extra > budget:
            dropped.append(ticket)
            continue
        for route in new:
            costs[route] = 0.0
            planned.append(route)
        spaces += extra
        paths[ticket] = tuple(r for r in path if r not in mine)
    return Plan(tuple(planned), spaces, paths, tuple(dropped)), found


def _route_costs(
    length: Sequence[int], extra: Sequence[float], penalty: Mapping[int, float], style: str
) -> list[float]:
    """A built-in ``route_cost`` (``style``: whose) of every route, with the very
    arithmetic of that method."""
    costs: list[float] = []
    add = costs.append
    known = penalty.get
    long_routes = style == "long"
    for r, spaces in enumerate(length):
        cost = max(spaces + extra[r] + known(r, 0.0), 0.1)
        if long_routes:
            cost = max(cost - spaces + spaces * (1.3 - 0.1 * spaces), 0.1)
        add(cost)
    return costs


def _costs_only_rose(before: list[float], after: list[float], paths: set[int]) -> bool:
    """Whether no route costs less ``after`` than ``before`` and those of ``paths``
    cost the same."""
    if before == after:
        return True
    if len(before) != len(after) or any(map(operator.lt, after, before)):
        return False
    return all(after[r] == before[r] for r in paths)


def card_needs(seen: Seen, routes: Sequence[int]) -> list[int]:
    """Cards of each colour still missing to claim ``routes`` with the hand held
    (wilds fill gaps; a gray route counts on the colour held most)."""
    g = seen.g
    counts = list(seen.hand[: g.wild])
    wilds = seen.hand[g.wild]
    need = [0] * g.wild
    order = sorted(routes, key=lambda r: (g.color[r] < 0, -g.length[r], r))
    for route in order:
        color = g.color[route]
        if color < 0:
            color = max(range(g.wild), key=lambda c: (counts[c], -need[c], -c))
        missing = g.length[route]
        take = min(counts[color], missing)
        counts[color] -= take
        missing -= take
        take = min(wilds, missing)
        wilds -= take
        need[color] += missing - take
    return need

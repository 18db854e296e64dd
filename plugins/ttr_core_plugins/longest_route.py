"""The longest continuous path bonus (Ticket to Ride, the base USA game).

At the end of the game each player's *longest continuous path* is measured:
the greatest total length (in spaces) of a trail of their own routes — a
walk along their routes that uses each route at most once while cities may
be visited again, so a loop can be walked round and then left, and a network
shaped like a Y counts its two longest arms only (:func:`longest_path`). The
player or players with the longest path score :data:`BONUS` points each: a
tie gives every tied player the bonus, as the rulebook says. Every seat's
score sheet gets a line "Longest path: n", with " (holder)" for the holders
(also in a provisional count, ``score_sheets``, during play); a map may title
the line its own way (``[rules.titles] longest_route = "European Express"``).

Engine decision: a player with no route has a path of length 0, and a
length of 0 never holds the bonus — if no player has claimed a route,
nobody scores it.

The holders also settle a tie for the win: when several players share the
highest total *and* the most completed tickets (the core's rule), the holders
of the longest path among them win (hook ``ttr_tie_break``, the rulebook's
second tie-break). If none of them holds it, the tie is left as it is.

Option (``new_game(..., options={"longest_route": {...}})``): ``bonus``, the
points the longest path scores.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from ttr_core import (
    GameRules,
    GameState,
    NativeRule,
    ScoreLine,
    ScoreSheet,
    VariantOption,
    connected_components,
    hookimpl,
)

#: The variant name this plugin is registered under.
NAME = "longest_route"
#: Points for the longest continuous path, by default.
BONUS = 10


def longest_path(edges: Iterable[tuple[Hashable, Hashable, int]]) -> int:
    """The greatest total length of a trail over ``edges``.

    ``edges`` are ``(a, b, length)`` triples, one per route; the ends may be
    any hashable values (location ids or names). A trail uses each edge at
    most once but may visit a vertex any number of times; two edges joining
    the same two vertices are two different edges. Returns 0 for no edges.

    The search is exact: for each connected component it walks every trail
    from every vertex of odd degree, depth first over the edges not yet
    used, remembering the best continuation from each (vertex, edges used)
    pair. A component with at most two vertices of odd degree is walked whole
    in one trail (Euler), so its total is the answer without a search.
    """
    ends: list[tuple[int, int]] = []
    lengths: list[int] = []
    index: dict[Hashable, int] = {}
    for a, b, length in edges:
        ia = index.setdefault(a, len(index))
        ib = index.setdefault(b, len(index))
        ends.append((ia, ib))
        lengths.append(length)
    if not ends:
        return 0
    # adjacency: vertex -> [(edge bit, other end, length)]
    adjacency: list[list[tuple[int, int, int]]] = [[] for _ in index]
    for edge, ((a, b), length) in enumerate(zip(ends, lengths, strict=True)):
        adjacency[a].append((1 << edge, b, length))
        if b != a:
            adjacency[b].append((1 << edge, a, length))
    best = 0
    for component in _components(len(index), ends):
        best = max(best, _longest_in_component(component, ends, lengths, adjacency))
    return best


def _components(vertices: int, ends: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The edge numbers of each connected component (components with edges only)."""
    root = connected_components(vertices, ends)
    groups: dict[int, list[int]] = {}
    for edge, (a, _) in enumerate(ends):
        groups.setdefault(root[a], []).append(edge)
    return list(groups.values())


def _longest_in_component(
    component: Sequence[int],
    ends: Sequence[tuple[int, int]],
    lengths: Sequence[int],
    adjacency: Sequence[Sequence[tuple[int, int, int]]],
) -> int:
    total = sum(lengths[edge] for edge in component)
    degree: dict[int, int] = {}
    for edge in component:
        for end in ends[edge]:
            degree[end] = degree.get(end, 0) + 1
    odd = [vertex for vertex, d in degree.items() if d % 2]
    if len(odd) <= 2:
        return total  # an Euler trail walks every edge of the component
    memo: dict[tuple[int, int], int] = {}

    def extend(vertex: int, used: int) -> int:
        """The longest continuation of a trail at ``vertex`` having used ``used``."""
        key = (vertex, used)
        known = memo.get(key)
        if known is not None:
            return known
        result = 0
        for bit, other, length in adjacency[vertex]:
            if not used & bit:
                result = max(result, length + extend(other, used | bit))
        memo[key] = result
        return result

    # With more than two odd vertices a longest trail starts at one of them.
    # An open trail uses an odd number of edge ends at its start, so at a
    # start of even degree an edge is left unused: putting it in front would
    # lengthen the trail. A closed trail that cannot be lengthened covers the
    # component (rotated to start where an unused edge touches it, it could
    # be lengthened), so it is an Euler circuit: no vertex is odd.
    best = 0
    for vertex in odd:
        best = max(best, extend(vertex, 0))
        if best == total:
            break
    return best


def path_lengths(state: GameState) -> tuple[int, ...]:
    """Each seat's longest continuous path over its own routes."""
    routes = state.board.routes
    return tuple(
        longest_path((routes[r].a, routes[r].b, routes[r].length) for r in player.routes)
        for player in state.players
    )


def holders(lengths: Sequence[int]) -> frozenset[int]:
    """The seats holding the longest path: the greatest length, if above 0."""
    best = max(lengths, default=0)
    if best <= 0:
        return frozenset()
    return frozenset(seat for seat, length in enumerate(lengths) if length == best)


@hookimpl
def ttr_options() -> Sequence[VariantOption]:
    return [
        VariantOption(
            "bonus", int, BONUS, "points for the longest continuous path (ties all score)", low=0
        )
    ]


@hookimpl
def ttr_score_lines(state: GameState) -> Sequence[Sequence[ScoreLine]]:
    bonus = state.rules.option(NAME, "bonus")
    lengths = path_lengths(state)
    holding = holders(lengths)
    # The map may name the bonus its own way (``[rules.titles]``: "European Express").
    title = state.rules.title(NAME, "Longest path")
    sheets = []
    for seat, length in enumerate(lengths):
        held = seat in holding
        label = f"{title}: {length}" + (" (holder)" if held else "")
        sheets.append([ScoreLine(NAME, label, bonus if held else 0)])
    return sheets


@hookimpl
def ttr_tie_break(
    state: GameState, sheets: Sequence[ScoreSheet], tied: Sequence[int]
) -> Sequence[int] | None:
    holding = holders(path_lengths(state))
    winners = [seat for seat in tied if seat in holding]
    return winners or None


@hookimpl
def ttr_native_rules(rules: GameRules) -> list[NativeRule]:
    """All this variant does, in the compiled engine's terms: the bonus and the tie-break."""
    return [NativeRule("longest_trail", rules.option(NAME, "bonus"), tie_break=True)]

"""Connectivity over numbered places: the union-find the ticket check, the
longest path, the map loader's reachability warnings and the variants use.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from ttr_core.errors import ArgumentError, show


def connected_pairs(board_locations: int, edges: Iterable[tuple[int, int]]) -> list[int]:
    """Union-find over ``edges``: the component root of every location."""
    parent = list(range(board_locations))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    return [find(x) for x in range(board_locations)]


#: The most vertices and edges :func:`connected_components` takes (a map has at
#: most 1,000 locations and 10,000 routes).
MAX_VERTICES = 100_000


MAX_EDGES = 1_000_000


def connected_components(count: int, edges: Iterable[tuple[int, int]]) -> list[int]:
    """The component of each of ``count`` vertices (``0..count-1``) joined by
    ``edges`` (pairs of vertices): a representative vertex per component, the
    same for two vertices exactly when a path of edges joins them. The core's
    one union-find, for plugins (a station's lent route, a longest path's
    networks). ``ArgumentError`` for a count that is not an int from 0 to
    :data:`MAX_VERTICES` or an edge that is not a pair of such vertices."""
    if type(count) is not int or not 0 <= count <= MAX_VERTICES:
        raise ArgumentError(
            f"count must be an int from 0 to {MAX_VERTICES}, not {type(count).__name__} "
            f"{show(count)}"
        )
    try:
        # A bounded read: an endless iterable is refused, not followed.
        pairs = [(a, b) for a, b in itertools.islice(edges, MAX_EDGES + 1)]
    except Exception:  # not iterable, items that are no pairs, a hostile iterable
        raise ArgumentError(
            f"edges must be an iterable of pairs of vertices, not {type(edges).__name__}"
        ) from None
    if len(pairs) > MAX_EDGES:
        raise ArgumentError(f"edges holds at most {MAX_EDGES} pairs")
    for a, b in pairs:
        if not (type(a) is int and type(b) is int and 0 <= a < count and 0 <= b < count):
            raise ArgumentError(
                f"an edge joins two vertices from 0 to {count - 1}, not {show((a, b))}"
            )
    return connected_pairs(count, pairs)

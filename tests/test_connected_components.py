"""``ttr_core.connected_components``: the core's union-find, public for plugins."""

from __future__ import annotations

import random

import pytest

import ttr_core


def test_vertices_share_a_representative_exactly_when_a_path_joins_them() -> None:
    root = ttr_core.connected_components(6, [(0, 1), (1, 2), (4, 5)])
    assert root[0] == root[1] == root[2]
    assert root[4] == root[5]
    assert len({root[0], root[3], root[4]}) == 3
    assert ttr_core.connected_components(0, []) == []


def test_it_agrees_with_a_search_on_random_graphs() -> None:
    rng = random.Random(3)
    for _ in range(50):
        count = rng.randrange(1, 30)
        edges = [(rng.randrange(count), rng.randrange(count)) for _ in range(rng.randrange(40))]
        root = ttr_core.connected_components(count, edges)
        for start in range(count):
            seen, todo = {start}, [start]
            while todo:
                here = todo.pop()
                for a, b in edges:
                    for x, y in ((a, b), (b, a)):
                        if x == here and y not in seen:
                            seen.add(y)
                            todo.append(y)
            assert {v for v in range(count) if root[v] == root[start]} == seen


@pytest.mark.parametrize(
    ("count", "edges"),
    [(-1, []), (True, []), (3, [(0, 3)]), (3, [(0,)]), (3, 5), (3, [(0, 1.0)])],
)
def test_bad_arguments_are_argument_errors(count: object, edges: object) -> None:
    with pytest.raises(ttr_core.ArgumentError):
        ttr_core.connected_components(count, edges)  # type: ignore[arg-type]

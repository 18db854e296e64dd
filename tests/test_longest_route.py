"""The longest continuous path bonus (variant ``longest_route``, the base USA game).

``longest_path`` is pinned on hand-built networks and checked against an
independent brute force (a set of routes can be walked as one trail exactly
when it is connected and has at most two cities of odd degree); the hooks are
checked on USA game states built with ``ttr_core.effects.claim_route``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from importlib.metadata import entry_points

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ttr_core_plugins import longest_route
from ttr_core_plugins.longest_route import BONUS, holders, longest_path, path_lengths

import ttr_core
from ttr_core import GameState, effects

from .helpers import route_id, started

Edge = tuple[Hashable, Hashable, int]


# ---------------------------------------------------------------------------
# longest_path on hand-built networks
# ---------------------------------------------------------------------------


def test_no_route_has_length_zero() -> None:
    assert longest_path([]) == 0
    assert longest_path(iter(())) == 0


def test_a_single_route() -> None:
    assert longest_path([("A", "B", 4)]) == 4


def test_a_chain_counts_whole_in_any_order() -> None:
    assert longest_path([("A", "B", 2), ("B", "C", 3), ("C", "D", 4), ("D", "E", 1)]) == 10
    assert longest_path([("C", "D", 4), ("A", "B", 2), ("D", "E", 1), ("B", "C", 3)]) == 10
    assert longest_path([("E", "D", 1), ("D", "C", 4), ("B", "C", 3), ("B", "A", 2)]) == 10


def test_a_branch_counts_only_the_two_longest_arms() -> None:
    # Y shape: arms of 5, 3 and 1 from X; a path runs along two of them
    assert longest_path([("X", "A", 5), ("X", "B", 3), ("X", "C", 1)]) == 8
    # an arm of two routes counts as one arm of their total (3 + 3)
    assert longest_path([("X", "A", 5), ("X", "B", 3), ("B", "B2", 3), ("X", "C", 4)]) == 11
    # a star of four arms: the two longest
    assert longest_path([("X", "A", 1), ("X", "B", 2), ("X", "C", 3), ("X", "D", 4)]) == 7


def test_a_loop_is_walked_round_and_then_continued() -> None:
    triangle = [("A", "B", 1), ("B", "C", 2), ("C", "A", 3)]
    assert longest_path(triangle) == 6
    assert longest_path([*triangle, ("C", "D", 4)]) == 10
    assert longest_path([*triangle, ("C", "D", 4), ("D", "E", 5)]) == 15
    # tails at two corners: in along one, the long way round, out along the
    # other (X–A–C–B–Y); the short side A–B (1) is left out
    assert longest_path([*triangle, ("A", "X", 5), ("B", "Y", 6)]) == 16


def test_a_loop_with_a_tail_at_each_corner_uses_two_tails() -> None:
    # triangle of 2s with tails X–A (5), Y–B (6), Z–C (7): the best path is
    # Y–B–A–C–Z (6 + 2 + 2 + 7); going round the loop costs a tail
    edges = [("A", "B", 2), ("B", "C", 2), ("C", "A", 2)]
    edges += [("X", "A", 5), ("Y", "B", 6), ("Z", "C", 7)]
    assert longest_path(edges) == 17


def test_the_best_path_may_leave_a_loop_out() -> None:
    # X–A (5), A–B (4), B–Y (6), and a detour A–C (1), C–B (2): X–A–B–Y = 15
    # beats X–A–C–B–Y = 14 and every walk round the loop (at most 13)
    edges = [("X", "A", 5), ("A", "B", 4), ("B", "Y", 6), ("A", "C", 1), ("C", "B", 2)]
    assert longest_path(edges) == 15


def test_two_loops_sharing_a_city_are_walked_whole() -> None:
    # a figure eight through V: both loops in one path
    eight = [("V", "A", 1), ("A", "B", 2), ("B", "V", 3)]
    eight += [("V", "C", 4), ("C", "D", 5), ("D", "V", 6)]
    assert longest_path(eight) == 21
    assert longest_path([*eight, ("V", "T", 2)]) == 23
    # two tails at V: in along one, both loops, out along the other
    assert longest_path([*eight, ("V", "T", 2), ("V", "U", 3)]) == 26
    # three tails at V: only two of them count (the shortest, W, is left out)
    assert longest_path([*eight, ("V", "T", 2), ("V", "U", 3), ("V", "W", 1)]) == 26


def test_two_loops_joined_by_a_route_are_walked_whole() -> None:
    left = [("A", "B", 2), ("B", "C", 2), ("C", "A", 2)]
    right = [("D", "E", 3), ("E", "F", 3), ("F", "D", 3)]
    assert longest_path([*left, *right, ("C", "D", 4)]) == 6 + 9 + 4


def test_two_routes_between_the_same_cities_are_two_routes() -> None:
    # longest_path knows nothing of double pairs: parallel routes are walked
    # out and back
    assert longest_path([("A", "B", 2), ("A", "B", 2)]) == 4
    assert longest_path([("A", "B", 2), ("B", "A", 2), ("B", "C", 3)]) == 7
    assert longest_path([("A", "B", 1), ("A", "B", 1), ("A", "B", 1), ("B", "C", 5)]) == 8
    # tails on both sides: out and back along the pair, then one tail only
    # (C–B–A–B = 3 + 2 + 2; Z–A–B–C is 6)
    assert longest_path([("Z", "A", 1), ("A", "B", 2), ("A", "B", 2), ("B", "C", 3)]) == 7


def test_separate_networks_do_not_add_up() -> None:
    assert longest_path([("A", "B", 5), ("C", "D", 3), ("D", "E", 4)]) == 7
    assert longest_path([("A", "B", 5), ("B", "C", 5), ("C", "D", 3), ("D", "E", 4)]) == 17
    assert longest_path([(1, 2, 6), (3, 4, 6)]) == 6
    # the best network is not the one with the most routes
    assert longest_path([(1, 2, 1), (2, 3, 1), (3, 4, 1), (5, 6, 6)]) == 6


def test_integer_ends_work_like_names() -> None:
    # D–C–B–A–C: round the loop from the tail D (4 + 2 + 1 + 3)
    named = [("A", "B", 1), ("B", "C", 2), ("C", "A", 3), ("C", "D", 4), ("A", "E", 2)]
    numbered = [(0, 1, 1), (1, 2, 2), (2, 0, 3), (2, 3, 4), (0, 4, 2)]
    assert longest_path(named) == longest_path(numbered) == 10


def brute_force(edges: Sequence[Edge]) -> int:
    """The longest trail by trying every subset of the routes: a subset can be
    walked as one trail exactly when it is connected and at most two of its
    cities have odd degree (Euler)."""
    best = 0
    for mask in range(1, 1 << len(edges)):
        chosen = [edge for i, edge in enumerate(edges) if mask >> i & 1]
        degree: dict[Hashable, int] = {}
        parent: dict[Hashable, Hashable] = {}

        def find(x: Hashable, parent: dict[Hashable, Hashable] = parent) -> Hashable:
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x

        for a, b, _ in chosen:
            degree[a] = degree.get(a, 0) + 1
            degree[b] = degree.get(b, 0) + 1
            parent[find(a)] = find(b)
        connected = len({find(v) for v in degree}) == 1
        if connected and sum(d % 2 for d in degree.values()) <= 2:
            best = max(best, sum(length for _, _, length in chosen))
    return best


def every_trail(edges: Sequence[Edge]) -> int:
    """The longest trail by walking every trail from every city (no memo, no shortcut)."""
    adjacency: dict[Hashable, list[tuple[int, Hashable, int]]] = {}
    for i, (a, b, length) in enumerate(edges):
        adjacency.setdefault(a, []).append((i, b, length))
        adjacency.setdefault(b, []).append((i, a, length))
    best = 0

    def walk(city: Hashable, used: set[int], total: int) -> None:
        nonlocal best
        best = max(best, total)
        for i, other, length in adjacency[city]:
            if i not in used:
                used.add(i)
                walk(other, used, total + length)
                used.discard(i)

    for city in adjacency:
        walk(city, set(), 0)
    return best


edge_lists = st.lists(
    st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(1, 6)).filter(
        lambda e: e[0] != e[1]
    ),
    max_size=9,
)


@settings(max_examples=150)
@given(edge_lists, st.permutations(range(9)))
def test_longest_path_equals_the_brute_force(edges: list[Edge], order: list[int]) -> None:
    expected = brute_force(edges)
    assert every_trail(edges) == expected
    assert longest_path(edges) == expected
    # the order of the routes, their direction and the names of the cities do not matter
    shuffled = [edges[i] for i in order if i < len(edges)]
    assert longest_path([(f"c{b}", f"c{a}", n) for a, b, n in shuffled]) == expected


def test_holders_are_the_longest_if_above_zero() -> None:
    assert holders([9, 6, 0]) == {0}
    assert holders([6, 9, 9]) == {1, 2}
    assert holders([0, 0, 0]) == frozenset()
    assert holders([]) == frozenset()


# ---------------------------------------------------------------------------
# The hooks, on USA game states
# ---------------------------------------------------------------------------


def usa(players: int = 3, **options: int) -> GameState:
    opts = {"longest_route": dict(options)} if options else None
    return started(ttr_core.new_game("usa", players, seed=5, options=opts))


def owning(state: GameState, seat: int, *routes: tuple[str, str]) -> GameState:
    """``seat`` claims the routes between these cities (paying no cards)."""
    for a, b in routes:
        state = effects.claim_route(state, route_id(state, a, b), seat)
    return state


def finished(state: GameState, scores: Sequence[int]) -> GameState:
    """The game over, every seat with no ticket and the running score given."""
    players = tuple(
        attrs.evolve(p, tickets=(), score=score)
        for p, score in zip(state.players, scores, strict=True)
    )
    return attrs.evolve(state, players=players, pending=None, termination=ttr_core.Termination.CARS)


WEST = (("Seattle", "Portland"), ("Portland", "San Francisco"), ("San Francisco", "Los Angeles"))
WEST_LENGTH = 1 + 5 + 3
EAST = (("Boston", "New York"), ("New York", "Washington"), ("Washington", "Raleigh"))
EAST_LENGTH = 2 + 2 + 2
SOUTH = (("Dallas", "Houston"), ("Houston", "New Orleans"), ("New Orleans", "Little Rock"))
SOUTH_LENGTH = 1 + 2 + 3
# a loop Denver–Kansas City–Omaha with a tail to Santa Fe
LOOP = (
    ("Denver", "Kansas City"),
    ("Kansas City", "Omaha"),
    ("Omaha", "Denver"),
    ("Denver", "Santa Fe"),
)
LOOP_LENGTH = 4 + 1 + 4 + 2


def lines(state: GameState) -> list[ttr_core.ScoreLine]:
    """Each seat's longest-route line (checking that the sheets add up)."""
    found = []
    for sheet in ttr_core.score_sheets(state):
        (line,) = [line for line in sheet.lines if line.kind == "longest_route"]
        assert sheet.lines[-1] is line  # after the core's lines
        assert sheet.total == sum(x.points for x in sheet.lines)
        found.append(line)
    return found


def test_registered_through_the_entry_point_group_with_its_option() -> None:
    found = {ep.name: ep.value for ep in entry_points(group="ttr_core.plugins")}
    assert found["longest_route"] == "ttr_core_plugins.longest_route"
    assert "longest_route" in ttr_core.available_variants()
    (option,) = ttr_core.variant_options("longest_route")
    assert (option.name, option.type, option.default, option.low) == ("bonus", int, 10, 0)
    assert BONUS == 10


def test_the_single_holder_scores_the_bonus() -> None:
    state = owning(usa(), 0, *WEST)
    state = owning(state, 1, *EAST)
    assert path_lengths(state) == (WEST_LENGTH, EAST_LENGTH, 0) == (9, 6, 0)
    found = lines(state)
    assert [line.points for line in found] == [10, 0, 0]
    assert [line.label for line in found] == [
        "Longest path: 9 (holder)",
        "Longest path: 6",
        "Longest path: 0",
    ]


def test_a_loop_counts_in_the_path() -> None:
    state = owning(usa(), 0, *LOOP)
    state = owning(state, 1, *WEST)
    assert path_lengths(state) == (LOOP_LENGTH, WEST_LENGTH, 0) == (11, 9, 0)
    assert [line.points for line in lines(state)] == [10, 0, 0]
    # a branch Omaha–Chicago (4): Chicago–Omaha–Kansas City–Denver–Omaha walks
    # the loop and drops the tail to Santa Fe (4 + 1 + 4 + 4)
    state = owning(state, 0, ("Omaha", "Chicago"))
    assert path_lengths(state)[0] == 13


def test_a_tie_gives_every_tied_player_the_bonus() -> None:
    state = owning(usa(4), 0, *EAST)
    state = owning(state, 2, *SOUTH)
    state = owning(state, 3, ("Chicago", "Duluth"))
    assert path_lengths(state) == (EAST_LENGTH, 0, SOUTH_LENGTH, 3) == (6, 0, 6, 3)
    found = lines(state)
    assert [line.points for line in found] == [10, 0, 10, 0]
    assert found[0].label == found[2].label == "Longest path: 6 (holder)"


def test_nobody_scores_it_when_nobody_has_a_route() -> None:
    state = usa()
    assert path_lengths(state) == (0, 0, 0)
    found = lines(state)
    assert [line.points for line in found] == [0, 0, 0]
    assert [line.label for line in found] == ["Longest path: 0"] * 3


def test_the_option_sets_the_points() -> None:
    state = owning(usa(bonus=25), 1, *WEST)
    assert [line.points for line in lines(state)] == [0, 25, 0]
    state = owning(usa(bonus=0), 1, *WEST)
    found = lines(state)
    assert [line.points for line in found] == [0, 0, 0]
    assert found[1].label == "Longest path: 9 (holder)"
    with pytest.raises(ttr_core.OptionError):
        usa(bonus=-1)


def test_switched_off_there_is_no_line() -> None:
    state = started(ttr_core.new_game("usa", 2, seed=5, variants=[]))
    state = owning(state, 0, *WEST)
    kinds = {line.kind for sheet in ttr_core.score_sheets(state) for line in sheet.lines}
    assert kinds <= {"routes", "ticket"}


# -- tie-break ---------------------------------------------------------------------


def test_the_tie_break_picks_the_holder_among_the_tied() -> None:
    state = owning(usa(), 0, *WEST)
    state = owning(state, 1, *EAST)
    state = finished(state, (20, 30, 0))
    scores = ttr_core.final_scores(state)
    assert scores.totals == (30, 30, 0)
    assert [s.tickets_completed for s in scores.sheets] == [0, 0, 0]
    assert scores.winners == (0,)


def test_the_tie_break_abstains_when_no_tied_seat_holds_it() -> None:
    state = owning(usa(), 0, *EAST)
    state = owning(state, 1, ("Chicago", "Duluth"))
    state = owning(state, 2, *WEST)  # the holder, far behind
    state = finished(state, (30, 30, 0))
    scores = ttr_core.final_scores(state)
    assert scores.totals == (30, 30, 10)
    assert scores.winners == (0, 1)
    assert longest_route.ttr_tie_break(state, scores.sheets, (0, 1)) is None


def test_tied_holders_stay_tied() -> None:
    state = owning(usa(), 0, *EAST)
    state = owning(state, 1, *SOUTH)
    state = finished(state, (30, 30, 0))
    scores = ttr_core.final_scores(state)
    assert scores.totals == (40, 40, 0)
    assert scores.winners == (0, 1)
    assert list(longest_route.ttr_tie_break(state, scores.sheets, (0, 1)) or ()) == [0, 1]


def test_the_most_completed_tickets_come_before_the_longest_path() -> None:
    state = owning(usa(), 0, *WEST)
    state = owning(state, 1, ("Denver", "Santa Fe"), ("Santa Fe", "El Paso"))
    state = finished(state, (20, 26, 0))
    denver_el_paso = next(t.id for t in state.board.tickets if {t.a, t.b} == {"Denver", "El Paso"})
    seat1 = attrs.evolve(state.players[1], tickets=(denver_el_paso,))
    state = attrs.evolve(state, players=(state.players[0], seat1, state.players[2]))
    scores = ttr_core.final_scores(state)
    assert scores.totals == (30, 30, 0)
    assert [s.tickets_completed for s in scores.sheets] == [0, 1, 0]
    assert scores.winners == (1,)


# -- random games ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_usa_games_give_the_bonus_to_exactly_the_holders(players: int) -> None:
    for seed in range(8):
        result = ttr_core.random_playout("usa", players, seed=seed)
        state = result.state
        assert state.is_over
        assert state.rules.variants == ("longest_route",)
        routes = state.board.routes
        lengths = [
            every_trail([(routes[r].a, routes[r].b, routes[r].length) for r in p.routes])
            for p in state.players
        ]
        best = max(lengths)
        assert best > 0
        for seat, sheet in enumerate(result.scores.sheets):
            assert sheet.total == sum(line.points for line in sheet.lines)
            (line,) = [line for line in sheet.lines if line.kind == "longest_route"]
            holder = lengths[seat] == best
            assert line.points == (BONUS if holder else 0)
            assert line.label == f"Longest path: {lengths[seat]}" + (" (holder)" if holder else "")
        top = max(result.scores.totals)
        assert all(result.scores.totals[w] == top for w in result.scores.winners)

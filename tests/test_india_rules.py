"""Ticket to Ride: India's rules (``rules/india.md``, every line, and the engine
notes IN1–IN2) played in games: 2–4 players with 45 trains, 4 cards and 5 face
up, starting tickets 4 keep 2 and draws of 3 keep 1 (unkept ones under the
deck), the route points, double routes by player count, ferries, no tunnels,
stations or Globetrotter, the Indian Express shared by ties, the end at 2
trains, and the Grand Tour (Mandala) bonus of the ``mandala`` plugin: its test
of two route-disjoint paths against a brute force, its table, its score
line, and its advice to bots.

Map facts (the routes, tickets and rule numbers as data) are locked by
``test_india_map.py``; this file pins how games play them.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ttr_core_plugins import mandala
from ttr_core_plugins.longest_route import path_lengths

import ttr_core
from ttr_core import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    IllegalAction,
    KeepTickets,
    MapError,
    Pass,
    Pending,
    PlayerCountError,
)
from ttr_core.agents import make_agent

from .helpers import claim, cpu_clock, route_id, started, with_hand

MAP = "india"
MAP_FILE = Path(__file__).resolve().parents[1] / "maps" / "india.toml"
CORE_ACTIONS = {ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass}


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    return ttr_core.load_map(MAP)


def game(players: int = 2, seed: int = 0) -> GameState:
    return started(ttr_core.new_game(MAP, players, seed=seed))


def turn_of(state: GameState, seat: int = 0) -> GameState:
    return attrs.evolve(state, pending=Pending("turn", seat))


def ticket_id(board: ttr_core.Board, a: str, b: str) -> int:
    return next(t.id for t in board.tickets if {t.a, t.b} == {a, b})


def routes_between(state: GameState, *stops: str) -> list[int]:
    """The first route between each two stops in turn (a path through them)."""
    return [route_id(state, a, b) for a, b in itertools.pairwise(stops)]


def owning(state: GameState, seat: int, routes: list[int], tickets: list[int]) -> GameState:
    """``seat`` owns exactly ``routes`` (its trains spent on them) and holds
    exactly ``tickets`` (taken out of the ticket deck; its old ones put back)."""
    owners = [(-1 if o == seat else o) for o in state.owners]
    for route in routes:
        assert owners[route] == -1, route
        owners[route] = seat
    old = state.players[seat]
    spent = sum(state.board.routes[r].length for r in routes)
    deck = [t for t in (*state.ticket_deck, *old.tickets) if t not in tickets]
    for other in state.players:
        assert other is old or not set(other.tickets) & set(tickets)
    score = sum(state.board.rules.route_points[state.board.routes[r].length] for r in routes)
    player = attrs.evolve(
        old, routes=tuple(routes), tickets=tuple(tickets), cars=max(0, 45 - spent), score=score
    )
    players = tuple(player if s == seat else p for s, p in enumerate(state.players))
    return attrs.evolve(state, owners=tuple(owners), players=players, ticket_deck=tuple(deck))


def mandala_line(sheet: ttr_core.ScoreSheet) -> ttr_core.ScoreLine:
    (line,) = [line for line in sheet.lines if line.kind == mandala.NAME]
    return line


# --- two route-disjoint paths: the pure test against a brute force --------------------


def simple_paths(
    edges: list[tuple[int, int]], start: set[int], goal: set[int]
) -> list[frozenset[int]]:
    """Every simple path (no node twice) from a start node to a goal node, as its
    set of edge indices (the empty path when a node is both)."""
    found: list[frozenset[int]] = []

    def walk(node: int, seen: set[int], used: list[int]) -> None:
        if node in goal:
            found.append(frozenset(used))
            return
        for index, (a, b) in enumerate(edges):
            for here, there in ((a, b), (b, a)):
                if here == node and there not in seen:
                    walk(there, seen | {there}, [*used, index])
                    break

    for node in start:
        walk(node, {node}, [])
    return found


def brute_two_paths(edges: list[tuple[int, int]], start: set[int], goal: set[int]) -> bool:
    paths = simple_paths(edges, start, goal)
    return any(not p & q for p, q in itertools.combinations_with_replacement(paths, 2))


def brute_cheapest(
    edges: list[tuple[int, int]], costs: list[int | None], start: set[int], goal: set[int]
) -> int | None:
    usable = [(e if costs[i] is not None else (-1, -2)) for i, e in enumerate(edges)]
    paths = simple_paths(usable, start, goal)
    totals = [
        sum(costs[i] or 0 for i in p | q)
        for p, q in itertools.combinations_with_replacement(paths, 2)
        if not p & q
    ]
    return min(totals, default=None)


NODES = 7
networks = st.lists(
    st.tuples(st.integers(0, NODES - 1), st.integers(0, NODES - 1)).filter(lambda e: e[0] != e[1]),
    max_size=10,
)


def ends() -> st.SearchStrategy[tuple[set[int], set[int]]]:
    """A start and a goal: one node each, or region-like sets of nodes (disjoint)."""
    return st.lists(st.integers(0, NODES - 1), min_size=2, max_size=4, unique=True).flatmap(
        lambda nodes: st.integers(1, len(nodes) - 1).map(
            lambda cut: (set(nodes[:cut]), set(nodes[cut:]))
        )
    )


@settings(max_examples=400, deadline=None)
@given(networks, st.integers(0, NODES - 1), st.integers(0, NODES - 1))
def test_in1_two_disjoint_paths_match_a_brute_force(
    edges: list[tuple[int, int]], start: int, goal: int
) -> None:
    expected = brute_two_paths(edges, {start}, {goal})
    assert mandala.two_disjoint_paths(edges, {start}, {goal}) is expected
    # Nodes of any hashable kind, edges in any order.
    named = [(f"c{a}", f"c{b}") for a, b in reversed(edges)]
    assert mandala.two_disjoint_paths(named, {f"c{start}"}, {f"c{goal}"}) is expected


@settings(max_examples=300, deadline=None)
@given(networks, ends())
def test_in1_two_disjoint_paths_between_regions_match_a_brute_force(
    edges: list[tuple[int, int]], places: tuple[set[int], set[int]]
) -> None:
    start, goal = places
    assert mandala.two_disjoint_paths(edges, start, goal) is brute_two_paths(edges, start, goal)


@settings(max_examples=300, deadline=None)
@given(
    networks.flatmap(
        lambda edges: st.tuples(
            st.just(edges),
            st.lists(
                st.one_of(st.none(), st.integers(0, 6)),
                min_size=len(edges),
                max_size=len(edges),
            ),
        )
    ),
    ends(),
)
def test_cheapest_two_paths_match_a_brute_force(
    network: tuple[list[tuple[int, int]], list[int | None]], places: tuple[set[int], set[int]]
) -> None:
    edges, costs = network
    start, goal = places
    found = mandala.cheapest_two_paths(edges, costs, start, goal)
    best = brute_cheapest(edges, costs, start, goal)
    if best is None:
        assert found is None
        return
    assert found is not None and list(found) == sorted(set(found))
    assert all(costs[i] is not None for i in found)
    assert sum(costs[i] or 0 for i in found) == best
    assert mandala.two_disjoint_paths([edges[i] for i in found], start, goal)


def test_two_disjoint_paths_edge_cases() -> None:
    double = [("a", "b"), ("a", "b")]  # the two halves of a double route
    assert mandala.two_disjoint_paths(double, {"a"}, {"b"})
    assert not mandala.two_disjoint_paths(double[:1], {"a"}, {"b"})
    assert not mandala.two_disjoint_paths([], {"a"}, {"b"})
    assert not mandala.two_disjoint_paths(double, set(), {"b"})
    # A figure of eight: the paths meet at "m" but share no edge.
    eight = [("a", "m"), ("m", "a"), ("m", "b"), ("b", "m")]
    assert mandala.two_disjoint_paths(eight, {"a"}, {"b"})
    # A region end: one path from each of its places.
    assert mandala.two_disjoint_paths([("a1", "b"), ("a2", "b")], {"a1", "a2"}, {"b"})
    assert mandala.cheapest_two_paths(double, [0, 3], {"a"}, {"b"}) == (0, 1)
    assert mandala.cheapest_two_paths(double, [0, None], {"a"}, {"b"}) is None
    assert mandala.cheapest_two_paths(double, [0, 0], {"a"}, {"a", "b"}) == ()


# --- the Grand Tour in India games ---------------------------------------------------------


def no_tickets(state: GameState) -> GameState:
    """``state`` with every seat's tickets put back under the deck."""
    held = tuple(t for p in state.players for t in p.tickets)
    players = tuple(attrs.evolve(p, tickets=()) for p in state.players)
    return attrs.evolve(state, players=players, ticket_deck=(*state.ticket_deck, *held))


@pytest.fixture(scope="module")
def base() -> GameState:
    """A 3-player game just started, the seats holding no ticket."""
    return no_tickets(game(3, seed=5))


def test_one_path_does_not_qualify(base: GameState) -> None:
    ticket = ticket_id(base.board, "Lahore", "Delhi")
    state = owning(base, 0, routes_between(base, "Lahore", "Bhatinda", "Delhi"), [ticket])
    assert [o.completed for o in ttr_core.ticket_outcomes(state, 0)] == [True]
    assert mandala.qualifying(state, 0) == ()


def test_a_cycle_through_both_ends_qualifies(base: GameState) -> None:
    ticket = ticket_id(base.board, "Lahore", "Delhi")
    cycle = routes_between(base, "Lahore", "Bhatinda", "Delhi", "Ambala", "Lahore")
    state = owning(base, 0, cycle, [ticket])
    assert mandala.qualifying(state, 0) == (ticket,)
    # Take any route of the cycle away: one path is left.
    for route in cycle:
        fewer = owning(base, 0, [r for r in cycle if r != route], [ticket])
        assert mandala.qualifying(fewer, 0) == ()


def test_in1_two_paths_sharing_a_city_but_no_route_qualify(base: GameState) -> None:
    ticket = ticket_id(base.board, "Lahore", "Delhi")
    # Both paths go through Bhatinda: removing that city parts the ends, no route does.
    one = routes_between(base, "Lahore", "Bhatinda", "Delhi")
    other = routes_between(base, "Lahore", "Jacobabad", "Rohri", "Bhatinda", "Ambala", "Delhi")
    state = owning(base, 0, one + other, [ticket])
    assert mandala.qualifying(state, 0) == (ticket,)


def test_in1_two_paths_sharing_a_route_do_not_qualify(base: GameState) -> None:
    ticket = ticket_id(base.board, "Lahore", "Delhi")
    # Lahore–Bhatinda is on both: Bhatinda–Delhi and Bhatinda–Ambala–Delhi.
    routes = routes_between(base, "Lahore", "Bhatinda", "Delhi", "Ambala", "Bhatinda")
    state = owning(base, 0, routes, [ticket])
    assert [o.completed for o in ttr_core.ticket_outcomes(state, 0)] == [True]
    assert mandala.qualifying(state, 0) == ()


def test_an_incomplete_ticket_does_not_qualify(base: GameState) -> None:
    board = base.board
    ticket = ticket_id(board, "Lahore", "Delhi")
    near = ticket_id(board, "Jaipur", "Raipur")
    # A cycle at Lahore's end, nothing to Delhi; another ticket of the seat qualifies.
    loop = routes_between(base, "Lahore", "Bhatinda", "Rohri", "Jacobabad", "Lahore")
    ring = routes_between(base, "Jaipur", "Agra", "Katni", "Bilaspur", "Raipur", "Khandwa")
    ring += routes_between(base, "Khandwa", "Ratlam", "Jaipur")
    state = owning(base, 1, loop + ring, [ticket, near])
    assert [o.completed for o in ttr_core.ticket_outcomes(state, 1)] == [False, True]
    assert mandala.qualifying(state, 1) == (near,)


def test_only_the_seats_own_routes_count(base: GameState) -> None:
    ticket = ticket_id(base.board, "Lahore", "Delhi")
    state = owning(base, 0, routes_between(base, "Lahore", "Bhatinda", "Delhi"), [ticket])
    state = owning(state, 1, routes_between(base, "Lahore", "Ambala", "Delhi"), [])
    assert mandala.qualifying(state, 0) == ()
    assert mandala.qualifying(state, 1) == ()  # routes but no ticket
    with pytest.raises(ttr_core.ArgumentError):
        mandala.qualifying(state, 3)


@pytest.mark.parametrize(
    ("count", "points"), [(0, 0), (1, 5), (2, 10), (3, 20), (4, 30), (5, 40), (6, 40), (58, 40)]
)
def test_the_bonus_table_and_its_cap(board: ttr_core.Board, count: int, points: int) -> None:
    assert mandala.bonus(board, count) == points


def every_route_once(state: GameState) -> list[int]:
    """One route of each double pair and every single route: the whole map, which
    no single route's removal cuts (every city has two neighbours at least)."""
    return [r.id for r in state.board.routes if r.partner is None or r.id < r.partner]


@pytest.mark.parametrize(("tickets", "points"), [(1, 5), (2, 10), (3, 20), (4, 30), (7, 40)])
def test_the_score_sheet_line(tickets: int, points: int) -> None:
    # Without the longest path: its exact search over 80 routes of one seat would take long.
    base = no_tickets(started(ttr_core.new_game(MAP, 3, seed=5, variants=["ferries", "mandala"])))
    held = [0, 8, 20, 51, 30, 4, 25][:tickets]  # a few long tickets across the map
    state = owning(base, 2, every_route_once(base), held)
    assert mandala.qualifying(state, 2) == tuple(held)
    line = mandala_line(ttr_core.score_sheets(state)[2])
    board = state.board
    assert line.points == points
    count = f"{tickets} ticket{'s' if tickets > 1 else ''}"
    assert line.label == f"Grand Tour of India: {count} with two separate paths"
    assert line.detail == tuple(f"{board.tickets[t].a}–{board.tickets[t].b}" for t in held)
    assert line.shown == "owner"
    assert mandala_line(ttr_core.score_sheets(state)[0]).points == 0


def test_the_line_is_the_seats_own_until_the_end_and_counts_in_the_total(
    base: GameState,
) -> None:
    ticket = ticket_id(base.board, "Lahore", "Delhi")
    cycle = routes_between(base, "Lahore", "Bhatinda", "Delhi", "Ambala", "Lahore")
    state = owning(base, 0, cycle, [ticket])
    own = ttr_core.player_score_sheets(state, 0)
    assert mandala_line(own[0]).points == 5
    assert own[0].total == sum(line.points for line in own[0].lines)
    # Another seat sees the line withheld, and nothing of its points.
    seen = ttr_core.player_score_sheets(state, 1)[0]
    assert not [line for line in seen.lines if line.kind == mandala.NAME]
    (withheld,) = [line for line in seen.lines if line.kind == "withheld"]
    assert mandala.NAME in withheld.detail and "Grand Tour" not in withheld.label
    assert seen.total == sum(line.points for line in seen.lines)
    # Once the game is over every sheet shows it.
    over = attrs.evolve(state, termination=ttr_core.Termination.CARS, pending=None)
    scores = ttr_core.final_scores(over)
    assert mandala_line(scores.sheets[0]).points == 5
    assert ttr_core.player_score_sheets(over, 1) == scores.sheets
    assert scores.sheets[0].total == sum(line.points for line in scores.sheets[0].lines)


# --- the map's table ------------------------------------------------------------------


def india_with(table: str) -> ttr_core.Board:
    text = MAP_FILE.read_text(encoding="utf-8")
    old = "bonus = [5, 10, 20, 30, 40]"
    assert text.count(old) == 1
    return ttr_core.parse_map(text.replace(old, table), source="india.toml")


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ("bonus = 5", "bonus must be a list of 1 to 20 whole numbers from 0 to 1000"),
        ("bonus = []", "not []"),
        (f"bonus = {list(range(21))}", "bonus must be a list of 1 to 20"),
        ("bonus = [5, -1]", "bonus[1] must be a whole number from 0 to 1000, not -1"),
        ("bonus = [5, 1001]", "bonus[1] must be a whole number from 0 to 1000, not 1001"),
        ("bonus = [5.0]", "bonus[0] must be a whole number"),
        ("bonus = [true]", "bonus[0] must be a whole number"),
        ('bonus = ["5"]', "bonus[0] must be a whole number"),
        ("bonus = [5]\npoints = 3", "unknown key 'points' (expected: bonus)"),
    ],
)
def test_a_bad_table_is_refused_saying_what_is_expected(table: str, words: str) -> None:
    with pytest.raises(MapError) as err:
        india_with(table)
    assert "[variants.mandala]" in str(err.value) and words in str(err.value)


def test_the_maps_table_decides_the_bonus(base: GameState) -> None:
    assert mandala.bonus(india_with("bonus = [3]"), 4) == 3
    own = india_with("bonus = [1, 2, 4, 8, 16, 32, 64]")
    assert [mandala.bonus(own, n) for n in range(9)] == [0, 1, 2, 4, 8, 16, 32, 64, 64]
    assert [mandala.bonus(india_with(""), n) for n in range(7)] == [0, 5, 10, 20, 30, 40, 40]


# --- India's rules in play ----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_45_trains_4_cards_5_face_up(players: int) -> None:
    state = ttr_core.new_game(MAP, players, seed=players)
    assert state.rules.variants == ("ferries", "longest_route", "mandala")
    assert all(p.cars == 45 and p.hand.total == 4 for p in state.players)
    assert len(state.display) == 5 and None not in state.display
    with pytest.raises(PlayerCountError):
        ttr_core.new_game(MAP, 5, seed=players)


def test_starting_tickets_four_keep_two_unkept_under_the_deck() -> None:
    state = ttr_core.new_game(MAP, 2, seed=11)
    assert state.pending is not None and state.pending.kind == "start_tickets"
    offered = state.pending.offered
    assert len(offered) == 4 and state.pending.min_keep == 2
    with pytest.raises(IllegalAction):
        ttr_core.apply(state, KeepTickets(0, offered[:1]))
    kept = ttr_core.apply(state, KeepTickets(0, offered[:2]))
    assert set(kept.players[0].tickets) == set(offered[:2])
    assert kept.ticket_deck == (*state.ticket_deck, *offered[2:])  # under the deck
    assert kept.ticket_discard == () and kept.boxed_tickets == ()
    all_kept = ttr_core.apply(state, KeepTickets(0, offered))
    assert all_kept.ticket_deck == state.ticket_deck


def test_a_ticket_draw_of_three_keep_one_unkept_under_the_deck() -> None:
    state = turn_of(game(2, seed=12))
    drawn = ttr_core.apply(state, DrawTickets(0))
    assert drawn.pending is not None
    offered = drawn.pending.offered
    assert len(offered) == 3 and drawn.pending.min_keep == 1
    assert offered == state.ticket_deck[:3]  # from the top
    with pytest.raises(IllegalAction):
        ttr_core.apply(drawn, KeepTickets(0, ()))
    kept = ttr_core.apply(drawn, KeepTickets(0, offered[:1]))
    assert kept.ticket_deck == (*state.ticket_deck[3:], *offered[1:])
    assert set(kept.players[0].tickets) == {*state.players[0].tickets, offered[0]}


@pytest.mark.parametrize(
    ("a", "b", "color", "wilds", "points"),
    [
        ("Agra", "Jaipur", "blue", 0, 1),
        ("Agra", "Delhi", "orange", 0, 2),
        ("Ahmadabad", "Bombay", "white", 0, 4),
        ("Ambala", "Lahore", "black", 0, 7),
        ("Bombay", "Calicut", "red", 2, 15),  # a ferry of 6: 2 locomotives
        ("Calcutta", "Madras", "green", 2, 21),  # the ferry of 8
    ],
)
def test_route_points(a: str, b: str, color: str, wilds: int, points: int) -> None:
    state = game(2, seed=13)
    route = route_id(state, a, b)
    after = claim(state, 0, route, color, wilds=wilds)
    assert after.owners[route] == 0
    assert after.players[0].score - state.players[0].score == points
    assert after.players[0].cars == 45 - state.board.routes[route].length
    assert {r.length for r in state.board.routes} == {1, 2, 3, 4, 6, 8}  # no 5 or 7


def claims_listed(state: GameState, route: int) -> set[ClaimRoute]:
    return {a for a in ttr_core.legal_actions(state) if type(a) is ClaimRoute and a.route == route}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_double_routes_both_halves_only_with_four_players(players: int) -> None:
    state = game(players, seed=14)
    purple = route_id(state, "Bilaspur", "Katni", "purple")
    white = route_id(state, "Bilaspur", "Katni", "white")
    state = claim(state, 0, purple, "purple")
    for seat in range(players):
        ready = turn_of(with_hand(state, seat, white=1, wild=1), seat)
        listed = claims_listed(ready, white)
        # The seat holding one half never takes the other; others only with 4 players.
        assert bool(listed) is (players == 4 and seat != 0)
        if not listed:
            with pytest.raises(IllegalAction):
                ttr_core.apply(ready, ClaimRoute(seat, white, "white", 0))


def test_a_ferry_takes_a_locomotive_per_symbol_and_one_colour_for_the_rest() -> None:
    state = game(2, seed=15)
    ferry = route_id(state, "Calcutta", "Chittagong")  # gray 2, 1 locomotive
    assert state.board.routes[ferry].extra["locomotives"] == 1
    rich = turn_of(with_hand(state, 0, red=2, blue=2, wild=2))
    assert claims_listed(rich, ferry) == {
        ClaimRoute(0, ferry, "red", 1),
        ClaimRoute(0, ferry, "blue", 1),
        ClaimRoute(0, ferry, None, 2),  # locomotives may pay the rest too
    }
    for hand in ({"red": 2}, {"red": 1, "blue": 1}):
        poor = turn_of(with_hand(state, 0, **hand))
        assert claims_listed(poor, ferry) == set()
        with pytest.raises(IllegalAction):
            ttr_core.apply(poor, ClaimRoute(0, ferry, "red", 0))
    ordinary = route_id(state, "Agra", "Delhi")  # orange 2: no locomotive needed
    plain = turn_of(with_hand(state, 0, orange=2))
    assert ClaimRoute(0, ordinary, "orange", 0) in claims_listed(plain, ordinary)


def test_no_tunnels_no_stations_no_globetrotter_only_the_cores_actions() -> None:
    state = ttr_core.new_game(MAP, 3, seed=16)
    assert not {"tunnels", "stations", "globetrotter"} & set(state.rules.variants)
    assert "globetrotter" not in state.board.variant_data
    rng = random.Random(16)
    while not state.is_over:
        legal = ttr_core.legal_actions(state)
        assert {type(action) for action in legal} <= CORE_ACTIONS
        state = ttr_core.apply(state, rng.choice(legal))
    kinds = {line.kind for sheet in ttr_core.final_scores(state).sheets for line in sheet.lines}
    assert "globetrotter" not in kinds and {"longest_route", "mandala"} <= kinds


def test_in2_every_tied_player_scores_the_indian_express(base: GameState) -> None:
    state = owning(base, 0, routes_between(base, "Lahore", "Bhatinda", "Delhi"), [])  # 5
    state = owning(state, 1, routes_between(base, "Madras", "Erode", "Calicut"), [])  # 5
    state = owning(state, 2, routes_between(base, "Agra", "Delhi"), [])  # 2
    assert path_lengths(state) == (5, 5, 2)
    lines = [
        next(line for line in sheet.lines if line.kind == "longest_route")
        for sheet in ttr_core.score_sheets(state)
    ]
    assert [line.points for line in lines] == [10, 10, 0]
    assert [line.label for line in lines] == [
        "Indian Express: 5 (holder)",
        "Indian Express: 5 (holder)",
        "Indian Express: 2",
    ]


@pytest.mark.parametrize(("cars", "length", "ends"), [(4, 2, True), (3, 1, True), (4, 1, False)])
def test_the_last_round_starts_at_two_trains_or_fewer(cars: int, length: int, ends: bool) -> None:
    state = game(3, seed=17)
    route = next(r for r in state.board.routes if r.length == length and r.color != "gray")
    player = attrs.evolve(state.players[0], cars=cars)
    state = attrs.evolve(state, players=(player, *state.players[1:]))
    after = claim(state, 0, route.id, route.color)
    assert after.players[0].cars == cars - length
    assert (after.final_turns >= 0) is ends
    if ends:
        # One more turn for every player, the one who started it included.
        for _ in range(3):
            assert not after.is_over
            seat = after.current_player
            assert seat is not None
            after = ttr_core.apply(after, DrawBlind(seat))
            if after.pending is not None and after.pending.kind == "second_card":
                after = ttr_core.apply(after, DrawBlind(seat))
        assert after.is_over


# --- the bots' advice --------------------------------------------------------------------


def advice(state: GameState, seat: int = 0) -> list[float]:
    return mandala.ttr_agent_route_costs(ttr_core.player_view(state, seat))


def test_advice_leads_to_the_cheapest_second_path(base: GameState) -> None:
    ticket = ticket_id(base.board, "Lahore", "Delhi")
    state = owning(base, 0, routes_between(base, "Lahore", "Bhatinda", "Delhi"), [ticket])
    costs = advice(state)
    gained = {r for r, cost in enumerate(costs) if cost}
    lahore_ambala = route_id(base, "Lahore", "Ambala")
    ambala_delhi = {r.id for r in base.board.routes if {r.a, r.b} == {"Ambala", "Delhi"}}
    # Lahore–Ambala–Delhi (6 trains) avoids both of the path's routes.
    assert lahore_ambala in gained and len(gained & ambala_delhi) == 1 and len(gained) == 2
    assert all(cost < 0 for cost in costs if cost)
    assert sum(costs) == pytest.approx(-5 * mandala.ADVICE_SCALE)
    # Taken by another seat, the plan goes round another way.
    blocked = owning(state, 1, [lahore_ambala], [])
    other = {r for r, cost in enumerate(advice(blocked)) if cost}
    assert other and lahore_ambala not in other and not other & set(blocked.players[0].routes)


def test_no_advice_where_nothing_is_to_gain(base: GameState) -> None:
    ticket = ticket_id(base.board, "Lahore", "Delhi")
    path = routes_between(base, "Lahore", "Bhatinda", "Delhi")
    cycle = routes_between(base, "Lahore", "Bhatinda", "Delhi", "Ambala", "Lahore")
    nothing = [0.0] * len(base.board.routes)
    assert advice(owning(base, 0, cycle, [ticket])) == nothing  # qualifies already
    assert advice(owning(base, 0, path[:1], [ticket])) == nothing  # not completed
    assert advice(owning(base, 0, path, [])) == nothing  # no ticket
    few = owning(base, 0, path, [ticket])
    few = attrs.evolve(few, players=(attrs.evolve(few.players[0], cars=5), *few.players[1:]))
    assert advice(few) == nothing  # 6 trains needed, 5 left


def test_advice_weighs_the_next_step_of_the_table(base: GameState) -> None:
    board = base.board
    ticket = ticket_id(board, "Lahore", "Delhi")
    ring = routes_between(base, "Jaipur", "Agra", "Katni", "Bilaspur", "Raipur", "Khandwa")
    ring += routes_between(base, "Khandwa", "Ratlam", "Jaipur")
    done = [ticket_id(board, *ends) for ends in (("Jaipur", "Raipur"), ("Katni", "Khandwa"))]
    path = routes_between(base, "Lahore", "Bhatinda", "Delhi")
    state = owning(base, 0, path + ring, [ticket, *done])
    assert len(mandala.qualifying(state, 0)) == 2
    # The third qualifying ticket adds 20 - 10.
    assert sum(advice(state)) == pytest.approx(-10 * mandala.ADVICE_SCALE)


def test_advice_is_fast(base: GameState) -> None:
    """Bots ask at every decision: a fresh answer (the cache cleared) for a seat with
    five tickets, some to plan for, on a board half taken, is well under 2 ms."""
    board = base.board
    tickets = [("Lahore", "Delhi"), ("Jaipur", "Raipur"), ("Katni", "Khandwa")]
    tickets += [("Bombay", "Bezwada"), ("Calcutta", "Erode")]
    ring = routes_between(base, "Jaipur", "Agra", "Katni", "Bilaspur", "Raipur", "Khandwa")
    ring += routes_between(base, "Khandwa", "Ratlam", "Jaipur")
    mine = routes_between(base, "Lahore", "Bhatinda", "Delhi") + ring
    mine += routes_between(base, "Bombay", "Poona", "Wadi", "Guntakal", "Bezwada", "Madras")
    mine += routes_between(base, "Madras", "Erode")
    state = owning(base, 0, mine, [ticket_id(board, *ends) for ends in tickets])
    taken = [r.id for r in board.routes[::3] if state.owners[r.id] == -1 and r.partner is None]
    state = owning(state, 1, taken[: len(taken) // 2], [])
    state = owning(state, 2, taken[len(taken) // 2 :], [])
    view = ttr_core.player_view(state, 0)
    assert any(mandala.ttr_agent_route_costs(view))
    with cpu_clock() as spent:
        for _ in range(200):
            mandala._advice.cache_clear()
            mandala.ttr_agent_route_costs(view)
    assert spent() < 200 * 0.002


def test_advice_reads_only_the_view(base: GameState) -> None:
    ticket = ticket_id(base.board, "Lahore", "Delhi")
    state = owning(base, 0, routes_between(base, "Lahore", "Bhatinda", "Delhi"), [ticket])
    mine = advice(state)
    # Another seat's secret tickets and cards change nothing for seat 0 ...
    other = owning(state, 1, [], [ticket_id(base.board, "Lahore", "Wadi")])
    other = with_hand(other, 1, red=7, wild=3)
    assert advice(other) == mine
    # ... and seat 1, which does not hold the ticket, gets no advice from it.
    assert advice(state, 1) == [0.0] * len(base.board.routes)
    # A state dealt from seat 0's view advises the same.
    dealt = ttr_core.determinize(ttr_core.player_view(state, 0), seed=3)
    assert advice(dealt) == mine


# --- whole games -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_score_the_line_for_every_seat(players: int) -> None:
    result = ttr_core.random_playout(MAP, players, seed=20 + players)
    assert result.state.is_over
    sheets = result.scores.sheets
    assert len(sheets) == players
    for seat, sheet in enumerate(sheets):
        line = mandala_line(sheet)
        count = len(mandala.qualifying(result.state, seat))
        assert line.points == mandala.bonus(result.state.board, count)
        assert sheet.total == sum(line.points for line in sheet.lines)


def test_bot_games_score_the_grand_tour_and_determinize() -> None:
    """Bots advised by the plugin play India to the end; a state dealt from any
    seat's view mid-game shows that seat the same view and the same own line."""
    scored = 0
    for seed in range(4):
        state = ttr_core.new_game(MAP, 2, seed=seed)
        agents = [make_agent("route") for _ in range(2)]
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.pending.player if state.pending is not None else 0
            view = ttr_core.player_view(state, seat)
            if state.turn in (15, 40) and state.pending is not None:
                dealt = ttr_core.determinize(view, seed=seed)
                assert ttr_core.player_view(dealt, seat) == view
                assert mandala_line(ttr_core.player_score_sheets(dealt, seat)[seat]) == (
                    mandala_line(ttr_core.player_score_sheets(state, seat)[seat])
                )
            state = ttr_core.apply(
                state, agents[seat].act(view, ttr_core.legal_actions(state), rng)
            )
        lines = [mandala_line(sheet) for sheet in ttr_core.final_scores(state).sheets]
        assert len(lines) == 2
        scored += sum(line.points for line in lines)
    assert scored > 0  # the bots do build second paths

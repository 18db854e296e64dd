"""Europe's train stations (plugin ``stations``): the rules and engine decisions
EU3 (the route each station lends, chosen for the most ticket points) and EU4
(stations are no pieces on routes), each pinned by a test named after it."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence

import attrs
import pytest
from ttr_core_plugins.long_tickets import NAME as LONG_TICKETS
from ttr_core_plugins.stations import (
    CITY_TAKEN,
    NAME,
    NO_STATION_LEFT,
    BuildStation,
    Station,
    built_by,
    station_routes,
    stations,
)

import ttr_core
from ttr_core import GameState, IllegalAction, Pending, Termination
from ttr_core.checking.registry import check_state, check_transition
from ttr_core.hooks.checks import ticket_places
from ttr_core.render import svg
from ttr_core.simulation import simulate
from ttr_core.testing import Invariant, check_rules

from .helpers import card_total, claim, new_started, route_id, with_hand

VARIANTS = (NAME, "longest_route")
MAP = "europe"


def _game(players: int = 2, variants: Sequence[str] = VARIANTS) -> GameState:
    return new_started(players, seed=0, variants=variants, map=MAP)


def _loc(state: GameState, city: str) -> int:
    return state.board.location_id(city)


def _ticket(state: GameState, a: str, b: str) -> int:
    return next(t.id for t in state.board.tickets if {t.a, t.b} == {a, b})


def _tickets(state: GameState, held: dict[int, Iterable[int]]) -> GameState:
    """Every seat holds exactly the tickets given (none if not given); all others
    go back to the ticket deck."""
    everything = [t for p in state.players for t in p.tickets] + list(state.ticket_deck)
    wanted = {seat: tuple(ts) for seat, ts in held.items()}
    given = {t for ts in wanted.values() for t in ts}
    players = tuple(
        attrs.evolve(p, tickets=wanted.get(seat, ())) for seat, p in enumerate(state.players)
    )
    deck = tuple(t for t in everything if t not in given)
    return attrs.evolve(state, players=players, ticket_deck=deck)


def _own(state: GameState, seat: int, *routes: tuple[str, str, str]) -> GameState:
    for a, b, color in routes:
        rid = route_id(state, a, b, color)
        route = state.board.routes[rid]
        state = claim(state, seat, rid, color if route.color != ttr_core.GRAY else "red")
    return state


def _build(
    state: GameState, seat: int, city: str, color: str | None = "red", wilds: int = 0
) -> GameState:
    """Give the seat the exact cards and build a station in ``city`` with them."""
    cost = len(built_by(state, seat)) + 1
    cards = {"wild": wilds}
    if color is not None:
        cards[color] = cost - wilds
    state = with_hand(attrs.evolve(state, pending=Pending("turn", seat)), seat, **cards)
    return ttr_core.apply(state, BuildStation(seat, _loc(state, city), color, wilds))


def _stations_listed(state: GameState) -> list[BuildStation]:
    return [a for a in ttr_core.legal_actions(state) if isinstance(a, BuildStation)]


def _sheet(state: GameState, seat: int) -> ttr_core.ScoreSheet:
    return ttr_core.score_sheets(state)[seat]


def _ticket_status(state: GameState, seat: int) -> dict[int, bool]:
    return {
        line.ref: line.points > 0
        for line in _sheet(state, seat).lines
        if line.kind == "ticket" and line.ref is not None
    }


# ---------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------


def test_station_cost_1_2_3() -> None:
    state = _game()
    for cost, city in enumerate(("Berlin", "Lisboa", "Moskva"), start=1):
        # The hand holds cost + 1 red and 1 wild: every payment listed pays `cost` cards.
        state = with_hand(attrs.evolve(state, pending=Pending("turn", 0)), 0, red=cost + 1, wild=1)
        listed = _stations_listed(state)
        assert listed, cost
        for action in listed:
            assert (action.color is None) == (action.wilds == cost)
        assert {(a.color, a.wilds) for a in listed if a.location == _loc(state, city)} == (
            {("red", 0), (None, 1)} if cost == 1 else {("red", 0), ("red", 1)}
        )
        before = card_total(state)
        hand = state.players[0].hand.total
        discard = sum(state.discard)
        state = ttr_core.apply(state, BuildStation(0, _loc(state, city), "red", 0))
        assert state.players[0].hand.total == hand - cost
        assert sum(state.discard) == discard + cost
        assert card_total(state) == before
        assert state.current_player == 1  # the station was the turn
        assert stations(state)[-1] == Station(_loc(state, city), 0, "red", 0, cost)
    # No fourth station: none listed, one applied is refused.
    state = with_hand(attrs.evolve(state, pending=Pending("turn", 0)), 0, red=5)
    assert _stations_listed(state) == []
    with pytest.raises(IllegalAction) as refused:
        ttr_core.apply(state, BuildStation(0, _loc(state, "Roma"), "red", 0))
    assert refused.value.reason == NO_STATION_LEFT


def test_station_listed_only_when_the_hand_can_pay() -> None:
    state = _build(_game(), 0, "Berlin")
    # The 2nd station costs 2 cards of one colour: a red and a blue cannot pay.
    state = with_hand(attrs.evolve(state, pending=Pending("turn", 0)), 0, red=1, blue=1)
    assert _stations_listed(state) == []
    with pytest.raises(IllegalAction):
        ttr_core.apply(state, BuildStation(0, _loc(state, "Roma"), "red", 0))
    state = with_hand(state, 0, red=1, blue=1, wild=1)
    assert {(a.color, a.wilds) for a in _stations_listed(state)} == {("red", 1), ("blue", 1)}
    # One action per free city and payment.
    assert len(_stations_listed(state)) == 2 * (len(state.board.locations) - 1)


def test_station_wilds_alone_and_mixed_payments() -> None:
    state = _build(_game(), 0, "Berlin", None, 1)
    assert stations(state)[-1] == Station(_loc(state, "Berlin"), 0, None, 1, 1)
    state = _build(state, 0, "Roma", "blue", 1)
    assert stations(state)[-1] == Station(_loc(state, "Roma"), 0, "blue", 1, 2)
    bad = with_hand(attrs.evolve(state, pending=Pending("turn", 0)), 0, blue=3, wild=3)
    for color, wilds in (("blue", 3), (None, 2), ("pink", 0), ("blue", -1), ("blue", 4)):
        with pytest.raises(IllegalAction):
            ttr_core.apply(bad, BuildStation(0, _loc(state, "Paris"), color, wilds))


def test_one_station_per_city() -> None:
    state = _build(_game(), 0, "Berlin")
    state = with_hand(attrs.evolve(state, pending=Pending("turn", 1)), 1, red=2)
    listed = _stations_listed(state)
    assert listed and _loc(state, "Berlin") not in {a.location for a in listed}
    with pytest.raises(IllegalAction) as refused:
        ttr_core.apply(state, BuildStation(1, _loc(state, "Berlin"), "red", 0))
    assert refused.value.reason == CITY_TAKEN
    # A seat may build on any free city, touching none of its routes.
    state = ttr_core.apply(state, BuildStation(1, _loc(state, "Athina"), "red", 0))
    assert built_by(state, 1) == (_loc(state, "Athina"),)


def test_station_only_as_a_turn() -> None:
    state = with_hand(_game(), 0, red=2)
    state = ttr_core.apply(state, ttr_core.DrawBlind(0))  # a second card is due
    assert state.pending is not None and state.pending.kind == "second_card"
    assert _stations_listed(state) == []
    with pytest.raises(IllegalAction):
        ttr_core.apply(state, BuildStation(0, _loc(state, "Berlin"), "red", 0))


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------


def _unused_line(state: GameState, seat: int) -> ttr_core.ScoreLine:
    (line,) = [line for line in _sheet(state, seat).lines if line.kind == NAME]
    return line


def test_unused_station_scores_4() -> None:
    state = _game()
    assert (_unused_line(state, 0).label, _unused_line(state, 0).points) == (
        "Unused stations: 3",
        12,
    )
    state = _build(state, 0, "Berlin")
    assert (_unused_line(state, 0).label, _unused_line(state, 0).points) == (
        "Unused stations: 2",
        8,
    )
    assert _unused_line(state, 1).points == 12
    state = _build(_build(state, 0, "Roma"), 0, "Paris")
    assert _unused_line(state, 0).points == 0
    options = {NAME: {"stations": 2, "points": 5}}
    other = ttr_core.new_game(MAP, 2, seed=0, variants=VARIANTS, options=options)
    assert _unused_line(other, 0).points == 10


def _through_wien() -> GameState:
    """Seat 0 holds Paris – Wien (8) and owns Paris – Frankfurt – München; seat 1
    owns München – Wien."""
    state = _game()
    state = _tickets(state, {0: [_ticket(state, "Paris", "Wien")]})
    state = _own(state, 0, ("Paris", "Frankfurt", "orange"), ("Frankfurt", "München", "purple"))
    return _own(state, 1, ("München", "Wien", "orange"))


def test_ticket_completed_only_through_a_station() -> None:
    state = _through_wien()
    ticket = _ticket(state, "Paris", "Wien")
    assert _ticket_status(state, 0) == {ticket: False}
    # A station on a city the missing route does not touch lends nothing.
    elsewhere = _build(state, 0, "Berlin")
    assert station_routes(elsewhere, 0) == (None,)
    assert _ticket_status(elsewhere, 0) == {ticket: False}
    for city in ("Wien", "München"):
        through = _build(state, 0, city)
        assert station_routes(through, 0) == (route_id(state, "München", "Wien"),)
        assert _ticket_status(through, 0) == {ticket: True}
        sheet = _sheet(through, 0)
        assert (sheet.tickets_completed, sheet.tickets_failed) == (1, 0)
    # Another seat's station lends seat 0 nothing.
    assert _ticket_status(_build(state, 1, "Wien"), 0) == {ticket: False}


def test_one_route_per_station() -> None:
    """Zürich – Budapest needs both München – Wien and Wien – Budapest (seat 1's):
    one station in Wien lends one of them only."""
    state = _through_wien()
    paris_wien, zurich_budapest = (
        _ticket(state, "Paris", "Wien"),
        _ticket(state, "Zürich", "Budapest"),
    )
    state = _tickets(state, {0: [paris_wien, zurich_budapest]})
    state = _own(state, 0, ("Zürich", "München", "yellow"))
    state = _own(state, 1, ("Wien", "Budapest", "red"))
    one = _build(state, 0, "Wien")
    assert station_routes(one, 0) == (route_id(state, "München", "Wien"),)
    assert _ticket_status(one, 0) == {paris_wien: True, zurich_budapest: False}
    two = _build(one, 0, "Budapest")
    assert station_routes(two, 0) == (
        route_id(state, "München", "Wien"),
        route_id(state, "Wien", "Budapest", "red"),
    )
    assert _ticket_status(two, 0) == {paris_wien: True, zurich_budapest: True}


def test_best_choice_eu3() -> None:
    """A station in Wien may lend Berlin – Wien (Berlin – Bucuresti, 8) or München –
    Wien (Paris – Wien 8 and Zürich – Budapest 6): the second scores more, though
    its route id is higher."""
    state = _game()
    tickets = [_ticket(state, *pair) for pair in (("Paris", "Wien"), ("Zürich", "Budapest"))]
    berlin = _ticket(state, "Berlin", "Bucuresti")
    state = _tickets(state, {0: [*tickets, berlin]})
    state = _own(
        state,
        0,
        ("Paris", "Frankfurt", "orange"),
        ("Frankfurt", "München", "purple"),
        ("Zürich", "München", "yellow"),
        ("Wien", "Budapest", "white"),
        ("Budapest", "Bucuresti", "gray"),
    )
    state = _own(state, 1, ("München", "Wien", "orange"), ("Berlin", "Wien", "green"))
    state = _build(state, 0, "Wien")
    munich, berlin_route = route_id(state, "München", "Wien"), route_id(state, "Berlin", "Wien")
    assert berlin_route < munich
    assert station_routes(state, 0) == (munich,)
    assert _ticket_status(state, 0) == {tickets[0]: True, tickets[1]: True, berlin: False}
    # Without München – Wien the station lends Berlin – Wien.
    state = _tickets(state, {0: [berlin]})
    assert station_routes(state, 0) == (berlin_route,)
    assert _ticket_status(state, 0) == {berlin: True}


def _bfs_done(state: GameState, seat: int, routes: Iterable[int]) -> tuple[int, int]:
    """(points of the tickets joined, tickets joined) by ``routes``: a plain search."""
    board = state.board
    near: dict[str, set[str]] = {}
    for r in routes:
        a, b = board.routes[r].a, board.routes[r].b
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    points = count = 0
    for t in state.players[seat].tickets:
        ticket = board.tickets[t]
        seen, todo = {ticket.a}, [ticket.a]
        while todo:
            for nxt in near.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        if ticket.b in seen:
            points += ticket.points
            count += 1
    return points, count


def test_best_choice_eu3_against_every_choice_in_random_games() -> None:
    """In finished random games, the routes the stations lend are one adjacent
    route of another owner each (or none), and no other choice scores the seat
    more ticket points, or as many with more tickets completed."""
    checked = 0
    for seed in range(4):
        state = ttr_core.new_game(MAP, 3, seed=seed, variants=VARIANTS)
        rng = random.Random(seed)
        while not state.is_over:
            state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
        board = state.board
        for seat, player in enumerate(state.players):
            mine = built_by(state, seat)
            options = [
                [None]
                + [
                    r.id
                    for r in board.routes
                    if state.owners[r.id] not in (-1, seat)
                    and board.locations[x].name in (r.a, r.b)
                ]
                for x in mine
            ]
            best = max(
                _bfs_done(state, seat, {*player.routes, *(r for r in combo if r is not None)})
                for combo in itertools.product(*options)
            )
            chosen = station_routes(state, seat)
            assert len(chosen) == len(mine)
            for x, route in zip(mine, chosen, strict=True):
                assert route is None or route in options[mine.index(x)]
            lent = {r for r in chosen if r is not None}
            assert _bfs_done(state, seat, {*player.routes, *lent}) == best
            sheet = ttr_core.final_scores(state).sheets[seat]
            assert sheet.tickets_completed == best[1]
            checked += bool(lent)
    assert checked  # some station lent a route


# ---------------------------------------------------------------------------
# EU4: no pieces on routes
# ---------------------------------------------------------------------------


def test_not_for_the_express_eu4() -> None:
    """A lent route completes a ticket but adds no route points and no length to
    the European Express, which counts the seat's own routes only."""
    state = _build(_through_wien(), 0, "Wien")
    assert station_routes(state, 0) == (route_id(state, "München", "Wien"),)
    sheet = _sheet(state, 0)
    routes_line = next(line for line in sheet.lines if line.kind == "routes")
    assert routes_line.points == 4 + 2  # Paris – Frankfurt (3) and Frankfurt – München (2)
    express = next(line for line in sheet.lines if line.kind == "longest_route")
    assert express.label.startswith("European Express: 5")  # not 8 through München – Wien
    assert sheet.tickets_completed == 1


def test_stations_never_block_claims_eu4() -> None:
    state = _through_wien()
    with_station = _build(state, 0, "Wien")

    def claims(game: GameState) -> set[ttr_core.ClaimRoute]:
        game = with_hand(attrs.evolve(game, pending=Pending("turn", 1)), 1, red=3, white=3)
        return {a for a in ttr_core.legal_actions(game) if isinstance(a, ttr_core.ClaimRoute)}

    assert claims(with_station) == claims(state)
    budapest = route_id(state, "Wien", "Budapest", "red")
    assert any(a.route == budapest for a in claims(with_station))
    after = claim(with_station, 1, budapest, "red")
    assert after.owners[budapest] == 1


# ---------------------------------------------------------------------------
# Tie-break: most tickets, then fewest stations, then the European Express
# ---------------------------------------------------------------------------


def _ended_tied(state: GameState) -> GameState:
    """``state`` ended, seat 0's and seat 1's totals made equal by play points."""
    state = attrs.evolve(state, pending=None, termination=Termination.CARS)
    totals = [s.total for s in ttr_core.score_sheets(state)]
    low = 0 if totals[0] < totals[1] else 1
    gap = abs(totals[0] - totals[1])
    player = state.players[low]
    players = list(state.players)
    players[low] = attrs.evolve(
        player, score=player.score + gap, play_points=player.play_points + gap
    )
    state = attrs.evolve(state, players=tuple(players))
    sheets = ttr_core.score_sheets(state)
    assert sheets[0].total == sheets[1].total
    return state


def _tie_position(tickets: bool, stations0: int, stations1: int, path1: int) -> GameState:
    """Seat 0 completes Paris – Wien if ``tickets`` and has a path of 8; seat 1's
    path is ``path1`` long (7, 8 or 9)."""
    state = _game()
    state = _tickets(state, {0: [_ticket(state, "Paris", "Wien")]} if tickets else {})
    state = _own(
        state,
        0,
        ("Paris", "Frankfurt", "orange"),
        ("Frankfurt", "München", "purple"),
        ("München", "Wien", "orange"),
    )
    paths = {
        7: [("Berlin", "Danzig", "gray"), ("Danzig", "Riga", "black")],
        8: [("Berlin", "Danzig", "gray"), ("Berlin", "Warszawa", "purple")],
        9: [
            ("Berlin", "Danzig", "gray"),
            ("Danzig", "Warszawa", "gray"),
            ("Warszawa", "Wilno", "red"),
        ],
    }
    state = _own(state, 1, *paths[path1])
    cities = ("Lisboa", "Cadiz", "Madrid", "Edinburgh", "London", "Dieppe")
    for seat, count in ((0, stations0), (1, stations1)):
        for city in cities[3 * seat : 3 * seat + count]:
            state = _build(state, seat, city)
    return _ended_tied(state)


def _express(state: GameState, seat: int) -> str:
    return next(x.label for x in _sheet(state, seat).lines if x.kind == "longest_route")


def test_tie_break_fewest_stations() -> None:
    state = _tie_position(tickets=False, stations0=1, stations1=2, path1=9)
    assert _express(state, 1).endswith("(holder)")
    assert ttr_core.final_scores(state).winners == (0,)


def test_three_step_tie_break() -> None:
    # 1. Most completed tickets, whatever the stations and the Express.
    first = _tie_position(tickets=True, stations0=3, stations1=0, path1=9)
    assert [s.tickets_completed for s in ttr_core.final_scores(first).sheets] == [1, 0]
    assert ttr_core.final_scores(first).winners == (0,)
    # 2. Then the fewest stations built, whoever holds the Express.
    second = _tie_position(tickets=False, stations0=2, stations1=1, path1=7)
    assert _express(second, 0).endswith("(holder)") and not _express(second, 1).endswith(")")
    assert ttr_core.final_scores(second).winners == (1,)
    # 3. Then the holder of the European Express.
    third = _tie_position(tickets=False, stations0=1, stations1=1, path1=9)
    assert _express(third, 1).endswith("(holder)")
    assert ttr_core.final_scores(third).winners == (1,)
    # Nothing tells them apart: shared.
    shared = _tie_position(tickets=False, stations0=1, stations1=1, path1=8)
    assert _express(shared, 0) == "European Express: 8 (holder)" == _express(shared, 1)
    assert ttr_core.final_scores(shared).winners == (0, 1)


def test_the_map_puts_stations_before_the_express() -> None:
    order = ttr_core.load_map(MAP).rules.default_variants
    assert NAME in order and LONG_TICKETS in order
    assert order.index(NAME) < order.index("longest_route")


# ---------------------------------------------------------------------------
# Views, saves, ids, words, pictures
# ---------------------------------------------------------------------------


def test_stations_are_public_in_every_view_and_save() -> None:
    state = _build(_build(_through_wien(), 0, "Wien"), 1, "Berlin", None, 1)
    for seat in range(2):
        view = ttr_core.player_view(state, seat)
        assert view.variants[NAME] == stations(state)
        assert ttr_core.from_json(ttr_core.to_json(view), ttr_core.PlayerView) == view
        dealt = ttr_core.determinize(view, 3)
        assert stations(dealt) == stations(state)
        assert ttr_core.player_view(dealt, seat) == view
        # The seat's own connections follow from its view.
        assert station_routes(dealt, seat) == station_routes(state, seat)
    assert ttr_core.from_json(ttr_core.to_json(state), GameState) == state


def test_a_broken_station_record_is_caught() -> None:
    """Our invariants catch a state no play reaches, and a save holding one."""
    state = _build(_build(_game(), 0, "Berlin"), 0, "Roma")
    berlin = _loc(state, "Berlin")
    broken = {
        "second station in one city": (*stations(state), Station(berlin, 1, "red", 0, 1)),
        "wrong cards": (Station(berlin, 0, "red", 0, 2), *stations(state)[1:]),
        "four stations": (
            *stations(state),
            Station(1, 0, "red", 0, 3),
            Station(2, 0, "red", 0, 4),
        ),
        "bad payment": (Station(berlin, 0, None, 0, 1), *stations(state)[1:]),
    }
    assert not check_state(state)
    for what, value in broken.items():
        bad = state.with_variant(NAME, value)
        found = [v for v in check_state(bad) if v.invariant == f"{NAME}.check_state"]
        assert found, what
        with pytest.raises(ttr_core.DataError):
            ttr_core.from_json(ttr_core.to_json(bad), GameState)
    # A transition that paid too little: caught by the transition check.
    before = with_hand(attrs.evolve(state, pending=Pending("turn", 0)), 0, red=3)
    action = BuildStation(0, _loc(state, "Paris"), "red", 0)
    after = ttr_core.apply(before, action)
    assert not check_transition(before, action, after)
    cheat = with_hand(after, 0, red=1)
    assert any(
        v.invariant == f"{NAME}.check_transition" for v in check_transition(before, action, cheat)
    )


def test_station_actions_have_ids() -> None:
    state = with_hand(_build(_game(), 0, "Berlin"), 1, red=2, wild=2)
    state = attrs.evolve(state, pending=Pending("turn", 1))
    ids = ttr_core.legal_action_ids(state)
    legal = ttr_core.legal_actions(state)
    assert len(ids) == len(legal)
    listed = _stations_listed(state)
    assert listed
    for action in listed:
        assert ttr_core.action_from_id(state, ttr_core.action_id(state, action)) == action


def test_station_in_words() -> None:
    state = _game()
    state = with_hand(attrs.evolve(state, pending=Pending("turn", 0)), 0, red=3, wild=3)
    action = BuildStation(0, _loc(state, "Berlin"), None, 1)
    assert ttr_core.describe(state, action).endswith("built a station in Berlin with 1 locomotive")
    state = ttr_core.apply(state, action)
    state = attrs.evolve(state, pending=Pending("turn", 0))
    action = BuildStation(0, _loc(state, "Wien"), "red", 0)
    assert ttr_core.describe(state, action).endswith("built a station in Wien with 2 red")
    state = ttr_core.apply(state, action)
    state = with_hand(attrs.evolve(state, pending=Pending("turn", 0)), 0, red=3, wild=3)
    action = BuildStation(0, _loc(state, "Roma"), "red", 2)
    assert ttr_core.describe(state, action).endswith(
        "built a station in Roma with 1 red and 2 locomotives"
    )


def test_stations_drawn_in_their_owners_colour() -> None:
    state = _build(_build(_game(), 0, "Berlin"), 1, "Roma")
    picture = svg(state)
    assert picture.count("station") >= 2
    for seat in range(2):
        assert svg(ttr_core.player_view(state, seat)).count("station") == picture.count("station")


# ---------------------------------------------------------------------------
# Random games and bots
# ---------------------------------------------------------------------------


def test_random_games_keep_every_invariant() -> None:
    """Random 2–5 seat games with stations and long tickets keep every core
    invariant, each plugin's own, and the rules restated here: at most 3 stations
    a seat (the option), one per city; every ticket in one place, no long one in the deck."""
    seen = {"actions": 0, "stations": 0}

    def europe_rules(state: GameState) -> Iterable[str]:
        seen["actions"] += 1
        built = stations(state)
        seen["stations"] = max(seen["stations"], len(built))
        if len({s.location for s in built}) != len(built):
            yield "two stations in one city"
        most = state.rules.option(NAME, "stations")  # 3 unless hypothesis chose another
        for seat in range(state.num_players):
            if len(built_by(state, seat)) > most:
                yield f"seat {seat} built more than {most} stations"
        if sorted(ticket_places(state)) != list(range(len(state.board.tickets))):
            yield "tickets are not conserved across the box"
        if any(state.board.tickets[t].extra.get("long") for t in state.ticket_deck):
            yield "a long ticket is in the ticket deck"

    rule = Invariant("europe_rules", "state", europe_rules, "", frozenset(), 1)
    check_rules(MAP, [NAME, LONG_TICKETS, "longest_route"], examples=12, invariants=[rule])
    assert seen["actions"] >= 2000 and seen["stations"] >= 6, seen


def test_bots_build_stations() -> None:
    """The heuristic bots are told a station places a token (BuildsToken) and
    build one when a ticket their plan gave up needs a city others blocked."""
    built: dict[str, int] = {}
    for bot in ("route", "long"):
        result = simulate(
            MAP,
            3,
            [bot, bot, bot],
            4,
            seed=1,
            variants=[NAME],
            workers=1,
            records=True,
            per_game=True,
        )
        count = 0
        for game in result.games:
            assert game.record is not None
            record: ttr_core.GameRecord = ttr_core.from_json(game.record, ttr_core.GameRecord)
            count += sum(isinstance(a, BuildStation) for a in record.actions)
        built[bot] = count
    assert all(built.values()), built

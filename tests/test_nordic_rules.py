"""Ticket to Ride: Nordic Countries' rules (the rules file's every line, and the
engine decisions NC1–NC4): locomotives only on ferries and tunnels, a face-up
locomotive as an ordinary card, no display reset, any 3 cards for a ferry's
locomotive, Murmansk–Lieksa's any 4, the Globetrotter, unkept tickets to the box,
double routes (unequal ones too) by player count."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest
from ttr_core_plugins.substitutes import PAY, ClaimWithSets, GiveCard, SetsWait

import ttr_core
from ttr_core import (
    ClaimRoute,
    DrawFaceUp,
    GameState,
    IllegalAction,
    Pending,
    PlayerCountError,
    Reason,
)

from .helpers import set_deck, set_display, started, with_hand

MAP = "nordiccountries"


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    return ttr_core.load_map(MAP)


def game(players: int = 2, seed: int = 0) -> GameState:
    return started(ttr_core.new_game(MAP, players, seed=seed))


def turn_of(state: GameState, seat: int = 0) -> GameState:
    return attrs.evolve(state, pending=Pending("turn", seat))


def route_between(board: ttr_core.Board, a: str, b: str) -> ttr_core.Route:
    return next(r for r in board.routes if {r.a, r.b} == {a, b})


def listed(state: GameState, kind: type, route: int) -> set[ttr_core.Action]:
    return {
        a
        for a in ttr_core.legal_actions(state)
        if type(a) is kind and getattr(a, "route", None) == route
    }


def test_two_or_three_players_forty_trains() -> None:
    state = ttr_core.new_game(MAP, 3, seed=0)
    assert all(p.cars == 40 and p.hand.total == 4 for p in state.players)
    assert state.pending is not None and len(state.pending.offered) == 5
    for players in (1, 4):
        with pytest.raises(PlayerCountError):
            ttr_core.new_game(MAP, players, seed=0)


def test_route_points_up_to_nine_spaces(board: ttr_core.Board) -> None:
    assert dict(board.rules.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 9: 27}


def test_locomotives_pay_only_on_ferries_and_tunnels(board: ttr_core.Board) -> None:
    state = turn_of(with_hand(game(), 0, wild=9, red=1, blue=1))
    for action in ttr_core.legal_actions(state):
        if type(action) is ClaimRoute and action.wilds:
            extra = board.routes[action.route].extra
            assert extra["tunnel"] or extra["locomotives"], action
    plain = route_between(board, "Göteborg", "Örebro")  # blue 2, no tunnel, no ferry
    assert (plain.color, plain.length) == ("blue", 2)
    assert not plain.extra["tunnel"] and not plain.extra["locomotives"]
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(with_hand(state, 0, wild=1, blue=1), ClaimRoute(0, plain.id, "blue", 1))
    assert err.value.reason == Reason.CARDS_DO_NOT_PAY


def test_a_face_up_locomotive_may_follow_another() -> None:
    state = turn_of(set_display(game(), "wild", "wild", "red", "blue", "green"))
    first = ttr_core.apply(state, DrawFaceUp(0, 0))
    assert first.pending == Pending("second_card", 0)
    slot = first.display.index(first.board.wild)
    second = ttr_core.apply(first, DrawFaceUp(0, slot))
    assert second.players[0].hand["wild"] == state.players[0].hand["wild"] + 2


def test_nc1_the_display_is_never_laid_out_again() -> None:
    state = turn_of(set_deck(set_display(game(), "wild", "wild", "red", "wild", "green"), "wild"))
    after = ttr_core.apply(state, DrawFaceUp(0, 2))
    assert after.display.count(after.board.wild) == 4
    assert after.discard == state.discard


def test_nc1_not_at_setup_either() -> None:
    """Over many set-ups, displays of three locomotives or more are dealt and stay."""
    seen = 0
    for seed in range(300):
        state = ttr_core.new_game(MAP, 2, seed=seed)
        if state.display.count(state.board.wild) >= 3:
            seen += 1
            assert sum(state.discard) == 0
    assert seen > 0


def test_a_ferry_asks_its_locomotives_and_more_may_pay_the_rest(board: ttr_core.Board) -> None:
    ferry = route_between(board, "Ålborg", "Oslo")  # white 3, 1 locomotive
    assert ferry.extra["locomotives"] == 1
    state = turn_of(with_hand(game(), 0, white=3, wild=3))
    claims = listed(state, ClaimRoute, ferry.id)
    assert ClaimRoute(0, ferry.id, "white", 0) not in claims  # no locomotive
    assert {ClaimRoute(0, ferry.id, "white", 1), ClaimRoute(0, ferry.id, "white", 2)} <= claims
    assert ClaimRoute(0, ferry.id, None, 3) in claims


def _pay_sets(state: GameState, cards: list[str]) -> GameState:
    for card in cards:
        state = ttr_core.apply(state, GiveCard(0, card))
    return state


def test_any_three_cards_stand_in_for_a_ferrys_locomotive(board: ttr_core.Board) -> None:
    ferry = route_between(board, "Ålborg", "Oslo")
    state = turn_of(with_hand(game(), 0, white=2, red=2, blue=1))
    claim = ClaimWithSets(0, ferry.id, "white", 0, 1)
    assert listed(state, ClaimWithSets, ferry.id) == {claim}
    waiting = ttr_core.apply(state, claim)
    assert waiting.pending is not None and waiting.pending.kind == PAY
    assert waiting.pending.data == SetsWait(claim, 3)
    assert waiting.owners[ferry.id] == -1 and waiting.turn == state.turn
    # The claim's own white cards are not offered for the set.
    assert {a.card for a in ttr_core.legal_actions(waiting)} == {"red", "blue"}
    done = _pay_sets(waiting, ["red", "red", "blue"])
    assert done.owners[ferry.id] == 0 and done.current_player == 1
    assert done.players[0].hand.total == 0
    assert done.players[0].score == state.players[0].score + 4


def test_a_claim_waiting_for_its_sets_shows_its_cards(board: ttr_core.Board) -> None:
    """The claim is laid down: its cards and the cards given are known to every
    seat until paid, so a state dealt from another seat's view (determinize)
    holds them and the claim can be finished there as in the real game (a
    hand dealt at random once lacked them: a listed GiveCard then raised)."""
    ferry = route_between(board, "Ålborg", "Oslo")
    state = turn_of(with_hand(game(), 0, white=2, red=2, blue=1))
    waiting = ttr_core.apply(state, ClaimWithSets(0, ferry.id, "white", 0, 1))
    assert dict(ttr_core.player_view(waiting, 1).seats[0].known) == {"white": 2}
    given = ttr_core.apply(waiting, GiveCard(0, "red"))
    assert dict(ttr_core.player_view(given, 1).seats[0].known) == {"white": 2, "red": 1}
    for seed in range(30):
        dealt = ttr_core.determinize(ttr_core.player_view(given, 1), seed=seed)
        assert dealt.players[0].hand["white"] >= 2 and dealt.players[0].hand["red"] >= 1
        while dealt.pending is not None and dealt.pending.kind == PAY:
            dealt = ttr_core.apply(dealt, ttr_core.legal_actions(dealt)[0])
        assert dealt.owners[ferry.id] == 0
    done = _pay_sets(given, ["red", "blue"])
    assert done.players[0].known == () or not any(done.players[0].known)


def test_determinized_states_finish_every_waiting_claim_of_random_games() -> None:
    finished = 0
    for seed in range(40):
        state = ttr_core.new_game(MAP, 2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            pending = state.pending
            assert pending is not None
            if pending.kind == PAY:
                other = 1 - pending.player
                dealt = ttr_core.determinize(ttr_core.player_view(state, other), seed=seed)
                while dealt.pending is not None and dealt.pending.kind == PAY:
                    dealt = ttr_core.apply(dealt, rng.choice(ttr_core.legal_actions(dealt)))
                finished += 1
            state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
    assert finished >= 20


def test_a_set_is_not_offered_without_enough_cards(board: ttr_core.Board) -> None:
    ferry = route_between(board, "Ålborg", "Oslo")
    state = turn_of(with_hand(game(), 0, white=2, red=2))
    assert listed(state, ClaimWithSets, ferry.id) == set()
    with pytest.raises(IllegalAction):
        ttr_core.apply(state, ClaimWithSets(0, ferry.id, "white", 0, 1))


def test_nc4_no_set_on_a_tunnel_or_an_ordinary_route(board: ttr_core.Board) -> None:
    state = turn_of(with_hand(game(), 0, red=9, blue=9, white=9, green=9))
    for action in ttr_core.legal_actions(state):
        if type(action) is ClaimWithSets:
            route = board.routes[action.route]
            assert not route.extra["tunnel"]
            assert route.extra["locomotives"] or route.extra["substitute"]
            if route.extra["locomotives"]:
                assert action.sets <= route.extra["locomotives"]


def test_murmansk_lieksa_takes_any_four_cards_for_each_card_of_its_colour(
    board: ttr_core.Board,
) -> None:
    route = route_between(board, "Murmansk", "Lieksa")
    assert (route.color, route.length, route.extra["substitute"]) == ("gray", 9, 4)
    assert board.rules.route_points[9] == 27
    # 7 red and 8 other cards: 7 + two sets of 4.
    state = turn_of(with_hand(game(), 0, red=7, blue=4, green=3, wild=1))
    claims = listed(state, ClaimWithSets, route.id)
    assert ClaimWithSets(0, route.id, "red", 0, 2) in claims
    assert ClaimWithSets(0, route.id, "red", 0, 1) not in claims  # 8 red are not held
    # Locomotives are not wild on it: no core claim with one.
    assert not [a for a in listed(state, ClaimRoute, route.id) if a.wilds]
    waiting = ttr_core.apply(state, ClaimWithSets(0, route.id, "red", 0, 2))
    # NC3: a locomotive may be part of a set.
    assert GiveCard(0, "wild") in ttr_core.legal_actions(waiting)
    done = _pay_sets(waiting, ["blue"] * 4 + ["green"] * 3 + ["wild"])
    assert done.owners[route.id] == 0
    assert done.players[0].hand.total == 0 and done.players[0].score == 27


def test_nine_of_a_colour_claim_murmansk_lieksa_outright(board: ttr_core.Board) -> None:
    route = route_between(board, "Murmansk", "Lieksa")
    state = turn_of(with_hand(game(), 0, yellow=9))
    assert ClaimRoute(0, route.id, "yellow", 0) in listed(state, ClaimRoute, route.id)


def test_a_card_not_held_beyond_the_claim_is_refused(board: ttr_core.Board) -> None:
    ferry = route_between(board, "Ålborg", "Oslo")
    state = turn_of(with_hand(game(), 0, white=2, red=2, blue=1))
    waiting = ttr_core.apply(state, ClaimWithSets(0, ferry.id, "white", 0, 1))
    for card in ("white", "green", 7):
        with pytest.raises(IllegalAction):
            ttr_core.apply(waiting, GiveCard(0, card))  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "both"), [(2, False), (3, True)])
def test_double_routes_by_player_count_unequal_pairs_too(
    board: ttr_core.Board, players: int, both: bool
) -> None:
    short = route_between(board, "Mo I Rana", "Trondheim")  # the tunnel of 5 (its pair: 6)
    assert short.partner is not None
    long = board.routes[short.partner]
    assert {short.length, long.length} == {5, 6}
    tunnel, ferry = (short, long) if short.extra["tunnel"] else (long, short)
    state = turn_of(with_hand(game(players), 0, **{ferry.color: ferry.length, "wild": 2}))
    state = ttr_core.apply(state, ClaimRoute(0, ferry.id, ferry.color, 2))
    other = turn_of(with_hand(state, 1, **{tunnel.color: tunnel.length}), 1)
    assert (
        tunnel.id in {a.route for a in ttr_core.legal_actions(other) if type(a) is ClaimRoute}
    ) is both


REGIONS = str(Path(__file__).with_name("data") / "regions.toml")


def _completed(counts: list[int], points: int | None = None) -> GameState:
    """A game of the Globetrotter on the test map whose seats hold 2, 1 or 0
    completed tickets (``counts``), the map's bonus ``points`` if given."""
    text = Path(REGIONS).read_text(encoding="utf-8")
    if points is not None:
        text = text.replace(
            "[variants.example]",
            f"[variants.globetrotter]\npoints = {points}\n\n[variants.example]",
        )
    board = ttr_core.parse_map(text, source="regions.toml")
    state = ttr_core.new_game(board, len(counts), seed=0, variants=["globetrotter"])
    # Seat holdings: 2 completed (Home–Mid, Mid–West 1), 1 (North–East), 0.
    holdings = {2: ((0, 3), (0, 5)), 1: ((6,), (7,)), 0: ((), (1,))}
    owners = list(state.owners)
    players = list(state.players)
    for seat, count in enumerate(counts):
        routes, tickets = holdings[count]
        if any(owners[r] != -1 for r in routes):
            routes, tickets = (), (1,)  # a second seat of the same count: none held
        for route in routes:
            owners[route] = seat
        players[seat] = attrs.evolve(players[seat], routes=routes, tickets=tickets)
    return attrs.evolve(state, owners=tuple(owners), players=tuple(players))


def _globetrotter(state: GameState) -> list[ttr_core.ScoreLine]:
    return [
        next(line for line in sheet.lines if line.kind == "globetrotter")
        for sheet in ttr_core.score_sheets(state)
    ]


def test_the_globetrotter_goes_to_the_most_completed_tickets() -> None:
    lines = _globetrotter(_completed([2, 1, 0]))
    assert [line.points for line in lines] == [10, 0, 0]
    assert lines[0].label == "Globetrotter: 2 tickets completed (most)"
    assert lines[1].label == "Globetrotter: 1 ticket completed"
    assert all(line.shown == "end" for line in lines)


def test_the_globetrotter_bonus_is_the_maps(board: ttr_core.Board) -> None:
    assert board.variant_data["globetrotter"]["points"] == 10
    assert [line.points for line in _globetrotter(_completed([1, 0], points=12))] == [12, 0]


def test_nc2_every_tied_seat_scores_the_globetrotter() -> None:
    state = _completed([1, 0, 0])
    # Seat 1 also completes one: North–East through the same... give it Home–Mid.
    owners = list(state.owners)
    owners[0] = 1
    seat1 = attrs.evolve(state.players[1], routes=(0,), tickets=(0,))
    state = attrs.evolve(
        state, owners=tuple(owners), players=(state.players[0], seat1, state.players[2])
    )
    assert [line.points for line in _globetrotter(state)] == [10, 10, 0]


def test_no_globetrotter_without_a_completed_ticket() -> None:
    assert [line.points for line in _globetrotter(_completed([0, 0]))] == [0, 0]


def test_no_longest_path_bonus(board: ttr_core.Board) -> None:
    assert "longest_route" not in board.rules.default_variants
    sheet = ttr_core.score_sheets(game())[0]
    assert not [line for line in sheet.lines if line.kind == "longest_route"]


def test_random_games_agree_between_the_pure_api_and_the_playout() -> None:
    for seed in range(4):
        state = ttr_core.new_game(MAP, 2 + seed % 2, seed=seed)
        play = ttr_core.Playout(state)
        rng = random.Random(seed)
        while not state.is_over:
            legal = ttr_core.legal_actions(state)
            assert play.legal_actions() == legal
            action = rng.choice(legal)
            state = ttr_core.apply(state, action)
            play.apply(action)
        assert play.snapshot() == state

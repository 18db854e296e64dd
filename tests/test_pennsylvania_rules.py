"""Ticket to Ride: Pennsylvania's rules (the rules file's every line): stock
shares taken after a claim (optional; forced as an option), the top share, sold
out companies, majority scoring by place with the lowest-share tie-break
(against an independent scorer in random games), the 2-player dummy and its
half revealed rounded up, 60 shares never over-issued (with a cut supply), the
Globetrotter, the 7-space route, the ticket deals, double routes by player
count and the Ontario ferries."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path

import attrs
import pytest
from ttr_core_plugins import shares as sh
from ttr_core_plugins.shares import DeclineShare, SharesState, TakeShare

import ttr_core
from ttr_core import ClaimRoute, GameState, IllegalAction, KeepTickets, Pending, PlayerCountError
from ttr_core.testing import verify

from .helpers import claim, started, with_hand

MAP = "pennsylvania"
MAP_FILE = Path(__file__).resolve().parents[1] / "maps" / "pennsylvania.toml"
IDS = ("PRR", "B&O", "EL", "RDG", "LV", "NYC", "WM", "JCL", "BR&P")


@pytest.fixture(scope="module")
def board() -> ttr_core.Board:
    return ttr_core.load_map(MAP)


def game(players: int = 3, seed: int = 0, **options: object) -> GameState:
    chosen = {"shares": options} if options else None
    return started(ttr_core.new_game(MAP, players, seed=seed, options=chosen))


def route_of(state: GameState, a: str, b: str, logos: Sequence[str] | None = None) -> int:
    """A route between ``a`` and ``b`` (with exactly ``logos``, when given)."""
    for route in state.board.routes:
        if {route.a, route.b} == {a, b} and (
            logos is None or sh.route_companies(state.board, route.id) == tuple(logos)
        ):
            return route.id
    raise LookupError((a, b, logos))


def claimed(state: GameState, seat: int, route: int) -> GameState:
    r = state.board.routes[route]
    color = "red" if r.color == "gray" else r.color
    return claim(state, seat, route, color)


def holdings(state: GameState) -> tuple[tuple[tuple[int, ...], ...], ...]:
    return sh.shares(state).held


def with_held(state: GameState, held: Sequence[Sequence[Sequence[int]]]) -> GameState:
    return state.with_variant("shares", SharesState(tuple(tuple(map(tuple, h)) for h in held)))


def empty(holders: int) -> list[list[list[int]]]:
    return [[[] for _ in IDS] for _ in range(holders)]


# -- taking a share -------------------------------------------------------------


def test_a_claim_of_a_route_with_logos_waits_for_the_share_choice() -> None:
    state = game(3)
    route = route_of(state, "Baltimore", "Gettysburg")
    logos = sh.route_companies(state.board, route)
    assert logos
    after = claimed(state, 0, route)
    assert after.pending == Pending(sh.CHOOSE, 0, data=route)
    assert after.turn == state.turn  # the turn is not over
    legal = set(ttr_core.legal_actions(after))
    assert legal == {TakeShare(0, c) for c in logos} | {DeclineShare(0)}
    took = ttr_core.apply(after, TakeShare(0, logos[0]))
    assert took.turn == state.turn + 1 and took.pending is not None
    assert took.pending.kind == "turn" and took.pending.player == 1
    assert holdings(took)[0][IDS.index(logos[0])] == (1,)


def test_the_top_share_is_the_lowest_number_left() -> None:
    state = game(3)
    held = empty(3)
    held[1][0] = [1, 2]
    held[2][0] = [3]
    state = with_held(state, held)
    route = next(
        r.id for r in state.board.routes if sh.route_companies(state.board, r.id)[:1] == ("PRR",)
    )
    after = ttr_core.apply(claimed(state, 0, route), TakeShare(0, "PRR"))
    assert holdings(after)[0][0] == (4,)


def test_a_route_without_logo_offers_no_share(board: ttr_core.Board) -> None:
    bare = [r.id for r in board.routes if not sh.route_companies(board, r.id)]
    assert len(bare) == 8  # the rules file: 8 routes show no logo
    state = game(3)
    route = next(r for r in bare if board.routes[r].extra.get("locomotives") is None)
    after = claimed(state, 0, route)
    assert after.pending is not None and after.pending.kind == "turn" and after.pending.player == 1


def test_a_sold_out_company_cannot_be_chosen_and_all_sold_out_offers_nothing() -> None:
    state = game(3)
    route = route_of(state, "Baltimore", "Gettysburg")
    logos = sh.route_companies(state.board, route)
    held = empty(3)
    first = IDS.index(logos[0])
    held[1][first] = list(range(1, sh.supply(state)[first] + 1))  # sold out
    after = claimed(with_held(state, held), 0, route)
    offered = {a.company for a in ttr_core.legal_actions(after) if isinstance(a, TakeShare)}
    assert offered == set(logos[1:])
    with pytest.raises(IllegalAction, match="cannot be taken"):
        ttr_core.apply(after, TakeShare(0, logos[0]))
    for company in logos:  # every company of the route sold out
        c = IDS.index(company)
        held[1][c] = list(range(1, sh.supply(state)[c] + 1))
    after = claimed(with_held(state, held), 0, route)
    assert after.pending is not None and after.pending.kind == "turn"


def test_pa1_taking_a_share_is_optional_by_the_rules_and_forced_by_the_option() -> None:
    state = game(3)
    route = route_of(state, "Baltimore", "Gettysburg")
    after = claimed(state, 0, route)
    assert DeclineShare(0) in ttr_core.legal_actions(after)
    declined = ttr_core.apply(after, DeclineShare(0))
    assert holdings(declined) == holdings(state) and declined.turn == state.turn + 1
    forced = claimed(game(3, forced=True), 0, route)
    assert DeclineShare(0) not in ttr_core.legal_actions(forced)
    with pytest.raises(IllegalAction):
        ttr_core.apply(forced, DeclineShare(0))


def test_one_share_only_and_only_right_after_the_claim() -> None:
    state = game(3)
    with pytest.raises(IllegalAction, match="no share waits"):
        ttr_core.apply(state, TakeShare(state.current_player or 0, "PRR"))
    route = route_of(state, "Baltimore", "Gettysburg")
    after = ttr_core.apply(claimed(state, 0, route), DeclineShare(0))
    with pytest.raises(IllegalAction):
        ttr_core.apply(after, TakeShare(1, "PRR"))


@pytest.mark.parametrize("company", ["XYZ", "", "PRR" * 1000, None, 3, ("PRR",)])
def test_a_hostile_choice_is_refused_by_a_typed_error_that_stays_short(company: object) -> None:
    after = claimed(game(3), 0, route_of(game(3), "Baltimore", "Gettysburg"))
    with pytest.raises(ttr_core.TtrError) as caught:
        ttr_core.apply(after, TakeShare(0, company))  # type: ignore[arg-type]
    assert len(str(caught.value)) < 400
    assert "PRR" * 3 not in str(caught.value)


def test_pa6_each_take_is_public_in_every_view_and_described() -> None:
    state = game(3)
    route = route_of(state, "Baltimore", "Gettysburg")
    logo = sh.route_companies(state.board, route)[0]
    after = claimed(state, 0, route)
    took = ttr_core.apply(after, TakeShare(0, logo))
    for seat in range(3):
        view = ttr_core.player_view(took, seat)
        assert view.variants["shares.held"] == holdings(took)
        assert view.variants["shares.left"] == sh.left(took)
        assert ttr_core.player_view(after, seat).variants["shares.route"] == route
    words = ttr_core.describe(after, TakeShare(0, logo))
    assert "share 1 of" in words and f"({logo})" in words
    assert "took no share" in ttr_core.describe(after, DeclineShare(0))


# -- the dummy (2 players) ------------------------------------------------------------


def test_two_players_give_the_dummy_a_share_of_the_route_with_each_take() -> None:
    state = game(2)
    route = route_of(state, "Baltimore", "Gettysburg")
    logos = sh.route_companies(state.board, route)
    after = claimed(state, 0, route)
    legal = set(ttr_core.legal_actions(after))
    assert legal == {TakeShare(0, c, d) for c in logos for d in logos} | {DeclineShare(0)}
    took = ttr_core.apply(after, TakeShare(0, logos[0], logos[0]))
    c = IDS.index(logos[0])
    assert holdings(took)[0][c] == (1,) and holdings(took)[2][c] == (2,)
    declined = ttr_core.apply(after, DeclineShare(0))
    assert holdings(declined)[2] == holdings(state)[2]  # declining gives the dummy none
    for seat in (0, 1):  # the dummy's take is seen by all too (PA6)
        assert ttr_core.player_view(took, seat).variants["shares.held"][2][c] == (2,)


def test_the_dummy_takes_none_when_the_take_empties_the_route() -> None:
    state = game(2)
    route = next(
        r.id for r in state.board.routes if len(sh.route_companies(state.board, r.id)) == 1
    )
    (logo,) = sh.route_companies(state.board, route)
    c = IDS.index(logo)
    held = empty(3)
    held[1][c] = list(range(1, sh.supply(state)[c]))  # one share left
    after = claimed(with_held(state, held), 0, route)
    assert set(ttr_core.legal_actions(after)) == {TakeShare(0, logo, None), DeclineShare(0)}
    with pytest.raises(IllegalAction):  # the dummy cannot take a share that is gone
        ttr_core.apply(after, TakeShare(0, logo, logo))


def played(state: GameState, seed: int) -> tuple[GameState, list[ttr_core.Action]]:
    """``state`` played to its end at random, and the actions taken."""
    rng = random.Random(seed)
    actions = []
    while not ttr_core.is_over(state):
        actions.append(rng.choice(ttr_core.legal_actions(state)))
        state = ttr_core.apply(state, actions[-1])
    return state, actions


def over(state: GameState, seed: int) -> GameState:
    return played(state, seed)[0]
    return state


@pytest.mark.parametrize("seed", range(6))
def test_pa5_the_dummy_reveals_half_its_shares_rounded_up_at_random_at_the_end(seed: int) -> None:
    state = ttr_core.new_game(MAP, 2, seed=seed)
    end, actions = played(state, seed)
    current = sh.shares(end)
    dummy = current.held[2]
    assert current.revealed is not None
    shown = [n for numbers in current.revealed for n in numbers]
    assert len(shown) == math.ceil(sum(map(len, dummy)) / 2)
    assert all(set(r) <= set(d) for r, d in zip(current.revealed, dummy, strict=True))
    *_, last = ttr_core.replay(ttr_core.record_of(state, actions))
    assert last == end  # the reveal replays from the seed


def test_pa4_before_the_end_the_dummy_counts_half_its_lowest_shares() -> None:
    state = game(2)
    held = empty(3)
    held[0][0] = [1, 2]
    held[2][0] = [3, 4, 5, 6, 7]  # 3 count during play: 3, 4, 5
    state = with_held(state, held)
    assert sh.counted(state)[2][0] == (3, 4, 5)
    sheets = ttr_core.score_sheets(state)
    (line,) = [line for line in sheets[0].lines if line.kind == "shares"]
    assert line.points == 21 and "2nd" in line.label  # behind the dummy's 3
    assert line.shown == "end"  # nobody reads a guess during play


def test_the_reveal_is_chance_not_always_the_same_half() -> None:
    state = game(2)
    held = empty(3)
    held[2][0] = [1, 2, 3, 4, 5, 6]
    state = with_held(state, held)
    seen = set()
    for seed in range(12):
        ended = ttr_core.end_game(attrs.evolve(state, seed=seed), "abandoned")
        revealed = sh.shares(ended).revealed
        assert revealed is not None and len(revealed[0]) == 3
        seen.add(revealed[0])
    assert len(seen) > 3


def test_the_dummy_counts_its_revealed_shares_takes_places_and_scores_nothing() -> None:
    state = game(2)
    held = empty(3)
    held[0][0] = [1, 2]  # seat 0: 2 PRR
    held[1][0] = [3]  # seat 1: 1 PRR
    held[2][0] = [4, 5, 6, 7, 8]  # the dummy: 5 PRR, 3 of them revealed
    state = with_held(state, held)
    ended = attrs.evolve(state, termination=ttr_core.Termination.STALEMATE, pending=None)
    ended = ended.with_variant(
        "shares", attrs.evolve(sh.shares(ended), revealed=((4, 5, 6), *((),) * 8))
    )
    sheets = ttr_core.score_sheets(ended)
    prr = [[line for line in sheet.lines if "(PRR)" in line.label] for sheet in sheets]
    assert [line.points for line in prr[0]] == [21]  # 2nd behind the dummy's 3
    assert [line.points for line in prr[1]] == [14]  # 3rd
    assert len(sheets) == 2  # no sheet for the dummy


# -- majority scoring ---------------------------------------------------------------------


def independent_share_points(state: GameState) -> list[int]:
    """The shares' points of each seat, computed apart from the plugin: a holder
    beats another with more shares, or as many and a lower lowest number."""
    table = state.board.variant_data["shares"]["companies"]
    current = sh.shares(state)
    holders = list(current.held)
    if state.num_players == 2:
        assert current.revealed is not None
        holders[2] = current.revealed
    totals = [0] * state.num_players
    for c, company in enumerate(table):
        for seat in range(state.num_players):
            mine = holders[seat][c]
            if not mine:
                continue
            above = sum(
                1
                for other in holders
                if other[c]
                and (
                    len(other[c]) > len(mine)
                    or (len(other[c]) == len(mine) and min(other[c]) < min(mine))
                )
            )
            values = company["values"]
            totals[seat] += values[above] if above < len(values) else 0
    return totals


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_majority_scoring_agrees_with_an_independent_scorer_in_random_games(players: int) -> None:
    for seed in range(4):
        end = over(ttr_core.new_game(MAP, players, seed=seed), seed)
        sheets = ttr_core.score_sheets(end)
        scored = [sum(line.points for line in s.lines if line.kind == "shares") for s in sheets]
        assert scored == independent_share_points(end)
        assert any(scored)


def test_the_tie_break_is_the_lowest_share_number() -> None:
    state = game(3)
    held = empty(3)
    held[0][1] = [2, 5]
    held[1][1] = [1, 6]  # as many as seat 0, and share 1
    held[2][1] = [3]
    state = with_held(state, held)
    points = [
        sum(line.points for line in s.lines if line.kind == "shares")
        for s in ttr_core.score_sheets(state)
    ]
    assert points == [14, 20, 9]  # B&O: 20 / 14 / 9


def test_pa3_a_place_beyond_the_table_scores_nothing_and_no_share_no_place() -> None:
    state = game(4)
    held = empty(4)
    for seat in range(3):
        held[seat][8] = [seat + 1]  # BR&P pays 2 places: 7, 4
    state = with_held(state, held)
    sheets = ttr_core.score_sheets(state)
    lines = [[line for line in s.lines if line.kind == "shares"] for s in sheets]
    assert [line.points for line in lines[0]] == [7]
    assert [line.points for line in lines[1]] == [4]
    assert [line.points for line in lines[2]] == [0] and "3rd" in lines[2][0].label
    assert [(line.label, line.points) for line in lines[3]] == [("Shares: none", 0)]


def test_share_lines_are_public_but_wait_for_the_end_with_the_dummy() -> None:
    three = ttr_core.score_sheets(with_held(game(3), [[[1], *[[]] * 8], *[[[]] * 9] * 2]))
    assert all(line.shown == "all" for line in three[0].lines if line.kind == "shares")
    two = ttr_core.score_sheets(game(2))
    assert all(line.shown == "end" for line in two[0].lines if line.kind == "shares")


# -- the supply: never over-issued ------------------------------------------------------


def test_over_issued_shares_break_the_invariant() -> None:
    state = game(3)
    held = empty(3)
    held[0][8] = [1, 2]
    held[1][8] = [3]  # BR&P has 2 shares
    problems = sh.ttr_check_state(with_held(state, held))
    assert any("issued 3 shares of 2" in p for p in problems)
    held = empty(3)
    held[0][0] = [1]
    held[1][0] = [1]  # one share held twice
    assert any("once each" in p for p in sh.ttr_check_state(with_held(state, held)))


@pytest.mark.parametrize("players", [2, 3])
def test_a_cut_supply_sells_out_and_is_never_over_issued(players: int) -> None:
    options = {"shares": {"limit": 1, "forced": True}}
    report = verify(MAP, players=[players], games=3, seed=7, options=options)
    assert report.ok, report.failures
    assert report.checks["shares.check_state"] > 0
    sold_out = 0
    for seed in range(3):
        end = over(ttr_core.new_game(MAP, players, seed=seed, options=options), seed)
        assert all(n >= 0 for n in sh.left(end))
        sold_out += sum(n == 0 for n in sh.left(end))
    assert sold_out > 0  # the games reached the supply's edge


def test_sixty_shares_in_nine_companies(board: ttr_core.Board) -> None:
    state = game(5)
    assert sum(sh.supply(state)) == 60 and len(sh.supply(state)) == 9
    assert sh.supply(game(5, limit=3))[:3] == (3, 3, 3)


# -- the other rules of the map -----------------------------------------------------------


def test_two_to_five_players_with_45_trains_4_cards_5_face_up() -> None:
    for players in (2, 5):
        state = ttr_core.new_game(MAP, players, seed=0)
        assert all(p.cars == 45 and p.hand.total == 4 for p in state.players)
        assert len(state.display) == 5
    for players in (1, 6):
        with pytest.raises(PlayerCountError):
            ttr_core.new_game(MAP, players, seed=0)


def test_five_tickets_dealt_keep_at_least_three_the_rest_under_the_deck() -> None:
    state = ttr_core.new_game(MAP, 3, seed=1)
    assert state.pending is not None and len(state.pending.offered) == 5
    offered = state.pending.offered
    with pytest.raises(IllegalAction):
        ttr_core.apply(state, KeepTickets(state.pending.player, offered[:2]))
    after = ttr_core.apply(state, KeepTickets(state.pending.player, offered[:3]))
    assert after.ticket_deck[-2:] == offered[3:] or set(after.ticket_deck[-2:]) == set(offered[3:])


def test_a_ticket_draw_offers_four_keep_at_least_one_the_rest_under_the_deck() -> None:
    state = game(3)
    seat = state.current_player
    assert seat is not None
    drawn = ttr_core.apply(state, ttr_core.DrawTickets(seat))
    assert drawn.pending is not None and len(drawn.pending.offered) == 4
    with pytest.raises(IllegalAction):
        ttr_core.apply(drawn, KeepTickets(seat, ()))
    kept = ttr_core.apply(drawn, KeepTickets(seat, drawn.pending.offered[:1]))
    assert set(kept.ticket_deck[-3:]) == set(drawn.pending.offered[1:])


def test_pa2_the_seven_space_route_scores_18() -> None:
    state = game(3)
    route = route_of(state, "Baltimore", "Cumberland")
    assert state.board.routes[route].length == 7
    after = claimed(state, 0, route)
    assert after.players[0].score == state.players[0].score + 18


@pytest.mark.parametrize(("players", "both"), [(2, False), (3, False), (4, True), (5, True)])
def test_both_routes_of_a_pair_only_from_four_players(
    players: int, both: bool, board: ttr_core.Board
) -> None:
    state = game(players)
    pair = next(
        r for r in board.routes if r.partner is not None and r.extra.get("locomotives") is None
    )
    after = claimed(state, 0, pair.id)
    if after.pending is not None and after.pending.kind == sh.CHOOSE:
        after = ttr_core.apply(after, DeclineShare(0))
    after = attrs.evolve(after, pending=Pending("turn", 1))
    after = with_hand(after, 1, wild=8)
    partner = board.routes[pair.partner]  # type: ignore[index]
    claims = {a.route for a in ttr_core.legal_actions(after) if isinstance(a, ClaimRoute)}
    assert (partner.id in claims) is both


def test_the_longest_path_scores_nothing_and_the_globetrotter_15_to_every_tied_seat() -> None:
    state = game(3)
    assert "longest_route" not in state.rules.variants
    tickets = ttr_core.score_sheets(state)
    lines = [[line for line in s.lines if line.kind == "globetrotter"] for s in tickets]
    assert all(line.points == 0 for ls in lines for line in ls)  # nobody completed one
    end = over(ttr_core.new_game(MAP, 3, seed=2), 2)
    sheets = ttr_core.score_sheets(end)
    done = [s.tickets_completed for s in sheets]
    for sheet, count in zip(sheets, done, strict=True):
        (line,) = [line for line in sheet.lines if line.kind == "globetrotter"]
        assert line.points == (15 if count == max(done) and count > 0 else 0)


def test_ontario_is_reached_by_ferries_that_need_locomotives(board: ttr_core.Board) -> None:
    state = game(3)
    ferry = next(
        r.id
        for r in board.routes
        if (r.a == "Erie" and r.b.startswith("Ontario"))
        or (r.b == "Erie" and r.a.startswith("Ontario"))
    )
    r = board.routes[ferry]
    assert r.extra["locomotives"] == 2 and r.length == 3
    turn = attrs.evolve(with_hand(state, 0, red=3, wild=1), pending=Pending("turn", 0))
    assert ferry not in {a.route for a in ttr_core.legal_actions(turn) if isinstance(a, ClaimRoute)}
    turn = attrs.evolve(with_hand(state, 0, red=1, wild=2), pending=Pending("turn", 0))
    assert ClaimRoute(0, ferry, "red", 2) in ttr_core.legal_actions(turn)


def test_a_ticket_to_ontario_counts_at_either_landing_but_no_path_runs_through_it(
    board: ttr_core.Board,
) -> None:
    ends = ttr_core.ticket_ends(game(3))
    ontario = [t for t in board.tickets if "Ontario" in (t.a, t.b)]
    assert len(ontario) == 3
    for ticket in ontario:
        ids = {p for goal in ends[ticket.id].goals for p in goal.places}
        ids |= set(ends[ticket.id].start)
        places = {board.locations[p].name for p in ids}
        assert {"Ontario 1", "Ontario 2"} <= places
    assert not any({r.a, r.b} == {"Ontario 1", "Ontario 2"} for r in board.routes)


def test_ids_of_share_choices_in_the_action_space() -> None:
    for players in (2, 3):
        after = claimed(game(players), 0, route_of(game(players), "Baltimore", "Gettysburg"))
        legal = ttr_core.legal_actions(after)
        ids = ttr_core.legal_action_ids(after)
        assert len(ids) == len(legal)
        assert {ttr_core.action_from_id(after, i) for i in ids} == set(legal)


def test_saves_and_determinize_keep_the_shares() -> None:
    state = game(2)
    after = claimed(state, 0, route_of(state, "Baltimore", "Gettysburg"))
    assert ttr_core.from_json(ttr_core.to_json(after), GameState, board=MAP) == after
    dealt = ttr_core.determinize(ttr_core.player_view(after, 1), 3)
    assert sh.shares(dealt) == sh.shares(after) and dealt.pending == after.pending
    end = over(ttr_core.new_game(MAP, 2, seed=4), 4)
    assert ttr_core.from_json(ttr_core.to_json(end), GameState, board=MAP) == end


def test_a_bad_shares_table_is_refused_with_what_was_expected(tmp_path: object) -> None:
    text = MAP_FILE.read_text(encoding="utf-8")
    broken = text.replace('{ id = "BR&P", name', '{ id = "PRR", name', 1)
    with pytest.raises(ttr_core.TtrError, match="repeated: PRR"):
        ttr_core.parse_map(broken)
    broken = text.replace("shares = 2, values = [7, 4]", "shares = 2, values = []", 1)
    with pytest.raises(ttr_core.TtrError, match="values must be a list"):
        ttr_core.parse_map(broken)
    broken = text.replace('"PRR", "B&O", "NYC"', '"PRR", "B&O", "XX"', 1)
    with pytest.raises(ttr_core.TtrError, match="not a company"):
        ttr_core.parse_map(broken)


def test_shares_need_a_map_with_company_logos() -> None:
    with pytest.raises(ttr_core.GameConfigError, match="companies"):
        ttr_core.new_game("usa", 2, variants=["shares"])


# -- hostile maps and saves -----------------------------------------------------------


def test_logos_that_are_no_list_of_ids_are_refused_and_shares_stay_installed() -> None:
    text = MAP_FILE.read_text(encoding="utf-8")
    broken = text.replace('companies = "list[str]"', 'companies = "int"', 1)
    broken = broken.replace('companies = ["PRR", "B&O", "NYC"]', "companies = 3", 1)
    with pytest.raises(ttr_core.TtrError):
        ttr_core.parse_map(broken, source="pennsylvania.toml")
    assert "shares" not in ttr_core.broken_variants()
    assert ttr_core.new_game(MAP, 2, seed=0).rules.variants[-1] == "shares"


def test_a_map_of_its_own_companies_field_without_shares_loads() -> None:
    """A map may name a route field ``companies`` for its own use: the shares
    plugin asks nothing of a map without its table, and refuses to be played there."""
    text = MAP_FILE.read_text(encoding="utf-8")
    start = text.index("\n[variants.shares]\n")
    end = text.index("]\n", text.index("companies = [", start)) + 2
    own = text[:start] + text[end:]
    own = own.replace('variants = ["ferries", "globetrotter", "shares"]', 'variants = ["ferries"]')
    board = ttr_core.parse_map(own, source="pennsylvania.toml")
    assert ttr_core.new_game(board, 2, seed=0).rules.variants == ("ferries",)
    with pytest.raises(ttr_core.GameConfigError, match="companies"):
        ttr_core.new_game(board, 2, seed=0, variants=["shares"])


@pytest.mark.parametrize("data", [-1, 0, 9999, "5", None])
def test_a_share_choice_on_a_route_it_cannot_be_for_breaks_the_invariant(data: object) -> None:
    state = game(3)
    route = route_of(state, "Baltimore", "Gettysburg")
    waiting = claimed(state, 0, route)
    assert not sh.ttr_check_state(waiting)
    bad = attrs.evolve(waiting, pending=attrs.evolve(waiting.pending, data=data))
    assert any("share choice waits" in p for p in sh.ttr_check_state(bad))
    with pytest.raises(ttr_core.TtrError):
        ttr_core.from_json(ttr_core.to_json(bad), GameState, board=MAP)


def test_the_dummys_reveal_is_checked() -> None:
    end = over(ttr_core.new_game(MAP, 2, seed=1), 1)
    current = sh.shares(end)
    assert current.revealed is not None and not sh.ttr_check_state(end)
    c = next(i for i, numbers in enumerate(current.revealed) if numbers)
    twice = list(current.revealed)
    twice[c] = (current.revealed[c][0],) * len(current.revealed[c]) + (current.revealed[c][0],)
    for revealed, words in [
        (tuple(twice), "twice"),
        (current.revealed[:-1], "expected 9 companies"),
        (None, "not revealed"),
    ]:
        bad = end.with_variant("shares", attrs.evolve(current, revealed=revealed))
        assert any(words in p for p in sh.ttr_check_state(bad)), (revealed, words)


def test_a_refusal_lists_a_bounded_number_of_choices() -> None:
    text = MAP_FILE.read_text(encoding="utf-8")
    every = ", ".join(f'"{c}"' for c in IDS)
    text = text.replace('companies = ["PRR", "B&O", "NYC"]', f"companies = [{every}]", 1)
    board = ttr_core.parse_map(text, source="pennsylvania.toml")
    state = started(ttr_core.new_game(board, 2, seed=0))
    route = next(r.id for r in board.routes if len(sh.route_companies(board, r.id)) == 9)
    waiting = claimed(state, 0, route)
    assert len(ttr_core.legal_actions(waiting)) == 82  # 9 companies x 9 for the dummy, or none
    with pytest.raises(IllegalAction) as caught:
        ttr_core.apply(waiting, TakeShare(0, "PRR", "XYZ"))
    assert str(caught.value).endswith(", ...") and len(str(caught.value)) < 800

"""The routes a seat may claim are worked out once per board position (kept by
the engine for each ``owners`` tuple and action table, updated claim by claim): the
listing they give must be the one worked out afresh from the state's fields,
however the state came about."""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs
import pytest

import ttr_core
from ttr_core import ClaimRoute, GameState
from ttr_core.model.state import UNCLAIMED, Hand, replace_state

from .helpers import new_started, route_id, with_hand

pytestmark = pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")


def afresh(state: GameState) -> tuple[ttr_core.Action, ...]:
    """The legal actions of a copy of ``state`` for which nothing was worked out."""
    owners = list(state.owners)  # an equal tuple, but a new one
    return ttr_core.legal_actions(attrs.evolve(state, owners=tuple(owners)))


def turns_of_random_games(
    map_name: str, players: int, variants: list[str] | None, games: int
) -> Iterator[GameState]:
    """The states where a seat takes its turn, along ``games`` random games."""
    for seed in range(games):
        state = ttr_core.new_game(map_name, players, seed=seed, variants=variants)
        chooser = random.Random(seed)
        while state.pending is not None:
            legal = ttr_core.legal_actions(state)
            if state.pending.kind == "turn":
                yield state
            state = ttr_core.apply(state, legal[chooser.randrange(len(legal))])


def claimed_routes(state: GameState) -> set[int]:
    return {a.route for a in ttr_core.legal_actions(state) if isinstance(a, ClaimRoute)}


@pytest.mark.parametrize(
    ("map_name", "players", "variants"),
    [
        ("newyork", 2, None),  # one route of a pair usable
        ("newyork", 4, None),  # both usable, never both by one seat
        ("nederland", 2, ["tolls", "neutral"]),  # a neutral owner that is no seat
        ("usa", 3, None),
        ("amsterdam", 4, None),
    ],
)
def test_listings_along_games_equal_listings_worked_out_afresh(
    map_name: str, players: int, variants: list[str] | None
) -> None:
    turns = 0
    for state in turns_of_random_games(map_name, players, variants, games=4):
        turns += 1
        assert ttr_core.legal_actions(state) == afresh(state), (state.seed, state.turn)
    assert turns > 100


def test_a_route_a_variant_marks_owned_is_no_longer_listed() -> None:
    state = new_started(players=2)
    rid = route_id(state, "Chelsea", "Soho")  # pink 4
    state = with_hand(state, 0, pink=4)
    assert rid in claimed_routes(state)
    # As a plugin would: attrs.evolve, or the engine's hot-path copy.
    owners = tuple(1 if r == rid else o for r, o in enumerate(state.owners))
    for owners_changed in (attrs.evolve(state, owners=owners), replace_state(state, owners=owners)):
        assert rid not in claimed_routes(owners_changed)
    # A copy that changes something else still lists it.
    assert rid in claimed_routes(replace_state(state, passes=0))


def test_the_partner_of_a_claimed_route_follows_the_pair_rule() -> None:
    for players, partner_listed in ((2, False), (4, True)):
        state = new_started(players=players)
        route = next(r for r in state.board.routes if r.partner is not None)
        assert route.partner is not None
        partner = state.board.routes[route.partner]
        cards = {"wild": max(route.length, partner.length)}
        state = with_hand(state, 1, **cards)
        owners = tuple(0 if r == route.id else o for r, o in enumerate(state.owners))
        state = attrs.evolve(state, owners=owners)
        state = ttr_core.apply(state, ttr_core.legal_actions(state)[0])  # seat 0 draws
        while state.current_player != 1:
            state = ttr_core.apply(state, ttr_core.legal_actions(state)[0])
        assert (partner.id in claimed_routes(state)) is partner_listed, players
        assert route.id not in claimed_routes(state)


def test_more_cards_or_cars_than_the_game_has_are_no_error() -> None:
    """A variant may deal extra cards or cars: claims are listed as the hand allows."""
    state = new_started(players=2)
    names = state.board.card_names
    counts = tuple(500 if name == "wild" else 0 for name in names)
    player = attrs.evolve(state.players[0], hand=Hand(counts, names), cars=10_000)
    state = attrs.evolve(state, players=(player, *state.players[1:]))
    free = {r for r, owner in enumerate(state.owners) if owner == UNCLAIMED}
    assert claimed_routes(state) == free
    assert ttr_core.legal_actions(state) == afresh(state)


def test_the_same_owners_under_either_pair_rule() -> None:
    """What is kept for an owners tuple serves either pair rule: Nederland with
    2 players allows one route of a pair, with tolls both (one action table)."""
    plain = new_started(players=2, map="nederland", variants=[])
    tolls = ttr_core.new_game("nederland", 2, seed=0)
    assert plain.board is tolls.board
    assert not plain.rules.both_pair_routes_usable and tolls.rules.both_pair_routes_usable
    seat = plain.pending.player if plain.pending else 0
    route = next(r for r in plain.board.routes if r.partner is not None)
    assert route.partner is not None
    owners = tuple(1 - seat if r == route.id else o for r, o in enumerate(plain.owners))
    plain = with_hand(attrs.evolve(plain, owners=owners), seat, wild=6)
    as_tolls = attrs.evolve(plain, rules=tolls.rules)  # the same owners tuple
    for first, second in ((as_tolls, plain), (plain, as_tolls)):
        listed = [route.partner in claimed_routes(state) for state in (first, second)]
        assert listed == [first is as_tolls, second is as_tolls]
    for action in ttr_core.legal_actions(plain):  # every claim listed applies
        if isinstance(action, ClaimRoute):
            ttr_core.apply(plain, action)


def claimable_by_the_rules(state: GameState, seat: int) -> list[int]:
    """The routes ``seat`` can claim now, from the rules alone: free, not the
    partner of its own route nor (one route of a pair only) of anyone's, no
    longer than its cars, and payable from its hand in some colour."""
    board = state.board
    hand = state.players[seat].hand
    wilds = hand["wild"]
    found = []
    for route in board.routes:
        if state.owners[route.id] != UNCLAIMED or route.length > state.players[seat].cars:
            continue
        if route.partner is not None:
            partner_owner = state.owners[route.partner]
            if partner_owner == seat or (
                partner_owner != UNCLAIMED and not state.rules.both_pair_routes_usable
            ):
                continue
        colours = board.colors if route.color == "gray" else (route.color,)
        if any(hand[c] + wilds >= route.length for c in colours) or wilds >= route.length:
            found.append(route.id)
    return found


@pytest.mark.parametrize(
    ("map_name", "players", "variants"),
    [("newyork", 2, None), ("usa", 4, None), ("nederland", 2, []), ("nederland", 4, None)],
)
def test_the_routes_listed_are_those_the_rules_allow(
    map_name: str, players: int, variants: list[str] | None
) -> None:
    for state in turns_of_random_games(map_name, players, variants, games=3):
        listed = [a.route for a in ttr_core.legal_actions(state) if isinstance(a, ClaimRoute)]
        assert state.pending is not None
        assert list(dict.fromkeys(listed)) == claimable_by_the_rules(state, state.pending.player)

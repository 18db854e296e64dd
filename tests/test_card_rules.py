"""Card rules as map data (issue 32): where wild cards pay (``[rules.cards]
wild_routes``), what a face-up wild is (``face_up_wild``), a display that is
never laid out again (``max_face_up_wilds = display_size``), unkept tickets to
the box (``returned = "box"``), and a double route of unequal lengths — each
pinned on the test map, against the pure API and the playout alike."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest

import ttr_core
from ttr_core import (
    ClaimRoute,
    DrawFaceUp,
    DrawTickets,
    GameState,
    IllegalAction,
    KeepTickets,
    Pending,
    Reason,
)
from ttr_core.testing import check_rules

from .helpers import set_deck, set_display, started, with_hand

MAP = str(Path(__file__).with_name("data") / "regions.toml")
TUNNEL = 1  # Mid–East 1, blue 2, a tunnel
PLAIN = 3  # Home–West 1, blue 1
GRAY_PLAIN, GRAY_TUNNEL = 4, 5  # Mid–North, a pair of lengths 2 and 3


def game(players: int = 2, seed: int = 0) -> GameState:
    return started(ttr_core.new_game(MAP, players, seed=seed))


def turn_of(state: GameState, seat: int = 0) -> GameState:
    return attrs.evolve(state, pending=Pending("turn", seat))


def claims(state: GameState, route: int) -> set[ClaimRoute]:
    return {a for a in ttr_core.legal_actions(state) if type(a) is ClaimRoute and a.route == route}


def test_the_map_reads_its_card_rules() -> None:
    board = ttr_core.load_map(MAP)
    assert board.rules.wild_routes == ("tunnel",)
    assert board.rules.face_up_wild == "card"
    assert board.rules.returned_tickets == "box"
    assert board.routes[4].length != board.routes[5].length
    assert board.routes[4].partner == 5
    assert board.routes[0].extra["logos"] == ("A", "B")
    assert board.variant_data["example"]["table"]["a"] == (1, 2)


def test_wilds_pay_on_a_tunnel_only() -> None:
    state = turn_of(with_hand(game(), 0, blue=1, wild=3, red=1))
    # The tunnel (blue 2): one blue and a wild, or two wilds.
    assert claims(state, TUNNEL) == {
        ClaimRoute(0, TUNNEL, "blue", 1),
        ClaimRoute(0, TUNNEL, None, 2),
    }
    # The plain blue route of length 1: the blue card only, never a wild.
    assert claims(state, PLAIN) == {ClaimRoute(0, PLAIN, "blue", 0)}
    # The gray pair: the plain half needs 2 of one colour (none held), the
    # tunnel half takes wilds.
    assert claims(state, GRAY_PLAIN) == set()
    assert ClaimRoute(0, GRAY_TUNNEL, None, 3) in claims(state, GRAY_TUNNEL)


@pytest.mark.parametrize(
    "action",
    [ClaimRoute(0, PLAIN, None, 1), ClaimRoute(0, GRAY_PLAIN, "red", 1)],
)
def test_a_wild_on_a_plain_route_is_refused_and_changes_nothing(action: ClaimRoute) -> None:
    state = turn_of(with_hand(game(), 0, blue=2, red=2, wild=3))
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, action)
    assert err.value.reason == Reason.CARDS_DO_NOT_PAY
    assert "pay only on routes marked tunnel" in str(err.value)
    assert ttr_core.legal_actions(state) == ttr_core.legal_actions(turn_of(state))


def test_a_face_up_wild_is_an_ordinary_card() -> None:
    state = turn_of(set_display(with_hand(game(), 0), "wild", "wild", "red"))
    after = ttr_core.apply(state, DrawFaceUp(0, 0))
    # Taken first, the draw goes on; a face-up wild may also be the second card.
    assert after.pending == Pending("second_card", 0)
    second = [a for a in ttr_core.legal_actions(after) if type(a) is DrawFaceUp]
    assert after.display[1] == after.board.wild and DrawFaceUp(0, 1) in second
    done = ttr_core.apply(after, DrawFaceUp(0, 1))
    assert done.players[0].hand["wild"] == 2 and done.current_player == 1


def test_base_maps_keep_the_face_up_wild_rule() -> None:
    state = started(ttr_core.new_game("newyork", 2, seed=0))
    state = turn_of(set_display(state, "wild", "red", "blue", "green", "black"))
    after = ttr_core.apply(state, DrawFaceUp(0, 0))
    assert after.current_player == 1  # the whole draw


def test_a_display_of_wilds_is_never_laid_out_again() -> None:
    state = turn_of(set_deck(set_display(game(), "wild", "wild", "red"), "wild", "red", "blue"))
    after = ttr_core.apply(state, DrawFaceUp(0, 2))
    # The refill is a third wild, and the display stays: max_face_up_wilds =
    # display_size. (Three face-up wilds of five reset a base map's display.)
    wild = after.board.wild
    assert after.display == (wild, wild, wild)
    assert after.discard == state.discard


def test_unkept_drawn_tickets_go_to_the_box() -> None:
    state = turn_of(game())
    drawn = ttr_core.apply(state, DrawTickets(0))
    assert drawn.pending is not None
    offered = drawn.pending.offered
    kept = ttr_core.apply(drawn, KeepTickets(0, offered[:1]))
    assert kept.boxed_tickets[-len(offered) + 1 :] == offered[1:]
    assert not set(offered[1:]) & set(kept.ticket_deck)


def test_random_games_agree_between_the_pure_api_and_the_playout() -> None:
    for seed in range(12):
        state = ttr_core.new_game(MAP, 2 + seed % 2, seed=seed)
        play = ttr_core.Playout(state)
        rng = random.Random(seed)
        while not state.is_over:
            legal = ttr_core.legal_actions(state)
            assert play.legal_actions() == legal
            # No claim listed pays a wild on a route that is no tunnel.
            assert all(
                a.route in (TUNNEL, GRAY_TUNNEL) for a in legal if type(a) is ClaimRoute and a.wilds
            )
            action = rng.choice(legal)
            state = ttr_core.apply(state, action)
            play.apply(action)
            assert play.snapshot() == state


def test_every_invariant_holds_on_the_test_map() -> None:
    check_rules(ttr_core.load_map(MAP), [], examples=25)

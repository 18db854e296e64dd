"""Merchandise cards (Amsterdam): every rule of the "merchandise" variant.

The games are played on a small map written below, whose cart routes
(``merchandise = true``) have lengths 1 to 4.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ttr_core_plugins.merchandise import CARDS, MERCHANDISE_POINTS, MerchandiseState, merchandise

import ttr_core
from ttr_core import ClaimRoute, GameState, OptionError, effects, rank_bonus

from .helpers import card_total, claim, started, with_hand

SMALL_MAP = """\
format = 1

[map]
id = "small-merchandise"
name = "Small Merchandise Map"
players = [2, 4]

[cards]
colors = { red = 8, blue = 8, green = 8 }
wild = 6

[rules]
cars_per_player = 10
starting_hand = 3
display_size = 3
max_face_up_wilds = 1
end_trigger_cars = 2
both_pair_routes_min_players = 3

[rules.tickets]
start_dealt = 2
start_keep = 1
draw = 2
draw_keep = 1
returned = "bottom"

[rules.route_points]
1 = 1
2 = 2
3 = 4
4 = 7

[components]
locations = 5
routes = 8
spaces = 18
tickets = 10
cards = 30

[board]
locations = [
  { name = "Alpha" },
  { name = "Beta" },
  { name = "Gamma" },
  { name = "Delta" },
  { name = "Epsilon" },
]
routes = [
  { id = 0, a = "Alpha", b = "Beta", color = "red", length = 1, merchandise = true },
  { id = 1, a = "Beta", b = "Gamma", color = "blue", length = 2 },
  { id = 2, a = "Gamma", b = "Delta", color = "green", length = 3, merchandise = true },
  { id = 3, a = "Delta", b = "Epsilon", color = "gray", length = 4, merchandise = true },
  { id = 4, a = "Epsilon", b = "Alpha", color = "red", length = 2, merchandise = true },
  { id = 5, a = "Alpha", b = "Gamma", color = "gray", length = 1 },
  { id = 6, a = "Beta", b = "Delta", color = "blue", length = 1, merchandise = true },
  { id = 7, a = "Gamma", b = "Epsilon", color = "green", length = 4 },
]
tickets = [
  { id = 0, a = "Alpha", b = "Delta", points = 4 },
  { id = 1, a = "Beta", b = "Epsilon", points = 5 },
  { id = 2, a = "Alpha", b = "Gamma", points = 1 },
  { id = 3, a = "Beta", b = "Delta", points = 1 },
  { id = 4, a = "Gamma", b = "Epsilon", points = 4 },
  { id = 5, a = "Alpha", b = "Epsilon", points = 2 },
  { id = 6, a = "Beta", b = "Gamma", points = 2 },
  { id = 7, a = "Delta", b = "Epsilon", points = 4 },
  { id = 8, a = "Alpha", b = "Beta", points = 1 },
  { id = 9, a = "Gamma", b = "Delta", points = 3 },
]
"""

BOARD = ttr_core.parse_map(SMALL_MAP, "small.toml")
# Route ids on the small map.
CART_1, CART_2, CART_3, CART_4, CART_1B = 0, 4, 2, 3, 6
PLAIN_1, PLAIN_2, PLAIN_4 = 5, 1, 7


def game(
    players: int = 2, seed: int = 0, options: dict[str, dict[str, object]] | None = None
) -> GameState:
    return started(
        ttr_core.new_game(BOARD, players, seed=seed, variants=["merchandise"], options=options)
    )


def with_merchandise(state: GameState, held: tuple[int, ...]) -> GameState:
    """The state with ``held`` cards per seat, the deck keeping the rest of 16."""
    return state.with_variant("merchandise", MerchandiseState(held, CARDS - sum(held)))


def merchandise_lines(state: GameState) -> list[tuple[str, int]]:
    lines = []
    for sheet in ttr_core.score_sheets(state):
        (line,) = [line for line in sheet.lines if line.kind == "merchandise"]
        lines.append((line.label, line.points))
    return lines


def merchandise_points(state: GameState) -> list[int]:
    return [points for _, points in merchandise_lines(state)]


# ---------------------------------------------------------------------------
# The map field and the set-up
# ---------------------------------------------------------------------------


def test_cart_routes_come_from_the_merchandise_map_field_default_false() -> None:
    carts = {route.id for route in BOARD.routes if route.extra["merchandise"]}
    assert carts == {CART_1, CART_2, CART_3, CART_4, CART_1B}
    assert BOARD.routes[PLAIN_1].extra["merchandise"] is False
    assert {BOARD.routes[r].length for r in carts} == {1, 2, 3, 4}


def test_the_deck_starts_with_16_cards_and_nobody_holds_any() -> None:
    assert CARDS == 16
    for players in (2, 3, 4):
        assert merchandise(game(players)) == MerchandiseState((0,) * players, 16)


def test_the_points_table_is_the_rulebooks_for_2_to_4_players() -> None:
    assert MERCHANDISE_POINTS == {2: (8, 4), 3: (8, 5, 2), 4: (8, 6, 4, 2)}


def test_the_variant_refuses_a_player_count_outside_2_to_4() -> None:
    five = ttr_core.parse_map(SMALL_MAP.replace("players = [2, 4]", "players = [2, 5]"), "5.toml")
    with pytest.raises(ttr_core.GameConfigError, match="2 to 4 players, not 5") as refused:
        ttr_core.new_game(five, 5, variants=["merchandise"])
    assert refused.value.variant == "merchandise"


def test_a_game_without_the_variant_has_no_merchandise() -> None:
    state = started(ttr_core.new_game(BOARD, 2, variants=[]))
    state = claim(state, 0, CART_1, "red")
    assert state.variant("merchandise") is None
    assert "merchandise.held" not in ttr_core.player_view(state, 0).variants
    assert not any(
        line.kind == "merchandise" for sheet in ttr_core.score_sheets(state) for line in sheet.lines
    )


# ---------------------------------------------------------------------------
# Drawing on a claim
# ---------------------------------------------------------------------------


def test_one_card_per_cart_route_whatever_its_length() -> None:
    state = game(2)
    state = claim(state, 0, CART_1, "red")
    assert merchandise(state) == MerchandiseState((1, 0), 15)
    state = claim(state, 0, CART_4, "green")
    assert merchandise(state) == MerchandiseState((2, 0), 14)
    state = claim(state, 1, CART_3, "green")
    assert merchandise(state) == MerchandiseState((2, 1), 13)


def test_a_claim_through_the_effect_helper_draws_too() -> None:
    state = with_hand(game(3), 2, blue=1)
    state = effects.claim_route(state, CART_1B, 2, {"blue": 1})
    assert state.owner(CART_1B) == 2
    assert merchandise(state) == MerchandiseState((0, 0, 1), 15)


def test_no_card_for_a_plain_route() -> None:
    state = game(2)
    for rid, color in ((PLAIN_1, "blue"), (PLAIN_2, "blue"), (PLAIN_4, "green")):
        state = claim(state, 0, rid, color)
    assert len(state.players[0].routes) == 3
    assert merchandise(state) == MerchandiseState((0, 0), 16)


def test_no_card_once_the_deck_is_empty() -> None:
    state = game(2).with_variant("merchandise", MerchandiseState((9, 7), 0))
    state = claim(state, 1, CART_2, "red")  # E13: the claim stands, nothing is drawn
    assert state.owner(CART_2) == 1
    assert merchandise(state) == MerchandiseState((9, 7), 0)


def test_the_last_card_goes_to_the_first_claim_and_none_to_the_next() -> None:
    state = game(2).with_variant("merchandise", MerchandiseState((8, 7), 1))
    state = claim(state, 1, CART_1, "red")
    assert merchandise(state) == MerchandiseState((8, 8), 0)
    state = claim(state, 0, CART_3, "green")
    assert merchandise(state) == MerchandiseState((8, 8), 0)


def test_a_non_seat_owner_draws_nothing() -> None:
    state = game(2)
    neutral = state.num_players
    after = effects.claim_route(state, CART_4, neutral, None)
    assert after.owner(CART_4) == neutral
    assert merchandise(after) == MerchandiseState((0, 0), 16)


def test_the_cards_option_changes_the_deck() -> None:
    state = game(2, options={"merchandise": {"cards": 1}})
    assert state.rules.option("merchandise", "cards") == 1
    assert merchandise(state) == MerchandiseState((0, 0), 1)
    state = claim(state, 0, CART_1, "red")
    state = claim(state, 1, CART_3, "green")
    assert merchandise(state) == MerchandiseState((1, 0), 0)
    assert merchandise(game(4, options={"merchandise": {"cards": 0}})).deck == 0
    with pytest.raises(OptionError):
        game(2, options={"merchandise": {"cards": -1}})


# ---------------------------------------------------------------------------
# End scoring by rank
# ---------------------------------------------------------------------------


def test_ranking_four_players_with_ties() -> None:
    state = with_merchandise(game(4), (5, 3, 5, 1))
    # two tied first both score +8; the next is third (+4), the last fourth (+2)
    assert merchandise_points(state) == [8, 4, 8, 2]
    assert merchandise_points(with_merchandise(game(4), (4, 3, 2, 1))) == [8, 6, 4, 2]
    assert merchandise_points(with_merchandise(game(4), (2, 6, 2, 2))) == [6, 8, 6, 6]


def test_ranking_three_players() -> None:
    assert merchandise_points(with_merchandise(game(3), (1, 3, 2))) == [2, 8, 5]
    assert merchandise_points(with_merchandise(game(3), (4, 2, 2))) == [8, 5, 5]
    assert merchandise_points(with_merchandise(game(3), (3, 3, 1))) == [8, 8, 2]


def test_ranking_two_players() -> None:
    assert merchandise_points(with_merchandise(game(2), (2, 5))) == [4, 8]
    assert merchandise_points(with_merchandise(game(2), (3, 3))) == [8, 8]


def test_players_with_none_take_no_rank() -> None:
    state = with_merchandise(game(4), (0, 3, 0, 1))
    # the seat holding 1 is second, not fourth; the seats with none score nothing
    assert merchandise_points(state) == [0, 8, 0, 6]
    assert merchandise_points(with_merchandise(game(2), (0, 0))) == [0, 0]
    assert merchandise_points(with_merchandise(game(3), (0, 2, 0))) == [0, 8, 0]


def test_the_ranking_is_the_core_rank_bonus() -> None:
    held = (5, 3, 5, 1)
    expected = rank_bonus(held, MERCHANDISE_POINTS[4], [True] * 4)
    assert [points for _, points in expected] == merchandise_points(with_merchandise(game(4), held))


def test_the_score_line_says_rank_and_count() -> None:
    state = with_merchandise(game(4), (5, 6, 0, 1))
    assert merchandise_lines(state) == [
        ("Merchandise: 5 cards, rank 2", 6),
        ("Merchandise: 6 cards, rank 1", 8),
        ("Merchandise: none", 0),
        ("Merchandise: 1 card, rank 3", 4),
    ]


def test_merchandise_scores_after_routes_and_tickets() -> None:
    state = with_merchandise(game(2), (2, 0))
    sheet = ttr_core.score_sheets(state)[0]
    kinds = [line.kind for line in sheet.lines]
    assert kinds[0] == "routes"
    assert kinds[-1] == "merchandise"
    assert set(kinds[1:-1]) <= {"ticket"}
    assert sheet.total == sum(line.points for line in sheet.lines)


# ---------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------


def test_counts_are_public_in_every_view() -> None:
    state = game(3)
    state = claim(state, 1, CART_2, "red")
    state = claim(state, 2, CART_1B, "blue")
    state = claim(state, 2, CART_1, "red")
    for seat in range(3):
        shown = ttr_core.player_view(state, seat).variants
        assert shown["merchandise.held"] == (0, 1, 2)
        assert shown["merchandise.deck"] == 13


# ---------------------------------------------------------------------------
# Random games
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("variants", [["merchandise"], []], ids=["merchandise", "none"])
@settings(max_examples=30)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), cards=st.integers(0, CARDS))
def test_random_games_conserve_cards_and_merchandise(
    variants: list[str], players: int, seed: int, cards: int
) -> None:
    chooser = random.Random(seed)
    options = {"merchandise": {"cards": cards}} if variants else None
    state = ttr_core.new_game(BOARD, players, seed=seed, variants=variants, options=options)
    steps = 0
    while True:
        assert card_total(state) == BOARD.total_cards
        current = state.variant("merchandise")
        if variants:
            assert isinstance(current, MerchandiseState)
            assert current.deck >= 0 and min(current.held) >= 0
            assert current.deck + sum(current.held) == cards
        else:
            assert current is None
        if ttr_core.is_over(state):
            break
        legal = ttr_core.legal_actions(state)
        action = legal[chooser.randrange(len(legal))]
        after = ttr_core.apply(state, action)
        if variants:
            drawn = [b - a for a, b in zip(current.held, merchandise(after).held, strict=True)]
            cart = (
                isinstance(action, ClaimRoute) and BOARD.routes[action.route].extra["merchandise"]
            )
            expected = [0] * players
            if cart and current.deck:
                expected[action.player] = 1
            assert drawn == expected
        state = after
        steps += 1
        assert steps < 2000, "game did not end"
    scores = ttr_core.final_scores(state)
    for sheet in scores.sheets:
        assert sheet.total == sum(line.points for line in sheet.lines)
    kinds = {line.kind for sheet in scores.sheets for line in sheet.lines}
    assert ("merchandise" in kinds) == bool(variants)
